package gp

import (
	"errors"
	"fmt"
	"math"

	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
)

// objective evaluates the log marginal likelihood of standardized outputs
// y under K = v·C_ℓ + σ²·I as a function of θ = (log v, log ℓ, log σ²), and
// its gradient in θ. It owns all its scratch; not safe for concurrent use.
type objective struct {
	b       Bound
	be      linalg.Backend
	y       []float64
	n       int
	c, dc   *mat.SymDense
	k, work *mat.SymDense
	chol    linalg.Cholesky
	kinv    *mat.Dense
	eye     *mat.Dense
	alpha   []float64
	// mean: the likelihood is that of the GLS residual y − m̂·1 (a
	// constant mean profiled out, MeanConstant); kio = K⁻¹1 (ones the
	// vector of ones) and m is m̂ at the last evaluation.
	mean    bool
	kio     []float64
	ones    []float64
	m       float64
	evals   int
	lastErr error // the last evaluation error, for fit diagnostics
}

var log2Pi = math.Log(2 * math.Pi)

// gaussLML is the Gaussian log marginal likelihood log N(y; 0, K) from its
// parts: quad = yᵀK⁻¹y, logDet = log|K| and n = len(y). Every exact
// likelihood of the package (the objective, ARD, Fit's posterior, the
// landmark posterior, the profile) ends here.
func gaussLML(quad, logDet, n float64) float64 {
	return -0.5*quad - 0.5*logDet - 0.5*n*log2Pi
}

func newObjective(b Bound, be linalg.Backend, y []float64) *objective {
	n := len(y)
	eye := mat.NewDense(n, n, nil)
	for i := range n {
		eye.Set(i, i, 1)
	}
	return &objective{
		b: b, be: be, y: y, n: n,
		c: mat.NewSymDense(n, nil), dc: mat.NewSymDense(n, nil),
		k: mat.NewSymDense(n, nil), work: mat.NewSymDense(n, nil),
		kinv: mat.NewDense(n, n, nil), eye: eye,
		alpha: make([]float64, n),
	}
}

// eval returns the log marginal likelihood at theta = (log v, log ℓ,
// log σ²). If grad is not nil (length 3) it receives ∂lml/∂θ; the error
// then wraps ErrNoDerivative when the family has no lengthscale derivative
// (the value is still returned). A covariance that stays non-PD after
// jitter is an error wrapping linalg.ErrNotPositiveDefinite.
func (o *objective) eval(theta [3]float64, grad []float64) (float64, error) {
	o.evals++
	v, ell, s2 := math.Exp(theta[0]), math.Exp(theta[1]), math.Exp(theta[2])
	var dc *mat.SymDense
	if grad != nil {
		dc = o.dc
	}
	cerr := o.b.CorrTo(o.c, dc, ell)
	if cerr != nil && !errors.Is(cerr, ErrNoDerivative) {
		return math.NaN(), cerr
	}
	n := o.n
	craw, kraw := o.c.RawSymmetric(), o.k.RawSymmetric()
	for i := range n {
		ci := craw.Data[i*craw.Stride : i*craw.Stride+n]
		ki := kraw.Data[i*kraw.Stride : i*kraw.Stride+n]
		for j := i; j < n; j++ {
			ki[j] = v * ci[j]
		}
		ki[i] += s2
	}
	if _, err := factorJitter(o.be, &o.chol, o.k, o.work); err != nil {
		o.lastErr = err
		return math.NaN(), err
	}
	if err := o.chol.SolveVecTo(o.alpha, o.y); err != nil {
		return math.NaN(), fmt.Errorf("gp: %w", err)
	}
	var quad float64
	if o.mean {
		// α = K⁻¹(y − m̂·1). The gradient below is that of the likelihood
		// at fixed m, evaluated at m̂: ∂lml/∂m = 0 there, so it is also
		// the gradient of the profiled likelihood (envelope theorem).
		if err := o.glsResidual(); err != nil {
			return math.NaN(), err
		}
		for i, a := range o.alpha {
			quad += a * (o.y[i] - o.m)
		}
	} else {
		for i, a := range o.alpha {
			quad += a * o.y[i]
		}
	}
	lml := gaussLML(quad, o.chol.LogDet(), float64(n))
	if grad == nil {
		return lml, nil
	}
	// ∂lml/∂θ_j = ½ tr(W ∂K/∂θ_j), W = ααᵀ − K⁻¹.
	if err := o.chol.SolveTo(o.kinv, o.eye); err != nil {
		return math.NaN(), fmt.Errorf("gp: %w", err)
	}
	kiraw := o.kinv.RawMatrix()
	dcraw := o.dc.RawSymmetric()
	var sc, sd, tr float64
	for i := range n {
		wi := kiraw.Data[i*kiraw.Stride : i*kiraw.Stride+n]
		ci := craw.Data[i*craw.Stride : i*craw.Stride+n]
		ai := o.alpha[i]
		w := ai*ai - wi[i]
		tr += w
		sc += w * ci[i]
		if cerr == nil {
			di := dcraw.Data[i*dcraw.Stride : i*dcraw.Stride+n]
			sd += w * di[i]
			for j := i + 1; j < n; j++ {
				w := ai*o.alpha[j] - wi[j]
				sc += 2 * w * ci[j]
				sd += 2 * w * di[j]
			}
		} else {
			for j := i + 1; j < n; j++ {
				sc += 2 * (ai*o.alpha[j] - wi[j]) * ci[j]
			}
		}
	}
	grad[0] = 0.5 * v * sc
	grad[1] = 0.5 * v * sd
	grad[2] = 0.5 * s2 * tr
	if cerr != nil {
		grad[1] = math.NaN()
		return lml, cerr
	}
	return lml, nil
}

// glsResidual turns o.alpha = K⁻¹y into K⁻¹(y − m̂·1) with the GLS mean
// m̂ = 1ᵀK⁻¹y / 1ᵀK⁻¹1, which it leaves in o.m (o.chol holds K).
func (o *objective) glsResidual() error {
	if o.kio == nil {
		o.kio, o.ones = make([]float64, o.n), make([]float64, o.n)
		for i := range o.ones {
			o.ones[i] = 1
		}
	}
	if err := o.chol.SolveVecTo(o.kio, o.ones); err != nil {
		return fmt.Errorf("gp: %w", err)
	}
	var yo, oo float64
	for i, a := range o.alpha {
		yo += a
		oo += o.kio[i]
	}
	o.m = 0
	if oo > 0 && !math.IsInf(oo, 0) {
		o.m = yo / oo
	}
	for i, k := range o.kio {
		o.alpha[i] -= o.m * k
	}
	return nil
}
