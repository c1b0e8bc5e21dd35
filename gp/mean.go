package gp

import (
	"fmt"
	"math"
	"strings"
)

// Mean selects the prior mean of the standardized outputs.
type Mean int

const (
	// MeanSample is the prior mean 0 on the standardized scale, that is
	// the sample mean of y (the default, the paper's protocol).
	MeanSample Mean = iota
	// MeanConstant is a constant prior mean m fitted with the other
	// hyperparameters by maximum likelihood, as BoTorch's SingleTaskGP
	// fits its ConstantMean. For any covariance K the maximizer is the
	// generalized least squares estimate m̂ = 1ᵀK⁻¹y / 1ᵀK⁻¹1 (closed
	// form), so the fit profiles it out: the likelihood of K is that of
	// the residual y − m̂·1, and the posterior mean is m̂ + k(x, X)·K⁻¹(y −
	// m̂·1). The posterior variance does not include the uncertainty of
	// m̂ (BoTorch's neither: m is a point estimate there too).
	MeanConstant
)

func (m Mean) String() string {
	switch m {
	case MeanSample:
		return "sample"
	case MeanConstant:
		return "constant"
	}
	return fmt.Sprintf("Mean(%d)", int(m))
}

// ParseMean parses "sample" or "constant" (case-insensitive; "" is
// "sample").
func ParseMean(s string) (Mean, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "sample", "":
		return MeanSample, nil
	case "constant":
		return MeanConstant, nil
	}
	return 0, fmt.Errorf("%w: unknown mean %q (want sample or constant)", ErrInvalid, s)
}

func (m Mean) check() error {
	if m != MeanSample && m != MeanConstant {
		return fmt.Errorf("%w: unknown mean %d", ErrInvalid, int(m))
	}
	return nil
}

// glsSpectral returns the constant mean m̂ = Σ ỹ_i·õ_i/d_i / Σ õ_i²/d_i and
// the residual quadratic form A = Σ (ỹ_i − m̂·õ_i)²/d_i of a covariance with
// eigenvalues d_i = α·λ_i + β + jit, where ỹ and õ are the projections of y
// and of the vector of ones on its eigenvectors, plus one more eigenvalue
// d0 = β + jit (of the zero block of a low-rank spectrum; skipped when
// tailO is 0) on whose eigenvector they project to tailY and tailO, and
// rest/d0 (y's part orthogonal to everything above). The residual is
// summed term by term, not as the difference Σ ỹ²/d − m̂²·Σ õ²/d, which
// would lose digits when the mean explains most of y.
func glsSpectral(lam, yt, ot []float64, alpha, beta, jit, tailY, tailO, rest float64) (m, a float64) {
	var yo, oo float64
	for i, l := range lam {
		d := alpha*l + beta + jit
		yo += yt[i] * ot[i] / d
		oo += ot[i] * ot[i] / d
	}
	d0 := beta + jit
	if tailO != 0 {
		yo += tailY * tailO / d0
		oo += tailO * tailO / d0
	}
	if oo > 0 && !math.IsInf(oo, 0) {
		m = yo / oo
	}
	for i, l := range lam {
		d := alpha*l + beta + jit
		r := yt[i] - m*ot[i]
		a += r * r / d
	}
	if tailO != 0 {
		r := tailY - m*tailO
		a += r * r / d0
	}
	if rest != 0 {
		a += rest / d0
	}
	return m, a
}
