// Package f64 holds the SIMD hot loops of symbo: those of the enumeration
// path, and the kernels of linalg's eigensolver (see below). Enumeration
// uses fused inner products with a max reduction over an enumerated
// orbit, laid out so that one vector register holds one coordinate of
// several group elements.
//
// # Layout
//
// An orbit of G points of dimension d (row-major, G×d) is packed by Pack
// into PackedLen(G, d) floats: G is padded to a multiple of Narrow = 8 by
// repeating the last point (which leaves a maximum unchanged), then split
// into ⌊Gp/Wide⌋ wide blocks of Wide = 32 points followed by (Gp mod 32)/8
// narrow blocks of 8 points. Each block is coordinate-major:
// block[k·w + l] is coordinate k of the block's point l (w = 32 or 8), so
// one AVX-512 register (or two AVX2 registers) holds coordinate k of 8
// points and an inner product is d multiply-adds across registers.
//
// The orbit average uses SumKappa: per element the inner product (summed
// as in MaxDot), the clamped squared distance, a square root for Matérn
// profiles and a vectorized exponential (Exp, ExpTo; at most ExpMaxUlp = 2
// ulp from math.Exp), reduced into eight lane accumulators in a fixed
// order. KappaTo is one such term for a batch of squared distances (its
// Matérn square roots and polynomial vectorized on the AVX-512 path).
//
// MathExpTo is another exponential: math.Exp's own bits, eight at a time
// (the standard library's amd64 operations replayed in AVX-512 lanes; four
// at a time in AVX2 lanes on a CPU without AVX-512),
// for loops that used math.Exp and whose results must not move — the
// permanent's gradient and the enumerated average's in kernel, the class
// fit in gp.
//
// Dist2To (squared distances to the points of a packed orbit from direct
// differences: no cancellation) and ScaledDiffSum (Σ_i c_i·(x − o_i) over
// a row-major orbit) are the enumerated average's gradient and the
// accuracy guard's recomputation; their AVX-512 paths are AVX-512 only
// (the other levels run the generic code), and their dst must not
// overlap their inputs.
//
// # Linear-algebra kernels
//
// GemmKernel (the register tile of a packed matrix product, 8×24 with
// AVX-512, 4×12 with AVX2), Inner, AddScaled and InnerAddScaled (the row
// kernel of a symmetric matrix-vector product) serve linalg's pure-Go
// symmetric eigensolver. They use fused multiply-adds and fix every
// operation so that all paths agree to the bit: an entry of a product is
// one chain c = fma(a_p, b_p, c) in increasing p, whatever the tile shape
// or the blocking of p; an inner product accumulates element j into
// partial sum j mod Lanes (16) and adds the sums in a fixed tree.
// ForceLevel lets tests of other packages run each path.
//
// # Paths
//
// Every function has a generic version (the specification, always
// compiled) and, on amd64 unless built with -tags noasm, AVX2 and AVX-512
// versions in Go assembly, chosen once at start-up with
// github.com/klauspost/cpuid/v2. The environment variable SYMBO_SIMD
// (generic, avx2 or avx512) caps the level; other values are ignored
// here, and EnvErr reports them. Level reports the path in use.
//
// Go assembly was chosen over simd/archsimd (GOEXPERIMENT=simd): it needs
// no experiment flag, and it was faster on the same tile (the comparison:
// docs/performance.md, "Pure-Go symmetric eigensolver").
//
// # Cost
//
// MaxDot and SumKappa over a packed orbit of G points cost G·d
// multiply-adds (plus G exponentials for SumKappa), Dist2To and
// ScaledDiffSum G·d subtract-multiply-adds; MathExpTo about 30 flops per
// element; GemmKernel 2·m·n·k
// flops for an m×n tile over k; Inner and AddScaled 2n.
//
// Measured: docs/performance.md.
//
// # Invariants
//
//   - Every path gives bit-identical results to the generic one. Inner
//     products are summed in coordinate order from 0 with separate
//     multiply and add roundings, s = x₀o₀, s = s + x_k·o_k (no FMA: the
//     assembly uses VMULPD then VADDPD; the generic code converts each
//     product with float64() so that no compiler may fuse it), and maxima
//     are exact. No ulp bound is needed.
//   - Exp, ExpTo and SumKappa use fused multiply-adds (math.FMA in the
//     generic code, VFMADD in assembly, which is why the AVX2 level
//     requires FMA3) and are likewise bit-identical on every path; their
//     accuracy against math.Exp is documented by ExpMaxUlp and tested.
//   - Dist2To and ScaledDiffSum keep their sums' order (coordinates in
//     order for a distance, points in order for ScaledDiffSum) with
//     separate roundings, as the inner products, so every path equals
//     the generic one bit for bit.
//   - MathExpTo equals math.Exp bit for bit on every path (the generic
//     path is math.Exp); the AVX-512 path checks itself against math.Exp
//     on probe values at start-up and is not used if any differs.
//   - GemmKernel, Inner, AddScaled and InnerAddScaled are bit-identical
//     on every path to their generic versions, which use math.FMA (a
//     software fused multiply-add where the hardware has none: slow, but
//     the same bits).
//   - Results do not depend on how rows are tiled: each row's value is
//     computed by the same operations whether it falls in a 4-row tile or
//     the scalar remainder.
//   - Inputs are never modified.
//
// # Concurrency
//
// All functions are safe for concurrent use on disjoint outputs; the
// feature set is fixed at package initialization (tests may swap it with
// setFeatures, and other packages' tests with ForceLevel, only while
// nothing else uses the package: the switch is an unsynchronized write
// of package state).
//
// # Errors
//
// None. Mis-sized arguments are programmer bugs and panic with "f64: …".
package f64
