package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/parallel"
	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// glsRef is the constant-mean GP computed directly with gonum from the
// kernel's cross-covariances (no code of this package): K = k(X, X) + σ²·I
// by CrossTo, a gonum Cholesky, m̂ = 1ᵀK⁻¹y/1ᵀK⁻¹1, the log likelihood of
// y − m̂·1 (lmlAt gives it at any m) and the posterior at a point.
type glsRef struct {
	t     *testing.T
	k     kernel.Kernel
	x     *mat.Dense
	ys    []float64
	n     int
	chol  mat.Cholesky
	m     float64
	alpha *mat.VecDense // K⁻¹(y − m̂·1)
}

func newGLSRef(t *testing.T, k kernel.Kernel, x *mat.Dense, ys []float64, noise float64) *glsRef {
	t.Helper()
	n, _ := x.Dims()
	var c mat.Dense
	c.ReuseAs(n, n)
	if err := k.CrossTo(&c, x, x); err != nil {
		t.Fatal(err)
	}
	kk := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			kk.SetSym(i, j, 0.5*(c.At(i, j)+c.At(j, i)))
		}
		kk.SetSym(i, i, kk.At(i, i)+noise)
	}
	r := &glsRef{t: t, k: k, x: x, ys: ys, n: n}
	if !r.chol.Factorize(kk) {
		t.Fatal("reference: K not positive definite")
	}
	one := mat.NewVecDense(n, nil)
	for i := range n {
		one.SetVec(i, 1)
	}
	var kiy, kio mat.VecDense
	if err := r.chol.SolveVecTo(&kiy, mat.NewVecDense(n, ys)); err != nil {
		t.Fatal(err)
	}
	if err := r.chol.SolveVecTo(&kio, one); err != nil {
		t.Fatal(err)
	}
	r.m = mat.Dot(one, &kiy) / mat.Dot(one, &kio)
	r.alpha = mat.NewVecDense(n, nil)
	r.alpha.AddScaledVec(&kiy, -r.m, &kio)
	return r
}

// lmlAt is the log likelihood of y − m·1.
func (r *glsRef) lmlAt(m float64) float64 {
	res := mat.NewVecDense(r.n, nil)
	for i, v := range r.ys {
		res.SetVec(i, v-m)
	}
	var a mat.VecDense
	if err := r.chol.SolveVecTo(&a, res); err != nil {
		r.t.Fatal(err)
	}
	return -0.5*mat.Dot(res, &a) - 0.5*r.chol.LogDet() - 0.5*float64(r.n)*log2Pi
}

// predict is the standardized posterior mean and variance at xq.
func (r *glsRef) predict(xq []float64) (mean, variance float64) {
	xr := mat.NewDense(1, len(xq), append([]float64(nil), xq...))
	ks := mat.NewDense(1, r.n, nil)
	if err := r.k.CrossTo(ks, xr, r.x); err != nil {
		r.t.Fatal(err)
	}
	kss, err := r.k.DiagTo(nil, xr)
	if err != nil {
		r.t.Fatal(err)
	}
	kv := mat.NewVecDense(r.n, ks.RawRowView(0))
	var a mat.VecDense
	if err := r.chol.SolveVecTo(&a, kv); err != nil {
		r.t.Fatal(err)
	}
	return r.m + mat.Dot(kv, r.alpha), kss[0] - mat.Dot(kv, &a)
}

// meanFamilies are the families of the constant-mean tests: every kernel
// family, the landmark one above its cap, and the test family.
func meanFamilies(t *testing.T, d int) []famCase {
	out := realFamilies(t, d)
	for _, c := range lmCases(d)[:3] {
		out = append(out, famCase{"landmark/" + c.name, lmFamily(t, c, 10), nil})
	}
	return append(out, famCase{"test-rbf", tFamily{d: d}, nil})
}

