package bo

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// must panics on an error: test setup only.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func box(d int, a float64) (lo, hi []float64) {
	lo, hi = make([]float64, d), make([]float64, d)
	for i := range lo {
		lo[i], hi[i] = -a, a
	}
	return lo, hi
}

func TestParseKernel(t *testing.T) {
	for _, s := range []string{"base", "AVG", " max", "Plus"} {
		if _, err := ParseKernel(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"", "rbf", "maxx"} {
		if _, err := ParseKernel(s); !errors.Is(err, ErrUnknownKernel) {
			t.Errorf("%q: err = %v", s, err)
		}
	}
	lo, hi := box(2, 1)
	g := must(orbit.SignFlip(2))
	if _, err := New(lo, hi, g, kernel.RBF, Config{Kernel: "gauss"}, 1); !errors.Is(err, ErrUnknownKernel) {
		t.Errorf("New with unknown kernel: %v", err)
	}
}

func TestMaxRefused(t *testing.T) {
	lo4, hi4 := box(4, 1)
	lo2, hi2 := box(2, 1)
	refused := []orbit.Group{
		must(orbit.PairedPerm(2)), must(orbit.BlockPerm(2, 2)), must(orbit.Cyclic(4)),
	}
	for _, g := range refused {
		_, err := New(lo4, hi4, g, kernel.RBF, Config{Kernel: Max}, 1)
		if !errors.Is(err, ErrMaxNotPSD) || !strings.Contains(err.Error(), "plus") {
			t.Errorf("%s: err = %v, want ErrMaxNotPSD suggesting plus", g.Name(), err)
		}
		if _, err := New(lo4, hi4, g, kernel.RBF, Config{Kernel: Plus}, 1); err != nil {
			t.Errorf("%s plus: %v", g.Name(), err)
		}
	}
	sc := must(orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10}))
	if _, err := New([]float64{0.1, 0.1}, []float64{10, 10}, sc, kernel.RBF, Config{Kernel: Max}, 1); !errors.Is(err, ErrMaxNotPSD) {
		t.Errorf("scaling: %v", err)
	}
	accepted := []orbit.Group{
		must(orbit.SignFlip(4)), must(orbit.Permutation(4)), must(orbit.Hyperoctahedral(4)),
	}
	for _, g := range accepted {
		if _, err := New(lo4, hi4, g, kernel.Matern52, Config{Kernel: Max}, 1); err != nil {
			t.Errorf("%s: %v", g.Name(), err)
		}
	}
	if _, err := New(lo2, hi2, must(orbit.Rotation2D()), kernel.RBF, Config{Kernel: Max}, 1); err != nil {
		t.Errorf("rotation2d: %v", err)
	}
}

