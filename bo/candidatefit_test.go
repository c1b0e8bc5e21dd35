package bo

import (
	"errors"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/check"
)

// TestCandidateFitAnchored: DecideOptions.CandidateFit = CandidateFitAnchored
// changes a portfolio's fits — its candidates' evidence and so its points
// differ from their own searches' — keeps every step a function of the
// observations (the same bits for any Workers and for an optimizer
// rebuilt from the history), leaves the anchor's (plus's, the last
// candidate's) evidence as its own search would have it, and leaves a
// kernel with one candidate untouched; bad values are ErrBadConfig.
func TestCandidateFitAnchored(t *testing.T) {
	p := must(problem.New("Ackley2d", 0))
	const name, iters = "portfolio:nystrom+avg:soft+plus", 6
	run := func(cf CandidateFit, workers int) *Trace {
		return must(runP(p, name, Config{Workers: workers, Kernel: Kernel{}.With(DecideOptions{CandidateFit: cf})}, iters, 3))
	}
	own, anch, anch1 := run(CandidateFitOwn, 2), run(CandidateFitAnchored, 2), run(CandidateFitAnchored, 1)
	if anch.CandidateFit != "anchored" || own.CandidateFit != "" {
		t.Errorf("trace candidate_fit %q and %q, want anchored and empty", anch.CandidateFit, own.CandidateFit)
	}
	differs := false
	for i, e := range anch.Evaluations {
		if !check.SameBits(e.X, anch1.Evaluations[i].X) {
			t.Fatalf("evaluation %d: Workers 2 and 1 differ", i)
		}
		o := own.Evaluations[i]
		if e.Phase != PhaseBO || len(e.Evidence) == 0 {
			continue
		}
		last := len(e.Evidence) - 1
		if i == init0(own) && e.Evidence[last] != o.Evidence[last] {
			// The first BO step sees the same observations in both runs:
			// the anchor's own fit is the full search's.
			t.Errorf("first step: anchor's evidence %v, own search's %v", e.Evidence[last], o.Evidence[last])
		}
		for k := range last {
			if e.Evidence[k] != o.Evidence[k] {
				differs = true
			}
		}
	}
	if !differs {
		t.Error("anchored fits gave every candidate the evidence of its own search")
	}

	// A rebuilt optimizer proposes the same next point.
	cfg := Config{Kernel: kernelOf(name, p.Group(), p.BaseShape()).With(DecideOptions{CandidateFit: CandidateFitAnchored}), Minimize: true}
	lo, hi := p.Bounds()
	o := must(New(lo, hi, cfg, 3))
	for _, e := range anch.Evaluations[:init0(anch)+3] {
		if err := o.Tell(e.X, e.Y); err != nil {
			t.Fatal(err)
		}
	}
	x1 := must(o.Ask())
	r := must(New(lo, hi, cfg, 3))
	if err := r.Restore(o.History()); err != nil {
		t.Fatal(err)
	}
	r.pend = nil
	o.pend = nil
	x2 := must(r.Ask())
	if !check.SameBits(x1, x2) {
		t.Errorf("rebuilt optimizer asks %v, the original %v", x2, x1)
	}

	// One candidate: nothing to anchor.
	a := must(runP(p, NamePlus, Config{Kernel: Kernel{}.With(DecideOptions{CandidateFit: CandidateFitAnchored})}, 3, 3))
	b := must(runP(p, NamePlus, Config{}, 3, 3))
	for i := range a.Evaluations {
		if !check.SameBits(a.Evaluations[i].X, b.Evaluations[i].X) {
			t.Fatalf("plus: evaluation %d differs under CandidateFitAnchored", i)
		}
	}

	for s, want := range map[string]CandidateFit{"own": CandidateFitOwn, "Anchored": CandidateFitAnchored, " anchored ": CandidateFitAnchored} {
		if f, err := ParseCandidateFit(s); err != nil || f != want || f.String() != strings.ToLower(strings.TrimSpace(s)) {
			t.Errorf("ParseCandidateFit(%q) = %v, %v; want %v", s, f, err, want)
		}
	}
	if _, err := ParseCandidateFit("shared"); !errors.Is(err, ErrBadConfig) {
		t.Errorf("ParseCandidateFit(shared): %v", err)
	}
	if _, err := New(lo, hi, Config{Kernel: kernelOf(name, p.Group(), p.BaseShape()).With(DecideOptions{CandidateFit: CandidateFit(7)})}, 0); !errors.Is(err, ErrBadConfig) {
		t.Errorf("CandidateFit(7): %v", err)
	}
}

// init0 is the index of a trace's first BO evaluation.
func init0(tr *Trace) int {
	for i, e := range tr.Evaluations {
		if e.Phase == PhaseBO {
			return i
		}
	}
	return len(tr.Evaluations)
}
