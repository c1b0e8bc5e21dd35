// Package kerneltest is a conformance suite for kernel.Kernel
// implementations.
//
// # Invariants
//
// Run checks, on fixed-seed random points: CrossTo(x, y) = CrossTo(y, x)ᵀ;
// Gram (through kernel.Gram) equals CrossTo(x, x); DiagTo equals the Gram
// diagonal; the Gram is PSD (smallest eigenvalue ≥ −1e−10·largest) unless
// the kernel is a *kernel.Max; k(g·x, y) = k(x, y) = k(x, g·y) for random
// group elements; gradients (Gradienter) match central finite differences;
// results are bit-identical for GOMAXPROCS 1 and 4; bad input (NaN, wrong
// dimension) is rejected with an error.
//
// # Concurrency
//
// Run changes GOMAXPROCS temporarily: do not call it from parallel tests.
//
// # Errors
//
// Failures are reported through t.
package kerneltest

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/symbo/symbo/internal/parallel"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// boxer is implemented by groups whose orbits are taken inside a box
// (scaling).
type boxer interface{ Box() (lo, hi []float64) }

// Points returns n fixed-seed random points for g: uniform in g's box if it
// has one (scaling), else in [−2, 2]^d; for an orbit.Embedded group, in
// its inner group's box on the coordinates that group acts on.
func Points(g orbit.Group, n int, seed uint64) *mat.Dense {
	d := g.Dim()
	rng := rand.New(rand.NewPCG(seed, 17))
	lo, hi := make([]float64, d), make([]float64, d)
	for k := range d {
		lo[k], hi[k] = -2, 2
	}
	if b, ok := g.(boxer); ok {
		lo, hi = b.Box()
	}
	if e, ok := g.(orbit.Embedded); ok {
		inner, coords := e.Inner()
		if b, ok := inner.(boxer); ok {
			il, ih := b.Box()
			for j, k := range coords {
				lo[k], hi[k] = il[j], ih[j]
			}
		}
	}
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for k := range d {
			x.Set(i, k, lo[k]+(hi[k]-lo[k])*rng.Float64())
		}
	}
	return x
}

// Act returns a copy of the rows of x, each moved by a random element of g:
// a finite group's element, or a node of a continuous group's discretized
// orbit with kernel.DefaultQuadrature nodes (so that kernels evaluated on
// that discretization are exactly invariant too).
func Act(g orbit.Group, x *mat.Dense, seed uint64) *mat.Dense {
	n, d := x.Dims()
	rng := rand.New(rand.NewPCG(seed, 23))
	out := mat.NewDense(n, d, nil)
	for i := range n {
		xi := mat.Row(nil, i, x)
		dst := out.RawRowView(i)
		switch gg := g.(type) {
		case orbit.Finite:
			order := gg.Order()
			size := int64(1 << 30)
			if order.IsInt64() && order.Int64() < size {
				size = order.Int64()
			}
			gg.ActTo(dst, xi, int(rng.Int64N(size)))
		case interface{ OrbitTo(dst, x []float64, m int) }:
			const m = kernel.DefaultQuadrature
			nodes := make([]float64, m*d)
			gg.OrbitTo(nodes, xi, m)
			j := 1 + rng.IntN(m-1)
			copy(dst, nodes[j*d:(j+1)*d])
		default:
			copy(dst, xi)
		}
	}
	return out
}

