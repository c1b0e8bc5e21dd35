package gp

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// brute computes the posterior mean and variance (standardized scale) with
// an explicit inverse of K + noise·I.
func brute(t *testing.T, k func(a, b []float64) float64, x *mat.Dense, ys []float64, noise float64, xs []float64) (mean, variance float64) {
	t.Helper()
	n, _ := x.Dims()
	K := mat.NewDense(n, n, nil)
	ks := mat.NewVecDense(n, nil)
	for i := range n {
		for j := range n {
			K.Set(i, j, k(x.RawRowView(i), x.RawRowView(j)))
		}
		K.Set(i, i, K.At(i, i)+noise)
		ks.SetVec(i, k(xs, x.RawRowView(i)))
	}
	var inv mat.Dense
	if err := inv.Inverse(K); err != nil {
		t.Fatal(err)
	}
	var a mat.VecDense
	a.MulVec(&inv, ks)
	mean = mat.Dot(&a, mat.NewVecDense(n, ys))
	variance = k(xs, xs) - mat.Dot(&a, ks)
	return mean, variance
}

func TestPosteriorBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 0))
	for _, tc := range []struct {
		name  string
		n, d  int
		h     Hyper
		abs   bool
		ratio float64
	}{
		{"n=1", 1, 2, Hyper{1.3, 0.7, 1e-3}, false, 0},
		{"n=8", 8, 3, Hyper{0.8, 1.1, 1e-2}, false, 0},
		{"n=20/abs", 20, 2, Hyper{2, 0.5, 1e-4}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := sample(rng, tc.n, tc.d)
			for i := range y {
				y[i] = 10 + 3*y[i]
			}
			g, err := New(tFamily{d: tc.d, abs: tc.abs}, x, y, tc.h, Options{})
			if err != nil {
				t.Fatal(err)
			}
			ys, mu, sc := standardize(y)
			if m, s := g.yMean, g.yScale; m != mu || s != sc {
				t.Fatalf("standardization %v %v, want %v %v", m, s, mu, sc)
			}
			kf := (&tRBF{v: tc.h.Variance, l: tc.h.Lengthscale, d: tc.d, abs: tc.abs}).f
			var ws Workspace
			for range 5 {
				xs := randMat(rng, 1, tc.d, -2.5, 2.5).RawRowView(0)
				bm, bv := brute(t, kf, x, ys, tc.h.Noise, xs)
				m, v, err := g.Predict(&ws, xs)
				if err != nil {
					t.Fatal(err)
				}
				wm, wv := mu+sc*bm, sc*sc*max(bv, 0)
				if math.Abs(m-wm) > 1e-8*(1+math.Abs(wm)) || math.Abs(v-wv) > 1e-8*(1+wv) {
					t.Errorf("at %v: got (%v, %v), brute force (%v, %v)", xs, m, v, wm, wv)
				}
			}
			// Log marginal likelihood against the dense formula.
			n := tc.n
			K := mat.NewSymDense(n, nil)
			for i := range n {
				for j := i; j < n; j++ {
					K.SetSym(i, j, kf(x.RawRowView(i), x.RawRowView(j)))
				}
				K.SetSym(i, i, K.At(i, i)+tc.h.Noise)
			}
			var inv mat.Dense
			if err := inv.Inverse(K); err != nil {
				t.Fatal(err)
			}
			yv := mat.NewVecDense(n, ys)
			var a mat.VecDense
			a.MulVec(&inv, yv)
			want := -0.5*mat.Dot(yv, &a) - 0.5*math.Log(mat.Det(K)) - 0.5*float64(n)*math.Log(2*math.Pi)
			if got := g.LogMarginal(); math.Abs(got-want) > 1e-8*(1+math.Abs(want)) {
				t.Errorf("log marginal %v, want %v", got, want)
			}
		})
	}
}

// fdCheck compares an analytic gradient with central differences.
func fdCheck(t *testing.T, name string, f func(x []float64) float64, x, grad []float64, h, tol float64) {
	t.Helper()
	xp := append([]float64(nil), x...)
	for i := range x {
		xp[i] = x[i] + h
		fp := f(xp)
		xp[i] = x[i] - h
		fm := f(xp)
		xp[i] = x[i]
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-grad[i]) > tol*(1+math.Abs(fd)) {
			t.Errorf("%s: component %d: analytic %v, finite difference %v", name, i, grad[i], fd)
		}
	}
}

