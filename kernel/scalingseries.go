package kernel

import (
	"math"
	"sync"
)

// The RBF average over scaling orbits as a series (see scalingexact.go for
// where it is used). With α = c·‖x‖/ℓ on the orbit of x, β = c'·‖y‖/ℓ on
// that of y and γ = cos∠(x, y) = x·y/(‖x‖‖y‖),
//
//	‖c·x − c'·y‖²/ℓ² = α² + β² − 2αβγ,
//
// and expanding e^{αβγ} = Σ_n (αβγ)^n/n! turns the double average of
// exp(−(α² + β² − 2αβγ)/2) under dα/α ⊗ dβ/β into
//
//	k(x, y)/v = Σ_{n≥0} γ^n·ν_n(x)·ν_n(y),
//	ν_n(x) = (1/L_x)·∫_{α₁}^{α₂} φ_n(α) dα/α,   φ_n(α) = α^n·e^{−α²/2}/√(n!),
//
// with [α₁, α₂] = [A, B]·‖x‖/ℓ and L_x = ln(B/A). φ_n(α)² is the Poisson
// probability of n at mean α², so 0 ≤ φ_n ≤ 1 and 0 ≤ ν_n ≤ 1: the series
// has non-negative terms (γ > 0 for points with positive coordinates)
// and no cancellation, and ν_n(x) depends on x alone, so a pair costs one
// dot product and a sum over n. The terms obey
//
//	T_{n+1}/T_n ≤ γ·α₂·β₂/(n + 1)          (T_n = γ^n·ν_n(x)·ν_n(y))
//
// because ν_{n+1} ≤ α₂·ν_n/√(n+1) (α ≤ α₂ on the orbit), so past
// n + 1 > λ = γ·α₂·β₂ the tail after T_n is at most T_n·ρ/(1 − ρ),
// ρ = λ/(n + 1): the sum stops when that bound falls below seriesTol of
// the partial sum, a rigorous bound on the truncation.
//
// The moments m_n = L·√(n!)·ν_n = ∫ α^{n−1}e^{−α²/2} dα satisfy (by parts)
//
//	m_{n+2} = n·m_n + α₁^n·e^{−α₁²/2} − α₂^n·e^{−α₂²/2},
//
// in normalized form
//
//	ν_{n+2} = (n·ν_n + (φ_n(α₁) − φ_n(α₂))/L)/√((n+1)(n+2)),
//
// which is stable upward while n ≤ α₂² (the peak √n of α^{n−1}e^{−α²/2}
// inside the orbit or beyond its lower end: a step multiplies errors by
// about n/E[α²] ≤ 1) and downward above (the terms then decay and the
// forward recursion would multiply relative errors by n/α₂² per step). So
// ν_0 (from Ein or E1) and ν_1 (from erf or erfc) start the recursion
// upward to n = ⌊α₂²⌋, and above it the top two values come from the
// series of the lower incomplete gamma function,
//
//	∫_0^α t^{n−1}e^{−t²/2} dt/√(n!) = φ_n(α)·Σ_{k≥0} α^{2k}/(n(n+2)⋯(n+2k)),
//
// (positive terms, ratio α²/(n+2k+2) < 1) and the recursion runs
// downward. Short orbits (L·max(α₂, √N, 1) ≤ shortOrbit), where the
// differences above cancel, average φ_n over a shortNodes-point
// Gauss–Legendre rule in ln α instead: the integrand is then a smooth
// function on an interval short for its scale.
//
// Windows. Far from the origin (small ℓ) the moments that matter sit in
// a window of n: for n < α₁², ν_n ≤ φ_n(α₁) ≤ exp(−(α₁² − n)²/(4α₁²))
// (the Poisson lower tail), below 1e−295 once n is 52·α₁ below α₁²
// (φ itself: where ln φ_n(α) < phiFloor). A point keeps the moments
// from n₀ = the start of φ(α₁) on; the ones below are 0 to within
// 1e−295 absolute. Each sequence φ_n(α) starts at the first n where
// ln φ_n(α) ≥ phiFloor, from the accurate logarithm of the Poisson
// probability (lnPhi: Stirling's correction and the deviance
// n·ln(n/λ) + λ − n by its series near λ; exact to ~1e−16 of its size,
// ≤ 690, so ~1e−13 relative in φ there and in the moments that depend on
// it, the only place the series carries more than a few ulps).

