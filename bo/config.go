package bo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
)

// Sentinel errors; returned errors wrap one of them (test with errors.Is).
var (
	// ErrUnknownKernel reports a kernel name other than base, avg, max, plus.
	ErrUnknownKernel = errors.New("bo: unknown kernel")
	// ErrMaxNotPSD reports k_max requested for a group without a canonical
	// map (Proposition 1), where k_max need not be PSD.
	ErrMaxNotPSD = errors.New("bo: k_max is not provably PSD for this group")
	// ErrBadConfig reports an invalid Config field.
	ErrBadConfig = errors.New("bo: invalid configuration")
	// ErrBadPoint reports a point of the wrong length, with a NaN or
	// infinite coordinate, or outside the box.
	ErrBadPoint = errors.New("bo: invalid point")
	// ErrBadValue reports a NaN or infinite observation.
	ErrBadValue = errors.New("bo: invalid observation")
)

// KernelKind names the GP covariance: the base kernel k_b, the orbit
// average k_avg, the normalized orbit average k_avg(x,y)/√(k_avg(x,x)k_avg(y,y))
// (not in the paper: k_avg's prior variance peaks at the group's fixed
// points, which biases GP-UCB toward them; normalizing removes that), the
// max kernel k_max (only where it is PSD) or its PSD projection k_plus.
type KernelKind string

// The kernels.
const (
	Base KernelKind = "base"
	Avg  KernelKind = "avg"
	// AvgNorm is the normalized orbit average (kernel.Options.Normalize).
	AvgNorm KernelKind = "avgnorm"
	Max     KernelKind = "max"
	Plus    KernelKind = "plus"
)

// ParseKernel parses a kernel name (case-insensitive).
func ParseKernel(s string) (KernelKind, error) {
	switch k := KernelKind(strings.ToLower(strings.TrimSpace(s))); k {
	case Base, Avg, AvgNorm, Max, Plus:
		return k, nil
	}
	return "", fmt.Errorf("%w %q (want base, avg, avgnorm, max or plus)", ErrUnknownKernel, s)
}

// Acquisition selects the acquisition function.
type Acquisition int

const (
	// UCB is GP-UCB, α(x) = μ(x) + √β_t·σ(x) (the default).
	UCB Acquisition = iota
	// EI is expected improvement over the best observed y,
	// α(x) = (μ − y⁺)Φ(z) + σφ(z), z = (μ − y⁺)/σ.
	EI
)

func (a Acquisition) String() string {
	switch a {
	case UCB:
		return "ucb"
	case EI:
		return "ei"
	}
	return fmt.Sprintf("Acquisition(%d)", int(a))
}

// ParseAcquisition parses "ucb" or "ei" (case-insensitive).
func ParseAcquisition(s string) (Acquisition, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "ucb":
		return UCB, nil
	case "ei":
		return EI, nil
	}
	return 0, fmt.Errorf("%w: unknown acquisition %q (want ucb or ei)", ErrBadConfig, s)
}

// BetaRule selects the UCB exploration weight β.
type BetaRule int

const (
	// BetaPaper is the paper's β_t = 0.5·d·log t, where t = n − Init + 1
	// counts the acquisition steps: t = 1 for the first point chosen by the
	// acquisition after the Init initial points, t = Iters for the last
	// (n = observations so far). β_1 = 0, so the first step is pure
	// exploitation. The default.
	BetaPaper BetaRule = iota
	// BetaAuthors is the authors' public code, β = 0.5·d·log(2n) with n the
	// number of observations so far.
	BetaAuthors
)

func (b BetaRule) String() string {
	switch b {
	case BetaPaper:
		return "paper"
	case BetaAuthors:
		return "authors"
	}
	return fmt.Sprintf("BetaRule(%d)", int(b))
}

// ParseBeta parses "paper" or "authors".
func ParseBeta(s string) (BetaRule, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "paper":
		return BetaPaper, nil
	case "authors":
		return BetaAuthors, nil
	}
	return 0, fmt.Errorf("%w: unknown beta rule %q (want paper or authors)", ErrBadConfig, s)
}

// Default protocol and acquisition-optimizer budgets.
const (
	DefaultInit       = 5
	DefaultIters      = 50
	DefaultRawSamples = 512
	DefaultStarts     = 10
	DefaultMaxIter    = 100
)

