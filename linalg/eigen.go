package linalg

import (
	"fmt"
	"math"
	"sync"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

// Eigen holds the eigendecomposition a = Q·diag(Values)·Qᵀ of a symmetric
// matrix. The zero value is ready for use as a dst.
type Eigen struct {
	Values  []float64  // ascending, length n
	Vectors *mat.Dense // n×n; column j is the unit eigenvector of Values[j]
}

// checkFinite returns an error wrapping ErrNotFinite if the upper triangle
// of a (which is all of a) has a NaN or infinite entry, and one wrapping
// ErrShape if a is empty (or nil). op names the caller.
func checkFinite(op string, a *mat.SymDense) (n int, err error) {
	if a != nil {
		n = a.SymmetricDim()
	}
	if n == 0 {
		return 0, fmt.Errorf("linalg: %s: empty matrix: %w", op, ErrShape)
	}
	raw := a.RawSymmetric()
	for i := range n {
		row := raw.Data[i*raw.Stride+i : i*raw.Stride+n]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("linalg: %s: entry (%d, %d) is %v: %w", op, i, i+j, v, ErrNotFinite)
			}
		}
	}
	return n, nil
}

// checkArgs is checkFinite after an error wrapping ErrNilArgument for a
// nil dst (nilDst).
func checkArgs(op string, nilDst bool, a *mat.SymDense) (int, error) {
	if nilDst {
		return 0, fmt.Errorf("linalg: %s: nil dst: %w", op, ErrNilArgument)
	}
	return checkFinite(op, a)
}

// copyUpper copies the upper triangle of a into the n×n row-major storage
// dst (stride ld), leaving the strict lower triangle of dst unspecified.
func copyUpper(dst []float64, ld int, a *mat.SymDense) {
	raw := a.RawSymmetric()
	n := raw.N
	for i := range n {
		copy(dst[i*ld+i:i*ld+n], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
	}
}

// copyLower copies the symmetric matrix a into the lower triangle of the n×n
// row-major storage dst (stride ld) and zeroes its strict upper triangle.
func copyLower(dst []float64, ld int, a *mat.SymDense) {
	raw := a.RawSymmetric()
	n := raw.N
	for i := range n {
		row := dst[i*ld : i*ld+n]
		for j := range i + 1 {
			row[j] = raw.Data[j*raw.Stride+i]
		}
		clear(row[i+1:])
	}
}

// resizeEigen resizes dst for an n×n problem.
func resizeEigen(dst *Eigen, n int) {
	if cap(dst.Values) >= n {
		dst.Values = dst.Values[:n]
	} else {
		dst.Values = make([]float64, n)
	}
	dst.Vectors = resizeDense(dst.Vectors, n, n)
}

// resizeDense returns m as an r×c matrix: m itself when it has that shape
// or is empty (resized), m resized in place when its own elements can
// hold r×c (contiguous rows, at least r·c elements), else a new matrix.
// A view of a larger matrix is not resized in place when its rows are
// not contiguous or r·c exceeds its elements: gonum's Reset and ReuseAs
// would lay the new matrix over the viewed matrix's other elements.
func resizeDense(m *mat.Dense, r, c int) *mat.Dense {
	switch {
	case m == nil:
		return mat.NewDense(r, c, nil)
	case m.IsEmpty():
		m.ReuseAs(r, c)
		return m
	}
	if mr, mc := m.Dims(); mr == r && mc == c {
		return m
	}
	if raw := m.RawMatrix(); raw.Stride == raw.Cols && len(raw.Data) >= r*c {
		m.Reset()
		m.ReuseAs(r, c)
		return m
	}
	return mat.NewDense(r, c, nil)
}

// sharesStorage reports whether the storage that resizeDense may reuse
// for m (its elements up to the slice's capacity) shares an address with
// data: resizing m zeroes that storage (gonum's ReuseAs), and the results
// are written there, before or while an input in data is read.
func sharesStorage(m *mat.Dense, data []float64) bool {
	if m == nil || len(data) == 0 {
		return false
	}
	md := m.RawMatrix().Data
	if cap(md) == 0 {
		return false
	}
	md = md[:cap(md)]
	const size = unsafe.Sizeof(float64(0))
	m0 := uintptr(unsafe.Pointer(unsafe.SliceData(md)))
	d0 := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return m0 < d0+uintptr(len(data))*size && d0 < m0+uintptr(len(md))*size
}

// detachSym returns a, or a copy of it when dst's storage holds a
// (sharesStorage): a dst built over its own input (a scratch buffer
// reused for the next matrix) gives the results of a separate one.
func detachSym(a *mat.SymDense, dst *mat.Dense) *mat.SymDense {
	if !sharesStorage(dst, a.RawSymmetric().Data) {
		return a
	}
	c := mat.NewSymDense(a.SymmetricDim(), nil)
	c.CopySym(a)
	return c
}

// normalizeSigns flips each column of the n×n row-major matrix v (stride
// ld) so that its largest-magnitude component (the first one, on ties) is
// positive.
func normalizeSigns(v []float64, n, ld int) {
	for j := range n {
		best, arg := -1.0, 0
		for i := range n {
			if a := math.Abs(v[i*ld+j]); a > best {
				best, arg = a, i
			}
		}
		if v[arg*ld+j] < 0 {
			for i := range n {
				v[i*ld+j] = -v[i*ld+j]
			}
		}
	}
}

// Workspace for the LAPACK calls, which never reaches callers.
var f64Pool sync.Pool // *[]float64

func getF64(n int) *[]float64 {
	if p, ok := f64Pool.Get().(*[]float64); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]float64, n)
	return &s
}