func TestPredictGradFD(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 0))
	for _, abs := range []bool{false, true} {
		d := 3
		x, y := sample(rng, 15, d)
		g, err := New(tFamily{d: d, abs: abs}, x, y, Hyper{1.5, 0.9, 1e-3}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var ws Workspace
		dm, dv := make([]float64, d), make([]float64, d)
		for range 5 {
			xs := randMat(rng, 1, d, -2, 2).RawRowView(0)
			m, v, err := g.PredictGrad(&ws, xs, dm, dv)
			if err != nil {
				t.Fatal(err)
			}
			m2, v2, _ := g.Predict(&ws, xs)
			if m != m2 || v != v2 {
				t.Fatalf("PredictGrad (%v, %v) != Predict (%v, %v)", m, v, m2, v2)
			}
			mean := func(z []float64) float64 { m, _, _ := g.Predict(nil, z); return m }
			vr := func(z []float64) float64 { _, v, _ := g.Predict(nil, z); return v }
			fdCheck(t, "mean", mean, xs, dm, 1e-5, 1e-6)
			fdCheck(t, "variance", vr, xs, dv, 1e-5, 1e-6)
		}
	}
}

func TestInterpolates(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0))
	x, y := sample(rng, 10, 2)
	var prevErr float64 = math.Inf(1)
	for _, noise := range []float64{1e-2, 1e-5, 1e-8} {
		g, err := New(tFamily{d: 2}, x, y, Hyper{1, 1, noise}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var worst float64
		for i := range 10 {
			m, v, err := g.Predict(nil, x.RawRowView(i))
			if err != nil {
				t.Fatal(err)
			}
			worst = max(worst, math.Abs(m-y[i]), math.Sqrt(v))
		}
		if worst >= prevErr {
			t.Errorf("noise %g: error %g did not shrink from %g", noise, worst, prevErr)
		}
		prevErr = worst
	}
	if prevErr > 1e-3 {
		t.Errorf("noise 1e-8: interpolation error %g", prevErr)
	}
}

func TestDuplicatePoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 0))
	x, y := sample(rng, 6, 2)
	xd := mat.NewDense(12, 2, nil)
	yd := make([]float64, 12)
	for i := range 12 {
		xd.SetRow(i, x.RawRowView(i%6))
		yd[i] = y[i%6]
	}
	// Noise 0: K is singular and needs jitter.
	g, err := newKernelGP(&tRBF{v: 1, l: 1, d: 2}, xd, yd, 0, Options{})
	if err != nil {
		t.Fatalf("duplicates, noise 0: %v", err)
	}
	if g.Jitter() == 0 {
		t.Errorf("expected jitter for a singular Gram")
	}
	for i := range 6 {
		m, _, err := g.Predict(nil, x.RawRowView(i))
		if err != nil || math.Abs(m-y[i]) > 1e-3 {
			t.Errorf("point %d: mean %v (err %v), want %v", i, m, err, y[i])
		}
	}
	if _, err := Fit(tFamily{d: 2}, xd, yd, FitOptions{}); err != nil {
		t.Errorf("Fit with duplicates: %v", err)
	}
	if _, err := Fit(tFamily{d: 2}, xd, yd, FitOptions{FixNoise: true}); err != nil {
		t.Errorf("Fit with duplicates and fixed noise 0: %v", err)
	}
}

func TestConstantY(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 0))
	x := randMat(rng, 7, 2, -1, 1)
	y := []float64{4, 4, 4, 4, 4, 4, 4}
	g, err := Fit(tFamily{d: 2}, x, y, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, v, err := g.Predict(nil, []float64{0.3, -0.2})
	if err != nil || m != 4 || !(v >= 0) {
		t.Errorf("constant y: Predict = (%v, %v, %v), want mean 4", m, v, err)
	}
	// Values whose mean Σy/n is not exactly themselves (0.1·3/3 ≠ 0.1),
	// and values near the top of float64's range: scale 1 and the values
	// standardized to 0, not rounding noise blown up to unit scale (y ≡
	// 0.05 had a scale of 2.8e-17; y ≡ 1.7e308 one of 2e292, and Predict
	// overflowed), the same GP for every constant.
	var ref *GP
	for _, c := range []float64{4, 0.1, 0.05, 0.7, -3.3e-7, 1.7e308, -1e-200} {
		yc := []float64{c, c, c, c, c, c, c}
		g, err := New(tFamily{d: 2}, x, yc, Hyper{1, 1, 1e-6}, Options{})
		if err != nil {
			t.Fatalf("y ≡ %v: %v", c, err)
		}
		if z := g.Standardize(c); z != 0 {
			t.Errorf("y ≡ %v: Standardize(y) = %v, want 0", c, z)
		}
		m, v, err := g.Predict(nil, []float64{0.3, -0.2})
		if err != nil || m != c {
			t.Errorf("y ≡ %v: Predict = (%v, %v, %v), want mean %v", c, m, v, err, c)
		}
		if ref == nil {
			ref = g
		} else if _, v0, _ := ref.Predict(nil, []float64{0.3, -0.2}); v != v0 {
			t.Errorf("y ≡ %v: variance %v, y ≡ 4's %v", c, v, v0)
		}
	}
}

func TestNonFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 0))
	x, y := sample(rng, 5, 2)
	fam := tFamily{d: 2}
	h := Hyper{1, 1, 1e-3}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		xb := mat.DenseCopyOf(x)
		xb.Set(2, 1, bad)
		if _, err := New(fam, xb, y, h, Options{}); err == nil {
			t.Errorf("New with x = %v: no error", bad)
		}
		if _, err := Fit(fam, xb, y, FitOptions{}); err == nil {
			t.Errorf("Fit with x = %v: no error", bad)
		}
		yb := append([]float64(nil), y...)
		yb[3] = bad
		if _, err := New(fam, x, yb, h, Options{}); err == nil {
			t.Errorf("New with y = %v: no error", bad)
		}
		if _, err := Fit(fam, x, yb, FitOptions{}); err == nil {
			t.Errorf("Fit with y = %v: no error", bad)
		}
		g, err := New(fam, x, y, h, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := g.Predict(nil, []float64{0, bad}); err == nil {
			t.Errorf("Predict at %v: no error", bad)
		}
		if _, _, err := g.PredictGrad(nil, []float64{bad, 0}, nil, nil); err == nil {
			t.Errorf("PredictGrad at %v: no error", bad)
		}
		if _, err := New(fam, x, y, Hyper{bad, 1, 0}, Options{}); err == nil {
			t.Errorf("New with variance %v: no error", bad)
		}
	}
	if _, err := New(fam, x, y[:4], h, Options{}); err == nil {
		t.Errorf("length mismatch: no error")
	}
	if _, _, err := (func() (float64, float64, error) {
		g, _ := New(fam, x, y, h, Options{})
		return g.Predict(nil, []float64{1})
	})(); err == nil {
		t.Errorf("Predict with wrong length: no error")
	}
}

// bindCounter is a family that counts its Binds.
type bindCounter struct {
	Family
	binds *int
}

func (f bindCounter) Bind(x *mat.Dense) (Bound, error) {
	*f.binds++
	return f.Family.Bind(x)
}

