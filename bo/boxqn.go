package bo

import "math"

// boxObjective returns f(x) and, when grad is not nil, writes ∇f(x) into
// grad. The box maximizer maximizes it. A non-finite value counts as −∞.
// Called with a gradient right after a value-only call at the same x, it
// must return the same value.
type boxObjective func(x, grad []float64) float64

// boxQN is a projected limited-memory BFGS maximizer on a box
// [lo, hi] (gradient projection): the quasi-Newton direction is computed on
// the free variables (those not held at a bound by the gradient), every
// trial point is clamped into the box, and a backtracking line search along
// the projected path enforces the Armijo condition. Iterates are clamped
// coordinate-wise, so they lie in the box exactly. The scratch is owned: one
// boxQN per goroutine.
type boxQN struct {
	lo, hi   []float64
	maxIter  int
	maxLS    int // backtracking steps per line search
	memory   int
	ftol     float64 // stop when an iteration gains ≤ ftol·max(1, |f|)
	gtol     float64 // stop when max_i |pg_i|·(hi_i − lo_i) ≤ gtol·max(1, |f|)
	x, g     []float64
	xn, gn   []float64
	dir, q   []float64
	free     []bool
	s, y     [][]float64
	rho, alp []float64
	evals    int
	iters    int // accepted steps of the last maximize
	// L-BFGS memory: stored pairs in a ring of memory slots, head the
	// next slot.
	stored, head int
}

func newBoxQN(lo, hi []float64, maxIter int) *boxQN {
	d := len(lo)
	const m = 10
	b := &boxQN{
		lo: lo, hi: hi, maxIter: maxIter, maxLS: 40, memory: m, ftol: 1e-11, gtol: 1e-11,
		x: make([]float64, d), g: make([]float64, d),
		xn: make([]float64, d), gn: make([]float64, d),
		dir: make([]float64, d), q: make([]float64, d),
		free: make([]bool, d),
		rho:  make([]float64, m), alp: make([]float64, m),
	}
	b.s = make([][]float64, m)
	b.y = make([][]float64, m)
	for i := range m {
		b.s[i] = make([]float64, d)
		b.y[i] = make([]float64, d)
	}
	return b
}

func clampInto(x, lo, hi []float64) {
	for i := range x {
		if x[i] < lo[i] || math.IsNaN(x[i]) {
			x[i] = lo[i]
		} else if x[i] > hi[i] {
			x[i] = hi[i]
		}
	}
}

func finiteOr(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 1) {
		return math.Inf(-1)
	}
	return v
}

// maximize runs from x0 (clamped into the box) and writes the best point
// found into dst, returning its value. It evaluates f at most about
// maxIter·40 times.
func (b *boxQN) maximize(f boxObjective, dst, x0 []float64) float64 {
	copy(b.x, x0)
	clampInto(b.x, b.lo, b.hi)
	fx := finiteOr(f(b.x, b.g))
	b.evals, b.iters = 1, 0
	b.forget()
	if math.IsInf(fx, -1) {
		copy(dst, b.x)
		return fx
	}
	for range b.maxIter {
		pg := b.freeSet()
		if pg <= b.gtol*math.Max(1, math.Abs(fx)) || !(pg < math.Inf(1)) {
			break
		}
		b.direction()
		fn, ok := b.lineSearch(f, fx)
		if !ok {
			if b.stored > 0 {
				b.forget()
				continue
			}
			break
		}
		b.remember()
		b.iters++
		prev := fx
		copy(b.x, b.xn)
		copy(b.g, b.gn)
		fx = fn
		if fx-prev <= b.ftol*math.Max(1, math.Max(math.Abs(fx), math.Abs(prev))) {
			break
		}
	}
	copy(dst, b.x)
	return fx
}

// forget empties the L-BFGS memory.
func (b *boxQN) forget() { b.stored, b.head = 0, 0 }

// freeSet marks the free variables (those not held at a bound by the
// gradient; ascent moves along +g) and returns the projected gradient's
// largest entry scaled by the box widths.
func (b *boxQN) freeSet() float64 {
	pg := 0.0
	for i := range b.x {
		gi := b.g[i]
		atLo := b.x[i] <= b.lo[i] && gi < 0
		atHi := b.x[i] >= b.hi[i] && gi > 0
		b.free[i] = !(atLo || atHi)
		if b.free[i] {
			pg = math.Max(pg, math.Abs(gi)*(b.hi[i]-b.lo[i]))
		}
	}
	return pg
}

