package kernel

import (
	"fmt"
	"sync"

	"github.com/symbo/symbo/internal/f64"

	"gonum.org/v1/gonum/mat"
)

// Preparer is implemented by kernels (Base, Avg, Max) whose CrossTo
// against fixed points y can skip their validation and preparation: a GP
// predicting at many x against its n training points prepares them once,
// and saves O(n·d) per prediction — for k_max over a finite group with a
// canonical map, n canonical forms; for k_avg's closed forms, n feature
// rows.
type Preparer interface {
	// Prepare validates y (m×d) as CrossTo does and prepares it. y must
	// not change while the result is used.
	Prepare(y *mat.Dense) (*Prepared, error)
	// CrossPreparedTo is CrossTo(dst, x, y) for the prepared y, with the
	// same bits. It fails with ErrBadPoints for a Prepared of another
	// kernel.
	CrossPreparedTo(dst, x *mat.Dense, p *Prepared) error
}

// GradPreparer is implemented by kernels (Avg) whose GradTo against fixed
// points y can use their preparation: for the enumerated k_avg, the
// orbits of y, which GradTo enumerates again at every call (|G|·d floats
// per point); for a closed form over a group on some coordinates, the
// prepared inner points, which GradTo prepares again for the inner
// values of its pairs. An acquisition's ascent differentiates against
// the same training points hundreds of times.
type GradPreparer interface {
	Preparer
	// GradPreparedTo is GradTo(dst, x, y) for the prepared y, with the
	// same bits. It fails with ErrBadPoints for a Prepared of another
	// kernel.
	GradPreparedTo(dst *mat.Dense, x []float64, p *Prepared) error
}

// CrossDiagPreparer is implemented by kernels (Avg) whose prior variance
// k(x, x) at query points can come from the work of their CrossTo
// against prepared points: the enumerated k_avg crosses a few x against
// many y by enumerating the orbit of each x (the symmetric order), and
// k(x, x) is one more column against that orbit, where DiagTo would
// enumerate it again. A GP predicting at one point at a time calls both.
type CrossDiagPreparer interface {
	Preparer
	// CrossDiagPreparedTo is CrossPreparedTo(dst, x, p) followed by
	// DiagTo(diag, x) (diag of length x's rows, allocated if nil), with
	// the same bits and the same errors, in that order.
	CrossDiagPreparedTo(dst *mat.Dense, diag []float64, x *mat.Dense, p *Prepared) ([]float64, error)
}

// MaxPreparedOrbits is the most floats of orbits a Prepared keeps for
// GradPreparedTo (m orbits of |G|·d floats, as enumerated and packed);
// beyond, and beyond a quarter of the kernel's memory budget
// (Options.Budget), GradPreparedTo enumerates each call as GradTo does.
const MaxPreparedOrbits = 1 << 22

// Prepared is points y prepared by a Preparer. It is safe for concurrent
// use: immutable, but for the enumerated k_avg's orbits, which the first
// GradPreparedTo computes, once, whichever goroutine calls it (if that
// panics, in a caller's group, none are kept and the calls after it take
// GradTo's own path). Its
// storage is m times the kernel's prepared row (d floats for the base
// kernel; more for some closed forms), and, once a gradient has asked
// for them, about 2·m·|G|·d floats of orbits (at most MaxPreparedOrbits).
type Prepared struct {
	owner any
	y     *mat.Dense
	m     int
	py    []float64 // every row by prepX; nil: CrossTo's own path on y
	// orbits, when set, is the enumeration whose orbits of y GradPreparedTo
	// keeps (within MaxPreparedOrbits and the budget); nil: GradTo's own
	// path.
	orbits  *enumEval
	orbOnce sync.Once
	orbs    []float64 // every row's orbit, |G|·d floats each
	porbs   []float64 // the same packed (f64.Pack), f64.PackedLen(|G|, d) floats each
}

// checkOwner refuses p (which may be nil) unless the kernel owner
// prepared it: every method taking a Prepared checks this first.
func (p *Prepared) checkOwner(owner any) error {
	if p == nil || p.owner != owner {
		return fmt.Errorf("%w: points prepared by another kernel (or nil)", ErrBadPoints)
	}
	return nil
}

