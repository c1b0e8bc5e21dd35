package gp

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// DefaultClassPoints is ClassFitOptions.MaxPoints's default.
const DefaultClassPoints = 256

// classCells caps C·m², the entries of the per-class distance matrices
// FitClassLengthscales keeps (C classes, m points): 2²² (32 MiB).
const classCells = 1 << 22

// ClassFitOptions configure FitClassLengthscales. The zero value is the
// default.
type ClassFitOptions struct {
	// Backend does the factorizations; nil means linalg.Default().
	Backend linalg.Backend
	// Prior: PriorNone (the plain likelihood) or PriorBoTorch (MAP with
	// BoTorch's classic priors, the Gamma(3, 6) lengthscale prior on each
	// class's ℓ_c/w).
	Prior Prior
	// PriorScale is w; 0 means the largest side of the bounding box of
	// the inputs (1 where they coincide or differ only by rounding).
	// Ignored without a prior.
	PriorScale float64
	// FixNoise holds the noise variance at Noise (units of y) instead of
	// fitting it.
	FixNoise bool
	Noise    float64 // the fixed noise variance (units of y), used with FixNoise only
	// MaxPoints caps the points the fit uses: 0 means DefaultClassPoints.
	// Above it (or above 2²² / C points squared, C the number of classes)
	// the fit uses m evenly spaced points, rows ⌊i·n/m⌋ for i < m.
	MaxPoints int
}

