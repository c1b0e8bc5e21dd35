package orbit

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
)

var (
	_ Circular      = (*Rotation2DGroup)(nil)
	_ Segmenter     = (*ScalingGroup)(nil)
	_ Group         = (*Rotation2DGroup)(nil)
	_ Distancer     = (*Rotation2DGroup)(nil)
	_ Canonicalizer = (*Rotation2DGroup)(nil)
	_ Discretizer   = (*Rotation2DGroup)(nil)
	_ Group         = (*ScalingGroup)(nil)
	_ Distancer     = (*ScalingGroup)(nil)
	_ Discretizer   = (*ScalingGroup)(nil)
	_ Segmenter     = (*ScalingDirGroup)(nil)
	_ Distancer     = (*ScalingDirGroup)(nil)
	_ Canonicalizer = (*ScalingDirGroup)(nil)
	_ Discretizer   = (*ScalingDirGroup)(nil)
)

// ---------------------------------------------------------------- rotations

// Rotation2DGroup is SO(2), the planar rotations acting on R².
type Rotation2DGroup struct{}

// Rotation2D returns SO(2) acting on R². The error is always nil (the
// signature is the other constructors').
func Rotation2D() (*Rotation2DGroup, error) { return &Rotation2DGroup{}, nil }

func (g *Rotation2DGroup) Name() string    { return "rotation2d" }
func (g *Rotation2DGroup) Isometric()      {}
func (g *Rotation2DGroup) Circular()       {}
func (g *Rotation2DGroup) Dim() int        { return 2 }
func (g *Rotation2DGroup) Order() *big.Int { return nil }

// OrbitDist2 returns (‖x‖ − ‖y‖)².
func (g *Rotation2DGroup) OrbitDist2(x, y []float64) float64 {
	checkLen2("rotation2d", x, y, 2)
	r, s := math.Hypot(x[0], x[1]), math.Hypot(y[0], y[1])
	if math.IsInf(r, 1) && math.IsInf(s, 1) {
		// Both norms overflow (finite coordinates past MaxFloat64/√2, or
		// an infinite one): at half scale, exact, finite coordinates give
		// finite norms, whose difference Inf − Inf was NaN.
		t := math.Hypot(x[0]/2, x[1]/2) - math.Hypot(y[0]/2, y[1]/2)
		return 4 * (t * t)
	}
	t := r - s
	return t * t
}

func (g *Rotation2DGroup) CanonicalDim() int { return 1 }

// CanonicalTo writes ‖x‖ into dst[0].
func (g *Rotation2DGroup) CanonicalTo(dst, x []float64) {
	if len(dst) != 1 || len(x) != 2 {
		panic(fmt.Sprintf("orbit: rotation2d: lengths dst %d, x %d, want 1, 2", len(dst), len(x)))
	}
	dst[0] = math.Hypot(x[0], x[1])
}

// OrbitTo writes the rotations of x by θ_j = 2πj/m, j = 0…m−1 (row 0 is x
// itself): the m-point trapezoidal rule for the uniform measure on the
// circle, exact for trigonometric polynomials of degree < m.
func (g *Rotation2DGroup) OrbitTo(dst, x []float64, m int) {
	if m < 1 || len(dst) != 2*m || len(x) != 2 {
		panic(fmt.Sprintf("orbit: rotation2d: OrbitTo lengths dst %d, x %d, m %d", len(dst), len(x), m))
	}
	for j := 0; j < m; j++ {
		s, c := math.Sincos(2 * math.Pi * float64(j) / float64(m))
		if j == 0 {
			s, c = 0, 1
		}
		dst[2*j] = c*x[0] - s*x[1]
		dst[2*j+1] = s*x[0] + c*x[1]
	}
}

// ---------------------------------------------------------------- scaling

// ScalingGroup is the multiplicative group x ↦ c·x (c > 0) with orbits
// taken inside a box [lo, hi] of positive coordinates: the orbit of x is the
// segment {c·x : c ∈ C(x)} with C(x) = [max_k lo_k/x_k, min_k hi_k/x_k].
//
// For x outside the box (which a box-constrained optimizer should never
// propose), C(x) is the smallest interval holding 1 and the scalings that
// bring x into the box ({1} alone if none does, e.g. for a coordinate ≤ 0,
// or if those scalings overflow float64, for x of subnormal coordinates):
// x stays in its own orbit and distances stay finite.
type ScalingGroup struct {
	lo, hi []float64
}

// Scaling returns the scaling group on the box [lo, hi] ⊂ R^d,
// d = len(lo) = len(hi). The box must satisfy 0 < lo_k < hi_k < ∞ with
// ‖hi‖² finite (the paper's box is [0.1, 10]²); lo and hi are copied.
func Scaling(lo, hi []float64) (*ScalingGroup, error) {
	return newScaling("scaling", lo, hi)
}

