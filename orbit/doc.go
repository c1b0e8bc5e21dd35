// Package orbit implements symmetry groups acting on R^d, their orbits, and
// closed-form orbit distances d_G(x, y)² = min_{g,g'} ‖g·x − g'·y‖².
//
// # Groups
//
//	name             constructor            d       |G|       Distancer                 Canonicalizer φ
//	none             Trivial(d)             d       1         ‖x − y‖²                  x
//	signflip         SignFlip(d)            d       2^d       Σ(|x_k| − |y_k|)²         |x|
//	permutation      Permutation(d)         d       d!        ‖sort x − sort y‖²        sort x
//	hyperoctahedral  Hyperoctahedral(d)     d       2^d·d!    ‖sort|x| − sort|y|‖²      sort |x|
//	blockperm        BlockPerm(m, b)        m·b     m!        Hungarian, O(m³)          –
//	pairedperm       PairedPerm(m)          2m      m!        Hungarian, O(m³)          –
//	cyclic           Cyclic(d)              d       d         min over shifts, O(d²)    –
//	matrices         ReadMatrices(r)        d       ≤ 2^16    –                         –
//	rotation2d       Rotation2D()           2       ∞         (‖x‖ − ‖y‖)²              ‖x‖
//	scaling          Scaling(lo, hi)        d       ∞         closed form, O(d)         –
//	scalingdir       ScalingDir(lo, hi)     d       ∞         chord, O(d)               ‖hi‖·x/‖x‖
//	G@[c…]/d         OnCoords(g, d, coords) d       |G|       d_G(x_S,y_S)²+‖x_R−y_R‖²  (φ_G(x_S), x_R)
//
// Parse builds a group from its command-line Spec; Size returns |G| as an
// int. Finite groups implement Finite (and their element tables are
// orthogonal linear maps); continuous groups return a nil Order and
// implement Discretizer.
//
// Element indexing. Element 0 is always the identity.
//   - signflip: bit k of i flips coordinate k.
//   - permutation, blockperm, pairedperm: i = Σ_{k≥1} c_k·k! with
//     c_k ∈ [0, k]; the permutation is the forward Fisher–Yates shuffle
//     swapping positions k and k − c_k for k = 1, 2, …; (g·x)_k = x_{a(k)}
//     (blocks: block k of g·x is block a(k) of x). Groups of m ≤ 8 blocks
//     use a precomputed m!·m table; larger ones decode arithmetically,
//     stopping once the remaining index is 0.
//   - hyperoctahedral: i = p·2^d + s, permutation p then sign bits s:
//     (g·x)_k = ±x_{a(k)}.
//   - cyclic: (g_i·x)_k = x_{(k+i) mod d}.
//   - matrices: breadth-first order of the closure from the identity.
//   - OnCoords(g, …): g's indices.
//
// pairedperm is the WLAN layout: d = 2m coordinates x_1…x_m, y_1…y_m (m
// points in the plane), one permutation applied to both halves.
//
// scaling acts by x ↦ c·x, c > 0, with orbits taken inside the search box
// [lo, hi], which must satisfy 0 < lo_k < hi_k < ∞ (the paper's box is
// [0.1, 10]²): the orbit of x is the segment {c·x : c ∈ C(x)}, C(x) =
// [max_k lo_k/x_k, min_k hi_k/x_k] (see ScalingGroup for points outside the
// box). It is not a group of isometries, so its orbit distance is the
// distance between two segments, min over both scalings.
//
// scalingdir is the same group, orbits and measure with another orbit
// distance: the chord between the orbits' directions on the sphere of
// radius ‖hi‖ (ScalingDirGroup). It has a canonical map, so its max kernel
// is PSD; the segment distance that scaling uses is attained at the
// segments' ends nearest the origin and stretches the directions near the
// axes (see ScalingDirGroup). scaling is the paper's.
//
// A group on some coordinates. OnCoords(g, d, coords) embeds a group g on
// R^k into R^d: g acts on x_S = (x_coords[0], …, x_coords[k−1]) (k
// distinct indices in any order) and the identity on the other
// coordinates x_R (Spec.Coords in Parse). Its elements are g's, with the
// same indices; it declares Embedded (Inner returns g and the
// coordinates) and passes through g's Finite (with RangeActor and
// PackedActor), Distancer, Canonicalizer, Aligner, and for continuous g
// Discretizer and Isometric, each costing g's on R^k plus O(d) (the table above gives the
// distance and the canonical map; CanonicalDim is g's + d − k). It does not
// declare Circular, Segmenter or CoordinateGroup: they describe orbits in
// the whole space, and consumers that factor over coordinates (k_avg with
// a product base kernel) reach g's through Embedded. Name is
// "G@[c0,c1,…]/d", e.g. "hyperoctahedral(3)@[0,2,3]/5"; nested
// embeddings are flattened, and coords = 0, …, d−1 in order returns g.
//
// Coordinate maps. CoordinateMaps(g) says which coordinatewise affine maps
// u_k = (x_k − c_k)/s_k commute with g, so that the same group acts on
// normalized inputs (bo's Config.Normalize): coordinates g mixes share one
// class (one map); a class may shift and scale (FreeAffine: coordinates g
// only permutes, or leaves alone), only scale about the origin (FreeScale:
// coordinates g flips or rotates), or stay as they are (FreeNone: the
// scaling groups, whose orbits live in their own box). Groups declare it
// by CoordinateMapper (every group of the table does; OnCoords gives its
// other coordinates their own affine class); for another group the safe
// rule applies: one common scale about the origin for a Finite group, no
// map otherwise. matrices: coordinates linked by a nonzero entry of some
// element share a class, a scale only.
//
// Discretizers give equal-weight quadrature nodes of the normalized Haar
// measure: rotation2d the m equally spaced angles 2πj/m (the trapezoidal
// rule, exact for trigonometric polynomials of degree < m), scaling the
// midpoints of m equal cells in log c over C(x) (the measure dc/c).
//
// Enumerator.Orbits writes the orbits of n points into one contiguous
// n·|G|×d buffer, refusing groups whose buffer would exceed its memory
// budget (Enumerator.Budget; 0 means DefaultBudget, 8 GiB, whatever the
// environment says; hyperoctahedral(10) has 3.7·10⁹ elements).
//
// # Non-finite coordinates
//
// The methods on points return no error and do not check for NaN or ±Inf
// coordinates: a check in each call would cost on the kernels' per-pair
// paths, and package kernel refuses such points (kernel.ErrBadPoints)
// once per call, before any of these methods runs. Given such a
// coordinate they neither panic (beyond their length and index checks)
// nor loop, and:
//   - the squared distances — OrbitDist2, PointOrbitDist2, SegmentDist2
//     and AlignTo's result — are NaN or +Inf, never a finite number (NaN
//     where a NaN enters or infinities cancel, Inf − Inf;
//     TestNonFiniteDistances, every group of the table);
//   - ActTo, ActRangeTo, CanonicalTo, OrbitTo and AlignTo's dst carry the
//     non-finite values to wherever the map sends that coordinate, and
//     give NaN where it is mixed with others (a rotation, scalingdir's
//     normalization: Inf·0, Inf − Inf, Inf/Inf); where a
//     sorting canonical map places a NaN is unspecified;
//   - a scaling's Interval and IntervalFaces treat the point as one
//     outside the box: [1, 1], faces −1.
//
// Enumerator.Orbits, which returns an error, refuses such points with
// ErrInvalid.
//
// # Cost
//
// ActTo costs O(d) for the permutation-like groups (O(d²) for matrices);
// OrbitDist2 costs O(d log d) with sorting, O(m³ + m²·b) with the
// Hungarian algorithm (the table above gives each group's). Orbits of n
// points write n·|G|·d floats.
//
// # Invariants
//
//   - Points are []float64 of length Dim; point sets are row-major n×d.
//   - Every Finite element is an orthogonal linear map; element 0 is the
//     identity, Inverse(Inverse(i)) = i, and the elements are closed under
//     composition (checked by orbittest.Run for every group here).
//   - Distancer and Canonicalizer results equal brute-force enumeration
//     min_g ‖x − g·y‖² within 1e-12 relative (tested, including ties and
//     zeros), and are invariant under the group.
//   - ActTo and CanonicalTo never allocate (OnCoords groups: after
//     warm-up; their gather buffers are pooled); OrbitDist2 allocates nothing
//     for d ≤ 64 (sorting) or m ≤ 16 blocks (Hungarian; pooled scratch
//     beyond).
//   - Inputs are never modified; dst arguments must not overlap inputs.
//   - For groups whose order exceeds MaxInt (e.g. hyperoctahedral(25)),
//     every non-negative int indexes an element; Inverse panics if the
//     inverse's index does not fit in an int.
//   - Enumerator.Orbits is deterministic: row i·|G|+j is g_j·x_i, bit-
//     identical for any Workers.
//
// # Concurrency
//
// Groups are immutable after construction: all methods are safe for
// concurrent use. Enumerator.Orbits runs Workers goroutines (GOMAXPROCS by
// default), splitting the points into tasks of a fixed size; it runs
// serially when there is a single task.
//
// # Errors
//
// Constructors and Parse return errors wrapping ErrInvalid (d < 1 or
// d > MaxDim, odd d for pairedperm, d not a multiple of the block size, a
// bad box, a non-orthogonal or ragged matrix, malformed JSON or data after
// it; for OnCoords a nil group, a number of coordinates other than the
// group's dimension, an index outside [0, d) or listed twice, an empty
// Spec.Coords — all decided before anything proportional to d is
// allocated; for Enumerator.Orbits a NaN or ±Inf coordinate, a
// negative Workers or a group of dimension below 1, such as a group
// type's zero value), ErrUnknown (unknown group name), ErrTooLarge (Size of a group whose
// order overflows int, naming it and its order to two digits in O(1); a
// matrix group of dimension above MaxMatrixDim, whose worst-case closure
// work exceeds MaxMatrixWork — both decided before any O(d³) work —,
// whose closure exceeds MaxMatrixOrder elements, or whose JSON exceeds
// MaxMatrixBytes, decided as its reading reaches that many bytes), ErrInfinite (Size of a
// continuous group) and ErrOverBudget (Orbits beyond the memory budget,
// naming the group and the bytes it would need). Messages start with
// "orbit: ". The sentinels carry their class (an ErrClass method,
// internal/errclass): ErrOverBudget is a size error, the others input
// errors. Wrong slice lengths, element indices out of range and m < 1
// for OrbitTo are programmer errors and panic. The methods of a group
// type's zero value are programmer errors too, with no result promised
// (groups come from their constructors; Dim and Name answer 0 and
// "signflip(0)" on SignFlipGroup{}, its actions panic; a nil group is
// refused with an error, see IsNil).
package orbit
