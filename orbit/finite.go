package orbit

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"
)

// Compile-time interface checks.
var (
	_ Finite        = (*TrivialGroup)(nil)
	_ Distancer     = (*TrivialGroup)(nil)
	_ Canonicalizer = (*TrivialGroup)(nil)
	_ Finite        = (*SignFlipGroup)(nil)
	_ Distancer     = (*SignFlipGroup)(nil)
	_ Canonicalizer = (*SignFlipGroup)(nil)
	_ Finite        = (*PermutationGroup)(nil)
	_ Distancer     = (*PermutationGroup)(nil)
	_ Canonicalizer = (*PermutationGroup)(nil)
	_ Finite        = (*HyperoctahedralGroup)(nil)
	_ Distancer     = (*HyperoctahedralGroup)(nil)
	_ Canonicalizer = (*HyperoctahedralGroup)(nil)

	_ CoordinateGroup = (*TrivialGroup)(nil)
	_ CoordinateGroup = (*SignFlipGroup)(nil)
	_ CoordinateGroup = (*PermutationGroup)(nil)
	_ CoordinateGroup = (*HyperoctahedralGroup)(nil)

	_ Finite    = (*BlockPermGroup)(nil)
	_ Distancer = (*BlockPermGroup)(nil)
	_ Finite    = (*PairedPermGroup)(nil)
	_ Distancer = (*PairedPermGroup)(nil)
	_ Finite    = (*CyclicGroup)(nil)
	_ Distancer = (*CyclicGroup)(nil)
)

// MaxDim is the largest dimension d a group may act on. It is checked by
// every constructor and by Parse before anything is allocated, so that a
// mistyped d (1e9) is an error rather than an out-of-memory crash or a
// computation of d! that never ends.
const MaxDim = 1 << 16

func checkDim(name string, d int) error {
	if d < 1 {
		return invalid("%s needs d ≥ 1, got %d", name, d)
	}
	if d > MaxDim {
		return invalid("%s: d = %d exceeds the maximum dimension %d (orbit.MaxDim)", name, d, MaxDim)
	}
	return nil
}

// ---------------------------------------------------------------- trivial

// TrivialGroup is the group {identity} on R^d ("none").
type TrivialGroup struct{ d int }

// Trivial returns the trivial group on R^d.
func Trivial(d int) (*TrivialGroup, error) {
	if err := checkDim("none", d); err != nil {
		return nil, err
	}
	return &TrivialGroup{d: d}, nil
}

// CoordinateGroup: the identity alone.
func (g *TrivialGroup) CoordinateGroup() (permutes, flips bool) { return false, false }

func (g *TrivialGroup) Name() string    { return fmt.Sprintf("none(%d)", g.d) }
func (g *TrivialGroup) Dim() int        { return g.d }
func (g *TrivialGroup) Order() *big.Int { return big.NewInt(1) }
func (g *TrivialGroup) Inverse(i int) int {
	checkIndex("none", i, 1)
	return 0
}

// ActTo copies x into dst.
func (g *TrivialGroup) ActTo(dst, x []float64, i int) {
	checkLen("none", dst, x, g.d)
	checkIndex("none", i, 1)
	copy(dst, x)
}

// OrbitDist2 returns ‖x − y‖².
func (g *TrivialGroup) OrbitDist2(x, y []float64) float64 {
	checkLen2("none", x, y, g.d)
	var s float64
	for k := range x {
		t := x[k] - y[k]
		s += t * t
	}
	return s
}

func (g *TrivialGroup) CanonicalDim() int { return g.d }

// CanonicalTo copies x into dst.
func (g *TrivialGroup) CanonicalTo(dst, x []float64) {
	checkLen("none", dst, x, g.d)
	copy(dst, x)
}

// ---------------------------------------------------------------- sign flips

// SignFlipGroup is the group of the 2^d sign flips of d coordinates.
// Element i flips coordinate k when bit k of i is set.
type SignFlipGroup struct {
	d int
	n int // |G|, or −1 if it overflows int
}

