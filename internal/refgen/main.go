// Command refgen writes the golden values in testdata/golden that
// kernel/golden_test.go checks symbo's invariant kernels against.
//
// Its computations use only the standard library and share no code with
// symbo: it enumerates group elements by brute force, evaluates the base
// kernels from their formulas, takes the literal double sum / double maximum over
// (g, g') (numerical quadrature and search for the continuous groups), and
// diagonalizes k_max(D, D) with its own cyclic Jacobi method. See README.md.
// Its one symbo import, internal/atomicfile (no numerics), writes each
// file atomically: a failed or interrupted run (a full disk, a signal)
// leaves every golden file as it was, never a truncated one.
//
//	go run ./internal/refgen -out testdata/golden
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/symbo/symbo/internal/atomicfile"
)

// relTol is the relative eigenvalue tolerance of K₊^†: eigenvalues of
// k_max(D, D) above relTol·λ_max are kept.
const relTol = 1e-10

// gapTol is what the design search demands: every eigenvalue of
// k_max(D, D) has |λ| ≥ gapTol·λ_max, so the kept set does not depend on
// any tolerance between about 1e-14 and gapTol.
const gapTol = 1e-4

const (
	nX, nY, nD = 6, 5, 12
	variance   = 1.3
)

type groupCase struct {
	name      string
	d, m, b   int        // m blocks of size b (blockperm, pairedperm)
	coords    []int      // the group acts on these coordinates of R^d (nil: on all, in order)
	lo, hi    []float64  // scaling box
	ell       [4]float64 // lengthscale per base kernel (rbf, m12, m32, m52)
	ard       []float64  // ARD cases: a lengthscale per coordinate of R^d (ell unused)
	wantIndef [4]bool    // per base kernel: search designs with an indefinite k_max(D, D)
	sample    func(r *rand.Rand) []float64
	design    func(r *rand.Rand, n int) [][]float64 // nil: n samples
}

func uniform(d int, a, b float64) func(r *rand.Rand) []float64 {
	return func(r *rand.Rand) []float64 {
		x := make([]float64, d)
		for i := range x {
			x[i] = a + (b-a)*r.Float64()
		}
		return x
	}
}

func logUniform(d int, a, b float64) func(r *rand.Rand) []float64 {
	return func(r *rand.Rand) []float64 {
		x := make([]float64, d)
		for i := range x {
			x[i] = math.Exp(math.Log(a) + (math.Log(b)-math.Log(a))*r.Float64())
		}
		return x
	}
}

// stratifiedRadii draws n planar points with uniform angles and radii
// jittered in the middle half of n equal strata of [0, rmax]: k_max on
// SO(2) only sees the radii, and random radii put near-duplicate design
// points (tiny eigenvalues) in almost every draw.
func stratifiedRadii(rmax float64) func(r *rand.Rand, n int) [][]float64 {
	return func(r *rand.Rand, n int) [][]float64 {
		P := make([][]float64, n)
		for i := range P {
			rad := rmax * (float64(i) + 0.25 + 0.5*r.Float64()) / float64(n)
			phi := 2 * math.Pi * r.Float64()
			P[i] = []float64{rad * math.Cos(phi), rad * math.Sin(phi)}
		}
		return P
	}
}

// stratifiedRays draws n points in the box [lo, hi]² on rays with slopes
// ρ = x₂/x₁ stratified in u ∈ (−1, 1), ρ = 1 + 0.99u for u ≤ 0 and
// 1/(1 − 0.99u) above, and log-uniform scales along each ray. The
// box-restricted orbit of a point is its whole ray segment in the box, so
// k_max only sees the slope; random slopes put near-duplicate design
// points (tiny eigenvalues) in almost every draw.
func stratifiedRays(lo, hi float64) func(r *rand.Rand, n int) [][]float64 {
	return func(r *rand.Rand, n int) [][]float64 {
		P := make([][]float64, n)
		for i := range P {
			u := -1 + 2*(float64(i)+0.4+0.2*r.Float64())/float64(n)
			rho := 1 + 0.99*u
			if u > 0 {
				rho = 1 / (1 - 0.99*u)
			}
			dir := []float64{1, rho}
			a, b := scaleRange(dir, []float64{lo, lo}, []float64{hi, hi})
			P[i] = scale(dir, a+(b-a)*r.Float64())
		}
		return P
	}
}

