package linalg

import (
	"fmt"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

// gemmShape checks the arguments of Backend.Gemm, resizes an empty c, and
// returns the dimensions m, n, k of op(a) (m×k) and op(b) (k×n). It panics
// on programmer errors, with the same messages for every backend.
func gemmShape(transA, transB bool, a, b *mat.Dense, beta float64, c *mat.Dense) (m, n, k int) {
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
	craw := c.RawMatrix().Data
	if overlap(craw, a.RawMatrix().Data) || overlap(craw, b.RawMatrix().Data) {
		panic("linalg: Gemm: c overlaps a or b")
	}
	return m, n, k
}

// overlap reports whether the memory ranges of x and y intersect.
func overlap(x, y []float64) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	const size = unsafe.Sizeof(float64(0))
	x0 := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	y0 := uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	return x0 < y0+uintptr(len(y))*size && y0 < x0+uintptr(len(x))*size
}
