package f64

import (
	"fmt"
	"math"
)

// Block widths of the packed layout (see the package documentation).
const (
	Wide   = 32
	Narrow = 8
)

// PackedLen is the length of a packed orbit of G points in dimension d:
// G rounded up to a multiple of Narrow, times d.
func PackedLen(G, d int) int { return (G + Narrow - 1) / Narrow * Narrow * d }

// Pack writes the orbit src (G×d, row-major) into dst (PackedLen(G, d)
// floats) in the blocked coordinate-major layout, padding with copies of
// the last point. dst must not alias src.
func Pack(dst, src []float64, G, d int) {
	if len(src) != G*d || len(dst) != PackedLen(G, d) || G < 1 {
		panic(fmt.Sprintf("f64: Pack: len(src) = %d, len(dst) = %d for G = %d, d = %d", len(src), len(dst), G, d))
	}
	gp := len(dst) / d
	for g := range gp {
		PackPoint(dst, src[min(g, G-1)*d:min(g, G-1)*d+d], g, gp)
	}
}

// PackPoint writes point p (length d) as element g of a packed orbit of gp
// (a multiple of Narrow) points in dst.
func PackPoint(dst, p []float64, g, gp int) {
	d := len(p)
	nw := gp / Wide
	var base, w, l int
	if b := g / Wide; b < nw {
		base, w, l = b*Wide*d, Wide, g%Wide
	} else {
		r := g - nw*Wide
		base, w, l = nw*Wide*d+r/Narrow*Narrow*d, Narrow, r%Narrow
	}
	for k, v := range p {
		dst[base+k*w+l] = v
	}
}

// blockOf returns the start, width and lane of packed element g.
func blockOf(g, gp, d int) (base, w, l int) {
	nw := gp / Wide
	if b := g / Wide; b < nw {
		return b * Wide * d, Wide, g % Wide
	}
	r := g - nw*Wide
	return nw*Wide*d + r/Narrow*Narrow*d, Narrow, r % Narrow
}

// Dot returns element g's inner product with x (length d) in a packed
// orbit, summed exactly as MaxDot does.
func Dot(x, orb []float64, g int) float64 {
	d := len(x)
	base, w, l := blockOf(g, len(orb)/d, d)
	o := orb[base+l:]
	s := x[0] * o[0]
	for k := 1; k < d; k++ {
		s += float64(x[k] * o[k*w])
	}
	return s
}

// MaxDot sets best[i] = max_g ⟨x_i, o_g⟩ over the packed orbit orb
// (PackedLen floats, padding included) for the len(best) rows
// x_i = x[i·xs : i·xs+d]. Each inner product is s = x₀o₀, then
// s = s + x_k·o_k for k = 1…d−1 with separately rounded products; every
// path gives the same bits. An empty orbit gives −Inf.
func MaxDot(best, x []float64, xs, d int, orb []float64) {
	n := len(best)
	if n == 0 {
		return
	}
	if d < 1 || xs < d || len(x) < (n-1)*xs+d || len(orb)%(Narrow*d) != 0 {
		panic(fmt.Sprintf("f64: MaxDot: d = %d, xs = %d, len(x) = %d, n = %d, len(orb) = %d", d, xs, len(x), n, len(orb)))
	}
	maxDot(best, x, xs, d, orb)
}

// maxDotGeneric is the specification of MaxDot. Rows go four at a time
// (sharing each load of the orbit), then one at a time; both compute every
// inner product with the same operations.
func maxDotGeneric(best, x []float64, xs, d int, orb []float64) {
	gp := len(orb) / d
	nw := gp / Wide
	nt := nw * Wide * d
	i := 0
	for ; i+4 <= len(best); i += 4 {
		b := [4]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)}
		xt := x[i*xs : (i+3)*xs+d]
		for blk := range nw {
			maxBlock4(&b, xt, xs, orb[blk*Wide*d:(blk+1)*Wide*d], Wide)
		}
		for off := nt; off < len(orb); off += Narrow * d {
			maxBlock4(&b, xt, xs, orb[off:off+Narrow*d], Narrow)
		}
		copy(best[i:i+4], b[:])
	}
	for ; i < len(best); i++ {
		xi := x[i*xs : i*xs+d]
		b := math.Inf(-1)
		for blk := range nw {
			b = maxBlock(b, xi, orb[blk*Wide*d:(blk+1)*Wide*d], Wide)
		}
		for off := nt; off < len(orb); off += Narrow * d {
			b = maxBlock(b, xi, orb[off:off+Narrow*d], Narrow)
		}
		best[i] = b
	}
}

// maxBlock4 is maxBlock for the four rows of xt (stride xs).
func maxBlock4(b *[4]float64, xt []float64, xs int, ob []float64, w int) {
	d := len(ob) / w
	x0, x1, x2, x3 := xt[:d], xt[xs:xs+d], xt[2*xs:2*xs+d], xt[3*xs:3*xs+d]
	b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
	for l := range w {
		o := ob[l]
		s0, s1, s2, s3 := x0[0]*o, x1[0]*o, x2[0]*o, x3[0]*o
		for k := 1; k < d; k++ {
			o = ob[k*w+l]
			s0 += float64(x0[k] * o)
			s1 += float64(x1[k] * o)
			s2 += float64(x2[k] * o)
			s3 += float64(x3[k] * o)
		}
		b0, b1, b2, b3 = max2(b0, s0), max2(b1, s1), max2(b2, s2), max2(b3, s3)
	}
	b[0], b[1], b[2], b[3] = b0, b1, b2, b3
}

func max2(b, s float64) float64 {
	if s > b {
		return s
	}
	return b
}

// maxBlock folds the inner products of x with the w points of the
// coordinate-major block ob into b.
func maxBlock(b float64, x, ob []float64, w int) float64 {
	d := len(x)
	ob = ob[:d*w]
	x0 := x[0]
	for l := range w {
		s := x0 * ob[l]
		for k := 1; k < d; k++ {
			s += float64(x[k] * ob[k*w+l])
		}
		if s > b {
			b = s
		}
	}
	return b
}
