package gp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPlusLoopsBits: addScaledSep and dotSeq, plusPost.predict's two
// loops unrolled, give the bits of the loops they replaced — each product
// rounded, then each sum, in increasing index — at every length around
// the unrolling's multiple of four, on values of mixed signs and scales.
func TestPlusLoopsBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	val := func() float64 { return rng.NormFloat64() * math.Ldexp(1, rng.IntN(40)-20) }
	for trial := range 300 {
		n := trial % 23
		x, y, w := make([]float64, n), make([]float64, n+trial%3), make([]float64, n+1)
		for i := range x {
			x[i] = val()
		}
		for i := range y {
			y[i] = val()
		}
		for i := range w {
			w[i] = val()
		}
		k := val()
		want := append([]float64(nil), y...)
		for c, v := range x {
			want[c] += float64(v * k)
		}
		got := append([]float64(nil), y...)
		addScaledSep(got, k, x)
		for c := range want {
			if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
				t.Fatalf("addScaledSep, n = %d: y[%d] = %v, the loop's %v", n, c, got[c], want[c])
			}
		}
		var s float64
		for c, v := range x {
			s += float64(v * w[c])
		}
		if d := dotSeq(x, w); math.Float64bits(d) != math.Float64bits(s) {
			t.Fatalf("dotSeq, n = %d: %v, the loop's %v", n, d, s)
		}
	}
}