// SignFlip returns the sign-flip group on R^d, of order 2^d.
func SignFlip(d int) (*SignFlipGroup, error) {
	if err := checkDim("signflip", d); err != nil {
		return nil, err
	}
	g := &SignFlipGroup{d: d, n: -1}
	if d < bits.UintSize-1 {
		g.n = 1 << d
	}
	return g, nil
}

// CoordinateGroup: every sign flip, no permutation.
func (g *SignFlipGroup) CoordinateGroup() (permutes, flips bool) { return false, true }

func (g *SignFlipGroup) Name() string    { return fmt.Sprintf("signflip(%d)", g.d) }
func (g *SignFlipGroup) Dim() int        { return g.d }
func (g *SignFlipGroup) Order() *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(g.d)) }

// Inverse returns i: every sign flip is an involution.
func (g *SignFlipGroup) Inverse(i int) int {
	checkIndex("signflip", i, g.n)
	return i
}

// ActTo writes g_i·x into dst.
func (g *SignFlipGroup) ActTo(dst, x []float64, i int) {
	checkLen("signflip", dst, x, g.d)
	checkIndex("signflip", i, g.n)
	copy(dst, x)
	flipBits(dst, uint64(i))
}

// flipBits negates dst[k] for every bit k set in s, without branches
// (random sign bits would defeat branch prediction).
func flipBits(dst []float64, s uint64) {
	if len(dst) > 64 {
		dst = dst[:64]
	}
	for k := range dst {
		dst[k] = math.Float64frombits(math.Float64bits(dst[k]) ^ (s>>uint(k)&1)<<63)
	}
}

// OrbitDist2 returns Σ (|x_k| − |y_k|)².
func (g *SignFlipGroup) OrbitDist2(x, y []float64) float64 {
	checkLen2("signflip", x, y, g.d)
	var s float64
	for k := range x {
		t := math.Abs(x[k]) - math.Abs(y[k])
		s += t * t
	}
	return s
}

func (g *SignFlipGroup) CanonicalDim() int { return g.d }

// CanonicalTo writes |x| into dst.
func (g *SignFlipGroup) CanonicalTo(dst, x []float64) {
	checkLen("signflip", dst, x, g.d)
	for k, v := range x {
		dst[k] = math.Abs(v)
	}
}

// ---------------------------------------------------------------- permutations

// PermutationGroup is the group of the d! permutations of d coordinates.
type PermutationGroup struct {
	bl blocks
	n  int
}

// Permutation returns the symmetric group acting on R^d by permuting
// coordinates, of order d!.
func Permutation(d int) (*PermutationGroup, error) {
	if err := checkDim("permutation", d); err != nil {
		return nil, err
	}
	g := &PermutationGroup{bl: newBlocks(d, 1, 1, 0)}
	g.n = factorialOrder(d, 0)
	return g, nil
}

// CoordinateGroup: every permutation, no sign flip.
func (g *PermutationGroup) CoordinateGroup() (permutes, flips bool) { return true, false }

func (g *PermutationGroup) Name() string    { return fmt.Sprintf("permutation(%d)", g.bl.m) }
func (g *PermutationGroup) Dim() int        { return g.bl.m }
func (g *PermutationGroup) Order() *big.Int { return factorial(g.bl.m) }

func (g *PermutationGroup) Inverse(i int) int {
	checkIndex("permutation", i, g.n)
	return invertPermIndex(g.bl.m, i)
}

// ActTo writes g_i·x into dst.
func (g *PermutationGroup) ActTo(dst, x []float64, i int) {
	checkLen("permutation", dst, x, g.bl.m)
	checkIndex("permutation", i, g.n)
	g.bl.actTo(dst, x, i)
}

// OrbitDist2 returns ‖sort(x) − sort(y)‖².
func (g *PermutationGroup) OrbitDist2(x, y []float64) float64 {
	checkLen2("permutation", x, y, g.bl.m)
	return sortedDist2(x, y, false)
}

func (g *PermutationGroup) CanonicalDim() int { return g.bl.m }