// TestMeanGLSAgainstDense: with MeanConstant, New's prior mean, log
// likelihood, predictions and prediction gradients agree with the GLS
// computed independently (gonum, from the kernel's cross-covariances), m̂
// maximizes the likelihood over m, and the off value is the sample mean
// (prior mean 0).
func TestMeanGLSAgainstDense(t *testing.T) {
	d, n := 3, 30
	rng := rand.New(rand.NewPCG(50, 0))
	x, y := sample(rng, n, d)
	for i := range y {
		y[i] += 0.4 * x.At(i, 0) // the sample mean is not the GLS one
	}
	ys, _, _ := standardize(y)
	for _, tc := range meanFamilies(t, d) {
		for _, h := range []Hyper{{1.3, 0.8, 1e-2}, {0.6, 2.2, 0.1}} {
			t.Run(fmt.Sprintf("%s/l=%g", tc.name, h.Lengthscale), func(t *testing.T) {
				g, err := New(tc.fam, x, y, h, Options{Backend: linalg.Gonum(), Mean: MeanConstant})
				if errors.Is(err, linalg.ErrNotPositiveDefinite) && strings.HasPrefix(tc.name, "max/") {
					t.Skip("k_max is not PSD over this group")
				}
				if err != nil {
					t.Fatal(err)
				}
				if g.Jitter() != 0 {
					t.Fatalf("jitter %v: choose a better-conditioned case", g.Jitter())
				}
				g0, err := New(tc.fam, x, y, h, Options{Backend: linalg.Gonum()})
				if err != nil {
					t.Fatal(err)
				}
				if g0.PriorMean() != 0 {
					t.Errorf("MeanSample: prior mean %v, want 0", g0.PriorMean())
				}
				b, err := tc.fam.Bind(x)
				if err != nil {
					t.Fatal(err)
				}
				k, err := b.Kernel(h.Variance, h.Lengthscale)
				if err != nil {
					t.Fatal(err)
				}
				ref := newGLSRef(t, k, x, ys, h.Noise)
				if math.Abs(g.PriorMean()-ref.m) > 1e-8*max(1, math.Abs(ref.m)) {
					t.Errorf("m̂ = %.15g, reference %.15g", g.PriorMean(), ref.m)
				}
				if math.Abs(ref.m) < 1e-3 {
					t.Errorf("m̂ = %v: the case does not separate the means", ref.m)
				}
				want := ref.lmlAt(ref.m)
				if e := relDiff(g.LogMarginal(), want); e > 1e-9 {
					t.Errorf("log likelihood %.15g, reference %.15g (relative %.2g)", g.LogMarginal(), want, e)
				}
				if e := relDiff(g0.LogMarginal(), ref.lmlAt(0)); e > 1e-9 {
					t.Errorf("MeanSample: log likelihood %.15g, reference at m = 0 %.15g", g0.LogMarginal(), ref.lmlAt(0))
				}
				for _, dm := range []float64{-1e-3, 1e-3} {
					if l := ref.lmlAt(ref.m + dm); !(l < want) {
						t.Errorf("likelihood at m̂%+g = %v ≥ at m̂ %v", dm, l, want)
					}
				}
				var ws Workspace
				dmean, dvar := make([]float64, d), make([]float64, d)
				for q := range 4 {
					xq := []float64{2*rng.Float64() - 1, 2*rng.Float64() - 1, 2*rng.Float64() - 1}
					if q == 0 {
						xq = append([]float64(nil), x.RawRowView(2)...)
					}
					if q == 3 {
						xq = []float64{40, -35, 50} // far away: the mean reverts to m̂
					}
					mu, v, err := g.PredictStandardized(&ws, xq, dmean, dvar)
					if err != nil {
						t.Fatal(err)
					}
					mr, vr := ref.predict(xq)
					if math.Abs(mu-mr) > 1e-8*max(1, math.Abs(mr)) {
						t.Errorf("point %d: mean %.15g, reference %.15g", q, mu, mr)
					}
					if math.Abs(v-max(vr, 0)) > 1e-8*max(1, vr) {
						t.Errorf("point %d: variance %.15g, reference %.15g", q, v, vr)
					}
					if q == 3 && math.Abs(mu-ref.m) > 1e-6 {
						t.Errorf("far away: mean %v, want m̂ = %v", mu, ref.m)
					}
					for j := range d {
						hh := 1e-6
						xp := append([]float64(nil), xq...)
						xp[j] += hh
						mp, _, _ := g.PredictStandardized(&ws, xp, nil, nil)
						xp[j] -= 2 * hh
						mm, _, _ := g.PredictStandardized(&ws, xp, nil, nil)
						if fd := (mp - mm) / (2 * hh); math.Abs(fd-dmean[j]) > 1e-5*max(1, math.Abs(fd)) {
							t.Errorf("point %d: ∂mean/∂x%d = %v, finite difference %v", q, j, dmean[j], fd)
						}
					}
				}
				// In the units of y: mean + scale·m̂ far away.
				_, ymean, yscale := standardize(y)
				mu, _, err := g.Predict(&ws, []float64{40, -35, 50})
				if err != nil {
					t.Fatal(err)
				}
				if w := ymean + yscale*g.PriorMean(); math.Abs(mu-w) > 1e-6*max(1, math.Abs(w)) {
					t.Errorf("far away in units of y: %v, want mean + scale·m̂ = %v", mu, w)
				}
			})
		}
	}
}

