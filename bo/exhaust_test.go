package bo

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// candidateSearches restores h into a new optimizer and runs each fitted
// candidate's search of its next BO step as the portfolio does (no cut
// search: the callers' kernels have no avg): props holds each search's
// proposal in the user's coordinates, nil where it found every point it
// rates on an excluded orbit, in Diagnostics.Means' order (the
// candidates', then with DecideOptions.Hedge their hedging searches);
// searched says which ran, and ref is the referee.
func candidateSearches(t *testing.T, lo, hi []float64, cfg Config, seed uint64, h History) (props [][]float64, searched []bool, ref int) {
	t.Helper()
	o := must(New(lo, hi, cfg, seed))
	if err := o.Restore(h); err != nil {
		t.Fatal(err)
	}
	if err := o.fit(); err != nil {
		t.Fatal(err)
	}
	n := len(o.xs) + len(o.pend) + len(o.failed)
	raw := must(o.rawPoints(n))
	bestObs := o.modelXs()[o.bestIndex()]
	hs := hedgeStarts(o.cfg)
	var hacq Acquisition
	na := len(o.arms)
	props, searched = make([][]float64, na), make([]bool, na)
	if hs > 0 {
		hacq = HedgeAcquisition(o.cfg.Acquisition)
		props, searched = make([][]float64, 2*na), make([]bool, 2*na)
	}
	search := func(i int, a *acqFunc, cand, score []float64, starts int) {
		var info Diagnostics
		x, err := o.ascend(a, cand, score, starts, &info)
		switch {
		case errors.Is(err, ErrSpaceExhausted):
		case err != nil:
			t.Fatal(err)
		default:
			props[i] = o.toUser(x)
		}
		searched[i] = true
	}
	for i, m := range o.armFits {
		if m == nil {
			continue
		}
		o.setModel(i, m)
		if err := o.condition(); err != nil {
			t.Fatal(err)
		}
		starts := o.cfg.Starts
		if cs := candidateStarts(o.cfg); cs > 0 && i != o.refArm {
			starts = cs
		}
		a := o.newAcq()
		cand, scores, err := o.rawScores(a, hacq, raw, n, bestObs)
		if err != nil {
			t.Fatal(err)
		}
		search(i, a, cand, scores[0], starts)
		if hs > 0 {
			ah := *a
			ah.acq = hacq
			search(na+i, &ah, cand, scores[1], hs)
		}
	}
	return props, searched, o.refArm
}

// TestPortfolioCandidateExhausted: a portfolio step is exhausted only when
// no candidate's search proposes a point. On the box [−1, 1] under sign
// flips, |x| covered at the exclusion radius (every 0.004, one point in
// six observed, the others failed) but for the gap (0.6, 0.7),
// Recommended's portfolio with two raw samples, hedged or not, steps
// until the gap is covered too. Before each step every candidate's search
// runs on its own (candidateSearches): Ask returns ErrSpaceExhausted (an
// input error) where none proposes, and otherwise one of the proposals,
// bit for bit, with the referee's mean NaN at exactly the searches that
// proposed none. The study takes steps where some searches are exhausted
// and others not — the referee's among them, and with Hedge one of a
// candidate's two searches — at which Ask returned ErrSpaceExhausted
// while a candidate with no proposal failed the step; and it ends
// exhausted.
func TestPortfolioCandidateExhausted(t *testing.T) {
	testdepth.Sequential(t) // one worker: no goroutine for -race to watch
	for _, hedge := range []bool{false, true} {
		t.Run(fmt.Sprintf("hedge=%v", hedge), func(t *testing.T) { testPortfolioCandidateExhausted(t, hedge) })
	}
}

func testPortfolioCandidateExhausted(t *testing.T, hedge bool) {
	g := must(orbit.SignFlip(1))
	lo, hi := box(1, 1)
	const seed = 18
	cfg := must(Recommended(g, kernel.RBF))
	dopt := cfg.Kernel.Options()
	dopt.Hedge = hedge
	cfg.Kernel, cfg.RawSamples, cfg.Workers = cfg.Kernel.With(dopt), 2, 1
	o := must(New(lo, hi, cfg, seed))
	f := func(x float64) float64 { return math.Sin(3*x+seed) - x*x }
	for i := 0; 0.004*float64(i) <= 1; i++ {
		x := 0.004 * float64(i)
		if x > 0.6 && x < 0.7 {
			continue
		}
		var err error
		if i%6 == 0 {
			err = o.Tell([]float64{x}, f(x))
		} else {
			err = o.Fail([]float64{x})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var partial, refNone, split int
	exhausted := false
	for step := 0; step < 40 && !exhausted; step++ {
		props, searched, ref := candidateSearches(t, lo, hi, cfg, seed, o.History())
		some, none := 0, 0
		for i, x := range props {
			switch {
			case x != nil:
				some++
			case searched[i]:
				none++
			}
		}
		if some > 0 && none > 0 {
			partial++
			if props[ref] == nil {
				refNone++
			}
			for i := range len(props) / 2 {
				if hedge && searched[i] && (props[i] == nil) != (props[len(props)/2+i] == nil) {
					split++ // one of candidate i's two searches proposes
					break
				}
			}
		}
		x, err := o.Ask()
		if some == 0 {
			if !errors.Is(err, ErrSpaceExhausted) || errclass.Of(err) != errclass.Input {
				t.Fatalf("step %d: no search proposes, and Ask = %v, %v; want ErrSpaceExhausted (input)", step, x, err)
			}
			exhausted = true
			continue
		}
		if err != nil {
			t.Fatalf("step %d: %d of %d searches propose (the referee's: %v), and Ask: %v", step, some, some+none, props[ref] != nil, err)
		}
		if len(x) != 1 || !slices.ContainsFunc(props, func(p []float64) bool { return p != nil && math.Float64bits(p[0]) == math.Float64bits(x[0]) }) {
			t.Fatalf("step %d: Ask = %v, none of the proposals %v", step, x, props)
		}
		means := o.Diagnostics().Means
		if len(means) != len(props) {
			t.Fatalf("step %d: %d means for %d searches", step, len(means), len(props))
		}
		for i, mu := range means {
			if math.IsNaN(mu) != (props[i] == nil) {
				t.Errorf("step %d: the referee's mean %v at search %d, whose proposal is %v", step, mu, i, props[i])
			}
		}
		if err := o.Tell(x, f(x[0])); err != nil {
			t.Fatal(err)
		}
	}
	if !exhausted {
		t.Error("the study is not exhausted in 40 steps")
	}
	if partial == 0 || refNone == 0 || hedge && split == 0 {
		t.Errorf("%d steps with some searches exhausted, %d with the referee's, %d with one of a candidate's two searches: the test does not reach the case", partial, refNone, split)
	}
	t.Logf("%d steps with some searches exhausted, %d with the referee's, %d with one of a candidate's two", partial, refNone, split)
}
