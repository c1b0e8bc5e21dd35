package orbit

import (
	"math/big"
	"reflect"
)

// Group is a group acting on R^d. Implementations must be safe for
// concurrent use, as this package's are: Enumerator.Orbits and package
// kernel's assembly call a group's methods from several goroutines at
// once.
type Group interface {
	// Name is the group's spelling on the command line with its
	// parameters, e.g. "hyperoctahedral(5)" or "blockperm(3,2)".
	Name() string
	// Dim is d, the dimension of the points the group acts on.
	Dim() int
	// Order returns |G|, or nil for an infinite (continuous) group.
	Order() *big.Int
}

// Finite is a finite group of orthogonal linear maps (hence isometries),
// its elements indexed 0 … |G|−1 with element 0 the identity.
// Because every element is an isometry and the elements form a group,
// k(g·x, g'·y) = k(x, g⁻¹g'·y) for an isotropic kernel, so orbit sums and
// maxima over pairs (g, g') reduce to a single one over g.
type Finite interface {
	Group
	// ActTo writes g_i·x into dst. dst and x have length Dim and must not
	// overlap. It panics if i is outside [0, |G|) or lengths are wrong.
	ActTo(dst, x []float64, i int)
	// Inverse returns the index of g_i⁻¹.
	Inverse(i int) int
}

// Distancer is implemented by groups with a closed-form orbit distance.
type Distancer interface {
	// OrbitDist2 returns d_G(x, y)² = min_{g,g'} ‖g·x − g'·y‖², exactly
	// (up to rounding), without enumerating the group.
	OrbitDist2(x, y []float64) float64
}

// PointDistancer is implemented by groups whose action is not by
// isometries, where the distance from a point to an orbit differs from
// the distance between two orbits (Distancer's).
type PointDistancer interface {
	// PointOrbitDist2 returns min over q in the orbit of p of ‖x − q‖²,
	// exactly (up to rounding): 0 for x on the orbit.
	PointOrbitDist2(x, p []float64) float64
}

// Canonicalizer is implemented by groups with a canonical map φ such that
// φ(g·x) = φ(x) and ‖φ(x) − φ(y)‖ = d_G(x, y) (the paper's Proposition 1):
// |x| for sign flips, sort(x) for permutations, sort(|x|) for signed
// permutations, ‖x‖ for planar rotations.
type Canonicalizer interface {
	// CanonicalDim is the length of φ(x).
	CanonicalDim() int
	// CanonicalTo writes φ(x) into dst (length CanonicalDim).
	CanonicalTo(dst, x []float64)
}

// Discretizer is implemented by continuous groups. It gives equal-weight
// quadrature nodes of the group's normalized Haar measure (restricted to
// the search box where the group's orbits are taken inside it), so that
// (1/m)·Σ_j f(node_j·x) approximates the orbit average of f and
// min_{j,k} ‖node_j·x − node_k·y‖ approximates the orbit distance.
type Discretizer interface {
	// OrbitTo writes m images of x into dst (m·Dim entries, row-major):
	// row j is the j-th node's image of x. dst must not overlap x. It
	// panics if m < 1 or lengths are wrong.
	OrbitTo(dst, x []float64, m int)
}

// Isometric is implemented by continuous groups whose elements are
// isometries of R^d (planar rotations; not scaling), so that, for an
// isotropic kernel, double orbit sums and maxima reduce to single ones over
// the orbit of one point. Finite groups are isometric by the Finite
// contract and need not implement it.
type Isometric interface {
	Group
	// Isometric is a marker; it does nothing.
	Isometric()
}

// Circular is implemented by groups whose orbits are the circles around
// the origin of R² with the uniform (Haar) measure on them, SO(2): orbit
// averages depend on the radii ‖x‖, ‖y‖ and the relative angle only, which
// gives k_avg closed forms (a Bessel function for the RBF kernel) and a
// one-dimensional quadrature otherwise.
type Circular interface {
	Isometric
	// Circular is a marker; it does nothing.
	Circular()
}

// Segmenter is implemented by groups whose orbit of x is a segment
// {c·x : c ∈ [a, b]} of scalings, with the Haar measure dc/c (the scaling
// group inside its box). IntervalFaces returns [a, b] and the box faces
// that set its ends (−1 where an end is not set by a face), which the
// kernel's averages in log c (exact, or by Gauss–Legendre nodes) and their
// gradients use.
type Segmenter interface {
	Group
	IntervalFaces(x []float64) (a, b float64, ka, kb int)
}

// CoordinateGroup is implemented by the groups whose elements act on each
// coordinate alone: every permutation of the coordinates (permutes), every
// sign flip of them (flips), or every signed permutation (both). For a
// kernel that is a product over coordinates (RBF) their orbit averages
// factor — a product of two-term averages for sign flips, a permanent for
// permutations — which gives k_avg closed forms.
type CoordinateGroup interface {
	Group
	// CoordinateGroup reports which of the two generator sets the group
	// holds in full; (false, false) is the trivial group.
	CoordinateGroup() (permutes, flips bool)
}

// Embedded is implemented by groups that act by an inner group G on some
// of the coordinates and as the identity on the others (OnCoords): the
// whole group is G × {identity}, so a kernel that factors over the two
// sets of coordinates (RBF) can use G's closed forms on its coordinates.
// Such a group does not declare Circular, Segmenter or CoordinateGroup,
// which describe the geometry of orbits in the whole space.
type Embedded interface {
	Group
	// Inner returns G, acting on R^k, and the k distinct coordinates it
	// acts on: coordinate j of G's points is coordinate coords[j] of this
	// group's. coords is a fresh copy.
	Inner() (g Group, coords []int)
}

// IsNil reports whether g is nil or holds a nil pointer (or other nil
// reference), e.g. the *TrivialGroup that Trivial(0) returns with its
// error: any method call on it would dereference nil. Every function of
// symbo that takes a Group refuses such a group with an error.
func IsNil(g Group) bool {
	if g == nil {
		return true
	}
	switch v := reflect.ValueOf(g); v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return false
}

// IsIsometric reports whether every element of g is an isometry: g is
// Finite or declares Isometric.
func IsIsometric(g Group) bool {
	switch g.(type) {
	case Finite, Isometric:
		return true
	}
	return false
}
