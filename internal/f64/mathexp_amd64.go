//go:build amd64 && !noasm

package f64

import "math"

// mathExpConst holds the constants of mathExpAVX512, each repeated 8
// times (see the offsets in mathexp_amd64.s). The literals are those of
// the standard library's exp_amd64.s, which parse to the same float64s.
var mathExpConst = func() (t [23 * 8]float64) {
	set := func(i int, v float64) {
		for l := range 8 {
			t[i*8+l] = v
		}
	}
	bits := func(i int, v uint64) { set(i, math.Float64frombits(v)) }
	set(0, 1.4426950408889634073599246810018920)        // LOG2E
	set(1, 0.69314718055966295651160180568695068359375) // LN2U
	set(2, 0.28235290563031577122588448175013436025525412068e-12)
	set(3, 0.0625)
	set(4, 2.4801587301587301587e-5)
	set(5, 1.9841269841269841270e-4)
	set(6, 1.3888888888888888889e-3)
	set(7, 8.3333333333333333333e-3)
	set(8, 4.1666666666666666667e-2)
	set(9, 1.6666666666666666667e-1)
	set(10, 0.5)
	set(11, 1.0)
	set(12, 2.0)
	set(13, 7.09782712893384e+02) // Overflow
	bits(14, 1<<63-1)             // |x| mask
	bits(15, 0x7FF0000000000000)  // +Inf
	bits(16, 0xFFF0000000000000)  // −Inf
	bits(17, 0x3FF)
	bits(18, 0x7FF)
	bits(19, uint64(0xFFFFFFFFFFFFFFCC)) // −52
	bits(20, 0x3FE)
	bits(21, 1<<52) // 2^−1022
	bits(22, 0)
	return t
}()

// mathExpTo runs the assembly on the largest multiple of 8 elements when
// the CPU has AVX-512, of 4 with AVX2 and FMA, and returns how many it
// did.
func mathExpTo(dst, x []float64) int {
	switch {
	case feat.avx512:
		n := len(x) &^ 7
		if n > 0 {
			mathExpAVX512(&dst[0], &x[0], n, &mathExpConst[0])
		}
		return n
	case feat.avx2:
		n := len(x) &^ 3
		if n > 0 {
			mathExpAVX2(&dst[0], &x[0], n, &mathExpConst[0])
		}
		return n
	}
	return 0
}

// mathExpAVX512 writes math.Exp(x[i]) to dst[i] for n (a multiple of 8)
// elements.
//
//go:noescape
func mathExpAVX512(dst, x *float64, n int, consts *float64)

// mathExpAVX2 writes math.Exp(x[i]) to dst[i] for n (a multiple of 4)
// elements.
//
//go:noescape
func mathExpAVX2(dst, x *float64, n int, consts *float64)