// seriesTol is the relative truncation tolerance of the series (the bound
// on the tail against the partial sum).
const seriesTol = 1e-16

// shortOrbit and shortNodes: orbits with L·max(α₂, √N, 1) ≤ shortOrbit
// use the shortNodes-point Gauss–Legendre rule in ln α (TestRadialMoments
// measures both regimes against an independent quadrature).
const (
	shortOrbit = 1.0
	shortNodes = 16
)

// seriesAlphaMax is the largest α₂ the series handles; beyond, the
// windows of moments (≈ α₂² + 9α₂ − (α₁² − 52α₁) of them) cost more to
// prepare and hold than the quadrature over q.
const seriesAlphaMax = 80

// seriesMaxTerms is the most moments a prepared point holds (pairs that
// need more use the quadrature over q): seriesTerms(seriesAlphaMax²) fits.
const seriesMaxTerms = 8192

// phiFloor: φ_n(α) = e^{phiFloor} ≈ 1.6e−295 or less counts as 0 (the
// sequences start above it; moments and terms below are negligible in
// absolute terms).
const phiFloor = -678

// seriesTerms is the number of moments to prepare for a point whose pairs
// have λ ≤ lam: enough for the truncation test of every such pair, plus
// gradExtraTerms. With m = ⌊λ⌋ the partial sum S_n ≥ T_m and T_n ≤
// T_m·Π_{k=m}^{n−1} λ/(k+1), so the test T_n·ρ/(1 − ρ) ≤ seriesTol·S_n
// (ρ = λ/(n+1) < 1) holds once Π·ρ/(1 − ρ) ≤ seriesTol, which grows
// with λ: the n where it first holds for lam bounds every pair's stop.
// At most seriesMaxTerms (pairs beyond fall back to the quadrature).
func seriesTerms(lam float64) int {
	if !(lam <= seriesTermsTableMax) {
		return seriesTermsDirect(lam)
	}
	// The table holds the bound at λ_i = i²/seriesTermsScale; it grows
	// with λ, so the next node's value bounds λ's.
	i := int(math.Ceil(math.Sqrt(lam * seriesTermsScale)))
	return seriesTermsTable()[i]
}

// seriesTermsDirect computes seriesTerms by the product above.
func seriesTermsDirect(lam float64) int {
	m := math.Floor(lam)
	prod := 1.0
	for n := m; n < seriesMaxTerms; n++ {
		if n+1 > lam {
			if rho := lam / (n + 1); prod*rho <= seriesTol*(1-rho) {
				return min(int(n)+2+gradExtraTerms, seriesMaxTerms)
			}
		}
		prod *= lam / (n + 1)
	}
	return seriesMaxTerms
}

// seriesTermsTable tabulates seriesTermsDirect at λ_i = i²/seriesTermsScale
// up to seriesTermsTableMax (computed once, on first use).
const (
	seriesTermsScale    = 4
	seriesTermsTableMax = seriesAlphaMax * seriesAlphaMax
)

var seriesTermsTable = sync.OnceValue(func() []int {
	n := int(math.Ceil(math.Sqrt(seriesTermsTableMax*seriesTermsScale))) + 1
	t := make([]int, n+1)
	for i := range t {
		t[i] = seriesTermsDirect(float64(i) * float64(i) / seriesTermsScale)
	}
	return t
})

// rsqrt[k] = 1/√k and rstep[n] = 1/√((n+1)(n+2)) for the recursions.
var rsqrt, rstep = func() ([]float64, []float64) {
	r := make([]float64, seriesMaxTerms+2)
	s := make([]float64, seriesMaxTerms+2)
	for k := 1; k < len(r); k++ {
		r[k] = 1 / math.Sqrt(float64(k))
	}
	for n := range s {
		s[n] = 1 / math.Sqrt(float64(n+1)*float64(n+2))
	}
	return r, s
}()

// shortX and shortW are the shortNodes-point Gauss–Legendre rule on
// [0, 1].
var shortX, shortW = func() ([]float64, []float64) {
	x, w := make([]float64, shortNodes), make([]float64, shortNodes)
	gaussPanels(x, w, shortNodes)
	return x, w
}()

