package gp

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/parallel"
	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

type sparseCase struct {
	name string
	fam  Family
}

// sparseCases are the families NewLandmarkFamily wraps: a unit diagonal
// (base, max, normalized avg) and a varying one (avg).
func sparseCases(t testing.TB, d int) []sparseCase {
	t.Helper()
	g := mustG(orbit.SignFlip(d))
	norm := kernel.Options{Normalize: true}
	return []sparseCase{
		{"base/matern52", mustG(NewBaseFamily(kernel.Matern52, d))},
		{"max/signflip/rbf", mustG(NewMaxFamily(kernel.RBF, g, kernel.Options{}))},
		{"avg/signflip/rbf", mustG(NewAvgFamily(kernel.RBF, g, kernel.Options{}))},
		{"avgnorm/signflip/rbf", mustG(NewAvgFamily(kernel.RBF, g, norm))},
		{"avg/hyperoctahedral/rbf", mustG(NewAvgFamily(kernel.RBF, mustG(orbit.Hyperoctahedral(d)), kernel.Options{}))},
	}
}

func sparseOf(t testing.TB, fam Family, m int) *sparseFamily {
	t.Helper()
	f, err := NewLandmarkFamily(fam, m, LandmarkOptions{Backend: linalg.Gonum()})
	if err != nil {
		t.Fatal(err)
	}
	return f.(*sparseFamily)
}

// TestSparseEveryInputExact: with every input a landmark (the landmark
// path forced at m = n, a well-conditioned Gram) the DTC posterior's mean,
// variance and their gradients equal the exact GP's to 1e-10, with the
// sample mean and with a constant mean; and at m ≥ n the family is the
// exact one (the same bits).
func TestSparseEveryInputExact(t *testing.T) {
	d, n := 3, 40
	rng := rand.New(rand.NewPCG(61, 0))
	x, y := sample(rng, n, d)
	h := Hyper{Variance: 1.7, Lengthscale: 0.45, Noise: 1e-3}
	for _, c := range sparseCases(t, d) {
		for _, pm := range []Mean{MeanSample, MeanConstant} {
			t.Run(c.name+"/"+pm.String(), func(t *testing.T) {
				f := sparseOf(t, c.fam, n)
				exact, err := New(c.fam, x, y, h, Options{Backend: linalg.Gonum(), Mean: pm})
				if err != nil {
					t.Fatal(err)
				}
				same, err := New(f, x, y, h, Options{Backend: linalg.Gonum(), Mean: pm})
				if err != nil {
					t.Fatal(err)
				}
				if same.Landmarks() != 0 || math.Float64bits(same.LogMarginal()) != math.Float64bits(exact.LogMarginal()) {
					t.Fatalf("m = n: landmarks %d, lml %v vs %v", same.Landmarks(), same.LogMarginal(), exact.LogMarginal())
				}
				lb, err := f.bindLandmarks(x)
				if err != nil {
					t.Fatal(err)
				}
				ys, mean, scale := standardize(y)
				g, err := buildLandmark(lb, x, ys, yUnits{mean: mean, scale: scale}, h, Options{Mean: pm})
				if err != nil {
					t.Fatal(err)
				}
				if g.Landmarks() != n {
					t.Fatalf("%d landmarks, want %d", g.Landmarks(), n)
				}
				if e := relDiff(g.LogMarginal(), exact.LogMarginal()); e > 1e-9 {
					t.Errorf("log marginal %.15g, exact %.15g", g.LogMarginal(), exact.LogMarginal())
				}
				var we, wl Workspace
				dme, dve := make([]float64, d), make([]float64, d)
				dml, dvl := make([]float64, d), make([]float64, d)
				for i := range 8 {
					xq := []float64{2*rng.Float64() - 1, 2*rng.Float64() - 1, 2*rng.Float64() - 1}
					if i == 0 {
						xq = x.RawRowView(3) // a landmark: the gap is 0
					}
					me, ve, err := exact.PredictGrad(&we, xq, dme, dve)
					if err != nil {
						t.Fatal(err)
					}
					ml, vl, err := g.PredictGrad(&wl, xq, dml, dvl)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(me-ml) > 1e-10*max(1, math.Abs(me)) || math.Abs(ve-vl) > 1e-10*max(1, ve) {
						t.Errorf("x %v: mean %.15g var %.15g, exact %.15g %.15g", xq, ml, vl, me, ve)
					}
					for j := range d {
						if math.Abs(dme[j]-dml[j]) > 1e-9*max(1, math.Abs(dme[j])) || math.Abs(dve[j]-dvl[j]) > 1e-9*max(1, math.Abs(dve[j])) {
							t.Errorf("x %v coordinate %d: gradients (%g, %g), exact (%g, %g)", xq, j, dml[j], dvl[j], dme[j], dve[j])
						}
					}
				}
			})
		}
	}
}

