package bo

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"github.com/symbo/symbo/orbit/orbittest"
)

// smallCfg is a cheap configuration for the bookkeeping tests.
func smallCfg(k Kernel) Config {
	return Config{Kernel: k, Init: 3, Protocol: Protocol{RawSamples: 32, Starts: 2}}
}

// TestLiarMeanFinite: observations whose sum overflows (1e308 and
// 1.5e308) still give a finite lie, so a step with a pending or a failed
// point succeeds, as the docs promise for finite y of any magnitude.
func TestLiarMeanFinite(t *testing.T) {
	lo, hi := box(2, 2)
	g := must(orbit.SignFlip(2))
	for _, c := range []struct {
		name string
		ys   []float64
	}{
		{"positive", []float64{1e308, 1.5e308, 1.2e308}},
		{"negative", []float64{-1e308, -1.5e308, -math.MaxFloat64}},
	} {
		for _, op := range []string{"pending", "failed"} {
			o := must(New(lo, hi, smallCfg(Plus(g, kernel.Matern52)), 7))
			for _, y := range c.ys {
				x := must(o.Ask())
				if err := o.Tell(x, y); err != nil {
					t.Fatal(err)
				}
			}
			p := []float64{0.3, -1.1}
			if op == "pending" {
				must(0, o.AddPending(p))
			} else {
				must(0, o.Fail(p))
			}
			if _, err := o.Ask(); err != nil {
				t.Errorf("%s, %s point: %v", c.name, op, err)
			}
		}
	}
}

// TestLiarMeanUnchanged: where the sum of the observations is finite the
// lie is their sum divided by n, bit for bit (the committed runs).
func TestLiarMeanUnchanged(t *testing.T) {
	for _, ys := range [][]float64{{1, 2, 4}, {0.1, 0.7, -3.3, 1e-300}, {1e307, 1e307, -5}} {
		var s float64
		for _, v := range ys {
			s += v
		}
		if got, want := liarMean(ys), s/float64(len(ys)); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%v: %v, want %v", ys, got, want)
		}
	}
	for _, ys := range [][]float64{{1e308, 1.5e308}, {math.MaxFloat64, math.MaxFloat64, -1}, {-math.MaxFloat64, -math.MaxFloat64}} {
		m := liarMean(ys)
		if math.IsInf(m, 0) || math.IsNaN(m) || m < slices.Min(ys) || m > slices.Max(ys) {
			t.Errorf("%v: mean %v", ys, m)
		}
	}
}

// defaultCfg is the front ends' default configuration
// (internal/frontend: DefaultKernel, DefaultCandidateFit,
// DefaultProbeWindow, DefaultPrior, DefaultMean) over g.
func defaultCfg(t *testing.T, g orbit.Group) Config {
	k, err := ParseKernel("portfolio:nystrom+avg:soft+plus", g, kernel.Matern52)
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Kernel:   k,
		Protocol: Protocol{Prior: gp.PriorBoTorch, Mean: gp.MeanConstant, RawSamples: 64, Starts: 2},
	}
}

