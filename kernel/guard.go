package kernel

import (
	"math"

	"github.com/symbo/symbo/internal/f64"
)

// Accuracy guard of the fused enumeration.
//
// Enumerated orbit kernels compute squared distances as
// ‖x‖² + ‖y‖² − 2⟨x, g·y⟩, which is fast (the inner products fuse with the
// reduction over the group) but cancels when the points are far from the
// origin compared with their distance: with rounding, the computed u² =
// d²/ℓ² is off by at most
//
//	b = γ_d·(‖x‖² + ‖y‖²)/ℓ²,  γ_d = 2(d+2)·ε,
//
// (a first-order bound on the rounding of the two norms, the inner product
// and the two additions, ε = 2⁻⁵³). A pair is recomputed exactly, from the
// direct differences ‖x − g·y‖², whenever the error this could cause in κ,
// fusedErr, exceeds FusedTol (in units of the variance v). Ordinary inputs
// never trip it (‖x‖/ℓ ≲ 10 in a few dimensions); points at 10⁷
// lengthscales from the origin, coincident points under the
// non-differentiable Matérn-1/2 profile, and squared norms that overflow do.

// FusedTol is the accuracy enumerated kernels guarantee: the fused value of
// κ is used only when its rounding error is provably at most FusedTol
// (times v); otherwise the pair is recomputed from direct differences.
const FusedTol = 1e-12

// fusedGamma is γ_d.
func fusedGamma(d int) float64 { return 2 * float64(d+2) * 0x1p-53 }

// fusedOK reports whether a fused value with computed u² and error bound b
// (on u²) is within FusedTol. The common case costs one multiplication.
func fusedOK(s Shape, slope, u2, b float64) bool {
	if slope*b <= FusedTol {
		return true
	}
	if !(u2 <= math.MaxFloat64) || !(b <= math.MaxFloat64) {
		return false // a norm overflowed
	}
	lo := max(u2-b, 0)
	e := s.spec().fusedErr(lo, u2, b)
	return e <= FusedTol
}

// packedDist2 returns min_g ‖x − o_g‖² over the first G elements of the
// packed orbit orb, from direct differences (no cancellation).
func packedDist2(x, orb []float64, G int) float64 {
	d := len(x)
	best := math.Inf(1)
	forPacked(orb, d, G, func(o []float64, w, l int) {
		best = min(best, laneDist2(x, o, w, l))
	})
	return best
}

// packedArgmin returns the first g minimizing ‖x − o_g‖² over the first G
// elements of the packed orbit orb, from direct differences.
func packedArgmin(x, orb []float64, G int) int {
	d := len(x)
	best, arg, g := math.Inf(1), 0, 0
	forPacked(orb, d, G, func(o []float64, w, l int) {
		if s := laneDist2(x, o, w, l); s < best {
			best, arg = s, g
		}
		g++
	})
	return arg
}

// laneDist2 returns ‖x − o_l‖² for lane l of the packed block o of w
// lanes (forPacked's arguments), from direct differences: the distance
// packedDist2 minimizes and packedArgmin locates.
func laneDist2(x, o []float64, w, l int) float64 {
	var s float64
	for k, xk := range x {
		t := xk - o[k*w+l]
		s += t * t
	}
	return s
}

// packedSumKappa returns Σ_g κ(‖x − o_g‖/ℓ) over the first G elements of
// the packed orbit orb from direct differences (f64.Dist2To), κ through
// f64.KappaTo and the terms summed in SumKappa's lane order. buf holds at
// least G floats.
func packedSumKappa(x, orb []float64, G int, sh f64.Shape, inv2 float64, buf []float64) float64 {
	u2 := buf[:G]
	f64.Dist2To(u2, x, orb)
	for g, s := range u2 {
		u2[g] = s * inv2
	}
	f64.KappaTo(u2, u2, sh)
	var acc [8]float64
	for g, v := range u2 {
		acc[g%8] += v
	}
	return ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]))
}

// forPacked calls f(block, w, lane) for the first G elements of a packed
// orbit, in element order: element g's coordinate k is block[k·w + lane].
func forPacked(orb []float64, d, G int, f func(block []float64, w, l int)) {
	gp := len(orb) / d
	nw := gp / f64.Wide
	g := 0
	for g0 := 0; g0 < gp && g < G; {
		w := f64.Narrow
		if g0 < nw*f64.Wide {
			w = f64.Wide
		}
		blk := orb[g0*d : (g0+w)*d]
		for l := 0; l < w && g < G; l++ {
			f(blk, w, l)
			g++
		}
		g0 += w
	}
}
