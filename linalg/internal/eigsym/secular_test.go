package eigsym

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// secularCase is D + ρ·z·zᵀ with sorted distinct d and nonzero z.
type secularCase struct {
	d, z []float64
	rho  float64
}

func secularCases(r *rand.Rand, K int) map[string]secularCase {
	cs := map[string]secularCase{}
	norm := func(z []float64) {
		s := nrm2(z)
		for i := range z {
			z[i] /= s
		}
	}
	mk := func(name string, fd func(i int) float64, fz func(i int) float64, rho float64) {
		d, z := make([]float64, K), make([]float64, K)
		for i := range K {
			d[i], z[i] = fd(i), fz(i)
		}
		slices.Sort(d)
		d = slices.Compact(d)
		z = z[:len(d)]
		norm(z)
		cs[name] = secularCase{d, z, rho}
	}
	mk("random", func(int) float64 { return r.NormFloat64() }, func(int) float64 { return r.NormFloat64() }, 1)
	mk("small-rho", func(int) float64 { return r.NormFloat64() }, func(int) float64 { return r.NormFloat64() }, 1e-8)
	mk("large-rho", func(int) float64 { return r.NormFloat64() }, func(int) float64 { return r.NormFloat64() }, 1e4)
	mk("tiny-weights", func(i int) float64 { return float64(i) }, func(i int) float64 {
		if i%3 == 0 {
			return 1e-7
		}
		return 1
	}, 0.5)
	mk("close-poles", func(i int) float64 { return float64(i/2) + 1e-9*float64(i%2) }, func(int) float64 { return 1 + r.Float64() }, 1)
	mk("graded", func(i int) float64 { return math.Pow(2, -float64(i)) }, func(i int) float64 { return math.Pow(2, -float64(i)/2) }, 1)
	return cs
}

// TestSecular compares the roots with the eigenvalues of the dense
// D + ρzzᵀ from gonum's Dsyev, checks interlacing, and that delta is
// d − λ.
func TestSecular(t *testing.T) {
	for _, K := range []int{1, 2, 3, 4, 10, 60} {
		r := rand.New(rand.NewPCG(uint64(K), 17))
		for name, c := range secularCases(r, K) {
			t.Run(fmt.Sprintf("K=%d/%s", K, name), func(t *testing.T) {
				k := len(c.d)
				full := make([]float64, k*k)
				for i := range k {
					for j := range k {
						full[i*k+j] = c.rho * c.z[i] * c.z[j]
					}
					full[i*k+i] += c.d[i]
				}
				want := dsyevValues(k, full)
				scale := math.Max(math.Abs(want[0]), math.Abs(want[k-1]))
				delta := make([]float64, k)
				for i := range k {
					lam := secular(i, c.d, c.z, c.rho, delta)
					if d := math.Abs(lam - want[i]); d > 1e-14*float64(k+4)*scale {
						t.Errorf("root %d: %.17g, Dsyev %.17g", i, lam, want[i])
					}
					if lam < c.d[i] || (i < k-1 && lam > c.d[i+1]) {
						t.Errorf("root %d = %.17g outside its interval", i, lam)
					}
					for j := range k {
						if d := math.Abs(delta[j] - (c.d[j] - lam)); d > 4*eps*(math.Abs(c.d[j])+math.Abs(lam)) {
							t.Errorf("root %d: delta[%d] = %g, d−λ = %g", i, j, delta[j], c.d[j]-lam)
						}
					}
				}
			})
		}
	}
}
