package bo

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestPendingBeyondInit: more points asked than the initial design holds,
// with nothing observed yet (the start of a parallel study, where many
// workers ask before any result), continue the initial design — no panic,
// every point on its own orbit — and the optimizer goes on once values
// arrive. Before the fix the sixth Ask panicked in the fit
// ("zero length in matrix dimension").
func TestPendingBeyondInit(t *testing.T) {
	g := must(orbit.Hyperoctahedral(3))
	lo, hi := box(3, 2)
	for _, k := range []string{NamePlus, NameAvg, NameBase, NameMax, NameNystrom} {
		cfg := Config{Kernel: kernelOf(k, g, kernel.RBF), Init: 5, Protocol: Protocol{RawSamples: 32, Starts: 2}}
		o := must(New(lo, hi, cfg, 1))
		var asked [][]float64
		for i := range 12 {
			x, err := o.Ask()
			if err != nil {
				t.Fatalf("%s: ask %d with nothing observed: %v", k, i, err)
			}
			if o.Diagnostics().Phase != PhaseInit {
				t.Fatalf("%s: ask %d is phase %q with nothing observed", k, i, o.Diagnostics().Phase)
			}
			asked = append(asked, x)
		}
		checkOffOrbits(t, k+" asked before any value", g, lo, hi, asked)
		// The first five are the design Run would use.
		for i := range 5 {
			if !check.SameBits(asked[i], o.designPoint(i)) {
				t.Errorf("%s: point %d is not design point %d", k, i, i)
			}
		}
		// Values arrive; the next Ask is a BO step conditioned on the
		// points still pending.
		for _, x := range asked[:3] {
			must(0, o.Tell(x, toy(x)))
		}
		x := must(o.Ask())
		if o.Diagnostics().Phase != PhaseBO {
			t.Errorf("%s: phase %q after 3 observations and 9 pending", k, o.Diagnostics().Phase)
		}
		checkOffOrbits(t, k+" after values", g, lo, hi, append(o.Pending()[:9:9], x))
	}
}

// TestCancelledDesignPoint: cancelling a pending point of the initial
// design and asking again never hands out a point that is still pending
// (before the fix the next Ask returned design point n+k, which could be
// a pending one).
func TestCancelledDesignPoint(t *testing.T) {
	g := must(orbit.SignFlip(2))
	lo, hi := box(2, 1)
	o := must(New(lo, hi, Config{Kernel: Plus(g, kernel.RBF), Init: 5}, 3))
	pts := must(o.AskBatch(5))
	if !o.Cancel(pts[1]) {
		t.Fatal("cancel")
	}
	x := must(o.Ask())
	checkOffOrbits(t, "after a cancel", g, lo, hi, append(o.Pending()[:4:4], x))
}

// failing is a toy objective that fails (returns ok false) where
// max|x_i| > 1.8, the livelock repro of the field-readiness issue.
func failing(x []float64) (float64, bool) {
	for _, v := range x {
		if math.Abs(v) > 1.8 {
			return 0, false
		}
	}
	return -toy(x), true
}

// TestFailNeverReproposed: a failed point is never proposed again, nor any
// point of its orbit, by the initial design or by BO; and the optimizer
// keeps finding new points, where before (Cancel on failure) it proposed
// the same failed point forever.
func TestFailNeverReproposed(t *testing.T) {
	g := must(orbit.Hyperoctahedral(3))
	lo, hi := box(3, 2)
	for _, k := range []string{NamePlus, NameAvg, NameBase} {
		o := must(New(lo, hi, Config{Kernel: kernelOf(k, g, kernel.RBF), Init: 4, Protocol: Protocol{RawSamples: 64, Starts: 3}}, 2))
		var failed [][]float64
		fails, oks := 0, 0
		for i := range 30 {
			x, err := o.Ask()
			if err != nil {
				t.Fatalf("%s: ask %d: %v", k, i, err)
			}
			for _, f := range failed {
				checkOffOrbits(t, fmt.Sprintf("%s ask %d against a failed point", k, i), g, lo, hi, [][]float64{f, x})
			}
			if y, ok := failing(x); ok {
				must(0, o.Tell(x, y))
				oks++
			} else {
				must(0, o.Fail(x))
				failed = append(failed, x)
				fails++
			}
		}
		if len(o.Pending()) != 0 || len(o.Failed()) != fails || o.N() != oks {
			t.Errorf("%s: %d pending, %d failed (want %d), %d observed (want %d)", k, len(o.Pending()), len(o.Failed()), fails, o.N(), oks)
		}
		if fails == 0 {
			t.Errorf("%s: the test's failure region was never hit", k)
		}
	}
}

