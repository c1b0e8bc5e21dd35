package f64

import (
	"fmt"
	"math"
)

// Vectorized exponential and the fused orbit-average reduction.
//
// # Exp
//
// e^x is computed as 2^n·p(r): n = round(x·log₂e) by the 1.5·2⁵² trick
// (one FMA), r = x − n·ln2 by two FMAs (Cody–Waite split of ln 2),
// p(r) the degree-13 Taylor polynomial of e^r in Horner form (FMAs, |r| ≤
// 0.347, truncation < 5·10⁻¹⁸ relative), and the scaling by 2^n as two
// exact multiplications by powers of two 2^⌊(n+2048)/2⌋−1024 and
// 2^(n−that), so that results in the subnormal range are rounded once.
// x is first clamped to [−746, 710] (NaN propagates), which gives 0 for
// x ≤ −746 (including −Inf) and +Inf for x ≥ 710 (including +Inf).
// Measured error against math.Exp (TestExpUlp): at most ExpMaxUlp ulp
// over [−745.2, 709.8], subnormal results included.
//
// Every path (generic, AVX2, AVX-512) performs the same IEEE operations
// (FMAs are fused on every path: math.FMA in Go, VFMADD in assembly), so
// Exp, ExpTo and SumKappa give the same bits on every path.

// ExpMaxUlp is the documented bound on |Exp(x) − e^x| in units of the last
// place of math.Exp(x), checked by the tests.
const ExpMaxUlp = 2

const (
	expMagic = 0x1.8p52
	expLog2e = 1.44269504088896340735992468100189214
	expLn2hi = 0x1.62e42fefa39efp-1
	expLn2lo = 0x1.abc9e3b39803fp-56
	expLo    = -746.0
	expHi    = 710.0
)

// expCoef are 1/k! for k = 13 down to 0 (Horner order).
var expCoef = [14]float64{
	1.0 / 6227020800, 1.0 / 479001600, 1.0 / 39916800, 1.0 / 3628800,
	1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24,
	1.0 / 6, 1.0 / 2, 1, 1,
}

// Exp returns e^x (see ExpMaxUlp); the scalar form of ExpTo, same bits.
func Exp(x float64) float64 {
	x = min(max(x, expLo), expHi)
	v := math.FMA(x, expLog2e, expMagic)
	n := v - expMagic
	r := math.FMA(n, -expLn2hi, x)
	r = math.FMA(n, -expLn2lo, r)
	p := expCoef[0]
	for _, c := range expCoef[1:] {
		p = math.FMA(p, r, c)
	}
	ni := int64(math.Float64bits(v) - math.Float64bits(expMagic))
	h := int64(uint64(ni+2048) >> 1)
	s1 := math.Float64frombits(uint64(h-1) << 52)
	s2 := math.Float64frombits(uint64(ni+2047-h) << 52)
	return p * s1 * s2
}

// ExpTo sets dst[i] = Exp(x[i]). dst and x must have the same length;
// they may be the same slice.
func ExpTo(dst, x []float64) {
	if len(dst) != len(x) {
		panic(fmt.Sprintf("f64: ExpTo: len(dst) = %d, len(x) = %d", len(dst), len(x)))
	}
	n := expTo(dst, x)
	for i := n; i < len(x); i++ {
		dst[i] = Exp(x[i])
	}
}

// Shape selects the radial profile κ of SumKappa.
type Shape int

// Shapes, as in package kernel.
const (
	RBF      Shape = iota // κ(u) = exp(−u²/2)
	Matern12              // κ(u) = exp(−u)
	Matern32              // κ(u) = (1 + √3u)·exp(−√3u)
	Matern52              // κ(u) = (1 + √5u + 5u²/3)·exp(−√5u)
)

const (
	sqrt3 = 1.7320508075688772935274463415058723669428052538103806280558069795
	sqrt5 = 2.2360679774997896964091736687312762354406183596115257242708972454
)

// maternParams returns (c, q1, q2) such that with a = √u²·c the profile is
// (fma(a·q2, a, a·q1) + 1)·Exp(−a).
func maternParams(s Shape) (c, q1, q2 float64) {
	switch s {
	case Matern12:
		return 1, 0, 0
	case Matern32:
		return sqrt3, 1, 0
	case Matern52:
		return sqrt5, 1, 1.0 / 3
	}
	panic(fmt.Sprintf("f64: bad shape %d", int(s)))
}

// kappaTerm is the specification of one element's term in SumKappa.
func kappaTerm(s float64, nxy, inv2 float64, rbf bool, c, q1, q2 float64) float64 {
	u2 := max(nxy-2*s, 0) * inv2
	if rbf {
		return Exp(u2 * -0.5)
	}
	a := math.Sqrt(u2) * c
	return (math.FMA(a*q2, a, a*q1) + 1) * Exp(-a)
}

