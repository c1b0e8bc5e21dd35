package main

import "math"

// base evaluates a base kernel from its formula at two points.
//
// With ls (the ARD cases) the kernel has a lengthscale per coordinate:
// r² = Σ_i ((x_i − y_i)/ℓ_i)², evaluated by the formulas of k2 with l = 1.
type base struct {
	name string
	v, l float64
	ls   []float64 // per-coordinate lengthscales (nil: the isotropic l)
}

func (b base) k(x, y []float64) float64 {
	var s float64
	for i := range x {
		d := x[i] - y[i]
		if b.ls != nil {
			d /= b.ls[i]
		}
		s += d * d
	}
	return b.k2(s)
}

// k2 is the base kernel as a function of the squared distance s = r².
func (b base) k2(s float64) float64 {
	r := math.Sqrt(s)
	switch b.name {
	case "rbf":
		return b.v * math.Exp(-s/(2*b.l*b.l))
	case "matern12":
		return b.v * math.Exp(-r/b.l)
	case "matern32":
		u := math.Sqrt(3) * r / b.l
		return b.v * (1 + u) * math.Exp(-u)
	case "matern52":
		u := math.Sqrt(5) * r / b.l
		return b.v * (1 + u + 5*r*r/(3*b.l*b.l)) * math.Exp(-u)
	}
	panic("refgen: unknown base kernel " + b.name)
}

var baseNames = []string{"rbf", "matern12", "matern32", "matern52"}

// elem is a signed permutation: (g·x)_i = sign_i · x_{perm_i}.
type elem struct {
	perm []int
	sign []float64
}

func (g elem) act(x []float64) []float64 {
	y := make([]float64, len(x))
	for i, p := range g.perm {
		y[i] = g.sign[i] * x[p]
	}
	return y
}

