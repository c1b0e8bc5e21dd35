package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/parallel"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// kernelCalls is every method of a kernel the package doc says is safe
// for concurrent use, at query row i of x against y, through p (a
// Prepared of y shared by all callers) where the kernel has one: the
// values, flattened, in a fixed order.
func kernelCalls(k kernel.Kernel, p *kernel.Prepared, x, y *mat.Dense, i int) ([]float64, error) {
	var out []float64
	xi := mat.NewDense(1, x.RawMatrix().Cols, append([]float64(nil), x.RawRowView(i)...))
	var c mat.Dense
	if err := k.CrossTo(&c, x, y); err != nil {
		return nil, fmt.Errorf("CrossTo: %w", err)
	}
	out = append(out, c.RawMatrix().Data...)
	diag, err := k.DiagTo(nil, x)
	if err != nil {
		return nil, fmt.Errorf("DiagTo: %w", err)
	}
	out = append(out, diag...)
	if gk, ok := k.(kernel.Gramer); ok {
		var gram mat.SymDense
		if err := gk.GramTo(&gram, y); err != nil {
			return nil, fmt.Errorf("GramTo: %w", err)
		}
		out = append(out, gram.RawSymmetric().Data...)
	}
	if gk, ok := k.(kernel.Gradienter); ok {
		var gr mat.Dense
		if err := gk.GradTo(&gr, x.RawRowView(i), y); err != nil {
			return nil, fmt.Errorf("GradTo: %w", err)
		}
		out = append(out, gr.RawMatrix().Data...)
	}
	if p == nil {
		return out, nil
	}
	pk := k.(kernel.Preparer)
	var cp mat.Dense
	if err := pk.CrossPreparedTo(&cp, xi, p); err != nil {
		return nil, fmt.Errorf("CrossPreparedTo: %w", err)
	}
	out = append(out, cp.RawMatrix().Data...)
	if cd, ok := k.(kernel.CrossDiagPreparer); ok {
		var cc mat.Dense
		dg, err := cd.CrossDiagPreparedTo(&cc, nil, xi, p)
		if err != nil {
			return nil, fmt.Errorf("CrossDiagPreparedTo: %w", err)
		}
		out = append(out, cc.RawMatrix().Data...)
		out = append(out, dg...)
	}
	if gp, ok := k.(kernel.GradPreparer); ok {
		var gr mat.Dense
		if err := gp.GradPreparedTo(&gr, x.RawRowView(i), p); err != nil {
			return nil, fmt.Errorf("GradPreparedTo: %w", err)
		}
		out = append(out, gr.RawMatrix().Data...)
	}
	return out, nil
}

// positivePoints is n points of [0.15, 9.95]², inside the scaling
// groups' box [0.1, 10]².
func positivePoints(n int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 5))
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		for j := range 2 {
			x.Set(i, j, 0.15+9.8*rng.Float64())
		}
	}
	return x
}

