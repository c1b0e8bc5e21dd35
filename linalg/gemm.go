package linalg

import (
	"fmt"
	"unsafe"

	"gonum.org/v1/gonum/blas/blas64"

	"gonum.org/v1/gonum/mat"
)

// gemmShape checks the arguments of Backend.Gemm, resizes an empty c, and
// returns the dimensions m, n, k of op(a) (m×k) and op(b) (k×n). It panics
// on programmer errors, with the same messages for every backend.
func gemmShape(transA, transB bool, a, b *mat.Dense, beta float64, c *mat.Dense) (m, n, k int) {
	if a == nil || b == nil || c == nil {
		panic("linalg: Gemm: nil a, b or c")
	}
	if a.IsEmpty() || b.IsEmpty() {
		panic("linalg: Gemm: empty a or b")
	}
	m, k = a.Dims()
	if transA {
		m, k = k, m
	}
	kb, n := b.Dims()
	if transB {
		kb, n = n, kb
	}
	if k != kb {
		panic(fmt.Sprintf("linalg: Gemm: op(a) is %d×%d but op(b) is %d×%d", m, k, kb, n))
	}
	if c.IsEmpty() {
		if beta != 0 {
			panic("linalg: Gemm: empty c with beta != 0")
		}
		c.ReuseAs(m, n)
	} else if cr, cc := c.Dims(); cr != m || cc != n {
		panic(fmt.Sprintf("linalg: Gemm: c is %d×%d, want %d×%d", cr, cc, m, n))
	}
	if overlap(c.RawMatrix(), a.RawMatrix()) || overlap(c.RawMatrix(), b.RawMatrix()) {
		panic("linalg: Gemm: c overlaps a or b")
	}
	return m, n, k
}

// overlap reports whether the matrices x and y share an element. Views
// of one backing array with one stride — disjoint column blocks of a
// matrix, say — share none even when their address ranges interleave;
// with different strides, any intersection of the address ranges counts.
func overlap(x, y blas64.General) bool {
	if len(x.Data) == 0 || len(y.Data) == 0 {
		return false
	}
	const size = int(unsafe.Sizeof(float64(0)))
	x0 := uintptr(unsafe.Pointer(unsafe.SliceData(x.Data)))
	y0 := uintptr(unsafe.Pointer(unsafe.SliceData(y.Data)))
	if !(x0 < y0+uintptr(len(y.Data)*size) && y0 < x0+uintptr(len(x.Data)*size)) {
		return false
	}
	if x.Stride != y.Stride || x.Cols > x.Stride || y.Cols > y.Stride {
		return true
	}
	if y0 < x0 {
		x, y, x0, y0 = y, x, y0, x0
	}
	// y's first element is row dr, column dc of x's frame (rows of
	// length Stride from x's first element); y's columns dc, …, dc+y.Cols−1
	// wrap into the next row past Stride−1.
	off := int(y0-x0) / size
	if int(y0-x0)%size != 0 {
		return true
	}
	s := x.Stride
	dr, dc := off/s, off%s
	if dr < x.Rows && dc < x.Cols {
		return true
	}
	return dc+y.Cols > s && dr+1 < x.Rows
}
