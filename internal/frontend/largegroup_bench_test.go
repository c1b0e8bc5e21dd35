package frontend

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkLargeGroupStep times one BO step (Ask) of the front ends'
// default, of the same unhedged (hedge 0) and of plus over groups whose k_avg the default leaves out:
// hyperoctahedral(8) with Matérn-5/2 (10321920
// elements, no closed form), permutation(18) and hyperoctahedral(20)
// with RBF (no permanent closed form above 16 coordinates), on [−1, 1]^d
// after n = 10 and 30 observations of −‖x − c‖² at uniform points, under
// the front ends' settings. As BenchmarkDefaultStep, each iteration
// rebuilds both optimizers (untimed) and times one Ask of each in turn;
// the metrics are milliseconds per step and the default's and the
// unhedged default's ratios to plus's (the bound: about 4).
//
//	go test -run XXX -bench LargeGroupStep -cpu 1 -count 3 ./internal/frontend
func BenchmarkLargeGroupStep(b *testing.B) {
	for _, c := range []struct {
		group string
		d     int
		base  string
	}{{"hyperoctahedral", 8, "matern52"}, {"permutation", 18, "rbf"}, {"hyperoctahedral", 20, "rbf"}} {
		for _, n := range []int{10, 30} {
			b.Run(fmt.Sprintf("group=%s%d-%s/n=%d", c.group, c.d, c.base, n), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(7, uint64(n)))
				xs := make([][]float64, n)
				ys := make([]float64, n)
				for i := range xs {
					xs[i] = make([]float64, c.d)
					for j := range xs[i] {
						xs[i][j] = 2*rng.Float64() - 1
						t := xs[i][j] - 0.3
						ys[i] -= t * t
					}
				}
				kernels := []struct {
					label, kernel string
					hedge         *int
				}{{"plus", "plus", nil}, {"default", DefaultKernel, nil}, {"unhedged", DefaultKernel, new(0)}}
				spent := make([]time.Duration, len(kernels))
				for b.Loop() {
					for i, k := range kernels {
						s := SuggestSettings{Group: Group{Group: c.group, D: c.d, Box: [][]float64{{-1}, {1}}}, Base: c.base, Kernel: k.kernel, Hedge: k.hedge}
						spent[i] += timedAsk(b, k.label, s, xs, ys)
					}
				}
				for i, k := range kernels {
					b.ReportMetric(spent[i].Seconds()*1e3/float64(b.N), k.label+"-ms")
					if i > 0 {
						b.ReportMetric(float64(spent[i])/float64(spent[0]), k.label+"/plus")
					}
				}
			})
		}
	}
}

// BenchmarkAvgCandidateStep: one step of portfolios and auto that name
// avg, against plus's and the default's, over the groups where
// AutoEnumerateLimit's cost model does not bound k_avg — the scaling
// groups, whose exact average takes an adaptive quadrature per pair, and
// a permanent over some coordinates of a larger space, beside the same
// permutation on its own coordinates — at n = 30 and 55
// observations of a smooth function at uniform points of the box, under
// the front ends' settings. The ratios are in docs/performance.md.
//
//	go test -run XXX -bench AvgCandidateStep -cpu 1 -benchtime 3x ./internal/frontend
func BenchmarkAvgCandidateStep(b *testing.B) {
	for _, c := range []struct {
		label string
		g     Group
		base  string
	}{
		{"scaling2", Group{Group: "scaling", D: 2, Box: [][]float64{{0.1}, {10}}}, "rbf"},
		{"scalingdir3", Group{Group: "scalingdir", D: 3, Box: [][]float64{{1}, {2}}}, "rbf"},
		{"permutation6-of-10", Group{Group: "permutation", D: 10, Box: [][]float64{{-1}, {1}}, Coords: []int{1, 3, 5, 7, 8, 9}}, "rbf"},
		{"permutation6", Group{Group: "permutation", D: 6, Box: [][]float64{{-1}, {1}}}, "rbf"},
	} {
		for _, n := range []int{30, 55} {
			b.Run(fmt.Sprintf("group=%s/n=%d", c.label, n), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(7, uint64(n)))
				lo, hi := c.g.Box[0][0], c.g.Box[1][0]
				xs := make([][]float64, n)
				ys := make([]float64, n)
				for i := range xs {
					xs[i] = make([]float64, c.g.D)
					for j := range xs[i] {
						xs[i][j] = lo + (hi-lo)*rng.Float64()
					}
					ys[i] = math.Sin(3*xs[i][0]/xs[i][1]) + xs[i][c.g.D-1]/xs[i][1]
				}
				kernels := []string{"plus", DefaultKernel, "auto", "portfolio:nystrom+avg:soft+plus", "avg"}
				labels := []string{"plus", "default", "auto", "portfolio-avg", "avg"}
				spent := make([]time.Duration, len(kernels))
				for b.Loop() {
					for i, k := range kernels {
						s := SuggestSettings{Group: c.g, Base: c.base, Kernel: k}
						spent[i] += timedAsk(b, labels[i], s, xs, ys)
					}
				}
				for i := range kernels {
					b.ReportMetric(spent[i].Seconds()*1e3/float64(b.N), labels[i]+"-ms")
					if i > 0 {
						b.ReportMetric(float64(spent[i])/float64(spent[0]), labels[i]+"/plus")
					}
				}
			})
		}
	}
}