// prepare is Prepare for the kernel owner whose evaluation is k's; rows:
// y is prepared for the kernel's own paths (not the normalized average's),
// and an enumerated average's orbits may be kept for GradPreparedTo.
func (k *orbitKernel) prepare(owner any, y *mat.Dense, rows bool) (*Prepared, error) {
	m, err := checkPoints("y", y, k.d, k.p.Lengthscale)
	if err != nil {
		return nil, err
	}
	p := &Prepared{owner: owner, y: y, m: m}
	if e := k.enumAvg; e != nil && rows {
		gd, pl := e.G*e.d, f64.PackedLen(e.G, e.d)
		if n := float64(m) * float64(gd+pl); n <= MaxPreparedOrbits && 4*8*n <= float64(k.budget.Bytes()) {
			p.orbits = e
		}
	}
	// crossTo's paths: the enumerated kernel crosses a few x against many
	// y transposed (crossToT), which prepares x instead; other
	// non-row evaluators prepare y column by column.
	re, ok := k.ev.(rowEvaluator)
	if _, enum := k.ev.(*enumEval); ok && !enum && rows {
		xl := re.xLen()
		p.py = make([]float64, m*xl)
		prepAll(p.py, re, y, m)
	}
	return p, nil
}

// crossPrepared is CrossTo against p for the kernel owner (cross: its
// CrossTo, the fallback).
func (k *orbitKernel) crossPrepared(owner any, dst, x *mat.Dense, p *Prepared, cross func(dst, x, y *mat.Dense) error) error {
	if err := p.checkOwner(owner); err != nil {
		return err
	}
	if p.py == nil {
		return cross(dst, x, p.y)
	}
	n, err := checkPoints("x", x, k.d, k.p.Lengthscale)
	if err != nil {
		return err
	}
	if err := checkOut(k.budget, dst, n, p.m); err != nil {
		return err
	}
	re := k.ev.(rowEvaluator)
	resizeDense(dst, n, p.m)
	nb := (p.m + crossTile - 1) / crossTile
	w := assemblyWorkers(k.nw(), n*nb, float64(n)*float64(p.m)*float64(k.ev.yLen()))
	crossRowsPrepared(re, w, dst, x, p.py, n, p.m)
	return nil
}

// Prepare prepares y for CrossPreparedTo (Preparer).
func (k *Base) Prepare(y *mat.Dense) (*Prepared, error) { return k.prepare(k, y, true) }

// CrossPreparedTo is CrossTo against prepared points (Preparer).
func (k *Base) CrossPreparedTo(dst, x *mat.Dense, p *Prepared) error {
	return k.crossPrepared(k, dst, x, p, k.CrossTo)
}

// Prepare prepares y for CrossPreparedTo (Preparer).
func (k *Max) Prepare(y *mat.Dense) (*Prepared, error) { return k.prepare(k, y, true) }

// CrossPreparedTo is CrossTo against prepared points (Preparer).
func (k *Max) CrossPreparedTo(dst, x *mat.Dense, p *Prepared) error {
	return k.crossPrepared(k, dst, x, p, k.CrossTo)
}

// Prepare prepares y for CrossPreparedTo (Preparer) and, enumerated,
// GradPreparedTo (GradPreparer). The normalized average keeps CrossTo's
// and GradTo's own paths (its diagonal cache).
func (a *Avg) Prepare(y *mat.Dense) (*Prepared, error) { return a.prepare(a, y, !a.norm) }

// CrossPreparedTo is CrossTo against prepared points (Preparer).
func (a *Avg) CrossPreparedTo(dst, x *mat.Dense, p *Prepared) error {
	return a.crossPrepared(a, dst, x, p, a.CrossTo)
}

// CrossDiagPreparedTo is CrossPreparedTo and DiagTo in one call
// (CrossDiagPreparer): where CrossTo enumerates the orbits of the rows of
// x (the enumerated average, x with fewer rows than p), k(x_i, x_i) is
// computed from the same orbit; elsewhere it is the two calls.
func (a *Avg) CrossDiagPreparedTo(dst *mat.Dense, diag []float64, x *mat.Dense, p *Prepared) ([]float64, error) {
	if err := p.checkOwner(a); err != nil {
		return diag, err
	}
	if rd, ok := diagRows(a.ev); ok && !a.norm && !a.diagIsV && p.py != nil && x != nil && !x.IsEmpty() && checkVecDst(diag, x.RawMatrix().Rows) == nil {
		if d, done, err := a.crossDiagRows(rd, dst, diag, x, p); done {
			return d, err
		}
	}
	e, enum := a.ev.(*enumEval)
	if a.norm || !enum || a.diagIsV || p.py != nil || x == nil || x.IsEmpty() || x.RawMatrix().Rows >= p.m {
		if err := a.CrossPreparedTo(dst, x, p); err != nil {
			return diag, err
		}
		return a.DiagTo(diag, x)
	}
	n, err := checkPoints("x", x, a.d, a.p.Lengthscale)
	if err != nil {
		return diag, err
	}
	if err := checkOut(a.budget, dst, n, p.m); err != nil {
		return diag, err
	}
	if err := checkVecDst(diag, n); err != nil {
		return diag, err
	}
	diag = resizeVec(diag, n)
	crossToTDiag(e, a.nw(), dst, x, p.y, n, p.m, diag)
	if err := a.finite("k(x, y)", dst); err != nil {
		return diag, err
	}
	if a.group != nil {
		return diag, finiteRows("k(x, x)", diag, 1, n, n)
	}
	return diag, nil
}

