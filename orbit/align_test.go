package orbit_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// TestAlignTo checks AlignTo against enumeration: the returned squared
// distance equals min_g ‖x − g·y‖² and OrbitDist2, and dst is in y's orbit
// (equal to some g·y) at that distance.
func TestAlignTo(t *testing.T) {
	for _, g := range groups(t) {
		al, ok := g.(orbit.Aligner)
		if !ok {
			continue
		}
		t.Run(g.Name(), func(t *testing.T) {
			d := g.Dim()
			rng := rand.New(rand.NewPCG(7, uint64(d)))
			dst := make([]float64, d)
			gy := make([]float64, d)
			for trial := range 20 {
				x, y := make([]float64, d), make([]float64, d)
				for k := range d {
					x[k], y[k] = 4*rng.Float64()-2, 4*rng.Float64()-2
				}
				if trial == 0 { // ties in |x| and in y
					copy(y, x)
					x[0] = -x[d-1]
				}
				got := al.AlignTo(dst, x, y)
				if want := g.(orbit.Distancer).OrbitDist2(x, y); math.Abs(got-want) > 1e-12*(1+want) {
					t.Fatalf("AlignTo = %v, OrbitDist2 = %v", got, want)
				}
				var dd float64
				for k := range d {
					dd += (x[k] - dst[k]) * (x[k] - dst[k])
				}
				if math.Abs(dd-got) > 1e-12*(1+got) {
					t.Fatalf("returned %v, ‖x − dst‖² = %v", got, dd)
				}
				fg, ok := g.(orbit.Finite)
				if !ok {
					// dst is on the orbit of y.
					if dd := g.(orbit.Distancer).OrbitDist2(dst, y); dd > 1e-24*(1+got) {
						t.Fatalf("d_G(dst, y)² = %v: dst %v is not on the orbit of y %v", dd, dst, y)
					}
					continue
				}
				G, err := orbit.Size(fg)
				if err != nil || G > 1<<16 {
					continue
				}
				best, found := math.Inf(1), false
				for i := range G {
					fg.ActTo(gy, y, i)
					var s float64
					for k := range d {
						s += (x[k] - gy[k]) * (x[k] - gy[k])
					}
					best = math.Min(best, s)
					found = found || bitsEqual(gy, dst)
				}
				if !found {
					t.Fatalf("dst %v is not in the orbit of y %v", dst, y)
				}
				if math.Abs(best-got) > 1e-12*(1+best) {
					t.Fatalf("AlignTo = %v, enumerated minimum %v", got, best)
				}
			}
		})
	}
}

// TestActRangeTo checks ActRangeTo bit for bit against ActTo on every
// element (or a sample of ranges for large groups).
func TestActRangeTo(t *testing.T) {
	for _, g := range groups(t) {
		ra, ok := g.(orbit.RangeActor)
		if !ok {
			continue
		}
		fg := g.(orbit.Finite)
		t.Run(g.Name(), func(t *testing.T) {
			d := g.Dim()
			rng := rand.New(rand.NewPCG(9, uint64(d)))
			x := make([]float64, d)
			for k := range d {
				x[k] = rng.NormFloat64()
			}
			x[0] = 0 // signed zero
			G, err := orbit.Size(fg)
			if err != nil {
				G = math.MaxInt
			}
			var ranges [][2]int
			if G <= 1<<13 {
				ranges = append(ranges, [2]int{0, G})
				if G > 3 {
					ranges = append(ranges, [2]int{1, G - 1}, [2]int{G / 2, G/2 + 1}, [2]int{2, 2})
				}
			} else {
				for range 5 {
					lo := rng.IntN(min(G, 1<<40) - 100)
					ranges = append(ranges, [2]int{lo, lo + 1 + rng.IntN(99)})
				}
			}
			want := make([]float64, d)
			for _, r := range ranges {
				dst := make([]float64, (r[1]-r[0])*d)
				ra.ActRangeTo(dst, x, r[0], r[1])
				for i := r[0]; i < r[1]; i++ {
					fg.ActTo(want, x, i)
					if !bitsEqual(dst[(i-r[0])*d:(i-r[0]+1)*d], want) {
						t.Fatalf("element %d: ActRangeTo %v, ActTo %v", i, dst[(i-r[0])*d:(i-r[0]+1)*d], want)
					}
				}
			}
		})
	}
}

// TestActPackedTo checks the lane-major images against ActTo, bit for bit,
// padding included, over runs that start anywhere (inside a permutation's
// run of sign patterns, across two), and its refusals.
func TestActPackedTo(t *testing.T) {
	for _, g := range groups(t) {
		pa, ok := g.(orbit.PackedActor)
		if !ok {
			continue
		}
		fg := g.(orbit.Finite)
		t.Run(g.Name(), func(t *testing.T) {
			d := g.Dim()
			rng := rand.New(rand.NewPCG(11, uint64(d)))
			x := make([]float64, d)
			for k := range d {
				x[k] = rng.NormFloat64()
			}
			x[0] = 0 // signed zero: its sign bit is flipped too
			G, err := orbit.Size(fg)
			if err != nil {
				G = math.MaxInt
			}
			want := make([]float64, d)
			for _, w := range []int{8, 32} {
				var ranges [][2]int
				for _, lo := range []int{0, 1, 3, 5, 7, 8, 13, G - 1} {
					for _, r := range []int{1, 2, 5, 8, w - 1, w} {
						if lo >= 0 && r <= G-lo {
							ranges = append(ranges, [2]int{lo, lo + r})
						}
					}
				}
				if G > 1<<20 {
					lo := rng.IntN(min(G, 1<<40) - 100)
					ranges = append(ranges, [2]int{lo, lo + w})
				}
				for _, r := range ranges {
					dst := make([]float64, w*d)
					for k := range dst {
						dst[k] = math.NaN()
					}
					pa.ActPackedTo(dst, x, r[0], r[1], w)
					for l := range w {
						fg.ActTo(want, x, r[0]+min(l, r[1]-r[0]-1)) // the padding repeats the last image
						for k := range d {
							if got := dst[k*w+l]; math.Float64bits(got) != math.Float64bits(want[k]) {
								t.Fatalf("w %d, [%d, %d): lane %d, coordinate %d = %v, ActTo gives %v", w, r[0], r[1], l, k, got, want[k])
							}
						}
					}
				}
			}
			for _, c := range []struct {
				name           string
				lo, hi, w, dst int
			}{
				{"empty run", 0, 0, 8, 8 * d},
				{"wider than the lanes", 0, min(G, 9), 8, 8 * d},
				{"past the group", G, G, 8, 8 * d},
				{"short dst", 0, 1, 8, 8*d - 1},
			} {
				if c.name == "wider than the lanes" && G < 9 {
					continue
				}
				func() {
					defer func() {
						if recover() == nil {
							t.Errorf("%s: no panic", c.name)
						}
					}()
					pa.ActPackedTo(make([]float64, c.dst), x, c.lo, c.hi, c.w)
				}()
			}
		})
	}
}