// Run runs the conformance suite on k, invariant under g.
func Run(t *testing.T, k kernel.Kernel, g orbit.Group) {
	t.Helper()
	d := k.Dim()
	if g.Dim() != d {
		t.Fatalf("kernel dimension %d, group dimension %d", d, g.Dim())
	}
	x := Points(g, 9, 1)
	y := Points(g, 5, 2)
	var kxx, kxy, kyx mat.Dense
	if err := k.CrossTo(&kxx, x, x); err != nil {
		t.Fatalf("CrossTo: %v", err)
	}
	must(t, k.CrossTo(&kxy, x, y))
	must(t, k.CrossTo(&kyx, y, x))
	diag, err := k.DiagTo(nil, x)
	must(t, err)
	scale := 0.0
	for _, v := range diag {
		scale = math.Max(scale, math.Abs(v))
	}
	if !(scale > 0) {
		t.Fatalf("diagonal %v not positive", diag)
	}
	inv := 1e-9 * scale // invariance: Plus amplifies rounding through Λ₊^{−1/2}

	// Symmetry.
	n, _ := x.Dims()
	m, _ := y.Dims()
	for i := range n {
		for j := range m {
			if a, b := kxy.At(i, j), kyx.At(j, i); !close(a, b, 1e-10*scale) {
				t.Errorf("k(x%d, y%d) = %v, k(y%d, x%d) = %v", i, j, a, j, i, b)
			}
		}
	}
	// Gram vs Cross vs Diag.
	var gram mat.SymDense
	must(t, kernel.Gram(k, &gram, x))
	for i := range n {
		if gram.At(i, i) != diag[i] {
			t.Errorf("Gram[%d,%d] = %v, Diag = %v", i, i, gram.At(i, i), diag[i])
		}
		for j := range n {
			if a, b := gram.At(i, j), kxx.At(i, j); !close(a, b, 1e-10*scale) {
				t.Errorf("Gram[%d,%d] = %v, Cross = %v", i, j, a, b)
			}
		}
	}
	// PSD.
	if _, isMax := k.(*kernel.Max); !isMax {
		var es mat.EigenSym
		if !es.Factorize(&gram, false) {
			t.Fatal("eigendecomposition failed")
		}
		v := es.Values(nil)
		if v[0] < -1e-10*math.Abs(v[len(v)-1]) {
			t.Errorf("Gram not PSD: eigenvalues %v … %v", v[0], v[len(v)-1])
		}
	}
	// Invariance.
	gx, gy := Act(g, x, 3), Act(g, y, 4)
	var kgx, kgy mat.Dense
	must(t, k.CrossTo(&kgx, gx, y))
	must(t, k.CrossTo(&kgy, x, gy))
	for i := range n {
		for j := range m {
			a := kxy.At(i, j)
			if b := kgx.At(i, j); !close(a, b, inv) {
				t.Errorf("k(x%d, y%d) = %v, k(g·x%d, y%d) = %v", i, j, a, i, j, b)
			}
			if b := kgy.At(i, j); !close(a, b, inv) {
				t.Errorf("k(x%d, y%d) = %v, k(x%d, g·y%d) = %v", i, j, a, i, j, b)
			}
		}
	}
	// Gradients.
	if gr, ok := k.(kernel.Gradienter); ok {
		checkGrad(t, k, gr, x, y, scale)
	}
	// Determinism across GOMAXPROCS, with the parallel paths taken: the
	// kernels assemble serially below a work threshold that these sizes
	// do not reach, so the test lowers it (the results must not depend on
	// it) and checks that the assembly at GOMAXPROCS 4 did run on several
	// goroutines. Closed forms get more points (several tiles of rows).
	xb, yb := x, y
	if m, ok := k.(interface{ Method() kernel.Method }); !ok || m.Method() == kernel.Closed {
		xb, yb = Points(g, 260, 31), Points(g, 130, 37)
	}
	restore := parallel.SetSerialThreshold(1)
	prev := runtime.GOMAXPROCS(1)
	var g1, g4 mat.SymDense
	var c1, c4 mat.Dense
	must(t, kernel.Gram(k, &g1, xb))
	must(t, k.CrossTo(&c1, xb, yb))
	runtime.GOMAXPROCS(4)
	before := parallel.Dispatches()
	must(t, kernel.Gram(k, &g4, xb))
	must(t, k.CrossTo(&c4, xb, yb))
	ran := parallel.Dispatches() - before
	runtime.GOMAXPROCS(prev)
	restore()
	if !mat.Equal(&g1, &g4) || !mat.Equal(&c1, &c4) {
		t.Error("results differ between GOMAXPROCS 1 and 4")
	}
	if ran < 2 {
		t.Errorf("GOMAXPROCS 4: %d parallel dispatches for a Gram and a cross, want both parallel", ran)
	}
	// Bad input.
	bad := mat.DenseCopyOf(x)
	bad.Set(1, 0, math.NaN())
	var dst mat.Dense
	if err := k.CrossTo(&dst, bad, y); err == nil {
		t.Error("CrossTo accepted NaN")
	}
	wrong := mat.NewDense(2, d+1, nil)
	var dst2 mat.Dense
	if err := k.CrossTo(&dst2, x, wrong); err == nil {
		t.Error("CrossTo accepted a dimension mismatch")
	}
	if _, err := k.DiagTo(nil, wrong); err == nil {
		t.Error("DiagTo accepted a dimension mismatch")
	}
}

