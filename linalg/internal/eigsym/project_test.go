package eigsym

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// dsyevVectors returns the eigenvalues and eigenvectors (row-major, column
// j for value j) of the full symmetric a by gonum's Dsyev, independent of
// this package.
func dsyevVectors(n int, full []float64) (vals, v []float64) {
	v = slices.Clone(full)
	vals = make([]float64, n)
	var impl lapackgonum.Implementation
	work := make([]float64, 1)
	impl.Dsyev(lapack.EVCompute, blas.Upper, n, v, n, vals, work, -1)
	work = make([]float64, int(work[0]))
	if !impl.Dsyev(lapack.EVCompute, blas.Upper, n, v, n, vals, work, len(work)) {
		panic("Dsyev did not converge")
	}
	return vals, v
}

// projectOf runs ValuesProject on copies of full (its strict lower
// triangle NaN: never read) and b (n×p).
func projectOf(t *testing.T, n int, full, b []float64, p, workers int) (vals, proj []float64) {
	t.Helper()
	a := slices.Clone(full)
	for i := range n {
		for j := range i {
			a[i*n+j] = math.NaN()
		}
	}
	vals, proj = make([]float64, n), slices.Clone(b)
	if err := ValuesProject(n, a, n, vals, proj, p, p, workers); err != nil {
		t.Fatal(err)
	}
	return vals, proj
}

// checkProjections checks what determines the projections whatever the
// eigenvectors' signs and the bases of multiple eigenvalues: for every
// pair of columns c, c′ of b, Σ_j P_jc·P_jc′ = b_cᵀ·b_c′ (V orthogonal)
// and Σ_j λ_j·P_jc·P_jc′ = b_cᵀ·A·b_c′ (A = V·Λ·Vᵀ), the right-hand
// sides by naive loops on the full matrix; and, where an eigenvalue is
// separated from the others by more than 1e-3·‖A‖, |P_jc| against the
// independent eigenvector of Dsyev.
func checkProjections(t *testing.T, n int, full, b []float64, p int, vals, proj []float64) {
	t.Helper()
	if !slices.IsSorted(vals) {
		t.Errorf("eigenvalues not ascending")
	}
	want, v := dsyevVectors(n, full)
	norm := max(math.Abs(want[0]), math.Abs(want[n-1]), math.SmallestNonzeroFloat64)
	tol := 1e-14 * float64(n+10)
	for i := range n {
		if d := math.Abs(vals[i] - want[i]); d > tol*norm {
			t.Errorf("value %d: %.17g, Dsyev %.17g", i, vals[i], want[i])
		}
	}
	col := func(c int) []float64 {
		x := make([]float64, n)
		for i := range n {
			x[i] = b[i*p+c]
		}
		return x
	}
	for c := range p {
		bc := col(c)
		for c2 := range p {
			bc2 := col(c2)
			var dot, quad, pdot, pquad, nc, nc2 float64
			for i := range n {
				dot += bc[i] * bc2[i]
				nc += bc[i] * bc[i]
				nc2 += bc2[i] * bc2[i]
				var ab float64
				for k := range n {
					ab += full[i*n+k] * bc2[k]
				}
				quad += bc[i] * ab
			}
			for j := range n {
				pdot += proj[j*p+c] * proj[j*p+c2]
				pquad += vals[j] * proj[j*p+c] * proj[j*p+c2]
			}
			scale := math.Sqrt(nc * nc2)
			if d := math.Abs(pdot - dot); d > tol*scale {
				t.Errorf("columns %d, %d: Σ P·P = %.17g, bᵀb = %.17g", c, c2, pdot, dot)
			}
			if d := math.Abs(pquad - quad); d > tol*norm*scale {
				t.Errorf("columns %d, %d: Σ λ·P·P = %.17g, bᵀAb = %.17g", c, c2, pquad, quad)
			}
		}
	}
	for j := range n {
		gap := math.Inf(1)
		if j > 0 {
			gap = want[j] - want[j-1]
		}
		if j < n-1 {
			gap = min(gap, want[j+1]-want[j])
		}
		if gap <= 1e-3*norm {
			continue
		}
		for c := range p {
			bc := col(c)
			var s, nb float64
			for i := range n {
				s += v[i*n+j] * bc[i]
				nb += bc[i] * bc[i]
			}
			if d := math.Abs(math.Abs(proj[j*p+c]) - math.Abs(s)); d > tol*norm/gap*math.Sqrt(nb) {
				t.Errorf("projection (%d, %d): |%.17g|, Dsyev's eigenvector |%.17g| (gap %g)", j, c, proj[j*p+c], s, gap)
			}
		}
	}
}

