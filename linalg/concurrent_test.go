package linalg_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/linalg/linalgtest"
	"gonum.org/v1/gonum/mat"
)

// TestConcurrentReads: the package doc says a Cholesky may be read
// concurrently and backends are safe for concurrent use: one
// factorization solved by many goroutines at once (SolveTo, SolveLTo,
// SolveVecTo, LogDet, LTo), each also running EigenSymProject on one
// shared matrix, gives the bits of serial calls (run it with -race).
func TestConcurrentReads(t *testing.T) {
	for _, name := range linalg.Available() {
		t.Run("backend="+name, func(t *testing.T) {
			be, err := linalg.ByName(name)
			if err != nil {
				t.Fatal(err)
			}
			const n, p = 40, 3
			r := rand.New(rand.NewPCG(5, 9))
			pd, sym := linalgtest.RandomPD(r, n), linalgtest.RandomSymmetric(r, n)
			b := mat.NewDense(n, p, nil)
			for i := range n {
				for j := range p {
					b.Set(i, j, r.NormFloat64())
				}
			}
			var c linalg.Cholesky
			if err := be.Cholesky(&c, pd); err != nil {
				t.Fatal(err)
			}
			reads := func() ([]float64, error) {
				var x, xl mat.Dense
				if err := c.SolveTo(&x, b); err != nil {
					return nil, err
				}
				if err := c.SolveLTo(&xl, b); err != nil {
					return nil, err
				}
				v := make([]float64, n)
				if err := c.SolveVecTo(v, b.RawMatrix().Data[:n]); err != nil {
					return nil, err
				}
				var l mat.TriDense
				c.LTo(&l)
				var e linalg.EigenProj
				if err := linalg.EigenSymProject(be, &e, sym, b); err != nil {
					return nil, err
				}
				out := append(append([]float64(nil), x.RawMatrix().Data...), xl.RawMatrix().Data...)
				out = append(append(out, v...), c.LogDet())
				out = append(out, l.RawTriangular().Data...)
				out = append(out, e.Values...)
				return append(out, e.Proj.RawMatrix().Data...), nil
			}
			want, err := reads()
			if err != nil {
				t.Fatal(err)
			}
			const goroutines = 6
			errs := make([]error, goroutines)
			var wg sync.WaitGroup
			for w := range goroutines {
				wg.Go(func() {
					got, err := reads()
					if err != nil {
						errs[w] = err
						return
					}
					for i := range got {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
							errs[w] = fmt.Errorf("goroutine %d, value %d: %v, serial %v", w, i, got[i], want[i])
							return
						}
					}
				})
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
}
