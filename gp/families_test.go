package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

type famCase struct {
	name  string
	fam   Family
	group orbit.Finite // nil for base
}

func mustG[G any](g G, err error) G {
	if err != nil {
		panic(err)
	}
	return g
}

func realFamilies(t *testing.T, d int) []famCase {
	t.Helper()
	var out []famCase
	be := linalg.Gonum()
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		out = append(out, famCase{"base/" + s.String(), mustG(NewBaseFamily(s, d)), nil})
	}
	groups := []orbit.Finite{
		mustG(orbit.SignFlip(d)), mustG(orbit.Permutation(d)),
		mustG(orbit.Hyperoctahedral(d)), mustG(orbit.Cyclic(d)),
	}
	for _, g := range groups {
		out = append(out,
			famCase{"max/matern52/" + g.Name(), mustG(NewMaxFamily(kernel.Matern52, g, kernel.Options{})), g},
			famCase{"plus/matern52/" + g.Name(), mustG(NewPlusFamily(kernel.Matern52, g, kernel.Options{}, kernel.PlusOptions{Backend: be})), g},
			famCase{"avg/rbf/" + g.Name(), mustG(NewAvgFamily(kernel.RBF, g, kernel.Options{})), g},
		)
	}
	// Enumerated orbit distance: hide the Distancer.
	out = append(out, famCase{"max/rbf/enum-cyclic", mustG(NewMaxFamily(kernel.RBF, finiteOnly{groups[3]}, kernel.Options{})), groups[3]})
	return out
}

// finiteOnly hides every method but orbit.Finite's.
type finiteOnly struct{ orbit.Finite }

// TestFamilyMatchesKernel: v·CorrTo on x×x equals the Gram of the kernel
// used for prediction.
func TestFamilyMatchesKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 0))
	d, n := 3, 9
	x := randMat(rng, n, d, -1, 1)
	for _, tc := range realFamilies(t, d) {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.fam.Bind(x)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range []float64{0.3, 1.2} {
				v := 1.7
				var c mat.SymDense
				if err := b.CorrTo(&c, nil, l); err != nil {
					t.Fatal(err)
				}
				k, err := b.Kernel(v, l)
				if err != nil {
					t.Fatal(err)
				}
				var kk mat.SymDense
				kk.ReuseAsSym(n)
				if err := gramTo(k, &kk, x); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					for j := range n {
						if w, g := kk.At(i, j), v*c.At(i, j); math.Abs(w-g) > 1e-9 {
							t.Fatalf("ℓ=%v (%d,%d): v·C = %v, kernel %v", l, i, j, g, w)
						}
					}
				}
			}
		})
	}
}

// TestFamilyDerivative: ∂C/∂log ℓ against central differences.
func TestFamilyDerivative(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	d, n := 3, 12
	x := randMat(rng, n, d, -1, 1)
	for _, tc := range realFamilies(t, d) {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.fam.Bind(x)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range []float64{0.25, 0.8, 2} {
				var c, dc, cp, cm mat.SymDense
				if err := b.CorrTo(&c, &dc, l); err != nil {
					t.Fatal(err)
				}
				h := 1e-5
				if err := b.CorrTo(&cp, nil, l*math.Exp(h)); err != nil {
					t.Fatal(err)
				}
				if err := b.CorrTo(&cm, nil, l*math.Exp(-h)); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					for j := range n {
						fd := (cp.At(i, j) - cm.At(i, j)) / (2 * h)
						if math.Abs(fd-dc.At(i, j)) > 1e-6 {
							t.Fatalf("ℓ=%v (%d,%d): ∂C/∂log ℓ = %v, finite difference %v", l, i, j, dc.At(i, j), fd)
						}
					}
				}
			}
		})
	}
}

