package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// residualProbe is a query point: an observation moved by off per
// coordinate (off = 0: the observation itself).
func residualProbe(rng *rand.Rand, x *mat.Dense, k int, off float64) []float64 {
	n, _ := x.Dims()
	q := append([]float64(nil), x.RawRowView(k%n)...)
	for j := range q {
		q[j] += off * (2*rng.Float64() - 1)
	}
	return q
}

// TestResidualVarianceNystromIsBase: with the observations as its design,
// the base kernel's Nyström GP with Options.ResidualVariance is the base
// GP — mean, variance and both gradients — the base GP (the generic
// posterior, k(x,x) − ‖L⁻¹k‖², and its own gradient) the oracle for the
// feature form's residual and its folded gradient.
func TestResidualVarianceNystromIsBase(t *testing.T) {
	for _, d := range []int{2, 5} {
		rng := rand.New(rand.NewPCG(uint64(d), 47))
		x, y := sample(rng, 25, d)
		base := mustG(NewBaseFamily(kernel.Matern52, d))
		ny := mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Trivial(d)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}))
		h := Hyper{Variance: 1.3, Lengthscale: 1.1, Noise: 1e-2}
		gb := mustG(New(base, x, y, h, Options{Backend: linalg.Gonum()}))
		gn := mustG(New(ny, x, y, h, Options{Backend: linalg.Gonum(), ResidualVariance: true}))
		var wb, wn Workspace
		for k := range 40 {
			q := residualProbe(rng, x, k, 0.3*float64(k/10))
			dmb, dvb, dmn, dvn := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
			mb, vb, err := gb.PredictGrad(&wb, q, dmb, dvb)
			if err != nil {
				t.Fatal(err)
			}
			mn, vn, err := gn.PredictGrad(&wn, q, dmn, dvn)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(mb-mn) > 1e-9*max(1, math.Abs(mb)) || math.Abs(vb-vn) > 1e-9*max(1, vb) {
				t.Errorf("d=%d, point %d: base (%v, %v), nystrom with the residual (%v, %v)", d, k, mb, vb, mn, vn)
			}
			if vb < 1e-8 {
				continue // the clamp's kink
			}
			for j := range d {
				if math.Abs(dmb[j]-dmn[j]) > 1e-8*max(1, math.Abs(dmb[j])) || math.Abs(dvb[j]-dvn[j]) > 1e-8*max(1, math.Abs(dvb[j])) {
					t.Errorf("d=%d, point %d, coordinate %d: gradients base (%v, %v), nystrom with the residual (%v, %v)", d, k, j, dmb[j], dvb[j], dmn[j], dvn[j])
				}
			}
		}
	}
}

// TestResidualVariance: for k_plus over real groups, a mix of two (bo's
// Soft) and a landmark k_plus GP, Options.ResidualVariance leaves the mean
// bit for bit, adds exactly max(0, v − k_plus(x, x)) to the variance, with
// k_plus(x, x) from the kernel's own DiagTo (kernel.Plus's generic
// features, not the posterior's feature form) — per part for the mix, so
// at least the total's residual — nothing at the observations of an exact
// GP, and has a variance gradient equal to central differences.
func TestResidualVariance(t *testing.T) {
	d := 3
	be := linalg.Gonum()
	po := kernel.PlusOptions{Backend: be}
	plusOf := func(g orbit.Group) Family {
		return mustG(NewPlusFamily(kernel.Matern52, g, kernel.Options{}, po))
	}
	cases := []struct {
		name     string
		fam      Family
		exact    bool // the observations are the design
		mixed    bool
		landmark bool
	}{
		{"plus/hyperoctahedral", plusOf(mustG(orbit.Hyperoctahedral(d))), true, false, false},
		{"plus/permutation", plusOf(mustG(orbit.Permutation(d))), true, false, false},
		{"soft/permutation", mustG(NewMixFamily(plusOf(mustG(orbit.Permutation(d))), plusOf(mustG(orbit.Trivial(d))), 0.2)), true, true, false},
		{"landmark-plus/signflip", mustG(NewLandmarkPlusFamily(kernel.Matern52, mustG(orbit.SignFlip(d)), kernel.Options{}, po, 8)), false, false, true},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci), 53))
			x, y := sample(rng, 20, d)
			h := Hyper{Variance: 1.4, Lengthscale: 0.9, Noise: 1e-3}
			g0 := mustG(New(tc.fam, x, y, h, Options{Backend: be}))
			g1 := mustG(New(tc.fam, x, y, h, Options{Backend: be, ResidualVariance: true}))
			if tc.landmark && g1.Landmarks() == 0 {
				t.Fatal("not a landmark GP")
			}
			var w0, w1 Workspace
			seen := 0
			for k := range 40 {
				off := 0.4 * float64(k/10)
				q := residualProbe(rng, x, k, off)
				m0, v0, err := g0.Predict(&w0, q)
				if err != nil {
					t.Fatal(err)
				}
				dm, dv := make([]float64, d), make([]float64, d)
				m1, v1, err := g1.PredictGrad(&w1, q, dm, dv)
				if err != nil {
					t.Fatal(err)
				}
				if m0 != m1 {
					t.Errorf("point %d: mean %v without the residual, %v with it", k, m0, m1)
				}
				diag := make([]float64, 1)
				if _, err := g1.k.DiagTo(diag, mat.NewDense(1, d, q)); err != nil {
					t.Fatal(err)
				}
				s2 := g1.yScale * g1.yScale
				want := s2 * max(0, h.Variance-diag[0])
				got := v1 - v0
				switch {
				case tc.mixed && !(got >= want-1e-9*s2):
					t.Errorf("point %d: the residual added %v, below the total's %v", k, got, want)
				case !tc.mixed && math.Abs(got-want) > 1e-9*s2:
					t.Errorf("point %d: the residual added %v, want v − k_plus(x, x) = %v", k, got, want)
				}
				if off == 0 && tc.exact && got > 1e-7*s2 {
					t.Errorf("at observation %d: the residual added %v", k, got)
				}
				if want > 0.05*s2 {
					seen++
				}
				// Central differences of the variance, away from the
				// clamps' kinks (the residual's and the variance's).
				if v1 < 1e-6*s2 || math.Abs(h.Variance-diag[0]) < 1e-4 {
					continue
				}
				for j := range d {
					const step = 1e-5
					qp, qm := append([]float64(nil), q...), append([]float64(nil), q...)
					qp[j] += step
					qm[j] -= step
					_, vp, err := g1.Predict(&w1, qp)
					if err != nil {
						t.Fatal(err)
					}
					_, vm, err := g1.Predict(&w1, qm)
					if err != nil {
						t.Fatal(err)
					}
					fd := (vp - vm) / (2 * step)
					if math.Abs(fd-dv[j]) > 1e-5*max(s2, math.Abs(fd)) {
						t.Errorf("point %d, coordinate %d: variance gradient %v, central differences %v", k, j, dv[j], fd)
					}
				}
			}
			if seen < 5 {
				t.Errorf("only %d of 40 points have a residual above 5%% of v: the test does not reach the residual", seen)
			}
		})
	}
}