// TestProbeExtremeBoxes: the fixed-point probe's lengthscale stays in the
// kernel's range on boxes whose sides are far above 1e152 or below
// 1e-148, and the exclusion radius does not underflow on the smallest:
// the default's first BO steps succeed there as plus's do.
func TestProbeExtremeBoxes(t *testing.T) {
	g := must(orbit.SignFlip(2))
	for _, s := range []float64{1, 1e155, 1e300, 1e-152, 1e-300} {
		lo, hi := []float64{-2 * s, -1 * s}, []float64{2 * s, 3 * s}
		o := must(New(lo, hi, defaultCfg(t, g), 3))
		for i := range 7 {
			x, err := o.Ask()
			if err != nil {
				t.Fatalf("scale %g, ask %d: %v (class %v)", s, i, err, errclass.Of(err))
			}
			u := []float64{x[0] / s, x[1] / s}
			if err := o.Tell(x, -(u[0]*u[0]+u[1]*u[1]-1)*(u[0]*u[0]+u[1]*u[1]-1)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestProbeSharesScale: the fixed-point shares on a box scaled by a power
// of two are those on the unscaled box, bit for bit, wherever ℓ₀ would
// leave the kernel's range; so is the exclusion test.
func TestProbeSharesScale(t *testing.T) {
	g := must(orbit.SignFlip(2))
	unit := [][]float64{{0, 0}, {0.5, 0}, {1, -0.5}, {1e-3, 0}, {-1.5, 2.5}}
	var ref []float64
	var refEx []bool
	for _, k := range []int{0, 520, 1000, -520, -1000} {
		s := math.Ldexp(1, k)
		lo, hi := []float64{-2 * s, -1 * s}, []float64{2 * s, 3 * s}
		o := must(New(lo, hi, defaultCfg(t, g), 3))
		pts := make([][]float64, len(unit))
		for i, p := range unit {
			pts[i] = []float64{p[0] * s, p[1] * s}
		}
		a := slices.IndexFunc(o.arms, func(ar arm) bool { return ar.k.Name() == NameAvg })
		share, err := o.fixedShares(a, pts)
		if err != nil {
			t.Fatalf("2^%d: %v", k, err)
		}
		must(0, o.Fail(pts[2]))
		var ex []bool
		for _, p := range pts {
			ex = append(ex, o.onExcludedOrbit(p, false), o.onExcludedOrbit([]float64{-p[0], p[1]}, false))
		}
		if k == 0 {
			ref, refEx = share, ex
			continue
		}
		if !check.SameBits(share, ref) {
			t.Errorf("2^%d: shares %v, the unit box's %v", k, share, ref)
		}
		if !slices.Equal(ex, refEx) {
			t.Errorf("2^%d: excluded %v, the unit box's %v", k, ex, refEx)
		}
	}
}

// TestTellEndsEveryCopy: Tell ends every pending and failed copy of x;
// Fail of an observed x records no failure (an observation supersedes a
// failure in either order), so the next point is the one without it.
func TestTellEndsEveryCopy(t *testing.T) {
	lo, hi := box(2, 2)
	g := must(orbit.SignFlip(2))
	cfg := smallCfg(Plus(g, kernel.Matern52))
	start := func() (*Optimizer, []float64) {
		o := must(New(lo, hi, cfg, 11))
		for range 3 {
			x := must(o.Ask())
			must(0, o.Tell(x, toy(x)))
		}
		return o, []float64{0.5, -0.25}
	}
	o, x := start()
	must(0, o.Fail(x))
	must(0, o.Fail(x))
	must(0, o.Tell(x, 1))
	if f := o.Failed(); len(f) != 0 {
		t.Errorf("fail, fail, tell: failed %v", f)
	}
	o, x = start()
	must(0, o.AddPending(x))
	must(0, o.AddPending(x))
	must(0, o.Tell(x, 1))
	if p := o.Pending(); len(p) != 0 {
		t.Errorf("add_pending twice, tell: pending %v", p)
	}
	o, x = start()
	must(0, o.Tell(x, 1))
	ref := must(o.Ask())
	o, x = start()
	must(0, o.Tell(x, 1))
	if err := o.Fail(x); err != nil {
		t.Fatalf("fail after tell: %v", err)
	}
	if f := o.Failed(); len(f) != 0 {
		t.Errorf("tell, fail: failed %v", f)
	}
	if got := must(o.Ask()); !check.SameBits(got, ref) {
		t.Errorf("tell, fail, ask: %v, tell, ask: %v", got, ref)
	}
	// A pending copy of an observed point (evaluated again) ends when
	// that evaluation fails, still without a failure.
	o, x = start()
	must(0, o.Tell(x, 1))
	must(0, o.AddPending(x))
	must(0, o.Fail(x))
	if len(o.Pending()) != 0 || len(o.Failed()) != 0 {
		t.Errorf("tell, add_pending, fail: pending %v, failed %v", o.Pending(), o.Failed())
	}
	// A history with a failed point that is also observed is not one
	// History writes: Restore refuses it.
	h := o.History()
	h.Failed = [][]float64{x}
	r := must(New(lo, hi, cfg, 11))
	if err := r.Restore(h); !errors.Is(err, ErrHistory) || r.N() != 0 {
		t.Errorf("restore of an observed failed point: %v, N = %d", err, r.N())
	}
}

// TestTellCap: Tell counts towards MaxEvaluations as AddPending and Fail
// do. It accepted any number of observations, so an optimizer wrote a
// History that Restore refused, and the C ABI's symbo_suggest told a
// history of 2²⁷ rows (a 1 GiB input, under the 8 GiB budget) one by
// one, past 14 GiB of memory, before anything counted them. Telling a
// pending or failed point adds nothing to the count and stays allowed.
func TestTellCap(t *testing.T) {
	lo, hi := box(1, 1)
	o := must(New(lo, hi, smallCfg(Base(kernel.RBF)), 3))
	p := []float64{0.25}
	// MaxEvaluations − 2 observations (one point, shared: the count is
	// what matters), a pending and a failed point.
	o.xs, o.ys = make([][]float64, MaxEvaluations-2), make([]float64, MaxEvaluations-2)
	for i := range o.xs {
		o.xs[i] = p
	}
	must(0, o.AddPending([]float64{0.5}))
	must(0, o.Fail([]float64{0.75}))
	if err := o.Tell([]float64{0.1}, 1); !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "MaxEvaluations") || o.N() != MaxEvaluations-2 {
		t.Fatalf("tell of a new point at MaxEvaluations points: %v, N = %d", err, o.N())
	}
	for _, x := range [][]float64{{0.5}, {0.75}} {
		if err := o.Tell(x, 1); err != nil {
			t.Fatalf("tell of the pending or failed %v at MaxEvaluations points: %v", x, err)
		}
	}
	if o.N() != MaxEvaluations || len(o.Pending())+len(o.Failed()) != 0 {
		t.Fatalf("N = %d, pending %v, failed %v", o.N(), o.Pending(), o.Failed())
	}
	if err := o.Tell([]float64{0.1}, 1); !errors.Is(err, ErrBadConfig) {
		t.Fatalf("tell beyond MaxEvaluations: %v", err)
	}
}

// TestRestorePendingAndFailed: a point both pending and failed (it failed,
// then was handed out again; or pending twice, one copy failed) restores
// to the same state, and the restored optimizer proposes the same bits.
func TestRestorePendingAndFailed(t *testing.T) {
	lo, hi := box(2, 2)
	g := must(orbit.SignFlip(2))
	cfg := smallCfg(Plus(g, kernel.Matern52))
	for _, order := range []string{"fail, add_pending", "add_pending twice, fail"} {
		o := must(New(lo, hi, cfg, 13))
		for range 3 {
			x := must(o.Ask())
			must(0, o.Tell(x, toy(x)))
		}
		x := []float64{0.7, -0.9}
		if order == "fail, add_pending" {
			must(0, o.Fail(x))
		} else {
			must(0, o.AddPending(x))
		}
		must(0, o.AddPending(x))
		if order != "fail, add_pending" {
			must(0, o.Fail(x))
		}
		h := o.History()
		if len(h.Pending) == 0 || len(h.Failed) != 1 {
			t.Fatalf("%s: history pending %v, failed %v", order, h.Pending, h.Failed)
		}
		r := must(New(lo, hi, cfg, 13))
		if err := r.Restore(h); err != nil {
			t.Fatal(err)
		}
		if got := r.History(); !reflect.DeepEqual(got, h) {
			t.Errorf("%s: restored history %+v, want %+v", order, got, h)
		}
		want, got := must(o.Ask()), must(r.Ask())
		if !check.SameBits(got, want) {
			t.Errorf("%s: restored optimizer proposes %v, the original %v", order, got, want)
		}
	}
}

// TestRestoreLinear: a history of 250k pending and 250k failed points
// restores to an equal History. Restore recorded each failed point with
// Fail, which scanned every pending point: 6·10¹⁰ comparisons, over two
// minutes at this size; now O(N·d). No clock is read here.
func TestRestoreLinear(t *testing.T) {
	const n = 250_000
	lo, hi := box(1, 1)
	g := must(orbit.SignFlip(1))
	cfg := smallCfg(Plus(g, kernel.Matern52))
	h := History{Version: HistoryVersion, Seed: 1, Kernel: NamePlus, Dim: 1,
		Observations: []Observation{{X: []float64{0.123456789}, Y: 1}}}
	for i := range n {
		h.Pending = append(h.Pending, []float64{-1 + float64(i)/n})
		h.Failed = append(h.Failed, []float64{float64(i) / n})
	}
	o := must(New(lo, hi, cfg, 1))
	if err := o.Restore(h); err != nil {
		t.Fatal(err)
	}
	if got := o.History(); !reflect.DeepEqual(got, h) {
		t.Errorf("restored history differs: %d pending, %d failed", len(got.Pending), len(got.Failed))
	}
}

// TestParseKernelTrims: candidate names are trimmed (and lowered) before
// they are checked, so a repeated candidate spelled with spaces is
// refused, and the canonical spelling names the kernel.
func TestParseKernelTrims(t *testing.T) {
	g := must(orbit.SignFlip(2))
	for _, s := range []string{"portfolio:plus+ plus", "auto:avg+ avg+plus", "auto:avg+Avg", "portfolio:nystrom: NYSTROM+plus"} {
		if k, err := ParseKernel(s, g, kernel.RBF); !errors.Is(err, ErrBadConfig) {
			t.Errorf("%q: candidates %q, err = %v", s, k.Candidates(), err)
		}
	}
	for s, want := range map[string]string{
		" portfolio: nystrom + avg : soft + plus ": "portfolio:nystrom+avg:soft+plus",
		"portfolio:nystrom+avg:soft+plus":          "portfolio:nystrom+avg:soft+plus",
		"auto:Avg +plus":                           "auto:avg+plus",
		"auto: nystrom+avg+plus":                   "auto",
		"portfolio:nystrom+avg+plus":               "portfolio",
		"PLUS ":                                    "plus",
	} {
		k, err := ParseKernel(s, g, kernel.RBF)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if k.Name() != want {
			t.Errorf("%q: name %q, want %q", s, k.Name(), want)
		}
	}
}

// TestSpaceExhausted: failures whose orbits cover the box make Ask fail
// with ErrSpaceExhausted, an input error — in the initial design (nothing
// observed) and at an acquisition step (one success).
func TestSpaceExhausted(t *testing.T) {
	lo, hi := box(1, 1)
	g := must(orbit.SignFlip(1))
	for _, success := range []bool{false, true} {
		o := must(New(lo, hi, smallCfg(Plus(g, kernel.Matern52)), 2))
		if success {
			x := must(o.Ask())
			must(0, o.Tell(x, 1))
		}
		// The exclusion radius is 2e-3 (10⁻³ of the diagonal, 2): a
		// failure every 3e-3 of |x| covers [−1, 1].
		for v := 0.0; v <= 1; v += 3e-3 {
			must(0, o.Fail([]float64{v}))
		}
		must(0, o.Fail([]float64{1}))
		_, err := o.Ask()
		if !errors.Is(err, ErrSpaceExhausted) || errclass.Of(err) != errclass.Input {
			t.Errorf("success %v: %v (class %v), want ErrSpaceExhausted", success, err, errclass.Of(err))
		}
	}
}

// TestBadBoxSaysWhatToDo: a box with lo > hi, lo = hi or a non-finite
// bound, and a NaN told, are refused with one sentence that names the
// coordinate and says what to do (a newcomer met "box [2, -2] in
// coordinate 0", and a NaN that never mentioned Fail).
func TestBadBoxSaysWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		lo, hi []float64
		want   string
	}{
		{[]float64{0, 2}, []float64{1, -2}, "coordinate 1's lower bound 2 is above its upper bound -2; swap them"},
		{[]float64{3}, []float64{3}, "coordinate 0's bounds are both 3; a fixed parameter is not searched"},
		{[]float64{0, math.Inf(-1)}, []float64{1, 1}, "coordinate 1's bounds [-Inf, 1] are not finite"},
		{[]float64{math.NaN()}, []float64{1}, "coordinate 0's bounds [NaN, 1] are not finite"},
	} {
		_, err := New(tc.lo, tc.hi, Config{}, 1)
		if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tc.want) || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("box %v, %v: %v, want %q", tc.lo, tc.hi, err, tc.want)
		}
	}
	o, err := New([]float64{0}, []float64{1}, Config{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Tell([]float64{0.5}, math.NaN()); !errors.Is(err, ErrBadValue) || !strings.Contains(err.Error(), "Fail") {
		t.Errorf("NaN told: %v, want ErrBadValue pointing to Fail", err)
	}
}

// TestNegativeCanonicalDim: New refuses a group whose canonical map
// declares a dimension below 1 (ErrBadConfig and orbit.ErrInvalid) for
// every kernel over a group; with avg, max, plus or auto it panicked
// (makeslice: len out of range).
func TestNegativeCanonicalDim(t *testing.T) {
	for _, name := range []string{NameAvg, NameMax, NamePlus, NameAuto, NameSoft, NamePortfolio} {
		k, err := ParseKernel(name, orbittest.NegativeCanonical{}, kernel.RBF)
		if err != nil {
			if !errors.Is(err, orbit.ErrInvalid) {
				t.Errorf("%s: ParseKernel: %v, want orbit.ErrInvalid", name, err)
			}
			continue
		}
		_, err = New([]float64{-1, -1}, []float64{1, 1}, Config{Kernel: k}, 1)
		if !errors.Is(err, ErrBadConfig) || !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("%s: New: %v, want ErrBadConfig and orbit.ErrInvalid", name, err)
		}
	}
}