// FitClasses fits the base kernel of shape with one lengthscale
// per class of coordinates — classes[k] ∈ {0, …, C−1} is coordinate k's,
// every class used — to the outputs y at the inputs x (n×d, n ≥ 2), and
// returns ℓ_0, …, ℓ_{C−1} in the units of x with the fit's likelihood
// (ClassFit). The covariance is
//
//	v·κ(u(x, x′)) + σ²·δ,  u² = Σ_c Σ_{k: classes[k] = c} (x_k − x′_k)²/ℓ_c²,
//
// on the standardized outputs (sample mean 0, standard deviation 1), and
// (log v, log ℓ_c, log σ²) maximize the log marginal likelihood (plus the
// log prior with PriorBoTorch) within the bounds Fit uses — v ∈ [1e-3,
// 1e3], ℓ_c ∈ [1e-3·s_c, 1e3·s_c] with s_c the diagonal of the bounding
// box of class c's coordinates, σ² ∈ [1e-6, 1] ([1e-4, 1] with the
// prior) — by BFGS with the analytic gradient from one start, ℓ_c =
// ℓ₀_c = s_c/3 (with the prior, its mode w/3 times s_c over the largest
// s_c), v = 1, σ² = 1e-2 (a second start at ℓ₀_c/4 doubled the cost; on
// bo's heterogeneous 6-d problem it moved the regret by a tenth of its
// standard error). With one class the bounds are Fit's; without a prior the fit follows each class's units
// (scaling class c's coordinates scales ℓ_c alone, up to rounding).
//
// It is what bo's per-class lengthscales (Protocol.ARD) are fitted with:
// a group that permutes or rotates coordinates together gives them one
// class, so the kernel k(Sx, Sy) with S = diag(1/ℓ_{classes[k]}) commutes
// with the group and every orbit kernel stays invariant.
//
// Errors: a classes slice that is not d long or not numbered 0, …, C−1;
// fewer than two inputs; non-finite inputs or outputs; bad options
// (input errors); ErrOverflow when no likelihood the search meets is
// finite (inputs spanning beyond float64's range). Deterministic given its arguments; safe for concurrent
// use. Cost: O(d·m²) to bind (each class's squared distances, C·m²
// floats), then O(m³ + C·m²) per likelihood evaluation (a Cholesky factorization and an inverse), with m =
// min(n, MaxPoints, √(2²²/C)); at most 4000 evaluations (the counts
// measured are in docs/performance.md, "Lengthscales per class").
func FitClasses(shape kernel.Shape, classes []int, x *mat.Dense, y []float64, opts ClassFitOptions) (ClassFit, error) {
	if err := checkShape(shape); err != nil {
		return ClassFit{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if x == nil || x.IsEmpty() {
		return ClassFit{}, fmt.Errorf("%w: FitClassLengthscales has no inputs", ErrInvalid)
	}
	n, d := x.Dims()
	nc, err := classCount(classes, d)
	if err != nil {
		return ClassFit{}, err
	}
	if n < 2 {
		return ClassFit{}, fmt.Errorf("%w: FitClassLengthscales needs at least 2 inputs, got %d", ErrInvalid, n)
	}
	if len(y) != n {
		return ClassFit{}, fmt.Errorf("%w: %d outputs for %d inputs", ErrInvalid, len(y), n)
	}
	if opts.MaxPoints < 0 {
		return ClassFit{}, fmt.Errorf("%w: ClassFitOptions.MaxPoints = %d (want ≥ 0)", ErrInvalid, opts.MaxPoints)
	}
	if opts.FixNoise && (!(opts.Noise >= 0) || math.IsInf(opts.Noise, 0)) {
		return ClassFit{}, fmt.Errorf("%w: ClassFitOptions.Noise = %v (want a finite variance ≥ 0)", ErrInvalid, opts.Noise)
	}
	if w := opts.PriorScale; w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
		return ClassFit{}, fmt.Errorf("%w: ClassFitOptions.PriorScale = %v (want > 0, or 0 for the inputs' largest side)", ErrInvalid, w)
	}
	be, err := backendOr(opts.Backend)
	if err != nil {
		return ClassFit{}, err
	}
	// Every input and output, not only the subset's rows below: a NaN
	// or ±Inf among the rows the fit skips is the caller's error too.
	for i := range n {
		for j, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return ClassFit{}, fmt.Errorf("%w: training input (%d, %d) is %v", ErrInvalid, i, j, v)
			}
		}
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return ClassFit{}, fmt.Errorf("%w: training output %d is %v", ErrInvalid, i, y[i])
		}
	}
	m := n
	if opts.MaxPoints > 0 {
		m = min(m, opts.MaxPoints)
	} else {
		m = min(m, DefaultClassPoints)
	}
	m = max(min(m, int(math.Sqrt(float64(classCells)/float64(nc)))), 2)
	xs := mat.NewDense(m, d, nil)
	sy := make([]float64, m)
	for i := range m {
		r := i * n / m
		xs.SetRow(i, x.RawRowView(r))
		sy[i] = y[r]
	}
	if _, err := checkData(xs, sy, d, func(int) float64 { return 0 }, 0); err != nil {
		return ClassFit{}, err // ErrInvalid, "gp: " already
	}
	ys, u := standardizeUnits(sy)
	c := newClassObjective(shape, classes, nc, xs, ys, be)

	// s_c: the diagonal of class c's bounding box (1 for a class of
	// constant coordinates, or of coordinates that differ only by
	// rounding: atRounding). Its bounds and start are s_c's multiples, so
	// that without a prior the fit follows each class's units.
	sc, top := classScales(classes, nc, xs)
	w := opts.PriorScale
	if w == 0 {
		w = maxSide(xs)
	}
	var pr *priorSpec
	noiseMin := defaultNoiseMin
	if opts.Prior != PriorNone {
		if pr, err = newPriorSpec(opts.Prior, w); err != nil {
			return ClassFit{}, err // ErrInvalid, "gp: " already
		}
		noiseMin = botorchNoiseMin
	}
	// θ = (log v, log ℓ_0, …, log ℓ_{C−1}[, log σ²]) in a box, searched in
	// z through the logistic map as Fit's BFGS does.
	nv := nc + 2
	if opts.FixNoise {
		nv = nc + 1
		// Noise/scale², through logs where scale² under- or overflows
		// (scale is 0 in the units of y when y is among the subnormals).
		if s2 := u.scale * u.scale; s2 > 0 && !math.IsInf(s2, 0) {
			c.noise = opts.Noise / s2
		} else {
			c.noise = math.Exp(math.Log(opts.Noise) - 2*u.logScale())
		}
	}
	lo, hi := make([]float64, nv), make([]float64, nv)
	lo[0], hi[0] = math.Log(defaultVarianceMin), math.Log(defaultVarianceMax)
	for j := 1; j <= nc; j++ {
		lo[j], hi[j] = math.Log(defaultLengthMin*sc[j-1]), math.Log(defaultLengthMax*sc[j-1])
	}
	if !opts.FixNoise {
		lo[nv-1], hi[nv-1] = math.Log(noiseMin), math.Log(defaultNoiseMax)
	}
	theta := func(z []float64, th, dth []float64) {
		for i := range z {
			sg := 1 / (1 + math.Exp(-z[i]))
			th[i] = lo[i] + (hi[i]-lo[i])*sg
			dth[i] = (hi[i] - lo[i]) * sg * (1 - sg)
		}
	}
	toZ := func(t float64, i int) float64 {
		f := min(max((t-lo[i])/(hi[i]-lo[i]), 1e-6), 1-1e-6)
		return math.Log(f / (1 - f))
	}
	logPrior := func(th, grad []float64) float64 {
		if pr == nil {
			return 0
		}
		lv, dv := pr.v.logPDF(th[0])
		sum := lv
		if grad != nil {
			grad[0] += dv
		}
		for j := 1; j <= nc; j++ {
			ll, dl := pr.lengthLog(th[j])
			sum += ll
			if grad != nil {
				grad[j] += dl
			}
		}
		if !opts.FixNoise {
			ln, dn := pr.n.logPDF(th[nv-1])
			sum += ln
			if grad != nil {
				grad[nv-1] += dn
			}
		}
		return sum
	}
	th, dth, g := make([]float64, nv), make([]float64, nv), make([]float64, nv)
	prob := optimize.Problem{
		Func: func(z []float64) float64 {
			theta(z, th, dth)
			l, err := c.eval(th, nil)
			if err != nil || math.IsNaN(l) {
				return math.Inf(1)
			}
			return -(l + logPrior(th, nil))
		},
		Grad: func(grad, z []float64) {
			theta(z, th, dth)
			_, err := c.eval(th, g)
			logPrior(th, g)
			for i := range grad {
				if err != nil || math.IsNaN(g[i]) {
					grad[i] = 0
					continue
				}
				grad[i] = -g[i] * dth[i]
			}
		},
	}
	// ℓ₀: s_c/3, or with the prior its mode w/3 times s_c over the
	// largest s_c.
	l0 := 1.0 / 3
	if pr != nil {
		l0 = w / 3 / top
	}
	// One start (see above).
	z := make([]float64, nv)
	z[0] = toZ(0, 0)
	for j := 1; j <= nc; j++ {
		z[j] = toZ(math.Log(l0*sc[j-1]), j)
	}
	if !opts.FixNoise {
		z[nv-1] = toZ(math.Log(1e-2), nv-1)
	}
	settings := &optimize.Settings{
		GradientThreshold: 1e-6,
		MajorIterations:   200,
		FuncEvaluations:   4000,
		Converger:         &optimize.FunctionConverge{Absolute: 1e-9, Relative: 1e-9, Iterations: 3},
	}
	res, err := optimize.Minimize(prob, z, settings, &optimize.BFGS{})
	if res == nil || math.IsInf(res.F, 0) || math.IsNaN(res.F) {
		// Every likelihood the search met was beyond float64's range
		// (inputs spanning ~1e300 make the class scales overflow).
		why := "no finite likelihood"
		if err != nil {
			why = err.Error()
		}
		return ClassFit{}, fmt.Errorf("%w: per-class lengthscales: %s (inputs or outputs beyond what the fit represents in float64?)", ErrOverflow, why)
	}
	best, bestF := res.X, res.F
	theta(best, th, dth)
	out := ClassFit{Lengthscales: make([]float64, nc), LogPosterior: -bestF, Points: m}
	for j := range out.Lengthscales {
		out.Lengthscales[j] = math.Exp(th[1+j])
	}
	if out.LogMarginal, err = c.eval(th, nil); err != nil {
		return ClassFit{}, fmt.Errorf("gp: per-class lengthscales: %w", err)
	}
	return out, nil
}