// TestPlusClipsAndDerivative exercises Daleckii–Krein on a design where
// k_max(D, D) has negative eigenvalues that the projection removes.
func TestPlusClipsAndDerivative(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 0))
	d, n := 4, 30
	g := mustG(orbit.Cyclic(d))
	fam := mustG(NewPlusFamily(kernel.Matern12, g, kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}))
	x := randMat(rng, n, d, -1, 1)
	b, err := fam.Bind(x)
	if err != nil {
		t.Fatal(err)
	}
	l := 1.5
	k, err := b.Kernel(1, l)
	if err != nil {
		t.Fatal(err)
	}
	ev := k.(*kernel.Plus).Eigenvalues()
	if !(ev[0] < -1e-8) {
		t.Skipf("design has no clearly negative eigenvalue (min %v): test not exercising the clip", ev[0])
	}
	for i := range ev {
		if math.Abs(ev[i]) < 1e-6 {
			t.Fatalf("eigenvalue %v too close to 0 for a finite-difference check", ev[i])
		}
	}
	var c, dc, cp, cm mat.SymDense
	if err := b.CorrTo(&c, &dc, l); err != nil {
		t.Fatal(err)
	}
	h := 1e-5
	_ = b.CorrTo(&cp, nil, l*math.Exp(h))
	_ = b.CorrTo(&cm, nil, l*math.Exp(-h))
	var worst, scale float64
	for i := range n {
		for j := range n {
			fd := (cp.At(i, j) - cm.At(i, j)) / (2 * h)
			worst = max(worst, math.Abs(fd-dc.At(i, j)))
			scale = max(scale, math.Abs(fd))
		}
	}
	if worst > 1e-6*(1+scale) {
		t.Errorf("Daleckii–Krein derivative off by %v (scale %v)", worst, scale)
	}
	// The naive derivative (unclipped ∂k_max) differs: the test can fail.
	var m, dm mat.SymDense
	corrTo(kernel.Matern12, b.(*plusBound).dist, &m, &dm, l)
	var diff float64
	for i := range n {
		for j := range n {
			diff = max(diff, math.Abs(dm.At(i, j)-dc.At(i, j)))
		}
	}
	if diff < 1e-4 {
		t.Errorf("clipped and unclipped derivatives agree to %v: clip not exercised", diff)
	}
}

// TestObjectiveGradientFamilies checks ∂lml/∂θ for the real families.
func TestObjectiveGradientFamilies(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 0))
	d := 3
	x, y := sample(rng, 14, d)
	ys, _, _ := standardize(y)
	for _, tc := range realFamilies(t, d) {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.fam.Bind(x)
			if err != nil {
				t.Fatal(err)
			}
			obj := newObjective(b, linalg.Gonum(), ys)
			th := [3]float64{0.3, math.Log(0.7), math.Log(1e-2)}
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
			fdCheck(t, "lml", f, th[:], g[:], 1e-5, 1e-5)
		})
	}
}

// TestInvariantPosterior: for invariant kernels the posterior at g·x equals
// that at x (mean, variance and, for gradients, g applied to them is not
// checked: only values).
func TestInvariantPosterior(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 0))
	d := 3
	x, y := sample(rng, 15, d)
	for _, tc := range realFamilies(t, d) {
		if tc.group == nil {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			g, err := Fit(tc.fam, x, y, FitOptions{Seed: 1, Backend: linalg.Gonum()})
			if err != nil {
				t.Fatal(err)
			}
			size, _ := orbit.Size(tc.group)
			var ws Workspace
			gx := make([]float64, d)
			for range 4 {
				xs := randMat(rng, 1, d, -2, 2).RawRowView(0)
				m0, v0, err := g.Predict(&ws, xs)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range []int{1, size / 2, size - 1} {
					tc.group.ActTo(gx, xs, e)
					m1, v1, err := g.Predict(&ws, gx)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(m1-m0) > 1e-8*(1+math.Abs(m0)) || math.Abs(v1-v0) > 1e-8*(1+v0) {
						t.Errorf("g_%d·x: (%v, %v), x: (%v, %v)", e, m1, v1, m0, v0)
					}
				}
			}
		})
	}
}

// TestPredictGradFamilies checks PredictGrad against finite differences
// for the real kernels (at generic points, where max/plus are smooth).
func TestPredictGradFamilies(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 0))
	d := 3
	x, y := sample(rng, 12, d)
	for _, tc := range realFamilies(t, d) {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(tc.fam, x, y, Hyper{1.2, 0.9, 1e-3}, Options{Backend: linalg.Gonum()})
			if err != nil {
				t.Fatal(err)
			}
			var ws Workspace
			dm, dv := make([]float64, d), make([]float64, d)
			for range 3 {
				xs := randMat(rng, 1, d, -2, 2).RawRowView(0)
				if _, _, err := g.PredictGrad(&ws, xs, dm, dv); err != nil {
					t.Fatal(err)
				}
				mean := func(z []float64) float64 { m, _, _ := g.Predict(nil, z); return m }
				vr := func(z []float64) float64 { _, v, _ := g.Predict(nil, z); return v }
				fdCheck(t, "mean", mean, xs, dm, 1e-6, 1e-5)
				fdCheck(t, "variance", vr, xs, dv, 1e-6, 1e-5)
			}
		})
	}
}