// newScaling checks the box for the group named name and copies it.
func newScaling(name string, lo, hi []float64) (*ScalingGroup, error) {
	if len(lo) < 1 || len(lo) != len(hi) {
		return nil, invalid("%s needs box bounds of equal length d ≥ 1, got %d and %d", name, len(lo), len(hi))
	}
	if err := checkDim(name, len(lo)); err != nil {
		return nil, err
	}
	for k := range lo {
		if !(lo[k] > 0 && lo[k] < hi[k] && !math.IsInf(hi[k], 1)) {
			return nil, invalid("%s needs a box with 0 < lo < hi < ∞, got [%g, %g] in coordinate %d", name, lo[k], hi[k], k)
		}
	}
	// Inner products and squared norms of points of the box must be
	// finite (PointOrbitDist2's projection, ScalingDir's radius).
	var hh float64
	for _, v := range hi {
		hh += v * v
	}
	if math.IsInf(hh, 1) {
		return nil, invalid("%s needs a box whose upper corner's squared norm ‖hi‖² is finite (coordinates up to about 1e153), got coordinates up to %g", name, slices.Max(hi))
	}
	return &ScalingGroup{lo: append([]float64(nil), lo...), hi: append([]float64(nil), hi...)}, nil
}

// Name is "scaling(d,lo,hi)" for a cube, "scaling(d,[lo…],[hi…])" otherwise.
func (g *ScalingGroup) Name() string {
	d := len(g.lo)
	if d == 0 {
		return "scaling(0)" // the zero value, which no constructor returns
	}
	cube := true
	for k := range g.lo {
		cube = cube && g.lo[k] == g.lo[0] && g.hi[k] == g.hi[0]
	}
	if cube {
		return fmt.Sprintf("scaling(%d,%g,%g)", d, g.lo[0], g.hi[0])
	}
	f := func(v []float64) string {
		s := make([]string, len(v))
		for k, t := range v {
			s[k] = fmt.Sprintf("%g", t)
		}
		return "[" + strings.Join(s, " ") + "]"
	}
	return fmt.Sprintf("scaling(%d,%s,%s)", d, f(g.lo), f(g.hi))
}

func (g *ScalingGroup) Dim() int        { return len(g.lo) }
func (g *ScalingGroup) Order() *big.Int { return nil }

// Box returns copies of the box bounds.
func (g *ScalingGroup) Box() (lo, hi []float64) {
	return append([]float64(nil), g.lo...), append([]float64(nil), g.hi...)
}

// Interval returns C(x) = [a, b], the scalings c whose c·x forms the orbit
// of x (see ScalingGroup).
func (g *ScalingGroup) Interval(x []float64) (a, b float64) {
	a, b, _, _ = g.IntervalFaces(x)
	return a, b
}

// IntervalFaces returns C(x) = [a, b] as Interval does, and the box faces
// that set its ends: a = lo_ka/x_ka and b = hi_kb/x_kb, so that
// ∂a/∂x_k = −a/x_k·[k = ka] and ∂b/∂x_k = −b/x_k·[k = kb] wherever the
// faces are unique (ties are the kinks of a and b). An end that does not
// come from a face (x outside the box, so the end is 1) has index −1 and
// zero derivative. On ties the lowest coordinate is reported.
func (g *ScalingGroup) IntervalFaces(x []float64) (a, b float64, ka, kb int) {
	if len(x) != len(g.lo) {
		panic(fmt.Sprintf("orbit: %s: length x %d, want %d", g.Name(), len(x), len(g.lo)))
	}
	a, b = 0, math.Inf(1)
	ka, kb = -1, -1
	for k, v := range x {
		if !(v > 0) {
			return 1, 1, -1, -1
		}
		if t := g.lo[k] / v; t > a {
			a, ka = t, k
		}
		if t := g.hi[k] / v; t < b {
			b, kb = t, k
		}
	}
	if a > b || math.IsInf(a, 1) { // no scaling, or none representable (x tiny: lo/x overflows)
		return 1, 1, -1, -1
	}
	if a > 1 {
		a, ka = 1, -1
	}
	if b < 1 {
		b, kb = 1, -1
	}
	return a, b, ka, kb
}

// OrbitDist2 is SegmentDist2: the orbit distance of the paper's
// definition, min over both orbits' points.
func (g *ScalingGroup) OrbitDist2(x, y []float64) float64 { return g.SegmentDist2(x, y) }

var _ PointDistancer = (*ScalingGroup)(nil)

