package orbit

import (
	"errors"
	"fmt"
	"math/big"
)

// Sentinel errors; returned errors wrap one of them (test with errors.Is)
// and add what went wrong, e.g.
// "orbit: invalid group: pairedperm needs an even d = 2m, got 7".
var (
	// ErrInvalid reports bad group parameters (d < 1, odd d for
	// pairedperm, d not a multiple of the block size, a bad box, a
	// non-orthogonal matrix, …).
	ErrInvalid = errors.New("orbit: invalid group")
	// ErrUnknown reports an unknown group name.
	ErrUnknown = errors.New("orbit: unknown group")
	// ErrTooLarge reports a finite group whose order does not fit in an
	// int, or a matrix group whose closure exceeds MaxMatrixOrder.
	ErrTooLarge = errors.New("orbit: group too large")
	// ErrInfinite reports a continuous group where a finite one is needed.
	ErrInfinite = errors.New("orbit: group is continuous")
	// ErrOverBudget reports an orbit buffer that would exceed the
	// Enumerator's memory budget.
	ErrOverBudget = errors.New("orbit: over memory budget")
)

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// Size returns |G| as an int. It fails with ErrInfinite for a continuous
// group and with ErrTooLarge, naming the group and its order (e.g.
// "hyperoctahedral(20) has 2.5e+24 elements"), if the order overflows int.
func Size(g Group) (int, error) {
	o := g.Order()
	if o == nil {
		return 0, fmt.Errorf("%w: %s has infinitely many elements", ErrInfinite, g.Name())
	}
	n := intOrder(o)
	if n < 0 {
		return 0, fmt.Errorf("%w: %s has %s elements", ErrTooLarge, g.Name(), approx(o))
	}
	return n, nil
}

// approx formats a large integer with two significant digits.
func approx(o *big.Int) string {
	return new(big.Float).SetInt(o).Text('g', 2)
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
