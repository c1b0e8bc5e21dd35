package bo_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// unitsCase is a group with a box in the first unit system and two
// changes of units x' = a·x + b the group allows (a shared across a
// class, b = 0 where the group flips or rotates): exact — every a a power
// of two, every b = a·β with x + β in the binade of x for every x of the
// box, so that x' and every map of it are computed without rounding — and
// general (any a > 0 and b).
type unitsCase struct {
	name   string
	g      orbit.Group
	lo, hi []float64
	a, b   []float64 // exact
	ga, gb []float64 // general
}

// unitsKernels are the kernels of the property tests: "" for the front
// ends' default (Recommended), then every built-in kernel by name.
var unitsKernels = []string{"", bo.NameBase, bo.NameNystrom, bo.NameAvg, bo.NameAvgNorm, bo.NameMax, bo.NamePlus, bo.NameSoft, bo.NameAuto, bo.NamePortfolio}

// unitsCases are the groups of the property tests: none, signflip,
// permutation, hyperoctahedral, a permutation on some coordinates and
// rotation2d, each with second unit systems whose sides differ from the
// first's by factors of 1e-5 to 1e4.
func unitsCases(t *testing.T) []unitsCase {
	must := func(g orbit.Group, err error) orbit.Group {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	p := math.Ldexp
	mul := func(a, beta []float64) []float64 {
		b := make([]float64, len(a))
		for k := range a {
			b[k] = a[k] * beta[k]
		}
		return b
	}
	perm2 := must(orbit.Permutation(2))
	return []unitsCase{
		{"none", must(orbit.Trivial(3)), []float64{1, 1, 1}, []float64{1.5, 1.75, 1.25},
			[]float64{p(1, -17), p(1, 10), 8}, mul([]float64{p(1, -17), p(1, 10), 8}, []float64{0.25, 0.125, 0.5}),
			[]float64{1e-4, 700, 3.3}, []float64{5e-4, -12, 1e3}},
		{"signflip", must(orbit.SignFlip(3)), []float64{-1, -2, -0.5}, []float64{1, 2, 0.5},
			[]float64{p(1, -10), p(1, 7), 2}, []float64{0, 0, 0},
			[]float64{3e-3, 250, 1.7}, []float64{0, 0, 0}},
		{"permutation", must(orbit.Permutation(3)), []float64{1, 1, 1}, []float64{1.5, 1.5, 1.5},
			[]float64{p(1, 12), p(1, 12), p(1, 12)}, []float64{p(1, 10), p(1, 10), p(1, 10)},
			[]float64{37, 37, 37}, []float64{-5, -5, -5}},
		{"hyperoctahedral", must(orbit.Hyperoctahedral(3)), []float64{-1, -1, -1}, []float64{1, 1, 1},
			[]float64{p(1, -9), p(1, -9), p(1, -9)}, []float64{0, 0, 0},
			[]float64{2e-3, 2e-3, 2e-3}, []float64{0, 0, 0}},
		{"perm@coords", must(orbit.OnCoords(perm2, 4, []int{1, 3})), []float64{1, 1, 1, 1}, []float64{1.5, 1.75, 1.25, 1.75},
			[]float64{p(1, -13), p(1, 9), 8, p(1, 9)}, mul([]float64{p(1, -13), p(1, 9), 8, p(1, 9)}, []float64{0.25, 0.125, 0.5, 0.125}),
			[]float64{1e-5, 900, 0.02, 900}, []float64{7, 1e4, -0.3, 1e4}},
		{"rotation2d", must(orbit.Rotation2D()), []float64{-1, -1}, []float64{1, 1},
			[]float64{32, 32}, []float64{0, 0},
			[]float64{45, 45}, []float64{0, 0}},
	}
}

// unitsObjective is a smooth function of the first unit system's
// coordinates, its maximum inside the box and off every fixed point.
func unitsObjective(x []float64) float64 {
	v := 0.0
	for k, xk := range x {
		t := xk - 0.3 + 0.1*float64(k)
		v -= t * t
	}
	return v + 0.3*math.Sin(2*x[0]+x[len(x)-1])
}

// TestNormalizeUnits is the property of Config.Normalize: the same
// problem written in two unit systems (every coordinate of the second
// a·x + b with the a and b the group allows) gives the same proposals up
// to the change of units, to 1e-12 of the box side, over the initial
// design and BO steps, for every kernel (max where it is PSD) and the
// front ends' default (Recommended), under the groups of unitsCases. The
// changes of units are the exact ones: with rounding in x' = a·x + b
// itself, the ascents' and fits' stopping rules turn differences of an
// ulp into 1e-10 to 1e-8 of the side after a step (TestNormalizeUnitsGeneral).
// Without Normalize the one lengthscale on raw coordinates gives other
// proposals where the change of units differs between coordinates (none,
// signflip, perm@coords: checked, so the property is not vacuous; a
// change common to every coordinate, as the other cases', is one the raw
// optimizer already follows).
func TestNormalizeUnits(t *testing.T) {
	steps := 4
	if testing.Short() {
		steps = 2
	}
	const init = 4
	for _, uc := range unitsCases(t) {
		for _, kn := range unitsKernels {
			label := kn
			if kn == "" {
				label = "default"
			}
			t.Run(uc.name+"/"+label, func(t *testing.T) {
				cfg := unitsConfig(t, uc.g, kn, init)
				if diff := unitsRun(t, uc, uc.a, uc.b, cfg, init+steps, nil); diff > 1e-12 {
					t.Errorf("proposals differ by %.3g of the box side, want ≤ 1e-12", diff)
				}
			})
		}
		t.Run(uc.name+"/off", func(t *testing.T) {
			if !slices.ContainsFunc(uc.a, func(v float64) bool { return v != uc.a[0] }) {
				t.Skip("one change of units for every coordinate")
			}
			cfg := unitsConfig(t, uc.g, "", init)
			cfg.Normalize = false
			if diff := unitsRun(t, uc, uc.a, uc.b, cfg, init+steps, nil); diff < 1e-6 {
				t.Errorf("without Normalize the proposals differ by %.3g of the box side only: the property test cannot fail", diff)
			}
		})
	}
}

// TestNormalizeUnitsGeneral: with changes of units that round (any a > 0
// and b the group allows), the initial design agrees to 1e-12 relative
// (of the second system's coordinates: a·x + b itself rounds to that,
// which is 1e-10 of the side on a side of 1e-5 at 7), and the first BO
// step's proposals to 1e-6 (1e-5 with Protocol.ARD) up to the group
// (the orbit distance over the box diagonal: an invariant acquisition's
// maxima come in orbits, and which of two equal maxima wins is decided
// by rounding), for every kernel.
func TestNormalizeUnitsGeneral(t *testing.T) {
	const init = 4
	for _, uc := range unitsCases(t) {
		for _, kn := range unitsKernels {
			label := kn
			if kn == "" {
				label = "default"
			}
			t.Run(uc.name+"/"+label, func(t *testing.T) {
				cfg := unitsConfig(t, uc.g, kn, init)
				if diff := unitsRun(t, uc, uc.ga, uc.gb, cfg, init, relativeTo(uc.ga, uc.gb)); diff > 1e-12 {
					t.Errorf("initial design differs by %.3g relative, want ≤ 1e-12", diff)
				}
				dist := func(x1, x2, xb []float64) float64 {
					return math.Sqrt(uc.g.(orbit.Distancer).OrbitDist2(x1, xb)) / unitsDiag(uc)
				}
				// With ARD the proposal also moves with the class
				// lengthscales, which carry their own fit's rounding.
				tol := 1e-6
				if cfg.ARD {
					tol = 1e-5
				}
				if diff := unitsRun(t, uc, uc.ga, uc.gb, cfg, init+1, dist); diff > tol {
					t.Errorf("first step differs by %.3g of the box diagonal up to the group, want ≤ %g", diff, tol)
				}
			})
		}
	}
}

// unitsConfig is Recommended over g with the kernel named kn ("" for
// Recommended's own), Init init and a small acquisition budget; it skips
// the test for max over a group where it is not PSD.
func unitsConfig(t *testing.T, g orbit.Group, kn string, init int) bo.Config {
	t.Helper()
	cfg, err := bo.Recommended(g, kernel.Matern52)
	if err != nil {
		t.Fatal(err)
	}
	if kn != "" {
		if cfg.Kernel, err = bo.ParseKernel(kn, g, kernel.Matern52); errors.Is(err, bo.ErrMaxNotPSD) {
			t.Skip(err)
		} else if err != nil {
			t.Fatal(err)
		}
	}
	cfg.Init, cfg.RawSamples, cfg.Starts, cfg.MaxIter, cfg.Workers = init, 64, 3, 40, 1
	return cfg
}

// unitsDiag is the diagonal of uc's box.
func unitsDiag(uc unitsCase) float64 {
	diag := 0.0
	for k := range uc.lo {
		diag = math.Hypot(diag, uc.hi[k]-uc.lo[k])
	}
	return diag
}

// relativeTo returns a unitsRun measure for the change of units a, b:
// the largest difference between the second system's proposal x2 and the
// first's carried over, a·x1 + b, relative to the coordinate's magnitude
// (the precision the second system's numbers carry).
func relativeTo(a, b []float64) func(x1, x2, xb []float64) float64 {
	return func(x1, x2, _ []float64) float64 {
		worst := 0.0
		for k := range x1 {
			want := a[k]*x1[k] + b[k]
			worst = max(worst, math.Abs(x2[k]-want)/max(math.Abs(x2[k]), math.Abs(want), 1e-300))
		}
		return worst
	}
}

// unitsRun runs cfg in the first unit system of uc and in the second,
// x' = a·x + b, for asks points (the objective evaluated at each proposal
// mapped back to the first system) and returns the largest measure of
// the difference between the first system's proposal x1 and the
// second's, x2, mapped back to the first as xb: with a nil measure, per
// coordinate relative to the box side.
func unitsRun(t *testing.T, uc unitsCase, a, b []float64, cfg bo.Config, asks int, measure func(x1, x2, xb []float64) float64) float64 {
	t.Helper()
	d := len(uc.lo)
	lo2, hi2 := make([]float64, d), make([]float64, d)
	for k := range d {
		lo2[k], hi2[k] = a[k]*uc.lo[k]+b[k], a[k]*uc.hi[k]+b[k]
	}
	back := func(x2 []float64) []float64 {
		x := make([]float64, d)
		for k := range d {
			x[k] = (x2[k] - b[k]) / a[k]
		}
		return x
	}
	o1, err := bo.New(uc.lo, uc.hi, cfg, 11)
	if err != nil {
		t.Fatal(err)
	}
	o2, err := bo.New(lo2, hi2, cfg, 11)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range asks {
		x1, err := o1.Ask()
		if err != nil {
			t.Fatalf("ask %d, first system: %v", i, err)
		}
		x2, err := o2.Ask()
		if err != nil {
			t.Fatalf("ask %d, second system: %v", i, err)
		}
		xb := back(x2)
		if measure != nil {
			worst = max(worst, measure(x1, x2, xb))
		} else {
			for k := range d {
				worst = max(worst, math.Abs(xb[k]-x1[k])/(uc.hi[k]-uc.lo[k]))
			}
		}
		if err := o1.Tell(x1, unitsObjective(x1)); err != nil {
			t.Fatal(err)
		}
		if err := o2.Tell(x2, unitsObjective(xb)); err != nil {
			t.Fatal(err)
		}
	}
	return worst
}

// offBitsHash runs cfg on the box [lo, hi] for init + steps asks, told
// unitsObjective, and returns an FNV-1a hash of every proposal's bits.
func offBitsHash(t *testing.T, lo, hi []float64, cfg bo.Config, steps int) uint64 {
	t.Helper()
	o, err := bo.New(lo, hi, cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	h := uint64(14695981039346656037)
	for i := range cfg.Init + steps {
		x, err := o.Ask()
		if err != nil {
			t.Fatalf("ask %d: %v", i, err)
		}
		for _, v := range x {
			b := math.Float64bits(v)
			for range 8 {
				h = (h ^ (b & 0xff)) * 1099511628211
				b >>= 8
			}
		}
		if err := o.Tell(x, unitsObjective(x)); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// TestNormalizeOffBits: without Normalize (the zero value) a run
// proposes the bits it proposed before the setting existed — the hashes
// below were recorded on the code before it (commit c2387d7's bo) — for
// the zero Config, plus over sign flips on an unequal box, and the
// front ends' default with Normalize, ARD, StepAside and CandidateStarts
// (which came later) turned off, on boxes whose sides
// differ by 10² to 10⁵.
func TestNormalizeOffBits(t *testing.T) {
	sf, err := orbit.SignFlip(3)
	if err != nil {
		t.Fatal(err)
	}
	perm, err := orbit.Permutation(2)
	if err != nil {
		t.Fatal(err)
	}
	on, err := orbit.OnCoords(perm, 4, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := bo.Recommended(on, kernel.Matern52)
	if err != nil {
		t.Fatal(err)
	}
	rec.Normalize, rec.ARD, rec.StepAside = false, false, false
	dec := rec.Kernel.Options()
	dec.CandidateStarts = 0
	rec.Kernel = rec.Kernel.With(dec)
	rec.Init, rec.RawSamples, rec.Starts, rec.MaxIter, rec.Workers = 5, 128, 4, 50, 1
	for _, tc := range []struct {
		name   string
		lo, hi []float64
		cfg    bo.Config
		want   uint64
	}{
		{"zero", []float64{1e-5, 16, 0}, []float64{1e-1, 1024, 0.5}, bo.Config{Workers: 1}, 0x288b4e6fbd3cd08f},
		{"plus/signflip", []float64{-1, -100, -0.5}, []float64{1, 100, 0.5},
			bo.Config{Kernel: bo.Plus(sf, kernel.RBF), Workers: 1, Protocol: bo.Protocol{ExcludeObserved: true}}, 0xcb7e8fa5b8a5622f},
		{"recommended-off", []float64{1e-5, 0, 0, 16}, []float64{1e-1, 1, 1, 1024}, rec, 0x6df2df858f7a9e0c},
	} {
		if got := offBitsHash(t, tc.lo, tc.hi, tc.cfg, 6); got != tc.want {
			t.Errorf("%s: hash %#x, want %#x", tc.name, got, tc.want)
		}
	}
}