func TestBadConfig(t *testing.T) {
	lo, hi := box(2, 1)
	g := must(orbit.SignFlip(2))
	for name, c := range map[string]Config{
		"negative init":  {Init: -1},
		"negative iters": {Iters: -2},
		"acquisition":    {Acquisition: 7},
		"beta":           {Beta: 3},
		"workers":        {Workers: -1},
		"noise":          {FixNoise: true, Noise: math.NaN()},
		"prior":          {Prior: 9},
	} {
		if _, err := New(lo, hi, g, kernel.RBF, c, 1); !errors.Is(err, ErrBadConfig) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := New([]float64{0, 1}, []float64{1, 1}, g, kernel.RBF, Config{}, 1); !errors.Is(err, ErrBadConfig) {
		t.Errorf("empty box: %v", err)
	}
	if _, err := New(lo, hi, must(orbit.SignFlip(3)), kernel.RBF, Config{Kernel: Plus}, 1); !errors.Is(err, ErrBadConfig) {
		t.Errorf("group dimension: %v", err)
	}
	if _, err := New(lo, hi, nil, kernel.RBF, Config{Kernel: Plus}, 1); !errors.Is(err, ErrBadConfig) {
		t.Errorf("nil group: %v", err)
	}
}

// toy is an invariant objective on [−2, 2]² for the hyperoctahedral group.
func toy(x []float64) float64 {
	r := 0.0
	for _, v := range x {
		r += (math.Abs(v) - 1) * (math.Abs(v) - 1)
	}
	return -r
}

func TestTellBadInput(t *testing.T) {
	lo, hi := box(2, 2)
	g := must(orbit.Hyperoctahedral(2))
	o := must(New(lo, hi, g, kernel.RBF, Config{Kernel: Plus, Init: 3, RawSamples: 64, Starts: 3}, 1))
	for range 4 {
		x := must(o.Ask())
		if err := o.Tell(x, toy(x)); err != nil {
			t.Fatal(err)
		}
	}
	next := must(o.Ask())
	n := o.N()
	for _, y := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if err := o.Tell([]float64{0.5, 0.5}, y); !errors.Is(err, ErrBadValue) || !strings.Contains(err.Error(), "not finite") {
			t.Errorf("y = %v: %v", y, err)
		}
	}
	for _, x := range [][]float64{{2.5, 0}, {0, -2.0000001}, {math.NaN(), 0}, {math.Inf(1), 0}, {0}, {0, 0, 0}} {
		if err := o.Tell(x, 1); !errors.Is(err, ErrBadPoint) {
			t.Errorf("x = %v: %v", x, err)
		}
	}
	if o.N() != n {
		t.Fatalf("N changed from %d to %d", n, o.N())
	}
	again := must(o.Ask())
	for i := range next {
		if math.Float64bits(next[i]) != math.Float64bits(again[i]) {
			t.Fatalf("Ask changed after rejected Tells: %v vs %v", next, again)
		}
	}
	// The box boundary itself is allowed.
	if err := o.Tell([]float64{2, -2}, toy([]float64{2, -2})); err != nil {
		t.Errorf("boundary point: %v", err)
	}
}

func inBox(x, lo, hi []float64) bool {
	for i := range x {
		if !(x[i] >= lo[i] && x[i] <= hi[i]) {
			return false
		}
	}
	return true
}

// TestDegenerateData: duplicate points and constant y must not break the
// GP, for every kernel.
func TestDegenerateData(t *testing.T) {
	lo, hi := box(2, 2)
	g := must(orbit.Hyperoctahedral(2))
	for _, k := range []KernelKind{Base, Avg, AvgNorm, Max, Plus} {
		for _, acq := range []Acquisition{UCB, EI} {
			cfg := Config{Kernel: k, Acquisition: acq, Init: 1, RawSamples: 32, Starts: 2}
			// Duplicates (and orbit duplicates: (1,−1) is g·(1,1)).
			o := must(New(lo, hi, g, kernel.Matern52, cfg, 2))
			for _, x := range [][]float64{{1, 1}, {1, 1}, {1, 1}, {1, -1}, {-1, 1}, {0.5, 0.2}, {0.5, 0.2}} {
				if err := o.Tell(x, toy(x)+0.01*x[0]); err != nil {
					t.Fatal(err)
				}
			}
			x, err := o.Ask()
			if err != nil || !inBox(x, lo, hi) {
				t.Errorf("%s %v duplicates: x = %v, err = %v", k, acq, x, err)
			}
			// Constant y.
			o = must(New(lo, hi, g, kernel.Matern52, cfg, 3))
			for _, x := range [][]float64{{1, 0}, {0, 1.5}, {-1, -1}, {0.3, 0.7}} {
				if err := o.Tell(x, 4.2); err != nil {
					t.Fatal(err)
				}
			}
			x, err = o.Ask()
			if err != nil || !inBox(x, lo, hi) {
				t.Errorf("%s %v constant y: x = %v, err = %v", k, acq, x, err)
			}
		}
	}
}