// ClassFit is FitClasses's result.
type ClassFit struct {
	// Lengthscales are ℓ_0, …, ℓ_{C−1}, in the units of x.
	Lengthscales []float64
	// LogMarginal is the log marginal likelihood of the standardized
	// outputs at the fit, LogPosterior the objective maximized (plus
	// the log prior with a prior; LogMarginal without).
	LogMarginal, LogPosterior float64
	// Points is the number of observations the fit used (m).
	Points int
}

// FitClassLengthscales is FitClasses's lengthscales.
func FitClassLengthscales(shape kernel.Shape, classes []int, x *mat.Dense, y []float64, opts ClassFitOptions) ([]float64, error) {
	f, err := FitClasses(shape, classes, x, y, opts)
	return f.Lengthscales, err
}

// classScales returns, per class, the diagonal of its coordinates'
// bounding box among the rows of x (1 for a class whose coordinates are
// constant, or differ only by rounding: atRounding), and the largest of
// them.
func classScales(classes []int, nc int, x *mat.Dense) ([]float64, float64) {
	_, d := x.Dims()
	sc, mc := make([]float64, nc), make([]float64, nc)
	for k := range d {
		lo, hi := colRange(x, k)
		w := hi - lo
		sc[classes[k]] += w * w
		mc[classes[k]] = max(mc[classes[k]], math.Abs(lo), math.Abs(hi))
	}
	top := 0.0
	for c := range sc {
		sc[c] = math.Sqrt(sc[c])
		if !(sc[c] > 0) || math.IsInf(sc[c], 0) || atRounding(sc[c], mc[c]) {
			sc[c] = 1
		}
		top = max(top, sc[c])
	}
	return sc, top
}