// k is the dimension the group itself acts on: len(coords), or d.
func (gc groupCase) k() int {
	if gc.coords == nil {
		return gc.d
	}
	return len(gc.coords)
}

// file is the case's file name without the base kernel: the group's name,
// with "-oncoords" for a group acting on some coordinates, and "ard_"
// before it for a base kernel with a lengthscale per coordinate.
func (gc groupCase) file() string {
	f := gc.name
	if gc.coords != nil {
		f += "-oncoords"
	}
	if gc.ard != nil {
		f = "ard_" + f
	}
	return f
}

// classes returns the classes of coordinates of an ARD case: the
// coordinates a permutation group (permutation, hyperoctahedral) moves
// among each other form one class; a coordinate it only flips (signflip),
// or one it leaves alone, is a class of its own. Coordinates in ascending
// order within a class, classes by their first coordinate.
func (gc groupCase) classes() [][]int {
	coords := gc.coords
	if coords == nil {
		coords = ident(gc.d)
	}
	var out [][]int
	in := make([]bool, gc.d)
	if gc.name == "permutation" || gc.name == "hyperoctahedral" {
		c := append([]int(nil), coords...)
		slices.Sort(c)
		out = append(out, c)
		for _, i := range c {
			in[i] = true
		}
	} else if gc.name != "signflip" {
		panic("refgen: no ARD classes for " + gc.name)
	}
	for i := 0; i < gc.d; i++ {
		if !in[i] {
			out = append(out, []int{i})
		}
	}
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}

// inner returns the coordinates of p the group acts on, in its order.
func (gc groupCase) inner(p []float64) []float64 {
	if gc.coords == nil {
		return append([]float64(nil), p...)
	}
	out := make([]float64, len(gc.coords))
	for j, c := range gc.coords {
		out[j] = p[c]
	}
	return out
}

// setInner writes v on the coordinates of p the group acts on.
func (gc groupCase) setInner(p, v []float64) {
	if gc.coords == nil {
		copy(p, v)
		return
	}
	for j, c := range gc.coords {
		p[c] = v[j]
	}
}

// split returns the coordinates x_S, y_S the group acts on and the squared
// distance of the others, ‖x_R − y_R‖² (0 for a group on all of them).
func (gc groupCase) split(x, y []float64) (xs, ys []float64, off float64) {
	if gc.coords == nil {
		return x, y, 0
	}
	on := make([]bool, gc.d)
	for _, c := range gc.coords {
		on[c] = true
	}
	for i := range x {
		if !on[i] {
			t := x[i] - y[i]
			off += t * t
		}
	}
	return gc.inner(x), gc.inner(y), off
}

// group enumerates a finite group's elements on R^d: the group's own on
// R^k, embedded (identity on the other coordinates) if it acts on some.
func (gc groupCase) group() []elem {
	G := finiteGroup(gc.name, gc.k(), gc.m, gc.b)
	if gc.coords == nil {
		return G
	}
	out := make([]elem, len(G))
	for i, g := range G {
		e := elem{ident(gc.d), ones(gc.d)}
		// (g·x)_{c_j} = s_j·x_{c_{π(j)}}.
		for j, c := range gc.coords {
			e.perm[c] = gc.coords[g.perm[j]]
			e.sign[c] = g.sign[j]
		}
		out[i] = e
	}
	return out
}

// onCoords draws points of R^d: the group's own sample or design on its
// coordinates, uniform in [−1, 1] elsewhere.
func onCoords(d int, coords []int, sample func(r *rand.Rand) []float64, design func(r *rand.Rand, n int) [][]float64) (func(r *rand.Rand) []float64, func(r *rand.Rand, n int) [][]float64) {
	gc := groupCase{d: d, coords: coords}
	rest := uniform(d, -1, 1)
	s := func(r *rand.Rand) []float64 {
		x := rest(r)
		gc.setInner(x, sample(r))
		return x
	}
	if design == nil {
		return s, nil
	}
	return s, func(r *rand.Rand, n int) [][]float64 {
		P := design(r, n)
		out := make([][]float64, n)
		for i := range out {
			out[i] = rest(r)
			gc.setInner(out[i], P[i])
		}
		return out
	}
}

