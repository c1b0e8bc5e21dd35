package orbit

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/errclass"
)

// Sentinel errors; returned errors wrap one of them (test with errors.Is)
// and add what went wrong, e.g.
// "orbit: invalid group: pairedperm needs an even d = 2m, got 7".
var (
	// ErrInvalid reports bad group parameters (d < 1, odd d for
	// pairedperm, d not a multiple of the block size, a bad box, a
	// non-orthogonal matrix, …).
	ErrInvalid = errclass.New(errclass.Input, "orbit: invalid group")
	// ErrUnknown reports an unknown group name.
	ErrUnknown = errclass.New(errclass.Input, "orbit: unknown group")
	// ErrTooLarge reports a finite group whose order does not fit in an
	// int, or a matrix group whose closure exceeds MaxMatrixOrder.
	ErrTooLarge = errclass.New(errclass.Input, "orbit: group too large")
	// ErrInfinite reports a continuous group where a finite one is needed.
	ErrInfinite = errclass.New(errclass.Input, "orbit: group is continuous")
	// ErrOverBudget reports a request over a memory budget: an orbit
	// buffer over the Enumerator's, and from kernel, gp and bo any
	// request over the Budget of their options (see DefaultBudget). It is
	// the one over-budget sentinel of symbo (internal/budget's value), a
	// size error (internal/errclass).
	ErrOverBudget = budget.ErrOverBudget
)

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// Size returns |G| as an int. It fails with ErrInfinite for a continuous
// group, with ErrTooLarge, naming the group and its order (e.g.
// "hyperoctahedral(20) has 2.6e+24 elements"), if the order overflows int,
// and with ErrInvalid for a nil group (IsNil) and for a group (a caller's
// own type) that declares fewer than one element: every group holds its
// identity.
func Size(g Group) (int, error) {
	if IsNil(g) {
		return 0, fmt.Errorf("%w: nil group", ErrInvalid)
	}
	o := g.Order()
	if o == nil {
		return 0, fmt.Errorf("%w: %s has infinitely many elements", ErrInfinite, g.Name())
	}
	if o.Sign() <= 0 {
		n := "0"
		if o.Sign() < 0 {
			n = "−" + approx(new(big.Int).Neg(o))
		}
		return 0, fmt.Errorf("%w: %s declares %s elements; a group has at least one, its identity", ErrInvalid, g.Name(), n)
	}
	n := intOrder(o)
	if n < 0 {
		return 0, fmt.Errorf("%w: %s has %s elements", ErrTooLarge, g.Name(), approx(o))
	}
	return n, nil
}

// approx formats a non-negative integer with two significant digits. It
// costs O(1) big-integer work whatever the size of o (converting 2^(10⁹) to
// decimal text would take minutes): the mantissa and the decimal exponent
// come from the top 64 bits and the bit length.
func approx(o *big.Int) string {
	n := o.BitLen()
	if n <= 64 {
		return new(big.Float).SetInt(o).Text('g', 2)
	}
	shift := n - 64
	top := new(big.Int).Rsh(o, uint(shift)).Uint64()
	l := math.Log10(float64(top)) + float64(shift)*math.Log10(2)
	e := math.Floor(l)
	m := math.Pow(10, l-e)
	if m >= 9.95 { // rounds up to 10
		m, e = 1, e+1
	}
	return fmt.Sprintf("%.1fe+%02.0f", m, e)
}

func checkLen(name string, dst, x []float64, d int) {
	if len(dst) != d || len(x) != d {
		panic(fmt.Sprintf("orbit: %s: lengths dst %d, x %d, want %d", name, len(dst), len(x), d))
	}
}

func checkLen2(name string, x, y []float64, d int) {
	if len(x) != d || len(y) != d {
		panic(fmt.Sprintf("orbit: %s: lengths x %d, y %d, want %d", name, len(x), len(y), d))
	}
}

func checkIndex(name string, i, n int) {
	if i < 0 || (n >= 0 && i >= n) {
		panic(fmt.Sprintf("orbit: %s: element index %d out of range [0, %d)", name, i, n))
	}
}

// Check refuses (ErrInvalid) a group whose declarations symbo cannot
// rely on, before any kernel or optimizer sizes a buffer from them: a
// nil group (IsNil), a dimension below 1, a Finite group whose Order is
// nil or below 1 (Size's errors but ErrTooLarge), an Embedded group whose
// inner group is nil or whose coordinates are not its dimension's
// distinct indices in [0, Dim()), and a Canonicalizer whose CanonicalDim
// is below 1. The groups of this package pass; Check is for
// a caller's own type, and every function of symbo that takes a group
// for a kernel or an optimizer calls it.
func Check(g Group) error {
	if IsNil(g) {
		return fmt.Errorf("%w: nil group", ErrInvalid)
	}
	if d := g.Dim(); d < 1 {
		return fmt.Errorf("%w: group %s has dimension %d", ErrInvalid, g.Name(), d)
	}
	if f, ok := g.(Finite); ok {
		if f.Order() == nil { // Size's ErrInfinite would call it continuous
			return fmt.Errorf("%w: group %s is Finite (ActTo, Inverse) but declares no order (Order nil)", ErrInvalid, g.Name())
		}
		if _, err := Size(f); err != nil && !errors.Is(err, ErrTooLarge) {
			return err
		}
	}
	if e, ok := g.(Embedded); ok {
		inner, coords := e.Inner()
		if IsNil(inner) || len(coords) != inner.Dim() {
			return fmt.Errorf("%w: %s declares an inner group on %d coordinates that is nil or of another dimension", ErrInvalid, g.Name(), len(coords))
		}
		seen := make([]bool, g.Dim())
		for _, c := range coords {
			if c < 0 || c >= len(seen) || seen[c] {
				return fmt.Errorf("%w: %s declares the coordinates %v, not distinct indices in [0, %d)", ErrInvalid, g.Name(), coords, len(seen))
			}
			seen[c] = true
		}
	}
	if c, ok := g.(Canonicalizer); ok {
		if cd := c.CanonicalDim(); cd < 1 {
			return fmt.Errorf("%w: group %s declares a canonical map of dimension %d; want at least 1", ErrInvalid, g.Name(), cd)
		}
	}
	return nil
}
