// Package linalg implements the dense linear algebra symbo needs — the
// symmetric eigendecomposition with vectors, the Cholesky factorization
// with its solves, and GEMM — behind a small Backend interface with two
// implementations:
//
//   - "gonum": pure Go. EigenSym is linalg/internal/eigsym, the algorithm of
//     LAPACK's dsyevd: blocked Householder tridiagonalization, divide and
//     conquer on the tridiagonal matrix, blocked compact-WY
//     back-transformation, on a packed GEMM whose register tile is
//     assembly (AVX-512 or AVX2 with FMA, chosen at run time by
//     internal/f64; generic Go elsewhere or with -tags noasm). Gemm is
//     that packed GEMM; Cholesky is gonum's Dpotrf and the solves gonum's
//     BLAS. The default; builds with CGO_ENABLED=0.
//   - "openblas": cgo, only in builds with `-tags openblas` (system packages
//     libopenblas-dev liblapacke-dev; links -llapacke -lopenblas). BLAS via
//     gonum.org/v1/netlib/blas/netlib, LAPACK (dsyevd: divide and conquer;
//     dpotrf) via the row-major gonum.org/v1/netlib/lapack/lapacke functions.
//     Cholesky solves are the two triangular BLAS solves dpotrs would make,
//     called directly so that L is not transposed on every solve.
//
// Beside the interface, EigenSymProject(be, …) computes the eigenvalues
// and the projections Qᵀ·B of a few vectors without forming Q: the
// reduction, the reflectors applied to B, then implicit QL on the
// tridiagonal with its rotations applied to the projections (about
// 4n³/3 flops against EigenSym's 4.7n³); on openblas the reduction is
// LAPACK's dsytrd and dormtr. It is what a likelihood needs when only
// Σ f(λ_j)·(q_jᵀb)² matters.
//
// Choose a backend with ByName("gonum"|"openblas") (the perf CLI's
// --backend flag), or Default, which reads the environment variable
// SYMBO_BACKEND (unset or empty: gonum). Available lists the backends
// compiled into the running binary.
//
// # Cost
//
// EigenSym and Cholesky of an n×n matrix take O(n³) time and O(n²)
// memory. EigenSym makes about 4.7n³ flops in both backends (dsyevd's
// algorithm: 4n³/3 for the tridiagonal reduction, half of them in
// memory-bound matrix-vector products, at most about 4n³/3 for divide and
// conquer, less when eigenvalues deflate, and 2n³ for the
// back-transformation; perf profile's rates count a nominal 9n³, the cost
// of QR iteration with vectors), the gonum backend with 2n² + O(n) floats
// of pooled scratch besides a copy of the input. Cholesky costs n³/3; a
// solve with r right-hand sides 2n²r; Gemm 2mnk.
//
// Measured: docs/performance.md, "Pure-Go symmetric eigensolver" (perf
// profile --eigen-vs-c, BenchmarkEigenPhases, BenchmarkGemmImpl).
//
// # OpenBLAS threads
//
// The first time the openblas backend is requested, this
// package pins OpenBLAS's thread count to SYMBO_OPENBLAS_THREADS (a positive
// integer that fits in C's int; default 1) with openblas_set_num_threads, whatever GOMAXPROCS is.
// OpenBLASThreads and OpenBLASCoreName report the setting and the CPU
// kernel OpenBLAS dispatched to (which OPENBLAS_CORETYPE can force; it
// decides the bits of the results).
//
// # Invariants
//
//   - Inputs are never modified.
//   - Eigen.Values are ascending; column j of Eigen.Vectors is a unit
//     eigenvector for Values[j], and the columns are orthonormal. Each column
//     is signed so that its largest-magnitude component (the first one, on
//     ties) is positive, in every backend.
//   - Accuracy, for every backend (checked by linalgtest.Run):
//     ‖A·V − V·Λ‖ ≤ 1e-10·‖A‖, ‖VᵀV − I‖ ≤ 1e-10, ‖L·Lᵀ − A‖ ≤ 1e-10·‖A‖,
//     solve residuals ≤ 1e-10·‖A‖·‖X‖, GEMM entries within 1e-10 of
//     |α|·|op(A)|·|op(B)| + |β|·|C| of the exact value. The two backends agree
//     to 1e-10 relative to ‖A‖ (eigenvectors up to sign, or as projectors for
//     clustered eigenvalues).
//   - Results are the same bits for any GOMAXPROCS and when computed
//     concurrently, for a given backend, build, CPU kernel and (openblas)
//     thread count. gonum's parallel GEMM splits the output into fixed
//     blocks, each summed in order, so its bits do not depend on the worker
//     count. The gonum EigenSym splits its work by output ownership with
//     fixed block sizes (each GEMM entry one chain of fused multiply-adds
//     in a fixed order, partial vectors added in block order, one goroutine
//     per secular root), and its SIMD kernels give the generic code's bits,
//     so its results are also the same bits on every SIMD path (avx512,
//     avx2, generic, -tags noasm) of a given architecture and GOAMD64
//     level.
//   - The zero values of Eigen and Cholesky are ready to use as dst; they
//     are resized as needed and their storage is reused (a Vectors or Proj
//     that is a view of a larger matrix is resized only within its own
//     elements, else replaced, never over the rest of that matrix). A
//     Vectors or Proj whose storage holds the input (a scratch buffer
//     reused for the next matrix) gives the results of a separate dst.
//
// # Concurrency
//
// Backends are stateless and safe for concurrent use. A Cholesky (or Eigen,
// or EigenProj) may be read concurrently, but not while a Backend method (or
// EigenSymProject) writes into it.
// The gonum EigenSym uses up to GOMAXPROCS goroutines on large matrices
// (GEMM tiles, matrix-vector row blocks and divide-and-conquer halves from
// order 256); none outlives the call.
// openblas_set_num_threads is process-wide: other code calling it changes
// the thread count (and possibly the bits) of the openblas backend.
//
// # Errors
//
// EigenSym and Cholesky return an error wrapping ErrNotFinite for a NaN or
// ±Inf entry (checked before any work), one wrapping ErrShape for an empty
// (or nil) matrix (as EigenSymProject does, and for a b — or a nil b — whose
// row count is not a's order), and
// EigenSym and EigenSymProject an error wrapping ErrOverflow when a finite
// matrix's eigenvalue or eigenvector entry overflows (entries near
// MaxFloat64: the largest eigenvalue can reach n times the largest entry),
// and EigenSym an error if the eigensolver fails to converge (in the gonum
// backend, an implicit QL leaf of order ≤ 25 exceeding its sweep limit;
// never observed); after an error
// the contents of dst are unspecified. Cholesky returns an
// error wrapping ErrNotPositiveDefinite when a pivot is not positive (or
// is NaN, which OpenBLAS's potrf lets through and this package checks); dst
// then holds no factorization (Size() == 0). Solves return an error wrapping
// both ErrShape and mat.ErrShape (gonum's) when b's row count (length)
// differs from Size(), one wrapping ErrShape for a non-empty dst of
// another shape (SolveVecTo: a dst whose length is not Size()), and one
// wrapping ErrNotFactored on a Cholesky that holds no factorization.
// EigenSym, Cholesky and EigenSymProject (nil dst, nil backend) and the
// solves (nil receiver, dst or b) return an error wrapping
// ErrNilArgument for a nil argument, all checked in O(1) before any
// work. ByName and
// Default return an error listing the valid names for an unknown name, and
// one wrapping ErrUnavailable, with rebuild instructions, for "openblas" in a
// build without it (or without cgo; that error does not wrap
// ErrBadBackend); an invalid SYMBO_OPENBLAS_THREADS is an error from
// ByName("openblas") in a build with it. That error and an unknown name's
// wrap ErrBadBackend. ErrNotFinite, ErrOverflow, ErrShape, ErrBadBackend and
// ErrUnavailable, ErrNilArgument and ErrNotFactored are input errors
// (internal/errclass),
// ErrNotPositiveDefinite an internal one:
// the matrices factored are the library's own (a GP's covariance after its
// jitter), so one that is not positive definite is a numerical failure.
//
// The methods without an error result panic on programmer errors, with
// the same "linalg: …" message in every backend: Gemm with a nil or empty
// a or b, a nil c, mismatched shapes, an empty c with beta ≠ 0 or c
// sharing an element with a or b (Gemm is the Backend interface's hot
// path, and BLAS's contract); LogDet and LTo on a nil Cholesky or one
// before a successful factorization, and LTo with a nil or mis-shaped
// dst.
package linalg