func TestPredictAllocsReal(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	rng := rand.New(rand.NewPCG(16, 0))
	d := 4
	x, y := sample(rng, 30, d)
	for _, tc := range realFamilies(t, d) {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(tc.fam, x, y, Hyper{1, 0.5, 0.1}, Options{Backend: linalg.Gonum()})
			if err != nil {
				t.Fatal(err)
			}
			var ws Workspace
			xs := []float64{0.1, 0.2, -0.3, 0.5}
			dm, dv := make([]float64, d), make([]float64, d)
			if _, _, err := g.PredictGrad(&ws, xs, dm, dv); err != nil {
				t.Fatal(err)
			}
			a := testing.AllocsPerRun(20, func() { g.PredictGrad(&ws, xs, dm, dv) })
			// What the kernel itself allocates for the same calls: gp must
			// add nothing (0 in total once the kernel's single-point paths
			// are allocation-free).
			k := g.Kernel()
			gr := k.(kernel.Gradienter)
			ka := testing.AllocsPerRun(20, func() {
				k.CrossTo(ws.ks, ws.xr, g.x)
				k.DiagTo(ws.diag, ws.xr)
				gr.GradTo(ws.gr, xs, g.x)
				if !g.constDiag {
					gr.GradTo(ws.gd, xs, ws.xr)
				}
			})
			if a > ka {
				t.Errorf("PredictGrad allocates %v, the kernel calls alone %v", a, ka)
			}
			if ka != 0 {
				t.Logf("kernel %T allocates %v per prediction (gp adds none)", k, ka)
			}
		})
	}
}

func BenchmarkFit(b *testing.B) {
	rng := rand.New(rand.NewPCG(17, 0))
	d, n := 5, 55
	x, y := sample(rng, n, d)
	fams := []struct {
		name string
		fam  Family
	}{
		{"base", mustG(NewBaseFamily(kernel.Matern52, d))},
		{"max", mustG(NewMaxFamily(kernel.Matern52, mustG(orbit.Hyperoctahedral(d)), kernel.Options{}))},
		{"plus", mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Hyperoctahedral(d)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}))},
		{"avg", mustG(NewAvgFamily(kernel.RBF, mustG(orbit.SignFlip(d)), kernel.Options{}))},
	}
	for _, f := range fams {
		for _, m := range []fitMethod{fitProfile, fitBFGS} {
			b.Run(fmt.Sprintf("kernel=%s/n=%d/d=%d/method=%s", f.name, n, d, m), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					g, err := Fit(f.fam, x, y, FitOptions{Backend: linalg.Gonum(), method: m})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(g.fit.Evaluations), "evals/op")
				}
			})
		}
	}
}

// TestFitNonPSDMax: k_max for a group outside Proposition 1 may be
// indefinite; Fit must still succeed (noise keeps K definite) and the
// result must be a usable GP.
func TestFitNonPSDMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 0))
	d := 4
	x, y := sample(rng, 30, d)
	g := mustG(orbit.Cyclic(d))
	for _, mode := range []Mode{ModeOwn, ModeBase} {
		fam := mustG(NewMaxFamily(kernel.Matern12, g, kernel.Options{}))
		gp, err := Fit(fam, x, y, FitOptions{Mode: mode, Backend: linalg.Gonum()})
		if err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		if _, _, err := gp.Predict(nil, x.RawRowView(0)); err != nil || math.IsNaN(gp.LogMarginal()) {
			t.Errorf("%v: predict err %v, lml %v", mode, err, gp.LogMarginal())
		}
	}
}