// TestNewHugeCovariance: hyperparameters each finite whose covariance
// does not fit in a float64 are ErrInvalid, decided before the family is
// bound (no n×n matrix built). They were linalg.ErrNotFinite from the
// Cholesky (v = σ² = MaxFloat64: +Inf on the diagonal; v = MaxFloat64/4
// on 8 points with a duplicate: the jitter's mean diagonal summed to
// +Inf), linalg.ErrOverflow from k_plus's eigendecomposition, or an
// internal "not positive definite" from a landmark family. Outputs and
// inputs near MaxFloat64 with ordinary hyperparameters are not refused:
// they fit, with a finite likelihood.
func TestNewHugeCovariance(t *testing.T) {
	const M = math.MaxFloat64
	g2 := mustG(orbit.Hyperoctahedral(2))
	fams := map[string]Family{
		"base":     mustG(NewBaseFamily(kernel.RBF, 2)),
		"plus":     mustG(NewPlusFamily(kernel.RBF, g2, kernel.Options{}, kernel.PlusOptions{})),
		"landmark": mustG(NewLandmarkPlusFamily(kernel.RBF, g2, kernel.Options{}, kernel.PlusOptions{}, 4)),
	}
	rng := rand.New(rand.NewPCG(18, 2))
	x, y := sample(rng, 8, 2)
	x.SetRow(1, x.RawRowView(0)) // a duplicate: the Cholesky needs a jitter without noise
	for name, fam := range fams {
		for _, h := range []Hyper{{M, 1, M}, {M / 4, 1, 0}, {M / 2, 1, 1e-3}, {1e308, 1, 0.01}} {
			var binds int
			_, err := New(bindCounter{fam, &binds}, x, y, h, Options{})
			if !errors.Is(err, ErrInvalid) || errors.Is(err, linalg.ErrNotFinite) || errors.Is(err, linalg.ErrOverflow) || errclass.Of(err) != errclass.Input {
				t.Errorf("%s, %v: err = %v, want ErrInvalid", name, h, err)
			}
			if binds != 0 {
				t.Errorf("%s, %v: the family was bound %d times before the hyperparameters were refused", name, h, binds)
			}
		}
		// Just inside the bound: a GP, finite.
		g, err := New(fam, x, y, Hyper{M / 20, 1, 0}, Options{})
		if err != nil {
			t.Errorf("%s, variance MaxFloat64/20 on 8 points: %v", name, err)
		} else if lml := g.LogMarginal(); math.IsNaN(lml) || math.IsInf(lml, 0) {
			t.Errorf("%s, variance MaxFloat64/20 on 8 points: log marginal likelihood %v", name, lml)
		}
		// Outputs and inputs near MaxFloat64, ordinary hyperparameters.
		yb := append([]float64(nil), y...)
		yb[0], yb[1], yb[2] = M, -M, 1e308
		xb := mat.DenseCopyOf(x)
		xb.SetRow(3, []float64{M, -M})
		xb.SetRow(4, []float64{-1e308, 1e308})
		for _, d := range []struct {
			x *mat.Dense
			y []float64
		}{{x, yb}, {xb, y}, {xb, yb}} {
			g, err := New(fam, d.x, d.y, Hyper{1, 1, 1e-2}, Options{})
			if err != nil {
				t.Errorf("%s, data near MaxFloat64: %v", name, err)
			} else if lml := g.LogMarginal(); math.IsNaN(lml) || math.IsInf(lml, 0) {
				t.Errorf("%s, data near MaxFloat64: log marginal likelihood %v", name, lml)
			}
		}
	}
}

// indefinite is a family whose "correlation" is not PSD.
type indefinite struct{}

func (indefinite) Dim() int { return 1 }
func (indefinite) Bind(x *mat.Dense) (Bound, error) {
	n, _ := x.Dims()
	return &indefBound{tBound{f: tFamily{d: 1}, x: mat.DenseCopyOf(x)}, n}, nil
}

type indefBound struct {
	tBound
	n int
}

func (b *indefBound) CorrTo(dst, dLog *mat.SymDense, l float64) error {
	if dst.IsEmpty() {
		dst.ReuseAsSym(b.n)
	}
	for i := range b.n {
		for j := i; j < b.n; j++ {
			dst.SetSym(i, j, 1) // all ones …
		}
	}
	dst.SetSym(0, 1, -1) // … but one sign wrong: indefinite
	if dLog != nil {
		dLog.Zero()
	}
	return nil
}

func TestNotPositiveDefinite(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{0, 1, 2})
	y := []float64{1, 2, 3}
	obj := newObjective(indefinite{}.mustBind(x), linalg.Gonum(), y)
	_, err := obj.eval([3]float64{0, 0, math.Log(1e-12)}, nil)
	if !errors.Is(err, linalg.ErrNotPositiveDefinite) {
		t.Errorf("indefinite covariance: err = %v, want ErrNotPositiveDefinite", err)
	}
	if _, err := newKernelGP(&tRBF{v: -1, l: 1, d: 1}, x, y, 0, Options{}); !errors.Is(err, linalg.ErrNotPositiveDefinite) {
		t.Errorf("negative variance: err = %v, want ErrNotPositiveDefinite", err)
	}
}

func (f indefinite) mustBind(x *mat.Dense) Bound {
	b, _ := f.Bind(x)
	return b
}

func TestObjectiveGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	x, y := sample(rng, 12, 2)
	ys, _, _ := standardize(y)
	b, _ := tFamily{d: 2}.Bind(x)
	obj := newObjective(b, linalg.Gonum(), ys)
	for _, th := range [][3]float64{{0, 0, math.Log(1e-2)}, {0.5, -0.7, math.Log(1e-4)}, {-1, 1, -1}} {
		var g [3]float64
		if _, err := obj.eval(th, g[:]); err != nil {
			t.Fatal(err)
		}
		f := func(z []float64) float64 {
			l, err := obj.eval([3]float64{z[0], z[1], z[2]}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		fdCheck(t, "lml", f, th[:], g[:], 1e-5, 1e-6)
	}
}

func TestFit(t *testing.T) {
	for _, m := range []fitMethod{fitProfile, fitBFGS} {
		t.Run(m.String(), func(t *testing.T) { testFit(t, m) })
	}
}

func testFit(t *testing.T, method fitMethod) {
	rng := rand.New(rand.NewPCG(8, 0))
	x, y := sample(rng, 25, 2)
	for i := range y {
		y[i] += 0.05 * rng.NormFloat64()
	}
	fam := tFamily{d: 2}
	g1, err := Fit(fam, x, y, FitOptions{Seed: 3, method: method})
	if err != nil {
		t.Fatal(err)
	}
	info := g1.fit
	if len(info.Starts) < 3 || info.Gradient != (method == fitBFGS) {
		t.Fatalf("fit info %+v", info)
	}
	ys, _, _ := standardize(y)
	b, _ := fam.Bind(x)
	obj := newObjective(b, linalg.Gonum(), ys)
	lml := func(h Hyper) float64 {
		l, err := obj.eval([3]float64{math.Log(h.Variance), math.Log(h.Lengthscale), math.Log(h.Noise)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	best := lml(g1.Hyper())
	if math.Abs(best-g1.LogMarginal()) > 1e-9*math.Abs(best) {
		t.Errorf("GP log marginal %v, objective %v", g1.LogMarginal(), best)
	}
	for i, s := range info.Starts {
		if s.Err != nil {
			t.Errorf("start %d: %v", i, s.Err)
			continue
		}
		if lml(s.From) > s.LogMarginal+1e-9*max(1, math.Abs(s.LogMarginal)) {
			t.Errorf("start %d got worse: %v → %v", i, lml(s.From), s.LogMarginal)
		}
		if s.LogMarginal > best+1e-9*max(1, math.Abs(best)) {
			t.Errorf("start %d has %v > chosen %v", i, s.LogMarginal, best)
		}
	}
	// A local maximum: perturbing any log-hyperparameter does not help.
	h := g1.Hyper()
	for _, eps := range []float64{-1e-3, 1e-3} {
		for j := range 3 {
			p := h
			switch j {
			case 0:
				p.Variance *= math.Exp(eps)
			case 1:
				p.Lengthscale *= math.Exp(eps)
			case 2:
				p.Noise *= math.Exp(eps)
			}
			if p.Noise < defaultNoiseMin {
				continue
			}
			if l := lml(p); l > best+1e-6 {
				t.Errorf("perturbing θ_%d by %g improves %v → %v", j, eps, best, l)
			}
		}
	}
	// Deterministic.
	g2, err := Fit(fam, x, y, FitOptions{Seed: 3, method: method})
	if err != nil {
		t.Fatal(err)
	}
	if g1.Hyper() != g2.Hyper() {
		t.Errorf("refit differs: %+v vs %+v", g1.Hyper(), g2.Hyper())
	}
	// Warm start from the optimum; fixed noise is respected.
	prev := g1.Hyper()
	g3, err := Fit(fam, x, y, FitOptions{Seed: 4, Init: &prev, FixNoise: true, Noise: 0.01, method: method})
	if err != nil {
		t.Fatal(err)
	}
	sc := g3.yScale
	if got := g3.Hyper().Noise * sc * sc; math.Abs(got-0.01) > 1e-12 {
		t.Errorf("fixed noise: got %v, want 0.01", got)
	}
	if n := len(g3.fit.Starts); n != 4 && method == fitBFGS {
		t.Errorf("%d starts with Init, want 4", n)
	}
	// Base mode and derivative-free fallback.
	g4, err := Fit(tFamily{d: 2, abs: true}, x, y, FitOptions{Mode: ModeBase, Seed: 3, method: method})
	if err != nil {
		t.Fatal(err)
	}
	if g4.Hyper() != g1.Hyper() {
		t.Errorf("ModeBase hyper %+v, want the base fit %+v", g4.Hyper(), g1.Hyper())
	}
	g5, err := Fit(tFamily{d: 2, noDer: true}, x, y, FitOptions{method: method})
	if err != nil {
		t.Fatal(err)
	}
	if g5.fit.Gradient {
		t.Errorf("no-derivative family fitted with gradients")
	}
	if g5.LogMarginal() < best-1e-3 {
		t.Errorf("derivative-free fit %v, gradient fit %v", g5.LogMarginal(), best)
	}
}

func TestPredictAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 0))
	x, y := sample(rng, 20, 3)
	g, err := New(tFamily{d: 3}, x, y, Hyper{1, 1, 1e-3}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ws Workspace
	xs := []float64{0.1, 0.2, -0.3}
	dm, dv := make([]float64, 3), make([]float64, 3)
	if _, _, err := g.PredictGrad(&ws, xs, dm, dv); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(50, func() { g.Predict(&ws, xs) }); a != 0 {
		t.Errorf("Predict allocates %v", a)
	}
	if a := testing.AllocsPerRun(50, func() { g.PredictGrad(&ws, xs, dm, dv) }); a != 0 {
		t.Errorf("PredictGrad allocates %v", a)
	}
}

func TestFitAllStartsFail(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{0, 1, 2})
	y := []float64{1, 2, 3}
	_, err := Fit(indefinite{}, x, y, FitOptions{FixNoise: true})
	if !errors.Is(err, linalg.ErrNotPositiveDefinite) {
		t.Errorf("Fit of an indefinite family: err = %v, want ErrNotPositiveDefinite", err)
	}
}

func TestFitTiny(t *testing.T) {
	for _, n := range []int{1, 2} {
		x := mat.NewDense(n, 2, nil)
		y := make([]float64, n)
		for i := range n {
			x.Set(i, 0, float64(i))
			y[i] = float64(3 * i)
		}
		g, err := Fit(tFamily{d: 2}, x, y, FitOptions{})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		m, v, err := g.Predict(nil, []float64{0, 0})
		if err != nil || math.IsNaN(m) || math.IsNaN(v) {
			t.Errorf("n=%d: Predict = (%v, %v, %v)", n, m, v, err)
		}
	}
}

// TestNewTinyCovarianceJitter (red team): a covariance so small that the
// jitter cannot lift it — variance near the smallest float64 and no
// noise, so jitterMax × the mean diagonal is 0 or subnormal — is
// ErrOverflow (an input error: raise the variance or the noise), as the
// package's Errors section says of a covariance near the smallest
// float64, for exact and landmark GPs alike. It was
// linalg.ErrNotPositiveDefinite (internal) "even with jitter 0": the
// exact base and k_plus GPs at v = 5e-324, the landmark ones from
// v = 1e-320, where the exact GPs already said ErrOverflow. The error
// still wraps linalg.ErrNotPositiveDefinite. k_avg over
// hyperoctahedral(2) at those variances has a diagonal that underflows to
// 0 (v/|G| per term), which was "covariance has mean diagonal 0"
// (linalg.ErrNotPositiveDefinite alone, internal) until the exact GP's
// jitter took a zero mean diagonal as the zero jitter it gives.
func TestNewTinyCovarianceJitter(t *testing.T) {
	const d = 2
	g2 := mustG(orbit.Hyperoctahedral(d))
	base := mustG(NewBaseFamily(kernel.RBF, d))
	fams := map[string]Family{
		"base":          base,
		"plus":          mustG(NewPlusFamily(kernel.RBF, g2, kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()})),
		"landmark-plus": mustG(NewLandmarkPlusFamily(kernel.Matern52, g2, kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}, 2)),
		"landmark-base": mustG(NewLandmarkFamily(base, 2, LandmarkOptions{})),
		"avg":           mustG(NewAvgFamily(kernel.RBF, g2, kernel.Options{})),
	}
	rng := rand.New(rand.NewPCG(3, 2))
	x := randMat(rng, 5, d, -1, 1)
	y := []float64{1, 2, 3, 4, 0}
	for name, fam := range fams {
		for _, v := range []float64{5e-324, 1e-320} {
			for _, mean := range []Mean{MeanSample, MeanConstant} {
				g, err := New(fam, x, y, Hyper{Variance: v, Lengthscale: 1}, Options{Backend: linalg.Gonum(), Mean: mean})
				if !errors.Is(err, ErrOverflow) || errclass.Of(err) != errclass.Input {
					lml := math.NaN()
					if g != nil {
						lml = g.LogMarginal()
					}
					t.Errorf("%s, v = %g, mean %v: err = %v (class %v, log marginal %v), want ErrOverflow", name, v, mean, err, errclass.Of(err), lml)
				}
			}
		}
	}
}