// direction writes the ascent direction into dir: the two-loop recursion
// on the free variables for H·g (H approximates −(∇²f)⁻¹), or the scaled
// gradient when that is not an ascent direction (which also empties the
// memory).
func (b *boxQN) direction() {
	for i := range b.q {
		if b.free[i] {
			b.q[i] = b.g[i]
		} else {
			b.q[i] = 0
		}
	}
	for k := 0; k < b.stored; k++ {
		j := (b.head - 1 - k + b.memory) % b.memory
		b.alp[j] = b.rho[j] * dotMasked(b.s[j], b.q, b.free)
		axpyMasked(-b.alp[j], b.y[j], b.q, b.free)
	}
	gamma := 0.0
	if b.stored > 0 {
		j := (b.head - 1 + b.memory) % b.memory
		gamma = dotMasked(b.s[j], b.y[j], b.free) / dotMasked(b.y[j], b.y[j], b.free)
	}
	if !(gamma > 0) || math.IsInf(gamma, 0) {
		// No curvature yet: scale so the first trial step moves the
		// largest free coordinate by a tenth of its box width.
		w := 0.0
		for i := range b.g {
			if b.free[i] && b.g[i] != 0 {
				w = math.Max(w, math.Abs(b.g[i])/(b.hi[i]-b.lo[i]))
			}
		}
		gamma = 0.1 / w
	}
	for i := range b.q {
		b.q[i] *= gamma
	}
	for k := b.stored - 1; k >= 0; k-- {
		j := (b.head - 1 - k + b.memory) % b.memory
		beta := b.rho[j] * dotMasked(b.y[j], b.q, b.free)
		axpyMasked(b.alp[j]-beta, b.s[j], b.q, b.free)
	}
	copy(b.dir, b.q)
	if dotMasked(b.dir, b.g, b.free) <= 0 {
		// Not an ascent direction: restart from the scaled gradient.
		b.forget()
		w := 0.0
		for i := range b.g {
			if b.free[i] {
				w = math.Max(w, math.Abs(b.g[i])/(b.hi[i]-b.lo[i]))
			}
		}
		for i := range b.dir {
			if b.free[i] {
				b.dir[i] = 0.1 * b.g[i] / w
			} else {
				b.dir[i] = 0
			}
		}
	}
}

// lineSearch backtracks along the projected path x + step·dir (clamped)
// until the Armijo condition holds, then takes the gradient at the
// accepted point xn into gn. It reports whether a point was accepted.
func (b *boxQN) lineSearch(f boxObjective, fx float64) (float64, bool) {
	step := 1.0
	for range b.maxLS {
		for i := range b.xn {
			b.xn[i] = b.x[i] + step*b.dir[i]
		}
		clampInto(b.xn, b.lo, b.hi)
		// Trial points need the value only; the gradient is taken once a
		// point is accepted (gp.Workspace then reuses the prediction, so
		// only the gradient work is added).
		fn := finiteOr(f(b.xn, nil))
		b.evals++
		inc := 0.0
		for i := range b.xn {
			inc += b.g[i] * (b.xn[i] - b.x[i])
		}
		if fn >= fx+1e-4*inc && fn > math.Inf(-1) && inc > 0 {
			fn = finiteOr(f(b.xn, b.gn))
			return fn, fn > math.Inf(-1)
		}
		step *= 0.5
	}
	return math.Inf(-1), false
}

// remember stores the step's curvature pair (for the concave model,
// s·(−Δg) > 0) when it is safely positive.
func (b *boxQN) remember() {
	sy, yy := 0.0, 0.0
	for i := range b.xn {
		s := b.xn[i] - b.x[i]
		y := -(b.gn[i] - b.g[i])
		b.s[b.head][i] = s
		b.y[b.head][i] = y
		sy += s * y
		yy += y * y
	}
	if sy > 1e-12*math.Sqrt(yy)*vecNorm(b.s[b.head]) && sy > 0 {
		b.rho[b.head] = 1 / sy
		b.head = (b.head + 1) % b.memory
		if b.stored < b.memory {
			b.stored++
		}
	}
}

func dotMasked(a, b []float64, m []bool) float64 {
	s := 0.0
	for i := range a {
		if m[i] {
			s += a[i] * b[i]
		}
	}
	return s
}

func axpyMasked(alpha float64, x, y []float64, m []bool) {
	for i := range x {
		if m[i] {
			y[i] += alpha * x[i]
		}
	}
}

func vecNorm(a []float64) float64 {
	s := 0.0
	for _, v := range a {
		s += v * v
	}
	return math.Sqrt(s)
}
