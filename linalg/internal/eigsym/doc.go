// Package eigsym computes all eigenvalues and eigenvectors of a real
// symmetric matrix in pure Go, with the algorithm of LAPACK's dsyevd, for
// the gonum backend of linalg. It depends only on the standard library,
// the SIMD kernels of internal/f64 (a GEMM register tile, fused inner
// products and updates) and the WorkerPanic type of internal/parallel, so
// it could move to gonum with them.
//
// # Algorithm
//
// Eigen runs, on a matrix held (row-major) in its upper triangle, which is
// the column-major lower triangle LAPACK's routines read:
//
//  1. Scaling by a power of two (exact) when the largest entry is outside
//     [2⁻⁴⁸⁵, 2⁴⁸⁵], so that no intermediate overflows or underflows
//     (dsyevd's rule).
//  2. Householder reduction to tridiagonal form T = Qᵀ·A·Q (dsytrd):
//     panels of trdNB = 32 columns (dlatrd) whose rank-two updates are kept
//     as V and W and applied at the end of the panel as one rank-64 update
//     of the trailing triangle, A −= [V W]·[W V]ᵀ, through the packed GEMM
//     (the upper triangle only); the last trdNX = 32 columns one at a time
//     (dsytd2). Each column costs a symmetric matrix-vector product, the
//     memory-bound half of the reduction, done by rows of the stored
//     triangle with f64.InnerAddScaled (one pass over each row for both of
//     its contributions).
//  3. Divide and conquer on T (dstedc, dlaed0–dlaed4): blocks split at
//     negligible off-diagonals; a block of order ≤ 25 is solved by implicit
//     QL with Wilkinson shifts, a larger one is torn in halves by Cuppen's
//     rank-one modification, the halves solved recursively (concurrently
//     from order 256) and merged: deflation of negligible components and
//     of close pairs (Givens rotations), the secular equation solved for
//     each remaining root by R.-C. Li's middle-way iteration, safeguarded by
//     a bracket, with every root carried as an offset from its nearer pole
//     so that the differences dᵢ − λⱼ keep full relative accuracy, Gu and
//     Eisenstat's recomputed rank-one vector, which makes the computed
//     eigenvectors orthogonal to working precision however clustered the
//     eigenvalues, and the product of the halves' eigenvectors with those
//     of the rank-one problem as two GEMMs that skip the zero blocks.
//     Divide and conquer was chosen over MRRR (dstemr): its accuracy does
//     not depend on relative gaps (glued Wilkinson matrices and huge
//     clusters are routine for it, delicate for MRRR), its flops are GEMM
//     flops, and it is what the reference, dsyevd, runs.
//  4. Back-transformation Z ← Q·Z (dormtr) in blocks of ormNB = 64
//     reflectors in compact WY form, I − V·T·Vᵀ (dlarft), each block two
//     GEMMs.
//
// The GEMM (gemm) packs panels of its operands in the layout of
// f64.GemmKernel and covers the product with independent tiles of
// 128×240 entries, run on up to the given number of goroutines.
//
// # Invariants
//
//   - Eigenvalues ascend; the eigenvectors (the columns of z) are
//     orthonormal. The strict lower triangle of the input is never read.
//   - Accuracy, as LAPACK's dsyevd: ‖A·Z − Z·Λ‖ and ‖ZᵀZ − I‖ are
//     O(n·ε·‖A‖) and O(n·ε) (ε = 2⁻⁵³); the tests hold them under
//     1e-14·(n+10) relative to ‖A‖ on random matrices, and the linalg
//     conformance suite under 1e-10 on hard cases.
//   - Determinism: the results are the same bits for every number of
//     goroutines, GOMAXPROCS, and SIMD path (AVX-512, AVX2, generic). Work
//     is split by output ownership with fixed block sizes: each GEMM entry
//     is one chain of fused multiply-adds in increasing k whatever the tile;
//     the symmetric matrix-vector product adds fixed 64-row partial vectors
//     in block order; each secular root, each component of the
//     recomputed vector and each merge half is computed by one goroutine
//     with a fixed order of operations. Only the speed depends on the
//     machine.
//
// # Cost
//
// Flops, for order n: the reduction 4n³/3 (half matrix-vector products,
// half GEMM), the back-transformation 2n³ (GEMM), divide and conquer at
// most about 4n³/3 (GEMM; less with deflation) plus O(n²) per merge level
// for the secular equations; about 4.7n³ in all, against 9n³ for QR
// iteration with vectors. Memory: besides the n×n input (overwritten with
// the reflectors) and the n×n output, 2n² + O(n) floats of scratch,
// pooled between calls.
//
// # Concurrency
//
// Eigen is safe for concurrent use on distinct arrays. It uses up to the
// given number of goroutines where the work is large enough to gain from
// them: GEMM tiles above 2²¹ flops, the halves and merges of divide and
// conquer from order 256 (secular roots in chunks of 32), the matrix-vector
// products of the reduction from order 256, and 96-column panels of the
// back-transformation. The reduction keeps its helper goroutines awake
// between columns: an idle helper yields the processor teamSpins times,
// then parks until the next column's product (the reason, a product being
// about as short as waking a parked thread: the team type's comment). No
// goroutine outlives the call.
//
// # Panics
//
// A panic in a task run on several goroutines (a bug: no input makes one)
// does not end the process from a goroutine of Eigen's: as with
// internal/parallel.For, the loop stops handing out tasks, waits for the
// tasks under way, and panics on the calling goroutine with a
// *parallel.WorkerPanic holding the first panic's value and stack, where
// the caller's recover (the C ABI's guard) sees it.
//
// # Errors
//
// Eigen returns an error when an implicit QL leaf exceeds its sweep limit
// (never observed; LAPACK's dsteqr has the same failure mode). Arguments of
// the wrong size panic with "eigsym: …".
package eigsym
