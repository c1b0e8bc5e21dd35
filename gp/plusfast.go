package gp

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// plusPost is the feature form of the posterior of a GP whose kernel is
// k_plus with the training inputs X as its design D: with
// k_max(D, D) = QΛQᵀ, the r kept eigenpairs (λ > tol·λ_max, as
// kernel.Plus), W = Q_r·Λ_r^{−1/2} (n×r) and φ(x) = Wᵀ·k_max(D, x),
//
//	mean(x) = k_max(x, D)·u,         u = W·Φᵀ·α = Q_r·Q_rᵀ·α,
//	var(x)  = ‖φ(x)‖² − φ(x)ᵀ·M·φ(x), M = Φᵀ·K⁻¹·Φ (r×r), Φ = φ(X) = Q_r·Λ_r^{1/2},
//
// and the gradients chain through ∇ₓk_max(x, D) only: ∇mean = ∇k_maxᵀ·u,
// ∇var = 2·∇k_maxᵀ·W·(φ − M·φ). A prediction with gradient costs one k_max
// row and its gradient plus O(n·r + r² + n·d), instead of the O(n·r·d) of
// kernel.Plus.GradTo for every training point. The variance is formed as
// ‖φ‖² − φᵀMφ, the same difference as the generic k(x,x) − ‖L⁻¹k‖².
type plusPost struct {
	km kernel.Kernel
	kg kernel.Gradienter
	r  int
	w  []float64 // n×r row-major
	u  []float64 // n
	m  []float64 // r×r row-major, symmetric
}

// newPlusPost builds the feature form for the fitted GP g of the plus
// bound b with hyperparameters h.
func newPlusPost(b *plusBound, g *GP, h Hyper) (*plusPost, error) {
	_, km, err := b.f.max.kernel(h.Variance, h.Lengthscale)
	if err != nil {
		return nil, fmt.Errorf("gp: kernel: %w", err)
	}
	kg, ok := kernel.Kernel(km).(kernel.Gradienter)
	if !ok {
		return nil, nil
	}
	n := g.n
	var kmm mat.SymDense
	kmm.ReuseAsSym(n)
	if err := gramTo(km, &kmm, g.x); err != nil {
		return nil, fmt.Errorf("gp: Gram: %w", err)
	}
	var eig linalg.Eigen
	if err := b.f.opts.Backend.EigenSym(&eig, &kmm); err != nil {
		return nil, fmt.Errorf("gp: plus: %w", err)
	}
	lam := eig.Values
	first, _, err := kernel.Truncate(lam, b.f.opts.RelTol)
	if err != nil {
		return nil, fmt.Errorf("gp: plus: %w", err)
	}
	keep := make([]int, 0, n-first)
	for i := first; i < n; i++ {
		keep = append(keep, i)
	}
	r := len(keep)
	p := &plusPost{km: km, kg: kg, r: r, w: make([]float64, n*r), u: make([]float64, n), m: make([]float64, r*r)}
	q := eig.Vectors.RawMatrix()
	phi := mat.NewDense(n, max(r, 1), nil) // Φ = Q_r·Λ_r^{1/2}
	praw := phi.RawMatrix()
	for i := range n {
		qi := q.Data[i*q.Stride : i*q.Stride+n]
		for c, k := range keep {
			s := math.Sqrt(lam[k])
			p.w[i*r+c] = qi[k] / s
			praw.Data[i*praw.Stride+c] = qi[k] * s
		}
	}
	// u = Q_r·(Q_rᵀ·α).
	qa := make([]float64, r)
	for i := range n {
		qi := q.Data[i*q.Stride : i*q.Stride+n]
		for c, k := range keep {
			qa[c] += qi[k] * g.alpha[i]
		}
	}
	for i := range n {
		qi := q.Data[i*q.Stride : i*q.Stride+n]
		var s float64
		for c, k := range keep {
			s += qi[k] * qa[c]
		}
		p.u[i] = s
	}
	if r > 0 {
		// M = (L⁻¹Φ)ᵀ(L⁻¹Φ).
		blas64.Trsm(blas.Left, blas.NoTrans, 1, g.l, praw)
		for a := range r {
			for c := a; c < r; c++ {
				var s float64
				for i := range n {
					s += praw.Data[i*praw.Stride+a] * praw.Data[i*praw.Stride+c]
				}
				p.m[a*r+c], p.m[c*r+a] = s, s
			}
		}
	}
	return p, nil
}

// predict returns the standardized mean and unclamped variance and leaves
// k_max(x, D) in ws.ks, φ(x) in ws.phi and M·φ(x) in ws.mphi.
func (p *plusPost) predict(g *GP, ws *Workspace) (mean, variance float64, err error) {
	if err := p.km.CrossTo(ws.ks, ws.xr, g.x); err != nil {
		return 0, 0, fmt.Errorf("gp: cross-covariance: %w", err)
	}
	n, r := g.n, p.r
	ks := ws.ks.RawMatrix().Data[:n]
	phi, mphi := ws.phi[:r], ws.mphi[:r]
	clear(phi)
	for i, k := range ks {
		mean += k * p.u[i]
		wi := p.w[i*r : i*r+r]
		for c, w := range wi {
			phi[c] += w * k
		}
	}
	var q float64
	for a := range r {
		ma := p.m[a*r : a*r+r]
		var s float64
		for c, v := range ma {
			s += v * phi[c]
		}
		mphi[a] = s
		q += phi[a] * (phi[a] - s)
	}
	return mean, q, nil
}

// grad writes the standardized gradients of the mean and variance after
// predict (vs the standardized variance).
func (p *plusPost) grad(g *GP, ws *Workspace, x, dmean, dvar []float64, vs float64) error {
	if err := p.kg.GradTo(ws.gr, x, g.x); err != nil {
		return fmt.Errorf("gp: kernel gradient: %w", err)
	}
	gr := ws.gr.RawMatrix()
	n, d, r := g.n, g.d, p.r
	if dmean != nil {
		clear(dmean)
		for i, u := range p.u[:n] {
			row := gr.Data[i*gr.Stride : i*gr.Stride+d]
			for j, v := range row {
				dmean[j] += u * v
			}
		}
	}
	if dvar != nil {
		clear(dvar)
		if vs > 0 {
			phi, mphi := ws.phi[:r], ws.mphi[:r]
			for i := range n {
				wi := p.w[i*r : i*r+r]
				var z float64
				for c, w := range wi {
					z += w * (phi[c] - mphi[c])
				}
				row := gr.Data[i*gr.Stride : i*gr.Stride+d]
				for j, v := range row {
					dvar[j] += 2 * z * v
				}
			}
		}
	}
	return nil
}
