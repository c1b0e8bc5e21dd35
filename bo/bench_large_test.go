package bo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/bo/problem"
)

// BenchmarkIterationLarge times one Ask per kernel on Rastrigin5d after
// n = 3000 uniform noisy observations: every kernel on its landmark path
// (the default cap of 256), cold fit as Ask does. perf profile measures
// the same step against gonum's Dgemm; this is its profiling harness
// (-cpuprofile) and its benchstat series.
func BenchmarkIterationLarge(b *testing.B) {
	p := must(problem.New("Rastrigin5d", 0))
	lo, hi := p.Bounds()
	for _, k := range []string{NameNystrom, NamePlus, NameAuto} {
		b.Run(fmt.Sprintf("problem=rastrigin5d/kernel=%s/n=3000", k), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			sd := math.Sqrt(p.NoiseVariance())
			xs := make([][]float64, 3000)
			ys := make([]float64, len(xs))
			for j := range xs {
				x := make([]float64, p.Dim())
				for i := range x {
					x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
				}
				xs[j], ys[j] = x, must(objectiveOf(p, x))+sd*rng.NormFloat64()
			}
			for range b.N {
				askAfter(b, lo, hi, Config{Kernel: kernelOf(k, p.Group(), p.BaseShape())}, xs, ys)
			}
		})
	}
}
