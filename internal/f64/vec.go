package f64

import (
	"fmt"
	"math"
)

// Lanes is the number of partial sums in which Inner and InnerAddScaled
// accumulate an inner product: two AVX-512 registers or four AVX2 ones.
const Lanes = 16

// Inner returns the inner product of x and y (equal lengths), accumulated
// in Lanes partial sums from +0, element j going to sum j mod Lanes with a
// fused multiply-add, s = fma(x_j, y_j, s), in increasing j; the sums are
// then added pairwise: s_l += s_{l+8} (l < 8), s_l += s_{l+4} (l < 4),
// s_l += s_{l+2} (l < 2), s_0 + s_1. Every path gives these bits.
func Inner(x, y []float64) float64 {
	if len(x) != len(y) {
		panic(fmt.Sprintf("f64: Inner: len(x) = %d, len(y) = %d", len(x), len(y)))
	}
	if len(x) == 0 {
		return 0
	}
	return inner(x, y)
}

// AddScaled sets y_j = fma(alpha, x_j, y_j) for every j (equal lengths).
// y may be x itself but must not otherwise overlap it.
func AddScaled(y []float64, alpha float64, x []float64) {
	if len(x) != len(y) {
		panic(fmt.Sprintf("f64: AddScaled: len(x) = %d, len(y) = %d", len(x), len(y)))
	}
	if len(x) == 0 {
		return
	}
	addScaled(y, alpha, x)
}

// AddScaled4 does AddScaled(y, a[0], x0), then with a[1] and x1, a[2] and
// x2, a[3] and x3 — the same bits (each element one chain of four fused
// multiply-adds in that order) in one pass over y: the update of a column
// by four others, with a quarter of the loads and stores of y. The slices
// have equal lengths; y must not overlap the others.
func AddScaled4(y []float64, a *[4]float64, x0, x1, x2, x3 []float64) {
	n := len(y)
	if len(x0) != n || len(x1) != n || len(x2) != n || len(x3) != n {
		panic(fmt.Sprintf("f64: AddScaled4: len(y) = %d, len(x) = %d, %d, %d, %d", n, len(x0), len(x1), len(x2), len(x3)))
	}
	if n == 0 {
		return
	}
	addScaled4(y, a, x0, x1, x2, x3)
}

// InnerAddScaled does AddScaled(y, alpha, a) and returns Inner(a, x), with
// the same bits, in one pass over a: the row kernel of a symmetric
// matrix-vector product stored by triangle. The slices have equal lengths;
// y must not overlap a or x.
func InnerAddScaled(y []float64, alpha float64, a, x []float64) float64 {
	if len(a) != len(x) || len(a) != len(y) {
		panic(fmt.Sprintf("f64: InnerAddScaled: len(y) = %d, len(a) = %d, len(x) = %d", len(y), len(a), len(x)))
	}
	if len(a) == 0 {
		return 0
	}
	return innerAddScaled(y, alpha, a, x)
}

// InnerAddScaledNext is InnerAddScaled that also prefetches next (the
// memory the caller reads next, such as the following row of a matrix)
// into cache at the pace it reads a; next is not read, and the results are
// those of InnerAddScaled on every path. It keeps row-by-row sweeps of a matrix
// larger than the caches from waiting on memory at each row's start.
func InnerAddScaledNext(y []float64, alpha float64, a, x, next []float64) float64 {
	if len(a) != len(x) || len(a) != len(y) {
		panic(fmt.Sprintf("f64: InnerAddScaledNext: len(y) = %d, len(a) = %d, len(x) = %d", len(y), len(a), len(x)))
	}
	if len(a) == 0 {
		return 0
	}
	return innerAddScaledNext(y, alpha, a, x, next)
}

// innerGeneric is the specification of Inner.
func innerGeneric(x, y []float64) float64 {
	var s [Lanes]float64
	innerLanes(&s, x, y)
	return reduceLanes(&s)
}

// innerLanes accumulates x·y into the partial sums s (element j into
// s[j mod Lanes]).
func innerLanes(s *[Lanes]float64, x, y []float64) {
	n := len(x)
	y = y[:n]
	j := 0
	for ; j+Lanes <= n; j += Lanes {
		xs, ys := x[j:j+Lanes], y[j:j+Lanes]
		for l := range Lanes {
			s[l] = math.FMA(xs[l], ys[l], s[l])
		}
	}
	for l := 0; j < n; j, l = j+1, l+1 {
		s[l] = math.FMA(x[j], y[j], s[l])
	}
}

// reduceLanes adds the partial sums pairwise, as the assembly does.
func reduceLanes(s *[Lanes]float64) float64 {
	for l := range 8 {
		s[l] += s[l+8]
	}
	for l := range 4 {
		s[l] += s[l+4]
	}
	for l := range 2 {
		s[l] += s[l+2]
	}
	return s[0] + s[1]
}

// addScaledGeneric is the specification of AddScaled.
func addScaledGeneric(y []float64, alpha float64, x []float64) {
	x = x[:len(y)]
	for j, v := range x {
		y[j] = math.FMA(alpha, v, y[j])
	}
}

// addScaled4Generic is the specification of AddScaled4.
func addScaled4Generic(y []float64, a *[4]float64, x0, x1, x2, x3 []float64) {
	x0, x1, x2, x3 = x0[:len(y)], x1[:len(y)], x2[:len(y)], x3[:len(y)]
	for j, v := range y {
		v = math.FMA(a[0], x0[j], v)
		v = math.FMA(a[1], x1[j], v)
		v = math.FMA(a[2], x2[j], v)
		y[j] = math.FMA(a[3], x3[j], v)
	}
}

// innerAddScaledGeneric is the specification of InnerAddScaled.
func innerAddScaledGeneric(y []float64, alpha float64, a, x []float64) float64 {
	var s [Lanes]float64
	innerAddScaledLanes(&s, y, alpha, a, x)
	return reduceLanes(&s)
}

func innerAddScaledLanes(s *[Lanes]float64, y []float64, alpha float64, a, x []float64) {
	n := len(a)
	x, y = x[:n], y[:n]
	for j := range n {
		s[j%Lanes] = math.FMA(a[j], x[j], s[j%Lanes])
		y[j] = math.FMA(alpha, a[j], y[j])
	}
}