// TestAskInBox: the acquisition optimizer returns points in the box even
// when the best observation (a start) sits on the boundary or a corner and
// the acquisition increases outward.
func TestAskInBox(t *testing.T) {
	lo := []float64{-1, 0, 2}
	hi := []float64{1, 0.5, 7}
	rng := rand.New(rand.NewPCG(5, 5))
	ramp := func(x []float64) float64 { return 3*x[0] - x[1] + 0.5*x[2] }
	for _, k := range []KernelKind{Base, Plus} {
		var g orbit.Group
		if k == Plus {
			g = must(orbit.Permutation(3))
		}
		for _, acq := range []Acquisition{UCB, EI} {
			o := must(New(lo, hi, g, kernel.Matern52, Config{Kernel: k, Acquisition: acq, Init: 2, RawSamples: 64, Starts: 4}, 9))
			corner := []float64{hi[0], lo[1], hi[2]}
			for i := range 12 {
				x := make([]float64, 3)
				for j := range x {
					x[j] = lo[j] + (hi[j]-lo[j])*rng.Float64()
					if i%2 == 0 {
						// On a face.
						if rng.IntN(2) == 0 {
							x[j] = lo[j]
						} else {
							x[j] = hi[j]
						}
					}
				}
				if i == 0 {
					x = corner
				}
				if err := o.Tell(x, ramp(x)); err != nil {
					t.Fatal(err)
				}
				y := must(o.Ask())
				if !inBox(y, lo, hi) {
					t.Fatalf("%s %v: Ask = %v outside the box", k, acq, y)
				}
			}
		}
	}
}

func TestBookkeeping(t *testing.T) {
	fs := 2.0
	tr := &Trace{Optimum: &fs, Evaluations: []Evaluation{
		{Phase: PhaseInit, F: -1},
		{Phase: PhaseInit, F: 1.5},
		{Phase: PhaseBO, F: 0},
		{Phase: PhaseBO, F: 2},
		{Phase: PhaseBO, F: 1},
		{Phase: PhaseBO, F: 2},
	}}
	bookkeep(tr)
	// Regrets 3, 0.5 | 2, 0, 1, 0; cumulative over BO: 2, 2, 3, 3;
	// simple (best so far incl. init: 1.5, 2, 2, 2): 0.5, 0, 0, 0.
	wantR := []float64{3, 0.5, 2, 0, 1, 0}
	for i, e := range tr.Evaluations {
		if e.Regret == nil || *e.Regret != wantR[i] {
			t.Errorf("regret %d = %v, want %v", i, e.Regret, wantR[i])
		}
		if e.AtOptimum != (e.F == 2) {
			t.Errorf("AtOptimum %d = %v", i, e.AtOptimum)
		}
	}
	eq := func(name string, got, want []float64) {
		if len(got) != len(want) {
			t.Fatalf("%s = %v, want %v", name, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s = %v, want %v", name, got, want)
				return
			}
		}
	}
	eq("cumulative", tr.CumulativeRegret, []float64{2, 2, 3, 3})
	eq("simple", tr.SimpleRegret, []float64{0.5, 0, 0, 0})
	if tr.BestF != 2 || tr.ExactOptimumHits != 2 {
		t.Errorf("BestF = %v, hits = %d", tr.BestF, tr.ExactOptimumHits)
	}
	// Unknown optimum: no regrets anywhere, best_f still there, and the
	// JSON carries no regret fields.
	tr.Optimum = nil
	bookkeep(tr)
	if tr.CumulativeRegret != nil || tr.SimpleRegret != nil || tr.ExactOptimumHits != 0 || tr.BestF != 2 {
		t.Errorf("no optimum: %+v", tr)
	}
	b := must(json.Marshal(tr))
	if s := string(b); strings.Contains(s, "regret") || !strings.Contains(s, `"best_f":2`) {
		t.Errorf("JSON: %s", s)
	}
}

// traceJSON is the trace without its timings.
func traceJSON(t *testing.T, tr *Trace) string {
	t.Helper()
	c := *tr
	c.Timings = Timings{}
	c.Evaluations = append([]Evaluation(nil), tr.Evaluations...)
	for i := range c.Evaluations {
		c.Evaluations[i].Timings = Timings{}
	}
	return string(must(json.Marshal(&c)))
}

