package kernel_test

import (
	"math"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestGradLargeScale: with v/ℓ² beyond float64's range but v/ℓ within it
// (v = 1e9, ℓ = MinLengthscale), the gradient v·κ'(u)/ℓ·(x − y)/r is
// finite (0 at x = y), and GradTo must return it, not ErrBadPoints.
func TestGradLargeScale(t *testing.T) {
	kinds := gradKinds()
	l := kernel.MinLengthscale
	cases := []struct{ x, y []float64 }{
		{[]float64{0.3 * l, 0.5 * l}, []float64{0.3 * l, 0.5 * l}},
		{[]float64{0.3 * l, 0.5 * l}, []float64{1.3 * l, 0.5 * l}},
		{[]float64{0.3 * l, 0.5 * l}, []float64{0.2 * l, -0.4 * l}},
	}
	for _, sh := range kernel.Shapes() {
		p := kernel.Params{Shape: sh, Variance: 1e9, Lengthscale: l}
		for ci, c := range cases {
			for _, kd := range kinds {
				k, err := kd.kernel(p)
				if err != nil {
					continue
				}
				var g mat.Dense
				if err := k.GradTo(&g, c.x, mat.NewDense(1, 2, c.y)); err != nil {
					t.Errorf("%v case %d %s: %v", sh, ci, kd.name, err)
					continue
				}
				want := refGrad(sh, p.Variance, l, kd.g, kd.max, c.x, c.y)
				for j, w := range want {
					if got := g.At(0, j); !(math.Abs(got-w) <= 1e-9*p.Variance/l) {
						t.Errorf("%v case %d %s: ∂k/∂x_%d = %g, want %g", sh, ci, kd.name, j, got, w)
					}
				}
			}
		}
	}
}

// TestGradLargeScaleRotation: k_avg over rotation2d (the Bessel closed
// form for rbf, the trapezoid for Matérn) at v = 1e9, ℓ = MinLengthscale,
// against the same kernel at ℓ = 1 by scale invariance,
// ∇ₓk_ℓ(x, y) = ∇ₓk_1(x/ℓ, y/ℓ)/ℓ.
func TestGradLargeScaleRotation(t *testing.T) {
	rot, _ := orbit.Rotation2D()
	l := kernel.MinLengthscale
	cases := [][2][]float64{
		{{0.3, 0.5}, {0.3, 0.5}},
		{{0.3, 0.5}, {1.3, -0.2}},
		{{-2, 0.1}, {0.4, 0.4}},
	}
	for _, sh := range kernel.Shapes() {
		k, err := kernel.NewAvg(kernel.Params{Shape: sh, Variance: 1e9, Lengthscale: l}, rot, kernel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		k1, err := kernel.NewAvg(kernel.Params{Shape: sh, Variance: 1e9, Lengthscale: 1}, rot, kernel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for ci, c := range cases {
			x := []float64{c[0][0] * l, c[0][1] * l}
			y := mat.NewDense(1, 2, []float64{c[1][0] * l, c[1][1] * l})
			var g, g1 mat.Dense
			if err := k.GradTo(&g, x, y); err != nil {
				t.Errorf("%v case %d: %v", sh, ci, err)
				continue
			}
			if err := k1.GradTo(&g1, c[0], mat.NewDense(1, 2, c[1])); err != nil {
				t.Fatal(err)
			}
			for j := range 2 {
				want := g1.At(0, j) / l
				if got := g.At(0, j); !(math.Abs(got-want) <= 1e-9*1e9/l) {
					t.Errorf("%v case %d: ∂k/∂x_%d = %g, want %g", sh, ci, j, got, want)
				}
			}
		}
	}
}
