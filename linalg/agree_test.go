package linalg_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/linalg/linalgtest"
)

// agreeTol is how closely the backends must agree, relative to the norm of
// the data.
const agreeTol = 1e-10

// TestBackendsAgree compares every available backend with gonum:
// eigenvalues, eigenvectors (up to sign for separated eigenvalues; as the
// projector onto the eigenspace for clusters), Cholesky factors and solves,
// and GEMM (also where the BLAS reads neither a and b, alpha = 0, nor c,
// beta = 0, whatever non-finite values they hold).
func TestBackendsAgree(t *testing.T) {
	avail := linalg.Available()
	if len(avail) < 2 {
		t.Skip("only the gonum backend in this build (use -tags openblas)")
	}
	ref := linalg.Gonum()
	for _, name := range avail[1:] {
		other, err := linalg.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range linalgtest.Sizes() {
			t.Run(fmt.Sprintf("backend=%s/n=%d", name, n), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(n), 77))
				vals := make([]float64, n)
				for i := range vals {
					vals[i] = float64(i % 3) // clusters of exact repeats
				}
				clustered, _ := linalgtest.WithSpectrum(r, vals)
				for kind, a := range map[string]*mat.SymDense{
					"indefinite": linalgtest.RandomSymmetric(r, n),
					"pd":         linalgtest.RandomPD(r, n),
					"clustered":  clustered,
				} {
					agreeEigen(t, kind, ref, other, a)
				}
				agreeCholesky(t, ref, other, linalgtest.RandomPD(r, n))
				agreeGemm(t, ref, other, r, n)
				agreeGemmNotRead(t, ref, other, n)
			})
		}
	}
}

func agreeEigen(t *testing.T, kind string, x, y linalg.Backend, a *mat.SymDense) {
	t.Helper()
	var ex, ey linalg.Eigen
	if err := x.EigenSym(&ex, a); err != nil {
		t.Fatal(err)
	}
	if err := y.EigenSym(&ey, a); err != nil {
		t.Fatal(err)
	}
	n := len(ex.Values)
	norm := math.Max(math.Abs(ex.Values[0]), math.Abs(ex.Values[n-1])) // ‖A‖₂
	for i := range n {
		if d := math.Abs(ex.Values[i] - ey.Values[i]); !(d <= agreeTol*norm) {
			t.Errorf("%s: Values[%d]: %s %.17g, %s %.17g", kind, i, x.Name(), ex.Values[i], y.Name(), ey.Values[i])
		}
	}
	// Group eigenvalues into clusters separated by more than gap. Compare
	// single vectors up to sign, and clusters by their invariant subspace
	// (equivalently their projector V_c·V_cᵀ, which is unique). The error of
	// a computed eigenvector or subspace is about n·ε·‖A‖/gap, well below
	// agreeTol for gap = 1e-3·‖A‖.
	gap := 1e-3 * norm
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && ex.Values[hi]-ex.Values[hi-1] <= gap {
			hi++
		}
		if hi == lo+1 {
			vx, vy := mat.Col(nil, lo, ex.Vectors), mat.Col(nil, lo, ey.Vectors)
			if !sameUpToSign(vx, vy, agreeTol*math.Max(1, norm)) {
				t.Errorf("%s: eigenvector %d differs beyond sign", kind, lo)
			}
		} else if d := subspaceDist(ex.Vectors, ey.Vectors, lo, hi); !(d <= agreeTol*math.Max(1, norm)) {
			t.Errorf("%s: eigenvectors %d…%d: invariant subspaces differ by %g", kind, lo, hi-1, d)
		}
		lo = hi
	}
}

// subspaceDist returns ‖(I − X·Xᵀ)·Y‖_F for the columns lo…hi-1 of x and y:
// zero when they span the same space (the projectors X·Xᵀ and Y·Yᵀ are
// then equal), computed without forming the n×n projectors.
func subspaceDist(x, y *mat.Dense, lo, hi int) float64 {
	n, _ := x.Dims()
	xc, yc := x.Slice(0, n, lo, hi), y.Slice(0, n, lo, hi)
	var xty, r mat.Dense
	xty.Mul(xc.T(), yc)
	r.Mul(xc, &xty)
	r.Sub(yc, &r)
	return mat.Norm(&r, 2)
}

func sameUpToSign(x, y []float64, tol float64) bool {
	var dp, dm float64
	for i := range x {
		dp = math.Max(dp, math.Abs(x[i]-y[i]))
		dm = math.Max(dm, math.Abs(x[i]+y[i]))
	}
	return math.Min(dp, dm) <= tol
}