// lnPhi returns ln φ_n(α) = ½·ln Pois(n; α²) for n ≥ 0, accurate to
// ~1e−16 of its magnitude: ½·(−½·ln(2πn) − stirlerr(n) − bd0(n, α²)).
func lnPhi(n int, a float64) float64 {
	lam := a * a
	if n == 0 {
		return -0.5 * lam
	}
	x := float64(n)
	return 0.5 * (-0.5*math.Log(2*math.Pi*x) - stirlerr(n) - bd0(x, lam))
}

// stirlerr(n) = ln n! − (n + ½)·ln n + n − ½·ln(2π): Stirling's series
// Σ B_{2k}/(2k(2k−1)n^{2k−1}) for n > 15 (the first term left out is below
// 1e−19), lgamma directly below (values ≤ 30, ulp-level there).
func stirlerr(n int) float64 {
	x := float64(n)
	if n > 15 {
		r := 1 / x
		r2 := r * r
		return r * (1.0/12 - r2*(1.0/360-r2*(1.0/1260-r2*(1.0/1680-r2/1188))))
	}
	lg, _ := math.Lgamma(x + 1)
	return lg - (x+0.5)*math.Log(x) + x - 0.5*math.Log(2*math.Pi)
}

// bd0(x, λ) = x·ln(x/λ) + λ − x ≥ 0, by the series
// (x − λ)·v + 2x·Σ_{j≥1} v^{2j+1}/(2j+1), v = (x − λ)/(x + λ), when x is
// near λ (where the direct form cancels), directly otherwise.
func bd0(x, lam float64) float64 {
	if math.Abs(x-lam) < 0.1*(x+lam) {
		v := (x - lam) / (x + lam)
		s := (x - lam) * v
		ej := 2 * x * v
		v2 := v * v
		for j := 1; j < 1000; j++ {
			ej *= v2
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s
			}
			s = s1
		}
		return s
	}
	return x*math.Log(x/lam) + lam - x
}

// phiStart returns the first n ≥ 0 with ln φ_n(α) ≥ phiFloor, or
// math.MaxInt if none up to nmax (φ_n(α) is unimodal in n with its
// peak near α², ≈ (2πα²)^{−1/4}).
func phiStart(a float64, nmax int) int {
	if lnPhi(0, a) >= phiFloor {
		return 0
	}
	hi := int(a * a) // the peak: ln φ ≈ −¼·ln(2πα²) ≫ phiFloor
	if hi > nmax {
		if lnPhi(nmax, a) < phiFloor {
			return math.MaxInt
		}
		hi = nmax
	}
	lo := 0 // ln φ_lo < phiFloor ≤ ln φ_hi
	for hi-lo > 1 {
		m := lo + (hi-lo)/2
		if lnPhi(m, a) >= phiFloor {
			hi = m
		} else {
			lo = m
		}
	}
	return hi
}

// poissonRootsTo writes φ_n(α) for n = n0 … n0 + len(dst) − 1: 0 below
// phiStart, then from the exponential of lnPhi up by φ_{n+1} =
// φ_n·α/√(n+1) (the same recurrence from n = 0 when α is small enough for
// e^{−α²/2} to be normal).
func poissonRootsTo(dst []float64, n0 int, a float64) {
	st := 0
	if a > 30 { // e^{−α²/2} < 1e−195: start where φ is representable
		st = phiStart(a, n0+len(dst)-1)
	}
	var p float64
	for i := range dst {
		n := n0 + i
		switch {
		case n < st:
			dst[i] = 0
			continue
		case n == st && st > 0:
			p = math.Exp(lnPhi(n, a))
		case i == 0:
			if n == 0 {
				p = math.Exp(-0.5 * a * a)
			} else {
				p = math.Exp(lnPhi(n, a))
			}
		}
		dst[i] = p
		p *= a * rsqrt[n+1]
	}
}

// momentsStart is n₀ for the orbit α ∈ [a1, a2]: where φ(a1) starts
// (moments below are under e^{phiFloor}; see the comment at the top).
func momentsStart(a1 float64) int {
	if a1 <= 30 {
		return 0
	}
	return phiStart(a1, math.MaxInt32)
}

