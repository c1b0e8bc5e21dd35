package orbit

import (
	"fmt"
	"math"
	"math/big"

	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/parallel"
)

// DefaultBudget is the memory budget a zero Budget means, here
// (Enumerator) and in every package that takes one (kernel.Options,
// gp.Options, gp.FitOptions, bo.Config): 8 GiB, the largest request (an
// orbit buffer, a kernel matrix, a GP's work matrices, an output) one call
// allocates. Budgets are values the caller passes; no package reads the
// environment for one (perf's --mem-budget and the C ABI read
// SYMBO_MEMORY_BUDGET and pass it down). Requests are sized before
// allocation and refused above the budget with ErrOverBudget.
const DefaultBudget = budget.Default

// enumTask is the number of float64s written per parallel task (a constant,
// so the split does not depend on the worker count); serial below it.
const enumTask = 1 << 15

// Enumerator writes whole orbits of point sets. Its zero value is ready to
// use.
type Enumerator struct {
	// Budget is the largest orbit buffer in bytes; 0 (or negative) means
	// DefaultBudget.
	Budget int64
	// Workers is the number of goroutines; 0 means GOMAXPROCS. A negative
	// Workers is refused (ErrInvalid), as kernel.Options and bo.Config
	// refuse theirs.
	Workers int
}

// Orbits writes the n·|G| images of the n rows of x (row-major, n×d,
// d = g.Dim()) into one contiguous buffer of n·|G|·d float64s: row i·|G|+j
// is g_j·x_i. dst is reused (resliced) if its capacity suffices, otherwise
// a new buffer is allocated; it must not overlap x. The work is split over
// points, with fixed-size tasks, so the result is bit-identical for any
// worker count. A panic of g's ActTo on a worker goroutine is raised
// again on the caller's, once every worker has stopped.
//
// It fails with ErrOverBudget, naming the group and the bytes it would
// need, when n·|G|·d·8 exceeds the budget (whether or not dst is large
// enough), and with ErrInvalid for a negative Workers, a nil group, a
// group whose Dim is below 1 (a zero-value group type), a negative n, len(x) ≠ n·d, a NaN or ±Inf coordinate (checked once,
// O(n·d), before the budget), and with Size's error for a group whose
// Order is nil or below 1 (a caller's type breaking Finite's contract).
func (e Enumerator) Orbits(dst []float64, g Finite, x []float64, n int) ([]float64, error) {
	if e.Workers < 0 {
		return nil, invalid("Enumerator.Workers = %d is negative (0 means GOMAXPROCS)", e.Workers)
	}
	if IsNil(g) {
		return nil, invalid("Orbits needs a group, got a nil one")
	}
	d := g.Dim()
	if d < 1 { // a zero-value group type, or a caller's breaking Group's contract
		return nil, invalid("orbits under %s of dimension %d: a group acts on R^d, d ≥ 1", g.Name(), d)
	}
	// n·d in big integers: an n near MaxInt must not wrap around to len(x).
	if vals := new(big.Int).Mul(big.NewInt(int64(n)), big.NewInt(int64(d))); n < 0 || !vals.IsInt64() || vals.Int64() != int64(len(x)) {
		return nil, invalid("orbits of %d points in R^%d need %s values, got %d", n, d, vals, len(x))
	}
	for k, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, invalid("orbits of points with a coordinate %v (point %d, coordinate %d)", v, k/d, k%d)
		}
	}
	if o := g.Order(); o == nil || o.Sign() <= 0 { // a caller's type breaking Finite's contract
		_, err := Size(g)
		return nil, err
	}
	limit := budget.Limit(e.Budget).Bytes()
	need := new(big.Int).Mul(g.Order(), big.NewInt(int64(n)*int64(d)*8))
	if need.Cmp(big.NewInt(limit)) > 0 {
		return nil, fmt.Errorf("%w: the orbits of %d points under %s (%s elements, d = %d) need %s, budget %s",
			ErrOverBudget, n, g.Name(), orderString(g), d, bytesString(need), bytesString(big.NewInt(limit)))
	}
	G, err := Size(g)
	if err != nil {
		return nil, err
	}
	total := n * G * d
	if cap(dst) >= total {
		dst = dst[:total]
	} else {
		dst = make([]float64, total)
	}
	if n == 0 {
		return dst, nil
	}
	per := max(1, enumTask/(G*d)) // points per task
	tasks := (n + per - 1) / per
	run := func(t int) {
		for i := t * per; i < min(n, (t+1)*per); i++ {
			xi := x[i*d : (i+1)*d]
			out := dst[i*G*d : (i+1)*G*d]
			for j := 0; j < G; j++ {
				g.ActTo(out[j*d:(j+1)*d], xi, j)
			}
		}
	}
	// A panic of a caller's ActTo reaches the caller as a
	// *parallel.WorkerPanic, not past its recover from a goroutine of
	// ours.
	parallel.For(tasks, e.Workers, func(_, t int) { run(t) })
	return dst, nil
}

func orderString(g Group) string {
	o := g.Order()
	if intOrder(o) >= 0 && o.Int64() < 1e7 {
		return o.String()
	}
	return approx(o)
}

// bytesString formats a byte count with binary units, e.g. "6.2 GiB".
func bytesString(b *big.Int) string {
	f, _ := new(big.Float).SetInt(b).Float64()
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%.0f B", f)
	}
	return fmt.Sprintf("%.3g %s (%s bytes)", f, units[u], approx(b))
}
