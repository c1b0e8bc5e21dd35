package bo

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// hedgedRun runs Recommended's protocol on the problem with the
// deciding options dec for 5 + steps evaluations at the seed and returns
// the points asked and every BO step's diagnostics.
func hedgedRun(t *testing.T, name string, dec DecideOptions, seed uint64, steps, workers int) ([][]float64, []Diagnostics) {
	t.Helper()
	p := must(problem.New(name, 0))
	lo, hi := p.Bounds()
	cfg := must(Recommended(p.Group(), p.BaseShape()))
	cfg.Kernel = cfg.Kernel.With(dec)
	cfg.Minimize, cfg.RawSamples, cfg.Starts, cfg.Workers = !p.Maximize(), 128, 4, workers
	o := must(New(lo, hi, cfg, seed))
	var xs [][]float64
	var infos []Diagnostics
	for i := range 5 + steps {
		x := must(o.Ask())
		if i >= 5 {
			infos = append(infos, o.Diagnostics())
		}
		if err := o.Tell(x, must(objectiveOf(p, x))); err != nil {
			t.Fatal(err)
		}
		xs = append(xs, x)
	}
	return xs, infos
}

// TestHedgeReferee: with Hedge, the referee's means cover every
// candidate's two proposals, the point asked is the one of highest mean
// (ties to the earlier proposal), Hedged says which half it came from,
// and over a run the hedging acquisition wins some steps and loses
// others (so neither half of the test is vacuous).
func TestHedgeReferee(t *testing.T) {
	p := must(problem.New("ShiftedRastrigin4d", 0))
	dec := must(Recommended(p.Group(), p.BaseShape())).Kernel.Options()
	dec.Hedge = true
	won, lost := 0, 0
	for seed := range uint64(3) {
		_, infos := hedgedRun(t, "ShiftedRastrigin4d", dec, seed, 6, 1)
		for s, info := range infos {
			c := 3 // nystrom, soft, plus
			if len(info.Means) != 2*c {
				t.Fatalf("seed %d step %d: %d means, want %d", seed, s, len(info.Means), 2*c)
			}
			for i, mu := range info.Means {
				if math.IsNaN(mu) {
					t.Fatalf("seed %d step %d: mean %d is NaN", seed, s, i)
				}
			}
			// Ties go to the earlier proposal: compare values.
			top := slices.Max(info.Means)
			if info.Hedged && !slices.Contains(info.Means[c:], top) || !info.Hedged && !slices.Contains(info.Means[:c], top) {
				t.Errorf("seed %d step %d: hedged %v, means %v", seed, s, info.Hedged, info.Means)
			}
			if info.Hedged {
				won++
			} else {
				lost++
			}
		}
	}
	if won == 0 || lost == 0 {
		t.Errorf("hedging proposals won %d steps, lost %d: one side untested", won, lost)
	}
	t.Logf("hedging proposals won %d of %d steps", won, won+lost)
}

// TestHedgeOffUnchanged: Hedge off is the portfolio of one proposal per
// candidate whatever HedgeStarts says, and the hedged run's non-hedged
// proposals are maximizeAcq's: a hedged step that the referee gives to a
// first-half proposal asks the point the unhedged portfolio asks from
// the same state.
func TestHedgeOffUnchanged(t *testing.T) {
	p := must(problem.New("ShiftedRastrigin4d", 0))
	dec := must(Recommended(p.Group(), p.BaseShape())).Kernel.Options().withHedge(false)
	plain, _ := hedgedRun(t, "ShiftedRastrigin4d", dec, 1, 4, 1)
	dec.HedgeStarts = 2 // ignored without Hedge
	same, infos := hedgedRun(t, "ShiftedRastrigin4d", dec, 1, 4, 1)
	for i := range plain {
		if !slices.Equal(plain[i], same[i]) {
			t.Fatalf("evaluation %d: HedgeStarts without Hedge changed the point", i)
		}
	}
	for _, info := range infos {
		if info.Hedged || len(info.Means) != 3 {
			t.Fatalf("unhedged step: hedged %v, %d means", info.Hedged, len(info.Means))
		}
	}
	// The first hedged step starts from the same state as the plain run's
	// first BO step: where a first-half proposal wins, it is that step's
	// point.
	dec.Hedge, dec.HedgeStarts = true, 0
	checked := 0
	for seed := range uint64(6) {
		plain, _ := hedgedRun(t, "ShiftedRastrigin4d", dec.withHedge(false), seed, 1, 1)
		hedged, infos := hedgedRun(t, "ShiftedRastrigin4d", dec, seed, 1, 1)
		if infos[0].Hedged {
			continue
		}
		checked++
		if !slices.Equal(plain[5], hedged[5]) {
			t.Errorf("seed %d: the hedged portfolio's first-half winner %v differs from the plain portfolio's point %v", seed, hedged[5], plain[5])
		}
	}
	if checked == 0 {
		t.Fatal("no seed's first step went to a first-half proposal: nothing compared")
	}
}

