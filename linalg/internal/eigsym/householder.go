package eigsym

import (
	"math"

	"github.com/symbo/symbo/internal/f64"
)

const (
	eps    = 0x1p-53            // unit roundoff (half the spacing of 1)
	safmin = 0x1p-1022          // smallest normal
	smlnum = safmin / (2 * eps) // LAPACK's safe minimum over precision
	bignum = 1 / smlnum         // its reciprocal
	rmin   = 0x1p-485           // ≈ √smlnum, a power of two
	rmax   = 0x1p+485           // ≈ √bignum, a power of two
	tiny2  = 0x1p-960           // sums of squares above this lost nothing to underflow
	huge2  = 0x1p+1000          // …and below this did not overflow
	dscale = 0x1p-600           // scale for the slow path of nrm2
)

// nrm2 returns the Euclidean norm of x without spurious overflow or
// underflow: the fast sum of squares when it is safely in range, else a
// sum of squares of x scaled by a power of two.
func nrm2(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	ss := f64.Inner(x, x)
	if ss >= tiny2 && ss <= huge2 {
		return math.Sqrt(ss)
	}
	var amax float64
	for _, v := range x {
		amax = max(amax, math.Abs(v))
	}
	if amax == 0 || math.IsInf(amax, 0) || math.IsNaN(amax) {
		return amax
	}
	// amax = f·2^e with ½ ≤ f < 1; scale by 2^−e, clamped so that the
	// factor is a normal number (a subnormal amax then scales to at least
	// 2⁻⁷⁴, whose square is still far from underflow).
	_, e := math.Frexp(amax)
	s := math.Ldexp(1, min(max(-e, -1000), 1000))
	ss = 0
	for _, v := range x {
		t := v * s
		ss = math.FMA(t, t, ss)
	}
	return math.Sqrt(ss) / s
}

// pow2Scale returns factors s1, s2 (powers of two, each a normal number)
// with s1·s2·x in [½, 1) for a finite x > 0, subnormal included.
func pow2Scale(x float64) (s1, s2 float64) {
	_, e := math.Frexp(x)
	k := -e // 2^k·x in [½, 1)
	k1 := min(max(k, -1000), 1000)
	return math.Ldexp(1, k1), math.Ldexp(1, k-k1)
}

// householder computes an elementary reflector H = I − τ·u·uᵀ with
// u = (1, v) such that H·(alpha, x) = (beta, 0), as LAPACK's dlarfg: x is
// overwritten with v. τ = 0 (H = I) when x is zero; otherwise 1 ≤ τ ≤ 2
// and beta = −sign(alpha)·‖(alpha, x)‖.
func householder(alpha float64, x []float64) (beta, tau float64) {
	xnorm := nrm2(x)
	if xnorm == 0 {
		return alpha, 0
	}
	beta = -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	knt := 0
	if math.Abs(beta) < smlnum {
		// The norm is so small that 1/(alpha−beta) could overflow: scale
		// up by powers of two (exact) until it is not.
		const up = 1 / smlnum
		for math.Abs(beta) < smlnum && knt < 20 {
			knt++
			scaleVec(x, up)
			beta *= up
			alpha *= up
		}
		xnorm = nrm2(x)
		beta = -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	}
	tau = (beta - alpha) / beta
	scaleVec(x, 1/(alpha-beta))
	for range knt {
		beta *= smlnum
	}
	return beta, tau
}

func scaleVec(x []float64, s float64) {
	for i := range x {
		x[i] *= s
	}
}
