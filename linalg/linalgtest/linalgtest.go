// Package linalgtest is the conformance suite every linalg.Backend must
// pass, and the random test matrices it uses.
package linalgtest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/linalg"
)

// Tol is the relative accuracy every backend must reach: residuals are
// bounded by Tol times the norm of the data (Frobenius norms throughout).
const Tol = 1e-10

// Sizes returns the matrix sizes the suite uses: small ones, and sizes
// straddling the block sizes of gonum (32, 64) and LAPACK (25, 32, 64, 128,
// 256). Short mode drops some.
func Sizes() []int {
	if testing.Short() {
		return []int{1, 2, 3, 8, 25, 26, 32, 33, 64, 65, 129, 257, 300}
	}
	return []int{1, 2, 3, 5, 7, 8, 9, 16, 24, 25, 26, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200, 255, 256, 257, 300}
}

// Run runs the conformance suite against b.
func Run(t *testing.T, b linalg.Backend) {
	RunSome(t, b, func(int) bool { return true })
}

// RunSome runs the tests of the suite whose index i (their order in Run)
// keep accepts: a sample of the suite (internal/testdepth).
func RunSome(t *testing.T, b linalg.Backend, keep func(i int) bool) {
	for i, c := range []struct {
		name string
		f    func(*testing.T, linalg.Backend)
	}{
		{"EigenSym", testEigenSym},
		{"EigenSymSpectrum", testEigenSpectrum},
		{"EigenSymSpecial", testEigenSpecial},
		{"EigenSymReuse", testEigenReuse},
		{"EigenSymProject", testEigenProject},
		{"Cholesky", testCholesky},
		{"CholeskyNotPD", testCholeskyNotPD},
		{"BadInput", testBadInput},
		{"Gemm", testGemm},
		{"GemmPanics", testGemmPanics},
		{"Deterministic", testDeterministic},
		{"GemmAlphaZero", testGemmAlphaZero},
	} {
		if keep(i) {
			t.Run(c.name, func(t *testing.T) { c.f(t, b) })
		}
	}
}

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// CheckEigen reports, through t, every way e fails to be an accurate
// eigendecomposition of a: residual ‖A·V − V·Λ‖ and orthogonality ‖VᵀV − I‖
// within Tol·‖A‖ (resp. Tol), ascending values, trace = Σλ, and the sign
// convention (each column's largest-magnitude component, the first on ties,
// is positive).
func CheckEigen(t testing.TB, a *mat.SymDense, e *linalg.Eigen) {
	t.Helper()
	ad, n, _ := rowMajor(a)
	if len(e.Values) != n {
		t.Fatalf("len(Values) = %d, want %d", len(e.Values), n)
	}
	if r, c := e.Vectors.Dims(); r != n || c != n {
		t.Fatalf("Vectors is %d×%d, want %d×%d", r, c, n, n)
	}
	if !slices.IsSorted(e.Values) {
		t.Errorf("values not ascending: %v", e.Values)
	}
	norm := frob(ad)
	v, _, _ := rowMajor(e.Vectors)
	av := mul(ad, v, n, n, n)
	vl := slices.Clone(v)
	for i := range n {
		for j := range n {
			vl[i*n+j] *= e.Values[j]
		}
	}
	if res := frobDiff(av, vl); !(res <= Tol*norm) {
		t.Errorf("n=%d: ‖AV − VΛ‖ = %g > %g·‖A‖ = %g", n, res, Tol, Tol*norm)
	}
	vtv := mul(trans(v, n, n), v, n, n, n)
	for i := range n {
		vtv[i*n+i] -= 1
	}
	if o := frob(vtv); !(o <= Tol) {
		t.Errorf("n=%d: ‖VᵀV − I‖ = %g > %g", n, o, Tol)
	}
	var tr, sum float64
	for i := range n {
		tr += ad[i*n+i]
		sum += e.Values[i]
	}
	if d := math.Abs(tr - sum); !(d <= Tol*norm*math.Sqrt(float64(n))) {
		t.Errorf("n=%d: trace %g but Σλ = %g", n, tr, sum)
	}
	for j := range n {
		best, arg := -1.0, -1
		for i := range n {
			if x := math.Abs(v[i*n+j]); x > best {
				best, arg = x, i
			}
		}
		if v[arg*n+j] <= 0 {
			t.Errorf("n=%d: column %d: largest-magnitude component V[%d][%d] = %g is not positive", n, j, arg, j, v[arg*n+j])
			break
		}
	}
}

func testEigenSym(t *testing.T, b linalg.Backend) {
	for _, n := range Sizes() {
		for _, kind := range []string{"indefinite", "pd"} {
			t.Run(fmt.Sprintf("kind=%s/n=%d", kind, n), func(t *testing.T) {
				r := rng(uint64(n))
				a := RandomSymmetric(r, n)
				if kind == "pd" {
					a = RandomPD(r, n)
				}
				orig := copySym(a)
				var e linalg.Eigen
				if err := b.EigenSym(&e, a); err != nil {
					t.Fatal(err)
				}
				if !mat.Equal(a, orig) {
					t.Fatal("EigenSym modified its input")
				}
				CheckEigen(t, a, &e)
				if kind == "pd" && e.Values[0] <= 0 {
					t.Errorf("smallest eigenvalue of a PD matrix is %g", e.Values[0])
				}
			})
		}
	}
}