// withHedge returns o with Hedge set to h.
func (o DecideOptions) withHedge(h bool) DecideOptions {
	o.Hedge = h
	return o
}

// TestHedgeWorkers: a hedged run proposes the same bits on one worker and
// on four.
func TestHedgeWorkers(t *testing.T) {
	p := must(problem.New("Griewank6d", 0))
	dec := must(Recommended(p.Group(), p.BaseShape())).Kernel.Options()
	dec.Hedge, dec.HedgeStarts = true, 2
	one, _ := hedgedRun(t, "Griewank6d", dec, 3, 4, 1)
	four, _ := hedgedRun(t, "Griewank6d", dec, 3, 4, 4)
	for i := range one {
		if !slices.Equal(one[i], four[i]) {
			t.Fatalf("evaluation %d: %v on one worker, %v on four", i, one[i], four[i])
		}
	}
}

// TestHedgeBadStarts: a negative or oversized HedgeStarts is refused.
func TestHedgeBadStarts(t *testing.T) {
	p := must(problem.New("Ackley2d", 0))
	lo, hi := p.Bounds()
	for _, s := range []int{-1, maxStarts + 1} {
		cfg := must(Recommended(p.Group(), p.BaseShape()))
		dec := cfg.Kernel.Options()
		dec.Hedge, dec.HedgeStarts = true, s
		cfg.Kernel = cfg.Kernel.With(dec)
		if _, err := New(lo, hi, cfg, 0); !errors.Is(err, ErrBadConfig) {
			t.Errorf("HedgeStarts %d: error %v, want ErrBadConfig", s, err)
		}
	}
}

// TestHedgeAcquisition: the hedging acquisition is the other built-in
// one.
func TestHedgeAcquisition(t *testing.T) {
	for _, c := range []struct{ a, want Acquisition }{{UCB{}, EI{}}, {EI{}, UCB{}}, {nil, EI{}}} {
		if got := HedgeAcquisition(c.a); got != c.want {
			t.Errorf("HedgeAcquisition(%v) = %v, want %v", c.a, got, c.want)
		}
	}
}

// TestHedgeTrace: Run records the hedging ascents in the trace (0,
// omitted, without hedging) and, per BO step, whether the point was a
// hedging proposal, with the referee's means at all six proposals.
func TestHedgeTrace(t *testing.T) {
	p := must(problem.New("ShiftedRastrigin4d", 0))
	for _, hedge := range []bool{false, true} {
		cfg := must(Recommended(p.Group(), p.BaseShape()))
		dec := cfg.Kernel.Options().withHedge(hedge)
		dec.HedgeStarts = 2
		cfg.Kernel = cfg.Kernel.With(dec)
		cfg.RawSamples, cfg.Starts = 128, 4
		tr := must(Run(context.Background(), p, cfg, 2, RunOptions{Iters: 6}))
		want, means := 0, 3
		if hedge {
			want, means = 2, 6
		}
		if tr.Hedge != want {
			t.Errorf("hedge %v: trace's hedge %d, want %d", hedge, tr.Hedge, want)
		}
		// Recommended's other search settings are in the trace too.
		if tr.CandidateStarts != DefaultCandidateStarts || !tr.ExcludeObserved || !tr.StepAside {
			t.Errorf("trace's candidate starts %d, exclude observed %v, step aside %v: want %d, true, true",
				tr.CandidateStarts, tr.ExcludeObserved, tr.StepAside, DefaultCandidateStarts)
		}
		hedged := 0
		for _, e := range tr.Evaluations {
			if e.Phase != PhaseBO {
				continue
			}
			if len(e.Means) != means {
				t.Errorf("hedge %v: %d means, want %d", hedge, len(e.Means), means)
			}
			if e.Hedged {
				hedged++
			}
		}
		if !hedge && hedged > 0 {
			t.Errorf("unhedged run: %d steps marked hedged", hedged)
		}
		t.Logf("hedge %v: %d of 6 steps hedged", hedge, hedged)
	}
}

