package linalg_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/linalg/linalgtest"
)

// The hard cases of the symmetric eigensolver, for every backend: graded
// and clustered spectra, eigenvalues of multiplicity 100, identity plus
// low rank, tridiagonal edge cases (zero couplings, Wilkinson, glued
// Wilkinson), entries of order 1e±150 and subnormal entries, and orders
// up to 3000. Results are checked independently of the code under test:
// residual and orthogonality (computed with gonum's BLAS), known spectra
// of Q·diag·Qᵀ (Q from gonum's QR), and agreement with the openblas backend
// when it is built. Large orders run only without -short.

// orthogonal returns a random n×n orthogonal matrix (row-major): the Q of
// gonum's Householder QR of a Gaussian matrix.
func orthogonal(r *rand.Rand, n int) []float64 {
	q := make([]float64, n*n)
	for i := range q {
		q[i] = r.NormFloat64()
	}
	var impl lapackgonum.Implementation
	tau := make([]float64, n)
	work := make([]float64, 1)
	impl.Dgeqrf(n, n, q, n, tau, work, -1)
	work = make([]float64, int(work[0]))
	impl.Dgeqrf(n, n, q, n, tau, work, len(work))
	impl.Dorgqr(n, n, n, q, n, tau, work, -1)
	if int(work[0]) > len(work) {
		work = make([]float64, int(work[0]))
	}
	impl.Dorgqr(n, n, n, q, n, tau, work, len(work))
	return q
}

// spectrum returns Q·diag(vals)·Qᵀ for a random orthogonal Q, and vals
// sorted.
func spectrum(r *rand.Rand, vals []float64) (*mat.SymDense, []float64) {
	n := len(vals)
	q := orthogonal(r, n)
	qd := make([]float64, n*n)
	for i := range n {
		for j := range n {
			qd[i*n+j] = q[i*n+j] * vals[j]
		}
	}
	a := make([]float64, n*n)
	blasgonum.Implementation{}.Dgemm(blas.NoTrans, blas.Trans, n, n, n, 1, qd, n, q, n, 0, a, n)
	s := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			s.SetSym(i, j, a[i*n+j])
		}
	}
	return s, slices.Sorted(slices.Values(vals))
}

// tridiagonal returns the symmetric tridiagonal matrix (d, e).
func tridiagonal(d, e []float64) *mat.SymDense {
	a := mat.NewSymDense(len(d), nil)
	for i, v := range d {
		a.SetSym(i, i, v)
	}
	for i, v := range e {
		a.SetSym(i, i+1, v)
	}
	return a
}

// wilkinson returns the Wilkinson matrix W⁺ of odd order n: diagonal
// |i − (n−1)/2|, off-diagonal 1; its largest eigenvalues come in pairs
// agreeing to many digits.
func wilkinson(n int) ([]float64, []float64) {
	d, e := make([]float64, n), make([]float64, n-1)
	for i := range d {
		d[i] = math.Abs(float64(i) - float64(n-1)/2)
	}
	for i := range e {
		e[i] = 1
	}
	return d, e
}