func cases() []groupCase {
	rotS, rotD := onCoords(3, []int{2, 0}, uniform(2, -1, 1), stratifiedRadii(1.3))
	scaS, scaD := onCoords(3, []int{2, 1}, logUniform(2, 0.1, 10), stratifiedRays(0.1, 10))
	return []groupCase{
		{name: "none", d: 3, ell: [4]float64{0.8, 0.8, 0.8, 0.8}, sample: uniform(3, -1, 1)},
		{name: "signflip", d: 3, ell: [4]float64{0.5, 0.5, 0.5, 0.5}, sample: uniform(3, -1, 1)},
		{name: "permutation", d: 3, ell: [4]float64{0.6, 0.6, 0.6, 0.6}, sample: uniform(3, -1, 1)},
		{name: "hyperoctahedral", d: 3, ell: [4]float64{0.4, 0.4, 0.4, 0.4}, sample: uniform(3, -1, 1)},
		{name: "blockperm", d: 6, m: 3, b: 2, ell: [4]float64{0.8, 0.5, 2, 1.2}, wantIndef: [4]bool{true, false, true, true}, sample: uniform(6, 0, 1)},
		{name: "pairedperm", d: 6, m: 3, ell: [4]float64{0.8, 0.5, 2, 1.2}, wantIndef: [4]bool{true, false, true, true}, sample: uniform(6, 0, 1)},
		{name: "cyclic", d: 4, ell: [4]float64{0.8, 0.8, 2, 1.2}, wantIndef: [4]bool{true, false, true, true}, sample: uniform(4, -1, 1)},
		{name: "rotation2d", d: 2, ell: [4]float64{0.12, 0.3, 0.15, 0.13}, sample: uniform(2, -1, 1), design: stratifiedRadii(1.3)},
		{name: "scaling", d: 2, lo: []float64{0.1, 0.1}, hi: []float64{10, 10}, ell: [4]float64{0.03, 3, 0.1, 0.1}, wantIndef: [4]bool{true, true, true, true}, sample: logUniform(2, 0.1, 10), design: stratifiedRays(0.1, 10)},
		{name: "scalingdir", d: 2, lo: []float64{0.1, 0.1}, hi: []float64{10, 10}, ell: [4]float64{1.5, 6, 2, 2}, sample: logUniform(2, 0.1, 10), design: stratifiedRays(0.1, 10)},
		// Groups on some of the coordinates, listed out of order
		// (orbit.OnCoords); the identity on the others.
		{name: "signflip", d: 4, coords: []int{3, 1}, ell: [4]float64{0.6, 0.6, 0.6, 0.6}, sample: uniform(4, -1, 1)},
		{name: "permutation", d: 5, coords: []int{4, 0, 2}, ell: [4]float64{0.7, 0.7, 0.7, 0.7}, sample: uniform(5, -1, 1)},
		{name: "hyperoctahedral", d: 5, coords: []int{1, 4, 0}, ell: [4]float64{0.6, 0.6, 0.6, 0.6}, sample: uniform(5, -1, 1)},
		{name: "blockperm", d: 6, m: 2, b: 2, coords: []int{5, 0, 3, 1}, ell: [4]float64{0.8, 0.5, 2, 1.2}, wantIndef: [4]bool{true, false, true, true}, sample: uniform(6, 0, 1)},
		{name: "rotation2d", d: 3, coords: []int{2, 0}, ell: [4]float64{0.3, 0.4, 0.3, 0.3}, sample: rotS, design: rotD},
		{name: "scaling", d: 3, coords: []int{2, 1}, lo: []float64{0.1, 0.1}, hi: []float64{10, 10}, ell: [4]float64{0.1, 3, 0.2, 0.2}, wantIndef: [4]bool{true, true, true, true}, sample: scaS, design: scaD},
		// ARD: a lengthscale per coordinate, equal within each class of
		// coordinates the group moves together (a flipped or free
		// coordinate is a class of its own); ≈10× between classes.
		{name: "signflip", d: 3, ard: []float64{0.3, 1, 3}, sample: uniform(3, -1, 1)},
		{name: "permutation", d: 4, coords: []int{3, 0, 2}, ard: []float64{0.4, 4, 0.4, 0.4}, sample: uniform(4, -1, 1)},
		{name: "hyperoctahedral", d: 3, coords: []int{2, 0}, ard: []float64{2, 0.2, 2}, sample: uniform(3, -1, 1)},
	}
}

