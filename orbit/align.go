package orbit

import (
	"fmt"
	"math"
	"slices"
)

// Aligner is implemented by groups of isometries that find a nearest point
// of an orbit without enumerating the group: g*·y with
// g* ∈ argmin_g ‖x − g·y‖, so that ‖x − g*·y‖ = d_G(x, y). Kernels use it
// for the gradient of k_max, ∇ₓ κ(d_G(x, y)/ℓ) = κ'/(ℓ·d)·(x − g*·y),
// valid wherever g*·y is unique (almost everywhere).
type Aligner interface {
	// AlignTo writes g*·y into dst and returns ‖x − g*·y‖². dst, x and y
	// have length Dim; dst must not overlap x or y. Ties are broken
	// deterministically (the first index in the group's own ordering of
	// candidates, e.g. stable sorts). It panics if lengths are wrong.
	AlignTo(dst, x, y []float64) float64
}

// RangeActor is implemented by finite groups that write a run of orbit
// images faster than one ActTo call per element (sharing work between
// consecutive elements).
type RangeActor interface {
	// ActRangeTo writes g_i·x for i = lo … hi−1 into dst ((hi−lo)·Dim
	// floats, row-major: row i−lo is g_i·x), exactly the values ActTo
	// writes. dst must not overlap x. It panics if 0 ≤ lo ≤ hi ≤ |G| fails
	// or lengths are wrong.
	ActRangeTo(dst, x []float64, lo, hi int)
}

var (
	_ Aligner    = (*TrivialGroup)(nil)
	_ Aligner    = (*SignFlipGroup)(nil)
	_ Aligner    = (*PermutationGroup)(nil)
	_ Aligner    = (*HyperoctahedralGroup)(nil)
	_ Aligner    = (*BlockPermGroup)(nil)
	_ Aligner    = (*PairedPermGroup)(nil)
	_ Aligner    = (*CyclicGroup)(nil)
	_ Aligner    = (*Rotation2DGroup)(nil)
	_ RangeActor = (*TrivialGroup)(nil)
	_ RangeActor = (*SignFlipGroup)(nil)
	_ RangeActor = (*PermutationGroup)(nil)
	_ RangeActor = (*HyperoctahedralGroup)(nil)
	_ RangeActor = (*BlockPermGroup)(nil)
	_ RangeActor = (*PairedPermGroup)(nil)
	_ RangeActor = (*CyclicGroup)(nil)
)

func checkAlign(name string, dst, x, y []float64, d int) {
	if len(dst) != d || len(x) != d || len(y) != d {
		panic(fmt.Sprintf("orbit: %s: lengths dst %d, x %d, y %d, want %d", name, len(dst), len(x), len(y), d))
	}
}

func checkRange(name string, dst, x []float64, lo, hi, n, d int) {
	if lo < 0 || hi < lo || (n >= 0 && hi > n) {
		panic(fmt.Sprintf("orbit: %s: element range [%d, %d) outside [0, %d)", name, lo, hi, n))
	}
	if len(x) != d || len(dst) != (hi-lo)*d {
		panic(fmt.Sprintf("orbit: %s: lengths dst %d, x %d, want %d, %d", name, len(dst), len(x), (hi-lo)*d, d))
	}
}

func dist2(x, y []float64) float64 {
	var s float64
	for k := range x {
		t := x[k] - y[k]
		s += t * t
	}
	return s
}

