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

// lmBenchData is n uniform points of [−5.12, 5.12]^d with Rastrigin's
// values plus noise (the perf profile's BO step data).
func lmBenchData(n, d int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		s := 10 * float64(d)
		for j := range d {
			v := -5.12 + 10.24*rng.Float64()
			x.Set(i, j, v)
			s += v*v - 10*math.Cos(2*math.Pi*v)
		}
		y[i] = s + 0.1*rng.NormFloat64()
	}
	return x, y
}

// BenchmarkLandmarkSpectrum is one evaluation of the landmark likelihood's
// spectrum at one lengthscale on likelihoodCap(256) = 1024 inputs (what a
// capped fit does about 20 times): k_plus over hyperoctahedral(5), and
// nystrom (the trivial group).
func BenchmarkLandmarkSpectrum(b *testing.B) {
	x, y := lmBenchData(1024, 5, 1)
	for _, c := range []lmCase{
		{"hyperoctahedral", kernel.RBF, mustG(orbit.Hyperoctahedral(5))},
		{"trivial", kernel.RBF, mustG(orbit.Trivial(5))},
	} {
		lb := lmBind(b, lmFamily(b, c, 256), x)
		for _, l := range []float64{0.5, 2, 8} {
			b.Run(fmt.Sprintf("%s/l=%g", c.name, l), func(b *testing.B) {
				var s lowRankSpec
				for b.Loop() {
					if err := lb.lowRankSpectrumTo(&s, y, l, true); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkLandmarkFit is a cold fit (profile likelihood, constant mean,
// the default landmark rule) of the landmark k_plus on n = 3000 inputs.
func BenchmarkLandmarkFit(b *testing.B) {
	x, y := lmBenchData(3000, 5, 1)
	for _, c := range []lmCase{
		{"hyperoctahedral", kernel.RBF, mustG(orbit.Hyperoctahedral(5))},
		{"trivial", kernel.RBF, mustG(orbit.Trivial(5))},
	} {
		f := lmFamily(b, c, 256)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Fit(f, x, y, FitOptions{Backend: linalg.Gonum(), Mean: MeanConstant}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