// ref computes the reference kernels of one group case.
type ref struct {
	gc     groupCase
	kb     base
	G      []elem // nil for continuous groups
	search bool   // coarse settings for the design search
	accMax float64
	accAvg float64
}

// max and avg integrate or search over the continuous groups' elements
// on the coordinates x_S they act on; the other coordinates add their
// squared distance off to every pair (the identity leaves them alone).
// Finite groups are enumerated on all d coordinates (group embeds them).

func (r *ref) max(x, y []float64) float64 {
	switch r.gc.name {
	case "rotation2d":
		n1, n2 := 20000, 20011
		if r.search {
			n1, n2 = 2000, 2011
		}
		xs, ys, off := r.gc.split(x, y)
		a := rotMax(r.kb, xs, ys, off, n1)
		b := rotMax(r.kb, xs, ys, off, n2)
		r.accMax = math.Max(r.accMax, math.Abs(a-b))
		return math.Max(a, b)
	case "scalingdir":
		xs, ys, off := r.gc.split(x, y)
		return chordMax(r.kb, xs, ys, off, r.gc.hi)
	case "scaling":
		n := 200
		if r.search {
			n = 30
		}
		xs, ys, off := r.gc.split(x, y)
		v, spread := scaleMax(r.kb, xs, ys, off, r.gc.lo, r.gc.hi, n)
		r.accMax = math.Max(r.accMax, spread)
		return v
	}
	return finiteMax(r.kb, r.G, x, y)
}

func (r *ref) avg(x, y []float64) float64 {
	switch r.gc.name {
	case "rotation2d":
		xs, ys, off := r.gc.split(x, y)
		a := rotAvg(r.kb, xs, ys, off, 625) // 2·625·16 = 20 000 nodes
		b := rotAvg(r.kb, xs, ys, off, 312)
		r.accAvg = math.Max(r.accAvg, math.Abs(a-b))
		return a
	case "scaling", "scalingdir":
		xs, ys, off := r.gc.split(x, y)
		a := scaleAvg(r.kb, xs, ys, off, r.gc.lo, r.gc.hi, 1e-10*variance)
		b := scaleAvg(r.kb, xs, ys, off, r.gc.lo, r.gc.hi, 1e-8*variance)
		r.accAvg = math.Max(r.accAvg, math.Abs(a-b))
		return a
	}
	return finiteAvg(r.kb, r.G, x, y)
}

func (r *ref) cross(f func(x, y []float64) float64, X, Y [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	for i := range X {
		out[i] = make([]float64, len(Y))
		for j := range Y {
			out[i][j] = f(X[i], Y[j])
		}
	}
	return out
}

// gram returns k_max(D, D) row-major, computing the upper triangle and
// mirroring it (k_max is symmetric by definition).
func (r *ref) gram(D [][]float64) []float64 {
	n := len(D)
	K := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			K[i*n+j] = r.max(D[i], D[j])
			K[j*n+i] = K[i*n+j]
		}
	}
	return K
}

func spectrumOK(w []float64, wantIndef bool) bool {
	lmax := w[len(w)-1]
	for _, l := range w {
		if math.Abs(l) < gapTol*lmax {
			return false
		}
	}
	return !wantIndef || w[0] < 0
}

func draw(gc groupCase, seed, stream uint64, n int) [][]float64 {
	r := rand.New(rand.NewPCG(seed, stream))
	if gc.design != nil && stream == 3 {
		return gc.design(r, n)
	}
	P := make([][]float64, n)
	for i := range P {
		P[i] = gc.sample(r)
	}
	return P
}