func testEigenSpectrum(t *testing.T, b linalg.Backend) {
	n := 129
	if testing.Short() {
		n = 65
	}
	spectra := map[string][]float64{}
	clustered := make([]float64, n)
	for i := range clustered {
		clustered[i] = float64(i%4) - 1.5 // four eigenvalues of multiplicity ~n/4
	}
	spectra["clustered"] = clustered
	graded := make([]float64, n)
	for i := range graded {
		graded[i] = math.Pow(10, -8*float64(i)/float64(n-1)) // 1 … 1e-8
	}
	spectra["graded"] = graded
	lowRank := make([]float64, n)
	for i := range 5 {
		lowRank[i] = float64(i + 1)
	}
	spectra["rank5"] = lowRank
	for name, vals := range spectra {
		t.Run("spectrum="+name, func(t *testing.T) {
			a, want := WithSpectrum(rng(7), vals)
			var e linalg.Eigen
			if err := b.EigenSym(&e, a); err != nil {
				t.Fatal(err)
			}
			CheckEigen(t, a, &e)
			scale := math.Abs(want[0]) + math.Abs(want[n-1])
			for i := range n {
				if d := math.Abs(e.Values[i] - want[i]); !(d <= Tol*scale) {
					t.Errorf("Values[%d] = %.17g, want %.17g", i, e.Values[i], want[i])
				}
			}
		})
	}
}

func testEigenSpecial(t *testing.T, b linalg.Backend) {
	diag := func(d ...float64) *mat.SymDense {
		a := mat.NewSymDense(len(d), nil)
		for i, v := range d {
			a.SetSym(i, i, v)
		}
		return a
	}
	r := rng(11)
	huge := RandomSymmetric(r, 40)
	huge.ScaleSym(1e150, huge)
	tiny := RandomSymmetric(r, 40)
	tiny.ScaleSym(1e-150, tiny)
	cases := []struct {
		name string
		a    *mat.SymDense
	}{
		{"1x1-negative", diag(-2.5)},
		{"zero", mat.NewSymDense(9, nil)},
		{"identity", diag(1, 1, 1, 1, 1, 1, 1)},
		{"diagonal", diag(3, -1, 2, 0, 5)},
		{"2x2", mat.NewSymDense(2, []float64{2, 1, 1, 2})},
		{"huge", huge},
		{"tiny", tiny},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var e linalg.Eigen
			if err := b.EigenSym(&e, tc.a); err != nil {
				t.Fatal(err)
			}
			CheckEigen(t, tc.a, &e)
		})
	}
	t.Run("1x1-vector", func(t *testing.T) {
		var e linalg.Eigen
		if err := b.EigenSym(&e, diag(-2.5)); err != nil {
			t.Fatal(err)
		}
		if e.Values[0] != -2.5 || e.Vectors.At(0, 0) != 1 {
			t.Errorf("got value %g vector %g, want -2.5 and 1", e.Values[0], e.Vectors.At(0, 0))
		}
	})
	t.Run("2x2-closed-form", func(t *testing.T) {
		var e linalg.Eigen
		if err := b.EigenSym(&e, mat.NewSymDense(2, []float64{2, 1, 1, 2})); err != nil {
			t.Fatal(err)
		}
		// Eigenvalues 1, 3 with vectors (1,−1)/√2 and (1,1)/√2 (up to the
		// tie in magnitude, so compare absolute values).
		s := 1 / math.Sqrt2
		want := [][2]float64{{s, s}, {s, s}}
		if math.Abs(e.Values[0]-1) > 1e-15 || math.Abs(e.Values[1]-3) > 1e-15 {
			t.Errorf("values %v, want [1 3]", e.Values)
		}
		for i := range 2 {
			for j := range 2 {
				if math.Abs(math.Abs(e.Vectors.At(i, j))-want[i][j]) > 1e-15 {
					t.Errorf("|V[%d][%d]| = %g, want %g", i, j, math.Abs(e.Vectors.At(i, j)), want[i][j])
				}
			}
		}
		if e.Vectors.At(0, 1)*e.Vectors.At(1, 1) < 0 || e.Vectors.At(0, 0)*e.Vectors.At(1, 0) > 0 {
			t.Errorf("vectors %v have the wrong relative signs", mat.Formatted(e.Vectors))
		}
	})
}