func agreeCholesky(t *testing.T, x, y linalg.Backend, a *mat.SymDense) {
	t.Helper()
	var cx, cy linalg.Cholesky
	if err := x.Cholesky(&cx, a); err != nil {
		t.Fatal(err)
	}
	if err := y.Cholesky(&cy, a); err != nil {
		t.Fatal(err)
	}
	var lx, ly mat.TriDense
	cx.LTo(&lx)
	cy.LTo(&ly)
	var diff mat.Dense
	diff.Sub(&lx, &ly)
	if d := mat.Norm(&diff, 2); !(d <= agreeTol*mat.Norm(&lx, 2)) {
		t.Errorf("Cholesky factors differ by %g (‖L‖ = %g)", d, mat.Norm(&lx, 2))
	}
	if d := math.Abs(cx.LogDet() - cy.LogDet()); !(d <= agreeTol*math.Max(1, math.Abs(cx.LogDet()))) {
		t.Errorf("LogDet: %g vs %g", cx.LogDet(), cy.LogDet())
	}
	n := cx.Size()
	b := mat.NewDense(n, 2, nil)
	for i := range n {
		b.Set(i, 0, float64(i%7)-3)
		b.Set(i, 1, 1)
	}
	var sx, sy mat.Dense
	if err := cx.SolveTo(&sx, b); err != nil {
		t.Fatal(err)
	}
	if err := cy.SolveTo(&sy, b); err != nil {
		t.Fatal(err)
	}
	diff.Reset()
	diff.Sub(&sx, &sy)
	// Condition number of RandomPD is about 40.
	if d := mat.Norm(&diff, 2); !(d <= agreeTol*mat.Norm(&sx, 2)) {
		t.Errorf("solutions differ by %g (‖X‖ = %g)", d, mat.Norm(&sx, 2))
	}
}

func agreeGemm(t *testing.T, x, y linalg.Backend, r *rand.Rand, n int) {
	t.Helper()
	k := n/2 + 1
	a := mat.NewDense(n, k, nil)
	b := mat.NewDense(n, k, nil)
	for i := range n {
		for j := range k {
			a.Set(i, j, r.NormFloat64())
			b.Set(i, j, r.NormFloat64())
		}
	}
	var cx, cy mat.Dense
	x.Gemm(false, true, 1, a, b, 0, &cx)
	y.Gemm(false, true, 1, a, b, 0, &cy)
	// Entrywise bound: |Σ a_ip b_jp| error ≤ tol·Σ|a_ip||b_jp| ≤ tol·‖a_i‖‖b_j‖.
	for i := range n {
		for j := range n {
			bound := mat.Norm(a.RowView(i), 2) * mat.Norm(b.RowView(j), 2)
			if d := math.Abs(cx.At(i, j) - cy.At(i, j)); !(d <= agreeTol*bound) {
				t.Fatalf("Gemm: c[%d][%d]: %g vs %g", i, j, cx.At(i, j), cy.At(i, j))
			}
		}
	}
}

// agreeGemmNotRead checks that the backends give the same values where BLAS
// reads no operand holding Inf or NaN: for alpha = 0, c = beta·c with
// ±Inf and NaN in a and b; for beta = 0, c = alpha·op(a)·op(b) with NaN
// and Inf in c (a and b small integers there, so the products are exact
// in any order of summation). For n up to about 40 OpenBLAS's small-matrix
// kernels computed 0·a·b, NaN, for alpha = 0.
func agreeGemmNotRead(t *testing.T, x, y linalg.Backend, n int) {
	t.Helper()
	k := n/2 + 1
	fill := func(d *mat.Dense, f func(i, j int) float64) {
		r, c := d.Dims()
		for i := range r {
			for j := range c {
				d.Set(i, j, f(i, j))
			}
		}
	}
	small := func(i, j int) float64 { return float64((3*i+5*j)%7 - 3) }
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			a, b := mat.NewDense(n, k, nil), mat.NewDense(k, n, nil)
			if tA {
				a = mat.NewDense(k, n, nil)
			}
			if tB {
				b = mat.NewDense(n, k, nil)
			}
			fill(a, small)
			fill(b, small)
			// Non-finite operands, unread for alpha = 0.
			an, bn := mat.DenseCopyOf(a), mat.DenseCopyOf(b)
			an.Set(0, 0, math.Inf(1))
			ar, ac := an.Dims()
			an.Set(ar-1, ac-1, math.NaN())
			bn.Set(0, 0, math.Inf(-1))
			br, bc := bn.Dims()
			bn.Set(br-1, bc-1, math.NaN())
			for _, beta := range []float64{0, 1, -0.5} {
				cx, cy := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
				fill(cx, func(i, j int) float64 { return float64(i - j) })
				cy.Copy(cx)
				x.Gemm(tA, tB, 0, an, bn, beta, cx)
				y.Gemm(tA, tB, 0, an, bn, beta, cy)
				agreeValues(t, fmt.Sprintf("Gemm(tA=%v, tB=%v, alpha=0, beta=%v) with Inf and NaN in a, b", tA, tB, beta), cx, cy)
			}
			// A non-finite c, unread for beta = 0.
			for _, alpha := range []float64{1, -2} {
				cx, cy := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
				fill(cx, func(i, j int) float64 { return []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[(i+j)%3] })
				cy.Copy(cx)
				x.Gemm(tA, tB, alpha, a, b, 0, cx)
				y.Gemm(tA, tB, alpha, a, b, 0, cy)
				agreeValues(t, fmt.Sprintf("Gemm(tA=%v, tB=%v, alpha=%v, beta=0) with Inf and NaN in c", tA, tB, alpha), cx, cy)
			}
		}
	}
}

// agreeValues fails the test unless x and y hold equal values and no NaN
// (the sign of a zero may differ: gonum's FMA chain from +0 rounds
// alpha·0 to +0 where OpenBLAS's alpha·(a·b) gives −0).
func agreeValues(t *testing.T, what string, x, y *mat.Dense) {
	t.Helper()
	r, c := x.Dims()
	for i := range r {
		for j := range c {
			if vx, vy := x.At(i, j), y.At(i, j); !(vx == vy) {
				t.Fatalf("%s: c[%d][%d]: gonum %v, other %v", what, i, j, vx, vy)
			}
		}
	}
}