// TestFitInputsApartByRounding: inputs that differ only by rounding (one
// ulp) are fitted as equal inputs are, by Fit and FitClasses alike. Their
// data scale was their bounding box's diagonal, 5.6e-17, which put the
// lengthscale bounds near [5.6e-20, 5.6e-14], where equal inputs get
// [1e-3, 1e3]: the fit then took every other point of the space as
// uncorrelated with the data (through bo: a flat acquisition).
func TestFitInputsApartByRounding(t *testing.T) { checkApartByRounding(t, 2) }

// checkApartByRounding fits four points, two pairs either equal or one
// ulp apart in their first coordinate, under BoTorch's prior at
// PriorScale priorScale, by Fit and FitClassLengthscales, and fails
// unless both give the same lengthscales to 1e-6 either way.
func checkApartByRounding(t *testing.T, priorScale float64) {
	t.Helper()
	fam, err := NewBaseFamily(kernel.Matern52, 2)
	if err != nil {
		t.Fatal(err)
	}
	y := []float64{0, 1, 0, 1}
	fit := func(second float64) (Hyper, []float64) {
		x := mat.NewDense(4, 2, []float64{0.3, 0.4, second, 0.4, 0.3, 0.4, second, 0.4})
		g, err := Fit(fam, x, y, FitOptions{Prior: PriorBoTorch, PriorScale: priorScale})
		if err != nil {
			t.Fatal(err)
		}
		ls, err := FitClassLengthscales(kernel.Matern52, []int{0, 1}, x, y, ClassFitOptions{Prior: PriorBoTorch, PriorScale: priorScale})
		if err != nil {
			t.Fatal(err)
		}
		return g.Hyper(), ls
	}
	same, sameLs := fit(0.3)
	apart, apartLs := fit(math.Nextafter(0.3, 1))
	if r := apart.Lengthscale / same.Lengthscale; math.Abs(r-1) > 1e-6 {
		t.Errorf("inputs one ulp apart: ℓ = %v, equal inputs: ℓ = %v", apart.Lengthscale, same.Lengthscale)
	}
	for c := range sameLs {
		if r := apartLs[c] / sameLs[c]; math.Abs(r-1) > 1e-6 {
			t.Errorf("class %d one ulp apart: ℓ = %v, equal: ℓ = %v", c, apartLs[c], sameLs[c])
		}
	}
}