func testEigenReuse(t *testing.T, b linalg.Backend) {
	r := rng(3)
	var e linalg.Eigen
	for _, n := range []int{5, 3, 70, 7} {
		a := RandomSymmetric(r, n)
		if err := b.EigenSym(&e, a); err != nil {
			t.Fatal(err)
		}
		var fresh linalg.Eigen
		if err := b.EigenSym(&fresh, a); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(e.Values, fresh.Values) || !mat.Equal(e.Vectors, fresh.Vectors) {
			t.Errorf("n=%d: reused dst gives a different result from a fresh one", n)
		}
		CheckEigen(t, a, &e)
	}
	// A non-empty Vectors of the wrong size is resized.
	e = linalg.Eigen{Vectors: mat.NewDense(2, 3, nil)}
	a := RandomSymmetric(r, 4)
	if err := b.EigenSym(&e, a); err != nil {
		t.Fatal(err)
	}
	CheckEigen(t, a, &e)
	// A view of a larger matrix is resized without writing to the rest of
	// that matrix (the capacity past the view's elements is not its own).
	for _, n := range []int{2, 5} {
		parent := mat.NewDense(10, 10, nil)
		for i := range 10 {
			for j := range 10 {
				parent.Set(i, j, 7)
			}
		}
		e = linalg.Eigen{Vectors: parent.Slice(0, 3, 0, 3).(*mat.Dense)}
		a := RandomSymmetric(r, n)
		if err := b.EigenSym(&e, a); err != nil {
			t.Fatal(err)
		}
		CheckEigen(t, a, &e)
		checkOutside(t, parent, 3, 3, fmt.Sprintf("EigenSym n=%d into a 3×3 view", n))
	}
}

// checkOutside reports an element of parent outside its leading r×c block
// (a view passed as a dst) that is no longer 7.
func checkOutside(t *testing.T, parent *mat.Dense, r, c int, what string) {
	t.Helper()
	pr, pc := parent.Dims()
	for i := range pr {
		for j := range pc {
			if (i >= r || j >= c) && parent.At(i, j) != 7 {
				t.Errorf("%s: element (%d, %d) of the viewed matrix became %g", what, i, j, parent.At(i, j))
				return
			}
		}
	}
}

func testCholesky(t *testing.T, b linalg.Backend) {
	var c linalg.Cholesky // reused across sizes on purpose
	for _, n := range Sizes() {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			r := rng(uint64(100 + n))
			vals := make([]float64, n)
			var logDet float64
			for i := range vals {
				vals[i] = 0.5 + 1.5*r.Float64()
				logDet += math.Log(vals[i])
			}
			for _, kind := range []string{"random", "spectrum"} {
				a := RandomPD(r, n)
				if kind == "spectrum" {
					a, _ = WithSpectrum(r, vals)
				}
				orig := copySym(a)
				if err := b.Cholesky(&c, a); err != nil {
					t.Fatalf("%s: %v", kind, err)
				}
				if !mat.Equal(a, orig) {
					t.Fatal("Cholesky modified its input")
				}
				checkCholesky(t, r, a, &c)
				if kind == "spectrum" {
					if d := math.Abs(c.LogDet() - logDet); !(d <= Tol*float64(n)) {
						t.Errorf("LogDet = %.17g, want %.17g", c.LogDet(), logDet)
					}
				}
			}
		})
	}
}

func checkCholesky(t *testing.T, r *rand.Rand, a *mat.SymDense, c *linalg.Cholesky) {
	t.Helper()
	ad, n, _ := rowMajor(a)
	if c.Size() != n {
		t.Fatalf("Size() = %d, want %d", c.Size(), n)
	}
	normA := frob(ad)
	var l mat.TriDense
	c.LTo(&l)
	if m, kind := l.Triangle(); m != n || kind != mat.Lower {
		t.Fatalf("LTo gave %d×%d, lower = %v", m, m, kind == mat.Lower)
	}
	ld, _, _ := rowMajor(&l)
	for i := range n {
		if !(ld[i*n+i] > 0) {
			t.Fatalf("L[%d][%d] = %g, not positive", i, i, ld[i*n+i])
		}
	}
	if res := frobDiff(mul(ld, trans(ld, n, n), n, n, n), ad); !(res <= Tol*normA) {
		t.Errorf("‖LLᵀ − A‖ = %g > %g", res, Tol*normA)
	}
	var logDet float64
	for i := range n {
		logDet += 2 * math.Log(ld[i*n+i])
	}
	if d := math.Abs(c.LogDet() - logDet); d > 1e-12*math.Max(1, math.Abs(logDet)) {
		t.Errorf("LogDet = %g, but 2Σlog L_ii = %g", c.LogDet(), logDet)
	}

	const nrhs = 3
	// b is a view (stride ≠ columns) into a larger matrix.
	big := mat.NewDense(n+2, nrhs+2, nil)
	for i := range n + 2 {
		for j := range nrhs + 2 {
			big.Set(i, j, r.NormFloat64())
		}
	}
	bm := big.Slice(1, n+1, 1, nrhs+1).(*mat.Dense)
	borig := mat.DenseCopyOf(bm)
	bd, _, _ := rowMajor(bm)
	residual := func(name string, x mat.Matrix, lhs []float64, normLHS float64) {
		t.Helper()
		xd, _, _ := rowMajor(x)
		if res := frobDiff(mul(lhs, xd, n, n, nrhs), bd); !(res <= Tol*normLHS*frob(xd)) {
			t.Errorf("%s: residual %g > %g·‖·‖‖X‖", name, res, Tol)
		}
	}
	var x mat.Dense
	if err := c.SolveTo(&x, bm); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(bm, borig) {
		t.Fatal("SolveTo modified b")
	}
	residual("SolveTo", &x, ad, normA)
	inPlace := mat.DenseCopyOf(bm)
	if err := c.SolveTo(inPlace, inPlace); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(inPlace, &x) {
		t.Error("SolveTo in place differs from SolveTo into a new dst")
	}
	var y mat.Dense
	if err := c.SolveLTo(&y, bm); err != nil {
		t.Fatal(err)
	}
	residual("SolveLTo", &y, ld, frob(ld))

	bv := make([]float64, n)
	for i := range bv {
		bv[i] = bm.At(i, 0)
	}
	xv := make([]float64, n)
	if err := c.SolveVecTo(xv, bv); err != nil {
		t.Fatal(err)
	}
	ax := mul(ad, xv, n, n, 1)
	if res := frobDiff(ax, bv); !(res <= Tol*normA*frob(xv)) {
		t.Errorf("SolveVecTo: residual %g", res)
	}
	if err := c.SolveVecTo(bv, bv); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(bv, xv) {
		t.Error("SolveVecTo in place differs")
	}

	// Wrong shapes of b are errors.
	if err := c.SolveTo(&mat.Dense{}, mat.NewDense(n+1, 1, nil)); !errors.Is(err, mat.ErrShape) {
		t.Errorf("SolveTo with %d rows: err = %v, want mat.ErrShape", n+1, err)
	}
	if err := c.SolveVecTo(xv, make([]float64, n+1)); !errors.Is(err, mat.ErrShape) {
		t.Errorf("SolveVecTo with wrong length: err = %v, want mat.ErrShape", err)
	}
}