// checkFast checks an eigendecomposition like linalgtest.CheckEigen but
// with gonum's BLAS, so that it is quick at n = 3000: ascending values,
// ‖A·V − V·Λ‖ ≤ Tol·‖A‖, ‖VᵀV − I‖ ≤ Tol (Frobenius) and the sign
// convention.
func checkFast(t *testing.T, a *mat.SymDense, e *linalg.Eigen) {
	t.Helper()
	n := a.SymmetricDim()
	if len(e.Values) != n || !slices.IsSorted(e.Values) {
		t.Fatalf("values: length %d (want %d), sorted %v", len(e.Values), n, slices.IsSorted(e.Values))
	}
	full := make([]float64, n*n)
	for i := range n {
		for j := range n {
			full[i*n+j] = a.At(i, j)
		}
	}
	v := e.Vectors.RawMatrix()
	impl := blasgonum.Implementation{}
	r := make([]float64, n*n)
	for i := range n {
		for j := range n {
			r[i*n+j] = v.Data[i*v.Stride+j] * e.Values[j]
		}
	}
	impl.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, full, n, v.Data, v.Stride, -1, r, n)
	normA := impl.Dnrm2(n*n, full, 1)
	if res := impl.Dnrm2(n*n, r, 1); !(res <= linalgtest.Tol*normA) {
		t.Errorf("n=%d: ‖AV − VΛ‖ = %g > %g·‖A‖ = %g", n, res, linalgtest.Tol, linalgtest.Tol*normA)
	}
	o := make([]float64, n*n)
	impl.Dgemm(blas.Trans, blas.NoTrans, n, n, n, 1, v.Data, v.Stride, v.Data, v.Stride, 0, o, n)
	for i := range n {
		o[i*n+i]--
	}
	if orth := impl.Dnrm2(n*n, o, 1); !(orth <= linalgtest.Tol) {
		t.Errorf("n=%d: ‖VᵀV − I‖ = %g > %g", n, orth, linalgtest.Tol)
	}
	for j := range n {
		best, arg := -1.0, 0
		for i := range n {
			if x := math.Abs(v.Data[i*v.Stride+j]); x > best {
				best, arg = x, i
			}
		}
		if !(v.Data[arg*v.Stride+j] > 0) {
			t.Errorf("column %d: largest-magnitude component is not positive", j)
			return
		}
	}
}

type hardCase struct {
	name string
	a    *mat.SymDense
	want []float64 // the spectrum when known, else nil
}

