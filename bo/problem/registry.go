package problem

import (
	"fmt"
	"math"
	"strings"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// family is one registered problem family: the one place a problem is
// declared. New, Names, DefaultDim and Families (perf eval -h, the docs)
// all read the registry; adding a problem is one entry here plus its
// function (and its tests: problemtest.Run and golden values).
type family struct {
	key      string // the lower-case name New accepts
	class    string // ClassPaper, ClassVariant, ClassOffFixedPoint, ClassTwin, ClassSuite, ClassFresh or ClassThird
	about    string // one line: what it is
	defaultD int    // the dimension d = 0 selects
	dims     string // the supported dimensions, in words
	// check returns nil for a supported d ≥ 1, an error wrapping ErrDim
	// otherwise.
	check func(d int) error
	// build returns the problem in a supported dimension d.
	build func(d int) (*Problem, error)
}

// Classes of problems (Info.Class).
const (
	ClassPaper         = "paper"           // the paper's benchmarks
	ClassVariant       = "variant"         // a variant of a paper's problem: its function (paper fidelity) or its group's geometry
	ClassOffFixedPoint = "off-fixed-point" // optima on free orbits
	ClassTwin          = "twin"            // an off-fixed-point problem with its optimum moved to the origin
	ClassSuite         = "suite"           // the users' suite (lab/suite/README.md), but its four paper problems
	ClassFresh         = "fresh"           // the fresh held-out set (lab/suite/fresh.md)
	ClassThird         = "third"           // the third held-out set (lab/suite/third.md)
)

// registry lists every problem family, in the order Names gives: the
// paper's six in its order, the variants, then the
// off-fixed-point family, then its fixed-point twins, then the users'
// suite (suite.go) in its README's order, then the fresh held-out set
// (fresh.go) and the third (third.go), each in its page's order.
var registry = append([]family{
	synthetic("Ackley", ClassPaper, "Ackley, hyperoctahedral, optimum at the origin", 2, -16, 16, kernel.Matern52, false, ackley,
		func(d int) [][]float64 { return [][]float64{make([]float64, d)} },
		func(lo, hi []float64) (orbit.Group, error) { return orbit.Hyperoctahedral(len(lo)) }),
	synthetic("Griewank", ClassPaper, "Griewank, sign flips, optimum at the origin", 6, -600, 600, kernel.RBF, true, griewank,
		func(d int) [][]float64 { return [][]float64{make([]float64, d)} },
		func(lo, hi []float64) (orbit.Group, error) { return orbit.SignFlip(len(lo)) }),
	synthetic("Rastrigin", ClassPaper, "Rastrigin, hyperoctahedral, optimum at the origin", 5, -5.12, 5.12, kernel.RBF, true, rastrigin,
		func(d int) [][]float64 { return [][]float64{make([]float64, d)} },
		func(lo, hi []float64) (orbit.Group, error) { return orbit.Hyperoctahedral(len(lo)) }),
	planar("Radial", ClassPaper, "Rastrigin of the radius, planar rotations", -10, 10, radial, radialOptima, rotation),
	planar("Scaling", ClassPaper, "(x₁/x₂ − 1)², scalings inside the box", 0.1, 10, scaling, scalingOptima,
		func(lo, hi []float64) (orbit.Group, error) { return orbit.Scaling(lo, hi) }),
	{
		key: "wlan", class: ClassPaper, about: "access-point placement (throughput, to maximize), permutations of the APs",
		defaultD: 8, dims: fmt.Sprintf("d = 2m (m access points, 1 ≤ m ≤ %d)", MaxAPs),
		check: func(d int) error {
			if d%2 != 0 || d > 2*MaxAPs {
				return fmt.Errorf("%w: wlan: d = %d, want an even d = 2m with 1 ≤ m ≤ %d access points", ErrDim, d, MaxAPs)
			}
			return nil
		},
		build: func(d int) (*Problem, error) { return NewWLAN(DefaultUsers(), d/2) },
	},
	planar("RadialScaled", ClassVariant, "Radial with its Rastrigin argument ×5.12", -10, 10, radialScaled, radialOptima, rotation),
	planar("ScalingDir", ClassVariant, "Scaling with the chord between directions as its orbit distance (group scalingdir)", 0.1, 10, scaling, scalingOptima,
		func(lo, hi []float64) (orbit.Group, error) { return orbit.ScalingDir(lo, hi) }),
	shifted(shiftedAckley), shifted(shiftedRastrigin), shifted(shiftedGriewank),
	shifted(centredAckley), shifted(centredRastrigin), shifted(centredGriewank),
}, append(append(suiteRegistry(), freshRegistry()...), thirdRegistry()...)...)

// synthetic registers a function on the cube [lo, hi]^d, d in 1…MaxDim,
// named display ("Ackley"; New takes it in any case).
func synthetic(display, class, about string, defaultD int, lo, hi float64, shape kernel.Shape, chosen bool,
	f func([]float64) float64, opt func(d int) [][]float64, group func(lo, hi []float64) (orbit.Group, error)) family {
	return family{
		key: strings.ToLower(display), class: class, about: about, defaultD: defaultD, dims: fmt.Sprintf("any d in 1…%d", MaxDim),
		check: func(d int) error {
			if d > MaxDim {
				return fmt.Errorf("%w: %s: d = %d, want 1 ≤ d ≤ %d", ErrDim, strings.ToLower(display), d, MaxDim)
			}
			return nil
		},
		build: func(d int) (*Problem, error) {
			p := &Problem{kind: strings.ToLower(display), d: d, known: true, shape: shape, chosen: chosen, f: f, opt: opt(d)}
			p.lo, p.hi = box(d, lo, hi)
			return p.named(display, group)
		},
	}
}

// planar registers a two-dimensional function with the RBF base kernel
// (the paper's for its continuous groups).
func planar(display, class, about string, lo, hi float64, f func([]float64) float64, opt func() [][]float64,
	group func(lo, hi []float64) (orbit.Group, error)) family {
	fam := synthetic(display, class, about, 2, lo, hi, kernel.RBF, false, f, func(int) [][]float64 { return opt() }, group)
	fam.dims = "d = 2 only"
	fam.check = func(d int) error {
		if d != 2 {
			return fmt.Errorf("%w: %s is two-dimensional, got d = %d", ErrDim, fam.key, d)
		}
		return nil
	}
	return fam
}

// scalingOptima are representatives of Scaling's minimizers, the
// diagonal x₁ = x₂.
func scalingOptima() [][]float64 {
	return [][]float64{{1, 1}, {0.1, 0.1}, {10, 10}, {math.Pi, math.Pi}}
}

// rotation is the group of Radial and RadialScaled.
func rotation([]float64, []float64) (orbit.Group, error) { return orbit.Rotation2D() }

// radialOptima are representatives of Radial's minimizers, ‖x*‖ = a·b =
// 8√2 ≈ 11.31: arcs near the corners of the box.
func radialOptima() [][]float64 {
	s28 := math.Sqrt(28) // 10² + 28 = 128 = (8√2)²
	return [][]float64{{8, 8}, {-8, 8}, {-8, -8}, {8, -8}, {10, s28}, {-s28, -10}}
}

// named gives p its display name with the dimension ("Ackley2d") and its
// group.
func (p *Problem) named(display string, group func(lo, hi []float64) (orbit.Group, error)) (*Problem, error) {
	p.name = fmt.Sprintf("%s%dd", display, p.d)
	g, err := group(p.lo, p.hi)
	if err != nil {
		return nil, fmt.Errorf("problem: %s: building its group: %w", p.name, err)
	}
	p.group = g
	return p, nil
}

// lookup returns the family named key (lower case).
func lookup(key string) (*family, bool) {
	for i := range registry {
		if registry[i].key == key {
			return &registry[i], true
		}
	}
	return nil, false
}

// Info describes a registered problem family (see Families).
type Info struct {
	Name       string // the lower-case name New accepts
	Class      string // ClassPaper, ClassVariant, ClassOffFixedPoint, ClassTwin, ClassSuite, ClassFresh or ClassThird
	About      string // one line: what it is
	DefaultDim int    // the dimension New selects for d = 0
	Dims       string // the supported dimensions, in words
}

// Families describes every problem New accepts, in the order of Names.
func Families() []Info {
	out := make([]Info, len(registry))
	for i, f := range registry {
		out[i] = Info{Name: f.key, Class: f.class, About: f.about, DefaultDim: f.defaultD, Dims: f.dims}
	}
	return out
}

// Names returns the problem names New accepts: the paper's six in its
// order, the variants radialscaled and scalingdir, then the
// off-fixed-point family (shiftedackley, shiftedrastrigin,
// shiftedgriewank), its fixed-point twins (centredackley,
// centredrastrigin, centredgriewank), then the users' suite's twenty
// (shiftedackley4d … shiftedackley12dperm: whole names, dimension
// included).
func Names() []string {
	out := make([]string, len(registry))
	for i, f := range registry {
		out[i] = f.key
	}
	return out
}

// DefaultDim returns the dimension the paper uses for the named problem
// (Ackley 2, Griewank 6, Rastrigin 5, Radial 2, Scaling 2, WLAN 8), and
// ours for the others (RadialScaled 2, ShiftedAckley 2, ShiftedRastrigin
// 4, ShiftedGriewank 6, and their twins alike).
func DefaultDim(name string) (int, error) {
	if f, ok := lookup(strings.ToLower(name)); ok {
		return f.defaultD, nil
	}
	return 0, fmt.Errorf("%w: %q (want one of %s)", ErrUnknown, name, strings.Join(Names(), ", "))
}
