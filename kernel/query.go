package kernel

import (
	"math"

	"github.com/symbo/symbo/internal/f64"
	"gonum.org/v1/gonum/mat"
)

// Few queries against many points (the acquisition loop: one x against
// the n design points). Enumeration prepares the orbit of the right-hand
// point of every pair, so CrossTo(x, Y) with one row x and m rows Y would
// enumerate m orbits for m pairs. For a finite group of isometries
//
//	max_g ⟨x, g·y⟩ = max_g ⟨g⁻¹·x, y⟩ = max_h ⟨y, h·x⟩
//
// (and likewise for the orbit sum), so k(x, y) = k(y, x) is computed from
// the orbit of x instead: one enumeration per row of x. The two orders
// agree mathematically but not bit for bit (the inner products are summed
// in a different order, a few ulps); CrossTo uses the transposed order
// exactly when x has fewer rows than y, so a given call is still
// deterministic and independent of Workers. Caching the design's orbits
// instead (n·|G|·d·8 bytes: 79 MB for n = 512 over hyperoctahedral(5))
// would keep the bits but stream that much memory per query, against
// |G|·d·8 = 154 kB here.

// crossToT fills dst (n×m) with k(x_i, y_j) for a symmetric enumeration
// evaluator by enumerating the orbits of the rows of x: row i of dst is
// the column of k(·, x_i) over the prepared rows of y. One task per row.
func crossToT(ev *enumEval, workers int, dst *mat.Dense, x, y *mat.Dense, n, m int) {
	crossToTDiag(ev, workers, dst, x, y, n, m, nil)
}

// crossToTDiag is crossToT that also writes k(x_i, x_i) into diag[i] when
// diag is not nil, from the orbit of x_i enumerated for row i (DiagTo's
// bits, without enumerating it again).
func crossToTDiag(ev *enumEval, workers int, dst *mat.Dense, x, y *mat.Dense, n, m int, diag []float64) {
	resizeDense(dst, n, m)
	raw := dst.RawMatrix()
	crossPreparedDiag(ev, workers, raw.Data, raw.Stride, 1, y, x, m, n, diag)
}

// gradMaxT writes ∇ₓk_max(x, y_j) into row j of dst (m×d) from one
// enumeration of the orbit of x: per y_j, h* = the first h maximizing
// ⟨y_j, h·x⟩ (f64.MaxDot per packed block of 32 or 8 elements, then the
// first element of the winning block whose f64.Dot equals the maximum,
// the same bits), g* = h*⁻¹ maximizes ⟨x, g·y_j⟩, and the gradient is
// enumEval.grad's, v/ℓ²·κ'(u)/u·(x − g*·y_j). It differs from the
// per-pair enumeration only where the maximizer is not unique (a
// non-differentiable point). Serial: O(m·|G|·d) SIMD multiply-adds.
func gradMaxT(e *enumEval, dst *mat.Dense, x []float64, y *mat.Dense, m int) {
	d, G := e.d, e.G
	resizeDense(dst, m, d)
	xl := e.xLen()
	pl := f64.PackedLen(G, d)
	ho, orbS := getScratch(e.yLen())
	hp, py := getScratch(m*xl + d)
	a := py[m*xl : m*xl+d]
	e.prepY(orbS, x)
	orb := orbS[:pl]
	prepAll(py, e, y, m)
	gp := pl / d
	nw := gp / f64.Wide
	var best, tmp [maxChunk]float64
	var blk [maxChunk]int
	vi := e.p.Variance * e.inv2
	sl := math.Sqrt(e.inv2)
	nx := orbS[pl]
	gam, slope := fusedGamma(d)*e.inv2, fusedSlope(e.p.Shape)
	for j0 := 0; j0 < m; j0 += maxChunk {
		c := min(maxChunk, m-j0)
		rows := py[j0*xl:]
		for r := range c {
			best[r] = math.Inf(-1)
		}
		for g0 := 0; g0 < gp; {
			w := f64.Narrow
			if g0 < nw*f64.Wide {
				w = f64.Wide
			}
			f64.MaxDot(tmp[:c], rows, xl, d, orb[g0*d:(g0+w)*d])
			for r := range c {
				if tmp[r] > best[r] {
					best[r], blk[r] = tmp[r], g0
				}
			}
			g0 += w
		}
		for r := range c {
			yr := rows[r*xl : r*xl+d]
			var h int
			if slope*gam*(rows[r*xl+d]+nx) <= FusedTol {
				h = blk[r]
				for f64.Dot(yr, orb, h) != best[r] {
					h++
				}
				h = min(h, G-1) // padding repeats the last element
			} else {
				h = packedArgmin(yr, orb, G) // far from the origin: direct differences
			}
			e.g.ActTo(a, row(y, j0+r), e.g.Inverse(h))
			d2 := sqDist(x, a)
			gradToward(row(dst, j0+r), e.p, vi*dkappaOverU(e.p.Shape, math.Sqrt(d2)*sl), d2, x, a)
		}
	}
	putScratch(hp)
	putScratch(ho)
}
