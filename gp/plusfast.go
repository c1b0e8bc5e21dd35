package gp

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/internal/canon"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
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
//
// With the residual (Options.ResidualVariance), a part whose residual
// v_p − ‖φ_p‖² is positive adds it: its term of the variance becomes
// v_p − φ_pᵀ(Mφ)_p and its term of the gradient 2·∇k_maxᵀ·W_p·(−(Mφ)_p).
// predict folds this into ws.mphi — (Mφ)_p + φ_p, so that grad's φ − mphi
// is −(Mφ)_p — as the landmark posterior folds its DTC term.
type plusPost struct {
	parts []plusBlock
	r     int       // Σ r_p
	m     []float64 // r×r row-major, symmetric, over the parts' features stacked
	resid bool      // add each part's residual prior variance (Options.ResidualVariance)
}

// plusBlock is one Nyström extension of the feature form: its kernel k_max
// at the part's variance, the r kept features' weights W (n×r) and u.
type plusBlock struct {
	km  kernel.Kernel
	kg  kernel.Gradienter
	off int // first of its features in φ
	r   int
	v   float64   // the part's prior variance k_max,p(x, x)
	w   []float64 // n×r row-major
	u   []float64 // n
	// design is the points km's row is taken against: the training
	// inputs D, or φ(D) (n×cd) in canonical coordinates, where km is the
	// base kernel on φ(x) (the parts of a mix over a group with a
	// canonical map, canonBlock); canon is nil when the row is taken at x
	// itself (k_max, or the trivial group's identity φ).
	design *mat.Dense
	canon  orbit.Canonicalizer
	prep   *kernel.Prepared // km's preparation of design (crossWith)
}

// canonBlock sets the kernel of a mix's part over a group with a canonical
// map (orbit.Canonicalizer), at variance v and lengthscale l, to the base
// kernel in canonical coordinates: k_max(x, y) = k_b(φ(x), φ(y)) (the
// paper's Proposition 1), so a row costs O(n·cd) after one φ(x), instead
// of n alignments of x, and its gradient chains through the Jacobian of φ
// (internal/canon). It reports false, leaving b unchanged, for other
// groups. A single part (plus itself) keeps k_max in x, so that plus's
// posterior is bit-for-bit what it was; bo predicts plus on φ(X) anyway.
func canonBlock(b *plusBlock, f *plusFamily, x *mat.Dense, v, l float64) (bool, error) {
	c, ok := f.max.group.(orbit.Canonicalizer)
	if !ok {
		return false, nil
	}
	cd := c.CanonicalDim()
	kb, err := kernel.NewBase(kernel.Params{Shape: f.max.shape, Variance: v, Lengthscale: l}, cd)
	if err != nil {
		return false, kernelError(err)
	}
	b.km, b.kg = kb, kb
	if _, trivial := c.(*orbit.TrivialGroup); trivial {
		b.design = x
		return true, nil
	}
	n, _ := x.Dims()
	b.canon = c
	b.design = mat.NewDense(n, cd, nil)
	for i := range n {
		c.CanonicalTo(b.design.RawRowView(i), x.RawRowView(i))
	}
	return true, nil
}

// plusPart is a plus bound at the variance of its share of the kernel: the
// whole of a k_plus GP, or one of the two parts of a mix of two (NewMixFamily),
// whose feature form stacks the parts' features: with k = Σ_p φ_p(x)ᵀφ_p(y),
// mean(x) = Σ_p k_max,p(x, D)·u_p and var(x) = ‖φ(x)‖² − φ(x)ᵀ·M·φ(x) for the
// stacked φ = (φ_p) and M = Φᵀ·K⁻¹·Φ over the stacked Φ = (Φ_p).
type plusPart struct {
	b *plusBound
	v float64
}