// TestSubnormalValues: values among the subnormals (k·2⁻¹⁰⁷⁴) are
// standardized like the same values in other units, so EI's incumbent —
// the standardized best value, which Recommended's hedge uses — stays
// finite and the steps propose what k itself gives, bit for bit. Their
// scale, 0.24·2⁻¹⁰⁷³ for 0, 1, 0, 1, 0, rounded to 0 in the units of y,
// made the incumbent 0/0 and the hedged portfolio's Ask fail with "not
// finite at any start".
func TestSubnormalValues(t *testing.T) {
	lo, hi := box(1, 2)
	cfg := must(Recommended(must(orbit.Trivial(1)), kernel.RBF))
	cfg.RawSamples, cfg.Starts = 64, 2
	path := func(unit float64) [][]float64 {
		o := must(New(lo, hi, cfg, 1))
		var xs [][]float64
		for i := range 8 {
			x, err := o.Ask()
			if err != nil {
				t.Fatalf("unit %g, step %d: %v", unit, i, err)
			}
			xs = append(xs, x)
			must(0, o.Tell(x, float64(i%2)*unit))
		}
		return xs
	}
	if a, b := path(1), path(0x1p-1074); !reflect.DeepEqual(a, b) {
		t.Errorf("values k·2⁻¹⁰⁷⁴ propose %v, values k %v", b, a)
	}
}

