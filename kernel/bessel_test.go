package kernel

import (
	"math"
	"testing"
)

// besselQuad is e^{−z}I_ν(z) = (1/π)∫_0^π cos(νψ)·e^{z(cos ψ − 1)} dψ by
// the trapezoidal rule on the periodic integrand (exponentially
// convergent: the integrand's width is ~1/√z, so 60·√z + 60 nodes are
// plenty), with compensated summation.
func besselQuad(z float64, nu int) float64 {
	m := int(60*math.Sqrt(z)) + 60
	var s, c float64
	for j := 0; j <= m; j++ {
		psi := math.Pi * float64(j) / float64(m)
		w := 1.0
		if j == 0 || j == m {
			w = 0.5
		}
		// cos ψ − 1 = −2 sin²(ψ/2), without cancellation.
		sh := math.Sin(psi / 2)
		v := w*math.Cos(float64(nu)*psi)*math.Exp(-2*z*sh*sh) - c
		t := s + v
		c = (t - s) - v
		s = t
	}
	return s / float64(m)
}

func TestBesselKnownValues(t *testing.T) {
	// Reference values (Abramowitz & Stegun table 9.8, DLMF): I₀(1), I₁(1).
	if got, want := i0e(1)*math.E, 1.2660658777520083356; math.Abs(got-want) > 2e-16*want {
		t.Errorf("I0(1) = %.17g, want %.17g", got, want)
	}
	if got, want := i1e(1)*math.E, 0.56515910399248502721; math.Abs(got-want) > 2e-16*want {
		t.Errorf("I1(1) = %.17g, want %.17g", got, want)
	}
	if i0e(0) != 1 || i1e(0) != 0 {
		t.Errorf("i0e(0) = %v, i1e(0) = %v", i0e(0), i1e(0))
	}
}

func TestBesselAgainstQuadrature(t *testing.T) {
	for _, z := range []float64{1e-8, 0.01, 0.5, 1, 3, 7.5, 12, 19.99, 20, 20.01, 25, 40, 100, 1e3, 1e4, 1e5} {
		for nu, f := range []func(float64) float64{i0e, i1e} {
			if nu == 1 && z < 0.1 {
				// The quadrature cancels (∫cos ψ = 0); use the series'
				// first terms instead.
				want := math.Exp(-z) * z / 2 * (1 + z*z/8 + z*z*z*z/192)
				if got := f(z); math.Abs(got-want) > 1e-15*want {
					t.Errorf("nu=1 z=%g: got %.17g, want %.17g", z, got, want)
				}
				continue
			}
			got, want := f(z), besselQuad(z, nu)
			if rel := math.Abs(got-want) / want; rel > 2e-14 {
				t.Errorf("nu=%d z=%g: got %.17g, quadrature %.17g (rel %.2g)", nu, z, got, want, rel)
			}
		}
	}
	// Both branches agree at the switch.
	for nu := range 2 {
		z := float64(besselSeriesMax)
		if a, b := besselAsym(z, nu), besselQuad(z, nu); math.Abs(a-b) > 1e-15*b {
			t.Errorf("nu=%d: asymptotic %.17g, quadrature %.17g at z = %v", nu, a, b, z)
		}
	}
	// Large arguments must not overflow.
	if v := i0e(1e300); !(v > 0) || math.IsInf(v, 0) {
		t.Errorf("i0e(1e300) = %v", v)
	}
}
