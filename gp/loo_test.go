package gp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestLOOLogPredictive: the closed form against the definition — for
// each i, the GP's covariance without row and column i (the kernel's Gram,
// noise and jitter), solved by gonum's Cholesky, predicts y_i with mean
// m̂ + k_iᵀK_−i⁻¹(y_−i − m̂) and variance K_ii − k_iᵀK_−i⁻¹k_i — for base,
// k_plus, a mix and both prior means; a landmark GP is refused.
func TestLOOLogPredictive(t *testing.T) {
	d := 3
	po := kernel.PlusOptions{Backend: linalg.Gonum()}
	plus := mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Hyperoctahedral(d)), kernel.Options{}, po))
	fams := []struct {
		name string
		fam  Family
	}{
		{"base", mustG(NewBaseFamily(kernel.RBF, d))},
		{"plus", plus},
		{"soft", mustG(NewMixFamily(plus, mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Trivial(d)), kernel.Options{}, po)), 0.2))},
	}
	for fi, tc := range fams {
		for _, pm := range []Mean{MeanSample, MeanConstant} {
			rng := rand.New(rand.NewPCG(uint64(fi), 59))
			x, y := sample(rng, 15, d)
			h := Hyper{Variance: 1.1, Lengthscale: 0.8, Noise: 1e-2}
			g := mustG(New(tc.fam, x, y, h, Options{Backend: linalg.Gonum(), Mean: pm}))
			got, err := g.LOOLogPredictive()
			if err != nil {
				t.Fatal(err)
			}
			n := g.n
			kk := mat.NewSymDense(n, nil)
			if err := gramTo(g.k, kk, g.x); err != nil {
				t.Fatal(err)
			}
			ys, _, _ := standardize(y)
			var want float64
			for i := range n {
				var keep []int
				for j := range n {
					if j != i {
						keep = append(keep, j)
					}
				}
				m := len(keep)
				km := mat.NewSymDense(m, nil)
				ki := mat.NewVecDense(m, nil)
				r := mat.NewVecDense(m, nil)
				for a, ja := range keep {
					for b, jb := range keep {
						v := kk.At(ja, jb)
						if a == b {
							v += h.Noise + g.jitter
						}
						km.SetSym(a, b, v)
					}
					ki.SetVec(a, kk.At(ja, i))
					r.SetVec(a, ys[ja]-g.m0)
				}
				var ch mat.Cholesky
				if !ch.Factorize(km) {
					t.Fatal("K_−i not positive definite")
				}
				var s, u mat.VecDense
				if err := ch.SolveVecTo(&s, r); err != nil {
					t.Fatal(err)
				}
				if err := ch.SolveVecTo(&u, ki); err != nil {
					t.Fatal(err)
				}
				mu := g.m0 + mat.Dot(ki, &s)
				v := kk.At(i, i) + h.Noise + g.jitter - mat.Dot(ki, &u)
				e := ys[i] - mu
				want += -0.5*math.Log(v) - e*e/(2*v) - 0.5*math.Log(2*math.Pi)
			}
			if math.Abs(got-want) > 1e-8*max(1, math.Abs(want)) {
				t.Errorf("%s, mean %v: LOO log predictive %v, by definition %v", tc.name, pm, got, want)
			}
		}
	}
	lm := mustG(NewLandmarkPlusFamily(kernel.Matern52, mustG(orbit.SignFlip(d)), kernel.Options{}, po, 4))
	x, y := sample(rand.New(rand.NewPCG(9, 59)), 12, d)
	g := mustG(New(lm, x, y, Hyper{Variance: 1, Lengthscale: 1, Noise: 1e-2}, Options{}))
	if _, err := g.LOOLogPredictive(); !errors.Is(err, ErrNoLOO) {
		t.Errorf("a landmark GP: %v, want ErrNoLOO", err)
	}
}

