package eigsym

import (
	"fmt"
	"math/rand/v2"
	"runtime"
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

// BenchmarkTeamSpin times what teamSpins weighs (docs/performance.md,
// "The eigensolver team's spinning"): one runtime.Gosched of an idle
// process (yield; spin-µs is teamSpins of them, an idle helper's window
// before it parks), one of the tridiagonal reduction's matrix-vector
// products on a team of two (symv, ns per loop), and the reduction on two
// workers per column (sytrd, µs/column: a column's loop and the serial
// work around it).
func BenchmarkTeamSpin(b *testing.B) {
	b.Run("yield", func(b *testing.B) {
		for b.Loop() {
			runtime.Gosched()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)*teamSpins/1e3, "spin-µs")
	})
	for _, m := range []int{symvParallel, 1000, 3000} {
		b.Run(fmt.Sprintf("symv/m=%d", m), func(b *testing.B) {
			a := randSym(rand.New(rand.NewPCG(1, uint64(m))), m)
			v, y := make([]float64, m), make([]float64, m)
			for i := range v {
				v[i] = float64(i%7) - 3
			}
			var ws workspace
			tm := newTeam(2)
			defer tm.close()
			for b.Loop() {
				symv(m, a, m, v, y, &ws, tm)
			}
		})
	}
	for _, n := range []int{1000} {
		b.Run(fmt.Sprintf("sytrd/n=%d", n), func(b *testing.B) {
			full := randSym(rand.New(rand.NewPCG(1, uint64(n))), n)
			a := make([]float64, n*n)
			d, e, tau := make([]float64, n), make([]float64, n), make([]float64, n)
			var ws workspace
			var t time.Duration
			for b.Loop() {
				copy(a, full)
				s := time.Now()
				sytrd(n, a, n, d, e, tau, &ws, 2)
				t += time.Since(s)
			}
			b.ReportMetric(float64(t.Nanoseconds())/1e3/float64(b.N*n), "µs/column")
		})
	}
}