// TestModeBaseReal: ModeBase reuses the base kernel's fitted
// hyperparameters in max and plus.
func TestModeBaseReal(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 0))
	d := 3
	x, y := sample(rng, 20, d)
	opts := FitOptions{Seed: 5, Backend: linalg.Gonum()}
	base, err := Fit(mustG(NewBaseFamily(kernel.Matern52, d)), x, y, opts)
	if err != nil {
		t.Fatal(err)
	}
	g := mustG(orbit.Hyperoctahedral(d))
	opts.Mode = ModeBase
	for _, fam := range []Family{
		mustG(NewMaxFamily(kernel.Matern52, g, kernel.Options{})),
		mustG(NewPlusFamily(kernel.Matern52, g, kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()})),
	} {
		gp, err := Fit(fam, x, y, opts)
		if err != nil {
			t.Fatal(err)
		}
		if gp.Hyper() != base.Hyper() {
			t.Errorf("%T: ModeBase hyper %+v, base fit %+v", fam, gp.Hyper(), base.Hyper())
		}
		if _, ok := gp.Kernel().(*kernel.Max); !ok {
			if _, ok := gp.Kernel().(*kernel.Plus); !ok {
				t.Errorf("ModeBase GP uses kernel %T", gp.Kernel())
			}
		}
	}
}

// TestPredictFarAway: far from the data every family's posterior reverts
// to the prior (mean μ, variance k(x, x) + noise, zero gradients); at
// (1e200, 1e200) the plus family returned NaN with a nil error.
func TestPredictFarAway(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 0))
	d := 3
	x, y := sample(rng, 12, d)
	for _, tc := range realFamilies(t, d) {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(tc.fam, x, y, Hyper{1.2, 0.9, 1e-3}, Options{Backend: linalg.Gonum()})
			if err != nil {
				t.Fatal(err)
			}
			var ws Workspace
			dm, dv := make([]float64, d), make([]float64, d)
			for _, far := range [][]float64{{1e200, 1e200, 1e200}, {1e150, -1e150, 3}, {1e6, 0, 0}} {
				m, v, err := g.PredictGrad(&ws, far, dm, dv)
				if err != nil {
					continue // a clear error is acceptable
				}
				bad := math.IsNaN(m) || math.IsNaN(v) || math.IsInf(m, 0) || math.IsInf(v, 0) || v < 0
				for k := range d {
					bad = bad || math.IsNaN(dm[k]) || math.IsNaN(dv[k]) || math.IsInf(dm[k], 0) || math.IsInf(dv[k], 0)
				}
				if bad {
					t.Errorf("PredictGrad(%v) = %g, %g, ∇ %v %v with a nil error", far, m, v, dm, dv)
				}
			}
		})
	}
}

// TestNystromIsBaseLessResidual: with the observed points as its design,
// the Nyström kernel (k_plus over the trivial group) reproduces the base
// Gram on them, so its GP has the base GP's likelihood and posterior mean
// at every x, and a predictive variance smaller by the residual
// k(x, x) − k_ny(x, x) ≥ 0: equal at the observations, smaller between
// them, and less than half of it 0.9 per coordinate away. The base GP is the oracle; the design's
// Gram has full numerical rank here (30 points in [−2, 2]^d, d ≥ 5, ℓ =
// 1.5), so the projection drops no eigenvalue.
func TestNystromIsBaseLessResidual(t *testing.T) {
	trivialFor := func(d int) orbit.Group {
		g, err := orbit.Trivial(d)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, d := range []int{5, 8} {
		rng := rand.New(rand.NewPCG(uint64(d), 43))
		x, y := sample(rng, 30, d)
		base, err := NewBaseFamily(kernel.RBF, d)
		if err != nil {
			t.Fatal(err)
		}
		ny, err := NewPlusFamily(kernel.RBF, trivialFor(d), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()})
		if err != nil {
			t.Fatal(err)
		}
		h, opts := Hyper{Variance: 1.3, Lengthscale: 1.5, Noise: 1e-2}, Options{Backend: linalg.Gonum()}
		gb, err := New(base, x, y, h, opts)
		if err != nil {
			t.Fatal(err)
		}
		gn, err := New(ny, x, y, h, opts)
		if err != nil {
			t.Fatal(err)
		}
		if lb, ln := gb.LogMarginal(), gn.LogMarginal(); math.Abs(lb-ln) > 1e-8*math.Abs(lb) {
			t.Errorf("d=%d: log marginal likelihood base %v, nystrom %v", d, lb, ln)
		}
		var wb, wn Workspace
		for k := range 40 {
			q := append([]float64(nil), x.RawRowView(k%30)...)
			off := 0.1 * float64(k/10) * 3 // 0 at the observations, then 0.3, 0.6, 0.9 per coordinate
			for j := range q {
				q[j] += off * (2*rng.Float64() - 1)
			}
			mb, vb, err := gb.Predict(&wb, q)
			if err != nil {
				t.Fatal(err)
			}
			mn, vn, err := gn.Predict(&wn, q)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(mb-mn) > 1e-10*max(1, math.Abs(mb)) {
				t.Errorf("d=%d, offset %g: mean base %v, nystrom %v", d, off, mb, mn)
			}
			if vn > vb+1e-9 {
				t.Errorf("d=%d, offset %g: variance nystrom %v above base %v", d, off, vn, vb)
			}
			if off == 0 && math.Abs(vb-vn) > 1e-7 {
				t.Errorf("d=%d, at an observation: variance base %v, nystrom %v", d, vb, vn)
			}
			if off >= 0.9 && !(vn < 0.5*vb) {
				t.Errorf("d=%d, offset %g: variance nystrom %v, base %v: the residual is not the larger half", d, off, vn, vb)
			}
		}
	}
}