// TestTinyCovariance: a covariance near the smallest float64. Two points
// 100 lengthscales apart make K = v·I to rounding (RBF: e^−5000 = 0), so
// with y standardized to (−1, 1): α = ∓1/v, [K⁻¹]_ii = 1/v, and the
// leave-one-out density is 2·(½·log(1/v) − 1/(2v) − ½·log 2π), computed
// here by hand. At v = 1e-300 α² overflows while the density does not: a
// finite value, not −Inf. At v = 1e-309 α·y overflows: New refuses with
// ErrOverflow, exact and landmark GPs alike, never a NaN or −Inf
// likelihood with a nil error.
func TestTinyCovariance(t *testing.T) {
	base := mustG(NewBaseFamily(kernel.RBF, 1))
	x := mat.NewDense(2, 1, []float64{0, 100})
	y := []float64{1, 3}
	v := 1e-300
	g, err := New(base, x, y, Hyper{Variance: v, Lengthscale: 1}, Options{Backend: linalg.Gonum()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := g.LOOLogPredictive()
	want := 2 * (0.5*math.Log(1/v) - 1/(2*v) - 0.5*math.Log(2*math.Pi))
	if err != nil || math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Fatalf("LOOLogPredictive at v = %g: %v, %v; want %v", v, got, err, want)
	}
	if l := g.LogMarginal(); math.IsInf(l, 0) || math.IsNaN(l) {
		t.Fatalf("LogMarginal at v = %g: %v", v, l)
	}
	lm := mustG(NewLandmarkFamily(base, 1, LandmarkOptions{}))
	x4 := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	y4 := []float64{1, 2, 3, 5}
	for _, c := range []struct {
		name string
		fam  Family
		x    *mat.Dense
		y    []float64
	}{{"exact", base, x, y}, {"landmark", lm, x4, y4}} {
		g, err := New(c.fam, c.x, c.y, Hyper{Variance: 1e-309, Lengthscale: 1}, Options{Backend: linalg.Gonum()})
		if !errors.Is(err, ErrOverflow) {
			lml := math.NaN()
			if g != nil {
				lml = g.LogMarginal()
			}
			t.Errorf("%s: New at v = 1e-309: err = %v (log marginal %v), want ErrOverflow", c.name, err, lml)
		}
	}
}

// TestZeroGP (red team): a nil or zero-value *GP is ErrNilArgument from
// the methods that return an error (they panicked: blas's "illegal
// triangle", a nil dereference).
func TestZeroGP(t *testing.T) {
	for _, g := range []*GP{nil, {}} {
		if _, err := g.LOOLogPredictive(); !errors.Is(err, ErrNilArgument) {
			t.Errorf("LOOLogPredictive of %v: %v", g, err)
		}
		if _, _, err := g.Predict(nil, []float64{0}); !errors.Is(err, ErrNilArgument) {
			t.Errorf("Predict of %v: %v", g, err)
		}
		if _, _, err := g.PredictStandardized(nil, []float64{0}, nil, nil); !errors.Is(err, ErrNilArgument) {
			t.Errorf("PredictStandardized of %v: %v", g, err)
		}
		if _, _, err := g.PredictGrad(&Workspace{}, []float64{0}, []float64{0}, []float64{0}); !errors.Is(err, ErrNilArgument) {
			t.Errorf("PredictGrad of %v: %v", g, err)
		}
	}
}

// TestInvalidIsInput: the input checks of New, Fit and the family
// constructors wrap ErrInvalid, an input error (they were unclassified,
// hence internal by errclass's rule, and errors.Is could not test them).
func TestInvalidIsInput(t *testing.T) {
	base := mustG(NewBaseFamily(kernel.RBF, 1))
	x := mat.NewDense(2, 1, []float64{0, 1})
	for name, err := range map[string]error{
		"variance": func() error {
			_, err := New(base, x, []float64{1, 2}, Hyper{Variance: -1, Lengthscale: 1}, Options{})
			return err
		}(),
		"NaN output": func() error {
			_, err := New(base, x, []float64{1, math.NaN()}, Hyper{Variance: 1, Lengthscale: 1}, Options{})
			return err
		}(),
		"lengths":    func() error { _, err := Fit(base, x, []float64{1}, FitOptions{}); return err }(),
		"dimension":  func() error { _, err := NewBaseFamily(kernel.RBF, 0); return err }(),
		"mix weight": func() error { _, err := NewMixFamily(base, base, 2); return err }(),
		"mean":       func() error { _, err := ParseMean("median"); return err }(),
	} {
		if !errors.Is(err, ErrInvalid) || errclass.Of(err) != errclass.Input {
			t.Errorf("%s: %v (class %v), want ErrInvalid, an input error", name, err, errclass.Of(err))
		}
	}
}