// TestConcurrentKernelCalls: every kernel kind, fresh (cold caches: the
// normalized average's diagonal, the scaling average's moments, Plus's
// pool, a Prepared's orbits computed once by whichever GradPreparedTo
// comes first), called by many goroutines at once on one value and one
// shared Prepared — CrossTo, DiagTo, GramTo, GradTo, CrossPreparedTo,
// CrossDiagPreparedTo, GradPreparedTo — gives the bits of serial calls on
// another fresh value, with one assembly worker and two (the same bits
// for both; run it with
// -race: the package doc says kernels and Prepared are safe for
// concurrent use).
func TestConcurrentKernelCalls(t *testing.T) {
	// The parallel paths, whatever the sizes.
	restore := parallel.SetSerialThreshold(1)
	defer restore()
	h3, err := orbit.Hyperoctahedral(3)
	must(t, err)
	p3, err := orbit.Permutation(3)
	must(t, err)
	c4, err := orbit.Cyclic(4)
	must(t, err)
	pin, err := orbit.Permutation(2)
	must(t, err)
	oc, err := orbit.OnCoords(pin, 4, []int{0, 2})
	must(t, err)
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	sc, err := orbit.Scaling(lo, hi)
	must(t, err)
	par := kernel.Params{Shape: kernel.Matern52, Variance: 1.3, Lengthscale: 0.9}
	rbf := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1.3}
	type tc struct {
		name string
		mk   func(w int) (kernel.Kernel, error)
		x, y *mat.Dense
	}
	avg := func(p kernel.Params, g orbit.Group, o kernel.Options) func(int) (kernel.Kernel, error) {
		return func(w int) (kernel.Kernel, error) {
			o.Workers = w
			return kernel.NewAvg(p, g, o)
		}
	}
	maxk := func(p kernel.Params, g orbit.Group, o kernel.Options) func(int) (kernel.Kernel, error) {
		return func(w int) (kernel.Kernel, error) {
			o.Workers = w
			return kernel.NewMax(p, g, o)
		}
	}
	design := kerneltest.Points(p3, 12, 9)
	cases := []tc{
		{"base", func(int) (kernel.Kernel, error) { return kernel.NewBase(par, 3) }, kerneltest.Points(h3, 6, 1), kerneltest.Points(h3, 40, 2)},
		{"avg/enumerate", avg(par, h3, kernel.Options{Method: kernel.Enumerate}), kerneltest.Points(h3, 6, 1), kerneltest.Points(h3, 40, 2)},
		{"avg/closed", avg(par, h3, kernel.Options{}), kerneltest.Points(h3, 6, 1), kerneltest.Points(h3, 40, 2)},
		{"avg/normalized", avg(par, h3, kernel.Options{Normalize: true}), kerneltest.Points(h3, 6, 1), kerneltest.Points(h3, 40, 2)},
		{"avg/oncoords", avg(par, oc, kernel.Options{}), kerneltest.Points(oc, 6, 1), kerneltest.Points(oc, 40, 2)},
		{"avg/cyclic", avg(par, c4, kernel.Options{}), kerneltest.Points(c4, 6, 1), kerneltest.Points(c4, 40, 2)},
		{"avg/scaling", avg(rbf, sc, kernel.Options{}), positivePoints(6, 1), positivePoints(40, 2)},
		{"max/closed", maxk(par, p3, kernel.Options{}), kerneltest.Points(p3, 6, 1), kerneltest.Points(p3, 40, 2)},
		{"max/enumerate", maxk(par, c4, kernel.Options{Method: kernel.Enumerate}), kerneltest.Points(c4, 6, 1), kerneltest.Points(c4, 40, 2)},
		{"plus", func(w int) (kernel.Kernel, error) {
			m, err := kernel.NewMax(par, p3, kernel.Options{Workers: w})
			if err != nil {
				return nil, err
			}
			return kernel.NewPlus(m, design, kernel.PlusOptions{})
		}, kerneltest.Points(p3, 6, 1), design},
	}
	const goroutines = 8
	for _, c := range cases {
		var first [][]float64 // workers = 1's serial values
		for _, w := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", c.name, w), func(t *testing.T) {
				prep := func(k kernel.Kernel) *kernel.Prepared {
					pk, ok := k.(kernel.Preparer)
					if !ok {
						return nil
					}
					p, err := pk.Prepare(c.y)
					must(t, err)
					return p
				}
				n, _ := c.x.Dims()
				want := make([][]float64, n)
				for i := range n {
					k, err := c.mk(w)
					must(t, err)
					if want[i], err = kernelCalls(k, prep(k), c.x, c.y, i); err != nil {
						t.Fatal(err)
					}
					if first != nil && !check.SameBits(want[i], first[i]) {
						t.Errorf("row %d: workers %d and 1 give different bits", i, w)
					}
				}
				if first == nil {
					first = want
				}
				k, err := c.mk(w)
				must(t, err)
				p := prep(k)
				errs := make([]error, goroutines)
				var wg sync.WaitGroup
				for g := range goroutines {
					wg.Go(func() {
						for it := range 3 {
							i := (g + it) % n
							got, err := kernelCalls(k, p, c.x, c.y, i)
							if err != nil {
								errs[g] = err
								return
							}
							if !check.SameBits(got, want[i]) {
								errs[g] = fmt.Errorf("goroutine %d, row %d: not the serial bits", g, i)
								return
							}
						}
					})
				}
				wg.Wait()
				for _, err := range errs {
					if err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
}

// TestNormalizedCacheFromGram: the normalized average's diagonal cache
// changes no result — a CrossTo and a GradTo against y after GramTo(y)
// (which remembers y's r from the Gram's own diagonal) give the bits of a
// fresh kernel's, whose r comes from DiagTo's pair evaluations — for
// every evaluation path: closed forms, the enumeration, a group on some
// coordinates, the exact scaling average and quadrature.
func TestNormalizedCacheFromGram(t *testing.T) {
	h3 := mg(orbit.Hyperoctahedral(3))
	c4 := mg(orbit.Cyclic(4))
	oc, err := orbit.OnCoords(mg(orbit.Permutation(2)), 4, []int{0, 2})
	must(t, err)
	sc, err := orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10})
	must(t, err)
	rot, err := orbit.Rotation2D()
	must(t, err)
	par := kernel.Params{Shape: kernel.Matern52, Variance: 1.3, Lengthscale: 0.9}
	rbf := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1.3}
	for _, c := range []struct {
		name string
		p    kernel.Params
		g    orbit.Group
		o    kernel.Options
		x, y *mat.Dense
	}{
		{"hyperoctahedral/closed", par, h3, kernel.Options{}, kerneltest.Points(h3, 5, 1), kerneltest.Points(h3, 30, 2)},
		{"hyperoctahedral/rbf", rbf, h3, kernel.Options{}, kerneltest.Points(h3, 5, 1), kerneltest.Points(h3, 30, 2)},
		{"hyperoctahedral/enumerate", par, h3, kernel.Options{Method: kernel.Enumerate}, kerneltest.Points(h3, 5, 1), kerneltest.Points(h3, 30, 2)},
		{"cyclic", par, c4, kernel.Options{}, kerneltest.Points(c4, 5, 1), kerneltest.Points(c4, 30, 2)},
		{"oncoords", par, oc, kernel.Options{}, kerneltest.Points(oc, 5, 1), kerneltest.Points(oc, 30, 2)},
		{"scaling", rbf, sc, kernel.Options{}, positivePoints(5, 1), positivePoints(30, 2)},
		{"rotation2d", par, rot, kernel.Options{}, kerneltest.Points(rot, 5, 1), kerneltest.Points(rot, 30, 2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, w := range []int{1, 2} {
				o := c.o
				o.Normalize, o.Workers = true, w
				calls := func(warm bool) []float64 {
					k, err := kernel.NewAvg(c.p, c.g, o)
					must(t, err)
					if warm {
						var gram mat.SymDense
						must(t, k.GramTo(&gram, c.y))
					}
					var cr, gr mat.Dense
					must(t, k.CrossTo(&cr, c.x, c.y))
					must(t, k.GradTo(&gr, c.x.RawRowView(1), c.y))
					return append(append([]float64(nil), cr.RawMatrix().Data...), gr.RawMatrix().Data...)
				}
				if !check.SameBits(calls(true), calls(false)) {
					t.Errorf("workers %d: CrossTo and GradTo after GramTo(y) differ from a fresh kernel's", w)
				}
			}
		})
	}
}
