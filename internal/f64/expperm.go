package f64

import (
	"fmt"
	"math"
	"math/bits"
)

//go:generate go run gen_expperm.go

// MaxExpPermDim is the largest d that ExpPermanent8 accepts.
const MaxExpPermDim = 6

// ExpPermScratch returns the length of the scratch ExpPermanent8 needs for
// dimension d: 8·(d² + 2^d).
func ExpPermScratch(d int) int { return 8 * (d*d + 1<<d) }

// ExpPermanent8 sets dst[p] = perm(C_p) for the eight d×d matrices (one per
// lane p, d = len(u) ≤ MaxExpPermDim)
//
//	C_p[i][j] = E_ij or, when cosh, E_ij + 1/E_ij,  E_ij = e^{u[i]·w[8j+p]},
//
// len(w) = 8·d (w is lane-interleaved: coordinate j of lane p at 8j+p).
// The exponentials are expPermExp: arguments clamped to [−700, 700], within
// 4 ulp of e^x (TestExpPermExp; 3 measured), not the bits of Exp.
// The reciprocals of row i come from one division by the product of the
// row (Montgomery's trick): with q_k = E_i0⋯E_i(k−1) (left to right) and
// inv = 1/q_d, for k = d−1 down to 1, C_ik = E_ik + inv·q_k then inv =
// inv·E_ik, and C_i0 = E_i0 + inv (separate roundings); so the row
// products must stay finite. The permanent is the subset recursion
//
//	f({j}) = C_0j,  f(S) = fma(C_{k−1,j}, f(S∖{j}), …) over j ∈ S increasing,
//
// k = |S|, the first term a plain product and the others fused
// multiply-adds, perm(C_p) = f([d]). Every path performs the same IEEE
// operations in the same order (the AVX-512 one lane per pair, the AVX2
// one on each half of the lanes), so the
// result has the same bits on every path. scratch has at least
// ExpPermScratch(d) elements; its contents are overwritten.
func ExpPermanent8(dst *[8]float64, u, w []float64, cosh bool, scratch []float64) {
	d := len(u)
	if d < 1 || d > MaxExpPermDim || len(w) != 8*d || len(scratch) < ExpPermScratch(d) {
		panic(fmt.Sprintf("f64: ExpPermanent8: d = %d, len(w) = %d, len(scratch) = %d", d, len(w), len(scratch)))
	}
	if expPerm(dst, u, w, cosh, scratch) {
		return
	}
	expPermGeneric(dst, u, w, d, false, cosh, scratch)
}

// ExpPermanent8Pairs is ExpPermanent8 with one u per lane: len(u) =
// len(w) = 8·d, both lane-interleaved (coordinate i of lane p at 8i+p),
// and E_ij = e^{u[8i+p]·w[8j+p]} in lane p. Each lane performs exactly the
// operations of ExpPermanent8 for its own u, so lane p gives the bits of
// ExpPermanent8 with u = (u[p], u[8+p], …) and the same w lane.
func ExpPermanent8Pairs(dst *[8]float64, u, w []float64, cosh bool, scratch []float64) {
	d := len(w) / 8
	if d < 1 || d > MaxExpPermDim || len(w) != 8*d || len(u) != 8*d || len(scratch) < ExpPermScratch(d) {
		panic(fmt.Sprintf("f64: ExpPermanent8Pairs: len(u) = %d, len(w) = %d, len(scratch) = %d", len(u), len(w), len(scratch)))
	}
	if expPermPairs(dst, u, w, d, cosh, scratch) {
		return
	}
	expPermGeneric(dst, u, w, d, true, cosh, scratch)
}

