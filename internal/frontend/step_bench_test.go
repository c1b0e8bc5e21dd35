package frontend

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/symbo/symbo/bo/problem"
)

// stepKernels are what BenchmarkDefaultStep times, by metric label:
// plus, the default's other candidates alone, the default (its
// candidates' fits anchored on plus's, hedged: bo.Recommended's), the
// default kernel with each candidate's own search, and the default
// without hedging (one proposal per candidate) and hedged with three
// ascents instead of bo.DefaultHedgeStarts.
var stepKernels = []struct {
	label, kernel, candidateFit string
	hedge                       *int
}{
	{"plus", "plus", "", nil},
	{"nystrom", "nystrom", "", nil},
	{"soft", "soft", "", nil},
	{"default", DefaultKernel, "", nil},
	{"own", DefaultKernel, "own", nil},
	{"unhedged", DefaultKernel, "", new(0)},
	{"hedge3", DefaultKernel, "", new(3)},
}

// stepHistory returns n observations of a run of the front ends' default
// on the problem (seed 0; the problem's noise added from a fixed stream):
// the state at which BenchmarkDefaultStep times one step.
func stepHistory(b *testing.B, name string, n int) ([][]float64, []float64) {
	p, err := problem.New(name, 0)
	if err != nil {
		b.Fatal(err)
	}
	o, err := SuggestSettings{Problem: name}.Optimizer(nil, 0)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	sd := math.Sqrt(p.NoiseVariance())
	var xs [][]float64
	var ys []float64
	for range n {
		x, err := o.Ask()
		if err != nil {
			b.Fatal(err)
		}
		y, err := p.Evaluate(x)
		if err != nil {
			b.Fatal(err)
		}
		y += sd * rng.NormFloat64()
		if err := o.Tell(x, y); err != nil {
			b.Fatal(err)
		}
		xs, ys = append(xs, x), append(ys, y)
	}
	return xs, ys
}

// BenchmarkDefaultStep times one BO step (Ask: the fit and the
// acquisition) of the front ends' default, of its kernel with
// "candidate_fit": "own", and of plus, nystrom and soft alone,
// under the front ends' protocol (BoTorch's priors, a
// learned constant mean), at the states after 10, 30 and 50 observations
// of the default's own run on Ackley2d, Griewank6d and Rastrigin5d (a
// run of the protocol asks at n = 5 to 54). Each
// iteration rebuilds every kernel's optimizer from those observations
// (untimed) and times one Ask of each in turn, so the kernels share the
// machine's load at the finest grain; the metrics are each kernel's
// milliseconds per step and its ratio to plus's (the bound: the
// default's at most 3). Run it on one thread, several counts:
//
//	go test -run XXX -bench DefaultStep -cpu 1 -count 5 ./internal/frontend
func BenchmarkDefaultStep(b *testing.B) {
	for _, name := range []string{"Ackley2d", "Griewank6d", "Rastrigin5d"} {
		var hx [][]float64
		var hy []float64
		for _, n := range []int{10, 30, 50} {
			b.Run(fmt.Sprintf("problem=%s/n=%d", name, n), func(b *testing.B) {
				if hx == nil {
					hx, hy = stepHistory(b, name, 50)
				}
				stepRatios(b, name, hx[:n], hy[:n])
			})
		}
	}
}

// stepRatios is one sub-benchmark of BenchmarkDefaultStep: the state
// after the observations xs, ys.
func stepRatios(b *testing.B, name string, xs [][]float64, ys []float64) {
	spent := make([]time.Duration, len(stepKernels))
	for b.Loop() {
		for i, k := range stepKernels {
			spent[i] += timedAsk(b, k.label, SuggestSettings{Problem: name, Kernel: k.kernel, CandidateFit: k.candidateFit, Hedge: k.hedge}, xs, ys)
		}
	}
	for i, k := range stepKernels {
		b.ReportMetric(spent[i].Seconds()*1e3/float64(b.N), k.label+"-ms")
		if i > 0 {
			b.ReportMetric(float64(spent[i])/float64(spent[0]), k.label+"/plus")
		}
	}
}

// timedAsk builds the optimizer of s and tells it xs, ys with b's timer
// stopped, and returns the time of its next Ask (timed, within b's
// timer): one step of a benchmark that compares kernels' steps in turn.
func timedAsk(b *testing.B, label string, s SuggestSettings, xs [][]float64, ys []float64) time.Duration {
	b.StopTimer()
	o, err := s.Optimizer(nil, 0)
	if err != nil {
		b.Fatal(err)
	}
	for j, x := range xs {
		if err := o.Tell(x, ys[j]); err != nil {
			b.Fatal(err)
		}
	}
	b.StartTimer()
	t0 := time.Now()
	if _, err := o.Ask(); err != nil {
		b.Fatal(fmt.Errorf("%s: %w", label, err))
	}
	return time.Since(t0)
}