// PointOrbitDist2 returns the squared distance from x to the orbit of p,
// the segment {c·p : c ∈ C(p)}: the projection of x on p's ray clamped
// to C(p), in O(d). Unlike SegmentDist2 it is not symmetric, and it does
// not shrink toward the box's lower corner, where every orbit's low end
// lies.
func (g *ScalingGroup) PointOrbitDist2(x, p []float64) float64 {
	checkLen2("scaling", x, p, len(g.lo))
	a, b := g.Interval(p)
	// ⟨x, p⟩/‖p‖², scaled where the squares could overflow or underflow
	// (projRatios): x = p = (1e155, 1) gave inf/inf, a NaN distance, and
	// a point was not near itself.
	r, _, ok, _ := projRatios(x, p)
	c := a
	if ok {
		c = min(max(r, a), b)
	}
	var d2 float64
	for k := range p {
		t := x[k] - c*p[k]
		d2 += t * t
	}
	return d2
}

// SegmentDist2 returns min ‖c·x − c'·y‖² over c ∈ C(x) = [a1, b1],
// c' ∈ C(y) = [a2, b2], exactly (up to rounding), in O(d). The objective f
// is a convex quadratic with f(t·c, t·c') = t²·f(c, c'), so from any point
// of the rectangle with f > 0, moving toward the origin decreases f: the
// minimum lies where that move leaves the rectangle, on the edge c = a1 or
// c' = a2 (if f = 0 somewhere, the whole ray of zeros through that point
// reaches those edges too). On each edge f is a one-dimensional quadratic,
// minimized by clamping its stationary point.
func (g *ScalingGroup) SegmentDist2(x, y []float64) float64 {
	checkLen2("scaling", x, y, len(g.lo))
	a1, b1 := g.Interval(x)
	a2, b2 := g.Interval(y)
	ry, rx, okY, okX := projRatios(x, y)
	// c = a1, c' free in C(y).
	cp := a2
	if okY {
		cp = clamp(a1*ry, a2, b2)
	}
	d1 := scaledDist2(x, y, a1, cp)
	// c' = a2, c free in C(x).
	c := a1
	if okX {
		c = clamp(a2*rx, a1, b1)
	}
	return math.Min(d1, scaledDist2(x, y, c, a2))
}

// projRatios returns ⟨x, y⟩/‖y‖² and ⟨x, y⟩/‖x‖² (okY, okX: the
// denominator is positive). Where a point's largest |coordinate| lies
// outside [2⁻⁴⁰⁰, 2⁴⁰⁰], whose squares could underflow or overflow (a
// point at 1e-170 far below the box: ‖x‖² = 1e-340, subnormal, gave a
// distance of 0.01 for orbits that meet), both points are first scaled by
// powers of two (exactly) and the ratios scaled back; otherwise the
// plain sums.
func projRatios(x, y []float64) (ry, rx float64, okY, okX bool) {
	ex, ey := topExp(x), topExp(y)
	if ex >= -400 && ex <= 400 && ey >= -400 && ey <= 400 {
		var xx, yy, xy float64
		for k := range x {
			xx += x[k] * x[k]
			yy += y[k] * y[k]
			xy += x[k] * y[k]
		}
		return xy / yy, xy / xx, yy > 0, xx > 0
	}
	var xx, yy, xy float64
	for k := range x {
		u, v := math.Ldexp(x[k], -ex), math.Ldexp(y[k], -ey)
		xx += u * u
		yy += v * v
		xy += u * v
	}
	return math.Ldexp(xy/yy, ex-ey), math.Ldexp(xy/xx, ey-ex), yy > 0, xx > 0
}

// topExp is the binary exponent of the largest |v| of x (0 for a zero x).
func topExp(x []float64) int {
	var top float64
	for _, v := range x {
		top = max(top, math.Abs(v))
	}
	if top == 0 || math.IsInf(top, 0) || math.IsNaN(top) {
		return 0
	}
	return math.Ilogb(top)
}

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	if math.IsNaN(v) {
		return lo
	}
	return v
}

// scaledDist2 returns ‖c·x − c'·y‖².
func scaledDist2(x, y []float64, c, cp float64) float64 {
	var s float64
	for k := range x {
		t := c*x[k] - cp*y[k]
		s += t * t
	}
	return s
}

// OrbitTo writes c_j·x for j = 0…m−1 with log c_j at the midpoints of m
// equal cells of [log a, log b], C(x) = [a, b]: the midpoint rule for the
// Haar measure dc/c normalized on C(x). When a = b every row is a·x.
func (g *ScalingGroup) OrbitTo(dst, x []float64, m int) {
	d := len(g.lo)
	if m < 1 || len(dst) != m*d || len(x) != d {
		panic(fmt.Sprintf("orbit: %s: OrbitTo lengths dst %d, x %d, m %d", g.Name(), len(dst), len(x), m))
	}
	a, b := g.Interval(x)
	la, lb := math.Log(a), math.Log(b)
	for j := 0; j < m; j++ {
		c := math.Exp(la + (float64(j)+0.5)/float64(m)*(lb-la))
		row := dst[j*d : (j+1)*d]
		for k, v := range x {
			row[k] = c * v
		}
	}
}

