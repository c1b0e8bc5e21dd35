package kernel

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/parallel"
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
	p       Params
	d       int
	workers int
	// maxWorkers, when positive, caps the workers of an assembly: an
	// enumeration holds one orbit per worker, and that many fit the
	// memory budget (newFinite).
	maxWorkers int
	ev         evaluator
	grad       gradFunc
	gradLen    int
	// gradWork is the per-pair work estimate that decides whether GradTo
	// starts workers (as serialWork's units); 0 means gradLen.
	gradWork int
	// gradAux, when set, is GradTo's gradient instead of grad (the same
	// bits): it takes a value per pair that gradPre (scratch gradPreLen)
	// computes for a whole row of pairs at once.
	gradAux    gradAuxFunc
	gradPre    gradPreFunc
	gradPreLen int
	method     Method    // Closed, Enumerate or Quadrature
	diagIsV    bool      // k(x, x) = v exactly (base and max)
	enumMax    *enumEval // non-nil: gradients of enumerated k_max by gradMaxT
	// enumAvg, when set, is the enumeration whose grad is k.grad for an
	// orbit average: Prepare can then keep the orbits of y for
	// GradPreparedTo.
	enumAvg *enumEval
	group   orbit.Group  // nil for Base
	budget  budget.Limit // Options.Budget (0: orbit.DefaultBudget)
}

// Dim is d.
func (k *orbitKernel) Dim() int { return k.d }

// nw is the workers an assembly may use: Options.Workers (GOMAXPROCS
// when 0), at most maxWorkers when it is set. Results do not depend on
// the workers, only the peak memory does.
func (k *orbitKernel) nw() int {
	if k.maxWorkers <= 0 {
		return k.workers
	}
	return parallel.Workers(k.workers, k.maxWorkers)
}

// Params returns the base kernel's hyperparameters.
func (k *orbitKernel) Params() Params { return k.p }

// Method reports how the kernel is evaluated: Closed, Enumerate or
// Quadrature (never Auto). A normalized Avg reports the method of its
// k_avg; Avg.Normalized tells it apart.
func (k *orbitKernel) Method() Method { return k.method }

// checkCross, checkGram, checkDiag and checkGrad check the arguments of
// CrossTo, GramTo, DiagTo and GradTo for every kernel evaluated by an
// orbitKernel (Base, Avg, Max, and Plus through its k_max): the points
// against the dimension and the lengthscale (checkPoints, checkVec), then
// dst's shape and, for an empty matrix dst, the memory budget (checkOut,
// checkOutSym). They return the numbers of points.
func (k *orbitKernel) checkCross(dst, x, y *mat.Dense) (n, m int, err error) {
	if n, err = checkPoints("x", x, k.d, k.p.Lengthscale); err != nil {
		return 0, 0, err
	}
	if m, err = checkPoints("y", y, k.d, k.p.Lengthscale); err != nil {
		return 0, 0, err
	}
	if err := checkOut(k.budget, dst, n, m); err != nil {
		return 0, 0, err
	}
	return n, m, nil
}

func (k *orbitKernel) checkGram(dst *mat.SymDense, x *mat.Dense) (int, error) {
	n, err := checkPoints("x", x, k.d, k.p.Lengthscale)
	if err != nil {
		return 0, err
	}
	if err := checkOutSym(k.budget, dst, n); err != nil {
		return 0, err
	}
	return n, nil
}

func (k *orbitKernel) checkDiag(dst []float64, x *mat.Dense) (int, error) {
	n, err := checkPoints("x", x, k.d, k.p.Lengthscale)
	if err != nil {
		return 0, err
	}
	if err := checkVecDst(dst, n); err != nil {
		return 0, err
	}
	return n, nil
}

func (k *orbitKernel) checkGrad(dst *mat.Dense, x []float64, y *mat.Dense) (int, error) {
	if err := checkVec("x", x, k.d, k.p.Lengthscale); err != nil {
		return 0, err
	}
	m, err := checkPoints("y", y, k.d, k.p.Lengthscale)
	if err != nil {
		return 0, err
	}
	if err := checkDst(dst, m, k.d); err != nil {
		return 0, err
	}
	return m, nil
}

