// Package canon differentiates the canonical map φ of a group with the
// paper's Proposition 1 (orbit.Canonicalizer), so that a model predicting
// in canonical coordinates z = φ(x) can return gradients in x.
//
// φ is piecewise linear (|x| for sign flips, sorting for permutations,
// both for signed permutations: locally a signed permutation) or smooth
// away from 0 (‖x‖ for planar rotations, r·x/‖x‖ for scalingdir), so its
// Jacobian is taken by central differences with a power-of-two step
// h = 2⁻²⁰·max(1, ‖x‖∞): exact up to rounding (relative ~2⁻³²) wherever
// no kink lies within h, the average of the one-sided Jacobians otherwise.
//
// Cost: 2·d evaluations of φ per call, whatever the number of gradients
// chained. Not safe for concurrent use of one Scratch.
package canon

import (
	"math"

	"github.com/symbo/symbo/orbit"
)

// Scratch is the working storage of ChainTo for x in R^d and φ(x) in
// R^cd.
type Scratch struct {
	xp, fp, fm []float64
}

// NewScratch returns the scratch for dimension d and canonical dimension
// cd (or larger).
func NewScratch(d, cd int) *Scratch {
	return &Scratch{xp: make([]float64, d), fp: make([]float64, cd), fm: make([]float64, cd)}
}

// ChainTo writes Jφ(x)ᵀ·gz[j] into dst[j] (length len(x)) for every j
// whose gz[j] is not nil; gz[j] has length c.CanonicalDim(). The scratch
// must have room for len(x) and c.CanonicalDim().
func ChainTo(c orbit.Canonicalizer, dst, gz [][]float64, x []float64, s *Scratch) {
	scale := 1.0
	for _, v := range x {
		scale = math.Max(scale, math.Abs(v))
	}
	h := math.Ldexp(1, math.Ilogb(scale)-20)
	cd := c.CanonicalDim()
	fp, fm, xp := s.fp[:cd], s.fm[:cd], s.xp[:len(x)]
	copy(xp, x)
	for i := range x {
		xp[i] = x[i] + h
		c.CanonicalTo(fp, xp)
		xp[i] = x[i] - h
		c.CanonicalTo(fm, xp)
		xp[i] = x[i]
		for j, g := range gz {
			if g == nil {
				continue
			}
			var s float64
			for k := range g {
				s += g[k] * (fp[k] - fm[k])
			}
			dst[j][i] = s / (2 * h)
		}
	}
}