// TestSparseGradFD: the DTC posterior's gradients (the prior-variance gap
// included) match central differences of its predictions, with m < n.
func TestSparseGradFD(t *testing.T) {
	d, n, m := 3, 120, 20
	rng := rand.New(rand.NewPCG(62, 0))
	x, y := sample(rng, n, d)
	h := Hyper{Variance: 1.3, Lengthscale: 0.6, Noise: 1e-2}
	for _, c := range sparseCases(t, d) {
		t.Run(c.name, func(t *testing.T) {
			g, err := New(sparseOf(t, c.fam, m), x, y, h, Options{Backend: linalg.Gonum()})
			if err != nil {
				t.Fatal(err)
			}
			if g.Landmarks() != m {
				t.Fatalf("%d landmarks, want %d", g.Landmarks(), m)
			}
			var ws Workspace
			dm, dv := make([]float64, d), make([]float64, d)
			for range 5 {
				xq := []float64{3*rng.Float64() - 1.5, 3*rng.Float64() - 1.5, 3*rng.Float64() - 1.5}
				if _, _, err := g.PredictGrad(&ws, xq, dm, dv); err != nil {
					t.Fatal(err)
				}
				for j := range d {
					const hs = 1e-6
					xp, xm := append([]float64(nil), xq...), append([]float64(nil), xq...)
					xp[j] += hs
					xm[j] -= hs
					mp, vp, _ := g.Predict(&ws, xp)
					mm, vm, _ := g.Predict(&ws, xm)
					fm, fv := (mp-mm)/(2*hs), (vp-vm)/(2*hs)
					if math.Abs(fm-dm[j]) > 1e-5*max(1, math.Abs(fm)) || math.Abs(fv-dv[j]) > 1e-5*max(1, math.Abs(fv)) {
						t.Errorf("x %v coordinate %d: gradient (%g, %g), differences (%g, %g)", xq, j, dm[j], dv[j], fm, fv)
					}
				}
			}
		})
	}
}

