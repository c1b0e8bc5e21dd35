//go:build cgo && openblas

package experiments

/*
#cgo LDFLAGS: -llapacke -lopenblas
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lapacke.h>

// symbo_dsyevd_times runs LAPACKE_dsyevd (eigenvalues and vectors,
// column-major, lower triangle) reps times on copies of the n×n matrix a
// and writes the wall time of each run, copy included, into times (as the
// Go backend, which never modifies its input, copies too). It returns the
// first non-zero LAPACKE info, -1000 if out of memory, 0 on success.
static int symbo_dsyevd_times(int n, const double *a, int reps, double *times) {
	size_t bytes = (size_t)n * (size_t)n * sizeof(double);
	double *w = malloc(bytes);
	double *ev = malloc((size_t)n * sizeof(double));
	if (w == NULL || ev == NULL) {
		free(w);
		free(ev);
		return -1000;
	}
	for (int r = 0; r < reps; r++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		memcpy(w, a, bytes);
		lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', n, w, n, ev);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (info != 0) {
			free(w);
			free(ev);
			return (int)info;
		}
		times[r] = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	}
	free(w);
	free(ev);
	return 0;
}
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

const haveCDsyevd = true

// cDsyevd times LAPACKE_dsyevd called from C on a by the package's timing
// rule (a C loop timing each run with clock_gettime): one warm-up run,
// which is the measurement when it takes 1 s or more, else runs until
// minTime and at least 3 runs (at most maxReps), median reported. The
// row-major upper triangle of a is the column-major lower one, so C reads
// the same matrix without transposing.
func cDsyevd(a *mat.SymDense, minTime time.Duration, maxReps int) (float64, int, error) {
	raw := a.RawSymmetric()
	n := raw.N
	buf := make([]float64, n*n)
	for i := range n {
		copy(buf[i*n+i:i*n+n], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
	}
	run := func(reps int) ([]float64, error) {
		times := make([]float64, reps)
		info := C.symbo_dsyevd_times(C.int(n), (*C.double)(unsafe.Pointer(&buf[0])), C.int(reps), (*C.double)(unsafe.Pointer(&times[0])))
		if info != 0 {
			return nil, fmt.Errorf("LAPACKE_dsyevd info %d (n = %d)", int(info), n)
		}
		return times, nil
	}
	w, err := run(1)
	if err != nil {
		return 0, 0, err
	}
	if w[0] >= slowRep.Seconds() {
		return w[0], 1, nil
	}
	reps := max(minReps, int(minTime.Seconds()/w[0])+1)
	reps = min(reps, maxReps)
	times, err := run(reps)
	if err != nil {
		return 0, 0, err
	}
	return median(times), reps, nil
}