// CanonicalTo writes sort(x) (ascending, −0 before +0) into dst.
func (g *PermutationGroup) CanonicalTo(dst, x []float64) {
	checkLen("permutation", dst, x, g.bl.m)
	copy(dst, x)
	slices.Sort(dst)
	orderZeros(dst)
}

// orderZeros puts the negative zeros of the run of zeros of a sorted s
// before its positive ones. slices.Sort takes −0 = +0, so it leaves them in
// input order, and sort(x) and sort(g·x) of an x holding both would differ
// in the sign bits of their zeros: the canonical map would not be constant
// on the orbit, bit for bit.
func orderZeros(s []float64) {
	lo, _ := slices.BinarySearch(s, 0)
	hi, neg := lo, 0
	for ; hi < len(s) && s[hi] == 0; hi++ {
		if math.Signbit(s[hi]) {
			neg++
		}
	}
	for k := lo; k < hi; k++ {
		s[k] = 0
		if k < lo+neg {
			s[k] = math.Copysign(0, -1)
		}
	}
}

// sortedDist2 returns ‖sort(x) − sort(y)‖², of absolute values if abs.
func sortedDist2(x, y []float64, abs bool) float64 {
	d := len(x)
	var bx, by [maxStack]float64
	sx, sy := stackOr(&bx, d), stackOr(&by, d)
	copy(sx, x)
	copy(sy, y)
	if abs {
		for k := range sx {
			sx[k] = math.Abs(sx[k])
			sy[k] = math.Abs(sy[k])
		}
	}
	slices.Sort(sx)
	slices.Sort(sy)
	var s float64
	for k := range sx {
		t := sx[k] - sy[k]
		s += t * t
	}
	return s
}

// ---------------------------------------------------------------- hyperoctahedral

// HyperoctahedralGroup is the group of the 2^d·d! signed permutations of d
// coordinates: (g·x)_k = s_k·x_{a(k)}. Element i = p·2^d + s combines
// permutation p with sign bits s (applied after permuting).
type HyperoctahedralGroup struct {
	bl blocks
	n  int
}

// Hyperoctahedral returns the hyperoctahedral group (signed permutations)
// on R^d, of order 2^d·d!.
func Hyperoctahedral(d int) (*HyperoctahedralGroup, error) {
	if err := checkDim("hyperoctahedral", d); err != nil {
		return nil, err
	}
	g := &HyperoctahedralGroup{bl: newBlocks(d, 1, 1, 0)}
	g.n = factorialOrder(d, d)
	return g, nil
}

// CoordinateGroup: every signed permutation.
func (g *HyperoctahedralGroup) CoordinateGroup() (permutes, flips bool) { return true, true }

func (g *HyperoctahedralGroup) Name() string { return fmt.Sprintf("hyperoctahedral(%d)", g.bl.m) }
func (g *HyperoctahedralGroup) Dim() int     { return g.bl.m }
func (g *HyperoctahedralGroup) Order() *big.Int {
	return new(big.Int).Lsh(factorial(g.bl.m), uint(g.bl.m))
}

// split returns the permutation index and sign bits of element i.
func (g *HyperoctahedralGroup) split(i int) (p int, s uint64) {
	d := g.bl.m
	if d >= 63 {
		return 0, uint64(i)
	}
	return i >> d, uint64(i) & (1<<d - 1)
}

// ActTo writes g_i·x into dst.
func (g *HyperoctahedralGroup) ActTo(dst, x []float64, i int) {
	checkLen("hyperoctahedral", dst, x, g.bl.m)
	checkIndex("hyperoctahedral", i, g.n)
	p, s := g.split(i)
	g.bl.actTo(dst, x, p)
	flipBits(dst, s)
}