// BenchmarkAvgListStep: how a step of the deciding kernels grows with
// |G| where avg is kept (AutoEnumerateLimit), over permutation(m) and
// hyperoctahedral(m), m = 3 … 6, on their own coordinates ([−1, 1]^m)
// and on m of 10 coordinates, with RBF (the permanent, counted 2^m) and
// with Matérn-5/2 (enumerated, |G| ≤ 64: permutation(3), (4) and
// hyperoctahedral(3)). At n = 10, 11, 12 and 30, 31, 32 observations of
// sin(3x₁/x₂) + x_d/x₂ at uniform points (three data sets at each size:
// the ascents' lengths, not |G|, make most of the spread), under the
// front ends' settings, it times one Ask of plus, the default, auto and
// portfolio:nystrom+avg:soft+plus in turn, reporting each one's ratio to
// plus's. Under those settings (bo.DecideOptions.Afford) auto and the
// list leave avg out over permutation(4) and hyperoctahedral(3) with
// Matérn-5/2, whose enumerated k_avg has more than
// bo.AffordEnumerateLimit elements: their cells time them as a front
// end builds them. The table is in docs/performance.md.
//
//	go test -run XXX -bench AvgListStep -cpu 1 -benchtime 2x -timeout 1h ./internal/frontend
func BenchmarkAvgListStep(b *testing.B) {
	on10 := func(m int) []int {
		c := []int{1, 3, 5, 7, 8, 9}
		if m < 6 {
			c = []int{1, 3, 5, 7, 9}[:m]
		}
		return c
	}
	for _, base := range []string{"rbf", "matern52"} {
		for _, group := range []string{"permutation", "hyperoctahedral"} {
			for m := 3; m <= 6; m++ {
				if base == "matern52" && (group == "permutation" && m > 4 || group == "hyperoctahedral" && m > 3) {
					continue // over AutoEnumerateLimit: avg left out
				}
				for _, g := range []Group{
					{Group: group, D: m, Box: [][]float64{{-1}, {1}}},
					{Group: group, D: 10, Box: [][]float64{{-1}, {1}}, Coords: on10(m)},
				} {
					label := fmt.Sprintf("%s%d", group, m)
					if g.Coords != nil {
						label += "-of-10"
					}
					for _, n := range []int{10, 11, 12, 30, 31, 32} {
						b.Run(fmt.Sprintf("base=%s/group=%s/n=%d", base, label, n), func(b *testing.B) {
							rng := rand.New(rand.NewPCG(7, uint64(n)))
							xs := make([][]float64, n)
							ys := make([]float64, n)
							for i := range xs {
								xs[i] = make([]float64, g.D)
								for j := range xs[i] {
									xs[i][j] = 2*rng.Float64() - 1
								}
								ys[i] = math.Sin(3*xs[i][0]/xs[i][1]) + xs[i][g.D-1]/xs[i][1]
							}
							kernels := []string{"plus", DefaultKernel, "auto", "portfolio:nystrom+avg:soft+plus"}
							labels := []string{"plus", "default", "auto", "list"}
							spent := make([]time.Duration, len(kernels))
							for b.Loop() {
								for i, k := range kernels {
									spent[i] += timedAsk(b, labels[i], SuggestSettings{Group: g, Base: base, Kernel: k}, xs, ys)
								}
							}
							b.ReportMetric(spent[0].Seconds()*1e3/float64(b.N), "plus-ms")
							for i := 1; i < len(kernels); i++ {
								b.ReportMetric(float64(spent[i])/float64(spent[0]), labels[i]+"/plus")
							}
						})
					}
				}
			}
		}
	}
}
