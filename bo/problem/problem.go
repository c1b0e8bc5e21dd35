package problem

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// Sentinel errors; returned errors wrap one of them (test with errors.Is)
// and say what went wrong, e.g.
// "problem: point outside the box: Ackley2d: x[1] = 17 is outside [-16, 16]".
var (
	// ErrUnknown reports an unknown problem name.
	ErrUnknown = errclass.New(errclass.Input, "problem: unknown problem")
	// ErrDim reports a dimension the problem does not support.
	ErrDim = errclass.New(errclass.Input, "problem: unsupported dimension")
	// ErrLength reports a point whose length is not Dim.
	ErrLength = errclass.New(errclass.Input, "problem: wrong point length")
	// ErrNotFinite reports a NaN or ±Inf coordinate.
	ErrNotFinite = errclass.New(errclass.Input, "problem: coordinate not finite")
	// ErrOutOfBounds reports a point outside the box.
	ErrOutOfBounds = errclass.New(errclass.Input, "problem: point outside the box")
	// ErrUsers reports an invalid WLAN user layout.
	ErrUsers = errclass.New(errclass.Input, "problem: invalid WLAN users")
)

// MaxDim is the largest d accepted for Ackley, Griewank and Rastrigin:
// it keeps every element of their groups addressable by an int index
// (2^16·16! ≈ 1.4·10^18 < 2^63).
const MaxDim = 16

// Noise protocol (see the package documentation).
const (
	// NoiseFraction is the ratio of the observation noise variance to the
	// variance of the objective over the box (the paper's 2%).
	NoiseFraction = 0.02
	// NoiseSamples is the number of uniform points the variance is
	// estimated from.
	NoiseSamples = 1 << 14
	// NoiseSeed seeds the sampler: rand.New(rand.NewPCG(NoiseSeed, 0)).
	NoiseSeed = 2024
)

// NoGroupSuffix, appended to a problem's name, declares the trivial group
// in place of the problem's own (see New).
const NoGroupSuffix = ":none"

// DeclarableGroups are the groups a ":G" suffix of a problem's name may
// declare in place of the problem's own (see New): those orbit.Parse
// builds from the dimension alone.
func DeclarableGroups() []string {
	return []string{"none", "signflip", "permutation", "hyperoctahedral", "cyclic", "pairedperm", "rotation2d"}
}

// Problem is a benchmark objective on a box, invariant under a group.
// Construct it with New or NewWLAN; its methods are safe for concurrent
// use. A Problem must not be copied after first use.
type Problem struct {
	kind     string // the lower-case family name: "ackley", …
	name     string // e.g. "Ackley2d"
	d        int
	lo, hi   []float64
	group    orbit.Group
	shape    kernel.Shape
	chosen   bool // shape is our choice, not the paper's
	maximize bool // Evaluate is to be maximized (WLAN)
	fstar    float64
	known    bool
	opt      [][]float64
	f        func(x []float64) float64 // Evaluate on a validated point
	users    [][2]float64              // WLAN only
	// noiseFrac is the problem's own noise fraction (the users' suite:
	// 0.01, 0.05 or 0.2) where noiseOwn; otherwise NoiseFraction.
	noiseFrac float64
	noiseOwn  bool

	noiseOnce sync.Once
	noise     float64
}

