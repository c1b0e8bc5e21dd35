// Package qmc implements a randomized quasi-random point generator for the
// acquisition optimizer of package bo: the Halton sequence with random digit
// scrambling.
//
// Coordinate j of point i is the radical inverse of i in base b_j (the j-th
// prime) with every digit passed through a random permutation π_{j,k} of
// {0, …, b_j−1}, one per digit position k:
//
//	x_ij = Σ_k π_{j,k}(a_k(i))·b_j^{−(k+1)},   i = Σ_k a_k(i)·b_j^k.
//
// The permutations are drawn from the seed (dimension j uses
// rand.New(rand.NewPCG(seed, j))), and K_j digit positions are scrambled, K_j
// the number of base-b_j digits of a uint64 plus enough for 53 bits of
// precision, so the infinitely many leading-zero digits of i beyond those are
// scrambled too (up to b^−K_j < 2^−53). Unlike the plain Halton sequence,
// whose first point is the corner 0 and whose points in a symmetric box
// include the centre, every scrambled point is uniformly distributed over
// the cube (up to that truncation), and no point is special.
//
// # Invariants
//
//   - Points lie in [0, 1)^d.
//   - Stratification: for every coordinate j, m ≥ 0 and block start s
//     divisible by b_j^m, the b_j^m points s … s+b_j^m−1 have exactly one
//     coordinate in each interval [r/b_j^m, (r+1)/b_j^m) (the digit
//     permutations are bijections).
//   - Deterministic: the same (d, seed, i) gives the same bits on every
//     platform: the digits are integer arithmetic, and the value is
//     accumulated by float64 additions and divisions by b_j, each
//     correctly rounded (IEEE 754) and in a fixed order (no fused
//     operation applies).
//
// # Cost
//
// NewHalton draws and stores K_j·b_j permutation entries per dimension:
// Σ_{j<d} K_j·b_j entries of 2 bytes and as many random draws, with
// K_j = ⌈64/log₂ b_j⌉ + ⌈53/log₂ b_j⌉ and b_j ≈ j·ln j the j-th prime — so
// roughly d²·ln d·K/2 (K ≈ 10 at d = 1000), growing faster than d²;
// TableBytes(d) is that memory, for a caller's budget (package bo counts
// it in Config.Budget), read in O(1) from tables of the first MaxDim primes
// and of the sums of their table sizes (16 KB, built once per process on
// first use). PointTo costs
// Σ_j (⌊log_{b_j} i⌋ + 1) digit steps, at most 64·d, on a stack buffer.
//
// # Concurrency
//
// A Halton is immutable after construction; PointTo is safe for concurrent
// use and allocates nothing. The prime tables are built once (sync.OnceValue)
// and only read after, shared by every Halton (its bases); NewHalton and
// TableBytes are safe for concurrent use.
//
// # Errors
//
// NewHalton fails for d < 1 or d > MaxDim with a plain error ("qmc: …")
// that carries no class (errclass.Of says Internal): callers validate d
// first (bo refuses a box above its MaxDim = qmc.MaxDim). PointTo panics
// on a wrong-length dst (a programmer bug).
package qmc