// classCount checks that classes numbers d coordinates 0, …, C−1, every
// class used, and returns C.
func classCount(classes []int, d int) (int, error) {
	if len(classes) != d {
		return 0, fmt.Errorf("%w: %d classes for %d coordinates", ErrInvalid, len(classes), d)
	}
	nc := 0
	for k, c := range classes {
		if c < 0 || c >= d {
			return 0, fmt.Errorf("%w: classes[%d] = %d (want 0 ≤ class < %d)", ErrInvalid, k, c, d)
		}
		nc = max(nc, c+1)
	}
	used := make([]bool, nc)
	for _, c := range classes {
		used[c] = true
	}
	for c, u := range used {
		if !u {
			return 0, fmt.Errorf("%w: class %d has no coordinate (want classes numbered 0, …, %d)", ErrInvalid, c, nc-1)
		}
	}
	return nc, nil
}

// classObjective is the log marginal likelihood of the per-class
// lengthscale base kernel on bound inputs: r2[c] holds the squared
// distances within class c.
type classObjective struct {
	shape kernel.Shape
	n, nc int
	r2    [][]float64 // nc × n·n (upper triangles used)
	y     []float64
	noise float64 // the fixed noise (standardized), with FixNoise
	be    linalg.Backend

	k, work *mat.SymDense
	ch      linalg.Cholesky
	kappa   []float64 // κ(u_ij) and kappaBoth's factor per pair
	dl      []float64
	alpha   []float64
	inv     *mat.Dense
	eye     *mat.Dense
}

func newClassObjective(shape kernel.Shape, classes []int, nc int, x *mat.Dense, y []float64, be linalg.Backend) *classObjective {
	n, d := x.Dims()
	o := &classObjective{
		shape: shape, n: n, nc: nc, y: y, be: be,
		r2: make([][]float64, nc), k: mat.NewSymDense(n, nil), work: mat.NewSymDense(n, nil),
		kappa: make([]float64, n*n), dl: make([]float64, n*n), alpha: make([]float64, n),
		inv: mat.NewDense(n, n, nil), eye: mat.NewDense(n, n, nil),
	}
	for c := range o.r2 {
		o.r2[c] = make([]float64, n*n)
	}
	for i := range n {
		o.eye.Set(i, i, 1)
		xi := x.RawRowView(i)
		for j := i + 1; j < n; j++ {
			xj := x.RawRowView(j)
			for k := range d {
				t := xi[k] - xj[k]
				o.r2[classes[k]][i*n+j] += t * t
			}
		}
	}
	return o
}

