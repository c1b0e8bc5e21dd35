package eigsym

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// checkEigen checks A·Z = Z·diag(vals) and ZᵀZ = I in the Frobenius norm
// relative to ‖A‖, from the full matrix, by naive loops.
func checkEigen(t *testing.T, n int, full, vals, z []float64, tol float64) {
	t.Helper()
	if !slices.IsSorted(vals[:n]) {
		t.Errorf("eigenvalues not ascending")
	}
	norm := frobNorm(full)
	var res, orth float64
	for i := range n {
		for j := range n {
			var s, o float64
			for k := range n {
				s += full[i*n+k] * z[k*n+j]
				o += z[k*n+i] * z[k*n+j]
			}
			s -= z[i*n+j] * vals[j]
			if i == j {
				o--
			}
			res += s * s
			orth += o * o
		}
	}
	res, orth = math.Sqrt(res), math.Sqrt(orth)
	if !(res <= tol*norm) {
		t.Errorf("n=%d: ‖AZ − ZΛ‖ = %g > %g·‖A‖ (‖A‖ = %g)", n, res, tol, norm)
	}
	if !(orth <= tol) {
		t.Errorf("n=%d: ‖ZᵀZ − I‖ = %g > %g", n, orth, tol)
	}
}

// dsyevValues returns the eigenvalues of the full symmetric a by gonum's
// Dsyev (tridiagonal QR), an implementation independent of this package.
func dsyevValues(n int, full []float64) []float64 {
	a := slices.Clone(full)
	w := make([]float64, n)
	var impl lapackgonum.Implementation
	work := make([]float64, 1)
	impl.Dsyev(lapack.EVNone, blas.Upper, n, a, n, w, work, -1)
	work = make([]float64, int(work[0]))
	if !impl.Dsyev(lapack.EVNone, blas.Upper, n, a, n, w, work, len(work)) {
		panic("Dsyev did not converge")
	}
	return w
}

func eigenOf(t *testing.T, n int, full []float64, workers int) (vals, z []float64) {
	t.Helper()
	a := slices.Clone(full)
	for i := range n { // the strict lower triangle must not be read
		for j := range i {
			a[i*n+j] = math.NaN()
		}
	}
	vals, z = make([]float64, n), make([]float64, n*n)
	if err := Eigen(n, a, n, vals, z, n, workers); err != nil {
		t.Fatal(err)
	}
	return vals, z
}

// testSizes are around the block sizes: smlsiz (25), the panel width and
// crossover (32), ormNB (64), the GEMM tiles (8, 24, 128, 240).
func testSizes() []int {
	s := []int{1, 2, 3, 7, 8, 9, 24, 25, 26, 31, 32, 33, 50, 51, 63, 64, 65, 97, 129, 200}
	if !testing.Short() {
		s = append(s, 241, 300, 513)
	}
	return s
}

func TestEigen(t *testing.T) {
	for _, n := range testSizes() {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(n), 7))
			full := randSym(r, n)
			vals, z := eigenOf(t, n, full, 0)
			checkEigen(t, n, full, vals, z, 1e-14*float64(n+10))
			want := dsyevValues(n, full)
			norm := max(math.Abs(want[0]), math.Abs(want[n-1]))
			for i := range n {
				if d := math.Abs(vals[i] - want[i]); d > 1e-14*float64(n+10)*norm {
					t.Errorf("value %d: %.17g, Dsyev %.17g", i, vals[i], want[i])
				}
			}
		})
	}
}