// CrossTo fills dst (n×m) with k(x_i, y_j). dst must not alias x or y.
func (k *orbitKernel) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	n, m, err := k.checkCross(dst, x, y)
	if err != nil {
		return err
	}
	crossTo(k.ev, k.nw(), dst, x, y, n, m)
	return k.finite("k(x, y)", dst)
}

// GramTo fills dst (n×n) with k(x_i, x_j), computing the upper triangle;
// the diagonal is exactly DiagTo's.
func (k *orbitKernel) GramTo(dst *mat.SymDense, x *mat.Dense) error {
	n, err := k.checkGram(dst, x)
	if err != nil {
		return err
	}
	gramTo(k.ev, k.nw(), dst, x, n, k.p.Variance, k.diagIsV)
	if k.group == nil {
		return nil
	}
	return finiteSym(dst)
}

// DiagTo writes k(x_i, x_i) into dst (length n, allocated if nil).
func (k *orbitKernel) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) {
	n, err := k.checkDiag(dst, x)
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
	if k.group != nil {
		return dst, finiteRows("k(x, x)", dst, 1, len(dst), len(dst))
	}
	return dst, nil
}

// GradTo writes ∂k(x, y_j)/∂x into row j of dst (m×d).
func (k *orbitKernel) GradTo(dst *mat.Dense, x []float64, y *mat.Dense) error {
	m, err := k.checkGrad(dst, x, y)
	if err != nil {
		return err
	}
	k.gradAll(dst, x, y, m)
	return finiteGrad(dst)
}

// finiteGrad is the error of an entry of the gradients dst that is not
// finite (finiteRows), for every kernel: a base kernel's values lie in
// [0, v], but its gradient v·κ'(r)/r·(y − x)/ℓ² can overflow (a large v
// over a small ℓ), or be 0·∞ where x − y overflows.
func finiteGrad(dst *mat.Dense) error {
	raw := dst.RawMatrix()
	return finiteRows("∂k(x, y)/∂x", raw.Data, raw.Rows, raw.Cols, raw.Stride)
}

// finite is nil for a base kernel (its values lie in [0, v]), and for an
// orbit kernel the error of an entry of dst that is not finite
// (finiteRows).
func (k *orbitKernel) finite(what string, dst *mat.Dense) error {
	if k.group == nil {
		return nil
	}
	raw := dst.RawMatrix()
	return finiteRows(what, raw.Data, raw.Rows, raw.Cols, raw.Stride)
}

// finiteRows returns an error wrapping ErrBadPoints naming the first entry
// of the rows×cols matrix data (row stride stride) that is NaN or
// infinite: points or a variance beyond what an orbit kernel's arithmetic
// represents in float64 (a squared radius, an orbit scaled by a group
// element, v times a sum that overflows). Orbit kernels report them so,
// never as a NaN or an infinity with a nil error; the scan costs one
// comparison per entry, against the |G|·d work of computing it.
func finiteRows(what string, data []float64, rows, cols, stride int) error {
	for i := range rows {
		row := data[i*stride : i*stride+cols]
		if allFinite(row) {
			continue
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s[%d, %d] = %v: the points or the variance are beyond this kernel's float64 range, or the lengthscale below what it resolves (see the package doc's Errors); rescale them", ErrBadPoints, what, i, j, v)
			}
		}
	}
	return nil
}

// allFinite reports whether every value of data is finite, without a
// branch per value: v·0 is 0 for a finite v and NaN for ±Inf and NaN,
// and a sum is NaN once one of its terms is (four sums, so that the loop
// is not one chain of dependent additions).
func allFinite(data []float64) bool {
	var a, b, c, d float64
	for ; len(data) >= 4; data = data[4:] {
		a += data[0] * 0
		b += data[1] * 0
		c += data[2] * 0
		d += data[3] * 0
	}
	for _, v := range data {
		a += v * 0
	}
	return a+b+c+d == 0
}

// finiteSym is finiteRows over the upper triangle of dst.
func finiteSym(dst *mat.SymDense) error {
	raw := dst.RawSymmetric()
	for i := range raw.N {
		if err := finiteRows("k(x, x')", raw.Data[i*raw.Stride+i:], 1, raw.N-i, raw.Stride); err != nil {
			return fmt.Errorf("row %d: %w", i, err)
		}
	}
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
	if k.gradAux != nil {
		gradAuxTo(k.gradPre, k.gradPreLen, k.gradAux, k.gradLen, k.gradCost(), k.nw(), dst, x, y, nil, m, k.d)
		return
	}
	gradTo(k.grad, k.gradLen, k.gradCost(), k.nw(), dst, x, y, m, k.d)
}