// TestObjectiveGradientMean: the gradient of the profiled likelihood
// (constant mean at its GLS optimum) in θ = (log v, log ℓ, log σ²) against
// central differences of the profiled likelihood itself, in which m̂
// moves with θ: its derivative drops out at the optimum.
func TestObjectiveGradientMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 0))
	d := 3
	x, y := sample(rng, 14, d)
	for i := range y {
		y[i] += x.At(i, 1)
	}
	ys, _, _ := standardize(y)
	for _, tc := range realFamilies(t, d) {
		for _, th := range [][3]float64{{0.3, math.Log(0.7), math.Log(1e-2)}, {-0.5, math.Log(1.8), math.Log(0.2)}} {
			t.Run(fmt.Sprintf("%s/l=%.2g", tc.name, math.Exp(th[1])), func(t *testing.T) {
				b, err := tc.fam.Bind(x)
				if err != nil {
					t.Fatal(err)
				}
				obj := newObjective(b, linalg.Gonum(), ys)
				obj.mean = true
				var g [3]float64
				if _, err := obj.eval(th, g[:]); err != nil {
					t.Fatal(err)
				}
				if math.Abs(obj.m) < 1e-3 {
					t.Fatalf("m̂ = %v: the case does not exercise the mean", obj.m)
				}
				f := func(z []float64) float64 {
					l, err := obj.eval([3]float64{z[0], z[1], z[2]}, nil)
					if err != nil {
						t.Fatal(err)
					}
					return l
				}
				fdCheck(t, "profiled lml", f, th[:], g[:], 1e-5, 1e-5)
			})
		}
	}
}

// TestProfileMean: with a constant mean, the profile's value at ℓ is the
// likelihood of the GP built at its (v, σ²) (New, MeanConstant), no
// neighbouring (v, σ²) does better, and it is at least the sample mean's
// profile.
func TestProfileMean(t *testing.T) {
	d, n := 3, 30
	rng := rand.New(rand.NewPCG(52, 0))
	x, y := sample(rng, n, d)
	for i := range y {
		y[i] += 0.5 * x.At(i, 2)
	}
	ys, _, _ := standardize(y)
	be := linalg.Gonum()
	for _, tc := range meanFamilies(t, d) {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.fam.Bind(x)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range []float64{0.4, 1.5} {
				newP := func(mean bool) *profiler {
					p := newProfiler(b, be, ys, mean)
					p.a0, p.a1 = math.Log(1e-3), math.Log(1e3)
					p.b0, p.b1 = math.Log(1e-6), 0
					return p
				}
				pt := newP(true).at(math.Log(l))
				p0 := newP(false).at(math.Log(l))
				if !(pt.lml >= p0.lml-1e-9) {
					t.Errorf("ℓ=%g: profile with the mean %v < without %v", l, pt.lml, p0.lml)
				}
				h := hyperOf([3]float64{pt.logv, pt.logl, pt.logs2})
				g, err := New(tc.fam, x, y, h, Options{Backend: be, Mean: MeanConstant})
				if err != nil {
					t.Fatal(err)
				}
				if e := relDiff(g.LogMarginal(), pt.lml); e > 1e-9 {
					t.Errorf("ℓ=%g: profile %.15g, GP %.15g (relative %.2g)", l, pt.lml, g.LogMarginal(), e)
				}
				if _, ok := b.(*landmarkBound); ok {
					continue // no dense objective
				}
				obj := newObjective(b, be, ys)
				obj.mean = true
				for _, dv := range []float64{-0.05, 0, 0.05} {
					for _, ds := range []float64{-0.05, 0, 0.05} {
						th := [3]float64{pt.logv + dv, pt.logl, pt.logs2 + ds}
						if th[0] < math.Log(1e-3) || th[2] < math.Log(1e-6) || th[2] > 0 {
							continue // outside the profile's box
						}
						v, err := obj.eval(th, nil)
						if err != nil {
							t.Fatal(err)
						}
						if v > pt.lml+1e-9*max(1, math.Abs(v)) {
							t.Errorf("ℓ=%g: (log v, log σ²) + (%g, %g) gives %v > profile %v", l, dv, ds, v, pt.lml)
						}
					}
				}
			}
		})
	}
}

