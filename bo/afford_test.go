package bo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// avgListName is the front ends' default kernel before avg left it
// (RecommendedKernel is today's): the list that names avg, with the
// default's other candidates and odds.
const avgListName = "portfolio:nystrom+avg:soft+plus"

// sphereProblem is −‖x‖² on [−1, 1]^d: invariant under every
// coordinate group.
type sphereProblem struct{ d int }

func (p sphereProblem) Name() string { return "sphere" }
func (p sphereProblem) Bounds() (lo, hi []float64) {
	return box(p.d, 1)
}
func (p sphereProblem) Evaluate(x []float64) (float64, error) {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return -s, nil
}

// TestDecidingKernelsAnyGroupSize: the front ends' default kernel and
// auto, portfolio and explicit candidate lists build and take a BO step
// over groups whose k_avg cannot be afforded — permutation(18) and
// hyperoctahedral(20) with RBF (no permanent closed form above
// kernel.MaxPermanentDim, too large to enumerate: the default could not be
// built), hyperoctahedral(6) and (8) with Matérn-5/2 (enumerated over
// 46080 and 10321920 elements: tens of seconds a step, and no step in
// minutes) — leaving avg out, which Kernel.LeftOut, the step's
// Diagnostics and a Run's Trace name.
func TestDecidingKernelsAnyGroupSize(t *testing.T) {
	cases := []struct {
		g     orbit.Group
		shape kernel.Shape
	}{
		{must(orbit.Permutation(18)), kernel.RBF},
		{must(orbit.Hyperoctahedral(20)), kernel.RBF},
		{must(orbit.Hyperoctahedral(6)), kernel.Matern52},
		{must(orbit.Hyperoctahedral(8)), kernel.Matern52},
	}
	for _, c := range cases {
		for _, name := range []string{avgListName, "auto", "portfolio", "auto:avg+plus", "portfolio:avg+avgnorm+plus"} {
			k, err := ParseKernel(name, c.g, c.shape)
			if err != nil {
				t.Errorf("%s over %s with %v: %v", name, c.g.Name(), c.shape, err)
				continue
			}
			for _, cand := range k.Candidates() {
				if cand == NameAvg || cand == NameAvgNorm {
					t.Errorf("%s over %s with %v: candidates %v keep %s", name, c.g.Name(), c.shape, k.Candidates(), cand)
				}
			}
			lo := k.LeftOut()
			if len(lo) == 0 || !strings.HasPrefix(lo[0], NameAvg+":") || !strings.Contains(lo[0], c.g.Name()) {
				t.Errorf("%s over %s with %v: left out %q, want avg and why", name, c.g.Name(), c.shape, lo)
			}
			if k.Name() != name {
				t.Errorf("name %q, want %q", k.Name(), name)
			}
		}
		// The default takes a step (few observations, small raw samples).
		k := must(ParseKernel(avgListName, c.g, c.shape))
		d := c.g.Dim()
		lo, hi := box(d, 1)
		cfg := Config{Kernel: k.With(DecideOptions{CandidateFit: CandidateFitAnchored, ProbeWindow: DefaultProbeWindow}), Init: 3, Protocol: Protocol{RawSamples: 16, Starts: 1, MaxIter: 10}}
		tr, err := Run(context.Background(), sphereProblem{d}, cfg, 1, RunOptions{Iters: 1})
		if err != nil {
			t.Errorf("default over %s with %v: %v", c.g.Name(), c.shape, err)
			continue
		}
		if !slices.Equal(tr.Candidates, []string{NameNystrom, NameSoft, NamePlus}) || len(tr.LeftOut) != 1 || !strings.HasPrefix(tr.LeftOut[0], "avg:") {
			t.Errorf("default over %s with %v: trace candidates %v, left out %q", c.g.Name(), c.shape, tr.Candidates, tr.LeftOut)
		}
		o := must(New(lo, hi, cfg, 1))
		firstBOStep(t, o, 3)
		if dg := o.Diagnostics(); dg.Phase != PhaseBO || len(dg.LeftOut) != 1 || len(dg.Evidence) != 3 {
			t.Errorf("default over %s with %v: step %s, left out %q, evidence %v", c.g.Name(), c.shape, dg.Phase, dg.LeftOut, dg.Evidence)
		}
	}
}