// TestEigenSpecial covers inputs with closed-form answers.
func TestEigenSpecial(t *testing.T) {
	t.Run("zero", func(t *testing.T) {
		n := 5
		vals, z := eigenOf(t, n, make([]float64, n*n), 1)
		for i := range n {
			for j := range n {
				want := 0.0
				if i == j {
					want = 1
				}
				if z[i*n+j] != want || vals[i] != 0 {
					t.Fatalf("zero matrix: vals %v, z[%d][%d] = %v", vals, i, j, z[i*n+j])
				}
			}
		}
	})
	t.Run("2x2", func(t *testing.T) {
		vals, _ := eigenOf(t, 2, []float64{2, 1, 1, 2}, 1)
		if math.Abs(vals[0]-1) > 4.5e-16 || math.Abs(vals[1]-3) > 4.5e-16 {
			t.Errorf("eigenvalues of [[2 1] [1 2]]: %v", vals)
		}
	})
	t.Run("toeplitz-1-2-1", func(t *testing.T) {
		// Eigenvalues 2 − 2cos(kπ/(n+1)), k = 1…n.
		for _, n := range []int{10, 100, 301} {
			full := make([]float64, n*n)
			for i := range n {
				full[i*n+i] = 2
				if i+1 < n {
					full[i*n+i+1], full[(i+1)*n+i] = -1, -1
				}
			}
			vals, z := eigenOf(t, n, full, 0)
			checkEigen(t, n, full, vals, z, 1e-14*float64(n))
			for k := range n {
				want := 2 - 2*math.Cos(float64(k+1)*math.Pi/float64(n+1))
				if d := math.Abs(vals[k] - want); d > 1e-14*float64(n) {
					t.Errorf("n=%d: value %d: %.17g, want %.17g", n, k, vals[k], want)
				}
			}
		}
	})
	// Subnormal entries: a reflector whose vector underflows in its sum of
	// squares, and tridiagonal blocks of subnormal norm.
	subnormal := map[string][]float64{
		"offdiag-3x3": {0.03544416612457566, 0, 5.461920001628564e-309, 0, 0.03544416612457566, 0, 5.461920001628564e-309, 0, 0.03544416612457566},
		"block-4x4": {
			1, 0, 0, 0,
			0, 3e-310, 2e-310, 0,
			0, 2e-310, -1e-310, 1e-320,
			0, 0, 1e-320, 5e-310},
		"all-subnormal-3x3": {4e-310, 1e-310, 0, 1e-310, -2e-310, 3e-311, 0, 3e-311, 1e-312},
	}
	for name, full := range subnormal {
		t.Run("subnormal/"+name, func(t *testing.T) {
			n := int(math.Sqrt(float64(len(full))))
			vals, z := eigenOf(t, n, full, 1)
			for _, v := range append(slices.Clone(vals), z...) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("non-finite result: values %v", vals)
				}
			}
			checkEigen(t, n, full, vals, z, 1e-13)
		})
	}
	for _, sc := range []float64{1e-300, 1e-150, 1e150, 1e300} {
		t.Run(fmt.Sprintf("scale=%g", sc), func(t *testing.T) {
			n := 70
			r := rand.New(rand.NewPCG(5, 5))
			base := randSym(r, n)
			full := slices.Clone(base)
			for i := range full {
				full[i] *= sc
			}
			vals, z := eigenOf(t, n, full, 0)
			bv, bz := eigenOf(t, n, base, 0)
			// Scaling by a power of two is exact, so the result is the
			// unscaled one scaled (up to rounding of sc itself).
			for i := range n {
				if d := math.Abs(vals[i]/sc - bv[i]); d > 1e-13*math.Abs(bv[n-1]) {
					t.Errorf("value %d: %g/scale vs %g", i, vals[i], bv[i])
				}
			}
			for i := range z {
				if d := math.Abs(math.Abs(z[i]) - math.Abs(bz[i])); d > 1e-10 {
					t.Fatalf("vector entry %d: %g vs %g", i, z[i], bz[i])
				}
			}
		})
	}
}

// TestEigenPaths holds every SIMD path to the generic one, bit for bit.
func TestEigenPaths(t *testing.T) {
	sizes := []int{9, 33, 65, 200}
	if !testing.Short() {
		sizes = append(sizes, 300)
	}
	for _, n := range sizes {
		r := rand.New(rand.NewPCG(uint64(n), 11))
		full := randSym(r, n)
		var refV, refZ []float64
		for _, lvl := range simdLevels() {
			restore, _ := forceLevel(lvl)
			vals, z := eigenOf(t, n, full, 0)
			restore()
			if refV == nil {
				refV, refZ = vals, z
				continue
			}
			if !sameBits(refV, vals) || !sameBits(refZ, z) {
				t.Errorf("n=%d: path %s differs from generic", n, lvl)
			}
		}
	}
}

// TestEigenWorkers holds results equal for any number of goroutines and
// any GOMAXPROCS.
func TestEigenWorkers(t *testing.T) {
	sizes := []int{300}
	if !testing.Short() {
		sizes = append(sizes, 700)
	}
	for _, n := range sizes {
		r := rand.New(rand.NewPCG(uint64(n), 13))
		full := randSym(r, n)
		refV, refZ := eigenOf(t, n, full, 1)
		for _, w := range []int{2, 3, 8} {
			vals, z := eigenOf(t, n, full, w)
			if !sameBits(refV, vals) || !sameBits(refZ, z) {
				t.Errorf("n=%d: workers=%d differs from workers=1", n, w)
			}
		}
		for _, procs := range []int{1, 4} {
			old := runtime.GOMAXPROCS(procs)
			vals, z := eigenOf(t, n, full, 0)
			runtime.GOMAXPROCS(old)
			if !sameBits(refV, vals) || !sameBits(refZ, z) {
				t.Errorf("n=%d: GOMAXPROCS=%d differs from workers=1", n, procs)
			}
		}
	}
}

func sameBits(x, y []float64) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			return false
		}
	}
	return true
}

func TestEigenPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Eigen with a short z did not panic")
		}
	}()
	Eigen(3, make([]float64, 9), 3, make([]float64, 3), make([]float64, 8), 3, 1)
}