// TestSparsePriorFar: far from every input the DTC variance returns to
// the prior's v·c(x, x) (the SoR part vanishes), where a Nyström kernel's
// would vanish.
func TestSparsePriorFar(t *testing.T) {
	d, n, m := 3, 100, 15
	rng := rand.New(rand.NewPCG(63, 0))
	x, y := sample(rng, n, d)
	h := Hyper{Variance: 2, Lengthscale: 0.3, Noise: 1e-2}
	fam := mustG(NewBaseFamily(kernel.RBF, d))
	g, err := New(sparseOf(t, fam, m), x, y, h, Options{Backend: linalg.Gonum()})
	if err != nil {
		t.Fatal(err)
	}
	_, v, err := g.PredictStandardized(nil, []float64{40, 40, 40}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(v-h.Variance) > 1e-12 {
		t.Errorf("far variance %v, want the prior's %v", v, h.Variance)
	}
}

// TestSparseFitDeterministic: a fit above the cap gives the same bits for
// GOMAXPROCS 1 and 2 with the parallel paths forced, fits on the subset
// (its hyperparameters are the exact fit's on those inputs) and reports m
// landmarks.
func TestSparseFitDeterministic(t *testing.T) {
	d, n, m := 4, 2*parallelProfileN+30, parallelProfileN+5
	rng := rand.New(rand.NewPCG(64, 0))
	x, y := sample(rng, n, d)
	for i, c := range sparseCases(t, d)[:3] {
		if !testdepth.Keep(t, i) {
			continue // a sampled make test leg: each case runs in one of them, and all at full depth
		}
		t.Run(c.name, func(t *testing.T) {
			fam := sparseOf(t, c.fam, m)
			restore := parallel.SetSerialThreshold(1)
			fit := func(p int) *GP {
				prev := runtime.GOMAXPROCS(p)
				defer runtime.GOMAXPROCS(prev)
				g, err := Fit(fam, x, y, FitOptions{Seed: 9, Backend: linalg.Gonum()})
				if err != nil {
					t.Fatal(err)
				}
				return g
			}
			g1, g2 := fit(1), fit(2)
			restore()
			if g1.Hyper() != g2.Hyper() || math.Float64bits(g1.LogMarginal()) != math.Float64bits(g2.LogMarginal()) {
				t.Fatalf("GOMAXPROCS 1: %+v %v; 2: %+v %v", g1.Hyper(), g1.LogMarginal(), g2.Hyper(), g2.LogMarginal())
			}
			if g1.Landmarks() != m {
				t.Errorf("%d landmarks, want %d", g1.Landmarks(), m)
			}
			var w1, w2 Workspace
			xq := []float64{0.1, -0.4, 0.9, 0.3}
			m1, v1, _ := g1.Predict(&w1, xq)
			m2, v2, _ := g2.Predict(&w2, xq)
			if math.Float64bits(m1) != math.Float64bits(m2) || math.Float64bits(v1) != math.Float64bits(v2) {
				t.Fatalf("predictions differ: (%v, %v) vs (%v, %v)", m1, v1, m2, v2)
			}
			// The hyperparameters are the exact fit's on the subset.
			idx := subsetIndices(n, m)
			xs := mat.NewDense(m, d, nil)
			for t2, i := range idx {
				xs.SetRow(t2, x.RawRowView(i))
			}
			ys, _, _ := standardize(y)
			b, err := c.fam.Bind(xs)
			if err != nil {
				t.Fatal(err)
			}
			h, _, err := fitHyper(b, linalg.Gonum(), x, (&subsetFit{idx: idx}).gather(ys), yUnits{scale: 1}, FitOptions{Seed: 9})
			if err != nil {
				t.Fatal(err)
			}
			if h != g1.Hyper() {
				t.Errorf("hyperparameters %+v, the subset's exact fit %+v", g1.Hyper(), h)
			}
		})
	}
}

// TestSparseErrors: bad settings and inputs are errors of the input class.
func TestSparseErrors(t *testing.T) {
	base := mustG(NewBaseFamily(kernel.RBF, 2))
	plus := mustG(NewPlusFamily(kernel.RBF, mustG(orbit.SignFlip(2)), kernel.Options{}, kernel.PlusOptions{}))
	for _, tc := range []struct {
		name string
		fam  Family
		m    int
	}{
		{"m=0", base, 0},
		{"m<0", base, -3},
		{"nil", nil, 4},
		{"plus", plus, 4},
		{"nested", sparseOf(t, base, 4), 4},
		// A mix whose part depends on the inputs depends on them too.
		{"mix plus+base", mustG(NewMixFamily(plus, base, 0.2)), 4},
		{"mix base+plus", mustG(NewMixFamily(base, plus, 0.2)), 4},
		{"mix of a mix", mustG(NewMixFamily(base, mustG(NewMixFamily(base, plus, 0.5)), 0.2)), 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewLandmarkFamily(tc.fam, tc.m, LandmarkOptions{})
			if err == nil {
				t.Fatal("no error")
			}
			if tc.fam != nil && !errors.Is(err, ErrInvalid) {
				t.Errorf("%v, want ErrInvalid", err)
			}
		})
	}
	// A mix of families whose kernels do not depend on the inputs does
	// not either.
	if _, err := NewLandmarkFamily(mustG(NewMixFamily(base, mustG(NewMaxFamily(kernel.RBF, mustG(orbit.SignFlip(2)), kernel.Options{})), 0.2)), 4, LandmarkOptions{}); err != nil {
		t.Errorf("mix of base and max: %v", err)
	}
	f := sparseOf(t, base, 3)
	rng := rand.New(rand.NewPCG(65, 0))
	x, y := sample(rng, 10, 3)
	if _, err := f.Bind(x); err == nil {
		t.Error("dimension mismatch: no error")
	}
	x2, y2 := sample(rng, 10, 2)
	y2[4] = math.NaN()
	if _, err := Fit(f, x2, y2, FitOptions{}); err == nil {
		t.Error("NaN output: no error")
	}
	_ = y
	if _, err := NewLandmarkFamily(nil, 3, LandmarkOptions{}); !errors.Is(err, ErrNilArgument) || errclass.Of(err) != errclass.Input {
		t.Errorf("nil family: %v", err)
	}
}

