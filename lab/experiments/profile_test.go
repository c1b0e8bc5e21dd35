package experiments

import (
	"context"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

func TestFitPowerLaw(t *testing.T) {
	x := []float64{32, 64, 128, 256, 512, 1024}
	for _, p := range []float64{0, 1, 2, 3, 0.5, -1} {
		y := make([]float64, len(x))
		for i := range x {
			y[i] = 3e-9 * math.Pow(x[i], p)
		}
		slope, c, r2, err := FitPowerLaw(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(slope-p) > 1e-12 || math.Abs(c/3e-9-1) > 1e-9 {
			t.Errorf("p = %g: slope %g, c %g; want %g, 3e-9", p, slope, c, p)
		}
		if p == 0 {
			if !math.IsNaN(r2) {
				t.Errorf("constant y: R² = %g, want NaN", r2)
			}
		} else if math.Abs(r2-1) > 1e-12 {
			t.Errorf("p = %g: R² = %g, want 1", p, r2)
		}
	}
	// Multiplicative noise: the slope stays near 2 and R² is below 1 but
	// close to it; R² checked against its definition computed here.
	r := rand.New(rand.NewPCG(1, 2))
	y := make([]float64, len(x))
	for i := range x {
		y[i] = x[i] * x[i] * math.Exp(0.1*r.NormFloat64())
	}
	slope, c, r2, err := FitPowerLaw(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(slope-2) > 0.15 {
		t.Errorf("noisy n²: slope %g", slope)
	}
	var mean, tot, res float64
	for i := range y {
		mean += math.Log(y[i]) / float64(len(y))
	}
	for i := range y {
		ly := math.Log(y[i])
		tot += (ly - mean) * (ly - mean)
		e := ly - (math.Log(c) + slope*math.Log(x[i]))
		res += e * e
	}
	if want := 1 - res/tot; math.Abs(r2-want) > 1e-12 || !(r2 < 1) || r2 < 0.99 {
		t.Errorf("R² = %g, want %g (< 1, > 0.99)", r2, want)
	}
	for _, bad := range []struct{ x, y []float64 }{
		{[]float64{1}, []float64{1}},
		{[]float64{1, 2}, []float64{1}},
		{[]float64{1, 1}, []float64{1, 2}},
		{[]float64{1, 2}, []float64{0, 2}},
		{[]float64{-1, 2}, []float64{1, 2}},
		{[]float64{1, math.Inf(1)}, []float64{1, 2}},
	} {
		if _, _, _, err := FitPowerLaw(bad.x, bad.y); err == nil {
			t.Errorf("FitPowerLaw(%v, %v): no error", bad.x, bad.y)
		}
	}
}

func TestMeasure(t *testing.T) {
	calls := 0
	s, reps, err := timeMedian(time.Millisecond, 50, func() error { calls++; return nil })
	if err != nil || reps < minReps || reps > 50 || calls != reps+1 || s < 0 {
		t.Errorf("fast f: %g s, %d reps, %d calls, %v", s, reps, calls, err)
	}
	calls = 0
	_, reps, _ = timeMedian(time.Hour, 7, func() error { calls++; return nil })
	if reps != 7 || calls != 8 {
		t.Errorf("rep cap: %d reps, %d calls; want 7, 8", reps, calls)
	}
	boom := errors.New("boom")
	if _, _, err := timeMedian(0, 3, func() error { return boom }); !errors.Is(err, boom) {
		t.Errorf("error not returned: %v", err)
	}
}

func TestCoreWarning(t *testing.T) {
	for _, tc := range []struct {
		core, cpu, env string
		warn           bool
	}{
		{"Haswell", "avx512", "Haswell", true},
		{"Zen", "avx512", "", true},
		{"SkylakeX", "avx512", "", false},
		{"Cooperlake", "avx512", "", false},
		{"Haswell", "avx2", "", false},
		{"Sandybridge", "avx2", "", true},
		{"SomethingNew", "avx512", "", false},
	} {
		w := coreWarning(tc.core, tc.cpu, tc.env)
		if (w != "") != tc.warn {
			t.Errorf("coreWarning(%s, %s) = %q, want warning %v", tc.core, tc.cpu, w, tc.warn)
		}
		if tc.env != "" && tc.warn && !strings.Contains(w, "OPENBLAS_CORETYPE="+tc.env) {
			t.Errorf("warning %q does not name OPENBLAS_CORETYPE", w)
		}
	}
}

func tinyProfile(t *testing.T, o ProfileOptions) ProfileResult {
	t.Helper()
	if o.Group == nil {
		g, err := orbit.Hyperoctahedral(3)
		if err != nil {
			t.Fatal(err)
		}
		o.Group = g
	}
	if o.N == nil {
		o.N = []int{8, 16}
	}
	o.M, o.MinTime, o.MaxReps = 16, time.Microsecond, 3
	if o.GemmN == 0 {
		o.GemmN = o.N[len(o.N)-1]
	}
	res, err := Profile(o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestProfileRows(t *testing.T) {
	res := tinyProfile(t, ProfileOptions{})
	if res.Group != "hyperoctahedral(3)" || res.Order != "48" || res.D != 3 || res.Base != "rbf" || res.M != 16 {
		t.Errorf("header %+v", res)
	}
	if res.Backend == "" || res.SIMD == "" || res.GOMAXPROCS < 1 || res.Module == "" {
		t.Errorf("environment %+v", res.Environment)
	}
	want := []string{"enumerate-orbits", "gram/base/", "gram/avg/closed", "gram/avg/enumerate", "gram/max/closed",
		"gram/max/enumerate", "eigen", "plus-spectrum/plus/", "plus-build", "plus-cross/plus/closed", "plus-cross/plus/enumerate",
		"gp-fit/plus", "acquisition/plus", "bo-iteration/plus", "gp-fit/base", "acquisition/base", "bo-iteration/base",
		"gp-fit/avg", "acquisition/avg", "bo-iteration/avg", "gp-fit/default", "acquisition/default", "bo-iteration/default"}
	for _, n := range []int{8, 16} {
		var got []string
		for _, r := range res.Rows {
			if r.N != n || r.Phase == "dgemm" {
				continue
			}
			key := r.Phase
			switch {
			case r.Phase == "gp-fit" || r.Phase == "acquisition" || r.Phase == "bo-iteration":
				key += "/" + r.Kernel
			case r.Kernel != "" && r.Phase != "plus-build":
				key += "/" + r.Kernel + "/" + r.Method
			}
			got = append(got, key)
			if r.Status != StatusMeasured || !(r.Seconds > 0) || r.Reps < 1 {
				t.Errorf("n=%d %s: status %s, %g s, %d reps", n, r.Label, r.Status, r.Seconds, r.Reps)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("n=%d rows\n got %v\nwant %v", n, got, want)
		}
	}
	var it, fit, acq float64
	for _, r := range res.Rows {
		switch {
		case r.Phase == "gram" && r.Method == "closed":
			if r.RatioKind != RatioEnumOverClosed || !(r.Ratio > 0) {
				t.Errorf("%s n=%d: ratio %g %q", r.Label, r.N, r.Ratio, r.RatioKind)
			}
		case r.Phase == "gram" && r.Method == "enumerate":
			// 2·d·|G| flops per pair, n(n+1)/2 pairs.
			want := float64(r.N*(r.N+1)/2) * 2 * 3 * 48 / r.Seconds / 1e9
			if math.Abs(r.GFLOPS/want-1) > 1e-9 || math.Abs(r.PairsPerSecond*r.Seconds/float64(r.N*(r.N+1)/2)-1) > 1e-9 {
				t.Errorf("%s: %g GFLOP/s (want %g), %g pairs/s", r.Label, r.GFLOPS, want, r.PairsPerSecond)
			}
		case r.Phase == "dgemm":
			if r.N != 16 || r.RatioKind != RatioEnumOverGemm || !(r.Ratio > 0) || !(r.GFLOPS > 0) {
				t.Errorf("dgemm row %+v", r)
			}
		}
		if r.N == 16 {
			switch r.Phase {
			case "bo-iteration":
				it = r.Seconds
				if math.Abs(r.Share-1) > 1e-12 {
					t.Errorf("iteration share %g", r.Share)
				}
				// Its time over gonum's Dgemm and the backend's Gemm of
				// order GemmN (16).
				// The Dgemm is interleaved with the Asks (at least 3
				// timed, MaxReps allowing): the faster of two after each,
				// the ratio the median of the pairs'.
				if r.RatioKind != RatioStepOverDgemm || !(r.Ratio > 0) || !(r.RatioBackendGemm > 0) || !(r.DgemmSeconds > 0) {
					t.Errorf("%s: ratios %g (%q), %g, interleaved Dgemm %g s", r.Label, r.Ratio, r.RatioKind, r.RatioBackendGemm, r.DgemmSeconds)
				}
				if r.Reps != 3 {
					t.Errorf("%s: %d timed Asks, want 3 (MaxReps)", r.Label, r.Reps)
				}
			case "gp-fit":
				fit = r.Seconds
			case "acquisition":
				acq = r.Seconds
			}
		}
	}
	// Medians of separate quantities: fit + acquisition is within the Ask
	// up to the spread of the runs.
	if !(fit > 0 && acq > 0 && it > 0) || fit+acq > 1.5*it {
		t.Errorf("fit %g + acquisition %g vs iteration %g", fit, acq, it)
	}
	var dg []string
	for _, r := range res.Rows {
		if r.Phase == "dgemm" {
			dg = append(dg, r.Backend)
		}
	}
	if want := append(linalg.Available(), GonumDgemm); !slices.Equal(dg, want) {
		t.Errorf("dgemm rows for %v, want %v", dg, want)
	}
}

func TestProfileEstimates(t *testing.T) {
	// With a tiny phase budget every phase at the second n is predicted
	// too slow and estimated as t(8)·(16/8)^p.
	res := tinyProfile(t, ProfileOptions{MaxPhaseSeconds: 1e-12})
	first := map[string]ProfileRow{}
	for _, r := range res.Rows {
		key := r.Label
		if r.N == 8 {
			first[key] = r
			continue
		}
		if r.Phase == "dgemm" || r.Phase == "gp-fit" || r.Phase == "acquisition" || r.Phase == "bo-iteration" {
			// Always run: DGEMMs and real BO steps are never estimated.
			if r.Status != StatusMeasured {
				t.Errorf("%s n=%d: status %s", r.Label, r.N, r.Status)
			}
			continue
		}
		if r.Status != StatusEstimated || r.Reps != 0 || r.Note == "" {
			t.Errorf("%s n=%d: status %s reps %d note %q", r.Label, r.N, r.Status, r.Reps, r.Note)
			continue
		}
		f, ok := first[key]
		if !ok {
			t.Errorf("%s: no row at n = 8", r.Label)
			continue
		}
		p := map[string]float64{"enumerate-orbits": 1, "plus-cross": 1}[r.Phase]
		if p == 0 {
			p = 2
			if r.Phase != "gram" {
				p = 3
			}
		}
		if want := f.Seconds * math.Pow(2, p); math.Abs(r.Seconds/want-1) > 1e-9 {
			t.Errorf("%s: estimate %g, want %g", r.Label, r.Seconds, want)
		}
	}
}

func TestProfileBadOptions(t *testing.T) {
	g, _ := orbit.SignFlip(2)
	for _, o := range []ProfileOptions{
		{},
		{Group: g, N: []int{}},
		{Group: g, N: []int{10, 5}},
		{Group: g, N: []int{1}},
		{Group: g, EigenVsC: []int{0}},
	} {
		if _, err := Profile(o); err == nil || !strings.HasPrefix(err.Error(), "experiments: profile: ") {
			t.Errorf("Profile(%+v): err %v", o, err)
		}
	}
}

// TestProfileCandidatesBudget: the m candidates of the k_plus cross
// phase count against the budget before any phase runs. Before, 1000
// candidates of d = 65536 (524 MB) were allocated over a 100 MiB budget
// (here the canceled context stopped the study first), and perf profile
// --m 10000 crashed out of memory after the other phases.
func TestProfileCandidatesBudget(t *testing.T) {
	g, err := orbit.Parse(orbit.Spec{Name: "none", D: orbit.MaxDim})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Profile(ProfileOptions{Group: g, N: []int{2, 3}, M: 1000, BOKernels: []string{bo.NameBase}, Budget: 100 << 20, Context: ctx})
	if !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("1000 candidates of %d coordinates in 100 MiB: err %v, want ErrOverBudget", orbit.MaxDim, err)
	}
}

// TestComplexityPointsBudget: each series' largest point set counts
// against the budget before the first point. Before, 5000 points of
// d = 65536 (2.6 GB) were allocated over a 100 MiB budget, and perf
// complexity crashed out of memory where memory was short.
func TestComplexityPointsBudget(t *testing.T) {
	g, err := orbit.Parse(orbit.Spec{Name: "none", D: orbit.MaxDim})
	if err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]ComplexityOptions{
		"n":          {N: []int{2, 5000}, LandmarkN: []int{100, 200}},
		"landmark-n": {N: []int{2, 3}, LandmarkN: []int{100, 5000}},
	} {
		o.Group, o.GroupSweep, o.M, o.Budget = g, []GroupFamily{}, 1, 100<<20
		o.Context = canceled()
		if _, err := Complexity(o); !errors.Is(err, orbit.ErrOverBudget) {
			t.Errorf("%s: 5000 points of %d coordinates in 100 MiB: err %v, want ErrOverBudget", name, orbit.MaxDim, err)
		}
	}
}

// canceled is a context canceled already.
func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func TestProfileEigenVsC(t *testing.T) {
	g, _ := orbit.SignFlip(2)
	o := ProfileOptions{Group: g, N: []int{4, 8}, M: 4, MinTime: time.Microsecond, MaxReps: 2, EigenVsC: []int{40}}
	res, err := Profile(o)
	if !haveCDsyevd {
		if !errors.Is(err, ErrNoCDsyevd) {
			t.Fatalf("build without openblas: err %v, want ErrNoCDsyevd", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, r := range res.Rows {
		if r.Phase == "eigen-vs-c" {
			n++
			// At least 3 alternating calls of each, even with MaxReps 2.
			if r.N != 40 || !(r.Seconds > 0) || r.Reps < 3 || (r.Method == "go" && (r.RatioKind != RatioGoOverC || !(r.Ratio > 0))) {
				t.Errorf("row %+v", r)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d eigen-vs-c rows, want 2", n)
	}
}

func TestComplexityTiny(t *testing.T) {
	g, _ := orbit.SignFlip(3)
	sf2, _ := orbit.SignFlip(2)
	sf3, _ := orbit.SignFlip(3)
	o := ComplexityOptions{Group: g, N: []int{6, 12, 24}, GroupSweep: []GroupFamily{{"signflip", []orbit.Group{sf2, sf3}}},
		GroupN: 6, M: 4, MinTime: time.Microsecond, MaxReps: 2, LandmarkM: 4, LandmarkN: []int{12, 24}, LandmarkMs: []int{4, 8}}
	res, err := Complexity(o)
	if err != nil {
		t.Fatal(err)
	}
	// 17 against n (and an eigen series per other backend), the landmark
	// GP of every capped kernel against n (n = 12, 24 > 2m) and against m,
	// 7 against |G|.
	if want := 17 + len(linalg.Available()) - 1 + 2*len(landmarkKernels) + 7; len(res.Series) != want {
		t.Fatalf("%d series, want %d", len(res.Series), want)
	}
	for _, s := range res.Series {
		if len(s.X) < 2 || s.Slope == nil || len(s.X) != len(s.Seconds) {
			t.Errorf("series %s %s %s vs %s: %d points, slope %v", s.Quantity, s.Kernel, s.Method, s.Against, len(s.X), s.Slope)
			continue
		}
		if want, _, _, _ := FitPowerLaw(s.X, s.Seconds); want != *s.Slope {
			t.Errorf("slope %g, refit %g", *s.Slope, want)
		}
		if s.Against == "|G|" && (s.SlopeGD == nil || !slices.Equal(s.X, []float64{4, 8}) || !slices.Equal(s.D, []int{2, 3})) {
			t.Errorf("|G| series %+v", s)
		}
	}
	// A tiny budget stops every series after its first point.
	o.MaxPointSeconds = 1e-12
	res, err = Complexity(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Series {
		if len(s.X) != 1 || s.Slope != nil || len(s.NotRun) == 0 || s.Note == "" {
			t.Errorf("series %s %s %s vs %s: x %v, not run %v", s.Quantity, s.Kernel, s.Method, s.Against, s.X, s.NotRun)
		}
	}
}

// TestEstimateNearMeasured: an estimate extrapolates from sizes measured
// near the target (n/4 and n/2) with the midpoint of their measured slope
// and the nominal exponent, and lands within 2× of the time the target
// takes. The phase's cost is a sum of powers of n (an O(n³)
// decomposition with O(n²) and O(n) work around it), charged to a clock
// the timed function advances, so the test is about what the profiler
// does with times, not about this machine's: the phase budget is a third
// of the time at n = 384, so the probes up to n = 192 run and n = 384 is
// estimated. The old rule — t(32)·(n/32)³ — misses by more than 2×.
func TestEstimateNearMeasured(t *testing.T) {
	const target = 384
	cost := func(n int) time.Duration {
		x := float64(n)
		return time.Duration((2e-9*x*x*x + 4e-7*x*x + 2e-5*x) * float64(time.Second))
	}
	var clock time.Duration
	var calls []int
	eig := func(n int) (func() error, error) {
		return func() error { calls = append(calls, n); clock += cost(n); return nil }, nil
	}
	truth := cost(target).Seconds()
	p := &profiler{o: ProfileOptions{MaxPhaseSeconds: truth / 3, MinTime: 50 * time.Millisecond, MaxReps: 5, Progress: io.Discard},
		last: map[string][]measured{}, now: func() time.Duration { return clock }}
	ph := profPhase{row: ProfileRow{Phase: "eigen", Label: "eigendecomposition"}, exp: 3, setup: eig}
	if err := p.run(ph, target); err != nil {
		t.Fatal(err)
	}
	r := p.rows[len(p.rows)-1]
	if r.Status != StatusEstimated || !strings.Contains(r.Note, "slope measured between n = 96 and 192") {
		t.Fatalf("row %+v: want an estimate from the slope measured between n = 96 and 192", r)
	}
	if slices.Contains(calls, target) {
		t.Errorf("the target n = %d was run: sizes %v", target, calls)
	}
	if ratio := r.Seconds / truth; ratio > 2 || ratio < 0.5 {
		t.Errorf("estimate %.3g s against %.3g s (×%.2f): %s", r.Seconds, truth, ratio, r.Note)
	}
	if old := cost(32).Seconds() * math.Pow(target/32.0, 3); old/truth < 2 {
		t.Errorf("the old rule's %.3g s is within 2× of %.3g s: the cost does not tell the rules apart", old, truth)
	}
}

// TestNextProbe: the climb toward n goes up at most ×4 a step, through
// n/4 to n/2, from any start below n/4.
func TestNextProbe(t *testing.T) {
	for _, n := range []int{65, 100, 384, 1000, 3000, 10000, 1 << 20} {
		seq := []int{32}
		for seq[len(seq)-1] < n/2 {
			top := seq[len(seq)-1]
			c := nextProbe(top, n)
			if c <= top || c > 4*top || c > n/2 {
				t.Fatalf("n = %d: %v then %d", n, seq, c)
			}
			seq = append(seq, c)
		}
		if k := len(seq); seq[k-1] != n/2 || (n/4 > 32 && seq[k-2] != n/4) {
			t.Errorf("n = %d: probes %v, want …, %d, %d", n, seq, n/4, n/2)
		}
	}
}

// TestExtrapolateMidpoint: for costs that are sums of powers of n, the
// estimate from n/4 and n/2 is within 2^((p−s)/2) of the truth at n (p the
// nominal exponent, s the slope measured below), where the measured slope
// alone or the nominal exponent alone can miss by up to 2^(p−s).
func TestExtrapolateMidpoint(t *testing.T) {
	costs := []func(float64) float64{
		func(n float64) float64 { return 1e-9 * n * n * n },
		func(n float64) float64 { return 1e-7*n*n + 1e-10*n*n*n },
		func(n float64) float64 { return 1e-5*n + 1e-7*n*n + 1e-12*n*n*n },
		func(n float64) float64 { return 1e-4 + 1e-8*n*n*n },
	}
	for i, f := range costs {
		for _, n := range []int{128, 384, 1000, 4096, 30000} {
			h := []measured{{n / 4, f(float64(n / 4))}, {n / 2, f(float64(n / 2))}}
			est, how := extrapolate(h, n, 3)
			s := math.Log(h[1].seconds/h[0].seconds) / math.Log(float64(h[1].n)/float64(h[0].n))
			bound := math.Pow(2, (3-s)/2) * (1 + 1e-12)
			if r := f(float64(n)) / est; r > bound || r < 1/bound {
				t.Errorf("cost %d, n = %d: truth/estimate %.3g, bound %.3g (%s)", i, n, r, bound, how)
			}
		}
	}
	if est, how := extrapolate([]measured{{100, 2}}, 200, 3); est != 16 || !strings.Contains(how, "nominal") {
		t.Errorf("one size: %g (%s), want 16 from the nominal exponent", est, how)
	}
}

// TestProfileRefusesBOKernelUpFront: a BO kernel bo.New refuses — avg
// over permutation(8) with Matérn-5/2, enumerated over 40320 elements,
// over bo.AvgEnumerateLimit — fails Profile before any phase runs
// (nothing on Progress), wrapping bo.ErrBadConfig; it used to fail only
// at the BO phase, after the Gram, eigen and k_plus phases of every n.
func TestProfileRefusesBOKernelUpFront(t *testing.T) {
	g, err := orbit.Permutation(8)
	if err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	_, err = Profile(ProfileOptions{Group: g, Shape: kernel.Matern52, N: []int{20}, M: 10, GemmN: 10, BOKernels: []string{bo.NamePlus, bo.NameAvg}, Progress: &progress})
	if !errors.Is(err, bo.ErrBadConfig) || !strings.Contains(err.Error(), "AvgEnumerateLimit") {
		t.Errorf("avg over %s with Matérn-5/2: %v, want bo.ErrBadConfig naming AvgEnumerateLimit", g.Name(), err)
	}
	if progress.Len() != 0 {
		t.Errorf("phases ran before the refusal:\n%s", progress.String())
	}
}

// TestProfileChecksTheBOConfigRun: Profile's check before any phase
// builds each BO kernel with the initial design its phases use,
// min(n, bo.DefaultInit) points: at sizes 2 and 3 a design of 2 and of
// 3 points, never bo.DefaultInit's 5, which no phase runs (the check
// left Init unset, so bo.New checked a 5-point design).
func TestProfileChecksTheBOConfigRun(t *testing.T) {
	g, err := orbit.SignFlip(2)
	if err != nil {
		t.Fatal(err)
	}
	var inits []int
	t.Cleanup(func() { newOptimizer = bo.New })
	newOptimizer = func(lo, hi []float64, cfg bo.Config, seed uint64) (*bo.Optimizer, error) {
		inits = append(inits, cfg.Init)
		return bo.New(lo, hi, cfg, seed)
	}
	// A cancelled context stops Profile at its first phase, after the check.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Profile(ProfileOptions{Group: g, Shape: kernel.RBF, N: []int{2, 3}, M: 4, GemmN: 4, BOKernels: []string{bo.NamePlus, DefaultBOKernel}, Context: ctx})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Profile with a cancelled context: %v, want context.Canceled", err)
	}
	if want := []int{2, 3, 2, 3}; !slices.Equal(inits, want) {
		t.Errorf("the check built the BO kernels with Init %v, want %v (min(n, %d) for n = 2, 3, per kernel)", inits, want, bo.DefaultInit)
	}
}
