package kernel_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestMaxClosedGrad checks the analytic k_max gradient through the
// closed form (orbit.Aligner) against the enumerated gradient (Method
// Enumerate, the base gradient at the maximizing element) and against
// central differences of the closed-form values, for every group with a
// closed form, at random points (ties have probability zero).
func TestMaxClosedGrad(t *testing.T) {
	var gs []orbit.Group
	add := func(g orbit.Group, err error) {
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	add(orbit.Trivial(3))
	add(orbit.SignFlip(4))
	add(orbit.Permutation(5))
	add(orbit.Hyperoctahedral(5))
	add(orbit.BlockPerm(3, 2))
	add(orbit.PairedPerm(4))
	add(orbit.Cyclic(5))
	for _, g := range gs {
		for _, s := range shapes {
			p := kernel.Params{Shape: s, Variance: 1.3, Lengthscale: 0.8}
			closed, err := kernel.NewMax(p, g, kernel.Options{Method: kernel.Closed})
			if err != nil {
				t.Fatal(err)
			}
			enum, err := kernel.NewMax(p, g, kernel.Options{Method: kernel.Enumerate})
			if err != nil {
				t.Fatal(err)
			}
			d := g.Dim()
			rng := rand.New(rand.NewPCG(11, uint64(d)))
			m := 6
			y := mat.NewDense(m, d, nil)
			for i := range m {
				for k := range d {
					y.Set(i, k, 2*rng.Float64()-1)
				}
			}
			x := make([]float64, d)
			for k := range d {
				x[k] = 2*rng.Float64() - 1
			}
			var gc, ge mat.Dense
			if err := closed.GradTo(&gc, x, y); err != nil {
				t.Fatal(err)
			}
			if err := enum.GradTo(&ge, x, y); err != nil {
				t.Fatal(err)
			}
			if diff := maxAbsDiff(&gc, &ge); diff > 1e-12 {
				t.Errorf("%s %s: closed vs enumerated gradient differ by %g", g.Name(), s, diff)
			}
			// Central differences of the closed-form values.
			xp := mat.NewDense(1, d, append([]float64(nil), x...))
			var fp, fm mat.Dense
			h := 1e-6
			for k := range d {
				xp.Set(0, k, x[k]+h)
				fp.Reset()
				must(t, closed.CrossTo(&fp, xp, y))
				xp.Set(0, k, x[k]-h)
				fm.Reset()
				must(t, closed.CrossTo(&fm, xp, y))
				xp.Set(0, k, x[k])
				for j := range m {
					fd := (fp.At(0, j) - fm.At(0, j)) / (2 * h)
					if math.Abs(fd-gc.At(j, k)) > 1e-6 {
						t.Errorf("%s %s: ∂/∂x_%d (row %d) = %v, central difference %v", g.Name(), s, k, j, gc.At(j, k), fd)
					}
				}
			}
		}
	}
}

// BenchmarkMaxGrad measures GradTo for one x against 55 rows over
// hyperoctahedral(5): "closed" is the analytic gradient through the
// alignment, "enumerate" the gradient over all 3840 elements (what closed
// k_max used before).
func BenchmarkMaxGrad(b *testing.B) {
	g, err := orbit.Hyperoctahedral(5)
	if err != nil {
		b.Fatal(err)
	}
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 0.7}
	rng := rand.New(rand.NewPCG(1, 2))
	y := mat.NewDense(55, 5, nil)
	for i := range 55 {
		for k := range 5 {
			y.Set(i, k, 2*rng.Float64()-1)
		}
	}
	x := []float64{0.1, -0.4, 0.3, 0.8, -0.2}
	for _, m := range []kernel.Method{kernel.Closed, kernel.Enumerate} {
		k, err := kernel.NewMax(p, g, kernel.Options{Method: m, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(m.String(), func(b *testing.B) {
			var dst mat.Dense
			for b.Loop() {
				dst.Reset()
				if err := k.GradTo(&dst, x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