// argsort writes into idx (len d) the stable ascending order of key(k).
// Insertion sort for small d (orbit dimensions are small), else a stable
// library sort.
func argsort(idx []int, key func(k int) float64) {
	for k := range idx {
		idx[k] = k
	}
	if len(idx) <= 32 {
		for i := 1; i < len(idx); i++ {
			v := idx[i]
			kv := key(v)
			j := i
			for j > 0 && key(idx[j-1]) > kv {
				idx[j] = idx[j-1]
				j--
			}
			idx[j] = v
		}
		return
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ka, kb := key(a), key(b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
}

// sortAlign writes dst[ix[r]] = f(y[iy[r]], x[ix[r]]) for the stable
// ascending orders ix of key(x) and iy of key(y).
func sortAlign(dst, x, y []float64, abs bool) {
	d := len(x)
	var sx, sy [maxStack]int
	ix, iy := stackOr(&sx, d), stackOr(&sy, d)
	if abs {
		argsort(ix, func(k int) float64 { return math.Abs(x[k]) })
		argsort(iy, func(k int) float64 { return math.Abs(y[k]) })
		for r, k := range ix {
			dst[k] = math.Copysign(math.Abs(y[iy[r]]), x[k])
		}
		return
	}
	argsort(ix, func(k int) float64 { return x[k] })
	argsort(iy, func(k int) float64 { return y[k] })
	for r, k := range ix {
		dst[k] = y[iy[r]]
	}
}

// AlignTo copies y into dst and returns ‖x − y‖².
func (g *TrivialGroup) AlignTo(dst, x, y []float64) float64 {
	checkAlign("none", dst, x, y, g.d)
	copy(dst, y)
	return dist2(x, dst)
}

// AlignTo writes the sign flip of y matching the signs of x:
// dst_k = sign(x_k)·|y_k| (+ at x_k = +0).
func (g *SignFlipGroup) AlignTo(dst, x, y []float64) float64 {
	checkAlign("signflip", dst, x, y, g.d)
	for k, v := range y {
		dst[k] = math.Copysign(math.Abs(v), x[k])
	}
	return dist2(x, dst)
}

// AlignTo writes the permutation of y ordered like x: the r-th smallest
// value of y at the position of the r-th smallest coordinate of x
// (rearrangement inequality).
func (g *PermutationGroup) AlignTo(dst, x, y []float64) float64 {
	checkAlign("permutation", dst, x, y, g.bl.m)
	sortAlign(dst, x, y, false)
	return dist2(x, dst)
}

// AlignTo writes the signed permutation of y aligned with x: the r-th
// smallest |y| at the position of the r-th smallest |x|, with x's sign.
func (g *HyperoctahedralGroup) AlignTo(dst, x, y []float64) float64 {
	checkAlign("hyperoctahedral", dst, x, y, g.bl.m)
	sortAlign(dst, x, y, true)
	return dist2(x, dst)
}

// AlignTo writes the block permutation of y given by the optimal
// assignment (Hungarian algorithm, O(m³)).
func (g *BlockPermGroup) AlignTo(dst, x, y []float64) float64 {
	checkAlign("blockperm", dst, x, y, g.Dim())
	g.bl.assignAlign(dst, x, y)
	return dist2(x, dst)
}

// AlignTo writes the paired permutation of y given by the optimal
// assignment (Hungarian algorithm, O(m³)).
func (g *PairedPermGroup) AlignTo(dst, x, y []float64) float64 {
	checkAlign("pairedperm", dst, x, y, g.Dim())
	g.bl.assignAlign(dst, x, y)
	return dist2(x, dst)
}

// AlignTo writes the cyclic shift of y nearest to x (the first of equally
// near ones), in O(d²).
func (g *CyclicGroup) AlignTo(dst, x, y []float64) float64 {
	checkAlign("cyclic", dst, x, y, g.d)
	best, arg := math.Inf(1), 0
	for i := range g.d {
		if s := shiftDist2(x, y, i); s < best {
			best, arg = s, i
		}
	}
	shiftTo(dst, y, arg)
	return dist2(x, dst)
}

// AlignTo writes the rotation of y onto the ray of x, (‖y‖/‖x‖)·x, or y
// itself if x = 0.
func (g *Rotation2DGroup) AlignTo(dst, x, y []float64) float64 {
	checkAlign("rotation2d", dst, x, y, 2)
	r, s := math.Hypot(x[0], x[1]), math.Hypot(y[0], y[1])
	if r == 0 {
		copy(dst, y)
	} else if math.IsInf(r, 1) || math.IsInf(s, 1) {
		// A norm overflows (finite coordinates past MaxFloat64/√2, or an
		// infinite one): s times the direction of x, both at half scale,
		// where finite coordinates give finite norms (s/r was NaN or +Inf).
		ux, uy := x[0]/r, x[1]/r
		if math.IsInf(r, 1) {
			r2 := math.Hypot(x[0]/2, x[1]/2)
			ux, uy = x[0]/2/r2, x[1]/2/r2
		}
		h := s / 2
		if math.IsInf(s, 1) {
			h = math.Hypot(y[0]/2, y[1]/2)
		}
		dst[0], dst[1] = 2*(h*ux), 2*(h*uy)
	} else if c := s / r; c <= math.MaxFloat64 {
		dst[0], dst[1] = c*x[0], c*x[1]
	} else {
		// r subnormal: s/r overflows, the direction x/r does not.
		dst[0], dst[1] = s*(x[0]/r), s*(x[1]/r)
	}
	return dist2(x, dst)
}

// ActRangeTo writes copies of x (the only element is the identity).
func (g *TrivialGroup) ActRangeTo(dst, x []float64, lo, hi int) {
	checkRange("none", dst, x, lo, hi, 1, g.d)
	for r := range hi - lo {
		copy(dst[r*g.d:(r+1)*g.d], x)
	}
}

// ActRangeTo writes g_i·x for i = lo … hi−1.
func (g *SignFlipGroup) ActRangeTo(dst, x []float64, lo, hi int) {
	d := g.d
	checkRange("signflip", dst, x, lo, hi, g.n, d)
	for i := lo; i < hi; i++ {
		row := dst[(i-lo)*d : (i-lo+1)*d]
		copy(row, x)
		flipBits(row, uint64(i))
	}
}

// ActRangeTo writes g_i·x for i = lo … hi−1.
func (g *PermutationGroup) ActRangeTo(dst, x []float64, lo, hi int) {
	checkRange("permutation", dst, x, lo, hi, g.n, g.bl.m)
	g.bl.actRangeTo(dst, x, lo, hi)
}

// ActRangeTo writes g_i·x for i = lo … hi−1.
func (g *BlockPermGroup) ActRangeTo(dst, x []float64, lo, hi int) {
	checkRange("blockperm", dst, x, lo, hi, g.n, g.Dim())
	g.bl.actRangeTo(dst, x, lo, hi)
}

// ActRangeTo writes g_i·x for i = lo … hi−1.
func (g *PairedPermGroup) ActRangeTo(dst, x []float64, lo, hi int) {
	checkRange("pairedperm", dst, x, lo, hi, g.n, g.Dim())
	g.bl.actRangeTo(dst, x, lo, hi)
}

func (bl *blocks) actRangeTo(dst, x []float64, lo, hi int) {
	d := len(x)
	for i := lo; i < hi; i++ {
		bl.actTo(dst[(i-lo)*d:(i-lo+1)*d], x, i)
	}
}

// ActRangeTo writes g_i·x for i = lo … hi−1: each permutation is applied
// once and its 2^d sign patterns are written from it.
func (g *HyperoctahedralGroup) ActRangeTo(dst, x []float64, lo, hi int) {
	d := g.bl.m
	checkRange("hyperoctahedral", dst, x, lo, hi, g.n, d)
	if lo == hi {
		return
	}
	var sp [maxStack]float64
	perm := stackOr(&sp, d)
	curP := -1
	for i := lo; i < hi; i++ {
		p, s := g.split(i)
		if p != curP {
			g.bl.actTo(perm, x, p)
			curP = p
		}
		row := dst[(i-lo)*d : (i-lo+1)*d]
		if d > 64 {
			copy(row, perm)
			flipBits(row, s)
			continue
		}
		for k, v := range perm {
			row[k] = math.Float64frombits(math.Float64bits(v) ^ (s>>uint(k)&1)<<63)
		}
	}
}

// ActRangeTo writes g_i·x for i = lo … hi−1.
func (g *CyclicGroup) ActRangeTo(dst, x []float64, lo, hi int) {
	d := g.d
	checkRange("cyclic", dst, x, lo, hi, d, d)
	for i := lo; i < hi; i++ {
		shiftTo(dst[(i-lo)*d:(i-lo+1)*d], x, i)
	}
}

// PackedActor is implemented by finite groups that write a run of orbit
// images directly in the packed, lane-major layout of the SIMD kernels:
// dst[k·w + (i−lo)] = (g_i·x)_k for k < Dim and lo ≤ i < hi, exactly the
// values ActTo writes, and the lanes hi−lo … w−1 of every coordinate
// repeat the last image's value (padding). It saves the row-major
// scratch and its transposition of ActRangeTo.
type PackedActor interface {
	// ActPackedTo writes the images g_lo·x … g_{hi−1}·x into dst
	// (w·Dim floats, lane-major, padded as above). dst must not overlap
	// x. It panics unless 0 ≤ lo < hi ≤ |G|, hi − lo ≤ w and the lengths
	// match.
	ActPackedTo(dst, x []float64, lo, hi, w int)
}

var (
	_ PackedActor = (*SignFlipGroup)(nil)
	_ PackedActor = (*PermutationGroup)(nil)
	_ PackedActor = (*HyperoctahedralGroup)(nil)
)

func checkPacked(name string, dst, x []float64, lo, hi, w, n, d int) {
	if lo < 0 || hi <= lo || (n >= 0 && hi > n) || hi-lo > w {
		panic(fmt.Sprintf("orbit: %s: element range [%d, %d) outside [0, %d) or wider than %d lanes", name, lo, hi, n, w))
	}
	if len(x) != d || len(dst) != w*d {
		panic(fmt.Sprintf("orbit: %s: lengths dst %d, x %d, want %d, %d", name, len(dst), len(x), w*d, d))
	}
}

// stackOr returns sp[:d], or a new slice where d exceeds maxStack: the
// scratch of the package's per-call work (on the caller's stack up to
// maxStack coordinates or elements).
func stackOr[T int | float64](sp *[maxStack]T, d int) []T {
	if d <= maxStack {
		return sp[:d]
	}
	return make([]T, d)
}

// padLanes repeats lane r−1 of every coordinate into lanes r … w−1.
func padLanes(dst []float64, r, w, d int) {
	if r == w {
		return
	}
	for k := range d {
		col := dst[k*w : (k+1)*w]
		v := col[r-1]
		for l := r; l < w; l++ {
			col[l] = v
		}
	}
}

// ActPackedTo writes g_lo·x … g_{hi−1}·x lane-major (PackedActor).
func (g *PermutationGroup) ActPackedTo(dst, x []float64, lo, hi, w int) {
	d := g.bl.m
	checkPacked("permutation", dst, x, lo, hi, w, g.n, d)
	if g.bl.table == nil {
		var sp [maxStack]float64
		img := stackOr(&sp, d)
		for i := lo; i < hi; i++ {
			g.bl.actTo(img, x, i)
			for k, v := range img {
				dst[k*w+i-lo] = v
			}
		}
	} else {
		t := g.bl.table[lo*d : hi*d]
		for l := range hi - lo {
			row := t[l*d : (l+1)*d]
			for k, src := range row {
				dst[k*w+l] = x[src]
			}
		}
	}
	padLanes(dst, hi-lo, w, d)
}

// ActPackedTo writes g_lo·x … g_{hi−1}·x lane-major (PackedActor).
func (g *SignFlipGroup) ActPackedTo(dst, x []float64, lo, hi, w int) {
	checkPacked("signflip", dst, x, lo, hi, w, g.n, g.d)
	signRun(dst, x, uint64(lo), 0, hi-lo, w)
	padLanes(dst, hi-lo, w, g.d)
}

// ActPackedTo writes g_lo·x … g_{hi−1}·x lane-major (PackedActor): each
// permutation is applied once and its run of sign patterns written from
// it, coordinate by coordinate.
func (g *HyperoctahedralGroup) ActPackedTo(dst, x []float64, lo, hi, w int) {
	d := g.bl.m
	checkPacked("hyperoctahedral", dst, x, lo, hi, w, g.n, d)
	var sp [maxStack]float64
	perm := stackOr(&sp, d)
	for i := lo; i < hi; {
		p, s := g.split(i)
		end := hi // the run of p's sign patterns, without overflow
		if d < 63 && hi-i > 1<<uint(d)-int(s) {
			end = i + 1<<uint(d) - int(s)
		}
		g.bl.actTo(perm, x, p)
		signRun(dst, perm, s, i-lo, end-lo, w)
		i = end
	}
	padLanes(dst, hi-lo, w, d)
}

// signRun writes lanes a … b−1 of the lane-major dst (w lanes per
// coordinate) with v under the sign patterns s, s+1, …: coordinate k is
// negated where bit k is set (flipBits's rule: the first 64 coordinates).
func signRun(dst, v []float64, s uint64, a, b, w int) {
	for k, vk := range v {
		col := dst[k*w+a : k*w+b]
		if k >= 64 {
			for l := range col {
				col[l] = vk
			}
			continue
		}
		bits := math.Float64bits(vk)
		for l := range col {
			col[l] = math.Float64frombits(bits ^ ((s+uint64(l))>>uint(k)&1)<<63)
		}
	}
}