// TestAffordableKeepsCommittedGroups: the rule leaves every candidate of
// the deciding kernels over the groups and shapes of the committed
// studies (lab/results: hyperoctahedral(2…6), permutation(3…6),
// signflip, rotation2d, scaling, pairedperm(4) under Matérn-3/2, the
// trivial group), so those runs keep their bits; permanents up to order 6
// and enumerations up to 64 elements stay (AutoEnumerateLimit).
func TestAffordableKeepsCommittedGroups(t *testing.T) {
	cases := []struct {
		g     orbit.Group
		shape kernel.Shape
		keep  bool
	}{
		{must(orbit.Hyperoctahedral(2)), kernel.Matern52, true},
		{must(orbit.Hyperoctahedral(3)), kernel.Matern52, true},
		{must(orbit.Hyperoctahedral(6)), kernel.RBF, true},
		{must(orbit.Hyperoctahedral(5)), kernel.RBF, true},
		{must(orbit.Permutation(6)), kernel.RBF, true},
		{must(orbit.SignFlip(6)), kernel.RBF, true},
		{must(orbit.Rotation2D()), kernel.Matern52, true},
		{must(orbit.Trivial(8)), kernel.Matern32, true},
		{must(orbit.Parse(orbit.Spec{Name: "pairedperm", D: 8})), kernel.Matern32, true},
		{must(orbit.Parse(orbit.Spec{Name: "scaling", D: 2, Lo: []float64{0.1}, Hi: []float64{10}})), kernel.RBF, true},
		{must(orbit.Permutation(6)), kernel.RBF, true},      // a permanent of order 6: 2^6 = 64
		{must(orbit.Permutation(7)), kernel.RBF, false},     // 2^7
		{must(orbit.Hyperoctahedral(7)), kernel.RBF, false}, // 2^7
		{must(orbit.Hyperoctahedral(4)), kernel.Matern52, false},
		{must(orbit.Permutation(4)), kernel.Matern52, true},  // 24 elements
		{must(orbit.Permutation(5)), kernel.Matern52, false}, // 120
		{must(orbit.OnCoords(must(orbit.Permutation(12)), 14, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})), kernel.RBF, false},
		{must(orbit.OnCoords(must(orbit.Permutation(4)), 6, []int{1, 2, 3, 4})), kernel.RBF, true},
	}
	for _, c := range cases {
		for _, name := range []string{NameAvg, NameAvgNorm} {
			ok, why := affordable(name, c.g, c.shape, false)
			if ok != c.keep || (ok != (why == "")) {
				t.Errorf("%s over %s with %v: affordable %v (%q), want %v", name, c.g.Name(), c.shape, ok, why, c.keep)
			}
		}
		for _, k := range []Kernel{Auto(c.g, c.shape), Portfolio(c.g, c.shape), must(ParseKernel(avgListName, c.g, c.shape))} {
			if got := slices.Contains(k.Candidates(), NameAvg); got != c.keep || (len(k.LeftOut()) == 0) != c.keep {
				t.Errorf("%s over %s with %v: candidates %v, left out %q", k.Name(), c.g.Name(), c.shape, k.Candidates(), k.LeftOut())
			}
		}
	}
	if c, _, _ := avgPairCost(must(orbit.Hyperoctahedral(20)), kernel.RBF); !math.IsInf(c, 1) {
		t.Errorf("hyperoctahedral(20): cost %v, want +Inf (too large to count)", c)
	}
}

// TestLeaveOutOdds: a favoured candidate left out takes its odds with it
// (the others keep theirs), and a list of unaffordable candidates only is
// refused with ErrBadConfig.
func TestLeaveOutOdds(t *testing.T) {
	g := must(orbit.Hyperoctahedral(6))
	k := must(ParseKernel("auto:nystrom:avg+plus", g, kernel.Matern52))
	if !slices.Equal(k.Candidates(), []string{NameNystrom, NamePlus}) || k.isFavoured(0) || !k.isFavoured(1) {
		t.Errorf("candidates %v, favoured %d", k.Candidates(), k.favoured)
	}
	k = must(ParseKernel("portfolio:avg:nystrom+plus", g, kernel.Matern52))
	if !slices.Equal(k.Candidates(), []string{NameNystrom, NamePlus}) || !k.isFavoured(0) || !k.isFavoured(1) {
		t.Errorf("candidates %v, favoured %d", k.Candidates(), k.favoured)
	}
	if _, err := ParseKernel("auto:avg+avgnorm", g, kernel.Matern52); !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "afforded") {
		t.Errorf("auto:avg+avgnorm over %s: %v, want ErrBadConfig", g.Name(), err)
	}
}

