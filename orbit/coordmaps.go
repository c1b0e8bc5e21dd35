package orbit

import "slices"

// Freedom is how much of a coordinatewise affine map u_k = (x_k − c_k)/s_k
// (s_k > 0) a group leaves free on a coordinate: which maps commute with
// every element of the group, A(g·x) = g·A(x), so that the same group acts
// on the mapped points. The zero value is the safest: the identity only.
type Freedom int

const (
	// FreeNone: only the identity (c = 0, s = 1) commutes — e.g. the
	// scaling groups, whose orbits are taken inside their own box.
	FreeNone Freedom = iota
	// FreeScale: any scale s about the origin (c = 0) — coordinates the
	// group flips or rotates, whose fixed point the origin is.
	FreeScale
	// FreeAffine: any centre c and scale s — coordinates the group only
	// permutes (or leaves alone).
	FreeAffine
)

func (f Freedom) String() string {
	switch f {
	case FreeNone:
		return "none"
	case FreeScale:
		return "scale"
	case FreeAffine:
		return "affine"
	}
	return "Freedom(?)"
}

// CoordMap is what a group allows the map of one coordinate.
type CoordMap struct {
	// Class: coordinates of equal Class must share one map (one c and
	// one s) — those the group mixes (permutes among themselves, or
	// rotates together). Classes are numbered 0, 1, … in order of their
	// first coordinate.
	Class int
	// Free is the freedom of the class's map; every coordinate of a class
	// reports the same.
	Free Freedom
}

// CoordinateMapper is implemented by groups that say which coordinatewise
// affine maps u_k = (x_k − c_k)/s_k commute with them: coordinates of one
// class share one map, and a class's map may shift and scale (FreeAffine),
// only scale about the origin (FreeScale) or is the identity (FreeNone).
// Inputs normalized by such a map (bo's Config.Normalize) are acted on by
// the same group. Groups without it get CoordinateMaps's safe rule.
type CoordinateMapper interface {
	Group
	// CoordinateMaps returns a fresh slice of Dim entries, one per
	// coordinate.
	CoordinateMaps() []CoordMap
}

// CoordinateMaps returns g's CoordinateMapper answer when it has one, and
// otherwise the safe rule: for a Finite group (orthogonal linear maps,
// which commute with every multiple of the identity) one class of all the
// coordinates with FreeScale (one common scale about the origin); for any
// other group one class with FreeNone (no map: nothing is known about how
// its elements act). The classes are renumbered 0, 1, … in order of their
// first coordinate. A nil group (IsNil) has none: nil; so has a caller's
// group whose Dim is negative (one Check refuses). O(d).
func CoordinateMaps(g Group) []CoordMap {
	if IsNil(g) {
		return nil
	}
	d := g.Dim()
	if d < 0 {
		return nil
	}
	var m []CoordMap
	switch t := g.(type) {
	case CoordinateMapper:
		if m = t.CoordinateMaps(); len(m) != d {
			// A malformed answer: nothing is known.
			m = oneClass(d, FreeNone)
		}
	case Finite:
		m = oneClass(d, FreeScale)
	default:
		m = oneClass(d, FreeNone)
	}
	return renumber(m)
}

// oneClass is d coordinates in one class of freedom f.
func oneClass(d int, f Freedom) []CoordMap {
	return slices.Repeat([]CoordMap{{Class: 0, Free: f}}, d)
}

// ownClasses is d coordinates each in its own class of freedom f.
func ownClasses(d int, f Freedom) []CoordMap {
	m := make([]CoordMap, d)
	for k := range m {
		m[k] = CoordMap{Class: k, Free: f}
	}
	return m
}

// renumber renumbers the classes of m 0, 1, … in order of their first
// coordinate, and gives every coordinate of a class the least freedom any
// of them reports (a group that reports two freedoms in one class gets the
// safer; an unknown Freedom counts as FreeNone).
func renumber(m []CoordMap) []CoordMap {
	id := map[int]int{}
	free := map[int]Freedom{}
	for _, c := range m {
		f := c.Free
		if f < FreeNone || f > FreeAffine {
			f = FreeNone
		}
		if _, ok := id[c.Class]; !ok {
			id[c.Class] = len(id)
			free[c.Class] = f
		}
		free[c.Class] = min(free[c.Class], f)
	}
	out := make([]CoordMap, len(m))
	for k, c := range m {
		out[k] = CoordMap{Class: id[c.Class], Free: free[c.Class]}
	}
	return out
}

