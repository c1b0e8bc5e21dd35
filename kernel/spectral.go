package kernel

import (
	"fmt"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
)

// ErrSpectrum reports an eigendecomposition that cannot be truncated: no
// eigenvalues, or a largest eigenvalue that is not positive and finite
// (e.g. a Gram of variance 1e308 whose eigenvalues overflow).
var ErrSpectrum = errclass.New(errclass.Input, "kernel: no positive finite largest eigenvalue")

// Truncate is k_plus's spectral cut-off, the one rule every PSD projection
// in symbo applies (NewPlus, gp's plus family and its prediction, and the
// profiler). values are the eigenvalues of an n×n symmetric matrix in
// ascending order; the kept ones are λ > thr = tol·λ_max with tol =
// relTol, or n·2⁻⁵² when relTol is 0 (see PlusOptions.RelTol). It returns
// thr and first, the index of the first kept eigenvalue, so values[first:]
// are exactly those kept (first = 0: nothing is clipped). relTol must lie
// in [0, 1). It fails, wrapping ErrSpectrum, when values is empty or
// λ_max is not positive and finite; values is not modified.
func Truncate(values []float64, relTol float64) (first int, thr float64, err error) {
	n := len(values)
	if n == 0 {
		return 0, 0, fmt.Errorf("%w: empty spectrum", ErrSpectrum)
	}
	if !(relTol >= 0 && relTol < 1) {
		return 0, 0, fmt.Errorf("%w: relative eigenvalue tolerance must lie in [0, 1), got %v", ErrInvalid, relTol)
	}
	lmax := values[n-1]
	if !(lmax > 0) || lmax > maxFinite {
		return 0, 0, fmt.Errorf("%w (largest eigenvalue %v of %d)", ErrSpectrum, lmax, n)
	}
	tol := relTol
	if tol == 0 {
		tol = float64(n) * 0x1p-52
	}
	thr = tol * lmax
	first = n
	for first > 0 && values[first-1] > thr {
		first--
	}
	return first, thr, nil
}

const maxFinite = 1.7976931348623157e308

// ProjectTo writes the PSD projection K₊ = Q·diag(f(λ))·Qᵀ of the matrix
// whose eigendecomposition is eig into dst (n×n, resized if empty), with
// f(λ) = λ for the eigenvalues Truncate keeps and 0 otherwise. When
// nothing is clipped it returns false without writing dst, and the caller
// uses the matrix itself (K₊ = K); otherwise it returns true. scratch
// (n×n, resized if empty) holds Q·diag(f(λ)). be nil means
// linalg.Default(). eig is as a Backend's EigenSym wrote it (n values, n×n
// vectors); a nil eig has no eigenvalues, ErrSpectrum, as Truncate says.
// After Truncate's errors (O(n)), a nil dst or scratch is an error
// wrapping ErrNilArgument, a non-empty one that is not n×n ErrDstShape,
// and an eig whose Vectors are not n×n (n = len(eig.Values)) ErrInvalid,
// as is passing one matrix as two of dst, scratch and eig.Vectors — all
// checked in O(1) before any work (distinct views of one matrix that
// share elements are the caller's to avoid: the backend's Gemm panics on
// them).
// Cost: one n×n×n product through be when something is clipped, O(n)
// otherwise.
func ProjectTo(be linalg.Backend, dst *mat.Dense, scratch *mat.Dense, eig *linalg.Eigen, relTol float64) (clipped bool, err error) {
	if eig == nil {
		eig = &linalg.Eigen{}
	}
	first, _, err := Truncate(eig.Values, relTol)
	if err != nil {
		return false, err
	}
	n := len(eig.Values)
	if err := checkDst(dst, n, n); err != nil {
		return false, fmt.Errorf("kernel: ProjectTo: %w", err)
	}
	if scratch == nil {
		return false, fmt.Errorf("kernel: ProjectTo: %w: scratch is a nil *mat.Dense", ErrNilArgument)
	}
	if err := checkDst(scratch, n, n); err != nil {
		return false, fmt.Errorf("kernel: ProjectTo: scratch: %w", err)
	}
	if dst == scratch || dst == eig.Vectors || scratch == eig.Vectors {
		return false, fmt.Errorf("%w: ProjectTo: dst, scratch and eig.Vectors must be distinct matrices", ErrInvalid)
	}
	if eig.Vectors == nil {
		return false, fmt.Errorf("%w: ProjectTo: eig has %d values and no vectors", ErrInvalid, n)
	}
	if r, c := eig.Vectors.Dims(); r != n || c != n {
		return false, fmt.Errorf("%w: ProjectTo: eig has %d values and %d×%d vectors", ErrInvalid, n, r, c)
	}
	if first == 0 {
		return false, nil
	}
	if be == nil {
		if be, err = linalg.Default(); err != nil {
			return false, fmt.Errorf("kernel: ProjectTo: %w", err)
		}
	}
	if scratch.IsEmpty() {
		scratch.ReuseAs(n, n)
	}
	q, s := eig.Vectors.RawMatrix(), scratch.RawMatrix()
	for i := range n {
		qi, si := q.Data[i*q.Stride:i*q.Stride+n], s.Data[i*s.Stride:i*s.Stride+n]
		for j, v := range qi {
			if j < first {
				si[j] = 0
			} else {
				si[j] = v * eig.Values[j]
			}
		}
	}
	if dst.IsEmpty() {
		dst.ReuseAs(n, n)
	}
	be.Gemm(false, true, 1, scratch, eig.Vectors, 0, dst)
	return true, nil
}
