package orbit

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// checkAmbient refuses the dimension d of the space a group name acts in
// on some of its coordinates (OnCoords, and Parse before it builds the
// group) outside [1, MaxDim].
func checkAmbient(name string, d int) error {
	if d < 1 || d > MaxDim {
		return invalid("%s on coordinates of R^d: d = %d outside [1, %d] (orbit.MaxDim)", name, d, MaxDim)
	}
	return nil
}

// OnCoords returns the group that acts on R^d by g on the coordinates
// coords and as the identity on the others: coordinate j of g's points is
// coordinate coords[j] of the result's (g acts on R^k, k = len(coords) =
// g.Dim(); the k indices are distinct, in [0, d), in any order). Real
// studies mix symmetric parameters (four identical layer widths) with
// others (a learning rate); this declares a symmetry of the first kind
// only.
//
// The result implements Embedded (Inner returns g and a copy of coords)
// and passes through the capabilities of g that hold for the embedding,
// with x_S = (x_coords[0], …, x_coords[k−1]) and x_R the other
// coordinates in increasing order:
//
//	Finite, RangeActor,  g_i acts on x_S, x_R is copied; the same element
//	PackedActor          indices, Inverse and Order as g
//	Distancer            d² = d_G(x_S, y_S)² + ‖x_R − y_R‖²
//	Canonicalizer        φ(x) = (φ_G(x_S), x_R), CanonicalDim = g's + d − k
//	Aligner              g*·y_S on the coordinates, y_R copied
//	Discretizer          g's nodes on x_S, x_R copied (continuous g)
//	Isometric            if g declares it (continuous g)
//
// and CoordinateMapper always (the core implements it, so no capability
// bit is needed): g's classes and freedoms (CoordinateMaps(g), the safe
// rule if g has none) on the coordinates coords, every other coordinate
// its own class with any affine map (the group is the identity there),
// and never Circular, Segmenter or CoordinateGroup, whose closed forms
// concern the whole space (the kernel package reaches g's through
// Embedded instead). Every method costs g's on R^k plus O(d) and, like
// g's, allocates nothing after warm-up (gather buffers are pooled).
//
// An OnCoords group given to OnCoords is flattened: the result embeds its
// inner group directly. coords = 0, 1, …, d−1 in order (k = d) returns g
// itself.
//
// Name is "G@[c0,c1,…]/d", e.g. "hyperoctahedral(3)@[0,2,3]/5".
//
// Errors wrap ErrInvalid, decided before anything proportional to d is
// allocated: a nil g (IsNil), d outside [1, MaxDim], len(coords) ≠ g.Dim(),
// an index outside [0, d), or a repeated index.
func OnCoords(g Group, d int, coords []int) (Group, error) {
	if IsNil(g) {
		return nil, invalid("a group on coordinates needs a group, got nil")
	}
	if err := Check(g); err != nil {
		return nil, err
	}
	if err := checkAmbient(g.Name(), d); err != nil {
		return nil, err
	}
	k := g.Dim()
	if len(coords) != k {
		return nil, invalid("%s acts on %d coordinates, but %d are listed", g.Name(), k, len(coords))
	}
	for j, c := range coords {
		if c < 0 || c >= d {
			return nil, invalid("%s on coordinates of R^%d: coords[%d] = %d outside [0, %d)", g.Name(), d, j, c, d)
		}
	}
	sorted := slices.Clone(coords)
	slices.Sort(sorted)
	for j := 1; j < k; j++ {
		if sorted[j] == sorted[j-1] {
			a := slices.Index(coords, sorted[j])
			b := a + 1 + slices.Index(coords[a+1:], sorted[j])
			return nil, invalid("%s on coordinates of R^%d: coordinate %d is listed twice (coords[%d] and coords[%d])", g.Name(), d, sorted[j], a, b)
		}
	}
	if k == d && slices.Equal(coords, sorted) {
		return g, nil
	}
	cs := slices.Clone(coords)
	if e, ok := g.(Embedded); ok {
		// g = h on coordinates ic of R^k: h acts on coords[ic[j]] of R^d.
		h, ic := e.Inner()
		for j, c := range ic {
			ic[j] = cs[c]
		}
		g, cs = h, ic
		k = len(cs)
		if k == d && slices.IsSorted(cs) {
			return g, nil
		}
		sorted = slices.Sorted(slices.Values(cs))
	}
	c := &onCoords{g: g, d: d, k: k, coords: cs, n: -1}
	c.rest = make([]int, 0, d-k)
	next := 0
	for _, s := range sorted {
		for ; next < s; next++ {
			c.rest = append(c.rest, next)
		}
		next = s + 1
	}
	for ; next < d; next++ {
		c.rest = append(c.rest, next)
	}
	var b strings.Builder
	b.WriteString(g.Name())
	b.WriteString("@[")
	for j, v := range cs {
		if j > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v))
	}
	fmt.Fprintf(&b, "]/%d", d)
	c.name = b.String()
	c.fin, _ = g.(Finite)
	c.ra, _ = g.(RangeActor)
	c.pa, _ = g.(PackedActor)
	c.dist, _ = g.(Distancer)
	c.canon, _ = g.(Canonicalizer)
	c.align, _ = g.(Aligner)
	c.disc, _ = g.(Discretizer)
	if o := g.Order(); o != nil {
		c.n = intOrder(o)
	}
	return onCoordsTypes[onCoordsCaps(g)](c), nil
}

