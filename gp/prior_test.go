package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/optimize"
)

// gammaPDF is the Gamma(a, b) density written out directly.
func gammaPDF(x, a, b float64) float64 {
	return math.Pow(b, a) * math.Pow(x, a-1) * math.Exp(-b*x) / math.Gamma(a)
}

func TestPriorLogDensityHand(t *testing.T) {
	// Gamma(3, 6) at 0.5: 6³/Γ(3)·0.5²·e^{−3} = 27·e^{−3}, log = log 27 − 3.
	if got, want := (gammaPrior{3, 6}).logPDFAt(0.5), math.Log(27)-3; math.Abs(got-want) > 1e-13 {
		t.Errorf("Gamma(3,6) log pdf at 0.5 = %v, want %v", got, want)
	}
	// Gamma(2, 0.15) at 1: 0.15²·e^{−0.15}.
	if got, want := (gammaPrior{2, 0.15}).logPDFAt(1), 2*math.Log(0.15)-0.15; math.Abs(got-want) > 1e-13 {
		t.Errorf("Gamma(2,0.15) log pdf at 1 = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		h     Hyper
		w     float64
		fixed bool
	}{
		{Hyper{Variance: 1, Lengthscale: 1, Noise: 0.1}, 2, false},
		{Hyper{Variance: 0.003, Lengthscale: 0.023, Noise: 0.997}, 1, false},
		{Hyper{Variance: 7, Lengthscale: 10, Noise: 1e-4}, 30, false},
		{Hyper{Variance: 7, Lengthscale: 10, Noise: 1e-4}, 30, true},
	} {
		want := math.Log(gammaPDF(tc.h.Variance, 2, 0.15)) + math.Log(gammaPDF(tc.h.Lengthscale/tc.w, 3, 6))
		if !tc.fixed {
			want += math.Log(gammaPDF(tc.h.Noise, 1.1, 0.05))
		}
		got := priorLogDensity(PriorBoTorch, tc.h, tc.w, tc.fixed)
		if math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
			t.Errorf("priorLogDensity(%+v, w=%v, fixed=%v) = %v, want %v", tc.h, tc.w, tc.fixed, got, want)
		}
	}
	if got := priorLogDensity(PriorNone, Hyper{Variance: 1, Lengthscale: 1, Noise: 1}, 1, false); got != 0 {
		t.Errorf("priorLogDensity(PriorNone) = %v, want 0", got)
	}
	for _, s := range []string{"none", "BoTorch"} {
		p, err := ParsePrior(s)
		if err != nil || !(p.String() == "none" || p.String() == "botorch") {
			t.Errorf("ParsePrior(%q) = %v, %v", s, p, err)
		}
	}
	if _, err := ParsePrior("gamma"); err == nil {
		t.Error("ParsePrior(gamma): no error")
	}
}

func (g gammaPrior) logPDFAt(x float64) float64 {
	v, _ := g.logPDF(math.Log(x))
	return v
}

// TestPriorMAPGradient checks the gradient of lml + log prior in θ (the
// BFGS objective) against central differences.
func TestPriorMAPGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	x, y := sample(rng, 12, 2)
	ys, _, _ := standardize(y)
	b := mustG(tFamily{d: 2}.Bind(x))
	obj := newObjective(b, linalg.Gonum(), ys)
	for _, fixed := range []bool{false, true} {
		pr := mustG(newPriorSpec(PriorBoTorch, 4))
		pr.fixedNoise = fixed
		f := func(th [3]float64) float64 {
			l, err := obj.eval(th, nil)
			if err != nil {
				t.Fatal(err)
			}
			return l + pr.logDensity(th, nil)
		}
		for _, th := range [][3]float64{{0, math.Log(0.7), math.Log(0.05)}, {1.5, math.Log(2), math.Log(0.3)}, {-2, math.Log(0.2), math.Log(1e-3)}} {
			g := make([]float64, 3)
			if _, err := obj.eval(th, g); err != nil {
				t.Fatal(err)
			}
			pr.logDensity(th, g)
			for i := range 3 {
				const h = 1e-5
				tp, tm := th, th
				tp[i] += h
				tm[i] -= h
				fd := (f(tp) - f(tm)) / (2 * h)
				if i == 2 && fixed {
					// The noise prior is off: only the likelihood moves.
					l0, _ := obj.eval(tp, nil)
					l1, _ := obj.eval(tm, nil)
					fd = (l0 - l1) / (2 * h)
				}
				if math.Abs(fd-g[i]) > 1e-6*max(1, math.Abs(fd)) {
					t.Errorf("fixed=%v θ=%v: ∂/∂θ%d = %v, finite difference %v", fixed, th, i, g[i], fd)
				}
			}
		}
	}
}