// TestHugeOutputs: outputs of any finite magnitude (issue: |y| ≳ 1.3e154
// overflowed the standardization; the plus family's zero variance far from
// the data came back as scale²·0 = Inf·0 = NaN with a nil error). Scaling
// y by 2ᵏ is exact, so every prediction of the scaled fit is 2ᵏ (mean) and
// 4ᵏ (variance) times the unscaled one, bit for bit, or ErrOverflow —
// never NaN or ±Inf with a nil error.
func TestHugeOutputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 0))
	d := 3
	x, y := sample(rng, 10, d)
	pts := [][]float64{{0.3, -0.2, 1}, x.RawRowView(4), {1e200, 1e200, 1e200}}
	for _, tc := range realFamilies(t, d) {
		t.Run(tc.name, func(t *testing.T) {
			ref, err := New(tc.fam, x, y, Hyper{1.2, 0.9, 1e-3}, Options{Backend: linalg.Gonum()})
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []int{512, 700, 1000, 1020} { // |y|·2ᵏ from ~1e154 to ~1e307
				yk := make([]float64, len(y))
				for i, v := range y {
					yk[i] = math.Ldexp(v, k)
				}
				g, err := New(tc.fam, x, yk, Hyper{1.2, 0.9, 1e-3}, Options{Backend: linalg.Gonum()})
				if err != nil {
					t.Fatalf("2^%d: %v", k, err)
				}
				for _, p := range pts {
					m0, v0, err0 := ref.PredictGrad(nil, p, make([]float64, d), make([]float64, d))
					dm, dv := make([]float64, d), make([]float64, d)
					m, v, err := g.PredictGrad(nil, p, dm, dv)
					if err0 != nil {
						continue // far points: a clear error is acceptable
					}
					if err != nil {
						if !errors.Is(err, ErrOverflow) {
							t.Errorf("2^%d at %v: error %v, want ErrOverflow", k, p, err)
						}
						continue
					}
					if m != math.Ldexp(m0, k) || v != math.Ldexp(v0, 2*k) {
						t.Errorf("2^%d at %v: mean %g, variance %g; want %g, %g", k, p, m, v, math.Ldexp(m0, k), math.Ldexp(v0, 2*k))
					}
					for j := range d {
						if !isFinite(dm[j]) || !isFinite(dv[j]) {
							t.Errorf("2^%d at %v: gradients %v %v with a nil error", k, p, dm, dv)
						}
					}
					if pm, pv, err := g.Predict(nil, p); err != nil || pm != m || pv != v {
						t.Errorf("2^%d at %v: Predict %g, %g, %v; PredictGrad %g, %g", k, p, pm, pv, err, m, v)
					}
				}
			}
		})
	}
}