// TestCandidateStarts: CandidateStarts at or above Config.Starts (4 in
// hedgedRun) is the same search as 0, bit for bit; one ascent for the
// candidates other than the referee changes some proposal of a run (the
// option acts); negative or oversized values are refused.
func TestCandidateStarts(t *testing.T) {
	testdepth.Sequential(t) // no goroutine: checked with go test -trace
	dec := func(cs int) DecideOptions {
		return DecideOptions{CandidateFit: CandidateFitAnchored, Hedge: true, HedgeStarts: 1, CandidateStarts: cs}
	}
	x0, _ := hedgedRun(t, "ShiftedRastrigin4d", dec(0), 3, 20, 1)
	x4, _ := hedgedRun(t, "ShiftedRastrigin4d", dec(4), 3, 20, 1)
	x1, _ := hedgedRun(t, "ShiftedRastrigin4d", dec(1), 3, 20, 1)
	same := func(a, b [][]float64) bool {
		return slices.EqualFunc(a, b, func(u, v []float64) bool { return slices.Equal(u, v) })
	}
	if !same(x0, x4) {
		t.Error("CandidateStarts = Starts changed the proposals")
	}
	if same(x0, x1) {
		t.Error("CandidateStarts 1 proposed the same points as Starts ascents for every candidate: the option does not act")
	}
	p := must(problem.New("Ackley2d", 0))
	lo, hi := p.Bounds()
	for _, s := range []int{-1, maxStarts + 1} {
		cfg := must(Recommended(p.Group(), p.BaseShape()))
		d := cfg.Kernel.Options()
		d.CandidateStarts = s
		cfg.Kernel = cfg.Kernel.With(d)
		if _, err := New(lo, hi, cfg, 0); !errors.Is(err, ErrBadConfig) {
			t.Errorf("CandidateStarts %d: error %v, want ErrBadConfig", s, err)
		}
	}
}

// TestDiagnosticsRedTeam: four defects a red team found in what Ask
// reports and what New accepts.
//   - A hedged step's Beta is the hedging acquisition's: NaN where EI
//     chose the point under UCB, β_t where UCB chose it under EI (it was
//     always the configured acquisition's).
//   - Diagnostics' slices are the caller's: editing Evidence changed what
//     the next Ask of the batch reported.
//   - DecideOptions.Odds above MaxOdds is ErrBadConfig (at 1e16 the
//     favoured candidates' scores rounded to the odds and the first won
//     whatever its evidence).
//   - Kernel{}.With(bad options) is ErrBadConfig (the options were dropped
//     with the zero kernel).
func TestDiagnosticsRedTeam(t *testing.T) {
	for _, ei := range []bool{false, true} {
		p := must(problem.New("Ackley2d", 0))
		lo, hi := p.Bounds()
		cfg := must(Recommended(p.Group(), p.BaseShape()))
		cfg.Minimize, cfg.RawSamples, cfg.Starts = !p.Maximize(), 128, 4
		if ei {
			cfg.Acquisition = EI{}
		}
		o := must(New(lo, hi, cfg, 3))
		hedged := 0
		for range 25 {
			x := must(o.Ask())
			d := o.Diagnostics()
			if d.Phase == PhaseBO {
				// UCB chose the point when configured (and not hedged) or
				// when hedging EI.
				ucb := ei == d.Hedged
				if ucb && !(d.Beta >= 0) || !ucb && !math.IsNaN(d.Beta) {
					t.Errorf("EI configured %v, hedged %v: Beta = %v", ei, d.Hedged, d.Beta)
				}
				if d.Hedged {
					hedged++
				}
			}
			if err := o.Tell(x, must(objectiveOf(p, x))); err != nil {
				t.Fatal(err)
			}
		}
		if hedged == 0 {
			t.Errorf("EI configured %v: no hedged step in 20: the case no longer shows it", ei)
		}
		// Within a batch the next Ask does not refit: it reported the
		// caller's edit.
		must(o.Ask())
		d := o.Diagnostics()
		if len(d.Evidence) == 0 {
			t.Fatal("no evidence reported")
		}
		want := d.Evidence[0]
		d.Evidence[0] = 12345
		must(o.Ask())
		if got := o.Diagnostics().Evidence[0]; got != want {
			t.Errorf("after the caller's edit the next Ask reports evidence %v, want %v", got, want)
		}
	}
	g := must(orbit.SignFlip(2))
	for _, odds := range []float64{1e16, MaxOdds * 2} {
		k := must(AutoFavouring(g, kernel.RBF, []string{"nystrom"}, []string{"avg", "plus"})).With(DecideOptions{Odds: odds})
		if _, err := New([]float64{-1, -1}, []float64{1, 1}, Config{Kernel: k}, 1); !errors.Is(err, ErrBadConfig) {
			t.Errorf("Odds %v: %v, want ErrBadConfig", odds, err)
		}
	}
	k := must(AutoFavouring(g, kernel.RBF, []string{"nystrom"}, []string{"avg", "plus"})).With(DecideOptions{Odds: MaxOdds})
	if _, err := New([]float64{-1, -1}, []float64{1, 1}, Config{Kernel: k}, 1); err != nil {
		t.Errorf("Odds = MaxOdds: %v", err)
	}
	bad := DecideOptions{ProbeWindow: -1}
	if _, err := New([]float64{0}, []float64{1}, Config{Kernel: Kernel{}.With(bad)}, 1); !errors.Is(err, ErrBadConfig) {
		t.Errorf("Kernel{}.With(bad options): %v, want ErrBadConfig", err)
	}
}