// TestRunDeterministic: the same seed gives the same trace bits for
// GOMAXPROCS 1 and 4 and any Workers; the regrets are f* − f.
func TestRunDeterministic(t *testing.T) {
	p := must(problem.New("Ackley2d", 0))
	kernels := []KernelKind{Base, Avg, AvgNorm, Max, Plus}
	if testing.Short() {
		kernels = []KernelKind{Avg, AvgNorm, Plus}
	}
	for _, k := range kernels {
		var ref string
		for _, c := range []struct{ procs, workers int }{{1, 0}, {4, 0}, {4, 1}, {2, 7}} {
			old := runtime.GOMAXPROCS(c.procs)
			tr, err := Run(p, Config{Kernel: k, Iters: 4, RawSamples: 64, Workers: c.workers}, 11, nil)
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			s := traceJSON(t, tr)
			if ref == "" {
				ref = s
				for i, e := range tr.Evaluations {
					f := must(p.Objective(e.X))
					if f != e.F || *e.Regret != 0-f || e.X == nil {
						t.Errorf("%s: evaluation %d: f = %v, want %v", k, i, e.F, f)
					}
					if e.Y == e.F {
						t.Errorf("%s: evaluation %d: no noise added", k, i)
					}
				}
				if len(tr.Evaluations) != 9 || len(tr.CumulativeRegret) != 4 {
					t.Errorf("%s: %d evaluations, %d cumulative regrets", k, len(tr.Evaluations), len(tr.CumulativeRegret))
				}
				continue
			}
			if s != ref {
				t.Errorf("%s: trace differs with GOMAXPROCS=%d Workers=%d", k, c.procs, c.workers)
			}
		}
	}
}

// TestPriorRun: a run with the BoTorch prior is deterministic, records the
// prior, and differs from the plain-likelihood run (whose trace records no
// prior, as before the option existed); the fitted noise respects
// BoTorch's floor and the lengthscale prior is on the box-side scale.
func TestPriorRun(t *testing.T) {
	p := must(problem.New("Ackley2d", 0))
	cfg := Config{Kernel: Plus, Iters: 4, RawSamples: 64, Prior: gp.PriorBoTorch}
	a := must(Run(p, cfg, 7, nil))
	b := must(Run(p, cfg, 7, nil))
	if traceJSON(t, a) != traceJSON(t, b) {
		t.Error("prior run not deterministic")
	}
	if a.Prior != "botorch" {
		t.Errorf("trace prior %q, want botorch", a.Prior)
	}
	cfg.Prior = gp.PriorNone
	c := must(Run(p, cfg, 7, nil))
	if c.Prior != "" || strings.Contains(traceJSON(t, c), `"prior"`) {
		t.Errorf("plain run records prior %q", c.Prior)
	}
	same := true
	for i, e := range a.Evaluations {
		if e.Hyper != nil && c.Evaluations[i].Hyper != nil && *e.Hyper != *c.Evaluations[i].Hyper {
			same = false
		}
		if e.Hyper != nil && e.Hyper.Noise < gp.BoTorchNoiseMin*(1-1e-12) {
			t.Errorf("evaluation %d: noise %v below BoTorch's floor", i, e.Hyper.Noise)
		}
	}
	if same {
		t.Error("prior did not change any fitted hyperparameters")
	}
}

// TestSeedsDiffer guards the determinism test against a constant trace.
func TestSeedsDiffer(t *testing.T) {
	p := must(problem.New("Ackley2d", 0))
	a := must(Run(p, Config{Iters: 1, RawSamples: 16}, 1, nil))
	b := must(Run(p, Config{Iters: 1, RawSamples: 16}, 2, nil))
	if traceJSON(t, a) == traceJSON(t, b) {
		t.Error("seeds 1 and 2 gave the same trace")
	}
}