// TestFamiliesDecideUpFront: a family refuses at construction what its
// kernels would refuse at every fit — typed-nil groups, quadratures over
// their caps (issue: Quadrature 1<<40 over rotation2d was accepted, then
// every fit failed or ran forever).
func TestFamiliesDecideUpFront(t *testing.T) {
	rot, _ := orbit.Rotation2D()
	sc, _ := orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10})
	tg, _ := orbit.Trivial(0)
	var sf *orbit.SignFlipGroup
	mk := map[string]func(orbit.Group, kernel.Options) (Family, error){
		"max": func(g orbit.Group, o kernel.Options) (Family, error) { return NewMaxFamily(kernel.Matern52, g, o) },
		"avg": func(g orbit.Group, o kernel.Options) (Family, error) { return NewAvgFamily(kernel.Matern52, g, o) },
		"plus": func(g orbit.Group, o kernel.Options) (Family, error) {
			return NewPlusFamily(kernel.Matern52, g, o, kernel.PlusOptions{})
		},
	}
	for name, f := range mk {
		for _, g := range []orbit.Group{nil, tg, sf} {
			if _, err := f(g, kernel.Options{}); !errors.Is(err, orbit.ErrInvalid) {
				t.Errorf("%s over %T(nil): error %v, want orbit.ErrInvalid", name, g, err)
			}
		}
		for _, c := range []struct {
			g orbit.Group
			q int
		}{{rot, 1 << 40}, {sc, 1 << 20}, {rot, -1}} {
			if _, err := f(c.g, kernel.Options{Quadrature: c.q}); !errors.Is(err, kernel.ErrBadOptions) {
				t.Errorf("%s over %s, Quadrature %d: error %v, want kernel.ErrBadOptions", name, c.g.Name(), c.q, err)
			}
		}
		if _, err := f(rot, kernel.Options{Quadrature: 64}); err != nil {
			t.Errorf("%s over rotation2d, Quadrature 64: %v", name, err)
		}
	}
}

// TestDataBudget: a GP whose n×n work matrices would outgrow the memory
// budget (Options.Budget, FitOptions.Budget) is refused
// (orbit.ErrOverBudget) before any of them is allocated; the default
// budget (0: 8 GiB, whatever SYMBO_MEMORY_BUDGET says) takes it, and a
// negative one is an error.
func TestDataBudget(t *testing.T) {
	t.Setenv(budget.EnvVar, "1KiB")
	rng := rand.New(rand.NewPCG(4, 0))
	x, y := sample(rng, 400, 2) // 5 matrices of 400×400 float64 = 6.4 MB
	fam := mustG(NewBaseFamily(kernel.RBF, 2))
	const small = 1 << 20
	if _, err := Fit(fam, x, y, FitOptions{Budget: small}); !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("Fit: error %v, want ErrOverBudget", err)
	}
	if _, err := New(fam, x, y, Hyper{1, 1, 1e-3}, Options{Budget: small}); !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("New: error %v, want ErrOverBudget", err)
	}
	if _, err := New(fam, x, y, Hyper{1, 1, 1e-3}, Options{}); err != nil {
		t.Errorf("New with the default budget: %v", err)
	}
	if _, err := New(fam, x, y, Hyper{1, 1, 1e-3}, Options{Budget: -1}); err == nil || errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("New with a negative budget: %v", err)
	}
	if _, err := Fit(fam, x, y, FitOptions{Budget: -1}); err == nil || errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("Fit with a negative budget: %v", err)
	}
}

// TestProfileBudget: a budget that holds the GP but not two profile
// scratches makes the profile evaluate serially, with the same bits.
func TestProfileBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 0))
	x, y := sample(rng, parallelProfileN, 2)
	fam := mustG(NewBaseFamily(kernel.RBF, 2))
	ref, err := Fit(fam, x, y, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tight := int64(denseMemory(parallelProfileN)) // < 2 scratches of 3 n² float64s
	got, err := Fit(fam, x, y, FitOptions{Budget: tight})
	if err != nil {
		t.Fatal(err)
	}
	if ref.Hyper() != got.Hyper() || ref.LogMarginal() != got.LogMarginal() {
		t.Errorf("budget %d: %+v %v, default: %+v %v", tight, got.Hyper(), got.LogMarginal(), ref.Hyper(), ref.LogMarginal())
	}
}

