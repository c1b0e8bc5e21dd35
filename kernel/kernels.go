package kernel

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

var (
	_ Kernel     = (*Base)(nil)
	_ Gramer     = (*Base)(nil)
	_ Gradienter = (*Base)(nil)
	_ Kernel     = (*Avg)(nil)
	_ Gramer     = (*Avg)(nil)
	_ Gradienter = (*Avg)(nil)
	_ Kernel     = (*Max)(nil)
	_ Gramer     = (*Max)(nil)
	_ Gradienter = (*Max)(nil)
)

// discretizer matches orbit.Discretizer: m equal-weight Haar nodes of the
// orbit of x (box-restricted for scaling).
type discretizer interface {
	OrbitTo(dst, x []float64, m int)
}

// orbitKernel is the machinery shared by Base, Avg and Max.
type orbitKernel struct {
	p        Params
	d        int
	workers  int
	ev       evaluator
	grad     gradFunc
	gradLen  int
	method   string
	diagIsV  bool      // k(x, x) = v exactly (base and max)
	enumMax  *enumEval // non-nil: gradients of enumerated k_max by gradMaxT
	groupStr string
}

// Dim is d.
func (k *orbitKernel) Dim() int { return k.d }

// Params returns the base kernel's hyperparameters.
func (k *orbitKernel) Params() Params { return k.p }

// Method reports how the kernel is evaluated: "closed", "enumerate" or
// "quadrature", with "+normalized" appended for a normalized Avg.
func (k *orbitKernel) Method() string { return k.method }

// CrossTo fills dst (n×m) with k(x_i, y_j). dst must not alias x or y.
func (k *orbitKernel) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	n, err := checkPoints("x", x, k.d, k.p.Lengthscale)
	if err != nil {
		return err
	}
	m, err := checkPoints("y", y, k.d, k.p.Lengthscale)
	if err != nil {
		return err
	}
	if err := checkOut(dst.IsEmpty(), n, m); err != nil {
		return err
	}
	crossTo(k.ev, k.workers, dst, x, y, n, m)
	return nil
}

// GramTo fills dst (n×n) with k(x_i, x_j), computing the upper triangle;
// the diagonal is exactly DiagTo's.
func (k *orbitKernel) GramTo(dst *mat.SymDense, x *mat.Dense) error {
	n, err := checkPoints("x", x, k.d, k.p.Lengthscale)
	if err != nil {
		return err
	}
	if err := checkOut(dst.IsEmpty(), n, n); err != nil {
		return err
	}
	gramTo(k.ev, k.workers, dst, x, n, k.p.Variance, k.diagIsV)
	return nil
}

// DiagTo writes k(x_i, x_i) into dst (length n, allocated if nil).
func (k *orbitKernel) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) {
	n, err := checkPoints("x", x, k.d, k.p.Lengthscale)
	if err != nil {
		return dst, err
	}
	dst = resizeVec(dst, n)
	if k.diagIsV {
		for i := range dst {
			dst[i] = k.p.Variance
		}
		return dst, nil
	}
	h, s := getScratch(pairLen(k.ev))
	for i := range n {
		xi := row(x, i)
		dst[i] = pairValue(k.ev, xi, xi, s)
	}
	putScratch(h)
	return dst, nil
}

// GradTo writes ∂k(x, y_j)/∂x into row j of dst (m×d).
func (k *orbitKernel) GradTo(dst *mat.Dense, x []float64, y *mat.Dense) error {
	if err := checkVec("x", x, k.d, k.p.Lengthscale); err != nil {
		return err
	}
	m, err := checkPoints("y", y, k.d, k.p.Lengthscale)
	if err != nil {
		return err
	}
	k.gradAll(dst, x, y, m)
	return nil
}

// gradAll fills row j of dst with ∇ₓk(x, y_j) for validated arguments:
// from one enumeration of the orbit of x for enumerated k_max (gradMaxT),
// else pair by pair.
func (k *orbitKernel) gradAll(dst *mat.Dense, x []float64, y *mat.Dense, m int) {
	if k.enumMax != nil {
		gradMaxT(k.enumMax, dst, x, y, m)
		return
	}
	gradTo(k.grad, k.gradLen, k.workers, dst, x, y, m, k.d)
}

// Base is the base kernel k(x, y) = v·κ(‖x − y‖/ℓ) on R^d.
type Base struct{ orbitKernel }

// NewBase returns the base kernel with parameters p on R^d.
func NewBase(p Params, d int) (*Base, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if d < 1 {
		return nil, fmt.Errorf("kernel: dimension must be ≥ 1, got %d", d)
	}
	return &Base{orbitKernel{
		p: p, d: d, ev: newFeatureEval(p, d, identity), grad: baseGrad(p),
		method: "closed", diagIsV: true, groupStr: "none",
	}}, nil
}