// Config configures an Optimizer and Run. The zero value is the paper's
// protocol with the base kernel: GP-UCB with β_t = 0.5·d·log t, every
// kernel fitted on its own likelihood, 5 uniform initial points then 50
// iterations, 512 quasi-random raw samples and 10 quasi-Newton starts.
type Config struct {
	// Kernel: base (the zero value "" means base), avg, max or plus.
	Kernel KernelKind
	// Shape overrides the base kernel shape (Run: the problem's
	// BaseShape; New: its shape argument).
	Shape *kernel.Shape
	// Acquisition: UCB (default) or EI.
	Acquisition Acquisition
	// Beta: BetaPaper (default) or BetaAuthors. Used by UCB only.
	Beta BetaRule
	// FitMode: gp.ModeOwn (default, the paper) or gp.ModeBase (the
	// authors' code: fit the base kernel, reuse its hyperparameters).
	FitMode gp.Mode
	// Prior: gp.PriorNone (default, the plain likelihood) or
	// gp.PriorBoTorch (MAP with BoTorch's classic SingleTaskGP priors; the
	// lengthscale prior is on ℓ divided by the box's largest side, i.e. on
	// the unit-cube scale of BoTorch's input normalization).
	Prior gp.Prior
	// Restarts is the number of random hyperparameter starts per fit
	// besides the previous optimum and the default (gp.FitOptions): 0 means
	// gp's default (2), negative none.
	Restarts int
	// FixNoise holds the GP noise variance at Noise (units of y) instead
	// of fitting it. Run sets Noise to the problem's NoiseVariance when
	// Noise is 0.
	FixNoise bool
	Noise    float64
	// Init is the number of uniform random initial points (0 means 5);
	// Iters the number of acquisition steps in Run (0 means 50).
	Init, Iters int
	// RawSamples quasi-random points (0 means 512) are scored; the best
	// Starts of them (0 means 10), with the best observed point, start a
	// bounded quasi-Newton ascent of at most MaxIter iterations (0 means
	// 100).
	RawSamples, Starts, MaxIter int
	// Workers is the number of goroutines for the acquisition optimizer and
	// kernel assembly; 0 means GOMAXPROCS. Results do not depend on it.
	Workers int
	// Backend does the GP's linear algebra; nil means linalg.Default().
	Backend linalg.Backend
}

// withDefaults returns c with zero fields replaced by their defaults, or an
// error for invalid fields.
func (c Config) withDefaults() (Config, error) {
	if c.Kernel == "" {
		c.Kernel = Base
	}
	k, err := ParseKernel(string(c.Kernel))
	if err != nil {
		return c, err
	}
	c.Kernel = k
	if c.Acquisition != UCB && c.Acquisition != EI {
		return c, fmt.Errorf("%w: acquisition %v", ErrBadConfig, c.Acquisition)
	}
	if c.Beta != BetaPaper && c.Beta != BetaAuthors {
		return c, fmt.Errorf("%w: beta rule %v", ErrBadConfig, c.Beta)
	}
	if c.FitMode != gp.ModeOwn && c.FitMode != gp.ModeBase {
		return c, fmt.Errorf("%w: fit mode %v", ErrBadConfig, c.FitMode)
	}
	if c.Prior != gp.PriorNone && c.Prior != gp.PriorBoTorch {
		return c, fmt.Errorf("%w: prior %v", ErrBadConfig, c.Prior)
	}
	for _, f := range []struct {
		name string
		v    *int
		def  int
	}{
		{"Init", &c.Init, DefaultInit},
		{"Iters", &c.Iters, DefaultIters},
		{"RawSamples", &c.RawSamples, DefaultRawSamples},
		{"Starts", &c.Starts, DefaultStarts},
		{"MaxIter", &c.MaxIter, DefaultMaxIter},
	} {
		if *f.v < 0 {
			return c, fmt.Errorf("%w: %s = %d is negative", ErrBadConfig, f.name, *f.v)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if c.Workers < 0 {
		return c, fmt.Errorf("%w: Workers = %d is negative", ErrBadConfig, c.Workers)
	}
	if c.FixNoise && (!(c.Noise >= 0) || c.Noise > 1e300) {
		return c, fmt.Errorf("%w: Noise = %v", ErrBadConfig, c.Noise)
	}
	if c.Backend == nil {
		b, err := linalg.Default()
		if err != nil {
			return c, fmt.Errorf("bo: %w", err)
		}
		c.Backend = b
	}
	return c, nil
}