// gradCost is gradWork, or gradLen when unset.
func (k *orbitKernel) gradCost() int {
	if k.gradWork > 0 {
		return k.gradWork
	}
	return k.gradLen
}

// Base is the base kernel k(x, y) = v·κ(‖x − y‖/ℓ) on R^d.
type Base struct{ orbitKernel }

// NewBase returns the base kernel with parameters p on R^d. It takes no
// Options: its memory budget (the output matrices CrossTo and GramTo
// size) is orbit.DefaultBudget; a caller with a smaller one checks its
// outputs itself or passes a sized dst.
func NewBase(p Params, d int) (*Base, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if d < 1 {
		return nil, fmt.Errorf("%w: dimension must be ≥ 1, got %d", ErrInvalid, d)
	}
	return &Base{orbitKernel{
		p: p, d: d, ev: newFeatureEval(p, d, identity), grad: baseGrad(p),
		method: Closed, diagIsV: true,
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

// Group returns the group the kernel is invariant under (nil for Base).
func (k *orbitKernel) Group() orbit.Group { return k.group }

// NewAvg returns k_avg for the base kernel p and the group g. Errors:
// invalid parameters (Params.Validate) or options (ErrBadOptions), a nil
// group (orbit.ErrInvalid), and the group errors of the package's Errors
// section (a group too large to enumerate, with no closed form).
func NewAvg(p Params, g orbit.Group, o Options) (*Avg, error) {
	k, err := newOrbitKernel(p, g, o, false)
	if err != nil {
		return nil, err
	}
	return &Avg{orbitKernel: *k, norm: o.Normalize}, nil
}

// NewMax returns k_max for the base kernel p and the group g. Errors:
// NewAvg's, and Options.Normalize (which applies to NewAvg only).
func NewMax(p Params, g orbit.Group, o Options) (*Max, error) {
	if o.Normalize {
		return nil, fmt.Errorf("%w: Options.Normalize applies to NewAvg only (k_max already has k(x, x) = v)", ErrInvalid)
	}
	k, err := newOrbitKernel(p, g, o, true)
	if err != nil {
		return nil, err
	}
	return &Max{*k}, nil
}

// newOrbitKernel validates the settings and picks the evaluation strategy
// from groupStrategies: embedded groups (k_avg factored over the
// coordinates), finite groups (newFinite) and continuous ones
// (newContinuous, itself a short ordered list) are chosen by what the
// group declares (orbit's capability interfaces), never by its concrete
// type.
func newOrbitKernel(p Params, g orbit.Group, o Options, isMax bool) (*orbitKernel, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if orbit.IsNil(g) {
		return nil, fmt.Errorf("kernel: %w: nil group", orbit.ErrInvalid)
	}
	d := g.Dim()
	if d < 1 {
		return nil, fmt.Errorf("%w: group %s has dimension %d", ErrInvalid, g.Name(), d)
	}
	if err := orbit.Check(g); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	if o.Method < Auto || o.Method > Closed {
		return nil, fmt.Errorf("%w: method %v cannot be requested (want auto, enumerate or closed)", ErrBadOptions, o.Method)
	}
	if o.Workers < 0 {
		return nil, fmt.Errorf("%w: negative Workers %d", ErrBadOptions, o.Workers)
	}
	if o.Budget < 0 {
		return nil, fmt.Errorf("%w: negative Budget %d", ErrBadOptions, o.Budget)
	}
	if o.Quadrature < 0 || o.Quadrature == 1 || o.Quadrature > MaxQuadrature {
		return nil, fmt.Errorf("%w: Quadrature must be 0 (default) or in [2, %d], got %d", ErrBadOptions, MaxQuadrature, o.Quadrature)
	}
	b := &builder{p: p, g: g, o: o, isMax: isMax, d: d, inv2: 1 / (p.Lengthscale * p.Lengthscale),
		k: &orbitKernel{p: p, d: d, workers: o.Workers, diagIsV: isMax, group: g, budget: budget.Limit(o.Budget)}}
	b.kind = "avg"
	if isMax {
		b.kind = "max"
	}
	for _, st := range groupStrategies {
		if ok, err := st(b); err != nil {
			return nil, err
		} else if ok {
			return b.k, nil
		}
	}
	return nil, fmt.Errorf("%w: %s over %s: no evaluation strategy", ErrInvalid, b.kind, g.Name())
}

// strategy builds the kernel in b if it applies (ok), or fails.
type strategy func(b *builder) (ok bool, err error)

// groupStrategies are tried in order by newOrbitKernel; the first that
// applies wins: a factorization over the coordinates of an embedded group
// (k_avg with a product base kernel over orbit.Embedded, embedded.go),
// then finite groups (newFinite), then continuous ones (newContinuous).
// It is set once by init, never changed: embeddedProduct builds the inner
// group's kernel through newOrbitKernel, which reads the table, and Go
// refuses that cycle in a variable's initializer.
var groupStrategies []strategy

func init() {
	groupStrategies = []strategy{
		(*builder).embeddedProduct,
		func(b *builder) (bool, error) {
			fg, ok := b.g.(orbit.Finite)
			if !ok {
				return false, nil
			}
			return true, b.newFinite(fg)
		},
		func(b *builder) (bool, error) { return true, b.newContinuous() },
	}
}

// builder carries one construction.
type builder struct {
	p     Params
	g     orbit.Group
	o     Options
	isMax bool
	d     int
	inv2  float64
	kind  string // "avg" or "max", for messages
	k     *orbitKernel
}

func (b *builder) noClosedForm() error {
	return fmt.Errorf("%w for %s over %s with base kernel %s (use method auto or enumerate)", ErrNoClosedForm, b.kind, b.g.Name(), b.p.Shape)
}

// newFinite: closed forms first (a canonical map or a closed orbit
// distance for max, avgClosed's products and permanents for avg), else the
// fused enumeration under the memory budget; the gradient is the closed
// form's, the nearest-image alignment (orbit.Aligner), the enumeration's,
// or central differences.
func (b *builder) newFinite(fg orbit.Finite) error {
	p, g, d, k := b.p, b.g, b.d, b.k
	var closedEv evaluator
	var closedGrad gradFunc
	var closedGradLen int
	if b.o.Method != Enumerate {
		if b.isMax {
			closedEv = b.closedMax()
		} else {
			closedEv, closedGrad, closedGradLen = avgClosed(p, g)
		}
	}
	G, enumErr := orbit.Size(g)
	var enum *enumEval
	if enumErr == nil {
		if enumErr = checkBudget(g, G, d, k.budget.Bytes()); enumErr == nil {
			enum = &enumEval{p: p, inv2: b.inv2, d: d, G: G, g: fg, isMax: b.isMax}
			enum.ra, _ = g.(orbit.RangeActor)
			enum.pa, _ = g.(orbit.PackedActor)
			// Each worker holds one orbit (packed, padded, or the
			// gradient's enumGradLen) and a few vectors: as many workers
			// as fit the budget, at least one.
			perWorker := 8 * max((float64(G)+8)*(float64(d)+1), float64(enumGradLen(G, d)))
			k.maxWorkers = max(1, int(min(float64(k.budget.Bytes())/perWorker, 1<<20)))
		}
	}
	if closedEv != nil {
		// The closed orbit distance of a block group solves an m×m
		// assignment: its scratch, held by each worker, is sized before
		// it is made (orbit.AssignScratch).
		if need := orbit.AssignScratch(g); need > 0 {
			if bud := float64(k.budget.Bytes()); need > bud {
				return fmt.Errorf("kernel: %s over %s: %w: its orbit distance's assignment needs %.3g bytes of scratch per worker, budget %d", b.kind, g.Name(), orbit.ErrOverBudget, need, k.budget.Bytes())
			}
			w := max(1, int(min(float64(k.budget.Bytes())/need, 1<<20)))
			if k.maxWorkers <= 0 || w < k.maxWorkers {
				k.maxWorkers = w
			}
		}
	}
	switch {
	case closedEv != nil:
		k.ev, k.method = closedEv, Closed
	case b.o.Method == Closed:
		return b.noClosedForm()
	case enumErr != nil:
		return fmt.Errorf("kernel: %s over %s: %w", b.kind, g.Name(), enumErr)
	default:
		k.ev, k.method = enum, Enumerate
	}
	al, hasAlign := g.(orbit.Aligner)
	switch {
	case closedGrad != nil:
		k.grad, k.gradLen = closedGrad, closedGradLen
	case b.isMax && k.method == Closed && hasAlign:
		k.grad, k.gradLen = alignGrad(p, al), d
	case enum != nil:
		k.grad, k.gradLen = enum.grad, enumGradLen(G, d)
		if b.isMax {
			k.enumMax = enum
		} else {
			k.enumAvg = enum
		}
	default:
		k.grad, k.gradLen = fdGrad(k.ev, p.Lengthscale, d)
	}
	return nil
}

// closedMax is k_max through the group's canonical map, else its closed
// orbit distance, else nil.
func (b *builder) closedMax() evaluator {
	if c, ok := b.g.(orbit.Canonicalizer); ok {
		return newFeatureEval(b.p, c.CanonicalDim(), c.CanonicalTo)
	}
	if dd, ok := b.g.(orbit.Distancer); ok {
		return &distEval{p: b.p, inv2: b.inv2, d: b.d, dist: dd}
	}
	return nil
}

// continuousStrategies are tried in order for continuous groups; the
// first that applies wins.
var continuousStrategies = []strategy{
	// Method Enumerate: the group's discretized orbits. A non-isometric
	// group with a canonical map (scalingdir) defines its orbit distance
	// by that map, not by its orbits' points: its max kernel has no
	// discretization.
	func(b *builder) (bool, error) {
		if b.o.Method != Enumerate {
			return false, nil
		}
		if _, canon := b.g.(orbit.Canonicalizer); canon && b.isMax && !orbit.IsIsometric(b.g) {
			return true, fmt.Errorf("%w: max over %s: its orbit distance is its canonical map's, which its orbits' points do not discretize (use Method Auto or Closed)", ErrBadOptions, b.g.Name())
		}
		return true, b.discretized()
	},
	// Max through a canonical map (rotation2d: ‖x‖) with the analytic
	// gradient of the nearest orbit point (orbit.Aligner), or a closed
	// orbit distance (scaling: the exact segment distance) with central
	// differences.
	func(b *builder) (bool, error) {
		if !b.isMax {
			return false, nil
		}
		switch ev := b.closedMax().(type) {
		case *featureEval:
			b.k.ev, b.k.method = ev, Closed
			if al, ok := b.g.(orbit.Aligner); ok {
				b.k.grad, b.k.gradLen = alignGrad(b.p, al), b.d
			} else {
				b.k.grad, b.k.gradLen = fdGrad(ev, b.p.Lengthscale, b.d)
			}
			return true, nil
		case *distEval:
			b.k.ev, b.k.method = ev, Closed
			b.k.grad, b.k.gradLen = fdGrad(ev, b.p.Lengthscale, b.d)
			return true, nil
		}
		return false, nil
	},
	// Avg over circular orbits: the RBF closed form (Bessel), else the
	// quadrature in the relative angle.
	func(b *builder) (bool, error) {
		if b.isMax {
			return false, nil
		}
		if _, ok := b.g.(orbit.Circular); !ok {
			return false, nil
		}
		if b.p.Shape == RBF {
			e := newRotAvgEval(b.p, true, 0)
			b.k.ev, b.k.method, b.k.grad = e, Closed, e.grad
			return true, nil
		}
		if b.o.Method == Closed {
			return true, b.noClosedForm()
		}
		e := newRotAvgEval(b.p, false, b.nodes(DefaultQuadrature))
		b.k.ev, b.k.method, b.k.grad = e, Quadrature, e.grad
		return true, nil
	},
	// Avg over segment orbits (scaling): the exact average
	// (scalingexact.go), unless Options.Quadrature asks for the
	// Gauss–Legendre rule (Method Enumerate took the first strategy).
	func(b *builder) (bool, error) {
		sg, ok := b.g.(orbit.Segmenter)
		if b.isMax || !ok || (b.o.Method == Auto && b.o.Quadrature != 0) {
			return false, nil
		}
		e := newScalingExactEval(b.p, sg)
		b.k.ev, b.k.method = e, Closed
		b.k.grad, b.k.gradLen, b.k.gradWork = e.grad, e.gradLen(), e.gradWork()
		return true, nil
	},
	// Everything else has no closed form.
	func(b *builder) (bool, error) {
		if b.o.Method == Closed {
			return true, b.noClosedForm()
		}
		return true, b.discretized()
	},
}

func (b *builder) newContinuous() error {
	for _, st := range continuousStrategies {
		if ok, err := st(b); ok || err != nil {
			return err
		}
	}
	return fmt.Errorf("%w: %s over %s: no evaluation strategy", ErrInvalid, b.kind, b.g.Name())
}

// nodes is Options.Quadrature, or def when it is 0.
func (b *builder) nodes(def int) int {
	if b.o.Quadrature != 0 {
		return b.o.Quadrature
	}
	return def
}

// discretized evaluates on quadrature nodes: Gauss–Legendre in log c for
// avg over segment orbits (orbit.Segmenter, analytic gradient), else the
// group's orbit.Discretizer nodes — a single reduction over the nodes of y
// for isometric groups, a double one otherwise (capped at
// MaxQuadratureDouble nodes per orbit).
func (b *builder) discretized() error {
	k := b.k
	if sg, ok := b.g.(orbit.Segmenter); ok && !b.isMax {
		e := newScalingAvgEval(b.p, sg, b.nodes(DefaultQuadratureGauss))
		if e.m > MaxQuadratureDouble {
			return fmt.Errorf("%w: %s over %s averages over pairs of nodes (Quadrature² per pair): Quadrature %d exceeds %d", ErrBadOptions, b.kind, b.g.Name(), e.m, MaxQuadratureDouble)
		}
		k.ev, k.method = e, Quadrature
		k.grad, k.gradLen = e.grad, e.gradLen()
		return nil
	}
	disc, ok := b.g.(discretizer)
	if !ok {
		return fmt.Errorf("%w: %s over %s: the group offers no discretization", ErrInvalid, b.kind, b.g.Name())
	}
	iso := orbit.IsIsometric(b.g)
	nq := b.nodes(DefaultQuadrature)
	if !iso {
		nq = b.nodes(DefaultQuadratureDouble)
		if nq > MaxQuadratureDouble {
			return fmt.Errorf("%w: %s over %s averages over pairs of nodes (Quadrature² per pair): Quadrature %d exceeds %d", ErrBadOptions, b.kind, b.g.Name(), nq, MaxQuadratureDouble)
		}
	}
	e := &discEval{p: b.p, inv2: b.inv2, d: b.d, m: nq, nodes: disc.OrbitTo, iso: iso, isMax: b.isMax}
	k.ev, k.method = e, Quadrature
	if e.iso {
		k.grad, k.gradLen = e.grad, nq*b.d
	} else {
		k.grad, k.gradLen = fdGrad(e, b.p.Lengthscale, b.d)
	}
	return nil
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

// Grad writes ∂k(x, y_j)/∂x into row j of dst (m×d) for x of length d
// and y m×d: through GradTo if k is a Gradienter, otherwise by central
// differences of CrossTo with the step the kernels of this package take
// where they have no analytic gradient, h_k = ε^{1/3}·max(|x_k|, scale)
// (scale: the kernel's lengthscale; relative error ≈ 1e−10 where k is
// smooth on the scale of h). The fallback makes 2d CrossTo calls of one
// perturbed copy of x against y, is deterministic, and allocates nothing
// after warm-up beyond what CrossTo allocates (its scratch is pooled). An
// empty dst is resized; a nil one is ErrNilArgument, a non-empty one of
// the wrong size ErrDstShape (checked before any CrossTo). scale is
// used by the fallback only and must then be positive and finite, and
// large enough that each step h_k is not 0 in float64 (a subnormal scale
// at x_k = 0).
// Errors: ErrBadOptions for a nil kernel (a nil interface or a nil
// pointer in one) or a bad scale (one whose step is 0 at some x_k: a
// difference over no width); through GradTo
// the kernel's own; on the fallback ErrBadPoints for an x of the wrong
// length, an empty y or one of the wrong width, and a NaN or ±Inf
// coordinate of x or y (checked once per call, whether or not the
// kernel's CrossTo checks them), then CrossTo's, and ErrBadPoints for a
// difference quotient that is not finite (the kernel's values, or their
// difference over the step, beyond float64's range), never a NaN or an
// infinity with a nil error.
func Grad(k Kernel, dst *mat.Dense, x []float64, y *mat.Dense, scale float64) error {
	if check.IsNil(k) {
		return fmt.Errorf("%w: Grad needs a kernel", ErrBadOptions)
	}
	if g, ok := k.(Gradienter); ok {
		return g.GradTo(dst, x, y)
	}
	if !(scale > 0) || math.IsInf(scale, 0) {
		return fmt.Errorf("%w: Grad: step scale %v must be positive and finite", ErrBadOptions, scale)
	}
	// The differences are taken here, and the caller's CrossTo need not
	// check its points: x and y are checked once (finite: limit ℓ = 1).
	d := k.Dim()
	if err := checkVec("x", x, d, 1); err != nil {
		return err
	}
	m, err := checkPoints("y", y, d, 1)
	if err != nil {
		return err
	}
	if err := checkDst(dst, m, d); err != nil {
		return err
	}
	resizeDense(dst, m, d)
	s := fdPool.Get().(*fdScratch)
	defer fdPool.Put(s)
	s.xp.Reset()
	s.xp.ReuseAs(1, d)
	s.fp.Reset()
	s.fp.ReuseAs(1, m)
	s.fm.Reset()
	s.fm.ReuseAs(1, m)
	xp, fp, fm := s.xp.RawRowView(0), s.fp.RawRowView(0), s.fm.RawRowView(0)
	copy(xp, x)
	for j := range d {
		plus, minus, width := fdPoints(x[j], scale)
		if !(width > 0) {
			return fmt.Errorf("%w: Grad: step scale %v too small: the central difference at x[%d] = %v has no width in float64", ErrBadOptions, scale, j, x[j])
		}
		xp[j] = plus
		if err := k.CrossTo(&s.fp, &s.xp, y); err != nil {
			return err
		}
		xp[j] = minus
		if err := k.CrossTo(&s.fm, &s.xp, y); err != nil {
			return err
		}
		xp[j] = x[j]
		for i := range m {
			dst.Set(i, j, (fp[i]-fm[i])/width)
		}
	}
	return finiteGrad(dst)
}

// fdScratch is Grad's pooled scratch: the perturbed point and two rows of
// kernel values.
type fdScratch struct{ xp, fp, fm mat.Dense }

var fdPool = sync.Pool{New: func() any { return new(fdScratch) }}

// Gram fills dst (n×n) with k(x_i, x_j), through GramTo if k is a Gramer
// and CrossTo(x, x) otherwise. Errors: ErrBadOptions for a nil kernel (a
// nil interface or a nil pointer in one);
// through CrossTo, ErrBadPoints for an empty x, one of the wrong width or
// one with a NaN or ±Inf coordinate (checked once, whether or not the
// kernel's CrossTo checks them); else the kernel's own (this package's
// kernels: ErrBadPoints for bad points, orbit.ErrOverBudget for an output
// over its budget).
func Gram(k Kernel, dst *mat.SymDense, x *mat.Dense) error {
	if check.IsNil(k) {
		return fmt.Errorf("%w: Gram needs a kernel", ErrBadOptions)
	}
	if g, ok := k.(Gramer); ok {
		return g.GramTo(dst, x)
	}
	n, err := checkPoints("x", x, k.Dim(), 1)
	if err != nil {
		return err
	}
	if err := checkSymDst(dst, n); err != nil {
		return err
	}
	var c mat.Dense
	if err := k.CrossTo(&c, x, x); err != nil {
		return err
	}
	if r, cc := c.Dims(); r != n || cc != n {
		return fmt.Errorf("%w: Gram: the kernel's CrossTo(x, x) is %d×%d, want %d×%d", ErrInvalid, r, cc, n, n)
	}
	resizeSym(dst, n)
	for i := range n {
		for j := i; j < n; j++ {
			dst.SetSym(i, j, c.At(i, j))
		}
	}
	return nil
}