// TestFitMeanVsBFGS: with a constant mean, the profile fit reaches at
// least the likelihood of the BFGS reference (to 1e-3) and of the sample
// mean's fit (the constant model contains m̂ = 0), for base, max, plus
// and avg, free and fixed noise.
func TestFitMeanVsBFGS(t *testing.T) {
	fams := []struct {
		name string
		fam  func(d int) Family
	}{
		{"base", func(d int) Family { return mustG(NewBaseFamily(kernel.Matern52, d)) }},
		{"max", func(d int) Family {
			return mustG(NewMaxFamily(kernel.RBF, mustG(orbit.Hyperoctahedral(d)), kernel.Options{}))
		}},
		{"plus", func(d int) Family {
			return mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Cyclic(d)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}))
		}},
		{"avg", func(d int) Family { return mustG(NewAvgFamily(kernel.RBF, mustG(orbit.SignFlip(d)), kernel.Options{})) }},
	}
	sizes := []int{8, 20, 40}
	if testing.Short() {
		sizes = []int{8, 25}
	}
	for _, f := range fams {
		for _, d := range []int{2, 4} {
			for _, n := range sizes {
				for _, fix := range []bool{false, true} {
					name := fmt.Sprintf("%s/d=%d/n=%d/fix=%v", f.name, d, n, fix)
					x, y := fitQualityData(1, n, d, d == 2)
					opts := FitOptions{Backend: linalg.Gonum(), Seed: 1, FixNoise: fix, Noise: 0.09, Mean: MeanConstant}
					gp, err := Fit(f.fam(d), x, y, opts)
					if err != nil {
						t.Errorf("%s: profile: %v", name, err)
						continue
					}
					ob := opts
					ob.method = fitBFGS
					if gb, err := Fit(f.fam(d), x, y, ob); err == nil && gp.LogMarginal() < gb.LogMarginal()-1e-3 {
						t.Errorf("%s: profile lml %v < BFGS %v", name, gp.LogMarginal(), gb.LogMarginal())
					}
					os := opts
					os.Mean = MeanSample
					gs, err := Fit(f.fam(d), x, y, os)
					if err != nil {
						t.Fatal(err)
					}
					if gp.LogMarginal() < gs.LogMarginal()-1e-3 {
						t.Errorf("%s: constant mean lml %v < sample mean %v", name, gp.LogMarginal(), gs.LogMarginal())
					}
				}
			}
		}
	}
}

