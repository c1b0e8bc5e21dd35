package gp

import (
	"math"

	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// qrPanel is the number of columns of one panel of householderQR: the
// width factored with vector kernels, and the depth of the trailing
// update's products.
const qrPanel = 32

// householderQR factors the first k columns of the column-major n×c
// matrix a (column j is a[j·lda : j·lda+n], lda ≥ n, n ≥ k, c ≥ k) in
// place, A = Q·R with Q = H_0·H_1⋯H_{k−1} (H_j = I − τ_j·v_j·v_jᵀ, v_j
// with a unit j-th entry and zeros above): on return R is the upper
// triangle of a's first k columns, v_j lies below its diagonal, tau holds
// the τ_j, and the columns k…c−1 hold Qᵀ times their input (so an extra
// column y comes back as Qᵀy). The reflectors are LAPACK's dlarfg; a
// panel of qrPanel columns is factored with vector kernels on its
// contiguous columns and applied to the trailing columns in compact WY
// form, I − V·Tᵀ·Vᵀ (dlarft), by two products on the backend's Gemm.
// Deterministic: the same bits for any GOMAXPROCS (f64's kernels give the
// same bits on every SIMD path, and so does the gonum backend's Gemm).
// About 2·n·k·c − (2/3)·k²·c flops.
func householderQR(be linalg.Backend, a []float64, n, k, c, lda int, tau []float64) {
	var t [qrPanel * qrPanel]float64
	vt := make([]float64, qrPanel*n)
	wt := make([]float64, qrPanel*c)
	for j0 := 0; j0 < k; j0 += qrPanel {
		j1 := min(j0+qrPanel, k)
		nb := j1 - j0
		for j := j0; j < j1; j++ {
			col := a[j*lda+j : j*lda+n]
			tau[j] = reflector(col)
			if tau[j] == 0 {
				continue
			}
			v := col[1:]
			for q := j + 1; q < j1; q++ {
				cq := a[q*lda+j : q*lda+n]
				w := tau[j] * (cq[0] + f64.Inner(v, cq[1:]))
				cq[0] -= w
				f64.AddScaled(cq[1:], -w, v)
			}
		}
		if j1 == c {
			break
		}
		// V (rows j0…n−1 of the panel's reflectors) as nb contiguous rows.
		rows := n - j0
		for p := range nb {
			vp := vt[p*rows : p*rows+rows]
			clear(vp[:p])
			vp[p] = 1
			copy(vp[p+1:], a[(j0+p)*lda+j0+p+1:(j0+p)*lda+n])
		}
		// T (nb×nb upper triangular): T_pp = τ_p, T[:p, p] =
		// −τ_p·T[:p, :p]·(V[:, :p]ᵀ·v_p).
		clear(t[:])
		var z [qrPanel]float64
		for p := range nb {
			t[p*qrPanel+p] = tau[j0+p]
			if tau[j0+p] == 0 {
				continue
			}
			vp := vt[p*rows+p : p*rows+rows]
			for q := range p {
				z[q] = f64.Inner(vt[q*rows+p:q*rows+rows], vp)
			}
			for q := range p {
				var sum float64
				for r := q; r < p; r++ {
					sum += t[q*qrPanel+r] * z[r]
				}
				t[q*qrPanel+p] = -tau[j0+p] * sum
			}
		}
		// Trailing columns, transposed (row r of At is column j1+r from
		// row j0): Aᵀ ← Aᵀ − (Aᵀ·V·T)·Vᵀ.
		m := c - j1
		var at mat.Dense
		at.SetRawMatrix(blas64.General{Rows: m, Cols: rows, Stride: lda, Data: a[j1*lda+j0 : (c-1)*lda+n]})
		vm := mat.NewDense(nb, rows, vt[:nb*rows])
		wm := mat.NewDense(m, nb, wt[:m*nb])
		be.Gemm(false, true, 1, &at, vm, 0, wm)
		// W ← W·T, columns from the last (T is upper triangular).
		for r := range m {
			wr := wt[r*nb : r*nb+nb]
			for p := nb - 1; p >= 0; p-- {
				var sum float64
				for q := 0; q <= p; q++ {
					sum += wr[q] * t[q*qrPanel+p]
				}
				wr[p] = sum
			}
		}
		be.Gemm(false, false, -1, wm, vm, 1, &at)
	}
}

// reflector is LAPACK's dlarfg on x (x[0] the diagonal entry): it chooses
// τ and v (v_0 = 1, the rest written over x[1:]) with (I − τ·v·vᵀ)·x =
// β·e_0, writes β into x[0] and returns τ (0 when x[1:] is already zero).
func reflector(x []float64) float64 {
	alpha := x[0]
	xnorm := math.Sqrt(f64.Inner(x[1:], x[1:]))
	if !(xnorm > 1e-150 && xnorm < 1e150) {
		// ‖x[1:]‖ with scaling against overflow and underflow.
		var scale, ssq float64 = 0, 1
		for _, v := range x[1:] {
			if v != 0 {
				av := math.Abs(v)
				if scale < av {
					ssq = 1 + ssq*(scale/av)*(scale/av)
					scale = av
				} else {
					ssq += (av / scale) * (av / scale)
				}
			}
		}
		xnorm = scale * math.Sqrt(ssq)
	}
	if xnorm == 0 {
		return 0
	}
	beta := -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	tau := (beta - alpha) / beta
	inv := 1 / (alpha - beta)
	for i := range x[1:] {
		x[1+i] *= inv
	}
	x[0] = beta
	return tau
}
