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
	d := len(b.lo)
	copy(b.x, x0)
	clampInto(b.x, b.lo, b.hi)
	fx := finiteOr(f(b.x, b.g))
	b.evals, b.iters = 1, 0
	stored, head := 0, 0 // L-BFGS memory: pairs in a ring, head = next slot
	if math.IsInf(fx, -1) {
		copy(dst, b.x)
		return fx
	}
	for range b.maxIter {
		// Free set and projected gradient (ascent: moving along +g).
		pg := 0.0
		for i := range d {
			gi := b.g[i]
			atLo := b.x[i] <= b.lo[i] && gi < 0
			atHi := b.x[i] >= b.hi[i] && gi > 0
			b.free[i] = !(atLo || atHi)
			if b.free[i] {
				pg = math.Max(pg, math.Abs(gi)*(b.hi[i]-b.lo[i]))
			}
		}
		if pg <= b.gtol*math.Max(1, math.Abs(fx)) || !(pg < math.Inf(1)) {
			break
		}
		// Two-loop recursion on the free variables for the ascent
		// direction H·g (H approximates −(∇²f)⁻¹).
		for i := range d {
			if b.free[i] {
				b.q[i] = b.g[i]
			} else {
				b.q[i] = 0
			}
		}
		for k := 0; k < stored; k++ {
			j := (head - 1 - k + b.memory) % b.memory
			b.alp[j] = b.rho[j] * dotMasked(b.s[j], b.q, b.free)
			axpyMasked(-b.alp[j], b.y[j], b.q, b.free)
		}
		gamma := 0.0
		if stored > 0 {
			j := (head - 1 + b.memory) % b.memory
			gamma = dotMasked(b.s[j], b.y[j], b.free) / dotMasked(b.y[j], b.y[j], b.free)
		}
		if !(gamma > 0) || math.IsInf(gamma, 0) {
			// No curvature yet: scale so the first trial step moves the
			// largest free coordinate by a tenth of its box width.
			w := 0.0
			for i := range d {
				if b.free[i] && b.g[i] != 0 {
					w = math.Max(w, math.Abs(b.g[i])/(b.hi[i]-b.lo[i]))
				}
			}
			gamma = 0.1 / w
		}
		for i := range b.q {
			b.q[i] *= gamma
		}
		for k := stored - 1; k >= 0; k-- {
			j := (head - 1 - k + b.memory) % b.memory
			beta := b.rho[j] * dotMasked(b.y[j], b.q, b.free)
			axpyMasked(b.alp[j]-beta, b.s[j], b.q, b.free)
		}
		copy(b.dir, b.q)
		if dotMasked(b.dir, b.g, b.free) <= 0 {
			// Not an ascent direction: restart from the scaled gradient.
			stored, head = 0, 0
			w := 0.0
			for i := range d {
				if b.free[i] {
					w = math.Max(w, math.Abs(b.g[i])/(b.hi[i]-b.lo[i]))
				}
			}
			for i := range d {
				if b.free[i] {
					b.dir[i] = 0.1 * b.g[i] / w
				} else {
					b.dir[i] = 0
				}
			}
		}
		// Backtracking along the projected path.
		step := 1.0
		fn := math.Inf(-1)
		ok := false
		for range b.maxLS {
			for i := range d {
				b.xn[i] = b.x[i] + step*b.dir[i]
			}
			clampInto(b.xn, b.lo, b.hi)
			// Trial points need the value only; the gradient is taken
			// once a point is accepted (gp.Workspace then reuses the
			// prediction, so only the gradient work is added).
			fn = finiteOr(f(b.xn, nil))
			b.evals++
			inc := 0.0
			for i := range d {
				inc += b.g[i] * (b.xn[i] - b.x[i])
			}
			if fn >= fx+1e-4*inc && fn > math.Inf(-1) && inc > 0 {
				ok = true
				break
			}
			step *= 0.5
		}
		if ok {
			fn = finiteOr(f(b.xn, b.gn))
			ok = fn > math.Inf(-1)
		}
		if !ok {
			if stored > 0 {
				stored, head = 0, 0
				continue
			}
			break
		}
		// Curvature pair (for the concave model: s·(−Δg) > 0).
		sy := 0.0
		yy := 0.0
		for i := range d {
			s := b.xn[i] - b.x[i]
			y := -(b.gn[i] - b.g[i])
			b.s[head][i] = s
			b.y[head][i] = y
			sy += s * y
			yy += y * y
		}
		if sy > 1e-12*math.Sqrt(yy)*vecNorm(b.s[head]) && sy > 0 {
			b.rho[head] = 1 / sy
			head = (head + 1) % b.memory
			if stored < b.memory {
				stored++
			}
		}
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
