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
// Check's refusals wrap ErrOverBudget (a Size error, internal/errclass),
// which orbit exports as orbit.ErrOverBudget, and say how to raise the
// budget. Parse and FromEnv reject malformed sizes with plain errors that
// carry no class (errclass.Of says Internal): the edges that read a size
// from their user wrap them as input errors (the C ABI's SYMBO_EINVAL).
//
// # Cost
//
// Bytes, Fits and Check are O(1) (Check formats its message only on a
// refusal); Parse and FromEnv are O(len(s)); nothing allocates but the
// errors and Format's string.
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
	"unicode"

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

// units are the units a size may carry (Parse), binary only: a decimal
// spelling such as "1GB" or "1G" is refused, not read as GiB.
var units = []struct {
	Name  string
	Bytes int64
}{{"B", 1}, {"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}}

// Parse reads a size: a positive whole number of bytes, written as a
// decimal number (digits, an optional fraction, an optional exponent:
// "16", "1.5", "2e9"; no sign, hexadecimal or digit separators) with an
// optional unit of units (B, KiB, MiB, GiB, TiB; case-insensitive),
// e.g. "16GiB", "1.5KiB", "2e9"; ASCII spaces and tabs around the number
// and the unit are ignored. A size that is not a whole number of bytes
// ("0.5", "0.1GiB") is refused, as is any other unit or spelling.
func Parse(s string) (int64, error) {
	t := strings.Trim(s, " \t")
	num := strings.TrimRightFunc(t, unicode.IsLetter)
	unit := t[len(num):]
	num = strings.Trim(num, " \t")
	if !decimal(num) {
		return 0, fmt.Errorf("bad memory size %q (want e.g. 16GiB, 512MiB or a number of bytes such as 2e9, in decimal)", s)
	}
	mult := int64(0)
	if unit == "" {
		mult = 1
	}
	var names []string
	for _, u := range units {
		if strings.EqualFold(unit, u.Name) {
			mult = u.Bytes
		}
		names = append(names, u.Name)
	}
	if mult == 0 {
		return 0, fmt.Errorf("bad memory size %q: unknown unit %q (want one of %s, or none for bytes)", s, unit, strings.Join(names, ", "))
	}
	v, err := strconv.ParseFloat(num, 64)
	if err == nil && v > 0 && v*float64(mult) >= math.MaxInt64 {
		// 2⁶³ bytes or more (float64 rounds 2⁶³ − 1 up to 2⁶³).
		return 0, fmt.Errorf("bad memory size %q: at least 2^63 bytes, more than a budget holds (want below 8 EiB, e.g. 64GiB)", s)
	}
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("bad memory size %q (want e.g. 16GiB, 512MiB or a number of bytes)", s)
	}
	// mult is a power of two: the product is exact.
	if b := v * float64(mult); b != math.Trunc(b) {
		return 0, fmt.Errorf("bad memory size %q: %v bytes is not a whole number of bytes", s, b)
	}
	return int64(v * float64(mult)), nil
}

// decimal reports whether s is digits with an optional fraction and an
// optional exponent — what strconv.ParseFloat reads, less its signs,
// hexadecimal forms, underscores, infinities and NaNs.
func decimal(s string) bool {
	digits := func(i int) int {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j
	}
	i := digits(0)
	n := i
	if i < len(s) && s[i] == '.' {
		j := digits(i + 1)
		n += j - i - 1
		i = j
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
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