// ties overwrites some points of X and Y with ties and zeros: equal
// coordinates, a zero coordinate (or a box-boundary coordinate for
// scaling), a point of Y in the orbit of a point of X, and for rotations a
// point at the origin.
//
// For a group on some coordinates the continuous groups' ties are written
// on those coordinates (the others stay as drawn, and a point in the orbit
// of another keeps its other coordinates).
func ties(gc groupCase, G []elem, X, Y [][]float64) {
	in, set := gc.inner, gc.setInner
	clone := func(p []float64) []float64 { return append([]float64(nil), p...) }
	switch gc.name {
	case "rotation2d":
		set(X[0], []float64{0.6, 0.6})
		set(X[1], []float64{0, -0.7})
		Y[0] = clone(X[2])
		set(Y[0], rot(in(X[2]), 1.234))
		set(Y[4], []float64{0, 0})
	case "scaling", "scalingdir":
		set(X[0], []float64{0.6, 0.6})
		set(X[1], []float64{0.1, in(X[1])[1]}) // on the box boundary
		set(X[5], []float64{10, 10})           // box corner
		a, b := scaleRange(in(X[2]), gc.lo, gc.hi)
		Y[0] = clone(X[2])
		set(Y[0], scale(in(X[2]), a+0.3*(b-a))) // same ray as X[2]
		set(Y[1], []float64{2.5, 2.5})          // same ray as X[0]
		for _, p := range [][]float64{in(Y[0])} {
			for i := range p {
				if p[i] < gc.lo[i] || p[i] > gc.hi[i] {
					panic("refgen: tie point outside the box")
				}
			}
		}
	default:
		for i := range X[0] {
			X[0][i] = 0.5 // all coordinates equal
		}
		X[1][0] = 0                  // a zero coordinate
		X[4][1] = X[4][0]            // two equal coordinates
		Y[0] = G[len(G)-1].act(X[2]) // in the orbit of X[2]
		Y[1] = append([]float64(nil), X[3]...)
	}
}

type result struct {
	gc                  groupCase
	bi                  int
	kb                  base
	X, Y, D             [][]float64
	avg, max, plus, pdd [][]float64
	w                   []float64
	rank                int
	keptMin, droppedMax float64
	accAvg, accMax      float64
	accPlus, accPlusDD  float64
	seedXY, seedD       uint64
	sweeps              int
	eigRes, eigOrth     float64
	plusCheck           float64
}