// SumKappa returns Σ_{g<G} κ(√(max(nxy − 2⟨x, o_g⟩, 0)·inv2)) over the
// first G elements o_g of the packed orbit orb (PackedLen(G, d) floats,
// d = len(x)), with κ given by shape and computed as
//
//	rbf:    Exp(u²·(−0.5))
//	matérn: a = √(u²)·c, (fma(a·q2, a, a·q1) + 1)·Exp(−a)
//	        (c, q1, q2) = (1, 0, 0), (√3, 1, 0), (√5, 1, 1/3)
//
// Every path gives the same bits while the inner products and
// max(nxy − 2⟨x, o_g⟩, 0)·inv2 stay below 1e300; beyond that (a Matérn
// polynomial overflowing against an underflowed exponential) a term may be
// NaN. Callers that can meet such magnitudes recompute from direct
// differences (as package kernel's accuracy guard does).
//
// Inner products are summed as in MaxDot. Element g's term is added to
// lane accumulator g mod 8 in increasing g, and the lanes are reduced as
// ((a₀+a₄)+(a₂+a₆)) + ((a₁+a₅)+(a₃+a₇)): the same bits on every path. The
// result is within a few ulp per term of the same sum with math.Exp (see
// ExpMaxUlp). Typically nxy = ‖x‖² + ‖y‖² and inv2 = 1/ℓ².
func SumKappa(x []float64, nxy float64, orb []float64, G int, shape Shape, inv2 float64) float64 {
	d := len(x)
	if d < 1 || G < 1 || len(orb) != PackedLen(G, d) {
		panic(fmt.Sprintf("f64: SumKappa: d = %d, G = %d, len(orb) = %d", d, G, len(orb)))
	}
	var acc [8]float64
	rbf := shape == RBF
	var c, q1, q2 float64
	if !rbf {
		c, q1, q2 = maternParams(shape)
	}
	done := sumKappa(&acc, x, nxy, orb, G, rbf, inv2, c, q1, q2)
	if done < G {
		sumKappaTail(&acc, x, nxy, orb, done, G, shape, inv2)
	}
	return ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]))
}

// sumKappaTail adds the terms of elements g0 … G−1 (g0 a multiple of
// Narrow) to acc[g mod 8], a whole padded group of Narrow elements at a
// time: their inner products summed as Dot sums them, their κ by KappaTo,
// whose terms are kappaTerm's bits, with vectorized exponentials where a
// group smaller than the SIMD width would take them one at a time (a
// group of 6, permutation(3), or the last 1–7 elements of any group). The
// padding repeats the last element, so its terms are finite; they are
// left out.
func sumKappaTail(acc *[8]float64, x []float64, nxy float64, orb []float64, g0, G int, shape Shape, inv2 float64) {
	d := len(x)
	gp := len(orb) / d
	var s, t [Narrow]float64
	for ; g0 < G; g0 += Narrow {
		base, w, l0 := blockOf(g0, gp, d)
		o := orb[base+l0:]
		x0 := x[0]
		for l := range Narrow {
			s[l] = x0 * o[l]
		}
		for k := 1; k < d; k++ {
			xk, ok := x[k], o[k*w:k*w+Narrow]
			for l := range Narrow {
				s[l] += float64(xk * ok[l])
			}
		}
		for l := range Narrow {
			s[l] = max(nxy-2*s[l], 0) * inv2
		}
		KappaTo(t[:], s[:], shape)
		for l := range min(Narrow, G-g0) {
			acc[l] += t[l]
		}
	}
}

// kappaChunk is the number of elements KappaTo handles at once (a stack
// buffer for the Matérn arguments).
const kappaChunk = 64

// KappaTo sets dst[i] = κ(√u2[i]) for u2[i] ≥ 0, each computed exactly as
// one term of SumKappa:
//
//	rbf:    Exp(u²·(−0.5))
//	matérn: a = √(u²)·c, (fma(a·q2, a, a·q1) + 1)·Exp(−a)
//
// so the same bits on every path (the exponentials go through ExpTo, the
// square roots are correctly rounded) and within ExpMaxUlp-level rounding
// of the same formulas with math.Exp. Where Exp(−a) underflows to 0 the
// result is 0 (not the NaN of +Inf·0 when the polynomial overflows). dst and u2 must have the same
// length; they may be the same slice.
func KappaTo(dst, u2 []float64, shape Shape) {
	if len(dst) != len(u2) {
		panic(fmt.Sprintf("f64: KappaTo: len(dst) = %d, len(u2) = %d", len(dst), len(u2)))
	}
	if shape == RBF {
		for i, v := range u2 {
			dst[i] = v * -0.5
		}
		ExpTo(dst, dst)
		return
	}
	c, q1, q2 := maternParams(shape)
	var buf [kappaChunk]float64
	for i0 := 0; i0 < len(u2); i0 += kappaChunk {
		m := min(kappaChunk, len(u2)-i0)
		a, o := buf[:m], dst[i0:i0+m]
		for r := maternArgs(a, o, u2[i0:i0+m], c); r < m; r++ {
			a[r] = math.Sqrt(u2[i0+r]) * c
			o[r] = -a[r]
		}
		ExpTo(o, o)
		for r := maternPoly(o, a, q1, q2); r < m; r++ {
			if ar := a[r]; o[r] != 0 { // Exp(−a) = 0 where the polynomial may overflow
				o[r] *= math.FMA(ar*q2, ar, ar*q1) + 1
			}
		}
	}
}