// newPlusPost builds the feature form for the fitted GP g of the plus
// bounds in parts, or nil (no error) if a part's kernel has no gradient.
func newPlusPost(parts []plusPart, g *GP) (*plusPost, error) {
	n := g.n
	p := &plusPost{resid: g.resid}
	type kept struct {
		q    []float64 // n×n row-major eigenvectors
		qs   int
		lam  []float64
		keep []int
	}
	ks := make([]kept, len(parts))
	for pi, part := range parts {
		blk := plusBlock{off: p.r, design: g.x, v: part.v}
		ok := false
		if len(parts) > 1 {
			var err error
			if ok, err = canonBlock(&blk, part.b.f, g.x, part.v, g.hyper.Lengthscale); err != nil {
				return nil, err
			}
		}
		if !ok {
			_, km, err := part.b.f.max.kernel(part.v, g.hyper.Lengthscale)
			if err != nil {
				return nil, kernelError(err)
			}
			kg, ok := kernel.Kernel(km).(kernel.Gradienter)
			if !ok {
				return nil, nil
			}
			blk.km, blk.kg = km, kg
		}
		blk.prep = prepare(blk.km, blk.design)
		var kmm mat.SymDense
		kmm.ReuseAsSym(n)
		if err := gramTo(blk.km, &kmm, blk.design); err != nil {
			return nil, fmt.Errorf("gp: Gram: %w", err)
		}
		var eig linalg.Eigen
		if err := part.b.f.opts.Backend.EigenSym(&eig, &kmm); err != nil {
			return nil, fmt.Errorf("gp: plus: %w", err)
		}
		lam := eig.Values
		first, _, err := kernel.Truncate(lam, part.b.f.opts.RelTol)
		if err != nil {
			return nil, fmt.Errorf("gp: plus: %w", err)
		}
		keep := make([]int, 0, n-first)
		for i := first; i < n; i++ {
			keep = append(keep, i)
		}
		q := eig.Vectors.RawMatrix()
		ks[pi] = kept{q: q.Data, qs: q.Stride, lam: lam, keep: keep}
		r := len(keep)
		blk.r, blk.w, blk.u = r, make([]float64, n*r), make([]float64, n)
		p.parts = append(p.parts, blk)
		p.r += r
	}
	r := p.r
	p.m = make([]float64, r*r)
	phi := mat.NewDense(n, max(r, 1), nil) // Φ = (Q_r·Λ_r^{1/2})_p
	praw := phi.RawMatrix()
	for pi := range p.parts {
		b, k := &p.parts[pi], ks[pi]
		for i := range n {
			qi := k.q[i*k.qs : i*k.qs+n]
			for c, j := range k.keep {
				s := math.Sqrt(k.lam[j])
				b.w[i*b.r+c] = qi[j] / s
				praw.Data[i*praw.Stride+b.off+c] = qi[j] * s
			}
		}
		// u = Q_r·(Q_rᵀ·α).
		qa := make([]float64, b.r)
		for i := range n {
			qi := k.q[i*k.qs : i*k.qs+n]
			for c, j := range k.keep {
				qa[c] += qi[j] * g.alpha[i]
			}
		}
		for i := range n {
			qi := k.q[i*k.qs : i*k.qs+n]
			var s float64
			for c, j := range k.keep {
				s += qi[j] * qa[c]
			}
			b.u[i] = s
		}
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
	if len(p.parts) > 1 {
		return p.predictParts(g, ws)
	}
	n, r := g.n, p.r
	phi, mphi := ws.phi[:r], ws.mphi[:r]
	clear(phi)
	for bi := range p.parts {
		b := &p.parts[bi]
		if err := crossWith(b.km, b.prep, ws.ks, ws.xr, g.x); err != nil {
			return 0, 0, fmt.Errorf("gp: cross-covariance: %w", err)
		}
		ks := ws.ks.RawMatrix().Data[:n]
		phib := phi[b.off : b.off+b.r]
		for i, k := range ks {
			mean += k * b.u[i]
			addScaledSep(phib, k, b.w[i*b.r:i*b.r+b.r])
		}
	}
	var q float64
	for a := range r {
		s := dotSeq(p.m[a*r:a*r+r], phi)
		mphi[a] = s
		q += phi[a] * (phi[a] - s)
	}
	return mean, q + p.residual(ws), nil
}

// residual returns the residual prior variance Σ_p max(0, v_p − ‖φ_p‖²)
// after φ and M·φ are in ws (0 without Options.ResidualVariance), and for
// each part whose residual is positive adds φ_p into ws.mphi (plusPost).
func (p *plusPost) residual(ws *Workspace) float64 {
	if !p.resid {
		return 0
	}
	var add float64
	for bi := range p.parts {
		b := &p.parts[bi]
		phi, mphi := ws.phi[b.off:b.off+b.r], ws.mphi[b.off:b.off+b.r]
		var q float64
		for _, f := range phi {
			q += f * f
		}
		if gap := b.v - q; gap > 0 {
			add += gap
			for i, f := range phi {
				mphi[i] += f
			}
		}
	}
	return add
}

// grad writes the standardized gradients of the mean and variance after
// predict (vs the standardized variance).
func (p *plusPost) grad(g *GP, ws *Workspace, x, dmean, dvar []float64, vs float64) error {
	if len(p.parts) > 1 {
		return p.gradParts(g, ws, x, dmean, dvar, vs)
	}
	n, d := g.n, g.d
	clear(dmean)
	clear(dvar)
	for bi := range p.parts {
		b := &p.parts[bi]
		if err := b.kg.GradTo(ws.gr, x, g.x); err != nil {
			return fmt.Errorf("gp: kernel gradient: %w", err)
		}
		gr := ws.gr.RawMatrix()
		if dmean != nil {
			for i, u := range b.u[:n] {
				row := gr.Data[i*gr.Stride : i*gr.Stride+d]
				for j, v := range row {
					dmean[j] += u * v
				}
			}
		}
		if dvar != nil && vs > 0 {
			phi, mphi := ws.phi[b.off:b.off+b.r], ws.mphi[b.off:b.off+b.r]
			for i := range n {
				wi := b.w[i*b.r : i*b.r+b.r]
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

// predictParts is predict for several parts (a mix), by BLAS level 2:
// φ_p = W_pᵀ·k_p(D, x) and M·φ as matrix–vector products (O(n·R + R²)
// for R stacked features, about twice plus's R).
func (p *plusPost) predictParts(g *GP, ws *Workspace) (mean, variance float64, err error) {
	n, r := g.n, p.r
	phi, mphi := ws.phi[:r], ws.mphi[:r]
	for bi := range p.parts {
		b := &p.parts[bi]
		xr := ws.xr
		if b.canon != nil {
			c := ws.canonical(n, g.d, b.canon.CanonicalDim())
			b.canon.CanonicalTo(c.z, ws.xbuf)
			xr = c.zr
		}
		if err := crossWith(b.km, b.prep, ws.ks, xr, b.design); err != nil {
			return 0, 0, fmt.Errorf("gp: cross-covariance: %w", err)
		}
		ks := ws.ks.RawMatrix().Data[:n]
		kv := blas64.Vector{N: n, Data: ks, Inc: 1}
		mean += blas64.Dot(kv, blas64.Vector{N: n, Data: b.u, Inc: 1})
		if b.r > 0 {
			w := blas64.General{Rows: n, Cols: b.r, Stride: b.r, Data: b.w}
			blas64.Gemv(blas.Trans, 1, w, kv, 0, blas64.Vector{N: b.r, Data: phi[b.off : b.off+b.r], Inc: 1})
		}
	}
	if r == 0 {
		return mean, p.residual(ws), nil
	}
	m := blas64.General{Rows: r, Cols: r, Stride: r, Data: p.m}
	pv := blas64.Vector{N: r, Data: phi, Inc: 1}
	blas64.Gemv(blas.NoTrans, 1, m, pv, 0, blas64.Vector{N: r, Data: mphi, Inc: 1})
	var q float64
	for a, f := range phi {
		q += f * (f - mphi[a])
	}
	return mean, q + p.residual(ws), nil
}

// gradParts is grad for several parts, by BLAS level 2: per part, with G
// the kernel's gradient (n×k) at its coordinates (x, or z = φ(x)),
// ∇mean += Gᵀ·u_p and ∇var += Gᵀ·2·W_p·(φ_p − M·φ|_p); in canonical
// coordinates both are formed in z and chained to x through Jφ(x)ᵀ.
func (p *plusPost) gradParts(g *GP, ws *Workspace, x, dmean, dvar []float64, vs float64) error {
	n, d := g.n, g.d
	clear(dmean)
	clear(dvar)
	if len(ws.v) < n {
		ws.v = make([]float64, n)
	}
	z := ws.v[:n]
	for bi := range p.parts {
		b := &p.parts[bi]
		// Where the gradients go: added into dmean and dvar at x, or
		// written into the scratch at z and chained.
		at, grd, k, beta, tm, tv := x, ws.gr, d, 1.0, dmean, dvar
		var c *canonScratch
		if b.canon != nil {
			k = b.canon.CanonicalDim()
			c = ws.canonical(n, d, k)
			b.canon.CanonicalTo(c.z, x)
			at, grd, beta = c.z, c.gr, 0
			tm, tv = nil, nil
			if dmean != nil {
				tm = c.gm
			}
			if dvar != nil {
				tv = c.gv
			}
		}
		if err := b.kg.GradTo(grd, at, b.design); err != nil {
			return fmt.Errorf("gp: kernel gradient: %w", err)
		}
		raw := grd.RawMatrix()
		gr := blas64.General{Rows: n, Cols: k, Stride: raw.Stride, Data: raw.Data}
		if tm != nil {
			blas64.Gemv(blas.Trans, 1, gr, blas64.Vector{N: n, Data: b.u, Inc: 1}, beta, blas64.Vector{N: k, Data: tm, Inc: 1})
		}
		if tv != nil && !(vs > 0 && b.r > 0) {
			tv = nil
		}
		if tv != nil {
			phi, mphi := ws.phi[b.off:b.off+b.r], ws.mphi[b.off:b.off+b.r]
			// mphi becomes φ − M·φ: predictGrad has invalidated the
			// prediction cache that would read it.
			for i := range b.r {
				mphi[i] = phi[i] - mphi[i]
			}
			w := blas64.General{Rows: n, Cols: b.r, Stride: b.r, Data: b.w}
			blas64.Gemv(blas.NoTrans, 2, w, blas64.Vector{N: b.r, Data: mphi, Inc: 1}, 0, blas64.Vector{N: n, Data: z, Inc: 1})
			blas64.Gemv(blas.Trans, 1, gr, blas64.Vector{N: n, Data: z, Inc: 1}, beta, blas64.Vector{N: k, Data: tv, Inc: 1})
		}
		if c == nil || (tm == nil && tv == nil) {
			continue
		}
		canon.ChainTo(b.canon, [][]float64{c.dm, c.dv}, [][]float64{tm, tv}, x, c.cs)
		if tm != nil {
			for i, v := range c.dm {
				dmean[i] += v
			}
		}
		if tv != nil {
			for i, v := range c.dv {
				dvar[i] += v
			}
		}
	}
	return nil
}

// addScaledSep sets y_c += x_c·k for every c (len(y) ≥ len(x)), each a
// product rounded, then a sum rounded: the bits of the plain loop, with
// its bounds checks hoisted and four elements a round.
func addScaledSep(y []float64, k float64, x []float64) {
	y = y[:len(x)]
	c := 0
	for ; c+4 <= len(x); c += 4 {
		xs, ys := x[c:c+4:c+4], y[c:c+4:c+4]
		ys[0] += float64(xs[0] * k)
		ys[1] += float64(xs[1] * k)
		ys[2] += float64(xs[2] * k)
		ys[3] += float64(xs[3] * k)
	}
	for ; c < len(x); c++ {
		y[c] += float64(x[c] * k)
	}
}

// dotSeq returns Σ_c v_c·w_c (len(w) ≥ len(v)) summed in increasing c
// from +0, each product rounded, then each sum: the bits of the plain
// loop, with its bounds checks hoisted and four elements a round.
func dotSeq(v, w []float64) float64 {
	w = w[:len(v)]
	var s float64
	c := 0
	for ; c+4 <= len(v); c += 4 {
		vs, ws := v[c:c+4:c+4], w[c:c+4:c+4]
		s += float64(vs[0] * ws[0])
		s += float64(vs[1] * ws[1])
		s += float64(vs[2] * ws[2])
		s += float64(vs[3] * ws[3])
	}
	for ; c < len(v); c++ {
		s += float64(v[c] * w[c])
	}
	return s
}
