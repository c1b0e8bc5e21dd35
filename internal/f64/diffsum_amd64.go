//go:build amd64 && !noasm

package f64

// scaledDiffSum runs the assembly when the CPU has AVX-512 and d ≤ 16,
// and reports whether it did.
func scaledDiffSum(dst, x, orb, c []float64) bool {
	if !feat.avx512 || len(x) > 16 {
		return false
	}
	var c0, o0 *float64
	if len(c) > 0 {
		c0, o0 = &c[0], &orb[0]
	}
	scaledDiffSumAVX512(&dst[0], &x[0], len(x), o0, c0, len(c))
	return true
}

// scaledDiffSumAVX512 is scaledDiffSumGeneric for 1 ≤ d ≤ 16: two zmm
// accumulators masked to d lanes; per point, acc = acc + c·(x − o)
// (VSUBPD, VMULPD, VADDPD).
//
//go:noescape
func scaledDiffSumAVX512(dst, x *float64, d int, orb, c *float64, n int)