func run(gc groupCase, bi int) (*result, error) {
	kb := base{name: baseNames[bi], v: variance, l: gc.ell[bi]}
	if gc.ard != nil {
		kb.l, kb.ls = 1, gc.ard
		for _, c := range gc.classes() {
			for _, i := range c {
				if gc.ard[i] != gc.ard[c[0]] {
					return nil, fmt.Errorf("%s: lengthscales differ within the class %v", gc.file(), c)
				}
			}
		}
	}
	var G []elem
	if gc.name != "rotation2d" && gc.name != "scaling" && gc.name != "scalingdir" {
		G = gc.group()
	}
	const seedXY = 1
	X := draw(gc, seedXY, 1, nX)
	Y := draw(gc, seedXY, 2, nY)
	ties(gc, G, X, Y)

	// Design search: the first seed whose k_max(D, D) has a well separated
	// spectrum (and is indefinite where wanted).
	rs := &ref{gc: gc, kb: kb, G: G, search: true}
	var seedD uint64
	found := false
	for s := uint64(1); s <= 400; s++ {
		D := draw(gc, s, 3, nD)
		w, _, _ := jacobiEig(rs.gram(D), nD)
		if spectrumOK(w, gc.wantIndef[bi]) {
			seedD, found = s, true
			break
		}
	}
	if !found {
		return nil, fmt.Errorf("%s/%s: no design seed in 1…400 meets the spectrum criteria", gc.name, kb.name)
	}
	D := draw(gc, seedD, 3, nD)

	r := &ref{gc: gc, kb: kb, G: G}
	res := &result{gc: gc, bi: bi, kb: kb, X: X, Y: Y, D: D, seedXY: seedXY, seedD: seedD}
	res.avg = r.cross(r.avg, X, Y)
	res.max = r.cross(r.max, X, Y)
	K := r.gram(D)
	axD := r.cross(r.max, X, D) // k_max(x_i, d_k)
	aDy := r.cross(r.max, D, Y) // k_max(d_k, y_j)
	w, V, sweeps := jacobiEig(K, nD)
	if !spectrumOK(w, gc.wantIndef[bi]) {
		return nil, fmt.Errorf("%s/%s: fine spectrum fails the criteria", gc.name, kb.name)
	}
	res.w, res.sweeps = w, sweeps
	res.eigRes, res.eigOrth = eigResidual(K, nD, w, V)
	var kept []int
	res.plus, res.pdd, kept, res.plusCheck = nystrom(K, axD, aDy)
	res.rank = len(kept)
	res.keptMin, res.droppedMax = math.Inf(1), math.Inf(-1)
	for i, l := range w {
		if len(kept) > 0 && i >= kept[0] {
			res.keptMin = math.Min(res.keptMin, l)
		} else {
			res.droppedMax = math.Max(res.droppedMax, l)
		}
	}

	// Accuracy. Finite groups: a few roundings of v. Continuous groups: the
	// measured spread between two resolutions (a conservative estimate of
	// the finer one's error), floored likewise.
	floor := 4e-15 * variance
	res.accAvg = math.Max(floor, r.accAvg)
	res.accMax = math.Max(floor, r.accMax)
	// k_plus and K₊ inherit the error ε of every k_max value, amplified by
	// the conditioning of the kept spectrum. Measured, not bounded: perturb
	// K (symmetrically) and the cross columns by independent uniform noise
	// in [−ε, ε], recompute, and take 10× the largest change over 8 trials.
	eps := res.accMax
	prng := rand.New(rand.NewPCG(99, 99))
	noise := func() float64 { return eps * (2*prng.Float64() - 1) }
	for trial := 0; trial < 8; trial++ {
		Kp := append([]float64(nil), K...)
		for i := 0; i < nD; i++ {
			for j := i; j < nD; j++ {
				Kp[i*nD+j] += noise()
				Kp[j*nD+i] = Kp[i*nD+j]
			}
		}
		pert := func(m [][]float64) [][]float64 {
			out := make([][]float64, len(m))
			for i := range m {
				out[i] = make([]float64, len(m[i]))
				for j := range m[i] {
					out[i][j] = m[i][j] + noise()
				}
			}
			return out
		}
		pp, pdd, _, _ := nystrom(Kp, pert(axD), pert(aDy))
		res.accPlus = math.Max(res.accPlus, 10*maxDiff(pp, res.plus))
		res.accPlusDD = math.Max(res.accPlusDD, 10*maxDiff(pdd, res.pdd))
	}
	res.accPlus = math.Max(res.accPlus, floor)
	res.accPlusDD = math.Max(res.accPlusDD, floor)
	return res, nil
}

