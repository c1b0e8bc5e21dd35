package gp

import (
	"errors"
	"fmt"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// mixFamily is the family of the correlations (1−w)·A_ℓ + w·B_ℓ of two
// families on the same R^d at a shared lengthscale.
type mixFamily struct {
	a, b Family
	w    float64
}

// NewMixFamily returns the family C_ℓ = (1−w)·A_ℓ + w·B_ℓ of two families
// a and b on the same R^d at one shared lengthscale ℓ, 0 < w < 1: a sum of
// two positive semi-definite covariances, so itself one, whose signal
// variance is split between the two parts. Mixing an invariant family a
// with a non-invariant b of the same shape makes a GP prior that is an
// invariant function plus a smaller non-invariant one (a residual pathway:
// Finzi, Benton and Wilson, "Residual Pathway Priors for Soft Equivariance
// Constraints", NeurIPS 2021), so the data can overrule a group that is
// wrong without the model giving it up where it holds (bo.Soft).
//
// Its GPs are exact (n×n) whatever a and b are; when both are
// NewPlusFamily's, Predict and PredictGrad use the feature form of the two
// Nyström extensions (O(n·(r_a + r_b)) per prediction after the two
// kernel rows). A part over a group with a canonical map φ
// (orbit.Canonicalizer, the trivial group included) takes its row as the
// base kernel of φ(x) against φ(X), k_max(x, y) = k_b(φ(x), φ(y)): O(n·cd)
// after one φ(x), where k_max in x aligns x with each of the n points, and
// its gradient chains through φ's Jacobian by central differences (2·d
// evaluations of φ; exact up to rounding off φ's kinks). ∂C/∂log ℓ is the mix of the parts' (ErrNoDerivative if
// either has none). ModeBase fits a's base family. Cost of one
// correlation matrix: that of a plus that of b, plus O(n²); a part that
// is k_plus over a group with a canonical map enters as its PSD Gram
// κ(d_G/ℓ), without the projection's eigendecomposition (psdPlus).
func NewMixFamily(a, b Family, w float64) (Family, error) {
	if check.IsNil(a) || check.IsNil(b) {
		return nil, fmt.Errorf("%w: NewMixFamily needs two families", ErrNilArgument)
	}
	if a.Dim() != b.Dim() {
		return nil, fmt.Errorf("%w: NewMixFamily: dimensions %d and %d differ", ErrInvalid, a.Dim(), b.Dim())
	}
	if !(w > 0 && w < 1) {
		return nil, fmt.Errorf("%w: NewMixFamily: weight %v outside (0, 1)", ErrInvalid, w)
	}
	return &mixFamily{a: a, b: b, w: w}, nil
}

// Dim is d.
func (f *mixFamily) Dim() int { return f.a.Dim() }

// Base is a's base family (ModeBase), or an error family if a has none.
func (f *mixFamily) Base() Family {
	if bf, ok := f.a.(baser); ok {
		return bf.Base()
	}
	return errFamily{d: f.Dim(), err: errNoBase(f.a)}
}

// memory is an exact GP's plus both parts' scratch.
func (f *mixFamily) memory(n int) float64 {
	return denseMemory(n) + familyMemory(f.a, n) + familyMemory(f.b, n)
}

// Bind binds both parts to x.
func (f *mixFamily) Bind(x *mat.Dense) (Bound, error) {
	ba, err := bind(f.a, x)
	if err != nil {
		return nil, err
	}
	bb, err := bind(f.b, x)
	if err != nil {
		return nil, err
	}
	return &mixBound{f: f, a: ba, b: bb, rawA: psdPlus(ba), rawB: psdPlus(bb)}, nil
}

type mixBound struct {
	f    *mixFamily
	a, b Bound
	// rawA, rawB: the part when it is k_plus over a group with a canonical
	// map (psdPlus), else nil.
	rawA, rawB *plusBound
}

// psdPlus returns b if it is k_plus over a group with a canonical map
// (orbit.Canonicalizer: the trivial group, sign flips, permutations,
// signed permutations, planar rotations, scalingdir), where
// k_max(x, y) = k_b(φ(x), φ(y)) is a base kernel of the canonical points
// and its Gram κ(d_G/ℓ) is PSD by construction (the paper's Proposition 1):
// the projection would drop only eigenvalues below n·2⁻⁵²·λ_max
// (kernel.Truncate), so the mix's CorrTo takes that Gram as it is, without
// an eigendecomposition. Otherwise nil.
func psdPlus(b Bound) *plusBound {
	pb, ok := b.(*plusBound)
	if !ok {
		return nil
	}
	if _, ok := pb.f.max.group.(orbit.Canonicalizer); !ok {
		return nil
	}
	return pb
}

// partCorrTo is a part's CorrTo, or its Gram as it is (psdPlus).
func partCorrTo(b Bound, raw *plusBound, dst, dLog *mat.SymDense, l float64) error {
	if raw != nil {
		return corrTo(raw.f.max.shape, raw.dist, dst, dLog, l)
	}
	return b.CorrTo(dst, dLog, l)
}

// CorrTo is safe for concurrent use if both parts' are: its scratch is
// allocated per call.
func (m *mixBound) CorrTo(dst, dLog *mat.SymDense, l float64) error {
	var cb, db mat.SymDense
	var dbp *mat.SymDense
	if dLog != nil {
		dbp = &db
	}
	errA := partCorrTo(m.a, m.rawA, dst, dLog, l)
	if errA != nil && !isNoDerivative(errA) {
		return errA
	}
	errB := partCorrTo(m.b, m.rawB, &cb, dbp, l)
	if errB != nil && !isNoDerivative(errB) {
		return errB
	}
	w := m.f.w
	n := dst.SymmetricDim()
	for i := range n {
		for j := i; j < n; j++ {
			dst.SetSym(i, j, (1-w)*dst.At(i, j)+w*cb.At(i, j))
		}
	}
	if dLog == nil {
		return nil
	}
	if errA != nil {
		return errA
	}
	if errB != nil {
		return errB
	}
	for i := range n {
		for j := i; j < n; j++ {
			dLog.SetSym(i, j, (1-w)*dLog.At(i, j)+w*db.At(i, j))
		}
	}
	return nil
}

// Kernel is (1−w)·v·A_ℓ + w·v·B_ℓ.
func (m *mixBound) Kernel(v, l float64) (kernel.Kernel, error) {
	w := m.f.w
	ka, err := boundKernel(m.a, (1-w)*v, l)
	if err != nil {
		return nil, err
	}
	kb, err := boundKernel(m.b, w*v, l)
	if err != nil {
		return nil, err
	}
	return &mixKernel{a: ka, b: kb, step: l}, nil
}

// mixKernel is the sum a + b of two kernels on R^d. Its gradient is the
// parts' (kernel.Grad: central differences with steps relative to step for
// a part that has none).
type mixKernel struct {
	a, b kernel.Kernel
	step float64
}

func (k *mixKernel) Dim() int { return k.a.Dim() }

func (k *mixKernel) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	if err := k.a.CrossTo(dst, x, y); err != nil {
		return err
	}
	r, c := dst.Dims()
	t := mat.NewDense(r, c, nil)
	if err := k.b.CrossTo(t, x, y); err != nil {
		return err
	}
	dst.Add(dst, t)
	return nil
}

