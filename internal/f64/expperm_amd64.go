//go:build amd64 && !noasm

package f64

// expPerm runs the AVX-512 or AVX2 ExpPermanent8 and reports whether it
// did.
func expPerm(dst *[8]float64, u, w []float64, cosh bool, scratch []float64) bool {
	if !feat.avx512 {
		return feat.avx2 && expPermAVX2(dst, u, w, cosh, scratch)
	}
	c := 0
	if cosh {
		c = 1
	}
	f, k := &scratch[0], &permConst[0]
	switch len(u) {
	case 1:
		expPerm1AVX512(dst, &u[0], &w[0], f, c, k)
	case 2:
		expPerm2AVX512(dst, &u[0], &w[0], f, c, k)
	case 3:
		expPerm3AVX512(dst, &u[0], &w[0], f, c, k)
	case 4:
		expPerm4AVX512(dst, &u[0], &w[0], f, c, k)
	case 5:
		expPerm5AVX512(dst, &u[0], &w[0], f, c, k)
	case 6:
		expPerm6AVX512(dst, &u[0], &w[0], f, c, k)
	default:
		return false
	}
	return true
}

// expPermPairs runs the AVX-512 or AVX2 ExpPermanent8Pairs and reports
// whether it did.
func expPermPairs(dst *[8]float64, u, w []float64, d int, cosh bool, scratch []float64) bool {
	if !feat.avx512 {
		return feat.avx2 && expPermPairsAVX2(dst, u, w, d, cosh, scratch)
	}
	c := 0
	if cosh {
		c = 1
	}
	f, k := &scratch[0], &permConst[0]
	switch d {
	case 1:
		expPermPairs1AVX512(dst, &u[0], &w[0], f, c, k)
	case 2:
		expPermPairs2AVX512(dst, &u[0], &w[0], f, c, k)
	case 3:
		expPermPairs3AVX512(dst, &u[0], &w[0], f, c, k)
	case 4:
		expPermPairs4AVX512(dst, &u[0], &w[0], f, c, k)
	case 5:
		expPermPairs5AVX512(dst, &u[0], &w[0], f, c, k)
	case 6:
		expPermPairs6AVX512(dst, &u[0], &w[0], f, c, k)
	default:
		return false
	}
	return true
}

// expPermdAVX512 is ExpPermanent8 for d = len(u), one pair per lane; f
// holds 8·2^d floats of scratch (64 bytes per subset).
//
//go:noescape
func expPerm1AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPerm2AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPerm3AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPerm4AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPerm5AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPerm6AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

// expPermPairsdAVX512 is ExpPermanent8Pairs for d = len(w)/8: u is
// lane-interleaved like w.
//
//go:noescape
func expPermPairs1AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs2AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs3AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs4AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs5AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs6AVX512(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

// expPermAVX2 is expPerm on the AVX2 path.
func expPermAVX2(dst *[8]float64, u, w []float64, cosh bool, scratch []float64) bool {
	c := 0
	if cosh {
		c = 1
	}
	f, k := &scratch[0], &permConst[0]
	switch len(u) {
	case 1:
		expPerm1AVX2(dst, &u[0], &w[0], f, c, k)
	case 2:
		expPerm2AVX2(dst, &u[0], &w[0], f, c, k)
	case 3:
		expPerm3AVX2(dst, &u[0], &w[0], f, c, k)
	case 4:
		expPerm4AVX2(dst, &u[0], &w[0], f, c, k)
	case 5:
		expPerm5AVX2(dst, &u[0], &w[0], f, c, k)
	case 6:
		expPerm6AVX2(dst, &u[0], &w[0], f, c, k)
	default:
		return false
	}
	return true
}

// expPermPairsAVX2 is expPermPairs on the AVX2 path.
func expPermPairsAVX2(dst *[8]float64, u, w []float64, d int, cosh bool, scratch []float64) bool {
	c := 0
	if cosh {
		c = 1
	}
	f, k := &scratch[0], &permConst[0]
	switch d {
	case 1:
		expPermPairs1AVX2(dst, &u[0], &w[0], f, c, k)
	case 2:
		expPermPairs2AVX2(dst, &u[0], &w[0], f, c, k)
	case 3:
		expPermPairs3AVX2(dst, &u[0], &w[0], f, c, k)
	case 4:
		expPermPairs4AVX2(dst, &u[0], &w[0], f, c, k)
	case 5:
		expPermPairs5AVX2(dst, &u[0], &w[0], f, c, k)
	case 6:
		expPermPairs6AVX2(dst, &u[0], &w[0], f, c, k)
	default:
		return false
	}
	return true
}

// expPermdAVX2 and expPermPairsdAVX2 are the AVX-512 functions' AVX2
// twins (gen_expperm.go), the eight lanes as two halves of four.
//
//go:noescape
func expPerm1AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPerm2AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPerm3AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPerm4AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPerm5AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPerm6AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs1AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs2AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs3AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs4AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs5AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

//go:noescape
func expPermPairs6AVX2(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)