func fmtF(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func fmtVec(v []float64) string {
	s := make([]string, len(v))
	for i, f := range v {
		s[i] = fmtF(f)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func fmtMat(m [][]float64) string {
	s := make([]string, len(m))
	for i, r := range m {
		s[i] = "    " + fmtVec(r)
	}
	return "[\n" + strings.Join(s, ",\n") + "\n  ]"
}

func (res *result) json() string {
	gc := res.gc
	var b strings.Builder
	kv := func(k, v string) { fmt.Fprintf(&b, "  %q: %s,\n", k, v) }
	b.WriteString("{\n")
	kv("group", strconv.Quote(gc.name))
	kv("d", strconv.Itoa(gc.d))
	kv("block", strconv.Itoa(gc.b))
	if gc.coords != nil {
		c := make([]string, len(gc.coords))
		for i, v := range gc.coords {
			c[i] = strconv.Itoa(v)
		}
		kv("coords", "["+strings.Join(c, ", ")+"]")
	}
	if gc.lo != nil {
		kv("lo", fmtVec(gc.lo))
		kv("hi", fmtVec(gc.hi))
	}
	kv("base", strconv.Quote(res.kb.name))
	kv("variance", fmtF(res.kb.v))
	if gc.ard != nil {
		kv("lengthscales", fmtVec(gc.ard))
		cl := make([]string, 0, gc.d)
		for _, c := range gc.classes() {
			s := make([]string, len(c))
			for i, v := range c {
				s[i] = strconv.Itoa(v)
			}
			cl = append(cl, "["+strings.Join(s, ", ")+"]")
		}
		kv("classes", "["+strings.Join(cl, ", ")+"]")
	} else {
		kv("lengthscale", fmtF(res.kb.l))
	}
	kv("x", fmtMat(res.X))
	kv("y", fmtMat(res.Y))
	kv("design", fmtMat(res.D))
	kv("avg", fmtMat(res.avg))
	kv("max", fmtMat(res.max))
	kv("plus", fmtMat(res.plus))
	kv("plus_dd", fmtMat(res.pdd))
	kv("eig_min", fmtF(res.w[0]))
	kv("eig_max", fmtF(res.w[len(res.w)-1]))
	kv("eigenvalues", fmtVec(res.w))
	kv("eig_kept_min", fmtF(res.keptMin))
	dm := "null"
	if !math.IsInf(res.droppedMax, -1) {
		dm = fmtF(res.droppedMax)
	}
	kv("eig_dropped_max", dm)
	kv("rank", strconv.Itoa(res.rank))
	kv("reltol", fmtF(relTol))
	kv("seed_xy", strconv.FormatUint(res.seedXY, 10))
	kv("seed_design", strconv.FormatUint(res.seedD, 10))
	kv("accuracy", fmt.Sprintf("{\"avg\": %s, \"max\": %s, \"plus\": %s, \"plus_dd\": %s}",
		fmtF(res.accAvg), fmtF(res.accMax), fmtF(res.accPlus), fmtF(res.accPlusDD)))
	fmt.Fprintf(&b, "  %q: %s\n}\n", "note", strconv.Quote(res.note()))
	return b.String()
}

func (res *result) note() string {
	gc := res.gc
	var how string
	switch gc.name {
	case "rotation2d":
		how = "avg: (1/2π)∫k_b(x,R_φ y)dφ by composite Gauss–Legendre, 20000 nodes, split at the aligning angle and its antipode; accuracy.avg = |20000 − 9984 nodes|. max: 20000-node grid in φ + golden section; accuracy.max = |grid 20000 − grid 20011|"
	case "scaling":
		how = "orbit {c·x : c·x in the box}, Haar measure dc/c; avg: uniform double average over (log c, log c') by nested adaptive Gauss–Legendre to 1e-10·v, split on the ridge of collinear pairs; accuracy.avg = |result − result to 1e-8·v|. max: 200×200 grid in (log c, log c') + nested golden-section searches over the whole ranges in both orders (minimizing ‖c·x − c'·y‖, valid by joint convexity in (c, c')); accuracy.max = spread of the two searches, floored"
	case "scalingdir":
		how = "the scaling orbits of the case scaling (same avg), with the orbit distance the chord between directions on the sphere of radius R = ‖hi‖; max: k_b(2R·sin(θ/2)) with θ the difference of the polar angles atan2(x₂, x₁) − atan2(y₂, y₁) (no normalized vectors); accuracy.max = 0, floored"
	default:
		how = fmt.Sprintf("|G| = %d enumerated; literal double sum/max over (g, g')", len(res.gc.group()))
	}
	if gc.coords != nil {
		how = fmt.Sprintf("group on coordinates %v of R^%d (x_S), identity on the others (x_R): %s; x_R adds ‖x_R − y_R‖² to every squared distance", gc.coords, gc.d, how)
	}
	if gc.ard != nil {
		how = fmt.Sprintf("ARD base kernel, lengthscales %v per coordinate (equal within each class %v), r² = Σ_i ((x_i − y_i)/ℓ_i)² in the base formulas with ℓ = 1, every squared distance below being this r²: %s", gc.ard, gc.classes(), how)
	}
	psd := "PSD"
	if res.w[0] < 0 {
		psd = "indefinite"
	}
	return fmt.Sprintf("%s. k_max(D,D) is %s (eig_min/eig_max = %.3g), rank %d of %d kept above reltol·λ_max; design = %d points from PCG(seed_design, 3), the first seed in 1…400 with every |λ| ≥ %g·λ_max%s; x, y from PCG(seed_xy, 1|2) with ties overwritten. Jacobi: %d sweeps, max|KV−VΛ| = %.2g, max|VᵀV−I| = %.2g, max|K₊ − K K₊^† K| = %.2g.",
		how, psd, res.w[0]/res.w[len(res.w)-1], res.rank, nD, nD, gapTol,
		map[bool]string{true: " and λ_min < 0", false: ""}[res.gc.wantIndef[res.bi]],
		res.sweeps, res.eigRes, res.eigOrth, res.plusCheck)
}

func main() {
	out := flag.String("out", "testdata/golden", "output directory")
	only := flag.String("group", "", "only this group (for development)")
	ardOnly := flag.Bool("ard", false, "only the ARD cases (ard_*.json)")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	for _, gc := range cases() {
		if *only != "" && gc.name != *only || *ardOnly && gc.ard == nil {
			continue
		}
		for bi := range baseNames {
			t0 := time.Now()
			res, err := run(gc, bi)
			if err != nil {
				log.Fatal(err)
			}
			path := filepath.Join(*out, gc.file()+"_"+res.kb.name+".json")
			if err := atomicfile.Write(path, []byte(res.json()), 0o644); err != nil {
				log.Fatal(err)
			}
			fmt.Fprintf(os.Stderr, "%-28s seed_design=%-3d eig_min=%-11.4g eig_max=%-8.4g kept_min=%-9.3g rank=%2d acc avg=%.1e max=%.1e plus=%.1e  avg∈[%.3g,%.3g] max∈[%.3g,%.3g] %v\n",
				filepath.Base(path), res.seedD, res.w[0], res.w[nD-1], res.keptMin, res.rank,
				res.accAvg, res.accMax, res.accPlus, minOf(res.avg), maxOf(res.avg), minOf(res.max), maxOf(res.max), time.Since(t0).Round(time.Millisecond))
		}
	}
}

func minOf(m [][]float64) float64 {
	v := math.Inf(1)
	for _, r := range m {
		for _, x := range r {
			v = math.Min(v, x)
		}
	}
	return v
}

func maxOf(m [][]float64) float64 {
	v := math.Inf(-1)
	for _, r := range m {
		for _, x := range r {
			v = math.Max(v, x)
		}
	}
	return v
}

// nystrom returns k_plus on X×Y and K₊ on D×D from K = k_max(D, D)
// (row-major), k_max(X, D) and k_max(D, Y), the indices of the kept
// eigenvalues (ascending, above relTol·λ_max), and max|K₊ − K K₊^† K|.
// k_plus(x, y) = z_x·z_y with z = Λ_r^{-1/2} Q_rᵀ a; K₊ = Q_r Λ_r Q_rᵀ.
func nystrom(K []float64, axD, aDy [][]float64) (plus, pdd [][]float64, kept []int, check float64) {
	w, V, _ := jacobiEig(K, nD)
	lmax := w[nD-1]
	for i, l := range w {
		if l > relTol*lmax {
			kept = append(kept, i)
		}
	}
	proj := func(a func(k int) float64) []float64 {
		z := make([]float64, len(kept))
		for t, i := range kept {
			var s sum
			for k := 0; k < nD; k++ {
				s.add(V[k*nD+i] * a(k))
			}
			z[t] = s.value() / math.Sqrt(w[i])
		}
		return z
	}
	dot := func(a, b []float64) float64 {
		var s sum
		for i := range a {
			s.add(a[i] * b[i])
		}
		return s.value()
	}
	zx := make([][]float64, len(axD))
	for i := range axD {
		zx[i] = proj(func(k int) float64 { return axD[i][k] })
	}
	zy := make([][]float64, len(aDy[0]))
	for j := range zy {
		zy[j] = proj(func(k int) float64 { return aDy[k][j] })
	}
	plus = make([][]float64, len(zx))
	for i := range zx {
		plus[i] = make([]float64, len(zy))
		for j := range zy {
			plus[i][j] = dot(zx[i], zy[j])
		}
	}
	zd := make([][]float64, nD)
	for k := range zd {
		zd[k] = proj(func(l int) float64 { return K[l*nD+k] })
	}
	pdd = make([][]float64, nD)
	for a := 0; a < nD; a++ {
		pdd[a] = make([]float64, nD)
		for b := 0; b < nD; b++ {
			var s sum
			for _, i := range kept {
				s.add(w[i] * V[a*nD+i] * V[b*nD+i])
			}
			pdd[a][b] = s.value()
			check = math.Max(check, math.Abs(pdd[a][b]-dot(zd[a], zd[b])))
		}
	}
	return plus, pdd, kept, check
}

func maxDiff(a, b [][]float64) float64 {
	m := 0.0
	for i := range a {
		for j := range a[i] {
			m = math.Max(m, math.Abs(a[i][j]-b[i][j]))
		}
	}
	return m
}
