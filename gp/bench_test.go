package gp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// benchData is n uniform points of [−5.12, 5.12]^5 and Rastrigin's
// function at them.
func benchData(n int) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(1, 7))
	x := randMat(rng, n, 5, -5.12, 5.12)
	y := make([]float64, n)
	for i := range n {
		for _, v := range x.RawRowView(i) {
			y[i] += v*v - 10*math.Cos(2*math.Pi*v)
		}
	}
	return x, y
}

// BenchmarkFitMethods compares the exact fits at n = 1000 (the base
// kernel, Matérn-5/2): the profile likelihood (one eigendecomposition per
// lengthscale) against the BFGS reference (one Cholesky and inverse per
// likelihood and gradient evaluation), and a landmark fit. Run with
// go test -run '^$' -bench FitMethods -benchtime 1x ./gp/
func BenchmarkFitMethods(b *testing.B) {
	x, y := benchData(1000)
	base := mustG(NewBaseFamily(kernel.Matern52, 5))
	g := mustG(orbit.Hyperoctahedral(5))
	lm := mustG(NewLandmarkPlusFamily(kernel.Matern52, g, kernel.Options{}, kernel.PlusOptions{}, 256))
	for _, c := range []struct {
		name string
		fam  Family
		m    fitMethod
	}{{"base/profile", base, fitProfile}, {"base/bfgs", base, fitBFGS}, {"plus-landmarks-256/profile", lm, fitProfile}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				gg, err := Fit(c.fam, x, y, FitOptions{method: c.m})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(gg.fit.Evaluations), "evals")
				b.ReportMetric(gg.LogMarginal(), "lml")
			}
		})
	}
}

// BenchmarkCholeskyVsEigen times the backend's Cholesky and EigenSym of
// the n×n base-kernel correlation plus noise: the price of one likelihood
// evaluation of a Cholesky-based fit against one of the profile.
func BenchmarkCholeskyVsEigen(b *testing.B) {
	for _, n := range []int{256, 1000} {
		x, _ := benchData(n)
		bd := mustG(mustG(NewBaseFamily(kernel.Matern52, 5)).Bind(x))
		var c mat.SymDense
		if err := bd.CorrTo(&c, nil, 3); err != nil {
			b.Fatal(err)
		}
		for i := range n {
			c.SetSym(i, i, c.At(i, i)+1e-2)
		}
		be, err := linalg.Default()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("op=cholesky/n=%d", n), func(b *testing.B) {
			var ch linalg.Cholesky
			for b.Loop() {
				if err := be.Cholesky(&ch, &c); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("op=eigen/n=%d", n), func(b *testing.B) {
			var e linalg.Eigen
			for b.Loop() {
				if err := be.EigenSym(&e, &c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPredictGradResidual times a prediction with both gradients, the
// acquisition ascent's unit of work, of k_plus and of a mix of two k_plus
// (bo's Soft) over hyperoctahedral(6) at n = 50, without and with
// Options.ResidualVariance (O(r) more per prediction). Run with
// go test -run '^$' -bench PredictGradResidual ./gp/
func BenchmarkPredictGradResidual(b *testing.B) {
	const n, d = 50, 6
	rng := rand.New(rand.NewPCG(3, 11))
	x, y := sample(rng, n, d)
	g := mustG(orbit.Hyperoctahedral(d))
	po := kernel.PlusOptions{Backend: linalg.Gonum()}
	plus := mustG(NewPlusFamily(kernel.Matern52, g, kernel.Options{}, po))
	soft := mustG(NewMixFamily(plus, mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Trivial(d)), kernel.Options{}, po)), 0.2))
	qs := randMat(rng, 64, d, -2, 2)
	h := Hyper{Variance: 1.2, Lengthscale: 1.5, Noise: 1e-3}
	for _, c := range []struct {
		name string
		fam  Family
	}{{"plus", plus}, {"soft", soft}} {
		for _, resid := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/residual=%v", c.name, resid), func(b *testing.B) {
				gp := mustG(New(c.fam, x, y, h, Options{Backend: linalg.Gonum(), ResidualVariance: resid}))
				var ws Workspace
				dm, dv := make([]float64, d), make([]float64, d)
				i := 0
				for b.Loop() {
					if _, _, err := gp.PredictGrad(&ws, qs.RawRowView(i%64), dm, dv); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}
