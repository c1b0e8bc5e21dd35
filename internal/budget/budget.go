// Package budget holds symbo's process-wide memory budget: the largest
// number of bytes one request (a matrix, an orbit buffer, a set of GP work
// matrices, an output) may allocate. Requests are sized before anything is
// allocated and refused above it, so that hostile or mistyped input gives
// a clear error instead of an out-of-memory crash.
//
// The budget is Default unless the environment variable
// SYMBO_MEMORY_BUDGET holds a size ("16GiB", "512MiB", "2e9", "1024KiB";
// binary units B, KiB, MiB, GiB, TiB or a plain number of bytes), read once
// at start-up; SetLimit overrides it (the command line's --mem-budget).
// Public packages expose it as orbit.MemoryBudget and report refusals with
// orbit.ErrOverBudget.
package budget

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// Default is the budget without SYMBO_MEMORY_BUDGET: 8 GiB.
const Default int64 = 8 << 30

// EnvVar names the environment variable that sets the budget.
const EnvVar = "SYMBO_MEMORY_BUDGET"

var limit atomic.Int64

// envErr records a malformed SYMBO_MEMORY_BUDGET (the default is used).
var envErr error

func init() {
	limit.Store(Default)
	if s, ok := os.LookupEnv(EnvVar); ok && strings.TrimSpace(s) != "" {
		b, err := Parse(s)
		if err != nil {
			envErr = fmt.Errorf("%s: %w", EnvVar, err)
			return
		}
		limit.Store(b)
	}
}

// EnvError reports a malformed SYMBO_MEMORY_BUDGET, or nil.
func EnvError() error { return envErr }

// Limit returns the budget in bytes.
func Limit() int64 { return limit.Load() }

// SetLimit sets the budget (b ≥ 1) and returns a function restoring the
// previous one.
func SetLimit(b int64) (restore func()) {
	if b < 1 {
		panic("budget: SetLimit needs a positive budget")
	}
	old := limit.Swap(b)
	return func() { limit.Store(old) }
}

// Fits reports whether a request of the given bytes (a float64, so that
// products of sizes cannot overflow) fits the budget.
func Fits(bytes float64) bool { return bytes <= float64(Limit()) }

// Parse reads a size: a non-negative number with an optional binary unit
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
