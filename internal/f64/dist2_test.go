package f64

import (
	"math/rand/v2"
	"testing"
)

// naiveDist2 is an independent reference for Dist2To: the row-major orbit
// (before packing), s = 0, s += (x_k − o_k)² in coordinate order, each
// product rounded.
func naiveDist2(x, orbRows []float64, g int) float64 {
	d := len(x)
	var s float64
	for k := range d {
		t := x[k] - orbRows[g*d+k]
		s += float64(t * t)
	}
	return s
}

// TestDist2To: on every SIMD path, for orbits that fill wide and narrow
// blocks and pad the last one, and for every prefix length the callers
// use (G, and the whole packed count), Dist2To equals the reference bit
// for bit — at ordinary scales and where the squares overflow.
func TestDist2To(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for _, d := range []int{1, 2, 3, 7, 10, 17} {
		for _, G := range []int{1, 7, 8, 9, 31, 32, 33, 48, 64, 100, 130} {
			for _, scale := range []float64{1, 1e-160, 1e160} {
				x := make([]float64, d)
				for i := range x {
					x[i] = fuzzValue(rng, scale)
				}
				rows := make([]float64, G*d)
				for i := range rows {
					rows[i] = fuzzValue(rng, scale)
				}
				orb := make([]float64, PackedLen(G, d))
				Pack(orb, rows, G, d)
				gp := len(orb) / d
				for _, p := range paths() {
					restore := setFeatures(p.f)
					for _, n := range []int{G, gp, G / 2} {
						dst := make([]float64, n+1)
						dst[n] = 42
						Dist2To(dst[:n], x, orb)
						for g := range n {
							want := naiveDist2(x, rows, min(g, G-1)) // padding copies the last point
							if !sameBits(dst[g], want) {
								restore()
								t.Fatalf("%s d=%d G=%d n=%d scale %g: element %d = %v, want %v", p.name, d, G, n, scale, g, dst[g], want)
							}
						}
						if dst[n] != 42 {
							restore()
							t.Fatalf("%s d=%d G=%d n=%d: wrote past len(dst)", p.name, d, G, n)
						}
					}
					restore()
				}
			}
		}
	}
}

func TestDist2ToPanics(t *testing.T) {
	orb := make([]float64, PackedLen(9, 2))
	for _, c := range []struct {
		dst, x []float64
	}{
		{make([]float64, 17), make([]float64, 2)}, // more than the packed count (16)
		{make([]float64, 3), nil},
		{make([]float64, 3), make([]float64, 3)}, // len(orb) not packed for d = 3
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Dist2To(len %d, d %d) did not panic", len(c.dst), len(c.x))
				}
			}()
			Dist2To(c.dst, c.x, orb)
		}()
	}
}

func BenchmarkDist2To(b *testing.B) {
	const G, d = 48, 10
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, d)
	rows := make([]float64, G*d)
	for i := range rows {
		rows[i] = rng.Float64()
	}
	for i := range x {
		x[i] = rng.Float64()
	}
	orb := make([]float64, PackedLen(G, d))
	Pack(orb, rows, G, d)
	dst := make([]float64, G)
	for _, p := range paths() {
		b.Run(p.name, func(b *testing.B) {
			restore := setFeatures(p.f)
			defer restore()
			for b.Loop() {
				Dist2To(dst, x, orb)
			}
		})
	}
}