// Avg is the orbit-averaged kernel k_avg(x, y) = 1/|G|²·Σ_{g,g'} k_b(g·x, g'·y)
// (the paper's equation for k_avg). For groups of isometries it is
// computed as the single average 1/|G|·Σ_g k_b(x, g·y), in closed form for
// the rbf base over signflip, permutation and hyperoctahedral groups
// (see the package documentation). With Options.Normalize it is the
// normalized average v·a(x, y)/√(a(x, x)·a(y, y)) (normalize.go).
type Avg struct {
	orbitKernel
	norm  bool                      // Options.Normalize
	cache atomic.Pointer[diagCache] // normalized: r of the last design (normalize.go)
}

// Max is the max-alignment kernel k_max(x, y) = max_{g,g'} k_b(g·x, g'·y)
// (the paper's equation (1)). For groups of isometries it is
// v·κ(d_G(x, y)/ℓ) with d_G the orbit distance. It is symmetric and
// invariant but not PSD in general; see Plus.
type Max struct{ orbitKernel }

// Group returns the name of the group the kernel is invariant under.
func (k *orbitKernel) Group() string { return k.groupStr }

// NewAvg returns k_avg for the base kernel p and the group g.
func NewAvg(p Params, g orbit.Group, o Options) (*Avg, error) {
	k, err := newOrbitKernel(p, g, o, false)
	if err != nil {
		return nil, err
	}
	if o.Normalize {
		k.method += "+normalized"
	}
	return &Avg{orbitKernel: *k, norm: o.Normalize}, nil
}

// NewMax returns k_max for the base kernel p and the group g.
func NewMax(p Params, g orbit.Group, o Options) (*Max, error) {
	if o.Normalize {
		return nil, fmt.Errorf("kernel: Options.Normalize applies to NewAvg only (k_max already has k(x, x) = v)")
	}
	k, err := newOrbitKernel(p, g, o, true)
	if err != nil {
		return nil, err
	}
	return &Max{*k}, nil
}

