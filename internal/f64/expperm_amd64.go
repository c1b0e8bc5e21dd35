//go:build amd64 && !noasm

package f64

// expPerm runs the assembly ExpPermanent8 (AVX-512, else AVX2) and
// reports whether it did.
func expPerm(dst *[8]float64, u, w []float64, cosh bool, scratch []float64) bool {
	return expPermAsm(0, dst, u, w, len(u), cosh, scratch)
}

// expPermPairs runs the assembly ExpPermanent8Pairs and reports whether
// it did.
func expPermPairs(dst *[8]float64, u, w []float64, d int, cosh bool, scratch []float64) bool {
	return expPermAsm(1, dst, u, w, d, cosh, scratch)
}

// permFunc is the signature of the assembly functions.
type permFunc func(dst *[8]float64, u, w, f *float64, cosh int, consts *float64)

// permFuncs are the assembly functions by path (0 AVX2, 1 AVX-512),
// entry point (0 ExpPermanent8, 1 ExpPermanent8Pairs) and d − 1.
var permFuncs = [2][2][MaxExpPermDim]permFunc{
	{
		{expPerm1AVX2, expPerm2AVX2, expPerm3AVX2, expPerm4AVX2, expPerm5AVX2, expPerm6AVX2},
		{expPermPairs1AVX2, expPermPairs2AVX2, expPermPairs3AVX2, expPermPairs4AVX2, expPermPairs5AVX2, expPermPairs6AVX2},
	},
	{
		{expPerm1AVX512, expPerm2AVX512, expPerm3AVX512, expPerm4AVX512, expPerm5AVX512, expPerm6AVX512},
		{expPermPairs1AVX512, expPermPairs2AVX512, expPermPairs3AVX512, expPermPairs4AVX512, expPermPairs5AVX512, expPermPairs6AVX512},
	},
}

// expPermAsm runs entry point pairs (0 or 1) of the widest assembly path
// the features allow for d, and reports whether there was one.
func expPermAsm(pairs int, dst *[8]float64, u, w []float64, d int, cosh bool, scratch []float64) bool {
	path := 0
	switch {
	case feat.avx512:
		path = 1
	case !feat.avx2:
		return false
	}
	if d < 1 || d > MaxExpPermDim {
		return false
	}
	c := 0
	if cosh {
		c = 1
	}
	permFuncs[path][pairs][d-1](dst, &u[0], &w[0], &scratch[0], c, &permConst[0])
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
