package bo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
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

// BenchmarkARDStep times one step of the front ends' default
// (Recommended) with Protocol.ARD against the same without it, at the
// states after 10, 30 and 50 observations of the ARD default's own run
// (seed 0) on two 6-d problems with several classes of coordinates: four
// permuted components beside a learning rate and a width (3 classes) and
// sign flips of six coordinates of two scales (6 classes, ARD's most).
// Each iteration rebuilds both optimizers from the observations
// (untimed) and times one Ask of each in turn; the metrics are each
// one's milliseconds per step and their ratio ard/one (issue 40's bound
// at n = 50: 1.5). Run it on one thread, several counts:
//
//	go test -run XXX -bench ARDStep -cpu 1 -count 5 ./bo
func BenchmarkARDStep(b *testing.B) {
	perm := must(orbit.Permutation(4))
	sf := must(orbit.SignFlip(6))
	cases := []struct {
		name   string
		g      orbit.Group
		lo, hi []float64
		f      func([]float64) float64
	}{
		{"perm4+2", must(orbit.OnCoords(perm, 6, []int{0, 1, 2, 3})), []float64{0, 0, 0, 0, 1e-5, 16}, []float64{1, 1, 1, 1, 1e-1, 1024},
			func(x []float64) float64 {
				s := slices.Clone(x[:4])
				slices.Sort(s)
				v := 0.0
				for i, t := range []float64{0.1, 0.4, 0.6, 0.9} {
					v += (s[i] - t) * (s[i] - t)
				}
				lr := (x[4] - 0.03) / 0.07
				return v + lr*lr + 1e-3*(x[5]-500)/500
			}},
		{"signflip6", sf, []float64{-1, -1, -1, -100, -100, -100}, []float64{1, 1, 1, 100, 100, 100},
			func(x []float64) float64 {
				v := 0.0
				for k, c := range x {
					a := math.Abs(c)
					if k >= 3 {
						a /= 100
					}
					v += (a - 0.3 - 0.1*float64(k)) * (a - 0.3 - 0.1*float64(k))
				}
				return v
			}},
	}
	for _, c := range cases {
		cfg := must(Recommended(c.g, kernel.Matern52))
		cfg.Minimize = true
		var xs [][]float64
		var ys []float64
		for _, n := range []int{10, 30, 50} {
			b.Run(fmt.Sprintf("problem=%s/n=%d", c.name, n), func(b *testing.B) {
				if xs == nil {
					o := must(New(c.lo, c.hi, cfg, 0))
					for range 50 {
						x := must(o.Ask())
						y := c.f(x)
						if err := o.Tell(x, y); err != nil {
							b.Fatal(err)
						}
						xs, ys = append(xs, x), append(ys, y)
					}
				}
				var spent [2]time.Duration
				for b.Loop() {
					for i, ard := range []bool{true, false} {
						b.StopTimer()
						ci := cfg
						ci.ARD = ard
						o := must(New(c.lo, c.hi, ci, 0))
						for j := range n {
							if err := o.Tell(xs[j], ys[j]); err != nil {
								b.Fatal(err)
							}
						}
						b.StartTimer()
						t0 := time.Now()
						if _, err := o.Ask(); err != nil {
							b.Fatal(err)
						}
						spent[i] += time.Since(t0)
					}
				}
				b.ReportMetric(spent[0].Seconds()*1e3/float64(b.N), "ard-ms")
				b.ReportMetric(spent[1].Seconds()*1e3/float64(b.N), "one-ms")
				b.ReportMetric(float64(spent[0])/float64(spent[1]), "ard/one")
			})
		}
	}
}

// BenchmarkAvgExplicitStep times one Ask of avg named alone with
// Matérn-5/2 (k_avg enumerated over every finite group) after n told
// points of −Σ i·x_i² on [−1, 1]^d, over groups of growing order |G| up to
// AvgEnumerateLimit (signflip(13), 8192 elements), on a fresh optimizer
// each time (a cold fit, as a step without a previous fit): the step's
// growth in |G| that the limit is drawn from (docs/performance.md,
// "Explicit orbit averages over large groups"). Run it with -benchtime
// 1x -cpu 1.
func BenchmarkAvgExplicitStep(b *testing.B) {
	for _, c := range []struct {
		name string
		d, n int
	}{{"hyperoctahedral", 4, 20}, {"hyperoctahedral", 5, 20}, {"hyperoctahedral", 5, 50}, {"permutation", 7, 20}, {"signflip", 13, 20}} {
		g := must(orbit.Parse(orbit.Spec{Name: c.name, D: c.d}))
		G := must(orbit.Size(g))
		lo, hi := box(c.d, 1)
		rng := rand.New(rand.NewPCG(3, 4))
		xs := make([][]float64, c.n)
		ys := make([]float64, c.n)
		for j := range xs {
			xs[j] = make([]float64, c.d)
			for i := range xs[j] {
				xs[j][i] = 2*rng.Float64() - 1
				ys[j] -= float64(i+1) * xs[j][i] * xs[j][i]
			}
		}
		b.Run(fmt.Sprintf("group=%s%d/G=%d/n=%d", c.name, c.d, G, c.n), func(b *testing.B) {
			for range b.N {
				askAfter(b, lo, hi, Config{Kernel: Avg(g, kernel.Matern52), Workers: 1}, xs, ys)
			}
		})
	}
}

// askAfter times one Ask of a new optimizer (New(lo, hi, cfg, 1): Ask
// caches its fit, so each timing needs its own) told xs and ys, which is
// not timed.
func askAfter(b *testing.B, lo, hi []float64, cfg Config, xs [][]float64, ys []float64) {
	b.Helper()
	b.StopTimer()
	o := must(New(lo, hi, cfg, 1))
	for j, x := range xs {
		if err := o.Tell(x, ys[j]); err != nil {
			b.Fatal(err)
		}
	}
	b.StartTimer()
	if _, err := o.Ask(); err != nil {
		b.Fatal(err)
	}
}