// ScalingDirGroup is the scaling group of ScalingGroup — the same action
// x ↦ c·x, the same orbits (the rays' segments inside the box [lo, hi])
// and the same Haar measure on them, so the same orbit averages — with
// another orbit distance: the chord between the orbits' directions on the
// sphere of radius r = ‖hi‖ (the box's corner farthest from the origin),
//
//	d(x, y) = ‖φ(x) − φ(y)‖,  φ(x) = r·x/‖x‖  (φ(0) = 0),
//
// that is 2·r·sin(θ/2) for the angle θ between x and y. φ is a canonical
// map (constant on every ray, one value per ray), so k_max over this
// group is the base kernel on φ(X) and positive semi-definite (the
// paper's Proposition 1 applies to it), and d is a metric on the rays.
//
// Why: the segment distance (ScalingGroup.SegmentDist2) is attained near
// the segments' ends nearest the origin, and is not a metric. In the box
// [0.1, 10]² rays of slopes s′ < s ≤ 1 are 0.1·(s/s′ − 1)/√(1 + s²)
// apart: the diagonal is 0.71 from slope 1/11 and 7.0 from slope 1/100,
// which are 0.81 from each other, so the triangle inequality fails by a
// factor of 4.6 and the thin wedge near an axis looks far from the
// diagonal; k_max on it is indefinite and a k_plus GP keeps exploring the
// wedge. The chord is a metric and weighs directions by angle (measured
// on Scaling2d: lab/results/scalingdir).
//
// It is the group Parse calls "scalingdir". Interval, IntervalFaces,
// OrbitTo and SegmentDist2 are ScalingGroup's (k_avg integrates over the
// same segments); OrbitDist2 and CanonicalTo are the chord's.
type ScalingDirGroup struct {
	ScalingGroup
	r float64
}

// ScalingDir returns the scaling group on the box [lo, hi] with the chord
// orbit distance (see ScalingDirGroup); the box is checked as by Scaling.
func ScalingDir(lo, hi []float64) (*ScalingDirGroup, error) {
	g, err := newScaling("scalingdir", lo, hi)
	if err != nil {
		return nil, err
	}
	var r float64
	for _, v := range hi {
		r = math.Hypot(r, v)
	}
	return &ScalingDirGroup{ScalingGroup: *g, r: r}, nil
}

// Name is the scaling group's name with "scalingdir" for "scaling".
func (g *ScalingDirGroup) Name() string {
	return "scalingdir" + strings.TrimPrefix(g.ScalingGroup.Name(), "scaling")
}

// Radius is r = ‖hi‖, the radius of the sphere φ maps onto.
func (g *ScalingDirGroup) Radius() float64 { return g.r }

// CanonicalDim is d.
func (g *ScalingDirGroup) CanonicalDim() int { return len(g.lo) }

// CanonicalTo writes φ(x) = r·x/‖x‖ into dst (0 for x = 0; NaN where x
// has an infinite or NaN coordinate).
func (g *ScalingDirGroup) CanonicalTo(dst, x []float64) {
	if len(dst) != len(g.lo) || len(x) != len(g.lo) {
		panic(fmt.Sprintf("orbit: %s: CanonicalTo lengths dst %d, x %d, want %d", g.Name(), len(dst), len(x), len(g.lo)))
	}
	m, f := g.factors(x)
	for k, v := range x {
		dst[k] = (v / m) * f
	}
}

// factors returns m = max_k |x_k| and f = r/‖x/m‖, so that φ(x)_k =
// (x_k/m)·f with no overflow or underflow for any finite x ≠ 0 (x = 0
// gives m = 1, f = 0; an infinite or NaN coordinate gives NaN).
func (g *ScalingDirGroup) factors(x []float64) (m, f float64) {
	for _, v := range x {
		if a := math.Abs(v); a > m || math.IsNaN(a) {
			m = a
		}
	}
	switch {
	case m == 0:
		return 1, 0
	case math.IsInf(m, 1) || math.IsNaN(m):
		return math.NaN(), math.NaN()
	}
	var ss float64
	for _, v := range x {
		t := v / m
		ss += t * t
	}
	return m, g.r / math.Sqrt(ss)
}

// OrbitDist2 returns ‖φ(x) − φ(y)‖² (see ScalingDirGroup), in O(d).
func (g *ScalingDirGroup) OrbitDist2(x, y []float64) float64 {
	checkLen2("scalingdir", x, y, len(g.lo))
	mx, fx := g.factors(x)
	my, fy := g.factors(y)
	var s float64
	for k := range x {
		t := (x[k]/mx)*fx - (y[k]/my)*fy
		s += t * t
	}
	return s
}
