package bo

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// autoData tells o n points drawn from seed with values f(x).
func autoData(t *testing.T, os []*Optimizer, d, n int, seed uint64, f func([]float64) float64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	for range n {
		x := make([]float64, d)
		for i := range x {
			x[i] = 4*r.Float64() - 2
		}
		for _, o := range os {
			if err := o.Tell(x, f(x)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// singlesOf returns one optimizer per auto candidate, each of that kernel
// alone with the settings of base and the same seed.
func singlesOf(lo, hi []float64, base Config, g orbit.Group) []*Optimizer {
	var out []*Optimizer
	for _, name := range AutoCandidates() {
		c := base
		c.Kernel = kernelOf(name, g, kernel.RBF)
		out = append(out, must(New(lo, hi, c, 5)))
	}
	return out
}

// TestAutoIsItsBestCandidate: auto's evidence per candidate equals the
// log marginal likelihood an optimizer of that kernel alone fits to the
// same observations (bit for bit), the candidate it names is the argmax
// of the evidence plus the log prior odds AutoOdds on the last,
// and its proposal is that optimizer's, bit for bit — for both priors and
// both means, an invariant and a non-invariant objective.
func TestAutoIsItsBestCandidate(t *testing.T) {
	g := must(orbit.Hyperoctahedral(2))
	lo, hi := box(2, 2)
	invariant := func(x []float64) float64 { return -(x[0]*x[0] + x[1]*x[1]) + math.Cos(3*x[0])*math.Cos(3*x[1]) }
	shifted := func(x []float64) float64 { return -((x[0]-0.7)*(x[0]-0.7) + (x[1]+0.3)*(x[1]+0.3)) }
	chosen := map[string]bool{}
	for _, f := range []func([]float64) float64{invariant, shifted} {
		for _, prior := range []gp.Prior{gp.PriorNone, gp.PriorBoTorch} {
			for _, mean := range []gp.Mean{gp.MeanSample, gp.MeanConstant} {
				base := Config{Init: 3, Protocol: Protocol{RawSamples: 64, Starts: 2, Prior: prior, Mean: mean}}
				cfg := base
				cfg.Kernel = Auto(g, kernel.RBF)
				auto := must(New(lo, hi, cfg, 5))
				singles := singlesOf(lo, hi, base, g)
				autoData(t, append([]*Optimizer{auto}, singles...), 2, 14, 3, f)
				x := must(auto.Ask())
				info := auto.Diagnostics()
				if len(info.Evidence) != len(singles) {
					t.Fatalf("evidence %v for %d candidates", info.Evidence, len(singles))
				}
				best := 0
				score := func(i int) float64 {
					if i == len(singles)-1 {
						return info.Evidence[i] + AutoOdds
					}
					return info.Evidence[i]
				}
				var xs [][]float64
				for i, s := range singles {
					xs = append(xs, must(s.Ask()))
					if lml := s.Diagnostics().LogMarginal; lml != info.Evidence[i] {
						t.Errorf("prior %v mean %v: %s's evidence %v, alone %v", prior, mean, AutoCandidates()[i], info.Evidence[i], lml)
					}
					if score(i) > score(best) {
						best = i
					}
				}
				if info.Kernel != AutoCandidates()[best] {
					t.Errorf("prior %v mean %v: auto chose %s, evidence %v", prior, mean, info.Kernel, info.Evidence)
				}
				if !slices.Equal(x, xs[best]) {
					t.Errorf("prior %v mean %v: auto proposed %v, %s alone %v", prior, mean, x, info.Kernel, xs[best])
				}
				if info.LogMarginal != info.Evidence[best] {
					t.Errorf("LogMarginal %v, chosen evidence %v", info.LogMarginal, info.Evidence[best])
				}
				chosen[info.Kernel] = true
			}
		}
	}
	if len(chosen) < 2 {
		t.Errorf("auto chose only %v over invariant and non-invariant data: the test does not exercise a choice", chosen)
	}
}

// TestAutoDropsAContradictedGroup: on an objective that is not invariant
// under the declared group (a shifted quadratic under sign flips) auto
// predicts with nystrom, which does not assume the group; on one that is
// (an even function), with an invariant candidate.
func TestAutoDropsAContradictedGroup(t *testing.T) {
	lo, hi := box(3, 2)
	g := must(orbit.SignFlip(3))
	cases := []struct {
		name      string
		f         func([]float64) float64
		invariant bool
	}{
		{"shifted", func(x []float64) float64 { return -((x[0]-1)*(x[0]-1) + (x[1]+1)*(x[1]+1) + (x[2]-0.5)*(x[2]-0.5)) }, false},
		{"even", func(x []float64) float64 { return -(x[0]*x[0] + 2*x[1]*x[1] + 3*x[2]*x[2]) }, true},
	}
	for _, c := range cases {
		for seed := range uint64(3) {
			o := must(New(lo, hi, Config{Kernel: Auto(g, kernel.RBF), Init: 3, Protocol: Protocol{RawSamples: 64, Starts: 2}}, seed))
			autoData(t, []*Optimizer{o}, 3, 25, seed, c.f)
			if _, err := o.Ask(); err != nil {
				t.Fatal(err)
			}
			info := o.Diagnostics()
			if got := info.Kernel != NameNystrom; got != c.invariant {
				t.Errorf("%s seed %d: auto chose %s (evidence %v)", c.name, seed, info.Kernel, info.Evidence)
			}
		}
	}
}

// TestParseAuto: auto, auto:a+b+…, portfolio and portfolio:a+b+… parse
// (the lists name themselves unless they are the default candidates),
// and a candidate list with fewer than two, repeated, nested (auto or
// portfolio) or unknown kernels is an error.
func TestParseAuto(t *testing.T) {
	g := must(orbit.SignFlip(2))
	k := must(ParseKernel("AUTO", g, kernel.RBF))
	if k.Name() != NameAuto || len(k.arms) != len(AutoCandidates()) || k.odds != AutoOdds {
		t.Errorf("auto: %q with %d candidates, odds %v", k.Name(), len(k.arms), k.odds)
	}
	k = must(ParseKernel("auto:base+plus", g, kernel.RBF))
	if k.Name() != "auto:base+plus" || len(k.arms) != 2 || k.arms[1].Name() != NamePlus {
		t.Errorf("auto:base+plus: %q, %d candidates", k.Name(), len(k.arms))
	}
	if k := must(ParseKernel("auto:nystrom+avg+plus", g, kernel.RBF)); k.Name() != NameAuto {
		t.Errorf("auto's own candidates name themselves %q", k.Name())
	}
	for _, bad := range []string{"auto:plus", "auto:plus+plus", "auto:auto+plus", "auto:foo+plus", "auto:"} {
		if _, err := ParseKernel(bad, g, kernel.RBF); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if _, err := ParseKernel("auto", nil, kernel.RBF); err == nil {
		t.Error("auto without a group parsed")
	}
	p := must(ParseKernel("portfolio:base+plus", g, kernel.RBF))
	if p.Name() != "portfolio:base+plus" || !isPortfolio(p) || len(p.arms) != 2 || p.arms[1].Name() != NamePlus || p.odds != AutoOdds {
		t.Errorf("portfolio:base+plus: %q, %d candidates, portfolio %v", p.Name(), len(p.arms), isPortfolio(p))
	}
	if p := must(ParseKernel("Portfolio:nystrom+avg+plus", g, kernel.RBF)); p.Name() != NamePortfolio || !isPortfolio(p) {
		t.Errorf("portfolio's own candidates name themselves %q", p.Name())
	}
	for _, bad := range []string{"portfolio:plus", "portfolio:plus+plus", "portfolio:portfolio+plus", "portfolio:auto+plus", "auto:portfolio+plus", "portfolio:foo+plus", "portfolio:"} {
		if _, err := ParseKernel(bad, g, kernel.RBF); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if _, err := ParseKernel("portfolio:base+plus", nil, kernel.RBF); err == nil {
		t.Error("portfolio:base+plus without a group parsed")
	}
	// The favoured candidates after a colon: each has the odds; one
	// favoured spells itself as the last-favoured list.
	for _, c := range []struct {
		in, name string
		arms     []string
		favoured int
		portf    bool
	}{
		{"portfolio:nystrom+avg:soft+plus", "portfolio:nystrom+avg:soft+plus", []string{NameNystrom, NameAvg, NameSoft, NamePlus}, 2, true},
		{"auto:base:soft+plus", "auto:base:soft+plus", []string{NameBase, NameSoft, NamePlus}, 2, false},
		{"portfolio:nystrom+avg:plus", NamePortfolio, AutoCandidates(), 1, true},
		{"auto:base+soft:plus", "auto:base+soft+plus", []string{NameBase, NameSoft, NamePlus}, 1, false},
	} {
		k := must(ParseKernel(c.in, g, kernel.RBF))
		var arms []string
		for _, a := range k.arms {
			arms = append(arms, a.Name())
		}
		if k.Name() != c.name || !slices.Equal(arms, c.arms) || k.favoured != c.favoured || isPortfolio(k) != c.portf || k.odds != AutoOdds {
			t.Errorf("%q: %q over %v, %d favoured, portfolio %v, odds %v", c.in, k.Name(), arms, k.favoured, isPortfolio(k), k.odds)
		}
		if r := must(ParseKernel(k.Name(), g, kernel.RBF)); r.Name() != k.Name() || r.favoured != k.favoured {
			t.Errorf("%q does not parse back to itself: %q, %d favoured", k.Name(), r.Name(), r.favoured)
		}
	}
	for _, bad := range []string{"portfolio::plus", "portfolio:plus:", "portfolio:base:avg:plus", "auto:plus:plus", "portfolio:base:plus+auto", "auto:base:foo"} {
		if _, err := ParseKernel(bad, g, kernel.RBF); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	// An empty name between the separators is said to be one, not an
	// unknown kernel "".
	for _, bad := range []string{"portfolio::plus", "portfolio:plus:", "auto:plus+", "portfolio:+plus", "auto:", "auto:plus++avg"} {
		_, err := ParseKernel(bad, g, kernel.RBF)
		if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "empty candidate name") {
			t.Errorf("%q: %v, want ErrBadConfig naming the empty candidate", bad, err)
		}
	}
	if _, err := AutoFavouring(g, kernel.RBF, nil, []string{NameSoft, NamePlus}); err == nil {
		t.Error("AutoFavouring without unfavoured candidates accepted")
	}
}

// TestListErrorsNameTheKind: a refused candidate list names the kernel
// asked for. A portfolio's said "auto needs at least two candidates",
// "auto candidate …", "auto needs candidates both before and after …"
// and "auto:avg+avgnorm: no candidate can be afforded".
func TestListErrorsNameTheKind(t *testing.T) {
	g := must(orbit.Hyperoctahedral(6))
	for _, kind := range []string{NameAuto, NamePortfolio} {
		of, favouring := AutoOf, AutoFavouring
		if kind == NamePortfolio {
			of, favouring = PortfolioOf, PortfolioFavouring
		}
		for _, c := range []struct {
			name string
			err  error
			want string // what the message says after "bo: invalid configuration: "
		}{
			{"one candidate", second(ParseKernel(kind+":plus", g, kernel.Matern52)), kind + " needs at least two candidates"},
			{"Of with one candidate", second(of(g, kernel.Matern52, NamePlus)), kind + " needs at least two candidates"},
			{"repeated", second(ParseKernel(kind+":plus+plus", g, kernel.Matern52)), kind + ` candidate "plus"`},
			{"nested", second(ParseKernel(kind+":base:auto", g, kernel.Matern52)), kind + ` candidate "auto"`},
			{"nothing favoured", second(favouring(g, kernel.Matern52, []string{NameBase, NamePlus}, nil)), kind + " needs candidates both before and after"},
			// Over hyperoctahedral(6) with Matérn-5/2 both would be enumerated.
			{"none afforded", second(ParseKernel(kind+":avg+avgnorm", g, kernel.Matern52)), kind + ":avg+avgnorm: no candidate can be afforded"},
		} {
			if !errors.Is(c.err, ErrBadConfig) || !strings.HasPrefix(strings.TrimPrefix(c.err.Error(), ErrBadConfig.Error()+": "), c.want) {
				t.Errorf("%s, %s: %v, want ErrBadConfig saying %q", kind, c.name, c.err, c.want)
			}
		}
	}
}

// second returns its second argument: the error of a call returning two
// values.
func second[T any](_ T, err error) error { return err }

// TestPortfolioPicksHighestMean: each of portfolio's candidates proposes
// what an optimizer of that kernel alone proposes (bit for bit); the
// means it records are the posterior means at those proposals of the
// candidate auto would predict with (evidence plus AutoOdds on the last),
// computed here from that candidate's own optimizer; it returns the
// proposal with the highest mean (ties to auto's choice) and names its
// kernel; and over both priors, both means, an invariant and a
// non-invariant objective (d = 4) and three data sets each the winner is
// not always auto's choice. Where no point on Fix(G) is observed (the
// first two data sets) avg's proposal at the origin wins as the
// fixed-point probe; with the origin observed the means decide.
func TestPortfolioPicksHighestMean(t *testing.T) {
	const d = 4
	g := must(orbit.Hyperoctahedral(d))
	lo, hi := box(d, 2)
	invariant := func(x []float64) float64 {
		v := 0.0
		for _, z := range x {
			v += math.Cos(3*z) - z*z
		}
		return v
	}
	shifted := func(x []float64) float64 {
		v := 0.0
		for i, z := range x {
			v -= (z - 0.3*float64(i)) * (z - 0.3*float64(i))
		}
		return v
	}
	differs, probes := 0, 0
	for c := range 6 {
		f := []func([]float64) float64{invariant, shifted}[c%2]
		for _, prior := range []gp.Prior{gp.PriorNone, gp.PriorBoTorch} {
			for _, mean := range []gp.Mean{gp.MeanSample, gp.MeanConstant} {
				base := Config{Init: 3, Protocol: Protocol{RawSamples: 64, Starts: 2, Prior: prior, Mean: mean}}
				cfg := base
				cfg.Kernel = Portfolio(g, kernel.RBF)
				pf := must(New(lo, hi, cfg, 5))
				singles := singlesOf(lo, hi, base, g)
				if c >= 2 {
					// A point on Fix(G) observed: no probe, the means decide.
					for _, o := range append([]*Optimizer{pf}, singles...) {
						if err := o.Tell(make([]float64, d), f(make([]float64, d))); err != nil {
							t.Fatal(err)
						}
					}
				}
				autoData(t, append([]*Optimizer{pf}, singles...), d, 8+2*c, uint64(3+c), f)
				x := must(pf.Ask())
				info := pf.Diagnostics()
				ref := 0
				score := func(i int) float64 {
					if i == len(singles)-1 {
						return info.Evidence[i] + AutoOdds
					}
					return info.Evidence[i]
				}
				for i := range singles {
					if score(i) > score(ref) {
						ref = i
					}
				}
				var props [][]float64
				for _, s := range singles {
					props = append(props, must(s.Ask()))
				}
				// The referee's means, from its own optimizer's posterior.
				r := singles[ref]
				var ws gp.Workspace
				win := ref
				for i, p := range props {
					z := p
					if r.predCanon != nil {
						z = make([]float64, r.predCanon.cd)
						r.predCanon.c.CanonicalTo(z, p)
					}
					mu, _, err := r.pred.PredictStandardized(&ws, z, nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					if len(info.Means) != len(singles) || info.Means[i] != mu {
						t.Fatalf("prior %v mean %v: means %v; the referee %s's mean at %s's proposal is %v", prior, mean, info.Means, AutoCandidates()[ref], AutoCandidates()[i], mu)
					}
					if mu > info.Means[win] {
						win = i
					}
				}
				if info.Probe {
					// The fixed-point probe overrides the means
					// (TestPortfolioProbe checks when it fires).
					win = slices.Index(AutoCandidates(), NameAvg)
					probes++
				}
				if info.Kernel != AutoCandidates()[win] || !slices.Equal(x, props[win]) {
					t.Errorf("prior %v mean %v: portfolio chose %s at %v; highest mean %s at %v (means %v)", prior, mean, info.Kernel, x, AutoCandidates()[win], props[win], info.Means)
				}
				if win != ref && !info.Probe {
					differs++
				}
			}
		}
	}
	if differs == 0 || probes == 0 {
		t.Errorf("the winner differs from auto's choice by the means in %d cases, by the probe in %d: the test does not exercise both", differs, probes)
	}
}

// TestFixedShares: the fixed-point share of the probe equals an
// independent closed form, over signflip(d) with RBF at ℓ₀ =
// ProbeScale × the box diagonal: s(x) = (1/2^d) Σ_s exp(−|x − s⊙x|²/2ℓ₀²)
// = Π_i (1 + exp(−2x_i²/ℓ₀²))/2; 1 at the origin (Fix(G)), about ½^j
// with j coordinates a few ℓ₀ off 0.
func TestFixedShares(t *testing.T) {
	const d = 3
	g := must(orbit.SignFlip(d))
	lo, hi := box(d, 5)
	o := must(New(lo, hi, Config{Kernel: Portfolio(g, kernel.RBF), Init: 2}, 1))
	a := slices.IndexFunc(o.arms, func(ar arm) bool { return ar.k.Name() == NameAvg })
	if a < 0 {
		t.Fatal("no avg candidate")
	}
	l0 := ProbeScale * math.Sqrt(float64(d)*100)
	pts := [][]float64{{0, 0, 0}, {l0 / 10, 0, -l0 / 20}, {3 * l0, 0, 0}, {3 * l0, -4 * l0, 1e-9}, {1, 2, -3}, {0.5 * l0, 0.3 * l0, 0}}
	got := must(o.fixedShares(a, pts))
	for i, x := range pts {
		want := 1.0
		for _, z := range x {
			want *= (1 + math.Exp(-2*z*z/(l0*l0))) / 2
		}
		if math.Abs(got[i]-want) > 1e-12 {
			t.Errorf("share at %v = %v, want %v", x, got[i], want)
		}
		if on := got[i] >= ProbeShare; on != (i < 2) {
			t.Errorf("share at %v = %v: on the fixed-point set %v, want %v", x, got[i], on, i < 2)
		}
	}
}

// TestPortfolioProbe: over an invariant objective whose optimum is the
// origin (Fix(G) of the hyperoctahedral group), a portfolio run probes
// exactly once, at avg's proposal, at a point on Fix(G) (every
// coordinate within ℓ₀/10 of 0), and no other step probes; an optimizer
// whose history already holds a point on Fix(G) never probes, nor one
// without the avg candidate, nor one under the trivial group (every
// point is on its Fix(G)); a batch of four asked before any probe holds
// one point on Fix(G) (the diagonal, under the permutations); and the
// probe is a function of the observations (rebuilt from its history, the
// optimizer asks the same bits).
func TestPortfolioProbe(t *testing.T) {
	const d = 2
	g := must(orbit.Hyperoctahedral(d))
	lo, hi := box(d, 4)
	f := func(x []float64) float64 {
		v := 0.0
		for _, z := range x {
			v -= z*z + 0.5*(1-math.Cos(2*math.Pi*z))
		}
		return v
	}
	l0 := ProbeScale * math.Sqrt(float64(d)*64)
	run := func(k Kernel, first []float64, steps int) (probes []int, xs [][]float64, o *Optimizer) {
		o = must(New(lo, hi, Config{Kernel: k, Init: 4, Protocol: Protocol{RawSamples: 128, Starts: 3, Prior: gp.PriorBoTorch, Mean: gp.MeanConstant}}, 11))
		if first != nil {
			if err := o.Tell(first, f(first)); err != nil {
				t.Fatal(err)
			}
		}
		for i := range steps {
			x := must(o.Ask())
			if o.Diagnostics().Probe {
				probes = append(probes, i)
				if o.Diagnostics().Kernel != NameAvg {
					t.Errorf("%s: probe at step %d predicted with %s", k.Name(), i, o.Diagnostics().Kernel)
				}
			}
			xs = append(xs, x)
			if err := o.Tell(x, f(x)); err != nil {
				t.Fatal(err)
			}
		}
		return probes, xs, o
	}
	probes, xs, o := run(Portfolio(g, kernel.RBF), nil, 12)
	if len(probes) != 1 {
		t.Fatalf("portfolio probed at steps %v, want once", probes)
	}
	for _, z := range xs[probes[0]] {
		if math.Abs(z) > l0/10 {
			t.Errorf("the probe %v is not on the fixed-point set (ℓ₀ = %v)", xs[probes[0]], l0)
		}
	}
	for _, x := range xs[:probes[0]] {
		if math.Abs(x[0]) < l0 && math.Abs(x[1]) < l0 {
			t.Errorf("%v, evaluated before the probe, is on the fixed-point set", x)
		}
	}
	// Rebuilt from its history, the optimizer asks the same bits.
	r := must(New(lo, hi, o.Config(), 11))
	if err := r.Restore(o.History()); err != nil {
		t.Fatal(err)
	}
	if a, b := must(o.Ask()), must(r.Ask()); !slices.Equal(a, b) {
		t.Errorf("rebuilt optimizer asks %v, the original %v", b, a)
	}
	// A batch probes once: the probe, pending, is on Fix(G) for the
	// asks after it. Under the permutations Fix(G) is the diagonal, a
	// line: avg's variance still peaks on it away from a pending point.
	pg := must(orbit.Permutation(d))
	b := must(New(lo, hi, Config{Kernel: Portfolio(pg, kernel.RBF), Init: 4, Protocol: Protocol{RawSamples: 128, Starts: 3, Prior: gp.PriorBoTorch, Mean: gp.MeanConstant}}, 11))
	for _, x := range xs[:4] {
		if err := b.Tell(x, f(x)); err != nil {
			t.Fatal(err)
		}
	}
	onFix := 0
	for _, x := range must(b.AskBatch(4)) {
		if math.Abs(x[0]-x[1]) < l0/10 {
			onFix++
		}
	}
	if onFix != 1 {
		t.Errorf("a batch of 4 has %d points on the diagonal, want the one probe", onFix)
	}
	if p, _, _ := run(Portfolio(g, kernel.RBF), []float64{0, 0}, 8); len(p) != 0 {
		t.Errorf("with the origin observed, portfolio probed at steps %v", p)
	}
	if p, _, _ := run(must(PortfolioOf(g, kernel.RBF, NameNystrom, NamePlus)), nil, 8); len(p) != 0 {
		t.Errorf("without avg, portfolio probed at steps %v", p)
	}
	if p, _, _ := run(Portfolio(must(orbit.Trivial(d)), kernel.RBF), nil, 8); len(p) != 0 {
		t.Errorf("under the trivial group, portfolio probed at steps %v", p)
	}
}

// TestAutoLeavesOutEnumeratedAvg: over a finite group above
// AutoEnumerateLimit on which k_avg has no closed form for the shape
// (Matérn-3/2 under the permutations of 8 coordinates: 40320 elements),
// auto and portfolio fit nystrom and plus only, still named auto and
// portfolio, and a trace lists those candidates; with a closed form
// within the limit (RBF's permanent over the hyperoctahedral group of 5
// coordinates), within the limit (Matérn-3/2 under the hyperoctahedral
// group of 3 coordinates, 48 elements) or over a continuous group, avg
// stays; above it without the closed form (Matérn-3/2 under the
// hyperoctahedral group of 4, 384) it goes, and so it does with RBF's
// permanent of order 8 (2^8 = 256 base-kernel evaluations' worth per
// pair, over AutoEnumerateLimit).
func TestAutoLeavesOutEnumeratedAvg(t *testing.T) {
	p8 := must(orbit.Permutation(8))
	if _, err := kernel.NewAvg(kernel.Params{Shape: kernel.Matern32, Variance: 1, Lengthscale: 1}, p8, kernel.Options{Method: kernel.Closed}); err == nil {
		t.Fatal("Matérn-3/2 k_avg over permutation(8) has a closed form: pick another case")
	}
	cases := []struct {
		g     orbit.Group
		shape kernel.Shape
		want  []string
	}{
		{p8, kernel.Matern32, []string{NameNystrom, NamePlus}},
		{p8, kernel.RBF, []string{NameNystrom, NamePlus}},
		{must(orbit.Hyperoctahedral(3)), kernel.Matern32, AutoCandidates()},
		{must(orbit.Hyperoctahedral(4)), kernel.Matern32, []string{NameNystrom, NamePlus}},
		{must(orbit.Hyperoctahedral(5)), kernel.RBF, AutoCandidates()},
		{must(orbit.Rotation2D()), kernel.Matern32, AutoCandidates()},
	}
	for _, c := range cases {
		for _, k := range []Kernel{Auto(c.g, c.shape), Portfolio(c.g, c.shape)} {
			if got := k.Candidates(); !slices.Equal(got, c.want) {
				t.Errorf("%s over %s with %v: candidates %v, want %v", k.Name(), c.g.Name(), c.shape, got, c.want)
			}
			if k.Name() != NameAuto && k.Name() != NamePortfolio {
				t.Errorf("name %q", k.Name())
			}
		}
	}
	// A run reports the candidates it fitted.
	d := 8
	lo, hi := box(d, 1)
	o := must(New(lo, hi, Config{Kernel: Auto(p8, kernel.Matern32), Init: 3, Protocol: Protocol{RawSamples: 16, Starts: 1}}, 1))
	for i := range 4 {
		x := must(o.Ask())
		if err := o.Tell(x, -float64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := o.Ask(); err != nil {
		t.Fatal(err)
	}
	if ev := o.Diagnostics().Evidence; len(ev) != 2 {
		t.Errorf("evidence %v for candidates nystrom and plus", ev)
	}
}

// TestProbeWindow: DecideOptions.ProbeWindow limits the fixed-point probe to the
// first W BO steps (t = n − Init + 1): on TestPortfolioProbe's objective
// shifted off Fix(G) (its optimum at (2.5, 2.5)), a window reaching the step at which the probe fires without one leaves
// the run bit for bit as it was, a window one step shorter removes the
// probe (the steps before it unchanged, and the step itself then won by
// the means); the trace records the window; a rebuilt optimizer asks the
// same bits; a negative window or one above MaxEvaluations is
// ErrBadConfig.
func TestProbeWindow(t *testing.T) {
	const d, init, steps, seed = 2, 4, 14, 15
	g := must(orbit.Hyperoctahedral(d))
	lo, hi := box(d, 4)
	f := func(x []float64) float64 {
		v := 0.0
		for _, z := range x {
			z -= 2.5
			v -= z*z + 0.5*(1-math.Cos(2*math.Pi*z))
		}
		return v
	}
	run := func(w int) (probes []int, xs [][]float64, o *Optimizer) {
		o = must(New(lo, hi, Config{Kernel: Portfolio(g, kernel.RBF).With(DecideOptions{ProbeWindow: w}), Init: init, Protocol: Protocol{RawSamples: 128, Starts: 3, Prior: gp.PriorBoTorch, Mean: gp.MeanConstant}}, seed))
		for i := range steps {
			x := must(o.Ask())
			if o.Diagnostics().Probe {
				probes = append(probes, i)
			}
			xs = append(xs, x)
			if err := o.Tell(x, f(x)); err != nil {
				t.Fatal(err)
			}
		}
		return probes, xs, o
	}
	free, xs0, _ := run(0)
	if len(free) != 1 {
		t.Fatalf("without a window the probe fired at steps %v, want once", free)
	}
	t0 := free[0] - init + 1 // the BO step of the probe
	if t0 != 5 {
		// At seed 15 avg proposes Fix(G) at the fifth BO step, the
		// front ends' window (DefaultProbeWindow).
		t.Fatalf("the probe fired at BO step %d, want 5", t0)
	}
	at, xsAt, _ := run(t0)
	if !slices.Equal(at, free) {
		t.Errorf("window %d: probes at %v, want %v", t0, at, free)
	}
	for i := range xs0 {
		if !check.SameBits(xsAt[i], xs0[i]) {
			t.Fatalf("window %d: step %d asks %v, without a window %v", t0, i, xsAt[i], xs0[i])
		}
	}
	before, xsB, o := run(t0 - 1)
	if len(before) != 0 {
		t.Errorf("window %d: probes at %v, want none", t0-1, before)
	}
	for i := range free[0] {
		if !check.SameBits(xsB[i], xs0[i]) {
			t.Fatalf("window %d: step %d before the probe's asks %v, without a window %v", t0-1, i, xsB[i], xs0[i])
		}
	}
	if check.SameBits(xsB[free[0]], xs0[free[0]]) {
		t.Errorf("window %d: the probe's step still asks the probe %v", t0-1, xs0[free[0]])
	}
	if got := o.Config().Kernel.Options().ProbeWindow; got != t0-1 {
		t.Errorf("Config().Kernel.Options().ProbeWindow = %d, want %d", got, t0-1)
	}
	r := must(New(lo, hi, o.Config(), seed))
	if err := r.Restore(o.History()); err != nil {
		t.Fatal(err)
	}
	if a, b := must(o.Ask()), must(r.Ask()); !slices.Equal(a, b) {
		t.Errorf("rebuilt optimizer asks %v, the original %v", b, a)
	}
	tr := must(runP(must(problem.New("Ackley2d", 0)), "portfolio", Config{Kernel: Kernel{}.With(DecideOptions{ProbeWindow: 3})}, 2, 1))
	if tr.ProbeWindow != 3 {
		t.Errorf("trace probe_window %d, want 3", tr.ProbeWindow)
	}
	for _, w := range []int{-1, MaxEvaluations + 1} {
		if _, err := New(lo, hi, Config{Kernel: Portfolio(g, kernel.RBF).With(DecideOptions{ProbeWindow: w})}, 1); !errors.Is(err, ErrBadConfig) {
			t.Errorf("ProbeWindow %d: err %v, want ErrBadConfig", w, err)
		}
	}
}