func testCholeskyNotPD(t *testing.T, b linalg.Backend) {
	r := rng(5)
	indef, _ := WithSpectrum(r, []float64{1, 2, 3, -0.5, 4, 5, 6, 7})
	negDiag := RandomPD(r, 70)
	negDiag.SetSym(40, 40, -1)
	cases := []struct {
		name string
		a    *mat.SymDense
	}{
		{"negative-1x1", mat.NewSymDense(1, []float64{-1})},
		{"zero", mat.NewSymDense(6, nil)},
		{"indefinite", indef},
		{"negative-diagonal-70", negDiag},
		{"random-symmetric-100", RandomSymmetric(r, 100)},
		// A NaN pivot (1e200² overflows, then Inf − Inf) in a finite
		// matrix that is not positive definite: OpenBLAS's potrf, which
		// tests ajj ≤ 0 only, reported success with a NaN factor.
		{"nan-pivot", nanPivot(4)},
		{"nan-pivot-in-identity-64", nanPivot(64)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var c linalg.Cholesky
			err := b.Cholesky(&c, tc.a)
			if !errors.Is(err, linalg.ErrNotPositiveDefinite) {
				t.Fatalf("err = %v, want ErrNotPositiveDefinite", err)
			}
			if c.Size() != 0 {
				t.Errorf("Size() = %d after a failed factorization", c.Size())
			}
			// The same dst then factors a PD matrix.
			pd := RandomPD(r, 10)
			if err := b.Cholesky(&c, pd); err != nil {
				t.Fatal(err)
			}
			checkCholesky(t, r, pd, &c)
		})
	}
}

func testBadInput(t *testing.T, b linalg.Backend) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, pos := range [][2]int{{0, 0}, {3, 7}, {9, 9}} {
			name := fmt.Sprintf("value=%v/at=%d,%d", bad, pos[0], pos[1])
			t.Run(name, func(t *testing.T) {
				a := RandomPD(rng(9), 10)
				a.SetSym(pos[0], pos[1], bad)
				var e linalg.Eigen
				if err := b.EigenSym(&e, a); !errors.Is(err, linalg.ErrNotFinite) {
					t.Errorf("EigenSym: err = %v, want ErrNotFinite", err)
				}
				var c linalg.Cholesky
				if err := b.Cholesky(&c, a); !errors.Is(err, linalg.ErrNotFinite) {
					t.Errorf("Cholesky: err = %v, want ErrNotFinite", err)
				}
			})
		}
	}
	t.Run("overflow", func(t *testing.T) {
		// Every entry MaxFloat64: finite, but the largest eigenvalue is
		// 3·MaxFloat64. An error wrapping ErrOverflow, never +Inf (or NaN
		// vectors) with a nil error.
		a := mat.NewSymDense(3, nil)
		for i := range 3 {
			for j := i; j < 3; j++ {
				a.SetSym(i, j, math.MaxFloat64)
			}
		}
		var e linalg.Eigen
		if err := b.EigenSym(&e, a); !errors.Is(err, linalg.ErrOverflow) {
			t.Errorf("EigenSym: err = %v (values %v), want ErrOverflow", err, e.Values)
		}
		var p linalg.EigenProj
		if err := linalg.EigenSymProject(b, &p, a, mat.NewDense(3, 1, []float64{1, 0, 0})); !errors.Is(err, linalg.ErrOverflow) {
			t.Errorf("EigenSymProject: err = %v (values %v), want ErrOverflow", err, p.Values)
		}
		// A large spectrum that fits is decomposed: λ = 3·(MaxFloat64/4).
		a.ScaleSym(0.25, a)
		if err := b.EigenSym(&e, a); err != nil {
			t.Errorf("EigenSym at MaxFloat64/4: %v", err)
		} else if got, want := e.Values[2], 3*(math.MaxFloat64/4); math.Abs(got-want) > 1e-12*want {
			t.Errorf("EigenSym at MaxFloat64/4: largest eigenvalue %g, want %g", got, want)
		}
	})
	t.Run("empty", func(t *testing.T) {
		var e linalg.Eigen
		if err := b.EigenSym(&e, &mat.SymDense{}); !errors.Is(err, linalg.ErrShape) {
			t.Errorf("EigenSym of an empty matrix: err = %v, want ErrShape", err)
		}
		var c linalg.Cholesky
		if err := b.Cholesky(&c, &mat.SymDense{}); !errors.Is(err, linalg.ErrShape) {
			t.Errorf("Cholesky of an empty matrix: err = %v, want ErrShape", err)
		}
		var p linalg.EigenProj
		if err := linalg.EigenSymProject(b, &p, &mat.SymDense{}, &mat.Dense{}); !errors.Is(err, linalg.ErrShape) {
			t.Errorf("EigenSymProject of an empty matrix: err = %v, want ErrShape", err)
		}
	})
}

