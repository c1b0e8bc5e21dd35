package bo

import (
	"errors"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestExcludeObserved: with Config.ExcludeObserved a BO step never
// returns within the exclusion radius of an observed point's orbit,
// where without it (the zero value, perf bo's protocol) steps do: on the
// box [−1, 1] × [−100, 100] with sign flips, plus at seed 10.
func TestExcludeObserved(t *testing.T) {
	lo, hi := []float64{-1, -100}, []float64{1, 100}
	g := must(orbit.SignFlip(2))
	f := func(x []float64) float64 { return -(abs(abs(x[0])-0.3) + abs(abs(x[1])-30)/100) }
	r2 := 1e-6 * (2*2 + 200*200)
	repeats := func(exclude bool) (near int) {
		o := must(New(lo, hi, Config{Kernel: Plus(g, kernel.RBF), Protocol: Protocol{ExcludeObserved: exclude, RawSamples: 64, Starts: 4}}, 10))
		var xs [][]float64
		for range 20 {
			x := must(o.Ask())
			for _, p := range xs {
				if orbitDist2(g, x, p) <= r2 {
					near++
					break
				}
			}
			xs = append(xs, x)
			if err := o.Tell(x, f(x)); err != nil {
				t.Fatal(err)
			}
		}
		return near
	}
	if near := repeats(false); near == 0 {
		t.Errorf("without ExcludeObserved no ask came near an observed orbit: the case no longer shows the repeats")
	}
	if near := repeats(true); near != 0 {
		t.Errorf("with ExcludeObserved: %d asks within the exclusion radius of an observed orbit", near)
	}
}

func abs(v float64) float64 { return max(v, -v) }

// TestExcludeObservedExhausted: when the observed and failed points cover
// the box at the exclusion radius (sign flips on [−1, 1]: |x| every
// 0.004, alternately observed and failed), a step with ExcludeObserved
// has no point to propose and Ask returns ErrSpaceExhausted, an input error;
// without it the step returns a point near an observed one.
func TestExcludeObservedExhausted(t *testing.T) {
	g := must(orbit.SignFlip(1))
	lo, hi := []float64{-1}, []float64{1}
	for _, exclude := range []bool{false, true} {
		o := must(New(lo, hi, Config{Kernel: Plus(g, kernel.RBF), Init: 2, Protocol: Protocol{ExcludeObserved: exclude, RawSamples: 64, Starts: 2}}, 1))
		for i := range 251 {
			x := []float64{min(0.004*float64(i), 1)}
			var err error
			if i%2 == 0 {
				err = o.Tell(x, -x[0]*x[0])
			} else {
				err = o.Fail(x)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		x, err := o.Ask()
		switch {
		case exclude && (!errors.Is(err, ErrSpaceExhausted) || errclass.Of(err) != errclass.Input):
			t.Errorf("ExcludeObserved: Ask = %v, %v; want ErrSpaceExhausted (input)", x, err)
		case !exclude && err != nil:
			t.Errorf("without ExcludeObserved: %v", err)
		}
	}
}
