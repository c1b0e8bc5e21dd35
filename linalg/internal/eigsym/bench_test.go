package eigsym

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkEigen times Eigen on a random symmetric matrix (the copy of
// the input included, as callers that keep their matrix pay it).
func BenchmarkEigen(b *testing.B) {
	for _, n := range []int{55, 200, 1000} {
		for _, w := range []int{1, 0} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				full := randSym(rand.New(rand.NewPCG(1, uint64(n))), n)
				a := make([]float64, n*n)
				vals, z := make([]float64, n), make([]float64, n*n)
				b.ReportAllocs()
				for b.Loop() {
					copy(a, full)
					if err := Eigen(n, a, n, vals, z, n, w); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEigenPhases times the three phases of Eigen separately and
// reports each as ms/op of its own: the tridiagonal reduction (sytrd-ms),
// divide and conquer (stedc-ms) and the back-transformation (ormtr-ms).
func BenchmarkEigenPhases(b *testing.B) {
	for _, n := range []int{55, 1000, 3000} {
		for _, w := range []int{1, 0} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				full := randSym(rand.New(rand.NewPCG(1, uint64(n))), n)
				a := make([]float64, n*n)
				d, e, tau := make([]float64, n), make([]float64, n), make([]float64, n)
				z := make([]float64, n*n)
				var ws workspace
				wk := numWorkers(w)
				var t [3]time.Duration
				for b.Loop() {
					copy(a, full)
					s := time.Now()
					sytrd(n, a, n, d, e, tau, &ws, wk)
					t[0] += time.Since(s)
					s = time.Now()
					if err := stedc(n, d, e, z, n, &ws, wk); err != nil {
						b.Fatal(err)
					}
					t[1] += time.Since(s)
					s = time.Now()
					ormtr(n, a, n, tau, z, n, &ws, wk)
					t[2] += time.Since(s)
				}
				for i, name := range []string{"sytrd-ms", "stedc-ms", "ormtr-ms"} {
					b.ReportMetric(float64(t[i].Microseconds())/1e3/float64(b.N), name)
				}
			})
		}
	}
}

// BenchmarkQL times implicit QL with eigenvectors on a random tridiagonal
// block of stedc's leaf sizes (z = I, row stride 55), with the sweep's
// rotations applied a row at a time (ql, the code) and one rotation at a
// time over every row (qlColumns, the former order; the same bits): the
// ratio of the two in one run is the gain of the row order.
func BenchmarkQL(b *testing.B) {
	for _, m := range []int{12, smlsiz} {
		r := rand.New(rand.NewPCG(1, uint64(m)))
		d0, e0 := make([]float64, m), make([]float64, m)
		for i := range d0 {
			d0[i], e0[i] = r.NormFloat64(), r.NormFloat64()
		}
		const ldz = 55
		z := make([]float64, m*ldz)
		d, e := make([]float64, m), make([]float64, m)
		for _, order := range []string{"rows", "columns"} {
			b.Run(fmt.Sprintf("m=%d/%s", m, order), func(b *testing.B) {
				for b.Loop() {
					copy(d, d0)
					copy(e, e0)
					for i := range m {
						row := z[i*ldz : i*ldz+m]
						clear(row)
						row[i] = 1
					}
					ok := false
					if order == "rows" {
						ok = ql(m, d, e, z, ldz, m, 0)
					} else {
						ok = qlColumns(m, d, e, z, ldz, m, 0)
					}
					if !ok {
						b.Fatal("no convergence")
					}
				}
			})
		}
	}
}
