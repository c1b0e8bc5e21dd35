//go:build cgo && openblas

package linalg_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/netlib/lapack/lapacke"

	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/linalg/linalgtest"
)

// BenchmarkDpotrs times one right-hand side solved with the openblas
// backend's Cholesky factor (impl=trsv: SolveVecTo, the two triangular
// solves Cholesky's triSolver makes) and with LAPACKE's row-major dpotrs
// on the same factor (impl=lapacke, the call triSolver's doc declines:
// it copies and transposes L on every call). docs/performance.md, "One
// right-hand side: dpotrs through LAPACKE", records the ratio.
//
//	go test -tags openblas -run '^$' -bench Dpotrs -cpu 1 ./linalg/
func BenchmarkDpotrs(b *testing.B) {
	be, err := linalg.ByName("openblas")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{55, 1000} {
		a := linalgtest.RandomPD(rand.New(rand.NewPCG(2, uint64(n))), n)
		var c linalg.Cholesky
		if err := be.Cholesky(&c, a); err != nil {
			b.Fatal(err)
		}
		l := make([]float64, n*n)
		for i := range n {
			for j := 0; j <= i; j++ {
				l[i*n+j] = a.At(i, j)
			}
		}
		if !lapacke.Dpotrf('L', n, l, n) {
			b.Fatal("dpotrf failed")
		}
		rhs, x, y := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range rhs {
			rhs[i] = float64(i%5) - 2
		}
		if err := c.SolveVecTo(x, rhs); err != nil {
			b.Fatal(err)
		}
		copy(y, rhs)
		if !lapacke.Dpotrs('L', n, 1, l, n, y, 1) {
			b.Fatal("dpotrs failed")
		}
		for i := range x {
			if math.Abs(x[i]-y[i]) > 1e-9*(1+math.Abs(y[i])) {
				b.Fatalf("n = %d: solutions differ at %d: %g and %g", n, i, x[i], y[i])
			}
		}
		b.Run(fmt.Sprintf("impl=trsv/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if err := c.SolveVecTo(x, rhs); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("impl=lapacke/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(y, rhs)
				if !lapacke.Dpotrs('L', n, 1, l, n, y, 1) {
					b.Fatal("dpotrs failed")
				}
			}
		})
	}
}