// gemmShapes are (m, k, n) triples around block sizes.
func gemmShapes() [][3]int {
	s := [][3]int{{1, 1, 1}, {1, 7, 1}, {7, 1, 9}, {8, 8, 8}, {63, 65, 64}, {65, 129, 33}, {129, 64, 257}, {300, 17, 300}, {17, 300, 5}}
	if !testing.Short() {
		s = append(s, [3]int{300, 300, 300}, [3]int{256, 257, 255})
	}
	return s
}

// randDense returns an r×c matrix of standard normals; if view, it is a
// view with a stride larger than c.
func randDense(rng *rand.Rand, r, c int, view bool) *mat.Dense {
	if !view {
		d := make([]float64, r*c)
		for i := range d {
			d[i] = rng.NormFloat64()
		}
		return mat.NewDense(r, c, d)
	}
	big := randDense(rng, r+1, c+3, false)
	return big.Slice(1, r+1, 2, c+2).(*mat.Dense)
}

func testGemm(t *testing.T, b linalg.Backend) {
	type ab struct{ alpha, beta float64 }
	for si, s := range gemmShapes() {
		m, k, n := s[0], s[1], s[2]
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				for _, sc := range []ab{{1, 0}, {-0.75, 0}, {2.5, -0.5}} {
					name := fmt.Sprintf("m=%d/k=%d/n=%d/tA=%v/tB=%v/alpha=%v/beta=%v", m, k, n, tA, tB, sc.alpha, sc.beta)
					t.Run(name, func(t *testing.T) {
						r := rng(uint64(1000 + si))
						view := (m+k+n)%2 == 1
						ar, ac, br, bc := gemmOperandDims(m, k, n, tA, tB)
						a := randDense(r, ar, ac, view)
						bm := randDense(r, br, bc, !view)
						aOrig, bOrig := mat.DenseCopyOf(a), mat.DenseCopyOf(bm)
						var c *mat.Dense
						switch {
						case sc.alpha == 1: // empty c, resized
							c = &mat.Dense{}
						case sc.beta == 0: // NaN garbage in c must be ignored
							c = randDense(r, m, n, view)
							for i := range m {
								for j := range n {
									c.Set(i, j, math.NaN())
								}
							}
						default:
							c = randDense(r, m, n, !view)
						}
						cd, _, _ := rowMajor(c)
						if c.IsEmpty() {
							cd = make([]float64, m*n)
						}
						ad, _, _ := rowMajor(a)
						if tA {
							ad = trans(ad, ar, ac)
						}
						bd, _, _ := rowMajor(bm)
						if tB {
							bd = trans(bd, br, bc)
						}
						want := mul(ad, bd, m, k, n)
						absA, absB := slices.Clone(ad), slices.Clone(bd)
						for i := range absA {
							absA[i] = math.Abs(absA[i])
						}
						for i := range absB {
							absB[i] = math.Abs(absB[i])
						}
						bound := mul(absA, absB, m, k, n)

						b.Gemm(tA, tB, sc.alpha, a, bm, sc.beta, c)

						if !mat.Equal(a, aOrig) || !mat.Equal(bm, bOrig) {
							t.Fatal("Gemm modified a or b")
						}
						if r, cc := c.Dims(); r != m || cc != n {
							t.Fatalf("c is %d×%d, want %d×%d", r, cc, m, n)
						}
						for i := range m {
							for j := range n {
								w, bd := sc.alpha*want[i*n+j], math.Abs(sc.alpha)*bound[i*n+j]
								if sc.beta != 0 {
									w += sc.beta * cd[i*n+j]
									bd += math.Abs(sc.beta * cd[i*n+j])
								}
								if got := c.At(i, j); !(math.Abs(got-w) <= Tol*bd) {
									t.Fatalf("c[%d][%d] = %.17g, want %.17g", i, j, got, w)
								}
							}
						}
					})
				}
			}
		}
	}
}