// New returns the named benchmark in dimension d; d = 0 selects the
// paper's dimension (see DefaultDim). Names are case-insensitive and may
// carry the dimension as a suffix, as in the paper: "Ackley2d" is
// New("ackley", 2), and a suffix that disagrees with a non-zero d is an
// error. Supported d: Ackley, Griewank, Rastrigin 1…MaxDim; Radial and
// Scaling 2; WLAN an even d = 2m with 1 ≤ m ≤ MaxAPs access points and
// the 16 default users (DefaultUsers).
//
// A name ending in ":G" declares the group G of DeclarableGroups in
// place of the problem's own: the same objective, bit for bit, whose
// Group is G on R^d and whose Name keeps the suffix. "Ackley2d:none"
// (the trivial group) is the case of a user who declares no symmetry;
// a group the objective is not invariant under ("Griewank6d:
// hyperoctahedral": Griewank's product term is not permutation
// invariant) the case of a user who declares a wrong or only
// approximately right one, for studies of what each kernel does then.
func New(name string, d int) (*Problem, error) {
	if n, gname, ok := strings.Cut(strings.ToLower(strings.TrimSpace(name)), ":"); ok {
		if strings.Contains(gname, ":") {
			return nil, fmt.Errorf("%w: %q: more than one group suffix", ErrUnknown, name)
		}
		if !slices.Contains(DeclarableGroups(), gname) {
			return nil, fmt.Errorf("%w: %q: the suffix %q is not a declarable group (want one of %s)", ErrUnknown, name, gname, strings.Join(DeclarableGroups(), ", "))
		}
		p, err := New(n, d)
		if err != nil {
			return nil, err
		}
		g, err := orbit.Parse(orbit.Spec{Name: gname, D: p.d})
		if err != nil {
			return nil, fmt.Errorf("problem: %s:%s: %w", p.name, gname, err)
		}
		p.name += ":" + gname
		p.group = g
		return p, nil
	}
	base, suffix, err := splitName(name)
	if err != nil {
		return nil, err
	}
	if suffix > 0 {
		if d != 0 && d != suffix {
			return nil, fmt.Errorf("%w: %q names d = %d but d = %d was asked", ErrDim, name, suffix, d)
		}
		d = suffix
	}
	if d < 0 {
		return nil, fmt.Errorf("%w: %s: d = %d is negative", ErrDim, base, d)
	}
	f, _ := lookup(base)
	if d == 0 {
		d = f.defaultD
	}
	if err := f.check(d); err != nil {
		return nil, err
	}
	return f.build(d)
}

// splitName lower-cases name and splits a trailing "<n>d".
func splitName(name string) (base string, d int, err error) {
	s := strings.ToLower(strings.TrimSpace(name))
	if _, err := DefaultDim(s); err == nil {
		return s, 0, nil
	}
	if strings.HasSuffix(s, "d") {
		i := len(s) - 1
		for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
			i--
		}
		if i < len(s)-1 {
			if _, err := DefaultDim(s[:i]); err == nil {
				n, err := strconv.Atoi(s[i : len(s)-1])
				if err != nil || n < 1 {
					return "", 0, fmt.Errorf("%w: %q: bad dimension suffix", ErrDim, name)
				}
				return s[:i], n, nil
			}
		}
	}
	return "", 0, fmt.Errorf("%w: %q (want one of %s, optionally with a dimension suffix such as ackley2d)",
		ErrUnknown, name, strings.Join(Names(), ", "))
}

func box(d int, lo, hi float64) ([]float64, []float64) {
	l, h := make([]float64, d), make([]float64, d)
	for i := range l {
		l[i], h[i] = lo, hi
	}
	return l, h
}

// Name returns the paper's name with the dimension, e.g. "Ackley2d",
// "WLAN8d".
func (p *Problem) Name() string { return p.name }

// Dim returns d, the length of a point.
func (p *Problem) Dim() int { return p.d }

// Bounds returns fresh copies of the box [lo, hi] (closed, per coordinate).
func (p *Problem) Bounds() (lo, hi []float64) {
	return append([]float64(nil), p.lo...), append([]float64(nil), p.hi...)
}

// Group returns the group the objective is invariant under (on the box).
func (p *Problem) Group() orbit.Group { return p.group }

// BaseShape returns the default base kernel shape: the paper's where it
// names one, ours otherwise (see BaseChosen).
func (p *Problem) BaseShape() kernel.Shape { return p.shape }

// BaseChosen reports whether BaseShape is our choice because the paper
// names no base kernel for this problem (Griewank, Rastrigin).
func (p *Problem) BaseChosen() bool { return p.chosen }

// Maximize reports whether Evaluate is to be maximized (WLAN); the other
// problems are in their usual minimization form.
func (p *Problem) Maximize() bool { return p.maximize }