// TestLandmarkFitRules: LandmarkFitSubset fits k_plus on its subset (the
// hyperparameters of NewPlusFamily's exact fit there), LandmarkFitDefault
// keeps k_plus on its landmark likelihood (= LandmarkFitLikelihood, the
// same bits) and NewLandmarkFamily on its subset; LandmarkFitLikelihood
// fits a DTC GP on its landmark likelihood, deterministically; an unknown
// rule is an input error.
func TestLandmarkFitRules(t *testing.T) {
	d, n, m := 3, 90, 20
	rng := rand.New(rand.NewPCG(66, 0))
	x, y := sample(rng, n, d)
	c := lmCases(d)[1]
	plus := lmFamily(t, c, m)
	fit := func(fam Family, f LandmarkFit) *GP {
		g, err := Fit(fam, x, y, FitOptions{Seed: 3, Backend: linalg.Gonum(), LandmarkFit: f})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	gd, gl, gs := fit(plus, LandmarkFitDefault), fit(plus, LandmarkFitLikelihood), fit(plus, LandmarkFitSubset)
	if gd.Hyper() != gl.Hyper() || math.Float64bits(gd.LogMarginal()) != math.Float64bits(gl.LogMarginal()) {
		t.Errorf("plus: default %+v, likelihood %+v", gd.Hyper(), gl.Hyper())
	}
	idx, xs := subsetOf(x, m)
	ys, _, _ := standardize(y)
	sb, err := plus.plus.Bind(xs)
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := fitHyper(sb, linalg.Gonum(), x, (&subsetFit{idx: idx}).gather(ys), yUnits{scale: 1}, FitOptions{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if gs.Hyper() != h || gs.Landmarks() == 0 {
		t.Errorf("plus subset: %+v (%d landmarks), exact plus on the subset %+v", gs.Hyper(), gs.Landmarks(), h)
	}
	base := sparseOf(t, mustG(NewBaseFamily(kernel.Matern32, d)), m)
	bd, bs, bl := fit(base, LandmarkFitDefault), fit(base, LandmarkFitSubset), fit(base, LandmarkFitLikelihood)
	if bd.Hyper() != bs.Hyper() {
		t.Errorf("base: default %+v, subset %+v", bd.Hyper(), bs.Hyper())
	}
	if bl2 := fit(base, LandmarkFitLikelihood); bl.Hyper() != bl2.Hyper() || bl.Landmarks() == 0 {
		t.Errorf("base likelihood: %+v then %+v (%d landmarks)", bl.Hyper(), bl2.Hyper(), bl.Landmarks())
	}
	if _, err := Fit(base, x, y, FitOptions{LandmarkFit: LandmarkFit(7)}); errclass.Of(err) != errclass.Input {
		t.Errorf("unknown rule: %v", err)
	}
	for _, s := range []string{"", "default", "Subset", " likelihood", "FULL"} {
		if _, err := ParseLandmarkFit(s); err != nil {
			t.Errorf("ParseLandmarkFit(%q): %v", s, err)
		}
	}
	if _, err := ParseLandmarkFit("sod"); errclass.Of(err) != errclass.Input {
		t.Errorf("ParseLandmarkFit(sod): %v", err)
	}
}