// TestFailBeforeAnyValue: when every evaluation fails, the optimizer keeps
// drawing fresh initial-design points off the failed orbits (no fit is
// possible without a value).
func TestFailBeforeAnyValue(t *testing.T) {
	g := must(orbit.Permutation(2))
	lo, hi := box(2, 1)
	o := must(New(lo, hi, Config{Kernel: Plus(g, kernel.RBF), Init: 3}, 8))
	var all [][]float64
	for i := range 20 {
		x, err := o.Ask()
		if err != nil {
			t.Fatalf("ask %d: %v", i, err)
		}
		all = append(all, x)
		must(0, o.Fail(x))
	}
	checkOffOrbits(t, "failed design", g, lo, hi, all)
}

// TestFailHistory: failed points are kept in History and restored: a
// rebuilt optimizer proposes the same bits; a failed point told later
// stops being failed; Fail refuses points outside the box.
func TestFailHistory(t *testing.T) {
	p := must(problem.New("Ackley2d", 0))
	lo, hi := p.Bounds()
	cfg := Config{Kernel: kernelOf(NamePlus, p.Group(), p.BaseShape()), Minimize: true, Init: 3, Protocol: Protocol{RawSamples: 32, Starts: 2}}
	o := must(New(lo, hi, cfg, 5))
	// A step may propose an observed point again (β_1 = 0 exploits the
	// best one); its failure is not recorded (an observation supersedes a
	// failure), so wantFailed counts the others.
	wantFailed := 0
	for i := range 8 {
		x := must(o.Ask())
		if i%3 == 1 {
			if !o.observed(x) {
				wantFailed++
			}
			must(0, o.Fail(x))
			continue
		}
		must(0, o.Tell(x, must(p.Evaluate(x))))
	}
	must(o.Ask()) // one pending too
	h := o.History()
	if len(h.Failed) != wantFailed || wantFailed < 1 || len(h.Pending) != 1 || h.Version != HistoryVersion {
		t.Fatalf("history: %d failed, %d pending, version %d", len(h.Failed), len(h.Pending), h.Version)
	}
	r := must(New(lo, hi, cfg, 5))
	must(0, r.Restore(jsonRoundTrip(t, h)))
	if a, b := must(o.Ask()), must(r.Ask()); !check.SameBits(a, b) {
		t.Errorf("restored with failed points proposes %v, the original %v", b, a)
	}
	// Telling a failed point clears it.
	f := h.Failed[0]
	must(0, o.Tell(f, 1))
	if len(o.Failed()) != wantFailed-1 {
		t.Errorf("a told failed point stays failed: %d failed", len(o.Failed()))
	}
	if err := o.Fail([]float64{99, 0}); err == nil {
		t.Error("Fail accepted a point outside the box")
	}
	// A version-1 history (no failed points) is still read.
	v1 := History{Version: 1, Seed: 5, Kernel: NamePlus, Dim: 2, Minimize: true, Observations: h.Observations}
	if err := must(New(lo, hi, cfg, 5)).Restore(v1); err != nil {
		t.Errorf("version 1 history: %v", err)
	}
}

