//go:build amd64 && !noasm

package f64

func gemmTile() (mr, nr int) {
	switch {
	case feat.avx512:
		return 8, 24
	case feat.avx2:
		return 4, 12
	}
	return genericMR, genericNR
}

func gemmKernel(k int, a, b, c []float64, ldc int) {
	switch {
	case feat.avx512:
		gemmKernel8x24AVX512(k, &a[0], &b[0], &c[0], ldc)
	case feat.avx2:
		gemmKernel4x12AVX2(k, &a[0], &b[0], &c[0], ldc)
	default:
		gemmKernelGeneric(k, a, b, c, ldc, genericMR, genericNR)
	}
}

// gemmKernel8x24AVX512 is gemmKernelGeneric for an 8×24 tile and k ≥ 1:
// the tile lives in Z0–Z23 (row i in three registers), and each step p
// loads b's 24 entries into Z24–Z26, broadcasts a's 8 and does 24
// VFMADD231PD (c = a·b + c, one rounding).
//
//go:noescape
func gemmKernel8x24AVX512(k int, a, b, c *float64, ldc int)

// gemmKernel4x12AVX2 is gemmKernelGeneric for a 4×12 tile and k ≥ 1, in
// Y0–Y11.
//
//go:noescape
func gemmKernel4x12AVX2(k int, a, b, c *float64, ldc int)
