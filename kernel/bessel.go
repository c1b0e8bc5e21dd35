package kernel

import "math"

// besselSeriesMax is the argument up to which i0e and i1e sum the power
// series; above it they use the asymptotic expansion, whose smallest term
// is then below e^{−2z} ≈ 4e−18.
const besselSeriesMax = 20

// i0e returns e^{−z}·I₀(z) for z ≥ 0, the exponentially scaled modified
// Bessel function of the first kind of order 0, accurate to a few ulps:
// the power series Σ (z²/4)^k/(k!)² (positive terms, no cancellation) for
// z ≤ 20, else the asymptotic series
// e^{−z}I₀(z) ~ (2πz)^{−½}·Σ_k [(2k−1)!!]²/(k!·(8z)^k), truncated at its
// smallest term. It never overflows.
func i0e(z float64) float64 {
	z = math.Abs(z)
	if z <= besselSeriesMax {
		q := z * z / 4
		sum, t := 1.0, 1.0
		for k := 1; k < 200; k++ {
			t *= q / float64(k*k)
			sum += t
			if t < 1e-17*sum {
				break
			}
		}
		return math.Exp(-z) * sum
	}
	return besselAsym(z, 0)
}

// i1e returns e^{−z}·I₁(z) for z ≥ 0, by the series
// (z/2)·Σ (z²/4)^k/(k!(k+1)!) for z ≤ 20, else the asymptotic series.
func i1e(z float64) float64 {
	if z < 0 {
		return -i1e(-z)
	}
	if z <= besselSeriesMax {
		q := z * z / 4
		sum, t := 1.0, 1.0
		for k := 1; k < 200; k++ {
			t *= q / float64(k*(k+1))
			sum += t
			if t < 1e-17*sum {
				break
			}
		}
		return math.Exp(-z) * (z / 2) * sum
	}
	return besselAsym(z, 1)
}

// besselAsym is Hankel's expansion e^{−z}I_ν(z) ~ (2πz)^{−½}·Σ_k t_k with
// t_0 = 1 and t_k = t_{k−1}·((2k−1)² − 4ν²)/(8kz), stopped at the
// smallest term.
func besselAsym(z float64, nu int) float64 {
	mu := float64(4 * nu * nu)
	sum, t := 1.0, 1.0
	for k := 1; k < 100; k++ {
		next := t * (float64((2*k-1)*(2*k-1)) - mu) / (8 * float64(k) * z)
		if math.Abs(next) >= math.Abs(t) {
			break
		}
		t = next
		sum += t
		if math.Abs(t) < 1e-17*math.Abs(sum) {
			break
		}
	}
	return sum / math.Sqrt(2*math.Pi*z)
}