// TestBeta checks β_t against its definition for both rules.
func TestBeta(t *testing.T) {
	lo, hi := box(3, 1)
	for _, rule := range []BetaRule{BetaPaper, BetaAuthors} {
		o := must(New(lo, hi, nil, kernel.RBF, Config{Beta: rule}, 1))
		for _, n := range []int{5, 6, 20, 54} {
			tt, b := o.beta(n)
			want := 0.5 * 3 * math.Log(float64(n-5+1))
			if rule == BetaAuthors {
				want = 0.5 * 3 * math.Log(float64(2*n))
			}
			if tt != n-4 || math.Abs(b-want) > 1e-15*math.Max(1, want) {
				t.Errorf("%v n=%d: t=%d β=%v, want %v", rule, n, tt, b, want)
			}
		}
	}
}

// TestInvariance: with invariant kernels the whole acquisition (fit,
// prediction, UCB/EI) is invariant: α(g·x) = α(x) for every g.
func TestInvariance(t *testing.T) {
	type tc struct {
		name string
		p    string
		k    KernelKind
	}
	cases := []tc{{"ackley/avg", "Ackley2d", Avg}, {"ackley/avgnorm", "Ackley2d", AvgNorm}, {"wlan/avgnorm", "WLAN6d", AvgNorm}, {"ackley/max", "Ackley2d", Max}, {"ackley/plus", "Ackley2d", Plus}, {"wlan/plus", "WLAN6d", Plus}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := must(problem.New(c.p, 0))
			lo, hi := p.Bounds()
			g := p.Group().(orbit.Finite)
			ng := must(orbit.Size(g))
			for _, acq := range []Acquisition{UCB, EI} {
				o := must(New(lo, hi, g, p.BaseShape(), Config{Kernel: c.k, Acquisition: acq, Init: 6, RawSamples: 32, Starts: 2}, 4))
				for range 8 {
					x := must(o.Ask())
					if err := o.Tell(x, must(p.Objective(x))); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := o.Ask(); err != nil {
					t.Fatal(err)
				}
				a := o.newAcq()
				s := newAcqScratch(p.Dim(), o.canon)
				rng := rand.New(rand.NewPCG(8, 8))
				x, gx := make([]float64, p.Dim()), make([]float64, p.Dim())
				for range 5 {
					for i := range x {
						x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
					}
					ax := must(a.eval(s, x, nil))
					for j := range ng {
						g.ActTo(gx, x, j)
						agx := must(a.eval(s, gx, nil))
						if math.Abs(agx-ax) > 1e-8*math.Max(1, math.Abs(ax)) {
							t.Errorf("%v: α(g%d·x) = %v, α(x) = %v", acq, j, agx, ax)
						}
					}
				}
			}
		})
	}
}

