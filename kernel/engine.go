package kernel

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// evaluator computes k(x, y) for prepared points. The left argument is
// prepared once per call for all rows (prepX, xLen floats per point); the
// right one per column (prepY, yLen floats, e.g. a whole orbit), into
// per-worker scratch. column must compute every entry independently of the
// others and of n, so that results do not depend on tiling or workers.
type evaluator interface {
	xLen() int
	yLen() int
	prepX(dst, x []float64)
	prepY(dst, y []float64)
	// column writes k(x_i, y) to out[i*stride] for the n prepared rows px.
	column(out []float64, stride int, px []float64, n int, py []float64)
}

// gradFunc writes ∇ₓk(x, y) into dst (length d) using scratch.
type gradFunc func(dst, x, y, scratch []float64)

// checkPoints validates user data: non-empty, d columns, finite.
func checkPoints(name string, x *mat.Dense, d int) (int, error) {
	if x == nil || x.IsEmpty() {
		return 0, fmt.Errorf("kernel: %s is empty", name)
	}
	n, c := x.Dims()
	if c != d {
		return 0, fmt.Errorf("kernel: %s has %d columns, want d = %d", name, c, d)
	}
	raw := x.RawMatrix()
	for i := range n {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("kernel: %s[%d,%d] is %v", name, i, j, v)
			}
		}
	}
	return n, nil
}

func checkVec(name string, x []float64, d int) error {
	if len(x) != d {
		return fmt.Errorf("kernel: %s has length %d, want d = %d", name, len(x), d)
	}
	for j, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("kernel: %s[%d] is %v", name, j, v)
		}
	}
	return nil
}

func row(x *mat.Dense, i int) []float64 {
	raw := x.RawMatrix()
	return raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
}

func resizeDense(dst *mat.Dense, r, c int) {
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return
	}
	if rr, cc := dst.Dims(); rr != r || cc != c {
		panic(fmt.Sprintf("kernel: dst is %d×%d, want %d×%d", rr, cc, r, c))
	}
}

func resizeSym(dst *mat.SymDense, n int) {
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
		return
	}
	if nn := dst.SymmetricDim(); nn != n {
		panic(fmt.Sprintf("kernel: dst is %d×%d, want %d×%d", nn, nn, n, n))
	}
}

func resizeVec(dst []float64, n int) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("kernel: dst has length %d, want %d", len(dst), n))
	}
	return dst
}

// prepAll prepares every row of x.
func prepAll(ev evaluator, x *mat.Dense, n int) []float64 {
	xl := ev.xLen()
	px := make([]float64, n*xl)
	for i := range n {
		ev.prepX(px[i*xl:(i+1)*xl], row(x, i))
	}
	return px
}

// crossTo fills dst (n×m) with k(x_i, y_j): one task per column of dst.
func crossTo(ev evaluator, workers int, dst *mat.Dense, x, y *mat.Dense, n, m int) {
	resizeDense(dst, n, m)
	px := prepAll(ev, x, n)
	w := parallel.Workers(workers, m)
	yl := ev.yLen()
	scratch := make([]float64, w*yl)
	raw := dst.RawMatrix()
	parallel.For(m, w, func(k, j int) {
		py := scratch[k*yl : (k+1)*yl]
		ev.prepY(py, row(y, j))
		ev.column(raw.Data[j:], raw.Stride, px, n, py)
	})
}

// gramTo fills the upper triangle of dst (n×n) with k(x_i, x_j), i < j,
// and the diagonal with diag(i). Columns are claimed longest first.
func gramTo(ev evaluator, workers int, dst *mat.SymDense, x *mat.Dense, n int, diag func(i int, scratch []float64) float64, diagScratch int) {
	resizeSym(dst, n)
	px := prepAll(ev, x, n)
	w := parallel.Workers(workers, n)
	yl := ev.yLen() + diagScratch
	scratch := make([]float64, w*yl)
	raw := dst.RawSymmetric()
	parallel.For(n, w, func(k, t int) {
		j := n - 1 - t
		s := scratch[k*yl : (k+1)*yl]
		py := s[:ev.yLen()]
		ev.prepY(py, row(x, j))
		ev.column(raw.Data[j:], raw.Stride, px, j, py)
		raw.Data[j*raw.Stride+j] = diag(j, s)
	})
}

// gradTo fills row j of dst (m×d) with ∇ₓk(x, y_j): one task per row.
func gradTo(f gradFunc, scratchLen, workers int, dst *mat.Dense, x []float64, y *mat.Dense, m, d int) {
	resizeDense(dst, m, d)
	w := parallel.Workers(workers, m)
	scratch := make([]float64, w*scratchLen)
	parallel.For(m, w, func(k, j int) {
		f(row(dst, j), x, row(y, j), scratch[k*scratchLen:(k+1)*scratchLen])
	})
}

// pairValue evaluates k(x, y) for one pair with scratch of length
// pairLen(ev).
func pairValue(ev evaluator, x, y, scratch []float64) float64 {
	xl, yl := ev.xLen(), ev.yLen()
	px, py, out := scratch[:xl], scratch[xl:xl+yl], scratch[xl+yl:xl+yl+1]
	ev.prepX(px, x)
	ev.prepY(py, y)
	ev.column(out, 1, px, 1, py)
	return out[0]
}

func pairLen(ev evaluator) int { return ev.xLen() + ev.yLen() + 1 }

// fdGrad returns a gradFunc by central differences of pairValue with step
// h = ε^{1/3}·max(|x_k|, ℓ) (relative error ≈ 1e-10 for smooth κ). Used
// where no analytic gradient exists (non-isometric continuous groups and
// finite groups too large to enumerate).
func fdGrad(ev evaluator, ell float64, d int) (gradFunc, int) {
	pl := pairLen(ev)
	f := func(dst, x, y, scratch []float64) {
		xp := scratch[pl : pl+len(x)]
		copy(xp, x)
		for k := range x {
			h := 6.0554544523933395e-06 * math.Max(math.Abs(x[k]), ell)
			xp[k] = x[k] + h
			hp := xp[k] - x[k]
			fp := pairValue(ev, xp, y, scratch)
			xp[k] = x[k] - h
			hm := x[k] - xp[k]
			fm := pairValue(ev, xp, y, scratch)
			xp[k] = x[k]
			dst[k] = (fp - fm) / (hp + hm)
		}
	}
	return f, pl + d
}
