package bo

import (
	"fmt"
	"math"
	"strings"
)

// Acquisition is an acquisition function: the score of a candidate point
// from the GP posterior there — its mean μ and standard deviation σ (of
// the latent f, without noise) on the GP's standardized output scale, a
// positive affine image of sign·y, which the optimizer maximizes — with
// the partial derivatives ∂α/∂μ and ∂α/∂σ, which the optimizer chains
// through ∂μ/∂x and ∂σ/∂x for its gradient ascent. The maximization (raw
// samples, starts, bounded quasi-Newton, the exclusion of pending and
// failed orbits) is the optimizer's and is the same for every
// acquisition.
//
// Implementations are stateless values, safe for concurrent use. UCB and
// EI are built in; a new acquisition is a type implementing this
// interface, plus its name in the table of ParseAcquisition to make it
// reachable by name (Config.Acquisition takes any value).
type Acquisition interface {
	// Name is the spelling in ParseAcquisition and in traces.
	Name() string
	// Value returns α(μ, σ) and its partial derivatives for the step c.
	// σ ≥ 0; at σ = 0 dsd is ignored and dmu must be the derivative the
	// ascent should follow. Values must be finite for finite inputs.
	Value(c AcqContext, mu, sd float64) (a, dmu, dsd float64)
}

// AcqContext is what an acquisition knows of the step besides the
// posterior at the point.
type AcqContext struct {
	// T is the acquisition step, t = n − Init + 1 ≥ 1, n counting the
	// observations, pending and failed points.
	T int
	// Beta is β_t of Config.Beta (≥ 0).
	Beta float64
	// Best is the incumbent: the best observed sign·y, standardized.
	Best float64
}

// BetaUser is implemented by acquisitions that read AcqContext.Beta:
// Diagnostics and traces record β for them, NaN otherwise.
type BetaUser interface {
	Acquisition
	UsesBeta()
}

// UCB is GP-UCB, α = μ + √β_t·σ (the default).
type UCB struct{}

// Name returns "ucb".
func (UCB) Name() string { return "ucb" }

// UsesBeta marks UCB as reading β.
func (UCB) UsesBeta() {}

// Value returns μ + √β·σ, 1 and √β.
func (UCB) Value(c AcqContext, mu, sd float64) (a, dmu, dsd float64) {
	sb := math.Sqrt(c.Beta)
	return mu + sb*sd, 1, sb
}

// EI is the expected improvement over the incumbent y⁺ (AcqContext.Best),
// α = (μ − y⁺)Φ(z) + σφ(z), z = (μ − y⁺)/σ; max(μ − y⁺, 0) at σ = 0.
type EI struct{}

// Name returns "ei".
func (EI) Name() string { return "ei" }

// Value returns the expected improvement, Φ(z) and φ(z).
func (EI) Value(c AcqContext, mu, sd float64) (a, dmu, dsd float64) {
	imp := mu - c.Best
	if !(sd > 0) {
		if imp > 0 {
			return imp, 1, 0
		}
		return max(imp, 0), 0, 0
	}
	z := imp / sd
	cdf := 0.5 * math.Erfc(-z/math.Sqrt2)
	pdf := math.Exp(-0.5*z*z) / math.Sqrt(2*math.Pi)
	return imp*cdf + sd*pdf, cdf, pdf
}

// acquisitions is the table of named acquisitions, the vocabulary of
// ParseAcquisition; the first is the default.
var acquisitions = [...]Acquisition{UCB{}, EI{}}

// HedgeAcquisition is the acquisition a hedging portfolio
// (DecideOptions.Hedge) maximizes beside a: UCB when a is EI, EI
// otherwise (UCB, nil — the default UCB — or an acquisition of the
// caller's own).
func HedgeAcquisition(a Acquisition) Acquisition {
	if _, ok := a.(EI); ok {
		return UCB{}
	}
	return EI{}
}

// AcquisitionNames lists the names ParseAcquisition accepts.
func AcquisitionNames() []string {
	out := make([]string, len(acquisitions))
	for i, a := range acquisitions {
		out[i] = a.Name()
	}
	return out
}

// ParseAcquisition returns the acquisition named s (case-insensitive; see
// AcquisitionNames).
func ParseAcquisition(s string) (Acquisition, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for _, a := range acquisitions {
		if a.Name() == name {
			return a, nil
		}
	}
	return nil, fmt.Errorf("%w: unknown acquisition %q (want %s)", ErrBadConfig, s, strings.Join(AcquisitionNames(), " or "))
}
