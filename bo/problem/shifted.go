package problem

import (
	"fmt"
	"slices"
	"strings"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// The off-fixed-point benchmarks: a classic function F composed with the
// canonical map φ of a group and shifted, f(x) = F(φ(x) − c), with c in
// the interior of the fundamental domain φ(box). f is invariant (φ is),
// continuous (φ is), and its minimizers are the orbit of c, a free orbit:
// no minimizer is a fixed point of any group element, unlike Ackley,
// Griewank and Rastrigin, whose optimum (the origin) is fixed by every
// element. They test whether conclusions drawn on origin-optimum
// benchmarks generalize.
//
// The fixed-point twins (class ClassTwin) are the same construction with
// c = 0: f(x) = F(φ(x)), the same F, group, dimension, box and base
// kernel as their shifted twin, with the minimum at the origin, a fixed
// point of every element. A shifted problem and its twin differ only in
// where the optimum lies (and in φ's kinks, which F(φ(x) − c) inherits
// on the fixed-point set and F(φ(x)) does not: F is itself invariant).
//
// Shift: c_i = L·(lo_c + (hi_c − lo_c)·(i − ½)/d), i = 1…d, equally spaced
// inside the fundamental domain, where the box is [−L, L]^d:
//
//	ShiftedAckley     hyperoctahedral  φ = sort(|x|)  c spans (0, 0.8L)    L = 16
//	ShiftedRastrigin  permutation      φ = sort(x)    c spans (−0.8L, 0.8L) L = 5.12
//	ShiftedGriewank   signflip         φ = |x|        c spans (0, 0.8L)    L = 600
type shiftedKind struct {
	name      string
	class     string  // ClassOffFixedPoint, or ClassTwin (c = 0)
	half      float64 // L: the box is [−L, L]^d
	cLo, cHi  float64 // c spans L·(cLo, cHi); both 0 for a twin
	shape     kernel.Shape
	chosen    bool
	defaultD  int
	minD      int
	f         baseFn   // F
	canonical canonMap // φ
	group     func(d int) (orbit.Group, error)
	about     string // one line for Families
}

var (
	shiftedAckley = shiftedKind{
		name: "ShiftedAckley", class: ClassOffFixedPoint, half: 16, cLo: 0, cHi: 0.8, shape: kernel.Matern52, chosen: true, defaultD: 2, minD: 2,
		f: fnAckley, canonical: canonSortAbs, group: func(d int) (orbit.Group, error) { return orbit.Hyperoctahedral(d) },
		about: "Ackley(sort(|x|) − c), hyperoctahedral",
	}
	shiftedRastrigin = shiftedKind{
		name: "ShiftedRastrigin", class: ClassOffFixedPoint, half: 5.12, cLo: -0.8, cHi: 0.8, shape: kernel.RBF, chosen: true, defaultD: 4, minD: 2,
		f: fnRastrigin, canonical: canonSort, group: func(d int) (orbit.Group, error) { return orbit.Permutation(d) },
		about: "Rastrigin(sort(x) − c), permutations",
	}
	shiftedGriewank = shiftedKind{
		name: "ShiftedGriewank", class: ClassOffFixedPoint, half: 600, cLo: 0, cHi: 0.8, shape: kernel.RBF, chosen: true, defaultD: 6, minD: 2,
		f: fnGriewank, canonical: canonAbs, group: func(d int) (orbit.Group, error) { return orbit.SignFlip(d) },
		about: "Griewank(|x| − c), sign flips",
	}

	// The fixed-point twins: c = 0, everything else as above.
	centredAckley = shiftedKind{
		name: "CentredAckley", class: ClassTwin, half: 16, shape: kernel.Matern52, chosen: true, defaultD: 2, minD: 2,
		f: fnAckley, canonical: canonSortAbs, group: shiftedAckley.group,
		about: "Ackley(sort(|x|)), hyperoctahedral: ShiftedAckley with c = 0",
	}
	centredRastrigin = shiftedKind{
		name: "CentredRastrigin", class: ClassTwin, half: 5.12, shape: kernel.RBF, chosen: true, defaultD: 4, minD: 2,
		f: fnRastrigin, canonical: canonSort, group: shiftedRastrigin.group,
		about: "Rastrigin(sort(x)), permutations: ShiftedRastrigin with c = 0",
	}
	centredGriewank = shiftedKind{
		name: "CentredGriewank", class: ClassTwin, half: 600, shape: kernel.RBF, chosen: true, defaultD: 6, minD: 2,
		f: fnGriewank, canonical: canonAbs, group: shiftedGriewank.group,
		about: "Griewank(|x|), sign flips: ShiftedGriewank with c = 0",
	}
)

// shifted registers an off-fixed-point kind or a fixed-point twin.
func shifted(k shiftedKind) family {
	key := strings.ToLower(k.name)
	return family{
		key: key, class: k.class, about: k.about, defaultD: k.defaultD, dims: fmt.Sprintf("d in %d…%d", k.minD, MaxDim),
		check: func(d int) error {
			if d < k.minD || d > MaxDim {
				return fmt.Errorf("%w: %s: d = %d, want %d ≤ d ≤ %d", ErrDim, key, d, k.minD, MaxDim)
			}
			return nil
		},
		build: func(d int) (*Problem, error) { return newShifted(k, d) },
	}
}

// shift returns c for dimension d (see shiftedKind).
func (k shiftedKind) shift(d int) []float64 {
	c := make([]float64, d)
	for i := range c {
		c[i] = k.half * (k.cLo + (k.cHi-k.cLo)*(float64(i)+0.5)/float64(d))
	}
	return c
}

func newShifted(k shiftedKind, d int) (*Problem, error) {
	kind := strings.ToLower(k.name)
	g, err := k.group(d)
	if err != nil {
		return nil, fmt.Errorf("problem: %s%dd: building its group: %w", k.name, d, err)
	}
	c := k.shift(d)
	f, canonical := k.f, k.canonical
	p := &Problem{
		kind: kind, name: fmt.Sprintf("%s%dd", k.name, d), d: d, known: true,
		group: g, shape: k.shape, chosen: k.chosen,
		f: func(x []float64) float64 {
			var buf [MaxDim]float64 // on the stack: Evaluate allocates nothing
			z := buf[:len(x)]
			canonical.shiftInto(z, x, c)
			return f.eval(z)
		},
	}
	p.lo, p.hi = box(d, -k.half, k.half)
	// Optimizers: c and another point of its orbit (reversed where the
	// group permutes, the first coordinate negated where it flips signs);
	// for a twin (c = 0) the origin alone.
	other := append([]float64(nil), c...)
	if k.canonical != canonAbs {
		slices.Reverse(other)
	}
	if k.canonical != canonSort {
		other[0] = -other[0]
	}
	if slices.Equal(other, c) {
		p.opt = [][]float64{c}
		return p, nil
	}
	p.opt = [][]float64{c, other}
	return p, nil
}

// baseFn names the function F (a switch, not a func value: see canonMap).
type baseFn int

const (
	fnAckley baseFn = iota
	fnRastrigin
	fnGriewank
)

func (f baseFn) eval(z []float64) float64 {
	switch f {
	case fnAckley:
		return ackley(z)
	case fnRastrigin:
		return rastrigin(z)
	}
	return griewank(z)
}

// canonMap names a canonical map (a switch, not a func value, so that the
// caller's buffer stays on the stack).
type canonMap int

const (
	canonSort    canonMap = iota // sort(x), permutations
	canonAbs                     // |x|, sign flips
	canonSortAbs                 // sort(|x|), signed permutations
)

func (m canonMap) apply(dst, x []float64) {
	switch m {
	case canonSort:
		sortInto(dst, x)
	case canonAbs:
		absInto(dst, x)
	case canonSortAbs:
		sortAbs(dst, x)
	}
}

// shiftInto writes φ(x) − c into dst (newShifted, shiftedBy).
func (m canonMap) shiftInto(dst, x, c []float64) {
	m.apply(dst, x)
	for i := range dst {
		dst[i] -= c[i]
	}
}

// sortInto writes x sorted ascending into dst (insertion sort, shared with
// WLAN: d ≤ MaxDim, no allocation).
func sortInto(dst, x []float64) {
	copy(dst, x)
	insertionSort(dst)
}

// absInto writes |x| into dst.
func absInto(dst, x []float64) {
	for i, v := range x {
		if v < 0 {
			v = -v
		}
		dst[i] = v
	}
}

// sortAbs writes sort(|x|) ascending into dst.
func sortAbs(dst, x []float64) {
	absInto(dst, x)
	insertionSort(dst)
}