// Inverse returns the index of g_i⁻¹: permutation a⁻¹ with signs
// s'_k = s_{a⁻¹(k)}. It panics if that index overflows int (possible
// only when |G| does).
func (g *HyperoctahedralGroup) Inverse(i int) int {
	checkIndex("hyperoctahedral", i, g.n)
	d := g.bl.m
	p, s := g.split(i)
	var sa [maxStack]int
	a := stackOr(&sa, d)
	decodePerm(a, p)
	var s2 uint64
	for k, v := range a { // q(v) = k, so s'_v = s_k
		if k < 64 && s>>k&1 != 0 {
			if v >= 63 {
				panic(fmt.Sprintf("orbit: %s: inverse of element %d overflows int", g.Name(), i))
			}
			s2 |= 1 << v
		}
	}
	q := invertPermIndex(d, p)
	if d >= 63 {
		if q != 0 {
			panic(fmt.Sprintf("orbit: %s: inverse of element %d overflows int", g.Name(), i))
		}
		return int(s2)
	}
	if q > math.MaxInt>>d {
		panic(fmt.Sprintf("orbit: %s: inverse of element %d overflows int", g.Name(), i))
	}
	return q<<d | int(s2)
}

// OrbitDist2 returns ‖sort(|x|) − sort(|y|)‖².
func (g *HyperoctahedralGroup) OrbitDist2(x, y []float64) float64 {
	checkLen2("hyperoctahedral", x, y, g.bl.m)
	return sortedDist2(x, y, true)
}

func (g *HyperoctahedralGroup) CanonicalDim() int { return g.bl.m }

// CanonicalTo writes sort(|x|) (ascending) into dst.
func (g *HyperoctahedralGroup) CanonicalTo(dst, x []float64) {
	checkLen("hyperoctahedral", dst, x, g.bl.m)
	for k, v := range x {
		dst[k] = math.Abs(v)
	}
	slices.Sort(dst)
}

// ---------------------------------------------------------------- block permutations

// BlockPermGroup permutes m contiguous blocks of b coordinates (d = m·b):
// block k of g·x is block a(k) of x. Order m!.
type BlockPermGroup struct {
	bl blocks
	n  int
}

// BlockPerm returns the group permuting m contiguous blocks of b
// coordinates each, acting on R^{m·b}.
func BlockPerm(m, b int) (*BlockPermGroup, error) {
	if m < 1 || b < 1 {
		return nil, invalid("blockperm needs m ≥ 1 blocks of b ≥ 1 coordinates, got m = %d, b = %d", m, b)
	}
	if m > MaxDim/b {
		return nil, invalid("blockperm(%d,%d): d = m·b exceeds the maximum dimension %d (orbit.MaxDim)", m, b, MaxDim)
	}
	g := &BlockPermGroup{bl: newBlocks(m, b, b, 1)}
	g.n = factorialOrder(m, 0)
	return g, nil
}

func (g *BlockPermGroup) Name() string    { return fmt.Sprintf("blockperm(%d,%d)", g.bl.m, g.bl.b) }
func (g *BlockPermGroup) Dim() int        { return g.bl.m * g.bl.b }
func (g *BlockPermGroup) Order() *big.Int { return factorial(g.bl.m) }

// Blocks returns m and b.
func (g *BlockPermGroup) Blocks() (m, b int) { return g.bl.m, g.bl.b }

func (g *BlockPermGroup) Inverse(i int) int {
	checkIndex("blockperm", i, g.n)
	return invertPermIndex(g.bl.m, i)
}

// ActTo writes g_i·x into dst.
func (g *BlockPermGroup) ActTo(dst, x []float64, i int) {
	checkLen("blockperm", dst, x, g.Dim())
	checkIndex("blockperm", i, g.n)
	g.bl.actTo(dst, x, i)
}

// OrbitDist2 returns min_a Σ_k ‖x_k − y_{a(k)}‖² over block assignments,
// solved by the Hungarian algorithm in O(m³).
func (g *BlockPermGroup) OrbitDist2(x, y []float64) float64 {
	checkLen2("blockperm", x, y, g.Dim())
	return g.bl.assignDist2(x, y)
}

// ---------------------------------------------------------------- paired permutations

// PairedPermGroup acts on R^{2m} laid out x_1…x_m, y_1…y_m (the WLAN
// layout: m points in the plane) by applying one permutation of m to both
// halves. Order m!.
type PairedPermGroup struct {
	bl blocks
	n  int
}