// TestPriorProfileInner checks the profile's inner MAP over (v, σ²) at
// fixed ℓ against the Cholesky likelihood plus the prior and a grid search
// refined by Nelder–Mead.
func TestPriorProfileInner(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 0))
	for _, n := range []int{3, 10, 30} {
		x, y := sample(rng, n, 3)
		for i := range y {
			y[i] += 0.3 * rng.NormFloat64()
		}
		ys, _, _ := standardize(y)
		fam := mustG(NewBaseFamily(kernel.Matern52, 3))
		b := mustG(fam.Bind(x))
		pr := mustG(newPriorSpec(PriorBoTorch, 4))
		p := newProfiler(b, linalg.Gonum(), ys, false)
		p.pr = pr
		p.a0, p.a1 = math.Log(1e-3), math.Log(1e3)
		p.b0, p.b1 = math.Log(1e-4), 0
		obj := newObjective(b, linalg.Gonum(), ys)
		post := func(th [3]float64) float64 {
			l, err := obj.eval(th, nil)
			if err != nil {
				return math.Inf(-1)
			}
			return l + pr.logDensity(th, nil)
		}
		for _, l := range []float64{0.05, 0.7, 3} {
			pt := p.at(math.Log(l))
			ref := post([3]float64{pt.logv, pt.logl, pt.logs2})
			if math.Abs(ref-pt.lml) > 1e-8*max(1, math.Abs(ref)) {
				t.Errorf("n=%d ℓ=%v: profile MAP objective %v, Cholesky %v", n, l, pt.lml, ref)
			}
			bestA, bestC, best := 0.0, 0.0, math.Inf(-1)
			for i := range 41 {
				for j := range 41 {
					a := p.a0 + (p.a1-p.a0)*float64(i)/40
					c := p.b0 + (p.b1-p.b0)*float64(j)/40
					if v := post([3]float64{a, math.Log(l), c}); v > best {
						bestA, bestC, best = a, c, v
					}
				}
			}
			res, err := optimize.Minimize(optimize.Problem{Func: func(z []float64) float64 {
				a := min(max(z[0], p.a0), p.a1)
				c := min(max(z[1], p.b0), p.b1)
				return -post([3]float64{a, math.Log(l), c})
			}}, []float64{bestA, bestC}, &optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-12, Iterations: 50}}, &optimize.NelderMead{})
			if err == nil && -res.F > best {
				best = -res.F
			}
			if best > pt.lml+1e-6*max(1, math.Abs(best)) {
				t.Errorf("n=%d ℓ=%v: search found %v > profile MAP %v", n, l, best, pt.lml)
			}
		}
	}
}

// TestPriorFit: profile and BFGS MAP fits agree (the profile at least as
// high), the reported objective is lml + log prior at the optimum, the
// fit is deterministic, and the prior moves the fit away from the plain
// likelihood's optimum.
func TestPriorFit(t *testing.T) {
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
			opts := FitOptions{Backend: linalg.Gonum(), Prior: PriorBoTorch, PriorScale: w, Seed: 9, FixNoise: tc.fix, Noise: 0.05}
			gp1 := mustG(Fit(tc.fam, x, y, opts))
			gp2 := mustG(Fit(tc.fam, x, y, opts))
			if gp1.Hyper() != gp2.Hyper() {
				t.Errorf("not deterministic: %+v vs %+v", gp1.Hyper(), gp2.Hyper())
			}
			ob := opts
			ob.method = fitBFGS
			gb := mustG(Fit(tc.fam, x, y, ob))
			ys, _, scale := standardize(y)
			b := mustG(tc.fam.Bind(x))
			obj := newObjective(b, linalg.Gonum(), ys)
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
			hp, hb := gp1.Hyper(), gb.Hyper()
			pp, pb := post(hp), post(hb)
			fi := gp1.fit
			if got := fi.Starts[fi.Best].LogMarginal; math.Abs(got-pp) > 1e-6*max(1, math.Abs(pp)) {
				t.Errorf("reported objective %v, recomputed %v", got, pp)
			}
			if pp < pb-1e-3 {
				t.Errorf("profile MAP %v (%+v) < BFGS MAP %v (%+v)", pp, hp, pb, hb)
			}
			if !tc.fix && hp.Noise < botorchNoiseMin*(1-1e-12) {
				t.Errorf("noise %v below BoTorch's floor", hp.Noise)
			}
			plain := mustG(Fit(tc.fam, x, y, FitOptions{Backend: linalg.Gonum(), Seed: 9, FixNoise: tc.fix, Noise: 0.05}))
			if plain.Hyper() == hp {
				t.Errorf("prior did not change the fit: %+v", hp)
			}
			if post(plain.Hyper()) > pp+1e-6 {
				t.Errorf("MAP objective at the ML fit %v > at the MAP fit %v", post(plain.Hyper()), pp)
			}
		})
	}
}

// priorLogDensity returns the log prior density of h (standardized scale;
// the lengthscale divided by the unit width w > 0 first), the noise term
// omitted if fixedNoise; 0 for PriorNone.
func priorLogDensity(p Prior, h Hyper, w float64, fixedNoise bool) float64 {
	ps, err := newPriorSpec(p, w)
	if err != nil {
		panic(err)
	}
	if ps == nil {
		return 0
	}
	ps.fixedNoise = fixedNoise
	return ps.logDensity([3]float64{math.Log(h.Variance), math.Log(h.Lengthscale), math.Log(h.Noise)}, nil)
}
