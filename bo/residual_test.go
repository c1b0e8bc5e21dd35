package bo

import (
	"math"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestResidualVariance: Protocol.ResidualVariance reaches the models. With
// it, Nystrom's GP is the base GP (gp's TestResidualVarianceNystromIsBase):
// the same likelihood, so the same fit, and the same posterior, so an
// optimizer on Nystrom proposes Base's points (to the ascent's rounding);
// without it, Nystrom explores less and leaves Base's path. Plus's
// proposals change with it.
func TestResidualVariance(t *testing.T) {
	lo, hi := []float64{-2, -2, -2}, []float64{2, 2, 2}
	f := func(x []float64) float64 {
		return -math.Pow(x[0]-0.7, 2) - math.Pow(x[1]+0.4, 2) - 0.5*math.Pow(x[2]-1.2, 2) + 0.3*math.Cos(3*x[0])
	}
	proto := Protocol{RawSamples: 128, Starts: 4}
	path := func(k Kernel, resid bool) [][]float64 {
		p := proto
		p.ResidualVariance = resid
		o := must(New(lo, hi, Config{Kernel: k, Protocol: p}, 7))
		var xs [][]float64
		for range 15 {
			x := must(o.Ask())
			xs = append(xs, x)
			if err := o.Tell(x, f(x)); err != nil {
				t.Fatal(err)
			}
		}
		return xs
	}
	gap := func(a, b [][]float64) float64 {
		var m float64
		for i := range a {
			for j := range a[i] {
				m = max(m, math.Abs(a[i][j]-b[i][j]))
			}
		}
		return m
	}
	base := path(Base(kernel.RBF), false)
	if g := gap(base, path(Nystrom(kernel.RBF), true)); g > 1e-5 {
		t.Errorf("Nystrom with the residual: proposals up to %g from Base's", g)
	}
	if g := gap(base, path(Nystrom(kernel.RBF), false)); g < 1e-3 {
		t.Errorf("Nystrom without the residual: proposals within %g of Base's; the case does not tell the setting apart", g)
	}
	sf := must(orbit.SignFlip(3))
	if g := gap(path(Plus(sf, kernel.RBF), false), path(Plus(sf, kernel.RBF), true)); g == 0 {
		t.Error("Plus: the same proposals with and without the residual")
	}
}
