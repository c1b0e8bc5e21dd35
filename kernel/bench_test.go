package kernel_test

import (
	"fmt"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkGram times Gram assembly. For the enumeration path it reports
// GFLOP/s counting 2·d flops per (pair, group element): the d multiplies
// and d adds of ⟨x, g·y⟩, the same multiply-adds a GEMM of X against the
// orbit buffer would do, so the figure compares with DGEMM's 2mnk. Pairs
// are n(n−1)/2 for max (the diagonal is v), n(n+1)/2 for avg, and n² for
// plus (its features need k_max(x, D) for all n×n pairs, D = x).
func BenchmarkGram(b *testing.B) {
	sf, _ := orbit.SignFlip(6)
	ho, _ := orbit.Hyperoctahedral(5)
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	for _, g := range []orbit.Finite{sf, ho} {
		G := int(g.Order().Int64())
		d := g.Dim()
		for _, n := range []int{55, 500} {
			x := kerneltest.Points(g, n, 1)
			for _, kind := range []string{"avg", "max", "plus"} {
				for _, method := range []kernel.Method{kernel.Enumerate, kernel.Closed} {
					if kind == "avg" && method == kernel.Closed {
						continue
					}
					o := kernel.Options{Method: method}
					var k kernel.Kernel
					var err error
					pairs := float64(n) * float64(n-1) / 2
					switch kind {
					case "avg":
						k, err = kernel.NewAvg(p, g, o)
						pairs = float64(n) * float64(n+1) / 2
					case "max":
						k, err = kernel.NewMax(p, g, o)
					case "plus":
						var m *kernel.Max
						if m, err = kernel.NewMax(p, g, o); err == nil {
							k, err = kernel.NewPlus(m, x, kernel.PlusOptions{})
						}
						pairs = float64(n) * float64(n)
					}
					if err != nil {
						b.Fatal(err)
					}
					name := fmt.Sprintf("group=%s/kernel=%s/method=%s/n=%d", g.Name(), kind, method, n)
					b.Run(name, func(b *testing.B) {
						b.ReportAllocs()
						var dst mat.SymDense
						for b.Loop() {
							if err := kernel.Gram(k, &dst, x); err != nil {
								b.Fatal(err)
							}
						}
						if method == kernel.Enumerate {
							flops := pairs * float64(G) * 2 * float64(d) * float64(b.N)
							b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
						}
					})
				}
			}
		}
	}
}
