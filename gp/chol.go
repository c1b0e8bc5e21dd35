package gp

import (
	"errors"
	"fmt"

	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
)

// Jitter escalation: a Cholesky that fails is retried with jitterStart·m
// added to the diagonal (m = mean diagonal entry), the jitter multiplied by
// jitterFactor until it exceeds jitterMax·m.
const (
	jitterStart  = 1e-10
	jitterMax    = 1e-4
	jitterFactor = 10
)

// factorJitter factors k = L·Lᵀ into dst, escalating a diagonal jitter when
// k is not numerically positive definite. It returns the jitter added (0
// when none was needed). work is scratch of k's size (resized if empty). k
// is not modified.
func factorJitter(b linalg.Backend, dst *linalg.Cholesky, k, work *mat.SymDense) (float64, error) {
	err := b.Cholesky(dst, k)
	if err == nil {
		return 0, nil
	}
	if !errors.Is(err, linalg.ErrNotPositiveDefinite) {
		return 0, fmt.Errorf("gp: Cholesky: %w", err)
	}
	n := k.SymmetricDim()
	var m float64
	for i := range n {
		m += k.At(i, i)
	}
	m /= float64(n)
	if m == 0 {
		// A diagonal that underflowed to 0 (k_avg's v/|G| terms of a
		// subnormal variance, no noise): the largest jitter is 0, a
		// covariance near the smallest float64 as below.
		return 0, fmt.Errorf("%w: covariance (n = %d) has mean diagonal 0, too small for a jitter in float64 (raise the variance or the noise): %w",
			ErrOverflow, n, linalg.ErrNotPositiveDefinite)
	}
	if !(m > 0) {
		return 0, fmt.Errorf("gp: covariance has mean diagonal %v: %w", m, linalg.ErrNotPositiveDefinite)
	}
	if work.IsEmpty() {
		work.ReuseAsSym(n)
	}
	var jit float64
	for rel := jitterStart; rel <= jitterMax*(1+1e-9); rel *= jitterFactor {
		jit = rel * m
		work.CopySym(k)
		for i := range n {
			work.SetSym(i, i, work.At(i, i)+jit)
		}
		if err = b.Cholesky(dst, work); err == nil {
			return jit, nil
		}
		if !errors.Is(err, linalg.ErrNotPositiveDefinite) {
			return 0, fmt.Errorf("gp: Cholesky: %w", err)
		}
	}
	if jitterTooSmall(m) {
		return 0, fmt.Errorf("%w: covariance (n = %d) not positive definite, and its mean diagonal %g too small for a jitter in float64 (raise the variance or the noise): %w",
			ErrOverflow, n, m, linalg.ErrNotPositiveDefinite)
	}
	return 0, fmt.Errorf("gp: covariance (n = %d) not positive definite even with jitter %.3g (%.0e × mean diagonal): %w",
		n, jit, jitterMax, linalg.ErrNotPositiveDefinite)
}

// jitterTooSmall reports whether the largest jitter, jitterMax·m for the
// mean diagonal m, is zero or subnormal: a covariance near the smallest
// float64 (variance and noise there), which no jitter can make
// numerically definite. Its failure is then ErrOverflow, an input error
// as the package's Errors section says, not an internal
// "not positive definite even with jitter 0".
func jitterTooSmall(m float64) bool { return !(jitterMax*m >= 0x1p-1022) }

// spectralJitter is the jitter factorJitter would add to a covariance of
// order n whose eigenvalues d_i, known in closed form, have minimum dmin,
// maximum dmax and sum sum: none while dmin > n·ε·dmax (the Cholesky
// would succeed), else the first jitterStart·m, jitterStart·m·jitterFactor,
// … (m the mean diagonal, sum/n) that lifts dmin above that bound; ok is
// false when m ≤ 0 or even jitterMax·m does not.
func spectralJitter(n int, dmin, dmax, sum float64) (jit float64, ok bool) {
	tau := float64(n) * 0x1p-52 * dmax
	if dmin > tau {
		return 0, true
	}
	m := sum / float64(n)
	if !(m > 0) {
		return 0, false
	}
	for rel := jitterStart; rel <= jitterMax*(1+1e-9); rel *= jitterFactor {
		if jit = rel * m; dmin+jit > tau {
			return jit, true
		}
	}
	return 0, false
}
