package kernel_test

import (
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestOutputBudget: an output matrix that would outgrow the memory budget
// is refused (orbit.ErrOverBudget) before it is allocated, by every kernel
// and every entry point (issue: a 4.4M-row point file made perf gram die
// of "out of memory" sizing its n×n output).
func TestOutputBudget(t *testing.T) {
	g, _ := orbit.Hyperoctahedral(2)
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	base, _ := kernel.NewBase(p, 2)
	avg, _ := kernel.NewAvg(p, g, kernel.Options{})
	norm, _ := kernel.NewAvg(p, g, kernel.Options{Normalize: true})
	mx, _ := kernel.NewMax(p, g, kernel.Options{})
	plus, err := kernel.NewPlus(mx, mat.NewDense(2, 2, []float64{1, 0, 0, 1}), kernel.PlusOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 600 // 600×600 float64 = 2.9 MB
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		x.Set(i, 0, float64(i))
	}
	defer budget.SetLimit(1 << 20)()
	for _, k := range []kernel.Kernel{base, avg, norm, mx, plus} {
		var c mat.Dense
		if err := k.CrossTo(&c, x, x); !errors.Is(err, orbit.ErrOverBudget) || !c.IsEmpty() {
			t.Errorf("%T CrossTo: error %v, dst empty %v", k, err, c.IsEmpty())
		}
		var s mat.SymDense
		if err := kernel.Gram(k, &s, x); !errors.Is(err, orbit.ErrOverBudget) || !s.IsEmpty() {
			t.Errorf("%T Gram: error %v, dst empty %v", k, err, s.IsEmpty())
		}
	}
	var d mat.SymDense
	if err := kernel.OrbitDist2To(&d, g, x, kernel.Options{}); !errors.Is(err, orbit.ErrOverBudget) || !d.IsEmpty() {
		t.Errorf("OrbitDist2To: error %v", err)
	}
	// Within the budget it works.
	small := x.Slice(0, 100, 0, 2).(*mat.Dense)
	var c mat.Dense
	if err := avg.CrossTo(&c, small, small); err != nil {
		t.Errorf("100×100: %v", err)
	}
}