// TestPointErrorMessage: a point Record or Restore refuses is named
// after one "bo: " prefix, the point's own error without its own. Record
// returned "pending point 0: bo: invalid point: …", unlike the package's
// other errors.
func TestPointErrorMessage(t *testing.T) {
	o := must(New([]float64{0}, []float64{1}, Config{}, 1))
	for _, c := range []struct {
		pending, failed [][]float64
		want            string
	}{
		{[][]float64{{math.NaN()}}, nil, "bo: pending point 0: invalid point: x[0] = NaN is not finite"},
		{nil, [][]float64{{0.5}, {2}}, "bo: failed point 1: invalid point: x[0] = 2 is outside [0, 1]"},
	} {
		err := o.Record(c.pending, c.failed)
		var pe *PointError
		if !errors.As(err, &pe) || !errors.Is(err, ErrBadPoint) || err.Error() != c.want {
			t.Errorf("Record: %v, want %q (a *PointError, ErrBadPoint)", err, c.want)
		}
	}
	h := must(New([]float64{0}, []float64{1}, Config{}, 1)).History()
	h.Observations = append(h.Observations, Observation{X: []float64{3}, Y: 1})
	err := must(New([]float64{0}, []float64{1}, Config{}, 1)).Restore(h)
	if want := "bo: history does not match: bo: observation 0: invalid point: x[0] = 3 is outside [0, 1]"; err == nil || err.Error() != want {
		t.Errorf("Restore: %v, want %q", err, want)
	}
}