// radialMomentsTo writes ν_n for n = n0 … n0 + len(nu) − 1 for the orbit
// α ∈ [a1, a2] with L = ln(a2/a1) ≥ 0 (a1 > 0, a2 ≤ seriesAlphaMax, n0 =
// momentsStart(a1) or 0), and φ_n(a1), φ_n(a2) into phi1 and phi2 (same
// length as nu; the gradient needs them). See the comment at the top of
// the file.
func radialMomentsTo(nu, phi1, phi2 []float64, n0 int, a1, a2, L float64) {
	W := len(nu)
	N := n0 + W // one past the last index
	poissonRootsTo(phi1, n0, a1)
	poissonRootsTo(phi2, n0, a2)
	if L == 0 {
		copy(nu, phi1)
		return
	}
	if L*max(a2, math.Sqrt(float64(N)), 1) <= shortOrbit {
		clear(nu)
		la := math.Log(a1)
		for j, t := range shortX {
			a := math.Exp(la + t*L)
			w := shortW[j]
			st := 0
			if a > 30 {
				st = phiStart(a, N-1)
			}
			var p float64
			for i := range nu {
				n := n0 + i
				if n < st {
					continue
				}
				if n == st || i == 0 {
					p = math.Exp(lnPhi(n, a))
				}
				nu[i] += w * p
				p *= a * rsqrt[n+1]
			}
		}
		return
	}
	iL := 1 / L
	// Upward from ν_{n0}, ν_{n0+1}: from Ein/E1 and erf at n0 = 0, else 0
	// (both under e^{phiFloor}).
	if n0 == 0 {
		z1, z2 := 0.5*a1*a1, 0.5*a2*a2
		// ν_0 = (1/L)·∫ e^{−α²/2} dα/α = (1/2L)·[E1(z1) − E1(z2)]
		//     = 1 − (1/2L)·[Ein(z2) − Ein(z1)]   (ln(z2/z1) = 2L).
		if z1 > 1 {
			nu[0] = 0.5 * iL * (e1(z1) - e1(z2))
		} else {
			nu[0] = 1 - 0.5*iL*(ein(z2)-ein(z1))
		}
		if W > 1 {
			// ν_1 = (1/L)·∫ e^{−α²/2} dα = √(π/2)/L·[erf(α/√2)] from a1 to a2.
			const sqrtHalfPi = 1.2533141373155002512078826424055226265034933703049691583149
			if u1, u2 := a1/math.Sqrt2, a2/math.Sqrt2; u1 > 0.5 {
				nu[1] = sqrtHalfPi * iL * (math.Erfc(u1) - math.Erfc(u2))
			} else {
				nu[1] = sqrtHalfPi * iL * (math.Erf(u2) - math.Erf(u1))
			}
		}
	} else {
		nu[0] = 0
		if W > 1 {
			nu[1] = 0
		}
	}
	nf := min(N-1, max(int(a2*a2), n0+1)) // forward through ν_nf
	for n := n0; n+2 <= nf; n++ {
		i := n - n0
		nu[i+2] = (float64(n)*nu[i] + (phi1[i]-phi2[i])*iL) * rstep[n]
	}
	if nf >= N-1 {
		return
	}
	// Above: the top two by the incomplete-gamma series, then downward.
	top := N - 1
	lo := max(nf+1, n0+2)
	for n := top; n >= max(top-1, lo); n-- {
		i := n - n0
		nu[i] = (phi2[i]*gammaSeries(a2*a2, n) - phi1[i]*gammaSeries(a1*a1, n)) * iL
	}
	for n := top - 2; n >= lo; n-- {
		i := n - n0
		nu[i] = (nu[i+2]/rstep[n] - (phi1[i]-phi2[i])*iL) / float64(n)
	}
}

// gammaSeries returns Σ_{k≥0} a2^k/(n(n+2)⋯(n+2k)) for n ≥ 1 (a2 = α²),
// summed until a term falls below 2^−60 of the sum.
func gammaSeries(a2 float64, n int) float64 {
	d := float64(n)
	t := 1 / d
	s := t
	for {
		d += 2
		t *= a2 / d
		s += t
		if t <= 0x1p-60*s {
			return s
		}
	}
}