// TestTinyOutputs: y scaled by a power of two as small as subnormal
// magnitudes standardizes to the same bits as y (before, below ~1e-154
// the squared deviations underflowed and y was taken for constant), and
// non-power-of-two units agree to rounding.
func TestTinyOutputs(t *testing.T) {
	y := []float64{0.3, -1.2, 2.5, 0.7, 0.71, -0.4}
	ref, refMean, refScale := standardize(y)
	for _, k := range []int{-300, -500, -700, -1000, -1040} {
		yk := make([]float64, len(y))
		for i, v := range y {
			yk[i] = math.Ldexp(v, k)
		}
		ys, mean, scale := standardize(yk)
		for i := range ys {
			// 2⁻¹⁰⁴⁰ leaves y subnormal, with its last bits rounded away.
			if tol := map[bool]float64{true: 1e-9, false: 0}[k < -1022]; math.Abs(ys[i]-ref[i]) > tol {
				t.Errorf("2^%d: standardized %d is %v, want %v", k, i, ys[i], ref[i])
			}
		}
		if k >= -1000 && (mean != math.Ldexp(refMean, k) || scale != math.Ldexp(refScale, k)) {
			t.Errorf("2^%d: mean %v scale %v, want %v %v", k, mean, scale, math.Ldexp(refMean, k), math.Ldexp(refScale, k))
		}
	}
	for _, u := range []float64{1e-200, 1e-300, 4e-320} {
		yu := make([]float64, len(y))
		for i, v := range y {
			yu[i] = v * u
		}
		ys, _, scale := standardize(yu)
		if scale == 1 {
			t.Errorf("× %g: taken for constant", u)
		}
		for i := range ys {
			if math.Abs(ys[i]-ref[i]) > 1e-3 {
				t.Errorf("× %g: standardized %d is %v, want %v", u, i, ys[i], ref[i])
			}
		}
	}
}

// TestFitRestartsCapped: FitOptions.Restarts above MaxRestarts is refused
// before any start is drawn (2^62 once hung Fit), and MaxRestarts is not.
func TestFitRestartsCapped(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 0))
	x, y := sample(rng, 8, 2)
	fam := mustG(NewBaseFamily(kernel.RBF, 2))
	if _, err := Fit(fam, x, y, FitOptions{Restarts: 1 << 62, Backend: linalg.Gonum()}); err == nil || !strings.Contains(err.Error(), "Restarts") {
		t.Errorf("Restarts 2^62: %v, want an error naming Restarts", err)
	}
	if _, err := Fit(fam, x, y, FitOptions{Restarts: 20, Backend: linalg.Gonum()}); err != nil {
		t.Errorf("Restarts 20: %v", err)
	}
}

// TestFamilyOfNilKernel: a FamilyOf constructor that returns neither a
// kernel nor an error is ErrNilArgument at the fit, not a nil-pointer
// panic inside it.
func TestFamilyOfNilKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 0))
	x, y := sample(rng, 6, 2)
	fam := mustG(FamilyOf(2, kernel.RBF, func(kernel.Params) (kernel.Kernel, error) { return nil, nil }))
	if _, err := Fit(fam, x, y, FitOptions{Backend: linalg.Gonum()}); !errors.Is(err, ErrNilArgument) {
		t.Errorf("Fit: %v, want ErrNilArgument", err)
	}
	if _, err := New(fam, x, y, Hyper{Variance: 1, Lengthscale: 1, Noise: 1e-2}, Options{Backend: linalg.Gonum()}); !errors.Is(err, ErrNilArgument) {
		t.Errorf("New: %v, want ErrNilArgument", err)
	}
}

// TestFixNoiseTinyScale: a fit with a fixed noise does not depend on the
// scale of y down to 1e−200 (scale² underflowed to 0 below about 1e−162,
// and log(Noise/0) made every start fail), nor among the subnormals,
// where the scale itself rounds to 0 in the units of y (log 0 − 2·log 0
// was NaN); nor does FitClasses'.
func TestFixNoiseTinyScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 0))
	x, y := sample(rng, 6, 2)
	fam := mustG(NewBaseFamily(kernel.RBF, 2))
	sub := []float64{0, 0x1p-1074, 0x1p-1073, 0, 0x1p-1074, 0x3p-1074} // y among the subnormals
	for _, ys := range [][]float64{y, scaled(y, 1e-200), sub} {
		for _, noise := range []float64{0, 0x1p-1074} {
			if _, err := Fit(fam, x, ys, FitOptions{FixNoise: true, Noise: noise, Backend: linalg.Gonum()}); err != nil {
				t.Errorf("y %.3g…, noise %g: %v", ys[:2], noise, err)
			}
			f, err := FitClasses(kernel.RBF, []int{0, 1}, x, ys, ClassFitOptions{FixNoise: true, Noise: noise})
			if err != nil || math.IsNaN(f.LogMarginal) || !(f.Lengthscales[0] > 0) {
				t.Errorf("FitClasses, y %.3g…, noise %g: %+v, %v", ys[:2], noise, f, err)
			}
		}
	}
}

