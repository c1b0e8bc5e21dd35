// Package budget holds symbo's memory budget as a value: the largest
// number of bytes one request (a matrix, an orbit buffer, a set of GP work
// matrices, an input copy, an output) may allocate. Requests are sized
// before anything is allocated and refused above it, so that hostile or
// mistyped input gives a clear error instead of an out-of-memory crash.
//
// # Invariants
//
// The package keeps no state. A budget is a Limit the caller passes down
// (the public packages take it as an int64 Budget field of their options:
// orbit.Enumerator, kernel.Options, gp.Options and gp.FitOptions,
// bo.Config); its zero value means Default, 8 GiB, fixed and documented —
// never the environment. Only the edges read the environment variable
// SYMBO_MEMORY_BUDGET, through FromEnv: perf (the default of its
// --mem-budget flag) and the C ABI (once, at its first call), and through
// the C ABI the Python package.
//
// # Errors
//
// Check's refusals wrap ErrOverBudget, which orbit exports as
// orbit.ErrOverBudget, and say how to raise the budget. Parse and FromEnv
// reject malformed sizes.
//
// # Concurrency
//
// Everything is safe for concurrent use: there is nothing to share.
package budget

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/symbo/symbo/internal/errclass"
)

// Default is the budget a zero Limit (a zero Budget field) means: 8 GiB.
const Default int64 = 8 << 30

// EnvVar names the environment variable the edges (perf, the C ABI) read
// the budget from.
const EnvVar = "SYMBO_MEMORY_BUDGET"

// ErrOverBudget reports a request over the memory budget. orbit exports it
// as orbit.ErrOverBudget (the same value): public callers test with that.
var ErrOverBudget = errclass.New(errclass.Size, "orbit: over memory budget")

// Limit is a memory budget in bytes; 0 (or anything below 1) means
// Default. Public options validate their Budget field (negative values are
// their error) before converting it.
type Limit int64

// Bytes returns the budget in bytes: l, or Default for l < 1.
func (l Limit) Bytes() int64 {
	if l < 1 {
		return Default
	}
	return int64(l)
}

// Fits reports whether a request of the given bytes (a float64, so that
// products of sizes cannot overflow) fits the budget.
func (l Limit) Fits(bytes float64) bool { return bytes <= float64(l.Bytes()) }

// Check returns nil if a request of the given bytes fits the budget, and
// otherwise an error wrapping ErrOverBudget that names what, the bytes,
// the budget and how to raise it.
func (l Limit) Check(what string, bytes float64) error {
	if l.Fits(bytes) {
		return nil
	}
	return fmt.Errorf("%w: %s needs %s, over the budget of %s (%s)",
		ErrOverBudget, what, Format(bytes), Format(float64(l.Bytes())), HowToRaise)
}

// HowToRaise is the advice every over-budget message ends with.
const HowToRaise = "raise it with " + EnvVar + ", e.g. " + EnvVar + "=64GiB, perf --mem-budget, the settings key mem_budget, or in Go a Budget option"

// FromEnv returns the budget SYMBO_MEMORY_BUDGET sets: 0 (Default) when it
// is unset or blank, an error naming the variable when it is malformed.
// The edges call it (perf per subcommand, the C ABI once); library code
// never does.
func FromEnv() (Limit, error) {
	s, ok := os.LookupEnv(EnvVar)
	if !ok || strings.TrimSpace(s) == "" {
		return 0, nil
	}
	b, err := Parse(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", EnvVar, err)
	}
	return Limit(b), nil
}

// Parse reads a size: a positive number with an optional binary unit
// (B, KiB, MiB, GiB, TiB; case-insensitive; K, M, G, T and KB, MB, GB, TB
// are read as the binary units too).
func Parse(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range []struct {
		suf string
		m   float64
	}{{"tib", 1 << 40}, {"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10},
		{"tb", 1 << 40}, {"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10},
		{"t", 1 << 40}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1}} {
		if strings.HasSuffix(t, u.suf) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suf)), u.m
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) || v*mult >= math.MaxInt64 {
		return 0, fmt.Errorf("bad memory size %q (want e.g. 16GiB, 512MiB or a number of bytes)", s)
	}
	return max(int64(v*mult), 1), nil
}

// Format writes a byte count with a binary unit, e.g. "6.2 GiB".
func Format(bytes float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := 0
	for bytes >= 1024 && u < len(units)-1 {
		bytes /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%.0f B", bytes)
	}
	return fmt.Sprintf("%.3g %s", bytes, units[u])
}
