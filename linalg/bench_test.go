package linalg_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/linalg/linalgtest"
)

func benchBackends(b *testing.B, f func(b *testing.B, be linalg.Backend)) {
	for _, name := range linalg.Available() {
		be, err := linalg.ByName(name)
		if err != nil {
			b.Fatal(err)
		}
		f(b, be)
	}
}

func BenchmarkEigenSym(b *testing.B) {
	benchBackends(b, func(b *testing.B, be linalg.Backend) {
		for _, n := range []int{55, 500, 1000} {
			b.Run(fmt.Sprintf("backend=%s/n=%d", be.Name(), n), func(b *testing.B) {
				a := linalgtest.RandomSymmetric(rand.New(rand.NewPCG(1, uint64(n))), n)
				var e linalg.Eigen
				b.ReportAllocs()
				for b.Loop() {
					if err := be.EigenSym(&e, a); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}

func BenchmarkCholesky(b *testing.B) {
	benchBackends(b, func(b *testing.B, be linalg.Backend) {
		for _, n := range []int{55, 500, 1000} {
			a := linalgtest.RandomPD(rand.New(rand.NewPCG(2, uint64(n))), n)
			var c linalg.Cholesky
			b.Run(fmt.Sprintf("backend=%s/op=factor/n=%d", be.Name(), n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := be.Cholesky(&c, a); err != nil {
						b.Fatal(err)
					}
				}
			})
			x := make([]float64, n)
			rhs := make([]float64, n)
			for i := range rhs {
				rhs[i] = float64(i%5) - 2
			}
			b.Run(fmt.Sprintf("backend=%s/op=solvevec/n=%d", be.Name(), n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := c.SolveVecTo(x, rhs); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}

// BenchmarkGemm times C = A·B for n×n matrices and reports GFLOP/s
// (2n³ flops per product).
func BenchmarkGemm(b *testing.B) {
	benchBackends(b, func(b *testing.B, be linalg.Backend) {
		for _, n := range []int{55, 500, 1000} {
			b.Run(fmt.Sprintf("backend=%s/n=%d", be.Name(), n), func(b *testing.B) {
				r := rand.New(rand.NewPCG(3, uint64(n)))
				x, y := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
				for i := range n {
					for j := range n {
						x.Set(i, j, r.NormFloat64())
						y.Set(i, j, r.NormFloat64())
					}
				}
				c := mat.NewDense(n, n, nil)
				b.ReportAllocs()
				for b.Loop() {
					be.Gemm(false, false, 1, x, y, 0, c)
				}
				flops := 2 * float64(n) * float64(n) * float64(n) * float64(b.N)
				b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	})
}