// TestMeanFitDeterministic: constant-mean fits, exact and landmark, give
// the same bits twice and for GOMAXPROCS 1 and 4 with the parallel
// profile forced (n above parallelProfileN).
func TestMeanFitDeterministic(t *testing.T) {
	d, n, m := 4, parallelProfileN+10, 24
	rng := rand.New(rand.NewPCG(53, 0))
	x, y := sample(rng, n, d)
	fams := []Family{lmFamily(t, lmCases(d)[0], m), mustG(NewBaseFamily(kernel.Matern32, d))}
	for i, fam := range fams {
		if !testdepth.Keep(t, i) {
			continue // a sampled make test leg: each family runs in one of them, and both at full depth
		}
		restore := parallel.SetSerialThreshold(1)
		fit := func(p int) *GP {
			prev := runtime.GOMAXPROCS(p)
			defer runtime.GOMAXPROCS(prev)
			g, err := Fit(fam, x, y, FitOptions{Seed: 9, Mean: MeanConstant})
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		g1, g4, g1b := fit(1), fit(4), fit(1)
		restore()
		for _, g := range []*GP{g4, g1b} {
			if g1.Hyper() != g.Hyper() || math.Float64bits(g1.LogMarginal()) != math.Float64bits(g.LogMarginal()) ||
				math.Float64bits(g1.PriorMean()) != math.Float64bits(g.PriorMean()) {
				t.Fatalf("%+v %v %v; then %+v %v %v", g1.Hyper(), g1.LogMarginal(), g1.PriorMean(), g.Hyper(), g.LogMarginal(), g.PriorMean())
			}
			var w1, w Workspace
			xq := []float64{0.1, -0.4, 0.9, 0.3}
			m1, v1, _ := g1.Predict(&w1, xq)
			m2, v2, _ := g.Predict(&w, xq)
			if math.Float64bits(m1) != math.Float64bits(m2) || math.Float64bits(v1) != math.Float64bits(v2) {
				t.Fatalf("predictions differ: (%v, %v) vs (%v, %v)", m1, v1, m2, v2)
			}
		}
	}
}

// TestMeanOption: ParseMean's names and unknown values as errors.
func TestMeanOption(t *testing.T) {
	for s, want := range map[string]Mean{"": MeanSample, "sample": MeanSample, " Constant": MeanConstant} {
		if got, err := ParseMean(s); err != nil || got != want {
			t.Errorf("ParseMean(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParseMean("zero"); err == nil {
		t.Error("ParseMean(zero): no error")
	}
	if MeanConstant.String() != "constant" || MeanSample.String() != "sample" {
		t.Errorf("names %q %q", MeanSample, MeanConstant)
	}
	rng := rand.New(rand.NewPCG(54, 0))
	x, y := sample(rng, 6, 2)
	fam := mustG(NewBaseFamily(kernel.RBF, 2))
	if _, err := Fit(fam, x, y, FitOptions{Mean: Mean(7)}); err == nil {
		t.Error("Fit with Mean(7): no error")
	}
	if _, err := New(fam, x, y, Hyper{1, 1, 0.1}, Options{Mean: Mean(-1)}); err == nil {
		t.Error("New with Mean(-1): no error")
	}
}

// TestMeanPriorFit: with BoTorch's priors and the constant mean (no prior
// on m), the profile's reported MAP objective is the profiled likelihood
// (objective with the mean) plus the log prior at its optimum, at least
// the BFGS reference's; in ModeBase the family's GP gets its own m̂.
func TestMeanPriorFit(t *testing.T) {
	for _, tc := range []struct {
		name string
		fam  Family
		fix  bool
	}{
		{"base", mustG(NewBaseFamily(kernel.Matern52, 3)), false},
		{"base-fixed", mustG(NewBaseFamily(kernel.RBF, 3)), true},
		{"plus", mustG(NewPlusFamily(kernel.RBF, mustG(orbit.Cyclic(3)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()})), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := fitQualityData(3, 20, 3, true)
			w := 10.0
			opts := FitOptions{Backend: linalg.Gonum(), Prior: PriorBoTorch, PriorScale: w, Seed: 9, FixNoise: tc.fix, Noise: 0.05, Mean: MeanConstant}
			gp1 := mustG(Fit(tc.fam, x, y, opts))
			ob := opts
			ob.method = fitBFGS
			gb := mustG(Fit(tc.fam, x, y, ob))
			ys, _, scale := standardize(y)
			obj := newObjective(mustG(tc.fam.Bind(x)), linalg.Gonum(), ys)
			obj.mean = true
			post := func(h Hyper) float64 {
				if tc.fix {
					h.Noise = 0.05 / (scale * scale)
				}
				l, err := obj.eval([3]float64{math.Log(h.Variance), math.Log(h.Lengthscale), math.Log(h.Noise)}, nil)
				if err != nil {
					t.Fatal(err)
				}
				return l + priorLogDensity(PriorBoTorch, h, w, tc.fix)
			}
			pb := post(gb.Hyper())
			pp := post(gp1.Hyper()) // last: obj.m is then gp1's m̂
			fi := gp1.fit
			if got := fi.Starts[fi.Best].LogMarginal; math.Abs(got-pp) > 1e-6*max(1, math.Abs(pp)) {
				t.Errorf("reported objective %v, recomputed %v", got, pp)
			}
			if pp < pb-1e-3 {
				t.Errorf("profile MAP %v (%+v) < BFGS MAP %v (%+v)", pp, gp1.Hyper(), pb, gb.Hyper())
			}
			if gp1.PriorMean() == 0 || math.Abs(gp1.PriorMean()-obj.m) > 1e-6 {
				t.Errorf("GP m̂ %v, objective's %v", gp1.PriorMean(), obj.m)
			}
		})
	}
	// ModeBase: the base family's hyperparameters, the family's own m̂.
	x, y := fitQualityData(4, 20, 3, false)
	fam := mustG(NewPlusFamily(kernel.RBF, mustG(orbit.SignFlip(3)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}))
	g := mustG(Fit(fam, x, y, FitOptions{Backend: linalg.Gonum(), Mode: ModeBase, Mean: MeanConstant}))
	gb := mustG(Fit(mustG(NewBaseFamily(kernel.RBF, 3)), x, y, FitOptions{Backend: linalg.Gonum(), Mean: MeanConstant}))
	if g.Hyper() != gb.Hyper() {
		t.Errorf("ModeBase hyperparameters %+v, base fit's %+v", g.Hyper(), gb.Hyper())
	}
	ref := mustG(New(fam, x, y, g.Hyper(), Options{Backend: linalg.Gonum(), Mean: MeanConstant}))
	if g.PriorMean() != ref.PriorMean() || g.PriorMean() == gb.PriorMean() {
		t.Errorf("ModeBase m̂ %v, New's %v, base's %v", g.PriorMean(), ref.PriorMean(), gb.PriorMean())
	}
}
