package gp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestHouseholderQR: the transform is orthogonal (the Gram of the columns
// is kept), and R and Qᵀ·(extra columns) agree with LAPACK's Dgeqrf and
// Dormqr (gonum's) to rounding, across panel boundaries, for tall and
// square matrices; with a duplicated and a zero column (where the
// reflectors past the dependent column are rounding noise, in LAPACK's
// too) the Gram still holds.
func TestHouseholderQR(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 0))
	for _, sz := range [][2]int{{1, 1}, {7, 1}, {7, 7}, {17, 5}, {40, 16}, {40, 17}, {100, 33}, {65, 64}, {300, 40}, {200, 70}} {
		n, k := sz[0], sz[1]
		for _, special := range []bool{false, true} {
			if special && k < 4 {
				continue
			}
			t.Run(fmt.Sprintf("n=%d/k=%d/special=%v", n, k, special), func(t *testing.T) {
				c, s := k+2, k+3 // two extra columns, padding in the stride
				a := make([]float64, n*s)
				for i := range a {
					a[i] = rng.Float64()*2 - 1
				}
				if special {
					for i := range n {
						a[i*s+2] = a[i*s+1] // duplicate
						a[i*s+3] = 0        // zero
					}
				}
				// Reference: Dgeqrf on the first k columns, Dormqr on the rest.
				ref := append([]float64(nil), a...)
				impl := gonum.Implementation{}
				tau := make([]float64, k)
				work := make([]float64, 1)
				impl.Dgeqrf(n, k, ref, s, tau, work, -1)
				work = make([]float64, max(int(work[0]), 1))
				impl.Dgeqrf(n, k, ref, s, tau, work, len(work))
				impl.Dormqr(blas.Left, blas.Trans, n, c-k, k, ref, s, tau, ref[k:], s, work, -1)
				work = make([]float64, max(int(work[0]), 1))
				impl.Dormqr(blas.Left, blas.Trans, n, c-k, k, ref, s, tau, ref[k:], s, work, len(work))

				// Ours, column-major (leading dimension n+1).
				lda := n + 1
				cm := make([]float64, (c+1)*lda)
				for i := range n {
					for j := range c + 1 {
						cm[j*lda+i] = a[i*s+j]
					}
				}
				householderQR(linalg.Gonum(), cm, n, k, c, lda, make([]float64, k))
				got := make([]float64, len(a))
				for i := range n {
					for j := range c + 1 {
						got[i*s+j] = cm[j*lda+i]
					}
				}
				var scale float64
				for _, v := range a {
					scale = max(scale, math.Abs(v))
				}
				tol := 1e-12 * scale * math.Sqrt(float64(n))
				// Qᵀ is orthogonal: the transformed columns (R above the
				// diagonal, zeros below, Qᵀy) have the Gram of the input.
				tr := func(i, j int) float64 {
					if j < k && i > j {
						return 0
					}
					return got[i*s+j]
				}
				for p := range c {
					for q := p; q < c; q++ {
						var g0, g1 float64
						for i := range n {
							g0 += a[i*s+p] * a[i*s+q]
							g1 += tr(i, p) * tr(i, q)
						}
						if math.Abs(g0-g1) > tol*scale*math.Sqrt(float64(n)) {
							t.Fatalf("Gram (%d, %d): %v after, %v before", p, q, g1, g0)
						}
					}
				}
				if special {
					return // past the dependent column the reflectors are rounding noise
				}
				for i := range min(n, k) {
					for j := i; j < k; j++ {
						if d := math.Abs(got[i*s+j] - ref[i*s+j]); d > tol {
							t.Fatalf("R[%d,%d] = %v, LAPACK %v", i, j, got[i*s+j], ref[i*s+j])
						}
					}
				}
				for i := range n {
					for j := k; j < c; j++ {
						if d := math.Abs(got[i*s+j] - ref[i*s+j]); d > tol {
							t.Fatalf("(Qᵀy)[%d] column %d = %v, LAPACK %v", i, j, got[i*s+j], ref[i*s+j])
						}
					}
					// The padding is untouched.
					if got[i*s+c] != a[i*s+c] {
						t.Fatalf("padding changed at row %d", i)
					}
				}
			})
		}
	}
}