// crossDiagRows is CrossDiagPreparedTo for a row evaluator with rowDiag
// (the permanents, on their own coordinates or embedded) where the cross
// runs on one worker: each row of dst and k(x_i, x_i) in one pass, the
// pair (x_i, x_i) in the lanes the row leaves idle. Every entry has the
// bits of CrossPreparedTo's and DiagTo's (rowDiag's contract; a row's
// entries do not depend on its tiling), and the errors are theirs in
// their order (the caller checked diag's length, the one error DiagTo
// could add after CrossPreparedTo's checks). It reports whether it ran
// (done): not when the cross would take more than one worker, whose
// split the two calls keep.
func (a *Avg) crossDiagRows(rd rowDiagEvaluator, dst *mat.Dense, diag []float64, x *mat.Dense, p *Prepared) (_ []float64, done bool, err error) {
	n, err := checkPoints("x", x, a.d, a.p.Lengthscale)
	if err != nil {
		return diag, true, err
	}
	nb := (p.m + crossTile - 1) / crossTile
	if assemblyWorkers(a.nw(), n*nb, float64(n)*float64(p.m)*float64(a.ev.yLen())) > 1 {
		return diag, false, nil
	}
	if err := checkOut(a.budget, dst, n, p.m); err != nil {
		return diag, true, err
	}
	resizeDense(dst, n, p.m)
	diag = resizeVec(diag, n)
	xl := rd.xLen()
	hp, px := getScratch(n * xl)
	hs, scr := getScratch(rd.rowLen())
	prepAll(px, rd, x, n)
	raw := dst.RawMatrix()
	for i := range n {
		rd.rowDiag(raw.Data[i*raw.Stride:i*raw.Stride+p.m], px[i*xl:(i+1)*xl], p.py, p.m, &diag[i], scr)
	}
	putScratch(hs)
	putScratch(hp)
	if a.group != nil {
		return diag, true, finiteRows("k(x, x)", diag, 1, n, n)
	}
	return diag, true, nil
}

// GradPreparedTo is GradTo against prepared points (GradPreparer): the
// enumerated average differentiates against the orbits of the points,
// computed on the first call and kept; a closed form on some coordinates
// takes its inner values from the prepared rows.
func (a *Avg) GradPreparedTo(dst *mat.Dense, x []float64, p *Prepared) error {
	if err := p.checkOwner(a); err != nil {
		return err
	}
	e := p.orbits
	if e == nil && (a.gradAux == nil || p.py == nil) {
		return a.GradTo(dst, x, p.y)
	}
	if err := checkVec("x", x, a.d, a.p.Lengthscale); err != nil {
		return err
	}
	if err := checkDst(dst, p.m, a.d); err != nil {
		return err
	}
	if e == nil {
		// A closed form on some coordinates: the pairs' inner values
		// from the prepared rows.
		gradAuxTo(a.gradPre, a.gradPreLen, a.gradAux, a.gradLen, a.gradCost(), a.nw(), dst, x, p.y, p.py, p.m, a.d)
		return a.finite("∂k(x, y)/∂x", dst)
	}
	p.orbOnce.Do(func() {
		gd, pl := e.G*e.d, f64.PackedLen(e.G, e.d)
		orbs, porbs := make([]float64, p.m*gd), make([]float64, p.m*pl)
		for j := range p.m {
			o := orbs[j*gd : (j+1)*gd]
			e.actRange(o, p.y.RawRowView(j), 0, e.G)
			f64.Pack(porbs[j*pl:(j+1)*pl], o, e.G, e.d)
		}
		// Kept only whole: a panic above (a caller's group) leaves none,
		// and the calls after it take GradTo's own path, not a partial
		// enumeration.
		p.orbs, p.porbs = orbs, porbs
	})
	if p.orbs == nil {
		return a.GradTo(dst, x, p.y)
	}
	resizeDense(dst, p.m, a.d)
	gradRows(gradJob{eo: e, orbs: p.orbs, porbs: p.porbs, sl: a.gradLen, x: x, dst: dst, y: p.y}, a.gradCost(), a.nw(), p.m, a.d)
	return a.finite("∂k(x, y)/∂x", dst)
}