// PairedPerm returns the paired-permutation group on R^{2m}.
func PairedPerm(m int) (*PairedPermGroup, error) {
	if m < 1 {
		return nil, invalid("pairedperm needs m ≥ 1 pairs (d = 2m ≥ 2), got m = %d", m)
	}
	if m > MaxDim/2 {
		return nil, invalid("pairedperm(%d): d = 2m exceeds the maximum dimension %d (orbit.MaxDim)", m, MaxDim)
	}
	g := &PairedPermGroup{bl: newBlocks(m, 2, 1, m)}
	g.n = factorialOrder(m, 0)
	return g, nil
}

func (g *PairedPermGroup) Name() string    { return fmt.Sprintf("pairedperm(%d)", g.bl.m) }
func (g *PairedPermGroup) Dim() int        { return 2 * g.bl.m }
func (g *PairedPermGroup) Order() *big.Int { return factorial(g.bl.m) }

func (g *PairedPermGroup) Inverse(i int) int {
	checkIndex("pairedperm", i, g.n)
	return invertPermIndex(g.bl.m, i)
}

// ActTo writes g_i·x into dst.
func (g *PairedPermGroup) ActTo(dst, x []float64, i int) {
	checkLen("pairedperm", dst, x, g.Dim())
	checkIndex("pairedperm", i, g.n)
	g.bl.actTo(dst, x, i)
}

// OrbitDist2 returns min_a Σ_k (x_k − y_{a(k)})² + (x_{m+k} − y_{m+a(k)})²
// over permutations a, solved by the Hungarian algorithm in O(m³).
func (g *PairedPermGroup) OrbitDist2(x, y []float64) float64 {
	checkLen2("pairedperm", x, y, g.Dim())
	return g.bl.assignDist2(x, y)
}

// ---------------------------------------------------------------- cyclic

// CyclicGroup is the group of the d cyclic shifts of d coordinates:
// (g_i·x)_k = x_{(k+i) mod d}.
type CyclicGroup struct{ d int }

// Cyclic returns the cyclic group of order d acting on R^d by shifts.
func Cyclic(d int) (*CyclicGroup, error) {
	if err := checkDim("cyclic", d); err != nil {
		return nil, err
	}
	return &CyclicGroup{d: d}, nil
}

func (g *CyclicGroup) Name() string    { return fmt.Sprintf("cyclic(%d)", g.d) }
func (g *CyclicGroup) Dim() int        { return g.d }
func (g *CyclicGroup) Order() *big.Int { return big.NewInt(int64(g.d)) }

func (g *CyclicGroup) Inverse(i int) int {
	checkIndex("cyclic", i, g.d)
	return (g.d - i) % g.d
}

// ActTo writes g_i·x into dst.
func (g *CyclicGroup) ActTo(dst, x []float64, i int) {
	checkLen("cyclic", dst, x, g.d)
	checkIndex("cyclic", i, g.d)
	shiftTo(dst, x, i)
}

// OrbitDist2 returns min over the d shifts of ‖x − g_i·y‖², in O(d²).
func (g *CyclicGroup) OrbitDist2(x, y []float64) float64 {
	checkLen2("cyclic", x, y, g.d)
	best := math.Inf(1)
	for i := range g.d {
		if s := shiftDist2(x, y, i); s < best || math.IsNaN(s) {
			best = s
		}
	}
	return best
}

// shiftTo writes the cyclic shift g_i·x, (g_i·x)_k = x_{(k+i) mod d}, into
// dst (ActTo, ActRangeTo and AlignTo).
func shiftTo(dst, x []float64, i int) {
	n := copy(dst, x[i:])
	copy(dst[n:], x[:i])
}

// shiftDist2 returns ‖x − g_i·y‖² for the cyclic shift g_i, without
// writing g_i·y (OrbitDist2 and AlignTo).
func shiftDist2(x, y []float64, i int) float64 {
	d := len(x)
	var s float64
	for k := 0; k < d-i; k++ {
		t := x[k] - y[k+i]
		s += t * t
	}
	for k := d - i; k < d; k++ {
		t := x[k] - y[k+i-d]
		s += t * t
	}
	return s
}