// TestAffordScaling: DecideOptions.Afford (Recommended's)
// leaves avg and avgnorm out over the scaling groups, alone or on some
// coordinates, and nothing else; With follows the options it is given
// (With(o) after With(o') is With(o)); a list left with no candidate is
// refused by New; and without the option every list keeps its candidates
// (the committed records).
func TestAffordScaling(t *testing.T) {
	quad := DecideOptions{Afford: true}
	scal := must(orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10}))
	dir := must(orbit.ScalingDir([]float64{1, 1, 1}, []float64{2, 2, 2}))
	on := must(orbit.OnCoords(must(orbit.Scaling([]float64{0.5, 0.5}, []float64{2, 2})), 3, []int{0, 2}))
	for _, g := range []orbit.Group{scal, dir, on} {
		k := must(ParseKernel("portfolio:nystrom+avg:soft+plus", g, kernel.RBF))
		if !slices.Contains(k.Candidates(), NameAvg) || k.LeftOut() != nil {
			t.Fatalf("%s without the option: candidates %v, left out %q", g.Name(), k.Candidates(), k.LeftOut())
		}
		kq := k.With(quad)
		if got, want := kq.Candidates(), []string{NameNystrom, NameSoft, NamePlus}; !slices.Equal(got, want) {
			t.Errorf("%s with Afford: candidates %v, want %v", g.Name(), got, want)
		}
		if lo := kq.LeftOut(); len(lo) != 1 || !strings.Contains(lo[0], "DecideOptions.Afford") || !strings.Contains(lo[0], g.Name()) {
			t.Errorf("%s with Afford: left out %q", g.Name(), lo)
		}
		if back := kq.With(DecideOptions{}); !slices.Equal(back.Candidates(), k.Candidates()) || back.LeftOut() != nil {
			t.Errorf("%s: With(zero) after With(quad): candidates %v, left out %q", g.Name(), back.Candidates(), back.LeftOut())
		}
		// The favoured count follows: avg favoured and left out leaves one
		// favoured candidate of the two.
		f := must(ParseKernel("portfolio:nystrom:avg+plus", g, kernel.RBF)).With(quad)
		if f.favoured != 1 || !f.isFavoured(len(f.arms)-1) || f.arms[len(f.arms)-1].Name() != NamePlus {
			t.Errorf("%s: favoured %d of %v", g.Name(), f.favoured, f.Candidates())
		}
		cfg := Config{Kernel: must(ParseKernel("portfolio:avg+avgnorm", g, kernel.RBF)).With(quad)}
		lo, hi := make([]float64, g.Dim()), make([]float64, g.Dim())
		for i := range lo {
			lo[i], hi[i] = 1, 2
		}
		if _, err := New(lo, hi, cfg, 1); !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "no candidate can be afforded") {
			t.Errorf("%s: a list with no candidate left: New error %v", g.Name(), err)
		}
	}
	// Over the other groups with RBF (closed forms, a permanent) avg is
	// kept under the option.
	for _, g := range []orbit.Group{must(orbit.Permutation(3)), must(orbit.Rotation2D()), must(orbit.SignFlip(4))} {
		if k := must(ParseKernel("portfolio:nystrom+avg:soft+plus", g, kernel.RBF)).With(quad); !slices.Contains(k.Candidates(), NameAvg) {
			t.Errorf("%s with Afford: candidates %v, left out %q", g.Name(), k.Candidates(), k.LeftOut())
		}
	}
	// Recommended sets it, so a list a front end names over a scaling
	// group is held to it.
	cfg, err := Recommended(scal, kernel.RBF)
	if err != nil || !cfg.Kernel.Options().Afford {
		t.Fatalf("Recommended: %v, options %+v", err, cfg.Kernel.Options())
	}
}

