package kernel_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// refGrad is an independent ∇ₓ of k_avg (max = false) or k_max (max =
// true) over the elements of g (nil: the base kernel): every element's
// gradient v·κ'(u)/ℓ·(x − g·y)/r with r = ‖x − g·y‖ from scaled
// differences (math.Hypot pairwise), so that no squared distance
// underflows; κ'(0⁺) is the right-hand derivative.
func refGrad(sh kernel.Shape, v, l float64, g orbit.Finite, max bool, x, y []float64) []float64 {
	d := len(x)
	var orb [][]float64
	if g == nil {
		orb = [][]float64{append([]float64(nil), y...)}
	} else {
		for i := range int(g.Order().Int64()) {
			o := make([]float64, d)
			g.ActTo(o, y, i)
			orb = append(orb, o)
		}
	}
	dkappa := func(u float64) float64 { // κ'(u)
		switch sh {
		case kernel.RBF:
			return -u * math.Exp(-u*u/2)
		case kernel.Matern12:
			return -math.Exp(-u)
		case kernel.Matern32:
			return -3 * u * math.Exp(-math.Sqrt(3)*u)
		default:
			a := math.Sqrt(5) * u
			return -5.0 / 3 * u * (1 + a) * math.Exp(-a)
		}
	}
	elem := func(o []float64) ([]float64, float64) {
		out := make([]float64, d)
		var r float64
		for k := range d {
			r = math.Hypot(r, x[k]-o[k])
		}
		if r == 0 {
			return out, 0
		}
		f := v * dkappa(r/l) / l
		for k := range d {
			out[k] = f * ((x[k] - o[k]) / r)
		}
		return out, r
	}
	if max {
		best, bo := math.Inf(1), []float64(nil)
		for _, o := range orb {
			if _, r := elem(o); r < best {
				best, bo = r, o
			}
		}
		out, _ := elem(bo)
		return out
	}
	out := make([]float64, d)
	for _, o := range orb {
		e, _ := elem(o)
		for k := range d {
			out[k] += e[k] / float64(len(orb))
		}
	}
	return out
}

// TestGradTinyDistance: gradients at points a tiny but nonzero distance
// apart (‖x − g·y‖² below float64's normal range), where Matérn-1/2 is
// differentiable with a gradient of magnitude v/ℓ: it must be that one,
// not 0 (the squared distance underflowed) nor ErrBadPoints (v/ℓ²·κ'(u)/u
// overflowed).
func TestGradTinyDistance(t *testing.T) {
	kinds := gradKinds()
	cases := []struct {
		x, y []float64
		l    float64
	}{
		{[]float64{1, 1e-170}, []float64{1, 0}, 1},
		{[]float64{1e-300, 0.5}, []float64{0, 0.5}, 1},
		{[]float64{0.25, 0x1p-1070}, []float64{0.25, 0}, 1e-3},
		{[]float64{2e-150, 3e-159}, []float64{2e-150, 0}, kernel.MinLengthscale},
		{[]float64{2e-150, 1e-162}, []float64{2e-150, -1e-162}, kernel.MinLengthscale},
	}
	for _, sh := range kernel.Shapes() {
		for ci, c := range cases {
			p := kernel.Params{Shape: sh, Variance: 1.5, Lengthscale: c.l}
			for _, kd := range kinds {
				k, err := kd.kernel(p)
				if err != nil {
					continue // no closed form
				}
				var g mat.Dense
				if err := k.GradTo(&g, c.x, mat.NewDense(1, 2, c.y)); err != nil {
					t.Errorf("%v case %d %s: %v", sh, ci, kd.name, err)
					continue
				}
				want := refGrad(sh, p.Variance, c.l, kd.g, kd.max, c.x, c.y)
				scale := p.Variance / c.l
				for j, w := range want {
					if got := g.At(0, j); !(math.Abs(got-w) <= 1e-9*scale) {
						t.Errorf("%v case %d %s: ∂k/∂x_%d = %g, want %g", sh, ci, kd.name, j, got, w)
					}
				}
				if gp, ok := k.(kernel.GradPreparer); ok {
					pr, err := gp.Prepare(mat.NewDense(1, 2, c.y))
					if err != nil {
						t.Fatal(err)
					}
					var g2 mat.Dense
					if err := gp.GradPreparedTo(&g2, c.x, pr); err != nil || !mat.Equal(&g, &g2) {
						t.Errorf("%v case %d %s: GradPreparedTo = %v (%v), GradTo %v", sh, ci, kd.name, g2.RawRowView(0), err, g.RawRowView(0))
					}
				}
			}
		}
	}
}

// gradKind is a kernel of the gradient edge tests: base (g nil), or max or
// avg over g by method m.
type gradKind struct {
	name string
	g    orbit.Finite
	max  bool
	m    kernel.Method
}

// gradKinds are the kernels the gradient edge tests cover: base, and max
// and avg over signflip(2), hyperoctahedral(2) and cyclic(2), by Auto and
// by Enumerate.
func gradKinds() []gradKind {
	sf, _ := orbit.SignFlip(2)
	hy, _ := orbit.Hyperoctahedral(2)
	cy, _ := orbit.Cyclic(2)
	kinds := []gradKind{{"base", nil, false, kernel.Auto}}
	for _, g := range []orbit.Finite{sf, hy, cy} {
		for _, m := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
			kinds = append(kinds, gradKind{fmt.Sprintf("max-%T-%v", g, m), g, true, m}, gradKind{fmt.Sprintf("avg-%T-%v", g, m), g, false, m})
		}
	}
	return kinds
}

// kernel builds kd's kernel with p (an error where it has no such form).
func (kd gradKind) kernel(p kernel.Params) (kernel.Gradienter, error) {
	switch {
	case kd.g == nil:
		return kernel.NewBase(p, 2)
	case kd.max:
		return kernel.NewMax(p, kd.g, kernel.Options{Method: kd.m})
	default:
		return kernel.NewAvg(p, kd.g, kernel.Options{Method: kd.m})
	}
}
