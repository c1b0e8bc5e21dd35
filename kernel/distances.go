package kernel

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/internal/budget"
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
	k, err := rawDistKernel(g, x, o)
	if err != nil {
		return err
	}
	n, err := k.checkGram(dst, x)
	if err != nil {
		return err
	}
	gramTo(k.ev, k.nw(), dst, x, n, 0, true)
	return nil
}

// OrbitDistTo fills dst like OrbitDist2To, with the orbit distances
// d_G(x_i, x_j) themselves (square roots, rounding below 0 clamped to 0):
// the matrix gp's max and plus families bind and perf profile times. Only
// the upper triangle is written, as a SymDense stores it.
func OrbitDistTo(dst *mat.SymDense, g orbit.Group, x *mat.Dense, o Options) error {
	if err := OrbitDist2To(dst, g, x, o); err != nil {
		return err
	}
	raw := dst.RawSymmetric()
	n := raw.N
	for i := range n {
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		for j := i; j < n; j++ {
			row[j] = math.Sqrt(max(row[j], 0))
		}
	}
	return nil
}

// rawDistKernel is the unit RBF kernel over g (the base kernel for a nil
// g) whose evaluator returns squared orbit distances instead of kernel
// values (raw): the evaluation path of k_max, shared by OrbitDist2To and
// NewOrbitDist. ErrNoClosedForm when Options.Method leaves no such path.
func rawDistKernel(g orbit.Group, x *mat.Dense, o Options) (*orbitKernel, error) {
	p := Params{Shape: RBF, Variance: 1, Lengthscale: 1}
	var k *orbitKernel
	if g == nil {
		_, d := x.Dims()
		if o.Budget < 0 {
			return nil, fmt.Errorf("%w: negative Budget %d", ErrBadOptions, o.Budget)
		}
		if o.Workers < 0 {
			return nil, fmt.Errorf("%w: negative Workers %d", ErrBadOptions, o.Workers)
		}
		b, err := NewBase(p, max(d, 1))
		if err != nil {
			return nil, err
		}
		k = &b.orbitKernel
		k.budget, k.workers = budget.Limit(o.Budget), o.Workers
	} else {
		var err error
		if k, err = newOrbitKernel(p, g, o, true); err != nil {
			return nil, err
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
		return nil, fmt.Errorf("%w: no orbit distance for %s (method %v)", ErrNoClosedForm, g.Name(), k.method)
	}
	return k, nil
}