// TestAffordEnumerated: under DecideOptions.Afford auto and portfolio
// leave out an enumerated avg or avgnorm over more than
// AffordEnumerateLimit elements (permutation(4), 24 elements, and
// hyperoctahedral(3), 48, with Matérn-5/2, on their own coordinates and
// on 3 of 10; sign flips of five coordinates, 32), keep it up to the
// limit (sign flips of four, 16; permutation(3), 6) and keep a
// permanent (RBF's closed form, hyperoctahedral(6) counted 64); without
// the option every list keeps it (the committed records).
func TestAffordEnumerated(t *testing.T) {
	strict := DecideOptions{Afford: true}
	hyp3 := must(orbit.Hyperoctahedral(3))
	hyp3of10 := must(orbit.OnCoords(hyp3, 10, []int{1, 3, 5}))
	perm4 := must(orbit.Permutation(4))
	sf4, sf5 := must(orbit.SignFlip(4)), must(orbit.SignFlip(5))
	// The orders, 2^m·m! and m! and 2^m, sit on either side of the limit.
	for _, c := range []struct {
		g     orbit.Group
		order int
		over  bool
	}{{hyp3, 48, true}, {perm4, 24, true}, {sf5, 32, true}, {sf4, 16, false}} {
		if n, err := orbit.Size(c.g); err != nil || n != c.order || (n > AffordEnumerateLimit) != c.over {
			t.Fatalf("%s: %d elements (%v), limit %d", c.g.Name(), n, err, AffordEnumerateLimit)
		}
	}
	cases := []struct {
		g     orbit.Group
		shape kernel.Shape
		keep  bool
	}{
		{hyp3, kernel.Matern52, false},
		{hyp3of10, kernel.Matern52, false},
		{hyp3, kernel.Matern32, false},
		{perm4, kernel.Matern52, false},
		{sf5, kernel.Matern52, false},
		{sf4, kernel.Matern52, true},
		{must(orbit.Permutation(3)), kernel.Matern52, true},
		{hyp3, kernel.RBF, true},                           // the permanent
		{must(orbit.Hyperoctahedral(6)), kernel.RBF, true}, // the permanent, counted 64
		{must(orbit.Rotation2D()), kernel.Matern52, true},  // a closed form
	}
	for _, c := range cases {
		for _, name := range []string{"portfolio:nystrom+avg:soft+plus", "portfolio:nystrom+avgnorm+plus", "auto:nystrom+avg+plus"} {
			k := must(ParseKernel(name, c.g, c.shape))
			avg := k.Candidates()[1]
			if !slices.Contains(k.Candidates(), avg) || k.LeftOut() != nil {
				t.Fatalf("%s over %s with %v without the option: candidates %v, left out %q", name, c.g.Name(), c.shape, k.Candidates(), k.LeftOut())
			}
			ks := k.With(strict)
			if slices.Contains(ks.Candidates(), avg) != c.keep {
				t.Errorf("%s over %s with %v with Afford: candidates %v, want %s kept %v", name, c.g.Name(), c.shape, ks.Candidates(), avg, c.keep)
			}
			if !c.keep {
				if lo := ks.LeftOut(); len(lo) != 1 || !strings.Contains(lo[0], "AffordEnumerateLimit") || !strings.Contains(lo[0], c.g.Name()) || !strings.HasPrefix(lo[0], avg+":") {
					t.Errorf("%s over %s with %v: left out %q", name, c.g.Name(), c.shape, lo)
				}
				if back := ks.With(DecideOptions{}); !slices.Equal(back.Candidates(), k.Candidates()) || back.LeftOut() != nil {
					t.Errorf("%s over %s: With(zero) after With(Afford): candidates %v", name, c.g.Name(), back.Candidates())
				}
			} else if ks.LeftOut() != nil {
				t.Errorf("%s over %s with %v with Afford: left out %q", name, c.g.Name(), c.shape, ks.LeftOut())
			}
		}
	}
	// A front end's list: ParseRecommended applies the option, the odds
	// stay on soft and plus; Portfolio's and Auto's own candidates follow
	// it too.
	k, err := ParseRecommended("portfolio:nystrom+avg:soft+plus", hyp3, kernel.Matern52)
	if err != nil || !slices.Equal(k.Candidates(), []string{NameNystrom, NameSoft, NamePlus}) || k.favoured != 2 {
		t.Errorf("ParseRecommended over hyperoctahedral(3): %v, candidates %v, favoured %d", err, k.Candidates(), k.favoured)
	}
	for _, p := range []Kernel{Portfolio(hyp3, kernel.Matern52), Auto(hyp3, kernel.Matern52)} {
		if p := p.With(strict); slices.Contains(p.Candidates(), NameAvg) || len(p.LeftOut()) != 1 {
			t.Errorf("%s over hyperoctahedral(3) with Afford: candidates %v, left out %q", p.Name(), p.Candidates(), p.LeftOut())
		}
	}
	// A list of enumerated averages alone has no candidate left: New
	// refuses it, and ParseRecommended says so at once.
	if _, err := ParseRecommended("portfolio:avg+avgnorm", hyp3, kernel.Matern52); !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "no candidate can be afforded") {
		t.Errorf("portfolio:avg+avgnorm over hyperoctahedral(3): %v", err)
	}
}

