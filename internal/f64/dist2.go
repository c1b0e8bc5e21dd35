package f64

import "fmt"

// Dist2To sets dst[g] = ‖x − o_g‖² for the first len(dst) elements o_g of
// the packed orbit orb (dimension len(x)), each summed over the
// coordinates in order from the direct differences:
//
//	s = 0; s = s + (x_k − o_g,k)·(x_k − o_g,k) for k = 0 … d−1
//
// one subtraction, one multiplication and one addition per term, each
// rounded (no fused multiply-add), so the same bits on every path. These
// are the distances without the cancellation of the inner-product form
// ‖x‖² + ‖o‖² − 2⟨x, o⟩ (kernel's accuracy guard). With AVX-512 the whole
// blocks run 8 or 32 elements at once, the rest in Go. Cost: d·len(dst)
// subtract-multiply-adds. dst must not overlap x or orb. It panics
// unless len(x) ≥ 1, len(orb) is a packed length for len(x) and len(dst)
// ≤ len(orb)/len(x).
func Dist2To(dst, x, orb []float64) {
	d := len(x)
	if d < 1 || len(orb)%(d*Narrow) != 0 || len(dst) > len(orb)/d {
		panic(fmt.Sprintf("f64: Dist2To: len(dst) = %d, len(x) = %d, len(orb) = %d", len(dst), d, len(orb)))
	}
	done := dist2(dst, x, orb)
	dist2Generic(dst, x, orb, done)
}

// dist2Generic does Dist2To's elements from on.
func dist2Generic(dst, x, orb []float64, from int) {
	d := len(x)
	gp := len(orb) / d
	for g := from; g < len(dst); g++ {
		base, w, l := blockOf(g, gp, d)
		var s float64
		for k, xk := range x {
			t := xk - orb[base+k*w+l]
			s += float64(t * t) // rounded on its own: no fusion
		}
		dst[g] = s
	}
}