var _ Embedded = (*onCoords)(nil)

// Capabilities of an OnCoords group, one bit each; onCoordsTypes holds a
// type for every valid set (gen_oncoords.go). A new optional interface of
// this package gets a bit here, a mixin below, a row in the generator's
// caps and a case in onCoordsCaps — or a line in OnCoords's documentation
// saying why an embedding must not declare it, or (CoordinateMapper) a
// method on onCoords itself when every embedding declares it.
const (
	capFinite = 1 << iota // Finite, RangeActor and PackedActor
	capDist               // Distancer
	capCanon              // Canonicalizer
	capAlign              // Aligner
	capDisc               // Discretizer (continuous groups only)
	capIso                // Isometric (continuous groups only)
)

//go:generate go run gen_oncoords.go

// onCoordsCaps returns the capabilities of g that its embedding passes
// through.
func onCoordsCaps(g Group) int {
	var caps int
	if _, ok := g.(Finite); ok {
		caps |= capFinite
	}
	if _, ok := g.(Distancer); ok {
		caps |= capDist
	}
	if _, ok := g.(Canonicalizer); ok {
		caps |= capCanon
	}
	if _, ok := g.(Aligner); ok {
		caps |= capAlign
	}
	if caps&capFinite == 0 {
		if _, ok := g.(Discretizer); ok {
			caps |= capDisc
		}
		if _, ok := g.(Isometric); ok {
			caps |= capIso
		}
	}
	return caps
}

// onCoords is the core of an OnCoords group: g acting on the coordinates
// coords of R^d, the identity on rest (ascending). The capability mixins
// below add the methods of g's optional interfaces; the generated types
// combine them.
type onCoords struct {
	g      Group
	d, k   int
	coords []int
	rest   []int
	name   string
	n      int // |G| as an int, −1 if it overflows or g is continuous
	// g's optional interfaces (nil where g lacks one).
	fin   Finite
	ra    RangeActor
	pa    PackedActor
	dist  Distancer
	canon Canonicalizer
	align Aligner
	disc  Discretizer
}

func (c *onCoords) Name() string    { return c.name }
func (c *onCoords) Dim() int        { return c.d }
func (c *onCoords) Order() *big.Int { return c.g.Order() }

// Inner returns the inner group and a copy of the coordinates it acts on.
func (c *onCoords) Inner() (Group, []int) { return c.g, slices.Clone(c.coords) }

// gather writes x_S (the inner coordinates of x, in inner order) to xs.
func (c *onCoords) gather(xs, x []float64) {
	for j, k := range c.coords {
		xs[j] = x[k]
	}
}