// TestOneCandidateLeftReportsIt: a deciding kernel whose candidates the
// affordability rule cuts to one (auto:avg+plus and portfolio:avg+plus
// over hyperoctahedral(6) with Matérn-5/2: avg left out, Candidates
// [plus]) still reports, as Diagnostics and a Run's Evaluation document
// for auto and portfolio, the candidate the step used (Kernel) and every
// candidate's evidence in Candidates' order — both were empty, as for a
// kernel that decides nothing, while Trace.Candidates named plus.
func TestOneCandidateLeftReportsIt(t *testing.T) {
	g := must(orbit.Hyperoctahedral(6))
	d := g.Dim()
	lo, hi := box(d, 1)
	for _, name := range []string{"auto:avg+plus", "portfolio:avg+plus"} {
		k := must(ParseKernel(name, g, kernel.Matern52))
		if !slices.Equal(k.Candidates(), []string{NamePlus}) {
			t.Fatalf("%s: candidates %v, want [plus]", name, k.Candidates())
		}
		cfg := Config{Kernel: k, Init: 3, Protocol: Protocol{RawSamples: 16, Starts: 1, MaxIter: 10}}
		o := must(New(lo, hi, cfg, 1))
		firstBOStep(t, o, 3)
		dg := o.Diagnostics()
		if dg.Kernel != NamePlus || len(dg.Evidence) != 1 || math.IsNaN(dg.Evidence[0]) || dg.Evidence[0] != dg.LogMarginal {
			t.Errorf("%s: Diagnostics kernel %q, evidence %v (log marginal %v), want plus and its evidence", name, dg.Kernel, dg.Evidence, dg.LogMarginal)
		}
		tr, err := Run(context.Background(), sphereProblem{d}, cfg, 1, RunOptions{Iters: 1})
		if err != nil {
			t.Fatal(err)
		}
		e := tr.Evaluations[len(tr.Evaluations)-1]
		if e.Phase != PhaseBO || e.Kernel != NamePlus || len(e.Evidence) != len(tr.Candidates) {
			t.Errorf("%s: trace candidates %v, last evaluation %s kernel %q evidence %v", name, tr.Candidates, e.Phase, e.Kernel, e.Evidence)
		}
	}
}

