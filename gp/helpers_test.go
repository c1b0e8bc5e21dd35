package gp

import (
	"math"
	"math/rand/v2"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"gonum.org/v1/gonum/mat"
)

// tRBF is a test-only RBF kernel v·exp(−‖x−y‖²/2ℓ²) on |x| when abs is set
// (then invariant under sign flips), independent of package kernel.
type tRBF struct {
	v, l float64
	d    int
	abs  bool
}

func (k *tRBF) Dim() int { return k.d }

func (k *tRBF) f(x, y []float64) float64 {
	return k.v * math.Exp(-0.5*k.r2(x, y)/(k.l*k.l))
}

func (k *tRBF) r2(x, y []float64) float64 {
	var s float64
	for i := range x {
		a, b := x[i], y[i]
		if k.abs {
			a, b = math.Abs(a), math.Abs(b)
		}
		s += (a - b) * (a - b)
	}
	return s
}

func (k *tRBF) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	kerneltest.PairCross(dst, x, y, k.f)
	return nil
}

func (k *tRBF) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) {
	n, _ := x.Dims()
	if dst == nil {
		dst = make([]float64, n)
	}
	for i := range n {
		dst[i] = k.v
	}
	return dst, nil
}

func (k *tRBF) GradTo(dst *mat.Dense, x []float64, y *mat.Dense) error {
	m, _ := y.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(m, k.d)
	}
	for j := range m {
		yj := y.RawRowView(j)
		kv := k.f(x, yj)
		for i := range k.d {
			a, b, s := x[i], yj[i], 1.0
			if k.abs {
				if a < 0 {
					s = -1
				}
				a, b = math.Abs(a), math.Abs(b)
			}
			dst.Set(j, i, -kv*s*(a-b)/(k.l*k.l))
		}
	}
	return nil
}

var (
	_ kernel.Kernel     = (*tRBF)(nil)
	_ kernel.Gradienter = (*tRBF)(nil)
)

// tFamily is the family of tRBF correlations with analytic ∂C/∂log ℓ.
type tFamily struct {
	d     int
	abs   bool
	noDer bool // report ErrNoDerivative
}

func (f tFamily) Dim() int { return f.d }

func (f tFamily) Bind(x *mat.Dense) (Bound, error) {
	return &tBound{f: f, x: mat.DenseCopyOf(x)}, nil
}

func (f tFamily) Base() Family { return tFamily{d: f.d} }

type tBound struct {
	f tFamily
	x *mat.Dense
}

func (b *tBound) constantDiag() bool { return true }

func (b *tBound) CorrTo(dst, dLog *mat.SymDense, l float64) error {
	n, _ := b.x.Dims()
	k := &tRBF{v: 1, l: l, d: b.f.d, abs: b.f.abs}
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	}
	for i := range n {
		for j := i; j < n; j++ {
			r2 := k.r2(b.x.RawRowView(i), b.x.RawRowView(j))
			c := math.Exp(-0.5 * r2 / (l * l))
			dst.SetSym(i, j, c)
			if dLog != nil && !b.f.noDer {
				// C = exp(−r²/2ℓ²): ∂C/∂log ℓ = (r²/ℓ²)·C.
				dLog.SetSym(i, j, r2/(l*l)*c)
			}
		}
	}
	if dLog != nil && b.f.noDer {
		return ErrNoDerivative
	}
	return nil
}

func (b *tBound) Kernel(v, l float64) (kernel.Kernel, error) {
	return &tRBF{v: v, l: l, d: b.f.d, abs: b.f.abs}, nil
}

func randMat(rng *rand.Rand, n, d int, lo, hi float64) *mat.Dense {
	m := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			m.Set(i, j, lo+(hi-lo)*rng.Float64())
		}
	}
	return m
}

// testFunc is a smooth test function of x.
func testFunc(x []float64) float64 {
	var s float64
	for i, v := range x {
		s += math.Sin(1.3*v+float64(i)) + 0.3*v*v
	}
	return s
}

func sample(rng *rand.Rand, n, d int) (*mat.Dense, []float64) {
	x := randMat(rng, n, d, -2, 2)
	y := make([]float64, n)
	for i := range n {
		y[i] = testFunc(x.RawRowView(i))
	}
	return x, y
}
