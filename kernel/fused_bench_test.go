package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkEnumerateVsGemm measures, in one run, the max Gram by
// enumeration (hyperoctahedral group, d = 5, |G| = 3840, n = 1000, one
// worker) against DGEMM at n = 1000 on every available linalg backend
// (build with -tags openblas for OpenBLAS; run with -cpu 1). Both report
// GFLOP/s with the same convention: 2·d·|G| flops per pair and group
// element (the multiply-adds of X times the orbit buffer), n(n+1)/2 pairs,
// and 2n³ per DGEMM. The SIMD path (f64.Level, capped by SYMBO_SIMD) is in
// the name.
func BenchmarkEnumerateVsGemm(b *testing.B) {
	const n = 1000
	ho, err := orbit.Hyperoctahedral(5)
	if err != nil {
		b.Fatal(err)
	}
	G, d := int(ho.Order().Int64()), ho.Dim()
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	k, err := kernel.NewMax(p, ho, kernel.Options{Method: kernel.Enumerate, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	x := kerneltest.Points(ho, n, 1)
	b.Run(fmt.Sprintf("op=maxgram/path=%s/group=%s/n=%d", f64.Level(), ho.Name(), n), func(b *testing.B) {
		b.ReportAllocs()
		var dst mat.SymDense
		for b.Loop() {
			if err := kernel.Gram(k, &dst, x); err != nil {
				b.Fatal(err)
			}
		}
		flops := float64(n) * float64(n+1) / 2 * float64(G) * 2 * float64(d) * float64(b.N)
		b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
	for _, name := range linalg.Available() {
		be, err := linalg.ByName(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("op=dgemm/backend=%s/n=%d", name, n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(3, n))
			a, c := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
			bb := mat.NewDense(n, n, nil)
			for i := range n {
				for j := range n {
					a.Set(i, j, r.NormFloat64())
					bb.Set(i, j, r.NormFloat64())
				}
			}
			for b.Loop() {
				be.Gemm(false, false, 1, a, bb, 0, c)
			}
			flops := 2 * float64(n) * float64(n) * float64(n) * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