// TestFixNoiseHugeRatio: a fixed noise that overflows once divided by the
// variance of y (1e300 over y varying by 1e-5) is ErrOverflow, an input
// error, from Fit, with the prior and the constant mean too; every start
// failed on an infinite diagonal, linalg.ErrNotPositiveDefinite (an
// internal error). Just below the range (about 1e308 once standardized)
// the fit still succeeds.
func TestFixNoiseHugeRatio(t *testing.T) {
	fam := mustG(NewBaseFamily(kernel.Matern52, 1))
	x := mat.NewDense(4, 1, []float64{0, 0.3, 0.6, 0.9})
	for _, y := range [][]float64{{0, 1e-5, 2e-5, 5e-6}, {0, 1e-300, 2e-300, 5e-301}} {
		for _, pr := range []Prior{PriorNone, PriorBoTorch} {
			for _, mn := range []Mean{MeanSample, MeanConstant} {
				_, err := Fit(fam, x, y, FitOptions{FixNoise: true, Noise: 1e300, Prior: pr, Mean: mn, Backend: linalg.Gonum()})
				if !errors.Is(err, ErrOverflow) || errclass.Of(err) != errclass.Input {
					t.Errorf("y %.3g…, prior %v, mean %v: %v (class %v), want ErrOverflow", y[:2], pr, mn, err, errclass.Of(err))
				}
			}
		}
	}
	y := []float64{0, 1, 2, 0.5} // variance 0.546875
	g, err := Fit(fam, x, y, FitOptions{FixNoise: true, Noise: 1e308 * 0.546875, Backend: linalg.Gonum()})
	if err != nil {
		t.Fatalf("standardized noise 1e308: %v", err)
	}
	if m, v, err := g.Predict(nil, []float64{0.5}); err != nil || math.IsNaN(m) || math.IsNaN(v) {
		t.Errorf("standardized noise 1e308: predict %v, %v, %v", m, v, err)
	}
}

func scaled(y []float64, s float64) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = v * s
	}
	return out
}

// TestLandmarkLengthscaleRange: a landmark GP refuses a lengthscale
// outside the kernels' range by their rule, not with an eigensolver's
// "entry (0, 0) is NaN".
func TestLandmarkLengthscaleRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 0))
	x, _ := sample(rng, 5, 2)
	fam := mustG(NewLandmarkPlusFamily(kernel.Matern52, mustG(orbit.SignFlip(2)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}, 3))
	b, err := fam.Bind(x)
	if err != nil {
		t.Fatal(err)
	}
	var c mat.SymDense
	if err := b.CorrTo(&c, nil, 1e-300); err == nil || !strings.Contains(err.Error(), "lengthscale must lie in") {
		t.Errorf("ℓ = 1e-300: %v, want the lengthscale's range", err)
	}
}

// TestMemoryNonPositive: Memory is 0 for n ≤ 0 (it was 5·8·n² bytes for
// the exact GP, so a negative n read as a positive size), and the exact
// GP's 5·8·n² bytes, landmarks' bound, from one point on.
func TestMemoryNonPositive(t *testing.T) {
	g, err := orbit.SignFlip(2)
	if err != nil {
		t.Fatal(err)
	}
	base := mustG(NewBaseFamily(kernel.RBF, 2))
	fams := map[string]Family{"base": base, "landmarks": lmFamily(t, lmCases(2)[0], 8), "plus": mustG(NewPlusFamily(kernel.RBF, g, kernel.Options{}, kernel.PlusOptions{}))}
	for name, fam := range fams {
		for _, n := range []int{-1 << 40, -5, -1, 0} {
			if m := Memory(fam, n); m != 0 {
				t.Errorf("%s: Memory(n = %d) = %v, want 0", name, n, m)
			}
		}
		if m := Memory(fam, 1); !(m > 0) {
			t.Errorf("%s: Memory(n = 1) = %v, want > 0", name, m)
		}
	}
	if m, want := Memory(base, 10), 5*8*10*10.0; m != want {
		t.Errorf("base: Memory(10) = %v, want %v", m, want)
	}
}