// perms returns all n! permutations of 0…n−1, by recursion.
func perms(n int) [][]int {
	var out [][]int
	cur := make([]int, 0, n)
	used := make([]bool, n)
	var rec func()
	rec = func() {
		if len(cur) == n {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := 0; i < n; i++ {
			if !used[i] {
				used[i] = true
				cur = append(cur, i)
				rec()
				cur = cur[:len(cur)-1]
				used[i] = false
			}
		}
	}
	rec()
	return out
}

// signs returns all 2^n sign patterns.
func signs(n int) [][]float64 {
	var out [][]float64
	for m := 0; m < 1<<n; m++ {
		s := make([]float64, n)
		for i := range s {
			s[i] = 1
			if m>>i&1 == 1 {
				s[i] = -1
			}
		}
		out = append(out, s)
	}
	return out
}

func ident(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

func ones(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// finiteGroup enumerates the elements of a finite group by brute force.
// m is the number of blocks (blockperm, pairedperm), b the block size.
func finiteGroup(name string, d, m, b int) []elem {
	var G []elem
	switch name {
	case "none":
		G = append(G, elem{ident(d), ones(d)})
	case "signflip":
		for _, s := range signs(d) {
			G = append(G, elem{ident(d), s})
		}
	case "permutation":
		for _, p := range perms(d) {
			G = append(G, elem{p, ones(d)})
		}
	case "hyperoctahedral":
		for _, p := range perms(d) {
			for _, s := range signs(d) {
				G = append(G, elem{p, s})
			}
		}
	case "blockperm": // d = m·b, block j is coordinates j·b … j·b+b−1
		for _, p := range perms(m) {
			q := make([]int, d)
			for j := 0; j < m; j++ {
				for t := 0; t < b; t++ {
					q[j*b+t] = p[j]*b + t
				}
			}
			G = append(G, elem{q, ones(d)})
		}
	case "pairedperm": // d = 2m, layout x1…xm, y1…ym
		for _, p := range perms(m) {
			q := make([]int, d)
			for j := 0; j < m; j++ {
				q[j] = p[j]
				q[m+j] = m + p[j]
			}
			G = append(G, elem{q, ones(d)})
		}
	case "cyclic":
		for s := 0; s < d; s++ {
			q := make([]int, d)
			for i := range q {
				q[i] = (i + s) % d
			}
			G = append(G, elem{q, ones(d)})
		}
	default:
		panic("refgen: unknown finite group " + name)
	}
	return G
}

// finiteAvg is 1/|G|² Σ_{g,g'} k_b(g·x, g'·y), the literal double sum.
func finiteAvg(kb base, G []elem, x, y []float64) float64 {
	var acc sum
	for _, g := range G {
		gx := g.act(x)
		for _, h := range G {
			acc.add(kb.k(gx, h.act(y)))
		}
	}
	n := float64(len(G))
	return acc.value() / (n * n)
}

// finiteMax is max_{g,g'} k_b(g·x, g'·y), the literal double maximum.
func finiteMax(kb base, G []elem, x, y []float64) float64 {
	best := math.Inf(-1)
	for _, g := range G {
		gx := g.act(x)
		for _, h := range G {
			best = math.Max(best, kb.k(gx, h.act(y)))
		}
	}
	return best
}

// The continuous groups' references take off, a squared distance added to
// every pair: ‖x_R − y_R‖² of the coordinates a group acting on some
// coordinates leaves alone (0 for a group on all of them), so that x, y
// are the planar (or box) coordinates the group acts on.

// rotDist2 is ‖x − R_φ y‖² for planar x, y.
func rotDist2(x, y []float64, phi float64) float64 {
	c, s := math.Cos(phi), math.Sin(phi)
	d0 := x[0] - (c*y[0] - s*y[1])
	d1 := x[1] - (s*y[0] + c*y[1])
	return d0*d0 + d1*d1
}

func rot(y []float64, phi float64) []float64 {
	c, s := math.Cos(phi), math.Sin(phi)
	return []float64{c*y[0] - s*y[1], s*y[0] + c*y[1]}
}

// rotAvg is (1/2π)² ∫∫ k_b(R_θ x, R_θ' y) dθ dθ' = (1/2π) ∫ k_b(x, R_φ y) dφ
// (φ = θ' − θ; R_θ is an isometry), by composite Gauss–Legendre over one
// period starting at the angle φ* that aligns R_φ y with x, split at φ*+π,
// so that the only points where the integrand can be non-smooth (distance 0
// for matern12 when ‖x‖ = ‖y‖) are panel ends. panels per half period, 16
// nodes each.
func rotAvg(kb base, x, y []float64, off float64, panels int) float64 {
	phi0 := math.Atan2(x[1], x[0]) - math.Atan2(y[1], y[0])
	gx, gw := gaussLegendre(16)
	f := func(phi float64) float64 { return kb.k2(rotDist2(x, y, phi) + off) }
	return integrate(f, []float64{phi0, phi0 + math.Pi, phi0 + 2*math.Pi}, panels, gx, gw) / (2 * math.Pi)
}

// rotMax is max_φ k_b(x, R_φ y) (= max over θ, θ'): an n-point grid over
// [0, 2π), then golden-section search on the two grid cells around the
// best node. The search minimizes the distance ‖x − R_φ y‖ (κ is
// decreasing, so this maximizes k_b, and the distance never underflows)
// and k_b is evaluated at the minimizer; the result is the larger of that
// and the best grid value.
func rotMax(kb base, x, y []float64, off float64, n int) float64 {
	f := func(phi float64) float64 { return math.Sqrt(rotDist2(x, y, phi) + off) }
	h := 2 * math.Pi / float64(n)
	bi, bd := 0, math.Inf(1)
	for i := 0; i < n; i++ {
		if d := f(float64(i) * h); d < bd {
			bi, bd = i, d
		}
	}
	c := float64(bi) * h
	phi, _ := goldenMin(f, c-h, c+h)
	return math.Max(kb.k2(bd*bd), kb.k2(rotDist2(x, y, phi)+off))
}

// scaleRange returns [log c_min, log c_max], the log-scales c with c·x in
// the box [lo, hi] (x > 0).
func scaleRange(x, lo, hi []float64) (a, b float64) {
	cmin, cmax := 0.0, math.Inf(1)
	for i := range x {
		cmin = math.Max(cmin, lo[i]/x[i])
		cmax = math.Min(cmax, hi[i]/x[i])
	}
	return math.Log(cmin), math.Log(cmax)
}

// scaleDist2 is ‖e^s·x − e^t·y‖².
func scaleDist2(x, y []float64, s, t float64) float64 {
	cs, ct := math.Exp(s), math.Exp(t)
	r := 0.0
	for i := range x {
		d := cs*x[i] - ct*y[i]
		r += d * d
	}
	return r
}

func scale(x []float64, s float64) []float64 {
	c := math.Exp(s)
	y := make([]float64, len(x))
	for i := range x {
		y[i] = c * x[i]
	}
	return y
}

func norm(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// collinear reports whether x and y (2-d) lie on one ray from the origin.
func collinear(x, y []float64) bool {
	return math.Abs(x[0]*y[1]-x[1]*y[0]) <= 1e-13*norm(x)*norm(y)
}

// scaleAvg is the double Haar average of k_b(c·x, c'·y) over the
// box-restricted scales, dc/c ⊗ dc'/c' normalized, i.e. a uniform average
// over s = log c ∈ [a_x, b_x] and t = log c' ∈ [a_y, b_y], by nested
// adaptive Gauss–Legendre (10 nodes per panel) with absolute tolerance tol
// on the (unnormalized) double integral. For collinear x, y the integrand
// has a ridge on t = s + log(‖x‖/‖y‖); the inner integral is split there
// and the outer one where the ridge leaves the square.
func scaleAvg(kb base, x, y []float64, off float64, lo, hi []float64, tol float64) float64 {
	ax, bx := scaleRange(x, lo, hi)
	ay, by := scaleRange(y, lo, hi)
	gx, gw := gaussLegendre(10)
	col := collinear(x, y)
	shift := math.Log(norm(x) / norm(y))
	outerBP := []float64{ax}
	if col {
		for _, s := range []float64{ay - shift, by - shift} {
			if s > outerBP[len(outerBP)-1] && s < bx {
				outerBP = append(outerBP, s)
			}
		}
	}
	outerBP = append(outerBP, bx)
	inTol := 1e-2 * tol / (bx - ax) // inner noise ≪ the outer tolerance
	outer := func(s float64) float64 {
		bp := []float64{ay}
		if t := s + shift; col && t > ay && t < by {
			bp = append(bp, t)
		}
		bp = append(bp, by)
		f := func(t float64) float64 { return kb.k2(scaleDist2(x, y, s, t) + off) }
		var acc sum
		for k := 0; k+1 < len(bp); k++ {
			acc.add(adaptive(f, bp[k], bp[k+1], inTol, gx, gw))
		}
		return acc.value()
	}
	var acc sum
	for k := 0; k+1 < len(outerBP); k++ {
		acc.add(adaptive(outer, outerBP[k], outerBP[k+1], tol/2, gx, gw))
	}
	return acc.value() / ((bx - ax) * (by - ay))
}

// scaleMax is max k_b(c·x, c'·y) over the box-restricted scales. It
// minimizes the distance ‖c·x − c'·y‖ (κ is decreasing) by a dense n×n
// grid in (log c, log c') and two nested golden-section searches over the
// whole ranges, in either order (outer over c, inner over c', and the
// reverse). Nested search is valid because the distance is jointly convex
// in (c, c'), so every partial minimum is unimodal in log c or log c'. It
// returns the best k_b of the three and the spread of the two searches,
// and panics if the grid beats both searches (a search failed).
func scaleMax(kb base, x, y []float64, off float64, lo, hi []float64, n int) (float64, float64) {
	ax, bx := scaleRange(x, lo, hi)
	ay, by := scaleRange(y, lo, hi)
	f := func(s, t float64) float64 { return math.Sqrt(scaleDist2(x, y, s, t) + off) }
	hs, ht := (bx-ax)/float64(n-1), (by-ay)/float64(n-1)
	bd := math.Inf(1)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			bd = math.Min(bd, f(ax+float64(i)*hs, ay+float64(j)*ht))
		}
	}
	innerT := func(s float64) float64 {
		_, d := goldenMin(func(t float64) float64 { return f(s, t) }, ay, by)
		return d
	}
	sl, _ := goldenMin(innerT, ax, bx)
	tl, _ := goldenMin(func(t float64) float64 { return f(sl, t) }, ay, by)
	innerS := func(t float64) float64 {
		_, d := goldenMin(func(s float64) float64 { return f(s, t) }, ax, bx)
		return d
	}
	tg, _ := goldenMin(innerS, ay, by)
	sg, _ := goldenMin(func(s float64) float64 { return f(s, tg) }, ax, bx)
	st := kb.k2(scaleDist2(x, y, sl, tl) + off)
	ts := kb.k2(scaleDist2(x, y, sg, tg) + off)
	grid := kb.k2(bd * bd)
	if grid > math.Max(st, ts)*(1+1e-12) {
		panic("refgen: scaling max: a grid node beats the refined searches")
	}
	return math.Max(grid, math.Max(st, ts)), math.Abs(st - ts)
}

// chordMax is k_max of the scaling group with the chord orbit distance
// (scalingdir): k_b at 2R·sin(θ/2), R = ‖hi‖, θ the angle between x and y
// in the plane taken from their polar angles (d = 2 only), with off added
// to the squared distance.
func chordMax(kb base, x, y []float64, off float64, hi []float64) float64 {
	if len(x) != 2 {
		panic("refgen: scalingdir: d = 2 only")
	}
	R := math.Sqrt(hi[0]*hi[0] + hi[1]*hi[1])
	theta := math.Atan2(x[1], x[0]) - math.Atan2(y[1], y[0])
	c := 2 * R * math.Sin(theta/2)
	return kb.k2(c*c + off)
}
