//go:build amd64 && !noasm

package f64

// maternArgs sets a[i] = √u2[i]·c and o[i] = −a[i] for the largest
// multiple of 8 elements when the CPU has AVX-512 and returns how many it
// did (VSQRTPD is correctly rounded, as math.Sqrt).
func maternArgs(a, o, u2 []float64, c float64) int {
	n := len(u2) &^ 7
	if !feat.avx512 || n == 0 {
		return 0
	}
	maternArgsAVX512(&a[0], &o[0], &u2[0], n, c)
	return n
}

// maternPoly sets o[i] *= fma(a[i]·q2, a[i], a[i]·q1) + 1 where o[i] ≠ 0
// for the largest multiple of 8 elements when the CPU has AVX-512 and
// returns how many it did (VFMADD: one rounding, as math.FMA).
func maternPoly(o, a []float64, q1, q2 float64) int {
	n := len(a) &^ 7
	if !feat.avx512 || n == 0 {
		return 0
	}
	maternPolyAVX512(&o[0], &a[0], n, q1, q2)
	return n
}

//go:noescape
func maternArgsAVX512(a, o, u2 *float64, n int, c float64)

//go:noescape
func maternPolyAVX512(o, a *float64, n int, q1, q2 float64)