// TestUnitsOfY: the suggestions do not depend on the units of y, for
// every kernel — in particular y varying by less than ~1e-154, where the
// squared deviations underflowed and the data were taken for constant.
// Powers of two give the same bits; 1e-100 … 1e-300 and 1e100 (whose
// products round differently, and the fit converges to its tolerance)
// give the same lengthscales to 1e-4 and points on the same orbits to
// 1e-4 of the box (an invariant acquisition's maximizers form orbits, and
// rounding picks the member).
func TestUnitsOfY(t *testing.T) {
	g := must(orbit.Hyperoctahedral(2))
	lo, hi := box(2, 2)
	for _, k := range []string{NameBase, NameNystrom, NameAvg, NameAvgNorm, NameMax, NamePlus} {
		run := func(scale float64) ([][]float64, []Hyper) {
			o := must(New(lo, hi, Config{Kernel: kernelOf(k, g, kernel.Matern52), Init: 8, Protocol: Protocol{RawSamples: 64, Starts: 3}}, 6))
			var pts [][]float64
			var hs []Hyper
			for range 11 {
				x := must(o.Ask())
				pts = append(pts, x)
				hs = append(hs, o.Diagnostics().Hyper)
				must(0, o.Tell(x, toy(x)*scale))
			}
			return pts, hs
		}
		ref, refH := run(1)
		for _, scale := range []float64{0x1p-700, 0x1p-1000, 0x1p+700} {
			pts, _ := run(scale)
			for i := range pts {
				if !check.SameBits(pts[i], ref[i]) {
					t.Errorf("%s: y × %g: point %d is %v, with y × 1 %v", k, scale, i, pts[i], ref[i])
				}
			}
		}
		for _, scale := range []float64{1e-100, 1e-200, 1e-300, 1e100} {
			pts, hs := run(scale)
			for i := 8; i < len(pts); i++ {
				var gr orbit.Group = g
				if k == NameBase || k == NameNystrom {
					gr = nil
				}
				if d2 := orbitDist2(gr, pts[i], ref[i]); d2 > 1e-8*16 {
					t.Errorf("%s: y × %g: point %d is %v, with y × 1 %v", k, scale, i, pts[i], ref[i])
				}
				if r := hs[i].Lengthscale / refH[i].Lengthscale; math.Abs(r-1) > 1e-4 {
					t.Errorf("%s: y × %g: step %d lengthscale %g, with y × 1 %g", k, scale, i, hs[i].Lengthscale, refH[i].Lengthscale)
				}
			}
		}
	}
}

// nanAcq is an acquisition that is never finite: every BO step fails.
type nanAcq struct{}

func (nanAcq) Name() string { return "nan" }
func (nanAcq) Value(AcqContext, float64, float64) (float64, float64, float64) {
	return math.NaN(), 0, 0
}

// TestAskBatchAllOrNothing: a batch whose k-th point fails leaves none of
// its points pending (before, the first k stayed pending, and the caller
// never saw them); and the box dimension is capped where the acquisition's
// quasi-random samples end (d = 1001 failed at the first BO step as an
// unclassified error).
func TestAskBatchAllOrNothing(t *testing.T) {
	lo, hi := box(2, 1)
	o := must(New(lo, hi, Config{Acquisition: nanAcq{}, Init: 3}, 1))
	for _, x := range must(o.AskBatch(2)) {
		must(0, o.Tell(x, toy(x)))
	}
	if _, err := o.AskBatch(3); err == nil {
		t.Fatal("a batch with a failing BO step succeeded")
	}
	if p := o.Pending(); len(p) != 0 {
		t.Errorf("%d points of a failed batch stay pending", len(p))
	}
	lo, hi = box(MaxDim+1, 1)
	if _, err := New(lo, hi, Config{}, 1); !errors.Is(err, ErrBadConfig) {
		t.Errorf("d = %d: %v", MaxDim+1, err)
	}
}
