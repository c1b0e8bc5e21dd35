package bo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/symbo/symbo/bo/problem"
)

// BenchmarkIteration times one acquisition step (fit + acquisition
// optimization) per kernel on Rastrigin5d with n = 55 observations (the
// last step of the protocol), split into phases with b.ReportMetric. The
// fit starts cold (no warm start from a previous step).
func BenchmarkIteration(b *testing.B) {
	p := must(problem.New("Rastrigin5d", 0))
	lo, hi := p.Bounds()
	for _, k := range []string{NameBase, NameAvg, NameMax, NamePlus} {
		b.Run(fmt.Sprintf("problem=rastrigin5d/kernel=%s/n=55", k), func(b *testing.B) {
			o := must(New(lo, hi, Config{Kernel: kernelOf(k, p.Group(), p.BaseShape())}, 1))
			rng := rand.New(rand.NewPCG(1, 1))
			sd := math.Sqrt(p.NoiseVariance())
			x := make([]float64, p.Dim())
			for range 55 {
				for i := range x {
					x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
				}
				if err := o.Tell(x, must(objectiveOf(p, x))+sd*rng.NormFloat64()); err != nil {
					b.Fatal(err)
				}
			}
			var fit, acq, total time.Duration
			b.ReportAllocs()
			for b.Loop() {
				o.pend = nil
				t0 := time.Now()
				if _, err := o.Ask(); err != nil {
					b.Fatal(err)
				}
				total += time.Since(t0)
				fit += o.last.Timings.Fit
				acq += o.last.Timings.Acq
			}
			n := float64(b.N)
			b.ReportMetric(float64(fit.Nanoseconds())/n, "fit-ns/op")
			b.ReportMetric(float64(acq.Nanoseconds())/n, "acq-ns/op")
			b.ReportMetric(float64((total-fit-acq).Nanoseconds())/n, "other-ns/op")
		})
	}
}

// BenchmarkRun times a whole protocol run (5 + 50 evaluations); run with
// -benchtime=1x. Metrics: seconds per phase and the final cumulative
// regret.
func BenchmarkRun(b *testing.B) {
	for _, pn := range []string{"Ackley2d", "Rastrigin5d"} {
		for _, k := range []string{NameBase, NameAvg, NameMax, NamePlus} {
			b.Run(fmt.Sprintf("problem=%s/kernel=%s", pn, k), func(b *testing.B) {
				p := must(problem.New(pn, 0))
				var tr *Trace
				seed := uint64(0)
				var fit, acq, other time.Duration
				hits := 0
				cum := 0.0
				for b.Loop() {
					var err error
					tr, err = runP(p, k, Config{}, 0, seed)
					if err != nil {
						b.Fatal(err)
					}
					seed++
					fit += tr.Timings.Fit
					acq += tr.Timings.Acq
					other += tr.Timings.Other
					hits += tr.ExactOptimumHits
					cum += tr.CumulativeRegret[len(tr.CumulativeRegret)-1]
				}
				n := float64(b.N)
				b.ReportMetric(fit.Seconds()/n, "fit-s/op")
				b.ReportMetric(acq.Seconds()/n, "acq-s/op")
				b.ReportMetric(other.Seconds()/n, "other-s/op")
				b.ReportMetric(cum/n, "cumregret/op")
				b.ReportMetric(float64(hits)/n, "hits/op")
			})
		}
	}
}
