package f64

import (
	"fmt"
	"math"
)

// MathExpTo sets dst[i] = math.Exp(x[i]), bit for bit. dst and x must
// have the same length; they may be the same slice.
//
// With AVX-512 it runs eight lanes at once (with AVX2 and FMA, four)
// through the operations of the standard library's amd64 math.Exp on its
// FMA path (taken on every CPU with AVX and FMA unless GODEBUG turns them
// off), in the same order with the same roundings: the
// reduction by LN2U and LN2L (two FMAs), the Taylor polynomial of e^(r/16)
// in Horner form, the four squarings, and the scaling by 2^n with its
// subnormal, overflow and non-finite cases. It checks itself against
// math.Exp on probe values when the package loads and falls back to
// math.Exp in a loop if any differs (a Go release whose math.Exp computes
// otherwise); TestMathExpTo compares the two on millions of values, and
// TestMathExpAVX2 the four-lane kernel wherever the CPU has AVX2. Cost:
// ⌊n/8⌋ blocks of 8 lanes and n mod 8 calls of math.Exp (a padded last
// block measured slower; with AVX2, ⌊n/4⌋ blocks and n mod 4 calls); its
// time against math.Exp's is
// BenchmarkMathExpTo's, recorded in docs/performance.md, "The
// permanent's gradient".
func MathExpTo(dst, x []float64) {
	if len(dst) != len(x) {
		panic(fmt.Sprintf("f64: MathExpTo: len(dst) = %d, len(x) = %d", len(dst), len(x)))
	}
	n := 0
	if mathExpExact {
		n = mathExpTo(dst, x)
	}
	for i := n; i < len(x); i++ {
		dst[i] = math.Exp(x[i])
	}
}

// mathExpProbes are values on every path of math.Exp: ordinary, the
// Taylor polynomial's ends, subnormal results, underflow to 0, overflow,
// the int32 conversion's out-of-range case, and the non-finite inputs.
var mathExpProbes = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1e-300, -1e-300, 5e-324,
	0.34657359027997264, -0.34657359027997264, 2.5, -17.25, 100, -100,
	-700, -708.3964185322641, -709.0895657128241, -720, -744.4400719213812,
	-745.1332191019411, -745.2, -746, -1e9, -3e9, -1e300,
	709, 709.782712893384, 709.7827128933841, 710, 1e300,
	math.Inf(1), math.Inf(-1), math.NaN(),
	math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff0000000000001),
	-0.6931471805599453, 0.6931471805599453, -1.5e-16, 3.1e-17,
}

// mathExpExact reports whether the vector path gives math.Exp's bits on
// every probe (checked once; see MathExpTo).
var mathExpExact = func() bool {
	n := (len(mathExpProbes) + 7) &^ 7
	x := make([]float64, n)
	copy(x, mathExpProbes)
	got := make([]float64, n)
	if mathExpTo(got, x) != n {
		return false
	}
	for i, v := range x {
		if math.Float64bits(got[i]) != math.Float64bits(math.Exp(v)) {
			return false
		}
	}
	return true
}()
