package kernel_test

import (
	"errors"
	"math"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestScalingUnresolvableLengthscale: the exact scaling k_avg refuses a
// lengthscale below scaleResolve = 2e−4 of the pair's orbit scale S
// (ErrBadPoints from CrossTo, GramTo, DiagTo and GradTo) instead of
// returning what the quadrature makes of chord distances rounded to
// ε·‖c·x‖: on the box [0.1, 10]² at x = (0.5, 1.5) (S = 1.14), k(x, x)/ℓ
// was 0.6253 at ℓ = 1e−12 (error 1.5e−5), 0.6184 at 1e−15 (1.3e−2),
// −0.41 at 1e−17 (a negative variance) and 0 from 1e−18, and on the box
// [1, 1 + 1e−12]² at ℓ = 1e−140 k(x, x) was 3.3e−4 where it is 1.8e−128,
// all with a nil error. Far pairs stay 0 with a nil error, and at gp's
// smallest lengthscale for data spanning the box, 1e−3 of its diagonal,
// every pair of a grid over the box is accepted (S ≤ ‖hi‖ in the box).
func TestScalingUnresolvableLengthscale(t *testing.T) {
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	thinLo, thinHi := []float64{1, 1}, []float64{1 + 1e-12, 1 + 1e-12}
	type tc struct {
		lo, hi []float64
		ell    float64
		x      []float64
	}
	cases := []tc{
		{lo, hi, 1e-15, []float64{0.5, 1.5}},
		{lo, hi, 1e-17, []float64{0.5, 1.5}},
		{lo, hi, 1e-18, []float64{0.5, 1.5}},
		{thinLo, thinHi, 1e-140, []float64{1 + 5e-13, 1 + 5e-13}},
	}
	groups := func(lo, hi []float64) []orbit.Group {
		sc, err := orbit.Scaling(lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		sd, err := orbit.ScalingDir(lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		return []orbit.Group{sc, sd}
	}
	for _, c := range cases {
		for _, g := range groups(c.lo, c.hi) {
			for _, sh := range kernel.Shapes() {
				k, err := kernel.NewAvg(kernel.Params{Shape: sh, Variance: 1, Lengthscale: c.ell}, g, kernel.Options{})
				if err != nil {
					t.Fatal(err)
				}
				errs, diag := onePointErrors(k, c.x, true)
				for what, err := range errs {
					if !errors.Is(err, kernel.ErrBadPoints) {
						v := math.NaN()
						if what == "DiagTo" && len(diag) > 0 {
							v = diag[0]
						}
						t.Errorf("%s %v ℓ = %g: %s: error %v (k(x, x) = %v), want ErrBadPoints", g.Name(), sh, c.ell, what, err, v)
					}
				}
			}
		}
	}
	// A far pair (orthogonal-ish directions) at ℓ = 1e−17 is 0, no error.
	for _, g := range groups(lo, hi) {
		for _, sh := range kernel.Shapes() {
			k, _ := kernel.NewAvg(kernel.Params{Shape: sh, Variance: 1, Lengthscale: 1e-17}, g, kernel.Options{})
			var cr mat.Dense
			if err := k.CrossTo(&cr, mat.NewDense(1, 2, []float64{0.5, 1.5}), mat.NewDense(1, 2, []float64{1.5, 0.5})); err != nil || cr.At(0, 0) != 0 {
				t.Errorf("%s %v: far pair at ℓ = 1e−17: %v, %v; want 0, nil", g.Name(), sh, cr.At(0, 0), err)
			}
		}
	}
	// gp's lengthscale floor for data spanning the box: 1e−3·14.0.
	var pts []float64
	for _, a := range []float64{0.1, 0.11, 1, 5, 10} {
		for _, b := range []float64{0.1, 0.3, 2, 9.9, 10} {
			pts = append(pts, a, b)
		}
	}
	X := mat.NewDense(len(pts)/2, 2, pts)
	for _, g := range groups(lo, hi) {
		for _, sh := range kernel.Shapes() {
			k, _ := kernel.NewAvg(kernel.Params{Shape: sh, Variance: 1, Lengthscale: 1e-3 * math.Hypot(9.9, 9.9)}, g, kernel.Options{})
			var sy mat.SymDense
			if err := k.GramTo(&sy, X); err != nil {
				t.Errorf("%s %v: Gram at ℓ = 1e−3 of the box's diagonal: %v", g.Name(), sh, err)
			}
		}
	}
}

// onePointErrors returns the errors of k's CrossTo, GramTo and DiagTo on
// the one point x (with grad, GradTo's at x against it too), by method
// name, and DiagTo's values.
func onePointErrors(k interface {
	kernel.Kernel
	kernel.Gramer
	kernel.Gradienter
}, x []float64, grad bool) (map[string]error, []float64) {
	m := mat.NewDense(1, len(x), x)
	var cr, gr mat.Dense
	var sy mat.SymDense
	diag, derr := k.DiagTo(nil, m)
	errs := map[string]error{"CrossTo": k.CrossTo(&cr, m, m), "GramTo": k.GramTo(&sy, m), "DiagTo": derr}
	if grad {
		errs["GradTo"] = k.GradTo(&gr, x, m)
	}
	return errs, diag
}