func hardCases(long bool) []hardCase {
	r := rand.New(rand.NewPCG(2024, 11))
	n := 120 // short mode
	if long {
		n = 1000
	}
	var cs []hardCase
	add := func(name string, a *mat.SymDense, want []float64) {
		cs = append(cs, hardCase{fmt.Sprintf("%s/n=%d", name, a.SymmetricDim()), a, want})
	}
	addSpectrum := func(name string, vals []float64) {
		a, want := spectrum(r, vals)
		add(name, a, want)
	}
	vals := func(f func(i int) float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = f(i)
		}
		return v
	}
	addSpectrum("graded", vals(func(i int) float64 { return math.Pow(10, -16*float64(i)/float64(n-1)) }))
	addSpectrum("graded-signed", vals(func(i int) float64 {
		return math.Copysign(math.Pow(10, -12*float64(i)/float64(n-1)), float64(i%2)-0.5)
	}))
	addSpectrum("clustered", vals(func(i int) float64 { return float64(i%5) - 2 + 1e-12*float64(i/5) }))
	addSpectrum("tight-clusters", vals(func(i int) float64 { return float64(i%3) + 1e-15*float64(i%7) }))
	m := 100
	if !long {
		m = 30
	}
	addSpectrum(fmt.Sprintf("multiplicity-%d", m), vals(func(i int) float64 {
		switch {
		case i < m:
			return -1
		case i < 2*m:
			return 0.5
		case i < 3*m:
			return 3
		}
		return 4 + r.Float64()
	}))
	// Identity plus rank 3: eigenvalue 1 with multiplicity n − 3.
	x := make([]float64, 3*n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	ipl := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			s := x[i]*x[j] + x[n+i]*x[n+j] + x[2*n+i]*x[2*n+j]
			if i == j {
				s++
			}
			ipl.SetSym(i, j, s)
		}
	}
	add("identity-plus-rank3", ipl, nil)
	// Diagonal with repeats, unsorted.
	dg := mat.NewSymDense(n, nil)
	for i := range n {
		dg.SetSym(i, i, float64((i*7)%5))
	}
	add("diagonal-repeats", dg, nil)
	// Tridiagonal edge cases.
	wd, we := wilkinson(n | 1)
	add("wilkinson", tridiagonal(wd, we), nil)
	const blk = 21
	nb := max(n/blk, 2)
	gd, ge := make([]float64, nb*blk), make([]float64, nb*blk-1)
	for b := range nb {
		d, e := wilkinson(blk)
		copy(gd[b*blk:], d)
		copy(ge[b*blk:], e)
		if b+1 < nb {
			ge[b*blk+blk-1] = 1e-14
		}
	}
	add("glued-wilkinson", tridiagonal(gd, ge), nil)
	zd, ze := make([]float64, n), make([]float64, n-1)
	for i := range zd {
		zd[i] = r.NormFloat64()
	}
	for i := range ze {
		if i%5 != 4 {
			ze[i] = r.NormFloat64()
		}
	}
	add("tridiagonal-zero-couplings", tridiagonal(zd, ze), nil)
	td, te := make([]float64, n), make([]float64, n-1)
	want := make([]float64, n)
	for i := range td {
		td[i] = 2
		want[i] = 2 - 2*math.Cos(float64(i+1)*math.Pi/float64(n+1))
	}
	for i := range te {
		te[i] = -1
	}
	slices.Sort(want)
	add("toeplitz-1-2-1", tridiagonal(td, te), want)
	// Extreme scales.
	for _, sc := range []float64{1e-150, 1e150} {
		a, want := spectrum(r, vals(func(i int) float64 { return sc * (float64(i) - float64(n)/3) }))
		add(fmt.Sprintf("scale=%g", sc), a, want)
		b := linalgtest.RandomSymmetric(r, n)
		b.ScaleSym(sc, b)
		add(fmt.Sprintf("random-scale=%g", sc), b, nil)
	}
	// Subnormal entries (a diagonal matrix with one subnormal coupling made
	// the reflector's norm overflow once), and a random matrix with a
	// tenth of its entries subnormal.
	sub3 := mat.NewSymDense(3, []float64{0.03544416612457566, 0, 5.461920001628564e-309, 0, 0.03544416612457566, 0, 5.461920001628564e-309, 0, 0.03544416612457566})
	add("subnormal-coupling", sub3, nil)
	sr := linalgtest.RandomSymmetric(r, n)
	for i := range n {
		for j := i; j < n; j++ {
			if r.IntN(10) == 0 {
				sr.SetSym(i, j, 1e-310*r.NormFloat64())
			}
		}
	}
	add("subnormal-entries", sr, nil)
	// A zero row and column.
	zr := linalgtest.RandomSymmetric(r, n)
	for j := range n {
		zr.SetSym(n/2, j, 0)
	}
	add("zero-row", zr, nil)
	if long {
		add("random", linalgtest.RandomSymmetric(r, 3000), nil)
		a, want := spectrum(r, func() []float64 {
			v := make([]float64, 2000)
			for i := range v {
				v[i] = math.Pow(10, -10*float64(i)/1999) * float64(1-2*(i%2))
			}
			return v
		}())
		add("graded-signed", a, want)
	}
	return cs
}

func TestEigenSymHard(t *testing.T) {
	long := !testing.Short()
	var other linalg.Backend
	if slices.Contains(linalg.Available(), "openblas") {
		other, _ = linalg.ByName("openblas")
	}
	for _, tc := range hardCases(long) {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.a.SymmetricDim()
			for _, name := range linalg.Available() {
				b, err := linalg.ByName(name)
				if err != nil {
					t.Fatal(err)
				}
				var e linalg.Eigen
				if err := b.EigenSym(&e, tc.a); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkFast(t, tc.a, &e)
				if n <= 300 {
					linalgtest.CheckEigen(t, tc.a, &e)
				}
				if tc.want != nil {
					norm := math.Max(math.Abs(tc.want[0]), math.Abs(tc.want[n-1]))
					for i := range n {
						if d := math.Abs(e.Values[i] - tc.want[i]); !(d <= linalgtest.Tol*norm) {
							t.Errorf("%s: value %d = %.17g, want %.17g", name, i, e.Values[i], tc.want[i])
							break
						}
					}
				}
			}
			if other != nil && n <= 1000 {
				agreeEigen(t, tc.name, linalg.Gonum(), other, tc.a)
			}
		})
	}
}