// scatter writes ys on the inner coordinates of dst and copies the other
// coordinates from x.
func (c *onCoords) scatter(dst, ys, x []float64) {
	for j, k := range c.coords {
		dst[k] = ys[j]
	}
	for _, k := range c.rest {
		dst[k] = x[k]
	}
}

// restDist2 is ‖x_R − y_R‖².
func (c *onCoords) restDist2(x, y []float64) float64 {
	var s float64
	for _, k := range c.rest {
		t := x[k] - y[k]
		s += t * t
	}
	return s
}

// bufPool holds the gather buffers of OnCoords groups: the inner group is
// called through an interface, so stack arrays would escape anyway.
var bufPool = sync.Pool{New: func() any { return new([]float64) }}

func getBuf(n int) (*[]float64, []float64) {
	p := bufPool.Get().(*[]float64)
	if cap(*p) < n {
		*p = make([]float64, n)
	}
	return p, (*p)[:n]
}

func putBuf(p *[]float64) { bufPool.Put(p) }

// ocFinite adds Finite, RangeActor and PackedActor.
type ocFinite struct{ c *onCoords }

// ActTo writes g_i·x: g_i on x_S, x_R copied.
func (m ocFinite) ActTo(dst, x []float64, i int) {
	c := m.c
	checkLen(c.name, dst, x, c.d)
	checkIndex(c.name, i, c.n)
	h, buf := getBuf(2 * c.k)
	xs, ys := buf[:c.k], buf[c.k:]
	c.gather(xs, x)
	c.fin.ActTo(ys, xs, i)
	c.scatter(dst, ys, x)
	putBuf(h)
}

// Inverse returns the inner group's inverse index.
func (m ocFinite) Inverse(i int) int {
	checkIndex(m.c.name, i, m.c.n)
	return m.c.fin.Inverse(i)
}

// rangeChunk is the number of elements ActRangeTo asks the inner group
// for at once.
const rangeChunk = 64

// ActRangeTo writes g_i·x for i = lo … hi−1, through the inner group's
// RangeActor when it has one (the same values as ActTo).
func (m ocFinite) ActRangeTo(dst, x []float64, lo, hi int) {
	c := m.c
	d, k := c.d, c.k
	checkRange(c.name, dst, x, lo, hi, c.n, d)
	h, buf := getBuf(k + rangeChunk*k)
	xs, ys := buf[:k], buf[k:]
	c.gather(xs, x)
	for a := lo; a < hi; a += rangeChunk {
		b := min(a+rangeChunk, hi)
		if c.ra != nil {
			c.ra.ActRangeTo(ys[:(b-a)*k], xs, a, b)
		} else {
			for i := a; i < b; i++ {
				c.fin.ActTo(ys[(i-a)*k:(i-a+1)*k], xs, i)
			}
		}
		for i := a; i < b; i++ {
			row, yi := dst[(i-lo)*d:(i-lo+1)*d], ys[(i-a)*k:(i-a+1)*k]
			copy(row, x) // x_R, and x_S overwritten: scatter's values, one block copy
			for j, kk := range c.coords {
				row[kk] = yi[j]
			}
		}
	}
	putBuf(h)
}

// ActPackedTo writes g_lo·x … g_{hi−1}·x lane-major (PackedActor): the
// inner group's images on the coordinates coords, through its own
// PackedActor when it has one (else ActRangeTo or ActTo, transposed), and
// x_R in every lane of the others.
func (m ocFinite) ActPackedTo(dst, x []float64, lo, hi, w int) {
	c := m.c
	d, k := c.d, c.k
	checkPacked(c.name, dst, x, lo, hi, w, c.n, d)
	h, buf := getBuf(k + w*k)
	xs, ys := buf[:k], buf[k:]
	c.gather(xs, x)
	if c.pa != nil {
		c.pa.ActPackedTo(ys, xs, lo, hi, w)
		for j, kk := range c.coords {
			copy(dst[kk*w:(kk+1)*w], ys[j*w:(j+1)*w])
		}
	} else {
		r := hi - lo
		if c.ra != nil {
			c.ra.ActRangeTo(ys[:r*k], xs, lo, hi)
		} else {
			for i := lo; i < hi; i++ {
				c.fin.ActTo(ys[(i-lo)*k:(i-lo+1)*k], xs, i)
			}
		}
		for j, kk := range c.coords {
			col := dst[kk*w : (kk+1)*w]
			for l := range r {
				col[l] = ys[l*k+j]
			}
			for l := r; l < w; l++ {
				col[l] = col[r-1]
			}
		}
	}
	for _, kk := range c.rest {
		col := dst[kk*w : (kk+1)*w]
		for l := range col {
			col[l] = x[kk]
		}
	}
	putBuf(h)
}

