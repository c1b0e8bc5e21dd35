package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/internal/testdepth"
	"gonum.org/v1/gonum/integrate/quad"
)

// refMoment is ν_n = (1/L)·∫ φ_n(e^τ) dτ over [ln a1, ln a2] by gonum's
// Gauss–Legendre rule with 3000 nodes, φ_n(α) = exp(n·ln α − α²/2 −
// ½·lgamma(n+1)) (independent of the recursions; its own error grows
// with the size of the exponent, ~1e−16 of n·ln α + lgamma).
func refMoment(n int, a1, a2 float64) float64 {
	lg, _ := math.Lgamma(float64(n + 1))
	f := func(t float64) float64 {
		return math.Exp(float64(n)*t - 0.5*math.Exp(2*t) - 0.5*lg)
	}
	l1, l2 := math.Log(a1), math.Log(a2)
	return quad.Fixed(f, l1, l2, 3000, quad.Legendre{}, 0) / (l2 - l1)
}

// TestRadialMoments holds radialMomentsTo to refMoment over orbits long
// and short, near the origin and far from it, for every n kept.
func TestRadialMoments(t *testing.T) {
	testdepth.Once(t)
	rng := rand.New(rand.NewPCG(3, 1))
	type orb struct{ a1, a2 float64 }
	cases := []orb{{0.01, 1}, {0.1, 10}, {1, 2}, {5, 30}, {20, 37}, {0.5, 0.6}, {3, 3.3}, {30, 30.5}, {36, 37}, {1e-3, 1e-1}, {2, 2.0001},
		{35, 45}, {40, 80}, {1, 80}, {70, 71}, {79, 80}, {50, 50.001}}
	for range 30 {
		a1 := math.Exp(rng.Float64()*8.3 - 4) // 0.018 … 73
		a2 := math.Min(a1*math.Exp(rng.Float64()*rng.Float64()*5), seriesAlphaMax)
		cases = append(cases, orb{a1, a2})
	}
	var worst float64
	for _, c := range cases {
		n0 := momentsStart(c.a1)
		N := seriesTerms(c.a2 * seriesAlphaMax)
		if testing.Short() {
			N = min(N, n0+600)
		}
		W := N - n0
		nu, p1, p2 := make([]float64, W), make([]float64, W), make([]float64, W)
		L := math.Log(c.a2 / c.a1)
		radialMomentsTo(nu, p1, p2, n0, c.a1, c.a2, L)
		for n := 0; n < N; n += 1 + n/50 {
			want := refMoment(n, c.a1, c.a2)
			if n < n0 {
				if want > 1e-290 {
					t.Errorf("[%g, %g]: ν_%d = %g below the window start %d", c.a1, c.a2, n, want, n0)
				}
				continue
			}
			// The reference's own error: ~1e−16·|exponent|.
			lg, _ := math.Lgamma(float64(n + 1))
			refErr := 4e-16 * (float64(n)*math.Abs(math.Log(c.a2)) + 0.5*c.a2*c.a2 + lg + 1)
			e := math.Abs(nu[n-n0]-want) / want
			if want < 1e-280 { // the window's floor: absolute error ≤ ~1e−293
				if math.Abs(nu[n-n0]-want) > 1e-290 {
					t.Errorf("[%g, %g]: ν_%d = %g, want %g", c.a1, c.a2, n, nu[n-n0], want)
				}
				continue
			}
			worst = math.Max(worst, e/math.Max(refErr, 1e-14))
			if e > math.Max(1e-13, 10*refErr) {
				t.Errorf("[%g, %g] N=%d: ν_%d = %.17g, want %.17g (rel %.2g)", c.a1, c.a2, N, n, nu[n-n0], want, e)
			}
		}
	}
	t.Logf("worst relative error / max(reference error, 1e-14): %.3g", worst)
}