func newOrbitKernel(p Params, g orbit.Group, o Options, isMax bool) (*orbitKernel, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if g == nil {
		return nil, fmt.Errorf("kernel: nil group")
	}
	d := g.Dim()
	if d < 1 {
		return nil, fmt.Errorf("kernel: group %s has dimension %d", g.Name(), d)
	}
	if o.Method < Auto || o.Method > Closed {
		return nil, fmt.Errorf("kernel: unknown method %d", int(o.Method))
	}
	if o.Workers < 0 {
		return nil, fmt.Errorf("kernel: negative Workers %d", o.Workers)
	}
	if o.Budget < 0 {
		return nil, fmt.Errorf("kernel: negative Budget %d", o.Budget)
	}
	if o.Quadrature < 0 || o.Quadrature == 1 || o.Quadrature > MaxQuadrature {
		return nil, fmt.Errorf("%w: Quadrature must be 0 (default) or in [2, %d], got %d", ErrBadOptions, MaxQuadrature, o.Quadrature)
	}
	budget := o.Budget
	if budget == 0 {
		budget = orbit.MemoryBudget()
	}
	nq := o.Quadrature
	if nq == 0 {
		nq = DefaultQuadrature
	}
	kind := "avg"
	if isMax {
		kind = "max"
	}
	k := &orbitKernel{p: p, d: d, workers: o.Workers, diagIsV: isMax, groupStr: g.Name()}
	inv2 := 1 / (p.Lengthscale * p.Lengthscale)

	if fg, ok := g.(orbit.Finite); ok {
		// Closed forms first: they need neither |G| nor the budget.
		var closedEv evaluator
		var closedGrad gradFunc
		var closedGradLen int
		if o.Method != Enumerate {
			if isMax {
				if c, ok := g.(orbit.Canonicalizer); ok {
					closedEv = newFeatureEval(p, c.CanonicalDim(), c.CanonicalTo)
				} else if dd, ok := g.(orbit.Distancer); ok {
					closedEv = &distEval{p: p, inv2: inv2, d: d, dist: dd}
				}
			} else {
				closedEv, closedGrad, closedGradLen = avgClosed(p, g)
			}
		}
		G, sizeErr := orbit.Size(g)
		enumErr := sizeErr
		var enum *enumEval
		if sizeErr == nil {
			if enumErr = checkBudget(g, G, d, budget); enumErr == nil {
				enum = &enumEval{p: p, inv2: inv2, d: d, G: G, g: fg, isMax: isMax}
				enum.ra, _ = g.(orbit.RangeActor)
			}
		}
		switch {
		case closedEv != nil:
			k.ev, k.method = closedEv, "closed"
		case o.Method == Closed:
			return nil, fmt.Errorf("%w for %s over %s with base kernel %s (use method auto or enumerate)", ErrNoClosedForm, kind, g.Name(), p.Shape)
		case enumErr != nil:
			return nil, fmt.Errorf("kernel: %s over %s: %w", kind, g.Name(), enumErr)
		default:
			k.ev, k.method = enum, "enumerate"
		}
		al, hasAlign := g.(orbit.Aligner)
		switch {
		case closedGrad != nil:
			k.grad, k.gradLen = closedGrad, closedGradLen
		case isMax && k.method == "closed" && hasAlign:
			k.grad, k.gradLen = alignGrad(p, al), d
		case enum != nil:
			k.grad, k.gradLen = enum.grad, G*d+d
			if isMax {
				k.enumMax = enum
			}
		default:
			k.grad, k.gradLen = fdGrad(k.ev, p.Lengthscale, d)
		}
		return k, nil
	}

	// Continuous groups.
	rot := isRotation2D(g)
	disc, hasDisc := g.(discretizer)
	var nodes func(dst, x []float64, m int)
	switch {
	case rot:
		nodes = rotNodes
	case hasDisc:
		nodes = disc.OrbitTo
	}
	discretized := func() error {
		if nodes == nil {
			return fmt.Errorf("kernel: %s over %s: the group offers no discretization", kind, g.Name())
		}
		iso := isometric(g)
		if o.Quadrature == 0 && !iso {
			nq = DefaultQuadratureDouble
		}
		if !iso && nq > MaxQuadratureDouble {
			return fmt.Errorf("%w: %s over %s averages over pairs of nodes (Quadrature² per pair): Quadrature %d exceeds %d", ErrBadOptions, kind, g.Name(), nq, MaxQuadratureDouble)
		}
		if sg, ok := g.(*orbit.ScalingGroup); ok && !isMax {
			// Gauss–Legendre in log c with an analytic gradient (scaling.go).
			if o.Quadrature == 0 {
				nq = DefaultQuadratureGauss
			}
			e := newScalingAvgEval(p, sg, nq)
			k.ev, k.method = e, "quadrature"
			k.grad, k.gradLen = e.grad, e.gradLen()
			return nil
		}
		e := &discEval{p: p, inv2: inv2, d: d, m: nq, nodes: nodes, iso: iso, isMax: isMax}
		k.ev, k.method = e, "quadrature"
		if e.iso {
			k.grad, k.gradLen = e.grad, nq*d
		} else {
			k.grad, k.gradLen = fdGrad(e, p.Lengthscale, d)
		}
		return nil
	}
	switch {
	case o.Method == Enumerate:
		if err := discretized(); err != nil {
			return nil, err
		}
	case rot && isMax:
		k.ev, k.method, k.grad = newFeatureEval(p, 1, radius), "closed", radialMaxGrad(p)
	case rot && p.Shape == RBF:
		e := newRotAvgEval(p, true, 0)
		k.ev, k.method, k.grad = e, "closed", e.grad
	case isMax && implementsDistancer(g):
		k.ev, k.method = &distEval{p: p, inv2: inv2, d: d, dist: g.(orbit.Distancer)}, "closed"
		k.grad, k.gradLen = fdGrad(k.ev, p.Lengthscale, d)
	case o.Method == Closed:
		return nil, fmt.Errorf("%w for %s over %s with base kernel %s (use method auto or enumerate)", ErrNoClosedForm, kind, g.Name(), p.Shape)
	case rot:
		e := newRotAvgEval(p, false, nq)
		k.ev, k.method, k.grad = e, "quadrature", e.grad
	default:
		if err := discretized(); err != nil {
			return nil, err
		}
	}
	return k, nil
}

func implementsDistancer(g orbit.Group) bool {
	_, ok := g.(orbit.Distancer)
	return ok
}

// checkBudget fails if one enumerated orbit (|G|·d float64s) exceeds the
// budget.
func checkBudget(g orbit.Group, G, d int, budget int64) error {
	need := float64(G) * float64(d) * 8
	if need > float64(budget) || need > math.MaxInt/2 {
		return fmt.Errorf("%w: enumerating %s (%d elements) needs %.3g bytes per orbit, budget %d (use a closed form or a larger budget)", orbit.ErrOverBudget, g.Name(), G, need, budget)
	}
	return nil
}

// Gram fills dst (n×n) with k(x_i, x_j), through GramTo if k is a Gramer
// and CrossTo(x, x) otherwise.
func Gram(k Kernel, dst *mat.SymDense, x *mat.Dense) error {
	if g, ok := k.(Gramer); ok {
		return g.GramTo(dst, x)
	}
	var c mat.Dense
	if err := k.CrossTo(&c, x, x); err != nil {
		return err
	}
	n, _ := c.Dims()
	resizeSym(dst, n)
	for i := range n {
		for j := i; j < n; j++ {
			dst.SetSym(i, j, c.At(i, j))
		}
	}
	return nil
}
