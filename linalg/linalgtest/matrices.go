package linalgtest

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// RandomSymmetric returns an n×n symmetric matrix with independent standard
// normal entries on and above the diagonal: indefinite, with well separated
// eigenvalues (almost surely).
func RandomSymmetric(rng *rand.Rand, n int) *mat.SymDense {
	a := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			a.SetSym(i, j, rng.NormFloat64())
		}
	}
	return a
}

// RandomPD returns the n×n positive definite matrix G·Gᵀ/n + 0.1·I for a
// standard normal G (condition number about 40).
func RandomPD(rng *rand.Rand, n int) *mat.SymDense {
	g := make([]float64, n*n)
	for i := range g {
		g[i] = rng.NormFloat64()
	}
	a := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			var s float64
			for p := range n {
				s += g[i*n+p] * g[j*n+p]
			}
			s /= float64(n)
			if i == j {
				s += 0.1
			}
			a.SetSym(i, j, s)
		}
	}
	return a
}

// RandomOrthogonal returns an n×n orthogonal matrix, row-major: modified
// Gram–Schmidt, applied twice, to the columns of a standard normal matrix.
func RandomOrthogonal(rng *rand.Rand, n int) []float64 {
	q := make([]float64, n*n)
	for i := range q {
		q[i] = rng.NormFloat64()
	}
	col := make([]float64, n)
	for j := range n {
		for i := range n {
			col[i] = q[i*n+j]
		}
		for range 2 {
			for p := range j {
				var d float64
				for i := range n {
					d += q[i*n+p] * col[i]
				}
				for i := range n {
					col[i] -= d * q[i*n+p]
				}
			}
		}
		var s float64
		for _, v := range col {
			s += v * v
		}
		s = math.Sqrt(s)
		for i := range n {
			q[i*n+j] = col[i] / s
		}
	}
	return q
}

// WithSpectrum returns Q·diag(values)·Qᵀ for a random orthogonal Q, and
// the values sorted ascending.
func WithSpectrum(rng *rand.Rand, values []float64) (*mat.SymDense, []float64) {
	n := len(values)
	q := RandomOrthogonal(rng, n)
	a := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			var s float64
			for p, v := range values {
				s += q[i*n+p] * v * q[j*n+p]
			}
			a.SetSym(i, j, s)
		}
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	return a, sorted
}

// rowMajor returns a contiguous row-major copy of m and its shape.
func rowMajor(m mat.Matrix) ([]float64, int, int) {
	r, c := m.Dims()
	d := make([]float64, r*c)
	for i := range r {
		for j := range c {
			d[i*c+j] = m.At(i, j)
		}
	}
	return d, r, c
}

// mul returns the r×c row-major product of the r×k x and the k×c y,
// by the naive triple loop.
func mul(x, y []float64, r, k, c int) []float64 {
	z := make([]float64, r*c)
	for i := range r {
		zi := z[i*c : i*c+c]
		for p := range k {
			xip := x[i*k+p]
			yp := y[p*c : p*c+c]
			for j := range zi {
				zi[j] += xip * yp[j]
			}
		}
	}
	return z
}

// trans returns the c×r transpose of the r×c row-major x.
func trans(x []float64, r, c int) []float64 {
	t := make([]float64, len(x))
	for i := range r {
		for j := range c {
			t[j*r+i] = x[i*c+j]
		}
	}
	return t
}

func frob(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// frobDiff returns ‖x − y‖_F.
func frobDiff(x, y []float64) float64 {
	var s float64
	for i := range x {
		d := x[i] - y[i]
		s += d * d
	}
	return math.Sqrt(s)
}

// copySym returns a copy of a.
func copySym(a *mat.SymDense) *mat.SymDense {
	c := mat.NewSymDense(a.SymmetricDim(), nil)
	c.CopySym(a)
	return c
}
