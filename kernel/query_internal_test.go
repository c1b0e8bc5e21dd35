package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestQueryTransposed checks the few-rows paths against the per-pair
// enumeration of the orbit of y: CrossTo with one and two rows x (orbit of
// x, crossToT) against pairValue within 1e-13 relative, and gradMaxT
// against enumEval.grad (the same maximizer for random points, so equal
// to rounding), for max and avg over hyperoctahedral(3) and signflip(4).
func TestQueryTransposed(t *testing.T) {
	ho, _ := orbit.Hyperoctahedral(3)
	sf, _ := orbit.SignFlip(4)
	for _, g := range []orbit.Finite{ho, sf} {
		d := g.Dim()
		y := randPoints(37, d, 3)
		x := randPoints(2, d, 4)
		for _, isMax := range []bool{true, false} {
			p := Params{Shape: Matern52, Variance: 1.3, Lengthscale: 0.7}
			k, err := newOrbitKernel(p, g, Options{Method: Enumerate}, isMax)
			if err != nil {
				t.Fatal(err)
			}
			var c mat.Dense
			if err := k.CrossTo(&c, x, y); err != nil {
				t.Fatal(err)
			}
			s := make([]float64, pairLen(k.ev))
			for i := range 2 {
				for j := range 37 {
					want := pairValue(k.ev, row(x, i), row(y, j), s)
					if got := c.At(i, j); math.Abs(got-want) > 1e-13*math.Abs(want) {
						t.Errorf("%s max=%v: CrossTo[%d,%d] = %v, per pair %v", g.Name(), isMax, i, j, got, want)
					}
				}
			}
			if !isMax {
				continue
			}
			var gr mat.Dense
			xi := row(x, 0)
			if err := k.GradTo(&gr, xi, y); err != nil {
				t.Fatal(err)
			}
			e := k.ev.(*enumEval)
			want := make([]float64, d)
			scr := make([]float64, k.gradLen)
			for j := range 37 {
				e.grad(want, xi, row(y, j), scr)
				for q := range d {
					if got := gr.At(j, q); math.Abs(got-want[q]) > 1e-12*(1+math.Abs(want[q])) {
						t.Errorf("%s: grad[%d][%d] = %v, per pair %v", g.Name(), j, q, got, want[q])
					}
				}
			}
		}
	}
}

func randPoints(n, d int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for k := range d {
			x.Set(i, k, 2*r.Float64()-1)
		}
	}
	return x
}
