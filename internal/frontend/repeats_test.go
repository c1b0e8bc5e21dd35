package frontend

import (
	"math"
	"testing"
)

// signflipDist2 is the squared orbit distance under sign flips of the
// points scaled by s (the coordinates' normalization under sign flips,
// bo.Config.Normalize: the largest |bound| to 1): Σ((|x_i| − |y_i|)/s_i)².
func signflipDist2(x, y, s []float64) float64 {
	var d2 float64
	for i := range x {
		t := (math.Abs(x[i]) - math.Abs(y[i])) / s[i]
		d2 += t * t
	}
	return d2
}

// TestSuggestNoRepeats: on the box [−1, 1] × [−100,
// 100] with sign flips, plus and the default kernel returned to an
// observed point's orbit (mostly to the point itself, bit for bit) on 7
// and 14 of 25 asks at seed 10 (the acquisition's maximizer sits on the
// best observed point, one of its ascents' starts). With the front ends' default (bo.Config.ExcludeObserved)
// no ask lands within the exclusion radius — 10⁻³ of the box diagonal,
// in the normalized coordinates the front ends' model works in
// (bo.Config.Normalize: the box [−1, 1]²) — of an observed point's orbit;
// allow_repeats turns it off.
func TestSuggestNoRepeats(t *testing.T) {
	lo, hi := []float64{-1, -100}, []float64{1, 100}
	scale := []float64{1, 100}
	r2 := 1e-6 * (2*2 + 2*2)
	f := func(x []float64) float64 { return math.Abs(math.Abs(x[0])-0.3) + math.Abs(math.Abs(x[1])-30)/100 }
	run := func(kern string, allow bool) (near int) {
		s := SuggestSettings{Group: Group{Group: "signflip", D: 2, Box: [][]float64{lo, hi}}, Kernel: kern, Seed: 10, Minimize: new(true), AllowRepeats: allow}
		opt, err := s.Optimizer(nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := opt.Config().ExcludeObserved; got == allow {
			t.Fatalf("%q, allow_repeats %v: ExcludeObserved %v", kern, allow, got)
		}
		var xs [][]float64
		for range 25 {
			x, err := opt.Ask()
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range xs {
				if signflipDist2(x, p, scale) <= r2 {
					near++
					break
				}
			}
			xs = append(xs, x)
			if err := opt.Tell(x, f(x)); err != nil {
				t.Fatal(err)
			}
		}
		return near
	}
	for _, kern := range []string{"plus", ""} {
		if n := run(kern, false); n != 0 {
			t.Errorf("kernel %q: %d of 25 asks within the exclusion radius of an observed orbit", kern, n)
		}
	}
	if n := run("plus", true); n == 0 {
		t.Errorf("allow_repeats: no ask returned to an observed point (the case no longer shows the repeats)")
	}
}