// Check returns an error wrapping ErrLength, ErrNotFinite or
// ErrOutOfBounds if x is not a point of the box, and nil otherwise.
func (p *Problem) Check(x []float64) error {
	if len(x) != p.d {
		return fmt.Errorf("%w: %s: x has length %d, want %d", ErrLength, p.name, len(x), p.d)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s: x[%d] = %v", ErrNotFinite, p.name, i, v)
		}
	}
	for i, v := range x {
		if v < p.lo[i] || v > p.hi[i] {
			return fmt.Errorf("%w: %s: x[%d] = %v is outside [%v, %v]", ErrOutOfBounds, p.name, i, v, p.lo[i], p.hi[i])
		}
	}
	return nil
}

// Evaluate returns f(x) as the paper defines it: the usual minimization form
// for Ackley, Griewank, Rastrigin, Radial and Scaling, the total
// throughput in Mbps (to maximize) for WLAN. x must be a point of the box
// (see Check); it is not modified.
func (p *Problem) Evaluate(x []float64) (float64, error) {
	if err := p.Check(x); err != nil {
		return 0, err
	}
	return p.f(x), nil
}

// Optimum returns the best value of Evaluate over the box (the minimum, or
// the maximum where Maximize) and true, or false where it is unknown
// (WLAN). It is 0 for the five synthetic problems.
func (p *Problem) Optimum() (fstar float64, ok bool) { return p.fstar, p.known }

// Optimizers returns fresh copies of known optimizers of Evaluate: the
// unique one (the origin) for Ackley, Griewank and Rastrigin, and
// representatives of the continuous sets of minimizers for Radial
// (‖x‖ = 8√2) and Scaling (x₁ = x₂). It returns nil for WLAN.
func (p *Problem) Optimizers() [][]float64 {
	if p.opt == nil {
		return nil
	}
	out := make([][]float64, len(p.opt))
	for i, x := range p.opt {
		out[i] = append([]float64(nil), x...)
	}
	return out
}

// NoiseFraction returns the ratio of NoiseVariance to the variance of f
// over the box: the paper's NoiseFraction (2%) for every problem but the
// users' suite's, which declare their own (none 0, light 0.01, moderate
// 0.05, heavy 0.2; lab/suite/README.md).
func (p *Problem) NoiseFraction() float64 {
	if p.noiseOwn {
		return p.noiseFrac
	}
	return NoiseFraction
}

// NoiseVariance returns the variance of the Gaussian observation noise:
// NoiseFraction() (the paper's NoiseFraction unless the problem declares
// its own; exactly 0, with no sampling, for a noiseless one) times the (unbiased) sample variance of Evaluate over
// NoiseSamples points drawn uniformly in the box from
// rand.New(rand.NewPCG(NoiseSeed, 0)) (the d coordinates of a point are
// consecutive draws, lo + (hi−lo)·U). It is computed on the first call and
// cached.
func (p *Problem) NoiseVariance() float64 {
	p.noiseOnce.Do(func() {
		switch {
		case !p.noiseOwn:
			p.noise = NoiseFraction * p.sampleVariance(NoiseSeed, NoiseSamples)
		case p.noiseFrac > 0:
			p.noise = p.noiseFrac * p.sampleVariance(NoiseSeed, NoiseSamples)
		}
	})
	return p.noise
}

// sampleVariance returns the unbiased sample variance of Evaluate over n
// uniform points from rand.New(rand.NewPCG(seed, 0)), reduced in index
// order (two passes).
func (p *Problem) sampleVariance(seed uint64, n int) float64 {
	rng := rand.New(rand.NewPCG(seed, 0))
	x := make([]float64, p.d)
	y := make([]float64, n)
	for k := range y {
		for i := range x {
			x[i] = p.lo[i] + (p.hi[i]-p.lo[i])*rng.Float64()
		}
		y[k] = p.f(x)
	}
	var mean float64
	for _, v := range y {
		mean += v
	}
	mean /= float64(n)
	var ss float64
	for _, v := range y {
		ss += (v - mean) * (v - mean)
	}
	return ss / float64(n-1)
}
