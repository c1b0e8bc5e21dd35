package kernel

import (
	"fmt"

	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// OrbitDist2To fills dst (n×n, resized if empty) with the squared orbit
// distances d_G(x_i, x_j)² = min_{g,g'} ‖g·x_i − g'·x_j‖² of the rows of x
// (n×d) under g — or the squared Euclidean distances when g is nil — through
// the evaluation path k_max takes (Options.Method: a canonical map or a
// closed-form distance, else the fused enumeration): in parallel over
// Options.Workers goroutines, bit-identical for any worker count. The
// enumerated path recomputes from direct differences every pair whose
// rounding bound exceeds FusedTol relative to its distance. This is the one
// home of orbit-distance matrices: gp's max and plus families bind them.
// Cost: n(n−1)/2 orbit distances, O(d log d) closed or O(|G|·d) enumerated.
func OrbitDist2To(dst *mat.SymDense, g orbit.Group, x *mat.Dense, o Options) error {
	p := Params{Shape: RBF, Variance: 1, Lengthscale: 1}
	var k *orbitKernel
	if g == nil {
		_, d := x.Dims()
		b, err := NewBase(p, max(d, 1))
		if err != nil {
			return err
		}
		k = &b.orbitKernel
	} else {
		var err error
		if k, err = newOrbitKernel(p, g, o, true); err != nil {
			return err
		}
	}
	switch ev := k.ev.(type) {
	case *featureEval:
		c := *ev
		c.raw = true
		k.ev = &c
	case *distEval:
		c := *ev
		c.raw = true
		k.ev = &c
	case *enumEval:
		c := *ev
		c.raw = true
		k.ev = &c
	default:
		return fmt.Errorf("%w: no orbit distance for %s (method %v)", ErrNoClosedForm, g.Name(), k.method)
	}
	n, err := checkPoints("x", x, k.d, p.Lengthscale)
	if err != nil {
		return err
	}
	if err := checkOut(dst.IsEmpty(), n, n); err != nil {
		return err
	}
	gramTo(k.ev, k.workers, dst, x, n, 0, true)
	return nil
}