// eval returns the log marginal likelihood at θ = (log v, log ℓ_c…[,
// log σ²]) and, when grad is not nil, writes its gradient in θ.
func (o *classObjective) eval(th, grad []float64) (float64, error) {
	n, nc := o.n, o.nc
	v := math.Exp(th[0])
	noise := o.noise
	if len(th) == nc+2 {
		noise = math.Exp(th[nc+1])
	}
	inv2 := make([]float64, nc)
	for c := range nc {
		inv2[c] = math.Exp(-2 * th[1+c])
	}
	for i := range n {
		o.k.SetSym(i, i, v+noise)
		o.kappa[i*n+i], o.dl[i*n+i] = 1, 0
		for j := i + 1; j < n; j++ {
			var u2 float64
			for c := range nc {
				u2 += o.r2[c][i*n+j] * inv2[c]
			}
			o.kappa[i*n+j] = u2
		}
		kappaBothTo(o.shape, o.kappa[i*n+i+1:(i+1)*n], o.dl[i*n+i+1:(i+1)*n])
		for j := i + 1; j < n; j++ {
			o.k.SetSym(i, j, v*o.kappa[i*n+j])
		}
	}
	if _, err := factorJitter(o.be, &o.ch, o.k, o.work); err != nil {
		return math.NaN(), err
	}
	if err := o.ch.SolveVecTo(o.alpha, o.y); err != nil {
		return math.NaN(), err
	}
	var quad float64
	for i, a := range o.alpha {
		quad += a * o.y[i]
	}
	lml := gaussLML(quad, o.ch.LogDet(), float64(n))
	if grad == nil {
		return lml, nil
	}
	if err := o.ch.SolveTo(o.inv, o.eye); err != nil {
		return math.NaN(), err
	}
	// ∂lml/∂θ_j = ½·tr(W·∂K/∂θ_j), W = ααᵀ − K⁻¹ (symmetric: the upper
	// triangle twice plus the diagonal).
	for j := range grad {
		grad[j] = 0
	}
	var trW float64
	for i := range n {
		wii := o.alpha[i]*o.alpha[i] - o.inv.At(i, i)
		trW += wii
		grad[0] += 0.5 * wii * v
		for j := i + 1; j < n; j++ {
			wij := o.alpha[i]*o.alpha[j] - o.inv.At(i, j)
			grad[0] += wij * v * o.kappa[i*n+j]
			f := wij * v * o.dl[i*n+j]
			for c := range nc {
				grad[1+c] += f * o.r2[c][i*n+j] * inv2[c]
			}
		}
	}
	if len(th) == nc+2 {
		grad[nc+1] = 0.5 * trW * noise
	}
	return lml, nil
}

// kappaBothTo sets k[i], dl[i] to κ(u) and −u·κ'(u)/u² at u = √u2 (0 at
// u = 0) for u2 = k[i] on entry: the factor of ∂κ/∂log ℓ_c =
// (−u·κ'(u)/u²)·r²_c/ℓ_c², from one exponential per pair, taken eight at
// a time (f64.MathExpTo: math.Exp's bits).
func kappaBothTo(shape kernel.Shape, k, dl []float64) {
	for i, u2 := range k {
		switch shape {
		case kernel.RBF:
			dl[i] = -u2 / 2
		case kernel.Matern12:
			dl[i] = -math.Sqrt(u2)
		case kernel.Matern32:
			dl[i] = -math.Sqrt(3 * u2)
		default: // Matern52
			dl[i] = -math.Sqrt(5 * u2)
		}
	}
	f64.MathExpTo(dl, dl)
	for i, u2 := range k {
		k[i], dl[i] = kappaBothOf(shape, u2, dl[i])
	}
}

// kappaBothOf is kappaBothTo's pair at u = √u2 from its exponential e.
func kappaBothOf(shape kernel.Shape, u2, e float64) (k, dl float64) {
	switch shape {
	case kernel.RBF:
		return e, e
	case kernel.Matern12:
		if u2 > 0 {
			dl = e / math.Sqrt(u2)
		}
		return e, dl
	case kernel.Matern32:
		u := math.Sqrt(3 * u2)
		return (1 + u) * e, 3 * e
	default: // Matern52
		u := math.Sqrt(5 * u2)
		return (1 + u + 5*u2/3) * e, 5.0 / 3 * (1 + u) * e
	}
}
