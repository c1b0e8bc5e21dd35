// Package orbittest is the conformance suite for orbit.Group
// implementations: call Run from a test for every group.
package orbittest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// Limits of the exhaustive checks; larger groups are sampled.
const (
	bruteMax   = 1 << 15 // brute-force orbit distances up to this |G|
	closureMax = 1 << 13 // closure by orbit lookup up to this |G|
	samples    = 64      // sampled elements for larger groups
	relTol     = 1e-12   // closed forms vs brute force (relative)
)

// boxer is implemented by groups whose orbits live in a box (scaling).
type boxer interface {
	Box() (lo, hi []float64)
}

// Run checks g's contract: for a Finite group, that element 0 is the
// identity, every element is a linear isometry, the elements are closed
// under composition, Inverse is correct, orbit sizes divide |G|, ActTo
// panics on bad indices and leaves x alone; for every group with a
// Distancer or Canonicalizer, that they agree with brute force (or, for
// groups too large, are bounded by every sampled ‖x − g·y‖²) on random
// points with ties and zeros, and are invariant; for continuous groups,
// that Order is nil, Size fails, and the Discretizer's nodes lie on the
// orbit and converge to the orbit distance; for every group, that the
// coordinatewise affine maps orbit.CoordinateMaps allows commute with the
// elements (Finite) or the Discretizer's nodes.
func Run(t *testing.T, g orbit.Group) {
	t.Helper()
	if g.Name() == "" || g.Dim() < 1 {
		t.Fatalf("bad group: name %q, dim %d", g.Name(), g.Dim())
	}
	t.Run("coordmaps", func(t *testing.T) { runCoordMaps(t, g) })
	if f, ok := g.(orbit.Finite); ok {
		t.Run("finite", func(t *testing.T) { runFinite(t, f) })
		return
	}
	if g.Order() != nil {
		t.Fatalf("%s: Order %v but not Finite", g.Name(), g.Order())
	}
	t.Run("continuous", func(t *testing.T) { runContinuous(t, g) })
}

// points returns random test points for g: Gaussian, small integers (ties
// and zeros), and points with repeated magnitudes; inside the box if g has
// one; for an orbit.Embedded group, the inner group's points on its
// coordinates.
func points(g orbit.Group, rng *rand.Rand, n int) [][]float64 {
	d := g.Dim()
	out := make([][]float64, n)
	b, hasBox := g.(boxer)
	for i := range out {
		x := make([]float64, d)
		switch {
		case hasBox:
			lo, hi := b.Box()
			for k := range x {
				switch i % 3 {
				case 0:
					x[k] = lo[k] + rng.Float64()*(hi[k]-lo[k])
				case 1: // log-uniform
					x[k] = lo[k] * math.Pow(hi[k]/lo[k], rng.Float64())
				default: // near the boundary, with ties
					x[k] = []float64{lo[k], hi[k], 1, 1}[rng.IntN(4)]
					x[k] = math.Min(hi[k], math.Max(lo[k], x[k]))
				}
			}
		case i%3 == 0:
			for k := range x {
				x[k] = rng.NormFloat64()
			}
		case i%3 == 1:
			for k := range x {
				x[k] = float64(rng.IntN(5) - 2)
			}
		default:
			for k := range x {
				x[k] = []float64{0, 0.5, -0.5, 1.25}[rng.IntN(4)]
			}
		}
		out[i] = x
	}
	if e, ok := g.(orbit.Embedded); ok {
		// The inner group's points (in its box, with its ties) on the
		// coordinates it acts on.
		inner, coords := e.Inner()
		for i, p := range points(inner, rng, n) {
			for j, k := range coords {
				out[i][k] = p[j]
			}
		}
	}
	return out
}

func norm2(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return s
}

func dist2(x, y []float64) float64 {
	var s float64
	for k := range x {
		t := x[k] - y[k]
		s += t * t
	}
	return s
}

