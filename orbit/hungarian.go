package orbit

import (
	"math"
	"math/bits"
	"sync"
)

// hungarian holds scratch for an m×m assignment problem.
type hungarian struct {
	cost       []float64 // m×m, row-major
	u, v, minv []float64 // m+1
	p, way     []int     // m+1
	used       []bool    // m+1
}

func (h *hungarian) resize(m int) {
	if cap(h.cost) < m*m {
		h.cost = make([]float64, m*m)
	}
	h.cost = h.cost[:m*m]
	if cap(h.u) < m+1 {
		h.u, h.v, h.minv = make([]float64, m+1), make([]float64, m+1), make([]float64, m+1)
		h.p, h.way = make([]int, m+1), make([]int, m+1)
		h.used = make([]bool, m+1)
	}
	h.u, h.v, h.minv = h.u[:m+1], h.v[:m+1], h.minv[:m+1]
	h.p, h.way, h.used = h.p[:m+1], h.way[:m+1], h.used[:m+1]
}

// smallM is the largest m solved with stack scratch.
const smallM = 16

type hungarianSmall struct {
	cost       [smallM * smallM]float64
	u, v, minv [smallM + 1]float64
	p, way     [smallM + 1]int
	used       [smallM + 1]bool
}

var hungarianPool = sync.Pool{New: func() any { return new(hungarian) }}

// AssignScratch returns the bytes of scratch that one OrbitDist2 or
// AlignTo call on g holds beyond O(d): the Hungarian algorithm's m×m cost
// matrix and vectors for blockperm and pairedperm with more than 16
// blocks (on coordinates too, OnCoords), 0 for every other group.
// Concurrent calls hold one each, and the scratch is pooled, not freed
// with the call: a caller with a memory budget sizes it before it calls
// (pairedperm(32768) needs 8 GiB per call).
func AssignScratch(g Group) float64 {
	if e, ok := g.(Embedded); ok {
		g, _ = e.Inner()
	}
	var m int
	switch g := g.(type) {
	case *BlockPermGroup:
		m = g.bl.m
	case *PairedPermGroup:
		m = g.bl.m
	default:
		return 0
	}
	if m <= smallM {
		return 0
	}
	// cost m², u, v, minv, p and way m+1 each (8 bytes), used m+1.
	return 8*float64(m)*float64(m) + 41*float64(m+1)
}

// assignDist2 returns min over permutations a of Σ_k ‖block_k(x) −
// block_{a(k)}(y)‖², i.e. min_g ‖x − g·y‖² for the block permutation group.
func (bl *blocks) assignDist2(x, y []float64) float64 {
	m := bl.m
	if m == 1 {
		return blockDist2(bl, x, y, 0, 0)
	}
	if m <= smallM {
		var hs hungarianSmall
		h := hungarian{cost: hs.cost[:m*m], u: hs.u[:m+1], v: hs.v[:m+1], minv: hs.minv[:m+1],
			p: hs.p[:m+1], way: hs.way[:m+1], used: hs.used[:m+1]}
		return bl.assign(&h, x, y)
	}
	h := hungarianPool.Get().(*hungarian)
	h.resize(m)
	s := bl.assign(h, x, y)
	hungarianPool.Put(h)
	return s
}

// assign solves the block assignment with scratch h (sized for m).
func (bl *blocks) assign(h *hungarian, x, y []float64) float64 {
	m := bl.m
	big := math.MaxFloat64 / float64(4*m)
	huge := false
	for k := 0; k < m; k++ {
		for l := 0; l < m; l++ {
			c := blockDist2(bl, x, y, k, l)
			if math.IsNaN(c) {
				return math.NaN()
			}
			if c > big {
				huge = true
			}
			h.cost[k*m+l] = c
		}
	}
	if huge {
		// Keep the algorithm finite (costs ≤ big) without changing which
		// assignment is cheapest: the finite costs are scaled down
		// exactly by 2^e ≥ 8m², so that every assignment of finite costs
		// totals less than big/2, and the overflowed ones are set to big,
		// above all those totals. (Clamping every cost above big to big
		// made them tie: an assignment through an overflowed cost could
		// win over a finite one, and the sum below was +Inf, or too
		// large, where the minimum is finite.) The sum below uses the
		// true costs.
		e := bits.Len(uint(8 * m * m))
		for k, c := range h.cost {
			if math.IsInf(c, 1) {
				h.cost[k] = big
			} else {
				h.cost[k] = math.Ldexp(c, -e)
			}
		}
	}
	h.solve(m)
	var s float64
	for j := 1; j <= m; j++ { // row p[j]−1 is assigned column j−1
		s += blockDist2(bl, x, y, h.p[j]-1, j-1)
	}
	return s
}

// blockDist2 returns ‖block_k(x) − block_l(y)‖².
func blockDist2(bl *blocks, x, y []float64, k, l int) float64 {
	var s float64
	for o := 0; o < bl.b; o++ {
		t := x[k*bl.ks+o*bl.os] - y[l*bl.ks+o*bl.os]
		s += t * t
	}
	return s
}

// solve runs the O(m³) Hungarian algorithm with potentials (Kuhn–Munkres,
// shortest augmenting paths) on h.cost. Afterwards row h.p[j]−1 is assigned
// to column j−1 for j = 1…m, minimizing the total cost.
func (h *hungarian) solve(m int) {
	u, v, p, way, minv, used := h.u, h.v, h.p, h.way, h.minv, h.used
	for j := range u {
		u[j], v[j], p[j], way[j] = 0, 0, 0, 0
	}
	for i := 1; i <= m; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta := math.Inf(1)
			j1 := -1
			row := h.cost[(i0-1)*m : i0*m]
			for j := 1; j <= m; j++ {
				if used[j] {
					continue
				}
				cur := row[j-1] - u[i0] - v[j]
				if cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if j1 < 0 || minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			for j := 0; j <= m; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
}

// assignAlign writes the block permutation of y given by the optimal
// assignment to x into dst: block k of dst is the block of y assigned to
// block k of x (the assignment assignDist2 sums over).
func (bl *blocks) assignAlign(dst, x, y []float64) {
	m := bl.m
	if m == 1 {
		copy(dst, y)
		return
	}
	if m <= smallM {
		var hs hungarianSmall
		h := hungarian{cost: hs.cost[:m*m], u: hs.u[:m+1], v: hs.v[:m+1], minv: hs.minv[:m+1],
			p: hs.p[:m+1], way: hs.way[:m+1], used: hs.used[:m+1]}
		bl.alignWith(&h, dst, x, y)
		return
	}
	h := hungarianPool.Get().(*hungarian)
	h.resize(m)
	bl.alignWith(h, dst, x, y)
	hungarianPool.Put(h)
}

// alignWith solves the assignment with scratch h and writes the aligned y.
func (bl *blocks) alignWith(h *hungarian, dst, x, y []float64) {
	if math.IsNaN(bl.assign(h, x, y)) {
		copy(dst, y)
		return
	}
	for j := 1; j <= bl.m; j++ { // row p[j]−1 of x takes column j−1 of y
		k, l := h.p[j]-1, j-1
		for o := 0; o < bl.b; o++ {
			dst[k*bl.ks+o*bl.os] = y[l*bl.ks+o*bl.os]
		}
	}
}
