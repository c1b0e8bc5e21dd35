package optima

import (
	"fmt"
	"slices"
	"sort"

	"github.com/symbo/symbo/bo/problem"
)

// Names are the suite's problems whose optimum Search computes.
var Names = []string{"BumpsPerm4dHeavy", "ApproxPerm5d", "BumpsPerm6d", "BumpsPerm10d", "PhaseRing6d", "Fleet8d"}

// Tol is the absolute tolerance to which a recomputed f* must match the
// registered one.
const Tol = 1e-8

// Result is what Search found for one problem.
type Result struct {
	X          []float64 // the best point (an orbit representative)
	F          float64   // f(X), evaluated by the registered problem
	Hits       int       // starts that reached F to within Tol
	Registered float64   // the registry's Optimum
	Known      bool
}

// Search recomputes name's global minimum from starts starts.
func Search(name string, starts int, seed uint64) (Result, error) {
	p, err := problem.New(name, 0)
	if err != nil {
		return Result{}, err
	}
	f := func(x []float64) float64 {
		v, err := p.Evaluate(x)
		if err != nil {
			panic(fmt.Sprintf("optima: %s at %v: %v", name, x, err))
		}
		return v
	}
	lo, hi := p.Bounds()
	var r Result
	r.Registered, r.Known = p.Optimum()
	switch name {
	case "Fleet8d":
		// Separable: speed 6 and buffer 0.3 minimize their terms (both
		// inside the box); the depots are the 3-medians of the customers.
		meds, _, hits := KMedians(problem.FleetCustomers(), 3, starts, seed, Tol*4000)
		sort.Slice(meds, func(i, j int) bool { return meds[i][0] < meds[j][0] })
		r.X = []float64{meds[0][0], meds[1][0], meds[2][0], meds[0][1], meds[1][1], meds[2][1], 6, 0.3}
		r.Hits = hits
	case "ApproxPerm5d", "PhaseRing6d":
		// Not permutation invariant (ApproxPerm5d) or only cyclically
		// (PhaseRing6d): starts over the whole box.
		r.X, _, r.Hits = Multistart(f, lo, hi, Uniform, starts, seed, Tol)
	default:
		r.X, _, r.Hits = Multistart(f, lo, hi, Sorted, starts, seed, Tol)
		sort.Float64s(r.X)
	}
	r.X = slices.Clone(r.X)
	r.F = f(r.X)
	return r, nil
}
