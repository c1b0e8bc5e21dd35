package f64

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveTile is an independent reference for GemmKernel: each entry's
// chain of math.FMA over p, reading the packed panels by their layout.
func naiveTile(k, mr, nr int, a, b, c []float64, ldc int) {
	for i := range mr {
		for j := range nr {
			s := c[i*ldc+j]
			for p := range k {
				s = math.FMA(a[p*mr+i], b[p*nr+j], s)
			}
			c[i*ldc+j] = s
		}
	}
}

func TestGemmKernelPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ks := []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 64, 257}
	for _, p := range paths() {
		restore := setFeatures(p.f)
		mr, nr := GemmTile()
		for _, guard := range []float64{math.NaN(), 1e300} {
			for _, k := range ks {
				ldc := nr + r.IntN(5)
				a := make([]float64, k*mr)
				b := make([]float64, k*nr)
				randVec(r, a)
				randVec(r, b)
				off := r.IntN(4)
				clen := (mr-1)*ldc + nr
				cbuf, c := guarded(clen, off, guard)
				for i := range mr {
					for j := range nr {
						c[i*ldc+j] = fuzzValue(r, 1)
					}
				}
				want := make([]float64, clen)
				copy(want, c)
				naiveTile(k, mr, nr, a, b, want, ldc)
				GemmKernel(k, a, b, c, ldc)
				for i := range mr {
					for j := range nr {
						if g, w := c[i*ldc+j], want[i*ldc+j]; !sameBits(g, w) {
							t.Fatalf("%s k=%d: c[%d][%d] = %v, want %v", p.name, k, i, j, g, w)
						}
					}
				}
				for i, v := range cbuf {
					in := i >= off && i < off+clen && (i-off)%ldc < nr
					if !in && !sameBits(v, guard) {
						t.Fatalf("%s k=%d: guard %d overwritten: %v", p.name, k, i, v)
					}
				}
			}
		}
		restore()
	}
}

func TestGemmKernelPanics(t *testing.T) {
	mr, nr := GemmTile()
	defer func() {
		if recover() == nil {
			t.Error("GemmKernel with a short c did not panic")
		}
	}()
	GemmKernel(1, make([]float64, mr), make([]float64, nr), make([]float64, nr), nr)
}

// BenchmarkGemmKernel times the register tile alone on L1-resident panels
// (k = 256) and reports its GFLOP/s, the ceiling of a packed GEMM.
func BenchmarkGemmKernel(b *testing.B) {
	for _, p := range paths() {
		b.Run("path="+p.name, func(b *testing.B) {
			restore := setFeatures(p.f)
			defer restore()
			mr, nr := GemmTile()
			const k = 256
			a, bp, c := make([]float64, k*mr), make([]float64, k*nr), make([]float64, mr*nr)
			for i := range a {
				a[i] = 1e-3
			}
			for i := range bp {
				bp[i] = 1e-3
			}
			for b.Loop() {
				GemmKernel(k, a, bp, c, nr)
			}
			b.ReportMetric(2*float64(k*mr*nr)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
