package linalg_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	blasgonum "gonum.org/v1/gonum/blas/gonum"

	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/linalg/internal/eigsym"
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

// BenchmarkGemmImpl compares, in one run, three n×n products C = A·B:
// impl=eigsym, the packed FMA GEMM of the gonum backend's eigensolver and
// of its Gemm (GOMAXPROCS goroutines), impl=gonum, gonum's own Dgemm
// (gonum.org/v1/gonum/blas/gonum; GOMAXPROCS goroutines), and
// impl=openblas, OpenBLAS's dgemm
// (builds with -tags openblas; SYMBO_OPENBLAS_THREADS threads, default 1).
// Run with -cpu 1 for one thread each. Reports GFLOP/s (2n³ flops).
func BenchmarkGemmImpl(b *testing.B) {
	ob, obErr := linalg.ByName("openblas")
	for _, n := range []int{200, 1000} {
		r := rand.New(rand.NewPCG(4, uint64(n)))
		x, y := make([]float64, n*n), make([]float64, n*n)
		for i := range x {
			x[i], y[i] = r.NormFloat64(), r.NormFloat64()
		}
		c := make([]float64, n*n)
		xm, ym, cm := mat.NewDense(n, n, x), mat.NewDense(n, n, y), mat.NewDense(n, n, nil)
		impls := []struct {
			name string
			f    func()
		}{
			{"eigsym", func() { eigsym.Gemm(false, false, n, n, n, 1, x, n, y, n, 0, c, n, 0) }},
			{"gonum", func() {
				blasgonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, x, n, y, n, 0, c, n)
			}},
		}
		if obErr == nil {
			impls = append(impls, struct {
				name string
				f    func()
			}{"openblas", func() { ob.Gemm(false, false, 1, xm, ym, 0, cm) }})
		}
		for _, im := range impls {
			b.Run(fmt.Sprintf("impl=%s/n=%d", im.name, n), func(b *testing.B) {
				for b.Loop() {
					im.f()
				}
				b.ReportMetric(2*float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
