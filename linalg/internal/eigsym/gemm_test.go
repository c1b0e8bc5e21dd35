package eigsym

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/internal/f64"
)

// naiveGemm is the specification of gemm written out: each entry one
// math.FMA chain from beta·c.
func naiveGemm(ta, tb bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	at := func(i, p int) float64 {
		if ta {
			return a[p*lda+i]
		}
		return a[i*lda+p]
	}
	bt := func(p, j int) float64 {
		if tb {
			return b[j*ldb+p]
		}
		return b[p*ldb+j]
	}
	for i := range m {
		for j := range n {
			var s float64
			switch beta {
			case 0:
			case 1:
				s = c[i*ldc+j]
			default:
				s = beta * c[i*ldc+j]
			}
			if alpha != 0 {
				for p := range k {
					s = math.FMA(alpha*at(i, p), bt(p, j), s)
				}
			}
			c[i*ldc+j] = s
		}
	}
}

// simdLevels lists the paths this CPU can run, generic first.
func simdLevels() []string {
	var ls []string
	for _, l := range []string{"generic", "avx2", "avx512"} {
		if restore, ok := f64.ForceLevel(l); ok {
			restore()
			ls = append(ls, l)
		}
	}
	return ls
}

func randSlice(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = r.NormFloat64()
	}
	return s
}

func TestGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	shapes := [][3]int{{1, 1, 1}, {7, 9, 5}, {8, 24, 1}, {33, 65, 17}, {72, 150, 110}, {40, 260, 33}, {5, 300, 40}}
	workerCounts := []int{1, 8}
	if !testing.Short() {
		shapes = append(shapes, [3]int{129, 241, 300}, [3]int{300, 31, 513}, [3]int{260, 260, 64}, [3]int{64, 1000, 40})
		workerCounts = []int{1, 3, 8}
	}
	for _, s := range shapes {
		m, n, k := s[0], s[1], s[2]
		for _, ta := range []bool{false, true} {
			for _, tb := range []bool{false, true} {
				for _, ab := range [][2]float64{{1, 0}, {-1, 1}, {0.3, -2}} {
					alpha, beta := ab[0], ab[1]
					lda, ldb, ldc := k+r.IntN(3), n+r.IntN(3), n+r.IntN(3)
					if ta {
						lda = m + r.IntN(3)
					}
					if tb {
						ldb = k + r.IntN(3)
					}
					a := randSlice(r, max(m, k)*lda)
					b := randSlice(r, max(n, k)*ldb)
					c0 := randSlice(r, m*ldc)
					want := append([]float64(nil), c0...)
					naiveGemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
					for _, lvl := range simdLevels() {
						for _, w := range workerCounts {
							for _, tri := range []triangle{full, upper} {
								restore, _ := forceLevel(lvl)
								c := append([]float64(nil), c0...)
								gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, tri, w)
								restore()
								name := fmt.Sprintf("%s m=%d n=%d k=%d ta=%v tb=%v alpha=%v beta=%v w=%d tri=%d", lvl, m, n, k, ta, tb, alpha, beta, w, tri)
								for i := range m {
									for j := range ldc {
										g, wv := c[i*ldc+j], want[i*ldc+j]
										if j >= n {
											wv = c0[i*ldc+j] // padding untouched
										} else if tri == upper && j < i {
											continue
										}
										if math.Float64bits(g) != math.Float64bits(wv) {
											t.Fatalf("%s: c[%d][%d] = %v, want %v", name, i, j, g, wv)
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

// BenchmarkGemm reports the GFLOP/s of the square product C = A·B.
func BenchmarkGemm(b *testing.B) {
	for _, n := range []int{55, 500, 1000} {
		for _, w := range []int{1, 0} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				r := rand.New(rand.NewPCG(3, uint64(n)))
				x, y, c := randSlice(r, n*n), randSlice(r, n*n), make([]float64, n*n)
				for b.Loop() {
					gemm(false, false, n, n, n, 1, x, n, y, n, 0, c, n, full, numWorkers(w))
				}
				b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// BenchmarkGemmLayout times the contiguous-packing layout the solver uses
// (C = AᵀB with A stored k×m).
func BenchmarkGemmLayout(b *testing.B) {
	for _, n := range []int{500, 1000} {
		for _, w := range []int{1, 0} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				r := rand.New(rand.NewPCG(3, uint64(n)))
				x, y, c := randSlice(r, n*n), randSlice(r, n*n), make([]float64, n*n)
				for b.Loop() {
					gemm(true, false, n, n, n, 1, x, n, y, n, 0, c, n, full, numWorkers(w))
				}
				b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

func forceLevel(l string) (func(), bool) { return f64.ForceLevel(l) }

func TestGemmExported(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	m, n, k := 37, 53, 29
	a, b := randSlice(r, k*m), randSlice(r, k*n)
	c := randSlice(r, m*n)
	want := append([]float64(nil), c...)
	naiveGemm(true, false, m, n, k, -0.5, a, m, b, n, 2, want, n)
	Gemm(true, false, m, n, k, -0.5, a, m, b, n, 2, c, n, 0)
	if !sameBits(c, want) {
		t.Error("Gemm differs from its specification")
	}
	defer func() {
		if recover() == nil {
			t.Error("Gemm with a short c did not panic")
		}
	}()
	Gemm(false, false, m, n, k, 1, a, k, b, n, 0, c[:10], n, 0)
}
