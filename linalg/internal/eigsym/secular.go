package eigsym

import "math"

// secularMaxIter bounds the iterations of one root; the bracket keeps
// every iterate valid, so reaching it costs accuracy only in pathological
// cases, never an exception.
const secularMaxIter = 120

// secular computes root i (0-based) of the secular equation
//
//	f(λ) = 1/ρ + Σ_j z_j²/(d_j − λ) = 0,
//
// with d strictly increasing, every z_j nonzero and ρ > 0, and writes
// delta[j] = d_j − λ_i for every j, each with high relative accuracy:
// λ_i = d_o + τ is carried as an offset τ from the nearer pole o (found by
// the sign of f at the middle of the interval) and delta[j] is
// (d_j − d_o) − τ. The roots interlace: d_i < λ_i < d_{i+1}, and
// d_{K−1} < λ_{K−1} ≤ d_{K−1} + ρ·zᵀz. It returns λ_i.
//
// The iteration is R.-C. Li's "middle way" (as LAPACK's dlaed4): f is
// modelled by its two poles around the root, each interpolating the terms
// on its side with matching value and slope, and the model's root is the
// next iterate; a bracket [lo, hi] of the root, updated by the sign of f,
// turns any step that leaves it into bisection. It stops when |f| is
// below a bound on its rounding error, or the bracket cannot shrink.
func secular(i int, d, z []float64, rho float64, delta []float64) float64 {
	K := len(d)
	rhoinv := 1 / rho
	if K == 1 {
		delta[0] = -rho * z[0] * z[0]
		return d[0] - delta[0]
	}
	var p int      // the model's poles are p and p+1
	var do float64 // the origin, the pole nearer the root
	var lo, hi float64
	last := i == K-1

	// eval returns f(d_o + τ), the slopes of the two groups of terms (j ≤ p
	// and j > p), and a bound on the rounding error of f.
	eval := func(tau float64) (f, dpsi, dphi, errf float64) {
		var psi, phi float64
		for j := 0; j <= p; j++ {
			t := z[j] / ((d[j] - do) - tau)
			psi += z[j] * t
			dpsi += t * t
		}
		for j := p + 1; j < K; j++ {
			t := z[j] / ((d[j] - do) - tau)
			phi += z[j] * t
			dphi += t * t
		}
		f = rhoinv + psi + phi
		errf = eps * (2*rhoinv + 8*(math.Abs(psi)+math.Abs(phi)) + 3*math.Abs(tau)*(dpsi+dphi))
		return f, dpsi, dphi, errf
	}
	// step returns the root of the two-pole model at τ, or NaN.
	step := func(tau, f, dpsi, dphi float64) float64 {
		dp := (d[p] - do) - tau
		dq := (d[p+1] - do) - tau
		c := f - dp*dpsi - dq*dphi
		a := c*(dp+dq) + dp*dp*dpsi + dq*dq*dphi
		b := dp * dq * f
		disc := math.Sqrt(math.Max(a*a-4*b*c, 0))
		var eta float64
		switch {
		case last:
			// The root right of both poles: the larger root of the
			// quadratic; the model has none unless c > 0.
			if !(c > 0) {
				return math.NaN()
			}
			if a >= 0 {
				eta = (a + disc) / (2 * c)
			} else {
				eta = 2 * b / (a - disc)
			}
		case c == 0:
			eta = b / a
		case a <= 0:
			eta = (a - disc) / (2 * c)
		default:
			eta = 2 * b / (a + disc)
		}
		return tau + eta
	}

	// The first evaluation, at the middle of the interval, picks the
	// origin and (through the model) the first iterate.
	var tau float64
	if !last {
		p, do = i, d[i]
		gap := d[i+1] - d[i]
		mid := gap / 2
		f, dpsi, dphi, _ := eval(mid)
		t := step(mid, f, dpsi, dphi) // relative to d_i
		if f >= 0 {
			lo, hi, tau = 0, mid, t
		} else {
			do = d[i+1]
			lo, hi, tau = -mid, 0, t-gap
		}
		if !(lo < tau && tau < hi) {
			tau = lo + (hi-lo)/2
		}
	} else {
		p, do = K-2, d[K-1]
		var zz float64
		for _, v := range z {
			zz += v * v
		}
		lo, hi = 0, rho*zz
		mid := hi / 2
		f, dpsi, dphi, _ := eval(mid)
		if f < 0 {
			lo = mid
		} else {
			hi = mid
		}
		tau = mid
		if t := step(mid, f, dpsi, dphi); lo < t && t < hi {
			tau = t
		}
	}
	for range secularMaxIter {
		f, dpsi, dphi, errf := eval(tau)
		if math.Abs(f) <= errf {
			break
		}
		if f < 0 {
			lo = tau
		} else {
			hi = tau
		}
		t := step(tau, f, dpsi, dphi)
		if !(lo < t && t < hi) {
			t = lo + (hi-lo)/2
		}
		if t == tau || !(lo < t && t < hi) {
			break // the bracket is down to adjacent floats
		}
		tau = t
	}
	for j := range K {
		delta[j] = (d[j] - do) - tau
	}
	return do + tau
}