func near(a, b, rel, abs float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))+abs
}

// elements returns the indices to check: all of them if |G| ≤ limit,
// otherwise 0, the last representable one and random ones.
func elements(G int, limit int, rng *rand.Rand) []int {
	if G > 0 && G <= limit {
		idx := make([]int, G)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	top := G
	if top <= 0 {
		// |G| beyond int: every index is valid for ActTo, but an inverse
		// may not be representable; stay where it is.
		top = 1 << 40
	}
	idx := []int{0, top - 1, 1}
	for len(idx) < samples {
		idx = append(idx, rng.IntN(top))
	}
	return idx
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}

func runFinite(t *testing.T, g orbit.Finite) {
	d := g.Dim()
	name := g.Name()
	rng := rand.New(rand.NewPCG(1, 7))
	G, err := orbit.Size(g)
	if err != nil {
		if !errors.Is(err, orbit.ErrTooLarge) || !strings.Contains(err.Error(), name) {
			t.Fatalf("Size(%s) = %v; want ErrTooLarge naming the group", name, err)
		}
		G = -1 // every non-negative int is an element
	} else if g.Order().Int64() != int64(G) || G < 1 {
		t.Fatalf("Size = %d, Order = %v", G, g.Order())
	}
	big := G < 0 || G > bruteMax
	idx := elements(G, bruteMax, rng)
	x := make([]float64, d)
	for k := range x {
		x[k] = rng.NormFloat64()
	}
	x0 := slices.Clone(x)
	y := make([]float64, d)
	z := make([]float64, d)

	t.Run("identity", func(t *testing.T) {
		g.ActTo(y, x, 0)
		if !slices.Equal(y, x) {
			t.Errorf("element 0 maps %v to %v", x, y)
		}
		if g.Inverse(0) != 0 {
			t.Errorf("Inverse(0) = %d", g.Inverse(0))
		}
	})
	t.Run("panics", func(t *testing.T) {
		mustPanic(t, "ActTo(-1)", func() { g.ActTo(y, x, -1) })
		if G > 0 {
			mustPanic(t, "ActTo(|G|)", func() { g.ActTo(y, x, G) })
			mustPanic(t, "Inverse(|G|)", func() { g.Inverse(G) })
		}
		if G < 0 {
			g.ActTo(y, x, math.MaxInt)
			if !near(norm2(y), norm2(x), 1e-14, 0) {
				t.Errorf("ActTo(MaxInt) changed the norm: %v → %v", x, y)
			}
		}
		mustPanic(t, "ActTo short dst", func() { g.ActTo(y[:d-1], x, 0) })
		mustPanic(t, "ActTo long x", func() { g.ActTo(y, append(slices.Clone(x), 1), 0) })
	})
	t.Run("isometry", func(t *testing.T) {
		// Build each sampled element's matrix from the basis images and
		// check MᵀM = I, then linearity on x.
		e := make([]float64, d)
		M := make([]float64, d*d) // column k = g·e_k
		col := make([]float64, d)
		for _, i := range idx[:min(len(idx), 2000)] {
			for k := 0; k < d; k++ {
				clear(e)
				e[k] = 1
				g.ActTo(col, e, i)
				for r := 0; r < d; r++ {
					M[r*d+k] = col[r]
				}
			}
			for a := 0; a < d; a++ {
				for b := 0; b < d; b++ {
					var s float64
					for r := 0; r < d; r++ {
						s += M[r*d+a] * M[r*d+b]
					}
					if a == b {
						s--
					}
					if math.Abs(s) > 1e-12 {
						t.Fatalf("element %d: (MᵀM − I)[%d,%d] = %g", i, a, b, s)
					}
				}
			}
			g.ActTo(y, x, i)
			for r := 0; r < d; r++ {
				var s float64
				for k := 0; k < d; k++ {
					s += M[r*d+k] * x[k]
				}
				if !near(s, y[r], 1e-12, 1e-12*math.Sqrt(norm2(x))) {
					t.Fatalf("element %d is not linear: (g·x)[%d] = %g, M·x = %g", i, r, y[r], s)
				}
			}
		}
		if !slices.Equal(x, x0) {
			t.Fatal("ActTo modified x")
		}
	})
	t.Run("inverse", func(t *testing.T) {
		for _, i := range idx {
			j := g.Inverse(i)
			if g.Inverse(j) != i {
				t.Fatalf("Inverse(Inverse(%d)) = %d", i, g.Inverse(j))
			}
			g.ActTo(y, x, i)
			g.ActTo(z, y, j)
			if !near(dist2(z, x), 0, 0, 1e-24*norm2(x)) {
				t.Fatalf("g_%d⁻¹ = g_%d, but g_%d·g_%d·x = %v ≠ x = %v", i, j, j, i, z, x)
			}
		}
	})
	t.Run("closure", func(t *testing.T) {
		// For a generic x (trivial stabilizer) g_i·g_j·x must be some g_k·x.
		ds, hasDist := g.(orbit.Distancer)
		if G < 0 || G > closureMax {
			if !hasDist {
				t.Skipf("|G| = %v too large to check closure without a Distancer", g.Order())
			}
		}
		var orb []float64
		if G > 0 && G <= closureMax {
			orb = make([]float64, G*d)
			for k := 0; k < G; k++ {
				g.ActTo(orb[k*d:(k+1)*d], x, k)
			}
		}
		for s := 0; s < samples; s++ {
			i, j := idx[rng.IntN(len(idx))], idx[rng.IntN(len(idx))]
			g.ActTo(y, x, j)
			g.ActTo(z, y, i)
			if orb == nil {
				if v := ds.OrbitDist2(x, z); !near(v, 0, 0, 1e-20*norm2(x)) {
					t.Fatalf("g_%d·g_%d·x is at orbit distance² %g from x", i, j, v)
				}
				continue
			}
			found := false
			for k := 0; k < G && !found; k++ {
				found = dist2(orb[k*d:(k+1)*d], z) <= 1e-20*norm2(x)
			}
			if !found {
				t.Fatalf("g_%d·g_%d·x = %v is no g_k·x", i, j, z)
			}
		}
	})
	t.Run("orbitsize", func(t *testing.T) {
		if big {
			t.Skipf("|G| = %v", g.Order())
		}
		buf := make([]float64, d)
		for _, p := range points(g, rng, 12) {
			seen := map[string]bool{}
			for k := 0; k < G; k++ {
				g.ActTo(buf, p, k)
				seen[key(buf)] = true
			}
			if G%len(seen) != 0 {
				t.Errorf("orbit of %v has %d points, which does not divide |G| = %d", p, len(seen), G)
			}
		}
	})
	ds, hasDist := g.(orbit.Distancer)
	cn, hasCanon := g.(orbit.Canonicalizer)
	if !hasDist && !hasCanon {
		return
	}
	// brute returns min_g ‖x − g·y‖², over all g, or over the samples
	// (then only an upper bound) for large groups.
	brute := func(x, y []float64) float64 {
		best := math.Inf(1)
		buf := make([]float64, d)
		for _, k := range idx {
			g.ActTo(buf, y, k)
			best = math.Min(best, dist2(x, buf))
		}
		return best
	}
	exact := !big && len(idx) == G
	pairs := func() [][2][]float64 {
		pts := points(g, rng, 18)
		var out [][2][]float64
		for i := 0; i+1 < len(pts); i += 2 {
			out = append(out, [2][]float64{pts[i], pts[i+1]})
		}
		// Same orbit, and nearly.
		for s := 0; s < 6; s++ {
			p := pts[s]
			q := make([]float64, d)
			g.ActTo(q, p, idx[rng.IntN(len(idx))])
			if s%2 == 1 {
				for k := range q {
					q[k] += 1e-3 * rng.NormFloat64()
				}
			}
			out = append(out, [2][]float64{p, q})
		}
		return out
	}()
	phi := func(x []float64) []float64 {
		out := make([]float64, cn.CanonicalDim())
		cn.CanonicalTo(out, x)
		return out
	}
	if hasDist {
		t.Run("distancer", func(t *testing.T) {
			for _, pq := range pairs {
				p, q := pq[0], pq[1]
				p0, q0 := slices.Clone(p), slices.Clone(q)
				v := ds.OrbitDist2(p, q)
				if !slices.Equal(p, p0) || !slices.Equal(q, q0) {
					t.Fatal("OrbitDist2 modified its input")
				}
				b := brute(p, q)
				if exact && !near(v, b, relTol, 0) {
					t.Errorf("OrbitDist2(%v, %v) = %.17g, brute force %.17g", p, q, v, b)
				}
				if !exact && v > b*(1+relTol) {
					t.Errorf("OrbitDist2(%v, %v) = %.17g > sampled ‖x − g·y‖² = %.17g", p, q, v, b)
				}
				if w := ds.OrbitDist2(q, p); !near(v, w, relTol, 0) {
					t.Errorf("OrbitDist2 not symmetric: %g vs %g", v, w)
				}
				gp, gq := make([]float64, d), make([]float64, d)
				for s := 0; s < 4; s++ {
					g.ActTo(gp, p, idx[rng.IntN(len(idx))])
					g.ActTo(gq, q, idx[rng.IntN(len(idx))])
					if w := ds.OrbitDist2(gp, gq); !near(v, w, relTol, 0) {
						t.Errorf("OrbitDist2 not invariant: %.17g vs %.17g", v, w)
					}
				}
			}
		})
	}
	if hasCanon {
		t.Run("canonicalizer", func(t *testing.T) {
			gp := make([]float64, d)
			for _, pq := range pairs {
				p, q := pq[0], pq[1]
				fp, fq := phi(p), phi(q)
				v := dist2(fp, fq)
				b := brute(p, q)
				if exact && !near(v, b, relTol, 0) {
					t.Errorf("‖φ(%v) − φ(%v)‖² = %.17g, brute force %.17g", p, q, v, b)
				}
				if !exact && v > b*(1+relTol) {
					t.Errorf("‖φ(x) − φ(y)‖² = %.17g > sampled ‖x − g·y‖² = %.17g", v, b)
				}
				if hasDist {
					if w := ds.OrbitDist2(p, q); !near(v, w, relTol, 0) {
						t.Errorf("‖φ(x) − φ(y)‖² = %.17g, OrbitDist2 %.17g", v, w)
					}
				}
				for s := 0; s < 4; s++ {
					g.ActTo(gp, p, idx[rng.IntN(len(idx))])
					if !slices.Equal(phi(gp), fp) {
						t.Errorf("φ not invariant: φ(%v) = %v, φ(%v) = %v", p, fp, gp, phi(gp))
					}
				}
			}
		})
	}
}

func key(x []float64) string {
	var b strings.Builder
	for _, v := range x {
		if v == 0 {
			v = 0 // −0 and +0 are the same point
		}
		fmt.Fprintf(&b, "%.9g,", v)
	}
	return b.String()
}

func runContinuous(t *testing.T, g orbit.Group) {
	d := g.Dim()
	name := g.Name()
	rng := rand.New(rand.NewPCG(2, 9))
	if _, err := orbit.Size(g); !errors.Is(err, orbit.ErrInfinite) || !strings.Contains(err.Error(), name) {
		t.Errorf("Size(%s) = %v; want ErrInfinite naming the group", name, err)
	}
	ds, hasDist := g.(orbit.Distancer)
	cn, hasCanon := g.(orbit.Canonicalizer)
	dz, hasDisc := g.(orbit.Discretizer)
	pts := points(g, rng, 24)
	if !hasDisc {
		t.Logf("%s has no Discretizer: invariance not sampled", name)
	}
	const m = 7
	nodes := func(x []float64, m int) [][]float64 {
		buf := make([]float64, m*d)
		dz.OrbitTo(buf, x, m)
		out := make([][]float64, m)
		for j := range out {
			out[j] = buf[j*d : (j+1)*d]
		}
		return out
	}
	if hasDist {
		t.Run("distancer", func(t *testing.T) {
			for i := 0; i+1 < len(pts); i += 2 {
				p, q := pts[i], pts[i+1]
				scale := norm2(p) + norm2(q)
				v := ds.OrbitDist2(p, q)
				if v < 0 || v > dist2(p, q)*(1+relTol) {
					t.Errorf("OrbitDist2(%v, %v) = %g, outside [0, ‖x − y‖² = %g]", p, q, v, dist2(p, q))
				}
				if w := ds.OrbitDist2(q, p); !near(v, w, relTol, 0) {
					t.Errorf("OrbitDist2 not symmetric: %g vs %g", v, w)
				}
				if w := ds.OrbitDist2(p, p); w > 1e-28*scale {
					t.Errorf("OrbitDist2(x, x) = %g", w)
				}
				if !hasDisc {
					continue
				}
				for _, gp := range nodes(p, m) {
					for _, gq := range nodes(q, 3) {
						if w := ds.OrbitDist2(gp, gq); !near(v, w, 1e-9, 1e-14*scale) {
							t.Errorf("OrbitDist2 not invariant: d(%v, %v)² = %.17g, d(%v, %v)² = %.17g", p, q, v, gp, gq, w)
						}
					}
					if w := ds.OrbitDist2(gp, p); w > 1e-18*scale {
						t.Errorf("node %v of %v is at orbit distance² %g", gp, p, w)
					}
				}
			}
		})
		if hasDisc {
			t.Run("convergence", func(t *testing.T) {
				// Powers of 3: nested node sets for both the periodic
				// and the midpoint rules, so the error cannot grow.
				ms := []int{3, 9, 27, 81, 243}
				if !testing.Short() {
					ms = append(ms, 729)
				}
				for i := 0; i+1 < len(pts); i += 2 {
					p, q := pts[i], pts[i+1]
					v := ds.OrbitDist2(p, q)
					scale := norm2(p) + norm2(q)
					prev := math.Inf(1)
					var errs []float64
					for _, m := range ms {
						np, nq := nodes(p, m), nodes(q, m)
						best := math.Inf(1)
						for _, a := range np {
							for _, b := range nq {
								best = math.Min(best, dist2(a, b))
							}
						}
						e := best - v
						if e < -1e-12*scale {
							t.Fatalf("discretized distance² %.17g below OrbitDist2 %.17g (m = %d)", best, v, m)
						}
						errs = append(errs, e)
						if e > prev+1e-12*scale {
							t.Errorf("discretization error grew from %g to %g at m = %d", prev, e, m)
						}
						prev = e
					}
					if last := errs[len(errs)-1]; last > 10*scale/float64(ms[len(ms)-1]) {
						t.Errorf("discretization error %g at m = %d (scale %g): errors %v", last, ms[len(ms)-1], scale, errs)
					}
				}
			})
		}
	}
	if hasCanon {
		t.Run("canonicalizer", func(t *testing.T) {
			phi := func(x []float64) []float64 {
				out := make([]float64, cn.CanonicalDim())
				cn.CanonicalTo(out, x)
				return out
			}
			for i := 0; i+1 < len(pts); i += 2 {
				p, q := pts[i], pts[i+1]
				if hasDist {
					v, w := dist2(phi(p), phi(q)), ds.OrbitDist2(p, q)
					if !near(v, w, relTol, 0) {
						t.Errorf("‖φ(x) − φ(y)‖² = %.17g, OrbitDist2 = %.17g", v, w)
					}
				}
				if hasDisc {
					fp := phi(p)
					for _, gp := range nodes(p, m) {
						if f := phi(gp); dist2(f, fp) > 1e-24*norm2(p) {
							t.Errorf("φ not invariant: φ(%v) = %v, φ(%v) = %v", p, fp, gp, f)
						}
					}
				}
			}
		})
	}
}

// runCoordMaps checks orbit.CoordinateMaps(g): Dim entries, classes
// numbered in order of their first coordinate with one freedom each, and
// random maps A(x)_k = (x_k − c_k)/s_k of the allowed kind commuting with
// g: A(g·x) = g·A(x) for sampled elements of a Finite group, and for a
// Discretizer the nodes of A(x) are A of the nodes of x.
func runCoordMaps(t *testing.T, g orbit.Group) {
	d := g.Dim()
	m := orbit.CoordinateMaps(g)
	if len(m) != d {
		t.Fatalf("CoordinateMaps: %d entries, want %d", len(m), d)
	}
	next := 0
	free := map[int]orbit.Freedom{}
	for k, c := range m {
		switch {
		case c.Class == next:
			next++
			free[c.Class] = c.Free
		case c.Class < 0 || c.Class > next:
			t.Fatalf("coordinate %d: class %d, want at most %d (numbered in order of first coordinate)", k, c.Class, next)
		case free[c.Class] != c.Free:
			t.Fatalf("coordinate %d: class %d with freedom %v and %v", k, c.Class, c.Free, free[c.Class])
		}
		if c.Free < orbit.FreeNone || c.Free > orbit.FreeAffine {
			t.Fatalf("coordinate %d: freedom %v", k, c.Free)
		}
	}
	rng := rand.New(rand.NewPCG(3, 7))
	for trial := range 4 {
		cs, ss := make([]float64, next), make([]float64, next)
		for j := range next {
			ss[j], cs[j] = 1, 0
		}
		for j, f := range free {
			if f >= orbit.FreeScale {
				ss[j] = 0.25 + 4*rng.Float64()
			}
			if f == orbit.FreeAffine {
				cs[j] = 4*rng.Float64() - 2
			}
		}
		apply := func(x []float64) []float64 {
			u := make([]float64, d)
			for k, v := range x {
				u[k] = (v - cs[m[k].Class]) / ss[m[k].Class]
			}
			return u
		}
		pts := points(g, rng, 6)
		if _, ok := g.(boxer); ok {
			// The group's box is in its own coordinates: a scaling group
			// allows no map, and its points must stay in its box.
			if next > 0 && free[0] != orbit.FreeNone {
				t.Errorf("a group with a box allows the map %v", free[0])
			}
		}
		check := func(what string, got, want []float64) {
			t.Helper()
			for k := range got {
				if !near(got[k], want[k], 1e-12, 1e-12) {
					t.Fatalf("trial %d: %s: coordinate %d: %v, want %v (maps %v)", trial, what, k, got[k], want[k], m)
				}
			}
		}
		switch f := g.(type) {
		case orbit.Finite:
			G := -1
			if n, err := orbit.Size(g); err == nil {
				G = n
			}
			idx := elements(G, 256, rng)
			for _, i := range idx[:min(16, len(idx))] {
				for _, x := range pts {
					gx, gu := make([]float64, d), make([]float64, d)
					f.ActTo(gx, x, i)
					f.ActTo(gu, apply(x), i)
					check(fmt.Sprintf("A(g_%d·x) vs g_%d·A(x)", i, i), apply(gx), gu)
				}
			}
		case orbit.Discretizer:
			const nodes = 5
			for _, x := range pts {
				a, b := make([]float64, nodes*d), make([]float64, nodes*d)
				f.OrbitTo(a, x, nodes)
				f.OrbitTo(b, apply(x), nodes)
				for j := range nodes {
					check(fmt.Sprintf("node %d", j), apply(a[j*d:(j+1)*d]), b[j*d:(j+1)*d])
				}
			}
		}
	}
}
