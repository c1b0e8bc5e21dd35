// Package bench holds symbo's `go test -bench` suite of the numeric core
// and the regression gate built on it. The experiments (the paper's tables
// and figures, the profiler, the complexity study, Ratios) live in
// lab/experiments, behind perf.
//
// # Suites
//
// BenchmarkCore (core_test.go) times Gram assembly, the symmetric
// eigendecomposition and GEMM, with key=value sub-benchmarks for benchstat:
//
//	kind=gram/kernel={avg,max,plus}/group={signflip,hyperoctahedral}/d={6,5}/method={closed,enumerate}[/backend=…]/n={55,500}
//	kind=eigen/backend={gonum,openblas}/n={55,500,1000}
//	kind=gemm/backend={gonum,openblas}/n=1000
//
// Matérn-5/2 base kernel, standard normal points (fixed seeds). Avg has no
// closed form, so only method=enumerate; plus is built on the points
// themselves (D = x) with the named backend, outside the timed loop.
// Backends are those compiled in (linalg.Available(); -tags openblas adds
// openblas). Every sub-benchmark reports allocations; enumerated avg/max
// Grams report GFLOP/s counting EnumGramFlops (2·d·|G| flops per pair,
// n(n+1)/2 pairs), GEMM counting GemmFlops (2n³). With -short only the
// small sizes run (Grams and eigen at n = 55, GEMM at n = 200): that is
// the suite CI's regression gate compares.
//
// Running and comparing (from the module root):
//
//	make bench                        # everything, saved to bench/out/bench-<time>.txt
//	make bench BENCH=Core/kind=eigen BENCH_PKGS=./bench/
//	make bench-compare BASE=HEAD~3    # BASE vs the working tree, benchstat table
//	go run -tags openblas ./bench/cmd/ratios -threads 1
//
// bench-compare (scripts/bench-compare.sh) builds the bench test binary of
// BASE in a temporary git worktree and of the working tree, runs them
// alternately (ROUNDS = 8 rounds of -test.count=1, order ABBA…) and
// prints `benchstat old.txt new.txt`, benchstat being golang.org/x/perf at
// the version go.mod pins, built from the module cache. A BASE without
// BenchmarkCore is skipped with a message.
//
// # Regression gate
//
// CI (.ci/run, after make test) runs scripts/bench-gate.sh: the -short
// core suite of the tag bench-base (the last commit CI passed; HEAD~1
// without it) against the working tree, 8 interleaved rounds at
// -benchtime=100ms, GOMAXPROCS and OpenBLAS threads pinned to 1. It fails
// when a benchmark's sec/op is more than 25% slower with benchstat's
// p < 0.05 (Mann–Whitney U), or its allocs/op grow with p < 0.05 from
// none to any, or else by at least max(2, 10%) of the base's median
// (B/op is not gated), in a first pass and again when the flagged
// benchmarks are re-measured alone with 10 fresh rounds (its wall time:
// docs/performance.md, "The regression gate"). It skips itself,
// with a message, in a shallow clone without its base, when the base
// predates the suite or does not build. Benchmarks on one side only are
// listed as not compared; with none compared on both sides it fails. Its
// last line is the verdict; a PASS counts the slowdowns that were
// significant but within the threshold. Why it holds up on a noisy
// shared machine:
//
//   - interleaving: both binaries alternate in one job, so other
//     processes' load and frequency drift hit both samples alike;
//   - several rounds, and benchstat's statistics are the median and a
//     rank test, so a few disturbed runs move neither much;
//   - the threshold (25%) is far above the run-to-run noise of an idle
//     machine (docs/performance.md), so only real regressions — a lost fast
//     path, an accidentally quadratic loop — can clear it, and p < 0.05
//     is required as well;
//   - one thread: a single-threaded benchmark barely notices a busy
//     second core, a two-threaded one stalls on it;
//   - the retry: a burst of contention would have to favour the same
//     side in two independent passes.
//
// The price is sensitivity. The gate never fails on a slowdown within
// the threshold, however significant, and one at the threshold passes
// or fails by chance (measured: docs/performance.md, "The regression
// gate"); the PASS line shows such slowdowns, and
// make bench-compare by hand shows them all. Under heavy load the
// per-benchmark spread grows until a moderate genuine slowdown is no
// longer significant either, while gross ones still fail the gate and
// identical code passes.
//
// # Invariants
//
//   - Benchmark inputs are deterministic (fixed PCG seeds), so two builds
//     time the same work; names carry every parameter, including n, so
//     -short and full results never pool in benchstat.
//
// # Cost
//
// A gate run builds the test binaries of both sides and runs each ROUNDS
// times (ROUNDS = 8), then, only if some benchmarks are flagged, each
// RETRY_ROUNDS times more (10) on those alone: about
// 2·(ROUNDS·B + RETRY_ROUNDS·B_f)·t of benchmark time on one thread, B the
// -short sub-benchmarks, B_f the flagged ones, t the -benchtime (100ms)
// plus each benchmark's set-up and warm-up.
//
// # Errors
//
// The package exports nothing. The gate's exit status is non-zero when a
// benchmark fails it (or a build or run fails); a skip exits 0 with a
// message.
//
// # Concurrency
//
// OpenBLAS's thread count is process-wide and fixed at the first request
// of the openblas backend (linalg.EnvOpenBLASThreads); the gate pins it
// to 1. Benchmarks run one at a time (go test -bench), GOMAXPROCS = 1 in
// the gate.
package bench
