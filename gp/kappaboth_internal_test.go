package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
)

// TestKappaBothTo: the batched κ and ∂κ/∂log ℓ factor of the class
// objective equal, bit for bit, the formulas written out one pair at a
// time (as they were before the exponentials were batched), at u² = 0,
// tiny, ordinary, huge and infinite, and for lengths with a remainder
// after the blocks of eight.
func TestKappaBothTo(t *testing.T) {
	written := func(shape kernel.Shape, u2 float64) (k, dl float64) {
		switch shape {
		case kernel.RBF:
			k = math.Exp(-u2 / 2)
			return k, k
		case kernel.Matern12:
			u := math.Sqrt(u2)
			k = math.Exp(-u)
			if u2 > 0 {
				dl = k / u
			}
			return k, dl
		case kernel.Matern32:
			u := math.Sqrt(3 * u2)
			e := math.Exp(-u)
			return (1 + u) * e, 3 * e
		default:
			u := math.Sqrt(5 * u2)
			e := math.Exp(-u)
			return (1 + u + 5*u2/3) * e, 5.0 / 3 * (1 + u) * e
		}
	}
	rng := rand.New(rand.NewPCG(8, 1))
	u2s := []float64{0, 1e-300, 1e-10, 0.25, 1, 9, 100, 1400, 1500, 1e6, 1e300, math.Inf(1)}
	for range 3000 {
		u2s = append(u2s, rng.ExpFloat64()*rng.Float64()*200)
	}
	for _, shape := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		for _, n := range []int{len(u2s), 29, 8, 3} {
			k := append([]float64(nil), u2s[:n]...)
			dl := make([]float64, n)
			kappaBothTo(shape, k, dl)
			for i, u2 := range u2s[:n] {
				wk, wd := written(shape, u2)
				if math.Float64bits(k[i]) != math.Float64bits(wk) || math.Float64bits(dl[i]) != math.Float64bits(wd) {
					t.Fatalf("%v at u² = %v: (%v, %v), written (%v, %v)", shape, u2, k[i], dl[i], wk, wd)
				}
			}
		}
	}
}
