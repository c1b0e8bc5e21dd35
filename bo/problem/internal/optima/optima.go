// Package optima computes the global minima of the users' suite's problems
// whose optimum has no closed form (lab/suite/README.md), independently of
// the BO code: multistart local minimization over the box (gonum's L-BFGS
// on central-difference gradients, then Nelder–Mead), from starts drawn
// on the problem's orbit representatives where the function is invariant,
// and for Fleet8d a k-medians search (assignment to the nearest depot and
// geometric medians, alternated to a fixed point) with single-customer
// moves to confirm the best partition.
//
// Command fstar (./fstar) prints what Search finds; the registry's values
// are checked against it by TestRecompute (not in -short) and, cheaply, by
// bo/problem's TestSuiteOptimaRegistered.
package optima

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/optimize"
)

// Local minimizes f over the box [lo, hi] from x0 and returns the point
// and its value. The box is mapped onto R^d by x = lo + (hi − lo)·(1 +
// sin u)/2, so that a minimizer on a face is a stationary point in u;
// L-BFGS on central-difference gradients, then a Nelder–Mead polish, keep
// the best point seen.
func Local(f func([]float64) float64, lo, hi, x0 []float64) ([]float64, float64) {
	d := len(lo)
	toX := func(dst, u []float64) {
		for i := range u {
			dst[i] = lo[i] + (hi[i]-lo[i])*(1+math.Sin(u[i]))/2
		}
	}
	buf := make([]float64, d)
	g := func(u []float64) float64 {
		x := make([]float64, d)
		toX(x, u)
		for _, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return math.Inf(1) // a line search's step past float range
			}
		}
		return f(x)
	}
	u0 := make([]float64, d)
	for i := range u0 {
		s := 2*(x0[i]-lo[i])/(hi[i]-lo[i]) - 1
		u0[i] = math.Asin(math.Max(-1, math.Min(1, s)))
	}
	fdSet := &fd.Settings{Formula: fd.Central, Step: 1e-6}
	p := optimize.Problem{
		Func: g,
		Grad: func(grad, u []float64) { fd.Gradient(grad, g, u, fdSet) },
	}
	best, bf := slices.Clone(u0), g(u0)
	keep := func(r *optimize.Result) {
		if r != nil && r.F < bf {
			best, bf = slices.Clone(r.X), r.F
		}
	}
	r, _ := optimize.Minimize(p, u0, &optimize.Settings{MajorIterations: 2000, GradientThreshold: 1e-10}, &optimize.LBFGS{})
	keep(r)
	r, _ = optimize.Minimize(optimize.Problem{Func: g}, best, &optimize.Settings{MajorIterations: 4000,
		Converger: &optimize.FunctionConverge{Absolute: 1e-15, Iterations: 200}}, &optimize.NelderMead{})
	keep(r)
	toX(buf, best)
	return buf, f(buf)
}

// Sampler draws a start in the box; rep, where not nil, maps it to its
// orbit's representative (sorted coordinates for a permutation group).
type Sampler func(rng *rand.Rand, lo, hi []float64) []float64

// Uniform is a uniform start in the box.
func Uniform(rng *rand.Rand, lo, hi []float64) []float64 {
	x := make([]float64, len(lo))
	for i := range x {
		x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
	}
	return x
}

// Sorted is a uniform start with its coordinates sorted (the
// representative of its orbit under permutations).
func Sorted(rng *rand.Rand, lo, hi []float64) []float64 {
	x := Uniform(rng, lo, hi)
	sort.Float64s(x)
	return x
}

// Multistart runs Local from starts points drawn by s from
// rand.New(rand.NewPCG(seed, 0)) and returns the best point and value, and
// how many starts reached within tol of it.
func Multistart(f func([]float64) float64, lo, hi []float64, s Sampler, starts int, seed uint64, tol float64) (x []float64, fx float64, hits int) {
	rng := rand.New(rand.NewPCG(seed, 0))
	fx = math.Inf(1)
	vals := make([]float64, starts)
	for k := range starts {
		y, fy := Local(f, lo, hi, s(rng, lo, hi))
		vals[k] = fy
		if fy < fx {
			x, fx = y, fy
		}
	}
	for _, v := range vals {
		if v <= fx+tol {
			hits++
		}
	}
	return x, fx, hits
}
