package f64

import (
	"math/rand/v2"
	"testing"
)

// TestScaledDiffSum: on every SIMD path, for d from 1 to 20 (the
// assembly's masks at 1, 8, 9, 16; Go beyond) and 0 to 50 points, at
// ordinary scales and where products overflow, ScaledDiffSum equals the
// sum written out coordinate by coordinate, bit for bit, and writes only
// dst.
func TestScaledDiffSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, d := range []int{1, 2, 7, 8, 9, 10, 15, 16, 17, 20} {
		for _, n := range []int{0, 1, 5, 48} {
			for _, scale := range []float64{1, 1e-160, 1e160} {
				x := make([]float64, d)
				for i := range x {
					x[i] = fuzzValue(rng, scale)
				}
				orb := make([]float64, n*d+3) // a tail the sum must not read into dst
				for i := range orb {
					orb[i] = fuzzValue(rng, scale)
				}
				c := make([]float64, n)
				for i := range c {
					c[i] = fuzzValue(rng, 1/scale)
				}
				want := make([]float64, d)
				for k := range d {
					var s float64
					for i := range n {
						s += float64(c[i] * (x[k] - orb[i*d+k]))
					}
					want[k] = s
				}
				for _, p := range paths() {
					restore := setFeatures(p.f)
					dst := make([]float64, d+1)
					for i := range dst {
						dst[i] = 7
					}
					ScaledDiffSum(dst[:d], x, orb, c)
					restore()
					for k := range d {
						if !sameBits(dst[k], want[k]) {
							t.Fatalf("%s d=%d n=%d scale %g: coordinate %d = %v, want %v", p.name, d, n, scale, k, dst[k], want[k])
						}
					}
					if dst[d] != 7 {
						t.Fatalf("%s d=%d n=%d: wrote past dst", p.name, d, n)
					}
				}
			}
		}
	}
}

func BenchmarkScaledDiffSum(b *testing.B) {
	const G, d = 48, 10
	rng := rand.New(rand.NewPCG(1, 2))
	x, orb, c, dst := make([]float64, d), make([]float64, G*d), make([]float64, G), make([]float64, d)
	for i := range orb {
		orb[i] = rng.Float64()
	}
	for i := range c {
		c[i], x[i%d] = rng.Float64(), rng.Float64()
	}
	for _, p := range paths() {
		b.Run(p.name, func(b *testing.B) {
			restore := setFeatures(p.f)
			defer restore()
			for b.Loop() {
				ScaledDiffSum(dst, x, orb, c)
			}
		})
	}
}
