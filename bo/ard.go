package bo

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// ardClasses returns the classes of coordinates that Protocol.ARD gives
// a lengthscale each (orbit.CoordinateMaps's classes of the kernel's
// group, or of the group ParseKernel gave base or nystrom: the coordinates the group permutes or rotates together share
// one; a coordinate it only flips, or leaves alone, has its own), or nil
// for one lengthscale: with fewer than two classes, for a custom kernel
// (nothing is known of its invariance) and for a group with a class no
// scaling commutes with (FreeNone: scaling groups, unknown groups).
func ardClasses(k Kernel, d int) []int {
	if k.custom {
		return nil
	}
	classes := make([]int, d)
	g := k.ardGroup()
	if g == nil {
		for i := range classes {
			classes[i] = i
		}
	} else {
		for i, m := range orbit.CoordinateMaps(g) {
			if m.Free == orbit.FreeNone {
				return nil
			}
			classes[i] = m.Class
		}
	}
	if slices.Max(classes) < 1 {
		return nil
	}
	return classes
}

// fitClasses returns the ARD scale of each coordinate for the
// observations at x (model coordinates, one per row), or nil for none
// (no classes, fewer than two observations, a class fit that failed, or
// one that does not earn its extra lengthscales over one (ardEarns): the
// step then uses one lengthscale, as Diagnostics.Hyper.Lengthscales being
// nil says). The scale of class c's coordinates is ℓ_min/ℓ_c, with
// ℓ_c the base kernel's lengthscales fitted per class
// (gp.FitClassLengthscales, with the fit's prior, prior scale and noise;
// on canonical coordinates where the group allows, classCanon) and ℓ_min
// the shortest: the most sensitive class keeps its
// coordinates, the others shrink by how much longer their lengthscale
// is, and every kernel then fits its one lengthscale on the scaled
// coordinates. The scaling commutes with the group (its classes share a
// scale), so every kernel on them stays invariant. A function of the
// observations alone.
func (o *Optimizer) fitClasses(x *mat.Dense, opts gp.FitOptions) []float64 {
	if o.classes == nil {
		return nil
	}
	if n, _ := x.Dims(); n < 2 {
		return nil
	}
	fx, classes := x, o.classes
	if o.ardCanon != nil {
		n, _ := x.Dims()
		fx, classes = mat.NewDense(n, len(o.canonClasses), nil), o.canonClasses
		for i := range n {
			o.ardCanon.CanonicalTo(fx.RawRowView(i), x.RawRowView(i))
		}
	}
	co := gp.ClassFitOptions{
		Backend: o.cfg.Backend, Prior: opts.Prior, PriorScale: opts.PriorScale,
		FixNoise: opts.FixNoise, Noise: opts.Noise,
	}
	shape := o.arms[0].k.shape
	f, err := gp.FitClasses(shape, classes, fx, o.signed(), co)
	if err != nil {
		return nil
	}
	one, err := gp.FitClasses(shape, make([]int, len(classes)), fx, o.signed(), co)
	if err != nil || !ardEarns(f, one, slices.Max(classes)+1) {
		return nil
	}
	ls := f.Lengthscales
	lmin := slices.Min(ls)
	s := make([]float64, o.d)
	for k, c := range o.classes {
		s[k] = lmin / ls[c]
	}
	return s
}

// ardEarns reports whether the class fit f beats the one-lengthscale fit
// one of the same data by more than its C − 1 extra lengthscales cost:
// the log marginal likelihoods differ by more than (C − 1)/2 · log m (the
// Bayesian information criterion, m the points fitted). On an objective
// that varies alike along every class (the paper's Griewank and Rastrigin
// under sign flips) the class lengthscales only add estimation noise, and
// one lengthscale stays; where a class hardly matters, or matters on
// another scale, the gain is large.
func ardEarns(f, one gp.ClassFit, c int) bool {
	return f.LogMarginal-one.LogMarginal > float64(c-1)/2*math.Log(float64(f.Points))
}

// classCanon returns g's canonical map φ and the class of each canonical
// coordinate when the class lengthscales can be fitted on canonical
// coordinates — scaling one class's coordinates scales some of φ's
// coordinates by the same factor and leaves the others, each canonical
// coordinate following one class and every class followed — so that the
// base kernel on φ(x) with per-class lengthscales is k_max's with them
// (the paper's Proposition 1): a model of the invariant objective rather
// than of its copies. Otherwise it returns nil (the fit then uses the
// coordinates themselves). The classes are read off φ at four points,
// scaling one class at a time by 11/8, and the whole is then checked
// with every class scaled at once.
func classCanon(g orbit.Group, classes []int) (orbit.Canonicalizer, []int) {
	c, ok := g.(orbit.Canonicalizer)
	if !ok {
		return nil, nil
	}
	d, cd, nc := len(classes), c.CanonicalDim(), slices.Max(classes)+1
	const f = 1.375
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*(1+math.Abs(b)) }
	cc := slices.Repeat([]int{-1}, cd)
	rng := rand.New(rand.NewPCG(0x41, 0x52))
	x, sx, a, b := make([]float64, d), make([]float64, d), make([]float64, cd), make([]float64, cd)
	pts := make([][]float64, 4)
	for p := range pts {
		for k := range x {
			x[k] = 2*rng.Float64() - 1
		}
		pts[p] = slices.Clone(x)
		c.CanonicalTo(b, x)
		for q := range nc {
			for k := range x {
				sx[k] = x[k]
				if classes[k] == q {
					sx[k] *= f
				}
			}
			c.CanonicalTo(a, sx)
			for j := range cd {
				switch {
				case math.Abs(b[j]) > 1e-9 && near(a[j], f*b[j]):
					if cc[j] >= 0 && cc[j] != q {
						return nil, nil
					}
					cc[j] = q
				case near(a[j], b[j]):
				default:
					return nil, nil
				}
			}
		}
	}
	seen := make([]bool, nc)
	for _, q := range cc {
		if q < 0 {
			return nil, nil
		}
		seen[q] = true
	}
	if slices.Contains(seen, false) {
		return nil, nil
	}
	scale := func(q int) float64 { return 1 + 0.375*float64(q) }
	for _, x := range pts {
		for k := range x {
			sx[k] = x[k] * scale(classes[k])
		}
		c.CanonicalTo(a, sx)
		c.CanonicalTo(b, x)
		for j := range cd {
			if !near(a[j], b[j]*scale(cc[j])) {
				return nil, nil
			}
		}
	}
	return c, cc
}

// ardGroup is the group whose classes ARD uses: the kernel's, else its
// classGroup (nil: none).
func (k Kernel) ardGroup() orbit.Group {
	if k.group != nil {
		return k.group
	}
	return k.classGroup
}

// scaleRows multiplies column k of x by s[k] (nothing for nil s).
func scaleRows(x *mat.Dense, s []float64) {
	if s == nil {
		return
	}
	n, _ := x.Dims()
	for i := range n {
		row := x.RawRowView(i)
		for k, c := range s {
			row[k] *= c
		}
	}
}

// ardPoints returns ard ⊙ p for each p (ps itself without ARD).
func (o *Optimizer) ardPoints(ps [][]float64) [][]float64 {
	if o.ard == nil || len(ps) == 0 {
		return ps
	}
	out := make([][]float64, len(ps))
	for i, p := range ps {
		q := make([]float64, len(p))
		for k, v := range p {
			q[k] = v * o.ard[k]
		}
		out[i] = q
	}
	return out
}