// TestPriorScaleApartByRounding: with a prior and PriorScale 0, the
// prior's box width is the inputs' largest side (maxSide), which treats
// inputs that differ only by rounding as coinciding (width 1), as
// dataScale does for the bounds: one ulp apart, the width was 5.6e-17,
// the prior's lengthscale centred near 1e-16, and the fit went to the
// lower bound (ℓ = 1e-3 against 0.67 for equal inputs), by Fit and
// FitClasses alike.
func TestPriorScaleApartByRounding(t *testing.T) { checkApartByRounding(t, 0) }

// TestFitLengthscaleBoundsOutsideRange: lengthscale bounds that lie
// wholly outside [kernel.MinLengthscale, kernel.MaxLengthscale] are
// refused up front, naming the range (every start failed, later, with a
// message about the starts); bounds that meet the range, or malformed
// ones, are as before.
func TestFitLengthscaleBoundsOutsideRange(t *testing.T) {
	x, y := sample(rand.New(rand.NewPCG(5, 6)), 12, 2)
	fam := mustG(NewBaseFamily(kernel.RBF, 2))
	for _, b := range [][2]float64{{1e-200, 1e-190}, {1e160, 1e170}} {
		_, err := Fit(fam, x, y, FitOptions{Seed: 1, LengthscaleBounds: b})
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "outside the range kernels accept") {
			t.Errorf("bounds %v: %v, want ErrInvalid naming the kernels' range", b, err)
		}
	}
	if _, err := Fit(fam, x, y, FitOptions{Seed: 1, LengthscaleBounds: [2]float64{0.5, 0.25}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("bounds [0.5, 0.25]: %v, want ErrInvalid", err)
	}
	g, err := Fit(fam, x, y, FitOptions{Seed: 1, LengthscaleBounds: [2]float64{0.05, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if l := g.Hyper().Lengthscale; !(l >= 0.05 && l <= 5) {
		t.Errorf("bounds [0.05, 5]: ℓ = %v", l)
	}
}