// ocDist adds Distancer.
type ocDist struct{ c *onCoords }

// OrbitDist2 returns d_G(x_S, y_S)² + ‖x_R − y_R‖².
func (m ocDist) OrbitDist2(x, y []float64) float64 {
	c := m.c
	checkLen2(c.name, x, y, c.d)
	h, buf := getBuf(2 * c.k)
	xs, ys := buf[:c.k], buf[c.k:]
	c.gather(xs, x)
	c.gather(ys, y)
	s := c.dist.OrbitDist2(xs, ys) + c.restDist2(x, y)
	putBuf(h)
	return s
}

// ocCanon adds Canonicalizer.
type ocCanon struct{ c *onCoords }

// CanonicalDim is the inner group's plus the d − k other coordinates.
func (m ocCanon) CanonicalDim() int { return m.c.canon.CanonicalDim() + m.c.d - m.c.k }

// CanonicalTo writes (φ_G(x_S), x_R) into dst.
func (m ocCanon) CanonicalTo(dst, x []float64) {
	c := m.c
	cn := c.canon
	cd := cn.CanonicalDim()
	if len(dst) != cd+c.d-c.k || len(x) != c.d {
		panic(fmt.Sprintf("orbit: %s: lengths dst %d, x %d, want %d, %d", c.name, len(dst), len(x), cd+c.d-c.k, c.d))
	}
	h, xs := getBuf(c.k)
	c.gather(xs, x)
	cn.CanonicalTo(dst[:cd], xs)
	for j, k := range c.rest {
		dst[cd+j] = x[k]
	}
	putBuf(h)
}

// ocAlign adds Aligner.
type ocAlign struct{ c *onCoords }

// AlignTo writes g*·y (the inner group's alignment of y_S with x_S, y_R
// copied) and returns ‖x − g*·y‖².
func (m ocAlign) AlignTo(dst, x, y []float64) float64 {
	c := m.c
	checkAlign(c.name, dst, x, y, c.d)
	h, buf := getBuf(3 * c.k)
	xs, ys, as := buf[:c.k], buf[c.k:2*c.k], buf[2*c.k:]
	c.gather(xs, x)
	c.gather(ys, y)
	c.align.AlignTo(as, xs, ys)
	c.scatter(dst, as, y)
	putBuf(h)
	return dist2(x, dst)
}

// ocDisc adds Discretizer.
type ocDisc struct{ c *onCoords }

// OrbitTo writes the inner group's m nodes of x_S on the inner
// coordinates of each row, x_R copied.
func (m ocDisc) OrbitTo(dst, x []float64, n int) {
	c := m.c
	d, k := c.d, c.k
	if n < 1 || len(dst) != n*d || len(x) != d {
		panic(fmt.Sprintf("orbit: %s: OrbitTo lengths dst %d, x %d, m %d", c.name, len(dst), len(x), n))
	}
	h, buf := getBuf(k + n*k)
	xs, ys := buf[:k], buf[k:]
	c.gather(xs, x)
	c.disc.OrbitTo(ys, xs, n)
	for j := range n {
		c.scatter(dst[j*d:(j+1)*d], ys[j*k:(j+1)*k], x)
	}
	putBuf(h)
}

// ocIso adds Isometric.
type ocIso struct{ c *onCoords }

// Isometric is a marker: the inner group's elements are isometries, and
// so are their embeddings.
func (ocIso) Isometric() {}