func (k *mixKernel) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) {
	dst, err := k.a.DiagTo(dst, x)
	if err != nil {
		return nil, err
	}
	db, err := k.b.DiagTo(nil, x)
	if err != nil {
		return nil, err
	}
	for i, v := range db {
		dst[i] += v
	}
	return dst, nil
}

func (k *mixKernel) GradTo(dst *mat.Dense, x []float64, y *mat.Dense) error {
	if err := kernel.Grad(k.a, dst, x, y, k.step); err != nil {
		return err
	}
	r, c := dst.Dims()
	t := mat.NewDense(r, c, nil)
	if err := kernel.Grad(k.b, t, x, y, k.step); err != nil {
		return err
	}
	dst.Add(dst, t)
	return nil
}

// plusParts returns the parts of the feature-form posterior of a bound:
// one plusBound at variance v, or both of a mix of two, at their shares.
func plusParts(b Bound, v float64) []plusPart {
	switch b := b.(type) {
	case *plusBound:
		return []plusPart{{b: b, v: v}}
	case *mixBound:
		pa, okA := b.a.(*plusBound)
		pb, okB := b.b.(*plusBound)
		if okA && okB {
			return []plusPart{{b: pa, v: (1 - b.f.w) * v}, {b: pb, v: b.f.w * v}}
		}
	}
	return nil
}

// isNoDerivative reports whether err is a family's ErrNoDerivative marker.
func isNoDerivative(err error) bool { return errors.Is(err, ErrNoDerivative) }
