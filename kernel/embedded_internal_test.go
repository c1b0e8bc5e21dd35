package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestEmbeddedGradRowValues: GradTo of k_avg over an embedded group whose
// inner evaluator has rows takes the inner values for a whole row of
// pairs at once (innerValues, then gradAux); its gradient equals the
// per-pair one (grad, pairValue for each pair) bit for bit, for rows of
// 1 to 200 points (across embedChunk), several lengthscales, with one
// worker and two. The groups: sign flips, permutations (the permanent,
// d = 3 and 6, the fused rows), hyperoctahedral and rotations on some
// coordinates.
func TestEmbeddedGradRowValues(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	type gc struct {
		g      func() (orbit.Group, error)
		d      int
		coords []int
	}
	for _, c := range []gc{
		{func() (orbit.Group, error) { return orbit.SignFlip(2) }, 4, []int{3, 1}},
		{func() (orbit.Group, error) { return orbit.Permutation(3) }, 5, []int{4, 0, 2}},
		{func() (orbit.Group, error) { return orbit.Permutation(6) }, 10, []int{1, 3, 5, 7, 8, 9}},
		{func() (orbit.Group, error) { return orbit.Hyperoctahedral(3) }, 7, []int{1, 3, 0}},
		{func() (orbit.Group, error) { return orbit.Rotation2D() }, 3, []int{2, 0}},
	} {
		in, err := c.g()
		if err != nil {
			t.Fatal(err)
		}
		g, err := orbit.OnCoords(in, c.d, c.coords)
		if err != nil {
			t.Fatal(err)
		}
		for _, ell := range []float64{0.3, 1, 3} {
			for _, workers := range []int{1, 2} {
				a, err := NewAvg(Params{Shape: RBF, Variance: 1.3, Lengthscale: ell}, g, Options{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				k := &a.orbitKernel
				if k.gradAux == nil {
					t.Fatalf("avg over %s: no row path for the gradient's inner values", g.Name())
				}
				for _, m := range []int{1, 9, 64, 65, 200} {
					x := make([]float64, c.d)
					for i := range x {
						x[i] = 2*r.Float64() - 1
					}
					y := mat.NewDense(m, c.d, nil)
					for i := range m {
						for j := range c.d {
							v := 2*r.Float64() - 1
							if i%7 == 3 {
								v = x[j] // a point equal to x on some rows
							}
							y.Set(i, j, v)
						}
					}
					var got, want mat.Dense
					if err := a.GradTo(&got, x, y); err != nil {
						t.Fatal(err)
					}
					gradTo(k.grad, k.gradLen, k.gradCost(), k.nw(), &want, x, y, m, c.d)
					for i := range m {
						for j := range c.d {
							if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
								t.Fatalf("%s ℓ=%g workers=%d m=%d: ∂k(x, y_%d)/∂x_%d = %v, per pair %v", g.Name(), ell, workers, m, i, j, got.At(i, j), want.At(i, j))
							}
						}
					}
				}
			}
		}
	}
}
