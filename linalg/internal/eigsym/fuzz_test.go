package eigsym

import (
	"math"
	"math/rand/v2"
	"testing"
)

// fuzzEntry draws a matrix entry of any magnitude: ordinary, huge, tiny,
// subnormal, zero, or a repeat of a fixed value (exact multiplicities).
func fuzzEntry(r *rand.Rand, scale float64) float64 {
	v := r.NormFloat64()
	switch r.IntN(10) {
	case 0:
		v *= 1e300
	case 1:
		v *= 1e-300
	case 2:
		v = math.Float64frombits(r.Uint64() & 0x000fffffffffffff) // subnormal
	case 3, 4:
		v = 0
	case 5:
		v = 1
	default:
		v *= scale
	}
	return v
}

// FuzzEigen checks Eigen on small symmetric matrices with entries of any
// magnitude and structure: finite results, ascending values, and, relative
// to the largest entry, ‖A·Z − Z·Λ‖ and ‖ZᵀZ − I‖ within 1e-12·n.
func FuzzEigen(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint8(0), 0.0)
	f.Add(uint64(2), uint8(30), uint8(1), 5.0)
	f.Add(uint64(3), uint8(60), uint8(2), -200.0)
	f.Add(uint64(4), uint8(9), uint8(3), 150.0)
	f.Fuzz(func(t *testing.T, seed uint64, n8, kind uint8, logScale float64) {
		if math.IsNaN(logScale) || math.Abs(logScale) > 300 {
			return
		}
		n := int(n8)%70 + 1
		scale := math.Pow(10, logScale)
		r := rand.New(rand.NewPCG(seed, 99))
		full := make([]float64, n*n)
		for i := range n {
			for j := i; j < n; j++ {
				var v float64
				switch kind % 4 {
				case 0: // dense
					v = fuzzEntry(r, scale)
				case 1: // tridiagonal
					if j <= i+1 {
						v = fuzzEntry(r, scale)
					}
				case 2: // diagonal plus sparse couplings
					if i == j || r.IntN(8) == 0 {
						v = fuzzEntry(r, scale)
					}
				case 3: // banded with repeated diagonal
					switch {
					case i == j:
						v = scale
					case j-i <= 3:
						v = fuzzEntry(r, scale)
					}
				}
				full[i*n+j], full[j*n+i] = v, v
			}
		}
		vals, z := eigenOf(t, n, full, 1)
		var amax float64
		for _, v := range full {
			amax = max(amax, math.Abs(v))
		}
		for _, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("n=%d: non-finite eigenvalue: %v", n, vals)
			}
		}
		for _, v := range z {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("n=%d: non-finite eigenvector entry", n)
			}
		}
		for i := 1; i < n; i++ {
			if vals[i] < vals[i-1] {
				t.Fatalf("n=%d: values not ascending: %v", n, vals)
			}
		}
		// Residual and orthogonality of the problem scaled to max entry ≈ 1.
		s := 1.0
		if amax > 0 {
			s1, s2 := pow2Scale(amax)
			s = s1 * s2
		}
		var res, orth float64
		for i := range n {
			for j := range n {
				var a, o float64
				for k := range n {
					a += (full[i*n+k] * s) * z[k*n+j]
					o += z[k*n+i] * z[k*n+j]
				}
				a -= z[i*n+j] * (vals[j] * s)
				if i == j {
					o--
				}
				res = max(res, math.Abs(a))
				orth = max(orth, math.Abs(o))
			}
		}
		if tol := 1e-12 * float64(n); res > tol || orth > tol {
			t.Fatalf("n=%d kind=%d: max residual %g, max |ZᵀZ − I| %g (tolerance %g)", n, kind%4, res, orth, tol)
		}
	})
}