var (
	_ CoordinateMapper = (*TrivialGroup)(nil)
	_ CoordinateMapper = (*SignFlipGroup)(nil)
	_ CoordinateMapper = (*PermutationGroup)(nil)
	_ CoordinateMapper = (*HyperoctahedralGroup)(nil)
	_ CoordinateMapper = (*BlockPermGroup)(nil)
	_ CoordinateMapper = (*PairedPermGroup)(nil)
	_ CoordinateMapper = (*CyclicGroup)(nil)
	_ CoordinateMapper = (*Matrices)(nil)
	_ CoordinateMapper = (*Rotation2DGroup)(nil)
	_ CoordinateMapper = (*ScalingGroup)(nil)
	_ CoordinateMapper = (*ScalingDirGroup)(nil)
	_ CoordinateMapper = (*onCoords)(nil)
)

// CoordinateMaps: every coordinate its own class, any affine map.
func (g *TrivialGroup) CoordinateMaps() []CoordMap { return ownClasses(g.d, FreeAffine) }

// CoordinateMaps: every coordinate its own class, flipped about 0: a scale
// only.
func (g *SignFlipGroup) CoordinateMaps() []CoordMap { return ownClasses(g.d, FreeScale) }

// CoordinateMaps: one class, any affine map (permutations fix every
// constant vector).
func (g *PermutationGroup) CoordinateMaps() []CoordMap { return oneClass(g.bl.m, FreeAffine) }

// CoordinateMaps: one class, a scale only.
func (g *HyperoctahedralGroup) CoordinateMaps() []CoordMap { return oneClass(g.bl.m, FreeScale) }

// CoordinateMaps: coordinate j of every block in class j, any affine map.
func (g *BlockPermGroup) CoordinateMaps() []CoordMap {
	m := make([]CoordMap, g.Dim())
	for k := range m {
		m[k] = CoordMap{Class: k % g.bl.b, Free: FreeAffine}
	}
	return m
}

// CoordinateMaps: the x half one class, the y half another, any affine
// map.
func (g *PairedPermGroup) CoordinateMaps() []CoordMap {
	m := make([]CoordMap, g.Dim())
	for k := range m {
		m[k] = CoordMap{Class: k / g.bl.m, Free: FreeAffine}
	}
	return m
}

// CoordinateMaps: one class, any affine map.
func (g *CyclicGroup) CoordinateMaps() []CoordMap { return oneClass(g.d, FreeAffine) }

// CoordinateMaps: coordinates i and j share a class when some element has
// a nonzero entry (i, j) (the connected components of that graph; an
// entry that is zero up to the closure's rounding counts as nonzero, which
// only merges classes), each a scale only: a diagonal map commutes with M
// exactly when it is constant on those classes. No shift is allowed even
// where the elements permute coordinates (conservative: the entries are
// computed, not declared).
func (g *Matrices) CoordinateMaps() []CoordMap {
	d := g.d
	parent := make([]int, d)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	dd := d * d
	for e := range len(g.inv) {
		M := g.elem[e*dd : (e+1)*dd]
		for i := range d {
			for j := range d {
				if M[i*d+j] != 0 {
					if a, b := find(i), find(j); a != b {
						parent[max(a, b)] = min(a, b)
					}
				}
			}
		}
	}
	m := make([]CoordMap, d)
	for k := range m {
		m[k] = CoordMap{Class: find(k), Free: FreeScale}
	}
	return renumber(m)
}

// CoordinateMaps: one class, a scale only (the rotations fix the origin).
func (g *Rotation2DGroup) CoordinateMaps() []CoordMap { return oneClass(2, FreeScale) }

// CoordinateMaps: no map. The scalings x ↦ c·x commute with every
// diagonal map, but the orbits are taken inside the group's box [lo, hi],
// in the coordinates it was built with: the same group on mapped points
// would have the wrong box. (ScalingDirGroup inherits this.)
func (g *ScalingGroup) CoordinateMaps() []CoordMap { return oneClass(len(g.lo), FreeNone) }

// CoordinateMaps: the inner group's classes and freedoms on its
// coordinates (CoordinateMaps of the inner group, the safe rule if it has
// none), every other coordinate its own class with any affine map (the
// group is the identity there).
func (c *onCoords) CoordinateMaps() []CoordMap {
	in := CoordinateMaps(c.g)
	m := make([]CoordMap, c.d)
	nin := 0
	for j, k := range c.coords {
		m[k] = in[j]
		nin = max(nin, in[j].Class+1)
	}
	for j, k := range c.rest {
		m[k] = CoordMap{Class: nin + j, Free: FreeAffine}
	}
	return renumber(m)
}