func TestValuesProject(t *testing.T) {
	for _, n := range testSizes() {
		for _, p := range []int{1, 3} {
			t.Run(fmt.Sprintf("n=%d/p=%d", n, p), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(n), uint64(p)))
				full := randSym(r, n)
				b := randSlice(r, n*p)
				vals, proj := projectOf(t, n, full, b, p, 0)
				checkProjections(t, n, full, b, p, vals, proj)
				// The eigenvalues are Eigen's (the same reduction; QL
				// against divide and conquer on T).
				ev, _ := eigenOf(t, n, full, 0)
				norm := max(math.Abs(ev[0]), math.Abs(ev[n-1]))
				for i := range n {
					if d := math.Abs(vals[i] - ev[i]); d > 1e-14*float64(n+10)*norm {
						t.Errorf("value %d: %.17g, Eigen %.17g", i, vals[i], ev[i])
					}
				}
			})
		}
	}
}

// TestValuesProjectSpecial: the zero matrix, a diagonal (every block of
// order 1), split and graded tridiagonals (as full matrices), entries
// scaled near the range limits, no vectors, and the same bits for every
// number of workers.
func TestValuesProjectSpecial(t *testing.T) {
	t.Run("zero", func(t *testing.T) {
		n, p := 6, 2
		b := randSlice(rand.New(rand.NewPCG(1, 2)), n*p)
		vals, proj := projectOf(t, n, make([]float64, n*n), b, p, 1)
		for i := range n {
			if vals[i] != 0 {
				t.Fatalf("zero matrix: values %v", vals)
			}
		}
		if !sameBits(proj, b) {
			t.Fatalf("zero matrix: projections %v, want b %v", proj, b)
		}
	})
	t.Run("no-vectors", func(t *testing.T) {
		n := 40
		full := randSym(rand.New(rand.NewPCG(3, 4)), n)
		vals, _ := projectOf(t, n, full, nil, 0, 1)
		want := dsyevValues(n, full)
		for i := range n {
			if math.Abs(vals[i]-want[i]) > 1e-14*float64(n+10)*max(math.Abs(want[0]), math.Abs(want[n-1])) {
				t.Fatalf("value %d: %v, Dsyev %v", i, vals[i], want[i])
			}
		}
	})
	n := 70
	r := rand.New(rand.NewPCG(5, 6))
	for name, de := range tridiagCases(n, r) {
		t.Run("tridiagonal/"+name, func(t *testing.T) {
			full := make([]float64, n*n)
			for i := range n {
				full[i*n+i] = de[0][i]
				if i+1 < n {
					full[i*n+i+1], full[(i+1)*n+i] = de[1][i], de[1][i]
				}
			}
			b := randSlice(r, n*2)
			vals, proj := projectOf(t, n, full, b, 2, 1)
			checkProjections(t, n, full, b, 2, vals, proj)
		})
	}
	// Rank-deficient positive semidefinite (the landmark likelihood's T·Tᵀ):
	// a cluster of n − r eigenvalues at 0, which the relative convergence
	// test alone never declares converged.
	t.Run("low-rank-psd", func(t *testing.T) {
		n, rk := 260, 40
		rr := rand.New(rand.NewPCG(11, 12))
		f := randSlice(rr, n*rk)
		full := make([]float64, n*n)
		for i := range n {
			for j := range n {
				var s float64
				for k := range rk {
					s += f[i*rk+k] * f[j*rk+k]
				}
				full[i*n+j] = s
			}
		}
		b := randSlice(rr, n*2)
		vals, proj := projectOf(t, n, full, b, 2, 1)
		checkProjections(t, n, full, b, 2, vals, proj)
	})
	for _, s := range []float64{0x1p-600, 0x1p+600} {
		t.Run(fmt.Sprintf("scaled-%g", s), func(t *testing.T) {
			n := 30
			rr := rand.New(rand.NewPCG(7, 8))
			full := randSym(rr, n)
			for i := range full {
				full[i] *= s
			}
			b := randSlice(rr, n)
			vals, proj := projectOf(t, n, full, b, 1, 1)
			checkProjections(t, n, full, b, 1, vals, proj)
		})
	}
	t.Run("workers", func(t *testing.T) {
		n := 300
		if testing.Short() {
			n = 260
		}
		rr := rand.New(rand.NewPCG(9, 10))
		full := randSym(rr, n)
		b := randSlice(rr, n*2)
		v1, p1 := projectOf(t, n, full, b, 2, 1)
		for _, w := range []int{2, 3, 8} {
			vw, pw := projectOf(t, n, full, b, 2, w)
			if !sameBits(v1, vw) || !sameBits(p1, pw) {
				t.Fatalf("workers %d: results differ from 1 worker", w)
			}
		}
	})
}
