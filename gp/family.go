package gp

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"gonum.org/v1/gonum/mat"
)

// ErrNoDerivative is returned (wrapped) by Bound.CorrTo when asked for
// ∂C/∂log ℓ by a family that cannot provide it. fitBFGS then falls back to a
// derivative-free search (Nelder–Mead in log space). It is an internal
// error: a marker Fit catches, returned only by a caller's own Family.
var ErrNoDerivative = errclass.New(errclass.Internal, "gp: correlation has no lengthscale derivative")

// Family is a one-parameter family of unit-variance correlation functions
// C_ℓ on R^d: the GP covariance is v·C_ℓ(x, x') with signal variance v and
// lengthscale ℓ.
//
// A Family, its Bounds and their kernels must be safe for concurrent use,
// as this package's are: Fit calls a Bound's CorrTo from several
// goroutines from 200 observations (see Fitting), a GP calls its kernel
// from every goroutine that predicts with it, and bo fits a portfolio's
// candidates and runs the acquisition's starts on Config.Workers
// goroutines. A caller's own (FamilyOf's constructor and the kernels it
// returns, or a Family of its own) must be too.
type Family interface {
	// Dim is d.
	Dim() int
	// Bind precomputes what does not depend on the hyperparameters (e.g.
	// the pairwise distances) for the training inputs x (n×d, one point per
	// row). x is not retained; the Bound owns a copy if it needs one.
	Bind(x *mat.Dense) (Bound, error)
}

// Bound is a Family bound to training inputs x (n×d).
type Bound interface {
	// CorrTo writes C_ℓ(x_i, x_j) into dst (n×n, resized if empty) and,
	// when dLog is not nil, ∂C_ℓ/∂log ℓ into dLog (n×n, resized if
	// empty). If the family has no derivative it fills dst and returns an
	// error wrapping ErrNoDerivative. This package's Bounds return
	// ErrNilArgument for a nil dst and ErrInvalid for a mis-shaped dst or
	// dLog or a lengthscale outside [kernel.MinLengthscale,
	// kernel.MaxLengthscale].
	CorrTo(dst, dLog *mat.SymDense, lengthscale float64) error
	// Kernel returns the covariance v·C_ℓ as a kernel, for prediction at new
	// points. On x×x it agrees with v·CorrTo (up to rounding and, for plus,
	// the eigenvalue tolerance of kernel.Plus).
	Kernel(variance, lengthscale float64) (kernel.Kernel, error)
}

// checkBind refuses, for a Family's Bind, a nil or empty x, one whose
// width is not the family's dimension d, and a NaN or ±Inf coordinate
// (ErrInvalid): O(n·d), against Bind's O(n²) distances or more.
func checkBind(x *mat.Dense, d int) error {
	if x == nil || x.IsEmpty() {
		return fmt.Errorf("%w: Bind: no inputs", ErrInvalid)
	}
	n, c := x.Dims()
	if c != d {
		return fmt.Errorf("%w: inputs have %d columns, family dimension is %d", ErrInvalid, c, d)
	}
	raw := x.RawMatrix()
	for i := range n {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: input (%d, %d) is %v", ErrInvalid, i, j, v)
			}
		}
	}
	return nil
}

// checkCorr refuses, for a Bound's CorrTo over n points, a nil dst
// (ErrNilArgument), a non-empty dst or dLog that is not n×n, and a
// lengthscale outside [kernel.MinLengthscale, kernel.MaxLengthscale], the
// range Hyper and Fit keep to (ErrInvalid). O(1).
func checkCorr(n int, dst, dLog *mat.SymDense, l float64) error {
	if dst == nil {
		return fmt.Errorf("%w: CorrTo: nil dst", ErrNilArgument)
	}
	if !dst.IsEmpty() && dst.SymmetricDim() != n {
		return fmt.Errorf("%w: CorrTo: dst is %d×%d, want %d×%d", ErrInvalid, dst.SymmetricDim(), dst.SymmetricDim(), n, n)
	}
	if dLog != nil && !dLog.IsEmpty() && dLog.SymmetricDim() != n {
		return fmt.Errorf("%w: CorrTo: dLog is %d×%d, want %d×%d", ErrInvalid, dLog.SymmetricDim(), dLog.SymmetricDim(), n, n)
	}
	if !(l >= kernel.MinLengthscale && l <= kernel.MaxLengthscale) {
		return fmt.Errorf("%w: CorrTo: lengthscale must lie in [%g, %g], got %v", ErrInvalid, kernel.MinLengthscale, kernel.MaxLengthscale, l)
	}
	return nil
}

// bind is fam.Bind(x), with a Bound that is nil without an error (a
// caller's family) refused as ErrNilArgument: every Bind of a family that
// may be the caller's goes through it.
func bind(fam Family, x *mat.Dense) (Bound, error) {
	b, err := fam.Bind(x)
	if err == nil && check.IsNil(b) {
		return nil, fmt.Errorf("%w: family %T's Bind returned no Bound and no error", ErrNilArgument, fam)
	}
	return b, err
}

// boundKernel is b.Kernel(v, l), with a kernel that is nil without an
// error (a caller's Bound) refused as ErrNilArgument.
func boundKernel(b Bound, v, l float64) (kernel.Kernel, error) {
	k, err := b.Kernel(v, l)
	if err == nil && check.IsNil(k) {
		return nil, fmt.Errorf("%w: Bound %T's Kernel returned no kernel and no error", ErrNilArgument, b)
	}
	return k, err
}

// baser is implemented by families that know their base (Euclidean)
// family, used by Fit in ModeBase. A caller's family joins by having the
// method.
type baser interface {
	Base() Family
}

// errNoBase is the error of ModeBase for a family fam that is not a baser
// (Fit's, and the base of a sparse or mixed family over one).
func errNoBase(fam Family) error {
	return fmt.Errorf("%w: ModeBase: family %T has no base family", ErrInvalid, fam)
}

// constDiag is implemented by the Bounds of this package whose kernel has
// a k(x, x) that does not depend on x (stationary and max kernels), so that
// prediction skips the gradient of the prior variance.
type constDiag interface {
	constantDiag() bool
}