func checkGrad(t *testing.T, k kernel.Kernel, gr kernel.Gradienter, x, y *mat.Dense, scale float64) {
	t.Helper()
	n, d := x.Dims()
	m, _ := y.Dims()
	for i := range min(n, 3) {
		xi := mat.Row(nil, i, x)
		var g mat.Dense
		must(t, gr.GradTo(&g, xi, y))
		for c := range d {
			h := 1e-6 * math.Max(1, math.Abs(xi[c]))
			xp, xm := mat.DenseCopyOf(x.Slice(i, i+1, 0, d)), mat.DenseCopyOf(x.Slice(i, i+1, 0, d))
			xp.Set(0, c, xi[c]+h)
			xm.Set(0, c, xi[c]-h)
			var kp, km mat.Dense
			must(t, k.CrossTo(&kp, xp, y))
			must(t, k.CrossTo(&km, xm, y))
			for j := range m {
				fd := (kp.At(0, j) - km.At(0, j)) / (2 * h)
				if got := g.At(j, c); !close(got, fd, 1e-5*scale+1e-4*math.Abs(fd)) {
					t.Errorf("∂k(x%d, y%d)/∂x_%d = %v, finite difference %v", i, j, c, got, fd)
				}
			}
		}
	}
}

func close(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// ValuesOnly returns k behind a value that shows only the methods of
// kernel.Kernel — as a caller's own kernel without gradients (no
// kernel.Gradienter) or Gram method would look — so that tests reach the
// fallbacks such kernels take.
func ValuesOnly(k kernel.Kernel) kernel.Kernel { return valuesOnly{k} }

type valuesOnly struct{ k kernel.Kernel }

func (v valuesOnly) Dim() int { return v.k.Dim() }
func (v valuesOnly) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	return v.k.CrossTo(dst, x, y)
}
func (v valuesOnly) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) {
	return v.k.DiagTo(dst, x)
}

// PairCross sets dst (resized when empty) to f(x_i, y_j) for the rows of x
// and y, one pair at a time: the CrossTo of a caller's own kernel written
// the plain way.
func PairCross(dst *mat.Dense, x, y *mat.Dense, f func(x, y []float64) float64) {
	n, _ := x.Dims()
	m, _ := y.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(n, m)
	}
	for i := range n {
		for j := range m {
			dst.Set(i, j, f(x.RawRowView(i), y.RawRowView(j)))
		}
	}
}

// Pairwise returns a caller's kernel in d dimensions with values f(x, y)
// and nothing else: CrossTo by PairCross, DiagTo f(x, x); it checks no
// point, as a caller's kernel need not (NaN in, whatever f makes of it
// out), so that tests reach what symbo checks itself.
func Pairwise(d int, f func(x, y []float64) float64) kernel.Kernel {
	return pairwise{d, f}
}

type pairwise struct {
	d int
	f func(x, y []float64) float64
}

func (p pairwise) Dim() int { return p.d }
func (p pairwise) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	PairCross(dst, x, y, p.f)
	return nil
}
func (p pairwise) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) {
	n, _ := x.Dims()
	dst = dst[:0]
	for i := range n {
		dst = append(dst, p.f(x.RawRowView(i), x.RawRowView(i)))
	}
	return dst, nil
}
