package eigsym

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkEigen checks A·Z = Z·diag(vals) and ZᵀZ = I in the Frobenius norm
// relative to ‖A‖, from the full matrix.
func checkEigen(t *testing.T, n int, full, vals, z []float64, tol float64) {
	t.Helper()
	if !slices.IsSorted(vals[:n]) {
		t.Errorf("eigenvalues not ascending")
	}
	norm := frobNorm(full)
	var res, orth float64
	for i := range n {
		for j := range n {
			var s, o float64
			for k := range n {
				s += full[i*n+k] * z[k*n+j]
				o += z[k*n+i] * z[k*n+j]
			}
			s -= z[i*n+j] * vals[j]
			if i == j {
				o--
			}
			res += s * s
			orth += o * o
		}
	}
	res, orth = math.Sqrt(res), math.Sqrt(orth)
	if !(res <= tol*max(norm, math.SmallestNonzeroFloat64)) {
		t.Errorf("n=%d: ‖AZ − ZΛ‖ = %g > %g·‖A‖ (‖A‖ = %g)", n, res, tol, norm)
	}
	if !(orth <= tol) {
		t.Errorf("n=%d: ‖ZᵀZ − I‖ = %g", n, orth)
	}
}

func TestEigen(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 8, 9, 31, 32, 33, 55, 63, 64, 65, 100, 200, 300} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(n), 7))
			full := randSym(r, n)
			a := slices.Clone(full)
			vals, z := make([]float64, n), make([]float64, n*n)
			if err := Eigen(n, a, n, vals, z, n, 0); err != nil {
				t.Fatal(err)
			}
			checkEigen(t, n, full, vals, z, 1e-13)
		})
	}
}