// gemmOperandDims returns the shapes of a (ar×ac) and b (br×bc) for
// c (m×n) = op(a)·op(b) with inner dimension k, op transposing when tA,
// tB.
func gemmOperandDims(m, k, n int, tA, tB bool) (ar, ac, br, bc int) {
	ar, ac, br, bc = m, k, k, n
	if tA {
		ar, ac = k, m
	}
	if tB {
		br, bc = n, k
	}
	return ar, ac, br, bc
}

// testGemmAlphaZero checks that Gemm with alpha = 0 reads neither a nor b:
// c = beta·c exactly with ±Inf and NaN in a and b (and 0 for beta = 0
// with NaN in c).
func testGemmAlphaZero(t *testing.T, b linalg.Backend) {
	for si, s := range gemmShapes() {
		m, k, n := s[0], s[1], s[2]
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				for _, beta := range []float64{0, 1, -0.5} {
					r := rng(uint64(2000 + si))
					ar, ac, br, bc := gemmOperandDims(m, k, n, tA, tB)
					a, bm := randDense(r, ar, ac, false), randDense(r, br, bc, true)
					a.Set(0, 0, math.Inf(1))
					a.Set(ar-1, ac-1, math.NaN())
					bm.Set(0, 0, math.NaN())
					bm.Set(br-1, bc-1, math.Inf(-1))
					c := randDense(r, m, n, false)
					if beta == 0 {
						c.Set(0, 0, math.NaN())
					}
					c0 := mat.DenseCopyOf(c)
					b.Gemm(tA, tB, 0, a, bm, beta, c)
					for i := range m {
						for j := range n {
							want := beta * c0.At(i, j)
							if beta == 0 {
								want = 0
							}
							if got := c.At(i, j); !(got == want) {
								t.Fatalf("m=%d/k=%d/n=%d/tA=%v/tB=%v/beta=%v: c[%d][%d] = %v, want beta·c = %v (a, b unread)", m, k, n, tA, tB, beta, i, j, got, want)
							}
						}
					}
				}
			}
		}
	}
}

func testGemmPanics(t *testing.T, b linalg.Backend) {
	r := rng(13)
	a := randDense(r, 4, 5, false)
	bm := randDense(r, 5, 3, false)
	cases := []struct {
		name string
		f    func()
	}{
		{"inner-mismatch", func() { b.Gemm(true, false, 1, a, bm, 0, &mat.Dense{}) }},
		{"c-wrong-shape", func() { b.Gemm(false, false, 1, a, bm, 0, mat.NewDense(4, 4, nil)) }},
		{"empty-c-beta", func() { b.Gemm(false, false, 1, a, bm, 1, &mat.Dense{}) }},
		{"c-aliases-a", func() {
			sq := randDense(r, 5, 5, false)
			b.Gemm(false, false, 1, sq, sq, 0, sq)
		}},
		{"empty-a", func() { b.Gemm(false, false, 1, &mat.Dense{}, bm, 0, &mat.Dense{}) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				p := recover()
				if s, ok := p.(string); !ok || !strings.HasPrefix(s, "linalg: Gemm: ") {
					t.Errorf("panic value %#v, want a string starting with \"linalg: Gemm: \"", p)
				}
			}()
			tc.f()
		})
	}
}

// result is everything the backend computes for the determinism test.
type result struct {
	e    linalg.Eigen
	l    mat.TriDense
	x    mat.Dense
	gemm mat.Dense
}

func compute(t *testing.T, b linalg.Backend, sym, pd *mat.SymDense, g *mat.Dense) *result {
	var res result
	if err := b.EigenSym(&res.e, sym); err != nil {
		t.Error(err)
		return &res
	}
	var c linalg.Cholesky
	if err := b.Cholesky(&c, pd); err != nil {
		t.Error(err)
		return &res
	}
	c.LTo(&res.l)
	if err := c.SolveTo(&res.x, g); err != nil {
		t.Error(err)
	}
	b.Gemm(false, true, 1, g, g, 0, &res.gemm)
	return &res
}

func sameBits(x, y *result) bool {
	eq := func(a, b mat.Matrix) bool {
		r, c := a.Dims()
		for i := range r {
			for j := range c {
				if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
					return false
				}
			}
		}
		return true
	}
	if len(x.e.Values) != len(y.e.Values) {
		return false
	}
	for i := range x.e.Values {
		if math.Float64bits(x.e.Values[i]) != math.Float64bits(y.e.Values[i]) {
			return false
		}
	}
	return eq(x.e.Vectors, y.e.Vectors) && eq(&x.l, &y.l) && eq(&x.x, &y.x) && eq(&x.gemm, &y.gemm)
}