// expPermGeneric is ExpPermanent8 (perLane false: u[i] in every lane) or
// ExpPermanent8Pairs (perLane: u[8i+p] in lane p) in Go: the exponentials
// of all lanes (lane p's matrix at offset p·d²), then per lane the
// reciprocals and the recursion.
func expPermGeneric(dst *[8]float64, u, w []float64, d int, perLane, cosh bool, scratch []float64) {
	dd := d * d
	ex := scratch[:8*dd]
	f := scratch[8*dd : 8*dd+1<<d]
	for p := range 8 {
		c := ex[p*dd : p*dd+dd]
		for i := range d {
			ui := u[i]
			if perLane {
				ui = u[8*i+p]
			}
			for j := range d {
				c[i*d+j] = ui * w[8*j+p]
			}
		}
	}
	for k, v := range ex {
		ex[k] = expPermExp(v)
	}
	var q [MaxExpPermDim + 1]float64
	for p := range 8 {
		c := ex[p*dd : p*dd+dd]
		if cosh {
			for i := 0; i < dd; i += d {
				r := c[i : i+d]
				prod := 1.0
				for k, v := range r {
					q[k] = prod
					prod *= v
				}
				inv := 1 / prod
				for k := d - 1; k >= 1; k-- {
					v := r[k]
					r[k] = v + float64(inv*q[k])
					inv *= v
				}
				r[0] += inv
			}
		}
		f[0] = 1
		for s := 1; s < 1<<d; s++ {
			r := c[(bits.OnesCount(uint(s))-1)*d:]
			j := bits.TrailingZeros(uint(s))
			acc := r[j] * f[s&^(1<<j)]
			for t := uint(s) & (uint(s) - 1); t != 0; t &= t - 1 {
				j := bits.TrailingZeros(t)
				acc = math.FMA(r[j], f[s&^(1<<j)], acc)
			}
			f[s] = acc
		}
		dst[p] = f[1<<d-1]
	}
}

// Constants of expPermExp: e^x = 2^m·2^(j/8)·e^r with k = 8m + j =
// round(8x·log₂e) (the 1.5·2⁵² trick, one FMA), r = x − k·ln2/8 (two
// FMAs, Cody–Waite), |r| ≤ ln2/16, e^r its degree-8 Taylor polynomial in
// Horner form (truncation < 2·10⁻¹⁸ relative), 2^(j/8) from a table of 8
// (one permute in the assembly) and 2^m applied exactly (VSCALEFPD;
// math.Ldexp here, exact since x ∈ [−700, 700] keeps the result normal).
const (
	permExpLo = -700.0
	permExpHi = 700.0
)

// permCoef are 1/k! for k = 8 down to 0.
var permCoef = [9]float64{1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2, 1, 1}

// permTab are 2^(j/8), j < 8.
var permTab = func() (t [8]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / 8)
	}
	return t
}()

// expPermExp is the exponential of ExpPermanent8.
func expPermExp(x float64) float64 {
	x = min(max(x, permExpLo), permExpHi)
	v := math.FMA(x, 8*expLog2e, expMagic)
	n := v - expMagic
	r := math.FMA(n, -expLn2hi/8, x)
	r = math.FMA(n, -expLn2lo/8, r)
	p := permCoef[0]
	for _, c := range permCoef[1:] {
		p = math.FMA(p, r, c)
	}
	p *= permTab[math.Float64bits(v)&7]
	return math.Ldexp(p, int(math.Floor(n*0.125)))
}

// permConst is the constant table of the assembly, 8 float64s (one zmm)
// per entry: permCoef (offsets 0 … 512), lo, hi, magic, 8·log₂e,
// −ln2hi/8, −ln2lo/8 (576 … 896), permTab (960), 1/8 (1024), 1 (1088),
// and for AVX2 the table index mask 7 as integer bits (1152) and
// 1023 + magic (1216), whose sum with an integer m ∈ [−1022, 1023] has
// m + 1023 in its low bits: shifted left by 52, the bits of 2^m.
var permConst = func() (t [20 * 8]float64) {
	set := func(i int, v float64) {
		for l := range 8 {
			t[i*8+l] = v
		}
	}
	for k, c := range permCoef {
		set(k, c)
	}
	set(9, permExpLo)
	set(10, permExpHi)
	set(11, expMagic)
	set(12, 8*expLog2e)
	set(13, -expLn2hi/8)
	set(14, -expLn2lo/8)
	copy(t[15*8:16*8], permTab[:])
	set(16, 0.125)
	set(17, 1)
	set(18, math.Float64frombits(7))
	set(19, 1023+expMagic)
	return t
}()
