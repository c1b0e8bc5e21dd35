package kernel

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// zeroEval is an evaluator whose k(x, y) is 0: an underflowed k_avg(x, x).
type zeroEval struct{}

func (zeroEval) xLen() int              { return 1 }
func (zeroEval) yLen() int              { return 1 }
func (zeroEval) prepX(dst, x []float64) { dst[0] = x[0] }
func (zeroEval) prepY(dst, y []float64) { dst[0] = y[0] }
func (zeroEval) column(out []float64, stride int, _ []float64, n int, _ []float64) {
	for i := range n {
		out[i*stride] = 0
	}
}

// TestNormalizedUnderflow: a zero k_avg(x, x) is an error, not an Inf.
func TestNormalizedUnderflow(t *testing.T) {
	p := Params{Shape: RBF, Variance: 1, Lengthscale: 1}
	zeroGrad := func(dst, _, _, _ []float64) { clear(dst) }
	a := &Avg{orbitKernel: orbitKernel{p: p, d: 1, ev: zeroEval{}, grad: zeroGrad, method: Closed}, norm: true}
	x := mat.NewDense(3, 1, []float64{1, 2, 3})
	check := func(op string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "underflows") {
			t.Errorf("%s: err = %v, want an underflow error", op, err)
		}
	}
	var c, g mat.Dense
	var s mat.SymDense
	check("CrossTo", a.CrossTo(&c, x, x))
	check("GramTo", a.GramTo(&s, x))
	check("GradTo", a.GradTo(&g, []float64{1}, x))
	if d, err := a.DiagTo(nil, x); err != nil || d[0] != 1 {
		t.Errorf("DiagTo = %v, %v, want v", d, err)
	}
}