// TestObservationsApartByRounding: observations one ulp apart propose
// the points equal observations do (to rounding). The fit's lengthscale
// bounds, multiples of the inputs' spread, fell to 1e-13 there, so every
// other point of the box was uncorrelated with the data and the
// acquisition flat: the step's point was any raw sample.
func TestObservationsApartByRounding(t *testing.T) {
	g := must(orbit.SignFlip(2))
	lo, hi := box(2, 1)
	cfg := must(Recommended(g, kernel.Matern52))
	cfg.Init, cfg.RawSamples, cfg.Starts = 1, 64, 2
	ask := func(second float64) ([]float64, Hyper) {
		o := must(New(lo, hi, cfg, 1))
		must(0, o.Tell([]float64{0.3, 0.3}, 2))
		must(0, o.Tell([]float64{second, 0.3}, 5))
		x := must(o.Ask())
		return x, o.Diagnostics().Hyper
	}
	want, wh := ask(0.3)
	got, gh := ask(math.Nextafter(0.3, 1))
	if d := math.Hypot(got[0]-want[0], got[1]-want[1]); !(d < 1e-9) || math.Abs(gh.Lengthscale/wh.Lengthscale-1) > 1e-6 {
		t.Errorf("observations one ulp apart propose %v (ℓ = %v), equal ones %v (ℓ = %v)", got, gh.Lengthscale, want, wh.Lengthscale)
	}
}
