//go:build amd64 && !noasm

package f64

// maxDot dispatches MaxDot: the assembly handles rows four at a time,
// including a last padded tile for the n mod 4 remaining rows (d ≤ 16;
// beyond, the generic code does them with the same operations, same bits).
func maxDot(best, x []float64, xs, d int, orb []float64) {
	n4 := len(best) &^ 3
	if n4 > 0 && len(orb) > 0 && (feat.avx512 || feat.avx2) {
		gp := len(orb) / d
		nw, nt := gp/Wide, gp%Wide/Narrow
		if feat.avx512 {
			maxDotAVX512(&best[0], n4, &x[0], xs, d, &orb[0], nw, nt)
		} else {
			maxDotAVX2(&best[0], n4, &x[0], xs, d, &orb[0], nw, nt)
		}
		best, x = best[n4:], x[n4*xs:]
	}
	if r := len(best); r > 0 && len(orb) > 0 && d <= 16 && (feat.avx512 || feat.avx2) {
		// Remainder rows: one 4-row tile padded with copies of the last
		// row, whose results are dropped.
		var xt [4 * 16]float64
		var bt [4]float64
		for i := range 4 {
			src := min(i, r-1) * xs
			copy(xt[i*d:i*d+d], x[src:src+d])
		}
		gp := len(orb) / d
		if feat.avx512 {
			maxDotAVX512(&bt[0], 4, &xt[0], d, d, &orb[0], gp/Wide, gp%Wide/Narrow)
		} else {
			maxDotAVX2(&bt[0], 4, &xt[0], d, d, &orb[0], gp/Wide, gp%Wide/Narrow)
		}
		copy(best, bt[:r])
		return
	}
	if len(best) > 0 {
		maxDotGeneric(best, x, xs, d, orb)
	}
}

// maxDotAVX512 is maxDotGeneric for n (a multiple of 4) rows, a 4-row ×
// 32-point register tile (16 zmm accumulators):
//
//	for each block: acc[l] = x₀·o[l]; acc[l] += x_k·o[k·w+l] (k = 1…d−1)
//	b = max(b, acc[l])
//
//go:noescape
func maxDotAVX512(best *float64, n int, x *float64, xs, d int, orb *float64, nw, nt int)

// maxDotAVX2 is maxDotAVX512 with a 4-row × 8-point tile (8 ymm
// accumulators).
//
//go:noescape
func maxDotAVX2(best *float64, n int, x *float64, xs, d int, orb *float64, nw, nt int)