// TestCanonicalTwin: the GP predicting in canonical coordinates equals the
// fitted k_max / k_plus GP on the original inputs, and the chained gradient
// matches finite differences of the acquisition.
func TestCanonicalTwin(t *testing.T) {
	for _, pc := range []struct {
		p string
		k KernelKind
	}{{"Rastrigin3d", Max}, {"Rastrigin3d", Plus}, {"Radial2d", Plus}, {"Griewank3d", Max}} {
		p := must(problem.New(pc.p, 0))
		lo, hi := p.Bounds()
		o := must(New(lo, hi, p.Group(), p.BaseShape(), Config{Kernel: pc.k, Init: 10, RawSamples: 32, Starts: 2}, 3))
		for range 11 {
			x := must(o.Ask())
			if err := o.Tell(x, must(p.Objective(x))); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := o.Ask(); err != nil {
			t.Fatal(err)
		}
		if o.canon == nil || o.pred == o.model {
			t.Fatalf("%s %s: no canonical model", pc.p, pc.k)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		a := o.newAcq()
		s := newAcqScratch(p.Dim(), o.canon)
		x := make([]float64, p.Dim())
		grad, xh := make([]float64, p.Dim()), make([]float64, p.Dim())
		for range 5 {
			for i := range x {
				x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
			}
			m1, v1 := must2(t)(o.model.Predict(nil, x))
			z := make([]float64, o.canon.cd)
			o.canon.c.CanonicalTo(z, x)
			m2, v2 := must2(t)(o.pred.Predict(nil, z))
			_, scale := o.model.Standardization()
			if math.Abs(m1-m2) > 1e-6*scale || math.Abs(v1-v2) > 1e-6*scale*scale {
				t.Errorf("%s %s: model (%v, %v), canonical twin (%v, %v)", pc.p, pc.k, m1, v1, m2, v2)
			}
			a0 := must(a.eval(s, x, grad))
			for i := range x {
				h := 1e-6 * (hi[i] - lo[i])
				copy(xh, x)
				xh[i] = x[i] + h
				ap := must(a.eval(s, xh, nil))
				xh[i] = x[i] - h
				am := must(a.eval(s, xh, nil))
				fd := (ap - am) / (2 * h)
				if math.Abs(fd-grad[i]) > 1e-4*math.Max(math.Abs(a0)/(hi[i]-lo[i]), math.Abs(fd)) {
					t.Errorf("%s %s: ∂α/∂x%d = %v, finite difference %v", pc.p, pc.k, i, grad[i], fd)
				}
			}
		}
	}
}

func must2(t *testing.T) func(a, b float64, err error) (float64, float64) {
	return func(a, b float64, err error) (float64, float64) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return a, b
	}
}

// TestPlusBeatsBase is a behavioural check of the paper's claim on
// Ackley2d (5 + 20 evaluations, 3 seeds): k_plus reaches a clearly lower
// cumulative regret than the base kernel.
func TestPlusBeatsBase(t *testing.T) {
	p := must(problem.New("Ackley2d", 0))
	sum := map[KernelKind]float64{}
	for _, k := range []KernelKind{Base, Plus} {
		for seed := range uint64(3) {
			tr := must(Run(p, Config{Kernel: k, Iters: 20}, seed, nil))
			r := tr.CumulativeRegret[len(tr.CumulativeRegret)-1]
			sum[k] += r
			t.Logf("%s seed %d: R_20 = %.2f, exact optimum hits %d", k, seed, r, tr.ExactOptimumHits)
		}
	}
	if !(sum[Plus] < 0.5*sum[Base]) {
		t.Errorf("cumulative regret summed over 3 seeds: plus %.2f, base %.2f; want plus < base/2", sum[Plus], sum[Base])
	}
}

// TestRunUnknownOptimum: WLAN has no known optimum, so the trace carries no
// regrets, only best_f; also exercises EI, the authors' β and fit mode.
func TestRunUnknownOptimum(t *testing.T) {
	p := must(problem.New("WLAN6d", 0))
	tr, err := Run(p, Config{Kernel: Plus, Acquisition: EI, Beta: BetaAuthors, FitMode: gp.ModeBase, Init: 3, Iters: 2, RawSamples: 16, Starts: 2}, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	best := math.Inf(-1)
	for _, e := range tr.Evaluations {
		best = math.Max(best, e.F)
		if e.Regret != nil || e.AtOptimum {
			t.Errorf("regret recorded without an optimum: %+v", e)
		}
	}
	if tr.CumulativeRegret != nil || tr.SimpleRegret != nil || tr.Optimum != nil || tr.BestF != best {
		t.Errorf("trace: optimum %v, cumulative %v, best_f %v (want %v)", tr.Optimum, tr.CumulativeRegret, tr.BestF, best)
	}
	if tr.Acquisition != "ei" || tr.Beta != "authors" || tr.FitMode != "base" || tr.Kernel != "plus" || tr.Problem != "WLAN6d" {
		t.Errorf("trace header: %+v", tr)
	}
	s := traceJSON(t, tr)
	for _, k := range []string{`"problem":`, `"d":6`, `"kernel":"plus"`, `"seed":5`, `"evaluations":`, `"x":`, `"y":`, `"f":`, `"best_f":`} {
		if !strings.Contains(s, k) {
			t.Errorf("JSON lacks %s", k)
		}
	}
	if strings.Contains(s, "regret") {
		t.Error("JSON has regret fields")
	}
}
