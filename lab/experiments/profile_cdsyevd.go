//go:build cgo && openblas

package experiments

/*
#cgo LDFLAGS: -llapacke -lopenblas
#include <string.h>
#include <lapacke.h>

// symbo_dsyevd_once copies the n×n matrix a into w and runs
// LAPACKE_dsyevd (eigenvalues into ev and vectors into w, column-major,
// lower triangle) once: the copy is part of the call, as the Go backend,
// which never modifies its input, copies too. It returns LAPACKE's info.
static int symbo_dsyevd_once(int n, const double *a, double *w, double *ev) {
	memcpy(w, a, (size_t)n * (size_t)n * sizeof(double));
	return (int)LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', n, w, n, ev);
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

const haveCDsyevd = true

// cDsyevd returns a function that runs LAPACKE_dsyevd from C on a (its
// copy included) for eigenVsC to time beside the Go solver, call for
// call. The row-major upper triangle of a is the column-major lower one,
// so C reads the same matrix without transposing. The work arrays are
// allocated here, once, as the Go side reuses its Eigen.
func cDsyevd(a *mat.SymDense) func() error {
	raw := a.RawSymmetric()
	n := raw.N
	buf := make([]float64, n*n)
	for i := range n {
		copy(buf[i*n+i:i*n+n], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
	}
	w, ev := make([]float64, n*n), make([]float64, n)
	return func() error {
		info := C.symbo_dsyevd_once(C.int(n), (*C.double)(unsafe.Pointer(&buf[0])),
			(*C.double)(unsafe.Pointer(&w[0])), (*C.double)(unsafe.Pointer(&ev[0])))
		if info != 0 {
			return fmt.Errorf("LAPACKE_dsyevd info %d (n = %d)", int(info), n)
		}
		return nil
	}
}
