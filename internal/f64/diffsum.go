package f64

import "fmt"

// ScaledDiffSum sets dst[k] = Σ_i c[i]·(x[k] − orb[i·d + k]) for the
// len(c) points of the row-major orbit orb (d = len(x) = len(dst)),
// summed over i in order from 0, each term one subtraction and one
// multiplication and each addition rounded (no fused multiply-add): the
// same bits on every path. It is the sum of an enumerated orbit
// average's element gradients, c[i] = κ'(u_i)/u_i. With AVX-512 and d ≤
// 16 the coordinates run at once (masked to d); otherwise in Go. Cost:
// 3·d·len(c) operations. dst must not overlap x, orb or c (the paths
// read them at different times). It panics unless len(dst) = len(x) ≥ 1
// and len(orb) ≥ d·len(c).
func ScaledDiffSum(dst, x, orb, c []float64) {
	d := len(x)
	if d < 1 || len(dst) != d || len(orb) < d*len(c) {
		panic(fmt.Sprintf("f64: ScaledDiffSum: len(dst) = %d, len(x) = %d, len(orb) = %d, len(c) = %d", len(dst), d, len(orb), len(c)))
	}
	if scaledDiffSum(dst, x, orb, c) {
		return
	}
	scaledDiffSumGeneric(dst, x, orb, c)
}

func scaledDiffSumGeneric(dst, x, orb, c []float64) {
	d := len(x)
	clear(dst)
	for i, ci := range c {
		o := orb[i*d : i*d+d]
		for k, xk := range x {
			dst[k] += float64(ci * (xk - o[k])) // rounded on its own: no fusion
		}
	}
}