// testDeterministic checks that results are the same bits for any
// GOMAXPROCS and when computed concurrently.
func testDeterministic(t *testing.T, b linalg.Backend) {
	const n = 300
	r := rng(17)
	sym, pd := RandomSymmetric(r, n), RandomPD(r, n)
	g := randDense(r, n, n, false)

	old := runtime.GOMAXPROCS(1)
	ref := compute(t, b, sym, pd, g)
	runtime.GOMAXPROCS(8)
	par := compute(t, b, sym, pd, g)
	runtime.GOMAXPROCS(old)
	if !sameBits(ref, par) {
		t.Error("results differ between GOMAXPROCS=1 and 8")
	}

	const workers = 3
	got := make([]*result, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { got[w] = compute(t, b, sym, pd, g) })
	}
	wg.Wait()
	for w, res := range got {
		if !sameBits(ref, res) {
			t.Errorf("concurrent call %d differs from the serial result", w)
		}
	}
}

// testEigenProject checks linalg.EigenSymProject against the backend's
// own EigenSym (itself checked against a's definition by CheckEigen):
// the eigenvalues to Tol·‖A‖, and, since a row's sign and a cluster's
// basis are free, the determined sums Σ_j f(λ_j)·P_jc·P_jc′ for f = 1, λ
// and 1/(λ + c) (c keeping the denominators ≥ ‖A‖) to Tol relative —
// on random indefinite, positive definite, clustered and graded
// matrices; then its errors (NaN in b, rows not n) and dst reuse.
func testEigenProject(t *testing.T, b linalg.Backend) {
	for _, n := range Sizes() {
		r := rng(uint64(n) + 500)
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(i%3) - 1 // exact repeats
		}
		clustered, _ := WithSpectrum(r, vals)
		for i := range vals {
			vals[i] = math.Pow(10, -8*float64(i)/float64(max(n-1, 1)))
		}
		graded, _ := WithSpectrum(r, vals)
		huge := RandomSymmetric(r, n) // scaled into range before the reduction
		huge.ScaleSym(0x1p+1000, huge)
		for kind, a := range map[string]*mat.SymDense{
			"indefinite": RandomSymmetric(r, n), "pd": RandomPD(r, n),
			"clustered": clustered, "graded": graded, "huge": huge,
		} {
			t.Run(fmt.Sprintf("kind=%s/n=%d", kind, n), func(t *testing.T) {
				p := 1 + n%3
				bm := mat.NewDense(n, p, nil)
				for i := range n {
					for c := range p {
						bm.Set(i, c, r.NormFloat64())
					}
				}
				var dst linalg.EigenProj
				if err := linalg.EigenSymProject(b, &dst, a, bm); err != nil {
					t.Fatal(err)
				}
				var e linalg.Eigen
				if err := b.EigenSym(&e, a); err != nil {
					t.Fatal(err)
				}
				var want mat.Dense
				want.Mul(e.Vectors.T(), bm)
				norm := max(math.Abs(e.Values[0]), math.Abs(e.Values[n-1]))
				for i := range n {
					if d := math.Abs(dst.Values[i] - e.Values[i]); !(d <= Tol*norm) {
						t.Errorf("Values[%d] = %.17g, EigenSym %.17g", i, dst.Values[i], e.Values[i])
					}
				}
				fs := map[string]func(float64) float64{
					"1":     func(float64) float64 { return 1 },
					"λ":     func(l float64) float64 { return l / norm },
					"1/λ+c": func(l float64) float64 { return norm / (l + 2*norm) },
				}
				for name, f := range fs {
					for c := range p {
						for c2 := range p {
							var got, ref, scale float64
							for j := range n {
								got += f(dst.Values[j]) * dst.Proj.At(j, c) * dst.Proj.At(j, c2)
								ref += f(e.Values[j]) * want.At(j, c) * want.At(j, c2)
								scale += want.At(j, c)*want.At(j, c) + want.At(j, c2)*want.At(j, c2)
							}
							if d := math.Abs(got - ref); !(d <= Tol*scale) {
								t.Errorf("f = %s, columns %d, %d: Σ f·P·P = %.17g, from EigenSym %.17g", name, c, c2, got, ref)
							}
						}
					}
				}
			})
		}
	}
	// A column of b near MaxFloat64 (norm 85% of it) beside an ordinary
	// one: every projection is finite (at most ‖b‖), so no ErrOverflow,
	// and both columns' projections are accurate relative to their norm.
	t.Run("huge-b", func(t *testing.T) {
		r := rng(41)
		for n := 2; n <= 20; n++ {
			a := RandomSymmetric(r, n)
			b0 := mat.NewDense(n, 2, nil) // columns of norm 1.7
			bm := mat.NewDense(n, 2, nil) // b0 with column 0 times 2^1023
			for c := range 2 {
				col := make([]float64, n)
				var nrm float64
				for i := range col {
					col[i] = r.NormFloat64()
					nrm = math.Hypot(nrm, col[i])
				}
				for i, v := range col {
					v *= 1.7 / nrm
					b0.Set(i, c, v)
					if c == 0 {
						v = math.Ldexp(v, 1023)
					}
					bm.Set(i, c, v)
				}
			}
			var e linalg.Eigen
			if err := b.EigenSym(&e, a); err != nil {
				t.Fatal(err)
			}
			var want mat.Dense
			want.Mul(e.Vectors.T(), b0)
			var dst linalg.EigenProj
			if err := linalg.EigenSymProject(b, &dst, a, bm); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			// A random a has separated eigenvalues: each projection is
			// determined up to sign.
			for c := range 2 {
				for j := range n {
					got := dst.Proj.At(j, c)
					if c == 0 {
						got = math.Ldexp(got, -1023)
					}
					if d := math.Abs(math.Abs(got) - math.Abs(want.At(j, c))); !(d <= Tol*1.7) {
						t.Errorf("n=%d: column %d: projection %d = %.17g, want ±%.17g (column 0 in units of 2^1023)", n, c, j, got, want.At(j, c))
					}
				}
			}
		}
		// A projection that does overflow is still reported: b = (M, M)
		// on the eigenvector (1, 1)/√2 of [[0 1] [1 0]] is √2·M.
		huge := mat.NewDense(2, 1, []float64{math.MaxFloat64, math.MaxFloat64})
		var dst linalg.EigenProj
		if err := linalg.EigenSymProject(b, &dst, mat.NewSymDense(2, []float64{0, 1, 1, 0}), huge); !errors.Is(err, linalg.ErrOverflow) {
			t.Errorf("projection √2·MaxFloat64: err = %v, want ErrOverflow", err)
		}
	})
	t.Run("errors", func(t *testing.T) {
		a := RandomSymmetric(rng(3), 4)
		var dst linalg.EigenProj
		if err := linalg.EigenSymProject(b, &dst, a, mat.NewDense(3, 1, nil)); !errors.Is(err, linalg.ErrShape) || errclass.Of(err) != errclass.Input {
			t.Errorf("b with 3 rows for a 4×4 a: err = %v, want ErrShape, an input error", err)
		}
		bad := mat.NewDense(4, 2, nil)
		bad.Set(2, 1, math.NaN())
		if err := linalg.EigenSymProject(b, &dst, a, bad); !errors.Is(err, linalg.ErrNotFinite) {
			t.Errorf("NaN in b: err = %v, want ErrNotFinite", err)
		}
		a.SetSym(1, 2, math.Inf(1))
		if err := linalg.EigenSymProject(b, &dst, a, mat.NewDense(4, 1, nil)); !errors.Is(err, linalg.ErrNotFinite) {
			t.Errorf("Inf in a: err = %v, want ErrNotFinite", err)
		}
	})
	t.Run("reuse", func(t *testing.T) {
		var dst linalg.EigenProj
		for _, n := range []int{7, 3, 7} {
			a := RandomSymmetric(rng(uint64(n)), n)
			bm := mat.NewDense(n, 2, nil)
			bm.Set(0, 0, 1)
			bm.Set(n-1, 1, 1)
			if err := linalg.EigenSymProject(b, &dst, a, bm); err != nil {
				t.Fatal(err)
			}
			if r, c := dst.Proj.Dims(); len(dst.Values) != n || r != n || c != 2 {
				t.Fatalf("n = %d: %d values, Proj %d×%d", n, len(dst.Values), r, c)
			}
			var s float64
			for j := range n {
				s += dst.Proj.At(j, 0) * dst.Proj.At(j, 0)
			}
			if math.Abs(s-1) > 1e-14 {
				t.Errorf("n = %d: ‖Qᵀe_0‖² = %v", n, s)
			}
		}
		// A view of a larger matrix as Proj, of another shape: resized
		// without writing to the rest of that matrix.
		parent := mat.NewDense(10, 10, nil)
		for i := range 10 {
			for j := range 10 {
				parent.Set(i, j, 7)
			}
		}
		dst = linalg.EigenProj{Proj: parent.Slice(0, 2, 0, 2).(*mat.Dense)}
		a := RandomSymmetric(rng(5), 5)
		bm := mat.NewDense(5, 3, nil)
		bm.Set(1, 2, 1)
		if err := linalg.EigenSymProject(b, &dst, a, bm); err != nil {
			t.Fatal(err)
		}
		checkOutside(t, parent, 2, 2, "EigenSymProject n=5, p=3 into a 2×2 view")
	})
}

// nanPivot is the n×n identity (n ≥ 4) with its leading 4×4 block
// [[1,0,1e153,1e200],[0,1,1e153,−1e200],[1e153,1e153,1e307,0],
// [1e200,−1e200,0,1]]: finite and not positive definite (its last pivot
// is 1 − 2·1e400 < 0), where an unguarded factorization meets Inf − Inf.
func nanPivot(n int) *mat.SymDense {
	a := mat.NewSymDense(n, nil)
	for i := range n {
		a.SetSym(i, i, 1)
	}
	a.SetSym(0, 2, 1e153)
	a.SetSym(0, 3, 1e200)
	a.SetSym(1, 2, 1e153)
	a.SetSym(1, 3, -1e200)
	a.SetSym(2, 2, 1e307)
	return a
}