// firstBOStep tells o its init initial points (y = 0, 1, …) and asks the
// first BO step's point, failing t on any error.
func firstBOStep(t *testing.T, o *Optimizer, init int) []float64 {
	t.Helper()
	for i := range init {
		x := must(o.Ask())
		if err := o.Tell(x, float64(i)); err != nil {
			t.Fatal(err)
		}
	}
	x, err := o.Ask()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// affordStep is the first BO step of the recommended list over
// permutation(len(xs[0])) with RBF, DecideOptions.Afford as given, raw
// samples and starts as given and the seed, after telling xs and ys;
// it returns the proposal and the optimizer.
func affordStep(t *testing.T, list string, afford bool, raw, starts int, seed uint64, xs [][]float64, ys []float64) ([]float64, *Optimizer) {
	t.Helper()
	d := len(xs[0])
	lo, hi := box(d, 1)
	k := must(ParseRecommended(list, must(orbit.Permutation(d)), kernel.RBF))
	dopt := k.Options()
	dopt.Afford = afford
	cfg := Config{Kernel: k.With(dopt), Protocol: RecommendedProtocol(), Workers: 1}
	cfg.Starts, cfg.RawSamples = starts, raw
	o := must(New(lo, hi, cfg, seed))
	for i, x := range xs {
		if err := o.Tell(x, ys[i]); err != nil {
			t.Fatal(err)
		}
	}
	x, err := o.Ask()
	if err != nil {
		t.Fatal(err)
	}
	return x, o
}

// TestAffordAvgRefereeStarts: under DecideOptions.Afford, where a list
// names avg, every candidate searches with DecideOptions.CandidateStarts
// ascents, the referee included, whichever it is: every step is bit for
// bit the step of the same optimizer with Config.Starts =
// CandidateStarts, and Diagnostics.CutStarts says so. A list without avg
// (the default's) keeps the referee's Config.Starts under Afford (some
// step differs from the cut one), and without Afford a list naming avg
// keeps them too (the paper protocol's searches).
func TestAffordAvgRefereeStarts(t *testing.T) {
	testdepth.Sequential(t) // Workers 1: no goroutine
	const d = 4
	step := func(list string, afford bool, starts int, xs [][]float64, ys []float64) ([]float64, *Optimizer) {
		return affordStep(t, list, afford, 16, starts, 3, xs, ys)
	}
	const list, noAvg = "portfolio:nystrom+avg:soft+plus", "portfolio:nystrom:soft+plus"
	var avgRef, otherRef, noAvgDiffer, unaffordedDiffer int
	for s := range uint64(64) {
		rng := rand.New(rand.NewPCG(11, s))
		n := 10 + int(s%4)
		xs, ys := make([][]float64, n), make([]float64, n)
		for i := range xs {
			xs[i] = make([]float64, d)
			var sum float64
			for j := range xs[i] {
				xs[i][j] = 2*rng.Float64() - 1
				ys[i] += math.Sin(3 * xs[i][j])
				sum += xs[i][j]
			}
			ys[i] -= 0.3 * sum * sum
		}
		x, o := step(list, true, DefaultStarts, xs, ys)
		cut, _ := step(list, true, DefaultCandidateStarts, xs, ys)
		if o.arms[o.refArm].k.name == NameAvg {
			avgRef++
		} else {
			otherRef++
		}
		if !o.Diagnostics().CutStarts {
			t.Errorf("data set %d: a list naming avg under Afford, Diagnostics.CutStarts not set", s)
		}
		if !slices.Equal(x, cut) {
			t.Errorf("data set %d: referee %s; proposed %v, with Starts = CandidateStarts %v", s, o.arms[o.refArm].k.Name(), x, cut)
		}
		paper, po := step(list, false, DefaultStarts, xs, ys)
		if !slices.Equal(paper, cut) {
			unaffordedDiffer++
		}
		if po.Diagnostics().CutStarts {
			t.Errorf("data set %d: without Afford, Diagnostics.CutStarts set", s)
		}
		y, no := step(noAvg, true, DefaultStarts, xs, ys)
		if no.Diagnostics().CutStarts {
			t.Errorf("data set %d: a list without avg, Diagnostics.CutStarts set", s)
		}
		if ycut, _ := step(noAvg, true, DefaultCandidateStarts, xs, ys); !slices.Equal(y, ycut) {
			noAvgDiffer++
		}
	}
	t.Logf("avg referee on %d data sets, another on %d; %d differ without Afford, %d of the list without avg differ from its cut search", avgRef, otherRef, unaffordedDiffer, noAvgDiffer)
	if avgRef == 0 || otherRef == 0 {
		t.Fatalf("avg referees on %d data sets, another on %d: want both", avgRef, otherRef)
	}
	if noAvgDiffer == 0 {
		t.Error("no step of the list without avg differs from the search cut to CandidateStarts: the referee's Config.Starts ascents do not act")
	}
	if unaffordedDiffer == 0 {
		t.Error("without Afford no step differs from the cut search: the rule is not Afford's alone")
	}
}

// TestAffordAvgRawPrefix: under DecideOptions.Afford an avg or avgnorm
// candidate, referee or not, scores the first ⌈RawSamples/CutRawShare⌉
// raw samples: a list of avg and avgnorm alone with 64 raw samples and
// ten starts proposes bit for bit what it proposes without Afford with
// 64/CutRawShare raw samples and CandidateStarts starts (the Halton points of a step
// are a prefix of a longer draw's), and the prefix acts: without Afford,
// 64 raw samples and the same starts, some step differs.
func TestAffordAvgRawPrefix(t *testing.T) {
	testdepth.Sequential(t) // Workers 1: no goroutine
	const d = 4
	step := func(afford bool, raw, starts int, xs [][]float64, ys []float64) []float64 {
		x, _ := affordStep(t, "portfolio:avg:avgnorm", afford, raw, starts, 5, xs, ys)
		return x
	}
	const raw = 64
	if cutRaw(raw) != raw/CutRawShare {
		t.Fatalf("cutRaw(%d) = %d, want %d", raw, cutRaw(raw), raw/CutRawShare)
	}
	differ := 0
	for s := range uint64(24) {
		rng := rand.New(rand.NewPCG(13, s))
		n := 8 + int(s%5)
		xs, ys := make([][]float64, n), make([]float64, n)
		for i := range xs {
			xs[i] = make([]float64, d)
			for j := range xs[i] {
				xs[i][j] = 2*rng.Float64() - 1
				ys[i] += math.Sin(3*xs[i][j]) * float64(j+1)
			}
		}
		x := step(true, raw, DefaultStarts, xs, ys)
		if want := step(false, cutRaw(raw), DefaultCandidateStarts, xs, ys); !slices.Equal(x, want) {
			t.Errorf("data set %d: under Afford proposed %v, without it from the first %d raw samples %v", s, x, cutRaw(raw), want)
		}
		if !slices.Equal(x, step(false, raw, DefaultCandidateStarts, xs, ys)) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("no step differs from the search over every raw sample: the prefix does not act")
	}
}

// TestAffordCutNotExhausted: a cut search (cutSearch) gives avg and
// avgnorm a prefix of the raw samples, but Ask returns ErrSpaceExhausted
// only when every raw sample of the step lies on an excluded orbit (the
// package documentation, "The exclusion radius"): over studies in d = 1
// with two raw samples — avg's prefix one, next to observed points its
// ascents tend to end on — hedged or not, no Ask is refused as exhausted
// while a raw sample of its step is off the excluded orbits (on a third
// of these studies one was, before a cut search exhausted on its prefix
// searched again over every raw sample), and the studies take cut steps.
func TestAffordCutNotExhausted(t *testing.T) {
	testdepth.Sequential(t) // Workers 1: no goroutine
	g := must(orbit.SignFlip(1))
	lo, hi := box(1, 1)
	cuts := 0
	for c := range 4 {
		list := []string{"portfolio:avgnorm+plus", "portfolio:nystrom+avg:soft+plus"}[c%2]
		for seed := range uint64(12) {
			k := must(ParseRecommended(list, g, kernel.RBF))
			dopt := k.Options()
			dopt.Hedge = c < 2 // Recommended's, then one search per candidate
			cfg := must(Recommended(g, kernel.RBF))
			cfg.Kernel, cfg.RawSamples, cfg.Workers = k.With(dopt), 2, 1
			o := must(New(lo, hi, cfg, seed))
		study:
			for step := range 10 {
				for range 2 {
					o.syncModel()
					raw := must(o.rawPoints(len(o.xs) + len(o.pend) + len(o.failed)))
					free := 0
					for r := range cfg.RawSamples {
						if !o.onExcludedOrbit(raw[r:r+1], true) {
							free++
						}
					}
					_, err := o.Ask()
					if errors.Is(err, ErrSpaceExhausted) && free > 0 {
						t.Errorf("%s, hedge %v, seed %d, step %d: %d of the %d raw samples off the excluded orbits, and Ask: %v", list, dopt.Hedge, seed, step, free, cfg.RawSamples, err)
						break study
					}
					if err != nil {
						t.Fatalf("%s, seed %d, step %d: %v", list, seed, step, err)
					}
					if o.Diagnostics().CutStarts {
						cuts++
					}
				}
				for _, x := range o.Pending() {
					if err := o.Tell(x, math.Sin(4*x[0]+float64(seed))); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	if cuts == 0 {
		t.Error("no cut step: the test does not reach the rule")
	}
}

// TestDecideOptionsNewOrAsk: every combination of a deciding kernel
// (auto, portfolio and candidate lists, favouring ones and lists that
// DecideOptions.Afford shortens to one candidate or empties), a group
// (finite with and without a closed-form k_avg and a canonical map,
// continuous, on some coordinates), DecideOptions (the zero value,
// ParseRecommended's, and every switch away from it: the LOO referee,
// the odds at MaxOdds, the probe off, hedge and candidate starts above
// Config.Starts) and protocol (plain; Normalize, ARD, ExcludeObserved and
// StepAside with a landmark cap below the observations) is either
// refused by New with an input error, or asked without error: a batch of
// the initial design with a failed and a pending point, then BO steps
// over the cap. Nothing New accepts is refused at Ask as a configuration
// error. (It passed on the code it was written against: a guard.)
func TestDecideOptionsNewOrAsk(t *testing.T) {
	sq := func(d int, a, b float64) ([]float64, []float64) {
		lo, hi := make([]float64, d), make([]float64, d)
		for i := range lo {
			lo[i], hi[i] = a, b
		}
		return lo, hi
	}
	type space struct {
		g      orbit.Group
		lo, hi []float64
	}
	lo2, hi2 := sq(2, -1, 1)
	lo3, hi3 := sq(3, -1, 1)
	slo, shi := sq(2, 0.1, 10)
	spaces := []space{
		{must(orbit.SignFlip(2)), lo2, hi2},
		{must(orbit.Rotation2D()), lo2, hi2},
		{must(orbit.Hyperoctahedral(3)), lo3, hi3}, // enumerated with Matérn: over AffordEnumerateLimit
		{must(orbit.Cyclic(3)), lo3, hi3},          // no canonical map
		{must(orbit.Scaling(slo, shi)), slo, shi},  // a quadrature: Afford leaves avg out
		{must(orbit.OnCoords(must(orbit.Permutation(2)), 3, []int{0, 2})), lo3, hi3},
	}
	names := []string{NameAuto, NamePortfolio, RecommendedKernel, avgListName, "portfolio:avg+plus", "auto:soft+avg", "auto:avg+avgnorm", "portfolio:max+plus"}
	rec := must(ParseRecommended(NamePlus, spaces[0].g, kernel.RBF)).Options()
	loo := rec
	loo.Referee, loo.Odds, loo.Probe, loo.HedgeStarts, loo.CandidateStarts = RefereeLOO, MaxOdds, ProbeOff, maxStarts, maxStarts
	opts := []DecideOptions{{}, rec, loo}
	protos := []Protocol{
		{RawSamples: 8, Starts: 2, MaxIter: 8},
		{RawSamples: 8, Starts: 2, MaxIter: 8, Normalize: true, ARD: true, ExcludeObserved: true, StepAside: true},
	}
	i := -1
	for si, sp := range spaces {
		shapes := []kernel.Shape{kernel.RBF, kernel.Matern52}
		if testing.Short() && si != 2 {
			shapes = shapes[:1] // Matérn only where Afford leaves an enumerated avg out
		}
		for _, shape := range shapes {
			for _, name := range names {
				k0, err := ParseKernel(name, sp.g, shape)
				if err != nil {
					if errclass.Of(err) != errclass.Input {
						t.Errorf("%s over %s: ParseKernel: %v, not an input error", name, sp.g.Name(), err)
					}
					continue
				}
				for oi, o := range opts {
					for pi, pc := range protos {
						if i++; !testdepth.Keep(t, i) {
							continue
						}
						what := fmt.Sprintf("%s over %s with %s, options %d, protocol %d", name, sp.g.Name(), shape, oi, pi)
						cfg := Config{Kernel: k0.With(o), Init: 2, Landmarks: 3, Workers: 1, Protocol: pc}
						opt, err := New(sp.lo, sp.hi, cfg, 1)
						if err != nil {
							if errclass.Of(err) != errclass.Input {
								t.Errorf("%s: New: %v, not an input error", what, err)
							}
							continue
						}
						xs, err := opt.AskBatch(3)
						if err != nil {
							t.Errorf("%s: the initial design: %v", what, err)
							continue
						}
						if err := opt.Fail(xs[2]); err != nil {
							t.Fatal(err)
						}
						for _, x := range xs[:1] {
							if err := opt.Tell(x, -x[0]*x[0]); err != nil {
								t.Fatal(err)
							}
						}
						for s := range 4 {
							x, err := opt.Ask()
							if err != nil {
								t.Errorf("%s: BO step %d: %v", what, s, err)
								break
							}
							if err := opt.Tell(x, -x[0]*x[0]); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
			}
		}
	}
}
