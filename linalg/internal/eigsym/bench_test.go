package eigsym

import (
	"fmt"
	"math/rand/v2"
	"testing"
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
