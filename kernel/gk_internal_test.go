package kernel

import (
	"math"
	"testing"
)

// TestGKExact checks every digit that matters of the Gauss–Kronrod
// constants: the Kronrod rule integrates x^k exactly on [−1, 1] for
// k ≤ 3·gkN+1 and the Gauss rule for k ≤ 2·gkN−1, and the Gauss nodes are
// the zeros of P_gkN.
func TestGKExact(t *testing.T) {
	for k := 0; k <= 3*gkN+1; k++ {
		want := 0.0
		if k%2 == 0 {
			want = 2 / float64(k+1)
		}
		kr, g := gkWK[gkN]*math.Pow(0, float64(k)), gkWG[gkN]*math.Pow(0, float64(k))
		for i := range gkN {
			v := math.Pow(gkX[i], float64(k)) + math.Pow(-gkX[i], float64(k))
			kr += gkWK[i] * v
			g += gkWG[i] * v
		}
		if math.Abs(kr-want) > 1e-15 {
			t.Errorf("Kronrod x^%d: %.17g, want %.17g", k, kr, want)
		}
		if k <= 2*gkN-1 && math.Abs(g-want) > 1e-15 {
			t.Errorf("Gauss x^%d: %.17g, want %.17g", k, g, want)
		}
	}
	legendre := func(n int, x float64) float64 {
		p0, p1 := 1.0, x
		for j := 1; j < n; j++ {
			p0, p1 = p1, (float64(2*j+1)*x*p1-float64(j)*p0)/float64(j+1)
		}
		return p1
	}
	ng := 0
	for i := range gkN + 1 {
		if gkWG[i] == 0 {
			continue
		}
		ng++
		if v := legendre(gkN, gkX[i]); math.Abs(v) > 1e-14 {
			t.Errorf("P_%d(%v) = %g", gkN, gkX[i], v)
		}
	}
	if want := (gkN + 1) / 2; ng != want {
		t.Errorf("%d non-negative Gauss nodes, want %d", ng, want)
	}
}

// TestAdaptGK integrates functions with known integrals, including a
// narrow peak and a logarithmic singularity at an end.
func TestAdaptGK(t *testing.T) {
	ws := make([]float64, gkScratch(2))
	cases := []struct {
		name string
		f    func(x float64) float64
		a, b float64
		want float64
	}{
		{"exp", math.Exp, 0, 3, math.Exp(3) - 1},
		{"peak", func(x float64) float64 { return 1 / (1e-6 + x*x) }, -1, 2, (math.Atan(2/1e-3) + math.Atan(1/1e-3)) / 1e-3},
		{"log", func(x float64) float64 { return -math.Log(x) }, 0, 1, 1},
		{"gauss", func(x float64) float64 { return math.Exp(-x * x * 1e4) }, -3, 5, math.Sqrt(math.Pi) / 100},
	}
	for _, c := range cases {
		var got [2]float64
		n := adaptGK(got[:], 2, func(x float64, out []float64) {
			out[0] = c.f(x)
			out[1] = 2 * c.f(x)
		}, []float64{c.a, 0.5 * (c.a + c.b), c.b}, 1e-13, 0, ws)
		if e := math.Abs(got[0]-c.want) / c.want; e > 1e-12 || got[1] != 2*got[0] {
			t.Errorf("%s: %.17g, want %.17g (rel %.2g, %d evaluations)", c.name, got[0], c.want, e, n)
		}
	}
}
