//go:build amd64 && !noasm

package f64

// The AVX-512 kernels do whole calls (masked loads and stores for the
// last elements, the reduction of the partial sums); the AVX2 ones do the
// leading multiple of Lanes elements and leave the rest, and the reduction,
// to the generic code, which continues the same partial sums.

func inner(x, y []float64) float64 {
	switch {
	case feat.avx512:
		return innerAVX512(&x[0], &y[0], len(x))
	case feat.avx2:
		var s [Lanes]float64
		y = y[:len(x)]
		n := len(x) &^ (Lanes - 1)
		if n > 0 {
			innerAVX2(&s, &x[0], &y[0], n)
		}
		innerLanes(&s, x[n:], y[n:])
		return reduceLanes(&s)
	}
	return innerGeneric(x, y)
}

func addScaled(y []float64, alpha float64, x []float64) {
	switch {
	case feat.avx512:
		addScaledAVX512(&y[0], alpha, &x[0], len(y))
		return
	case feat.avx2:
		x = x[:len(y)]
		n := len(y) &^ 3
		if n > 0 {
			addScaledAVX2(&y[0], alpha, &x[0], n)
		}
		addScaledGeneric(y[n:], alpha, x[n:])
		return
	}
	addScaledGeneric(y, alpha, x)
}

func addScaled4(y []float64, a *[4]float64, x0, x1, x2, x3 []float64) {
	switch {
	case feat.avx512:
		addScaled4AVX512(&y[0], a, &x0[0], &x1[0], &x2[0], &x3[0], len(y))
		return
	case feat.avx2:
		n := len(y) &^ 3
		if n > 0 {
			addScaled4AVX2(&y[0], a, &x0[0], &x1[0], &x2[0], &x3[0], n)
		}
		addScaled4Generic(y[n:], a, x0[n:], x1[n:], x2[n:], x3[n:])
		return
	}
	addScaled4Generic(y, a, x0, x1, x2, x3)
}

func innerAddScaled(y []float64, alpha float64, a, x []float64) float64 {
	switch {
	case feat.avx512:
		return innerAddScaledAVX512(&y[0], alpha, &a[0], &x[0], len(a))
	case feat.avx2:
		var s [Lanes]float64
		x, y = x[:len(a)], y[:len(a)]
		n := len(a) &^ (Lanes - 1)
		if n > 0 {
			innerAddScaledAVX2(&s, &y[0], alpha, &a[0], &x[0], n)
		}
		innerAddScaledLanes(&s, y[n:], alpha, a[n:], x[n:])
		return reduceLanes(&s)
	}
	return innerAddScaledGeneric(y, alpha, a, x)
}

func innerAddScaledNext(y []float64, alpha float64, a, x, next []float64) float64 {
	if len(next) == 0 {
		return innerAddScaled(y, alpha, a, x)
	}
	switch {
	case feat.avx512:
		return innerAddScaledNextAVX512(&y[0], alpha, &a[0], &x[0], len(a), &next[0])
	case feat.avx2:
		var s [Lanes]float64
		x, y = x[:len(a)], y[:len(a)]
		n := len(a) &^ (Lanes - 1)
		if n > 0 {
			innerAddScaledNextAVX2(&s, &y[0], alpha, &a[0], &x[0], n, &next[0])
		}
		innerAddScaledLanes(&s, y[n:], alpha, a[n:], x[n:])
		return reduceLanes(&s)
	}
	return innerAddScaledGeneric(y, alpha, a, x)
}

// innerAVX512 is innerGeneric for n ≥ 1 elements: partial sums in Z0
// (lanes 0–7) and Z1 (lanes 8–15), s = fma(x, y, s).
//
//go:noescape
func innerAVX512(x, y *float64, n int) float64

// innerAVX2 accumulates the first n (a multiple of Lanes) products into
// s, which it overwrites (lanes in four ymm registers).
//
//go:noescape
func innerAVX2(s *[Lanes]float64, x, y *float64, n int)

// addScaledAVX512 is addScaledGeneric for n ≥ 1 elements:
// y = fma(alpha, x, y).
//
//go:noescape
func addScaledAVX512(y *float64, alpha float64, x *float64, n int)

// addScaledAVX2 is addScaledGeneric for n (a multiple of 4) elements.
//
//go:noescape
func addScaledAVX2(y *float64, alpha float64, x *float64, n int)

// addScaled4AVX512 is addScaled4Generic for n ≥ 1 elements.
//
//go:noescape
func addScaled4AVX512(y *float64, a *[4]float64, x0, x1, x2, x3 *float64, n int)

// addScaled4AVX2 is addScaled4Generic for n (a multiple of 4) elements.
//
//go:noescape
func addScaled4AVX2(y *float64, a *[4]float64, x0, x1, x2, x3 *float64, n int)

// innerAddScaledAVX512 is innerAddScaledGeneric for n ≥ 1 elements.
//
//go:noescape
func innerAddScaledAVX512(y *float64, alpha float64, a, x *float64, n int) float64

// innerAddScaledAVX2 does the first n (a multiple of Lanes) elements of
// innerAddScaledGeneric, overwriting s with the partial sums.
//
//go:noescape
func innerAddScaledAVX2(s *[Lanes]float64, y *float64, alpha float64, a, x *float64, n int)

// innerAddScaledNextAVX512 is innerAddScaledAVX512 with two PREFETCHT1
// (into L2, which measured better than T0 for rows streamed from memory)
// of next per 16 elements.
//
//go:noescape
func innerAddScaledNextAVX512(y *float64, alpha float64, a, x *float64, n int, next *float64) float64

// innerAddScaledNextAVX2 is innerAddScaledAVX2 with two PREFETCHT1 of
// next per 16 elements.
//
//go:noescape
func innerAddScaledNextAVX2(s *[Lanes]float64, y *float64, alpha float64, a, x *float64, n int, next *float64)
