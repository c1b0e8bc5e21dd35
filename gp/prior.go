package gp

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Prior selects hyperparameter priors for Fit. With a prior, Fit maximizes
// the log marginal likelihood plus the log prior densities (MAP) instead of
// the likelihood alone.
type Prior int

const (
	// PriorNone fits the plain marginal likelihood (the default).
	PriorNone Prior = iota
	// PriorBoTorch is the classic default of BoTorch's SingleTaskGP
	// (BoTorch < 0.12, GPyTorch GammaPriors), on inputs normalized to the
	// unit cube and standardized outputs:
	//
	//	lengthscale ℓ/w ~ Gamma(concentration 3, rate 6)
	//	outputscale v   ~ Gamma(2, 0.15)
	//	noise σ²        ~ Gamma(1.1, 0.05)  (not used with FixNoise)
	//
	// with w = FitOptions.PriorScale, the box width that the unit-cube
	// normalization divides by (one width for the isotropic kernels here).
	// As in GPyTorch, the densities are evaluated at the constrained values
	// themselves: no Jacobian term for the log parametrization. BoTorch's
	// noise constraint σ² ≥ 1e-4 also applies (the default noise bounds
	// become [1e-4, 1] unless NoiseBounds is set).
	PriorBoTorch
)

// Gamma parameters (concentration, rate) of PriorBoTorch and its noise
// floor (BoTorch's MIN_INFERRED_NOISE_LEVEL), as its documentation states
// them.
const (
	botorchLengthShape, botorchLengthRate = 3, 6
	botorchScaleShape, botorchScaleRate   = 2, 0.15
	botorchNoiseShape, botorchNoiseRate   = 1.1, 0.05
	botorchNoiseMin                       = 1e-4
)

func (p Prior) String() string {
	switch p {
	case PriorNone:
		return "none"
	case PriorBoTorch:
		return "botorch"
	}
	return fmt.Sprintf("Prior(%d)", int(p))
}

// ParsePrior parses "none" or "botorch" (case-insensitive).
func ParsePrior(s string) (Prior, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "none", "":
		return PriorNone, nil
	case "botorch":
		return PriorBoTorch, nil
	}
	return 0, fmt.Errorf("%w: unknown prior %q (want none or botorch)", ErrInvalid, s)
}

// gammaPrior is the Gamma(a, b) density (concentration a, rate b).
type gammaPrior struct{ a, b float64 }

// logPDF returns log p(x) for x = e^t and its derivative in t (no
// Jacobian: d/dt of log p(e^t)).
func (g gammaPrior) logPDF(t float64) (float64, float64) {
	lg, _ := math.Lgamma(g.a)
	x := math.Exp(t)
	return g.a*math.Log(g.b) - lg + (g.a-1)*t - g.b*x, (g.a - 1) - g.b*x
}

// priorSpec is a resolved Prior: nil means none.
type priorSpec struct {
	v, l, n    gammaPrior
	logW       float64 // log of the lengthscale unit
	fixedNoise bool
}

func newPriorSpec(p Prior, w float64) (*priorSpec, error) {
	switch p {
	case PriorNone:
		return nil, nil
	case PriorBoTorch:
	default:
		return nil, fmt.Errorf("%w: unknown prior %d", ErrInvalid, int(p))
	}
	if !(w > 0) || math.IsInf(w, 0) {
		return nil, fmt.Errorf("%w: prior scale %v must be positive and finite", ErrInvalid, w)
	}
	return &priorSpec{
		v:    gammaPrior{botorchScaleShape, botorchScaleRate},
		l:    gammaPrior{botorchLengthShape, botorchLengthRate},
		n:    gammaPrior{botorchNoiseShape, botorchNoiseRate},
		logW: math.Log(w),
	}, nil
}

// logDensity returns the log prior at θ = (log v, log ℓ, log σ²) and, if
// grad is not nil, adds its derivatives in θ to grad.
func (ps *priorSpec) logDensity(th [3]float64, grad []float64) float64 {
	if ps == nil {
		return 0
	}
	lv, dv := ps.v.logPDF(th[0])
	ll, dl := ps.lengthLog(th[1])
	s := lv + ll
	if grad != nil {
		grad[0] += dv
		grad[1] += dl
	}
	if !ps.fixedNoise {
		ln, dn := ps.n.logPDF(th[2])
		s += ln
		if grad != nil {
			grad[2] += dn
		}
	}
	return s
}

// lengthLog is the lengthscale term at log ℓ.
func (ps *priorSpec) lengthLog(logl float64) (float64, float64) {
	return ps.l.logPDF(logl - ps.logW)
}

// maxSide is the largest side of the bounding box of x, or 1 if it is 0
// or at the rounding level of x's coordinates (atRounding, as dataScale:
// a width of 5.6e-17 for inputs one ulp apart centred the lengthscale
// prior near 1e-16, where equal inputs get width 1).
func maxSide(x *mat.Dense) float64 {
	_, d := x.Dims()
	var s, m float64
	for j := range d {
		lo, hi := colRange(x, j)
		s = max(s, hi-lo)
		m = max(m, math.Abs(lo), math.Abs(hi))
	}
	if !(s > 0) || math.IsInf(s, 0) || atRounding(s, m) {
		return 1
	}
	return s
}
