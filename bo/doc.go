// Package bo implements the ask/tell Bayesian optimizer of symbo (GP-UCB
// and expected improvement over a GP with the base, orbit-averaged, max or
// PSD-projected max kernel), its acquisition optimizer, and Run, the
// experiment driver of the paper's protocol. The benchmark problems live in
// the subpackage bo/problem.
//
//	o, err := bo.New(lo, hi, group, kernel.Matern52, bo.Config{Kernel: bo.Plus}, seed)
//	for range budget {
//		x, err := o.Ask()
//		err = o.Tell(x, blackBox(x)) // maximized
//	}
//	tr, err := bo.Run(p, bo.Config{Kernel: bo.Plus}, seed, nil) // a whole experiment
//
// # Kernels
//
// base is k_b; avg is k_avg (gp.NewAvgFamily); plus is k_plus with the
// observed points as its design (gp.NewPlusFamily); max is k_max used
// directly as the covariance, only where it is provably PSD: groups with a
// canonical map φ (orbit.Canonicalizer: sign flips |x|, permutations
// sort(x), signed permutations sort(|x|), planar rotations ‖x‖, and the
// trivial group), where k_max(x, y) = k_b(φ(x), φ(y)) for every isotropic
// non-increasing base kernel (the paper's Proposition 1). For other groups
// (pairedperm, blockperm, cyclic, scaling, matrices) New refuses max with
// ErrMaxNotPSD and suggests plus.
//
// Hyperparameters are fitted by gp.Fit on the observations at every
// acquisition step, warm-started from the previous optimum (Config.FitMode:
// each kernel on its own likelihood, the paper's default, or the base
// kernel's reused, as the authors' code does; Config.Prior: the plain
// likelihood, or the MAP under BoTorch's classic SingleTaskGP priors with
// the lengthscale prior on ℓ / the box's largest side, recorded in the
// Trace as "prior"). For max and plus with a
// canonical map, the fitted posterior is then rebuilt on φ(X) — the base
// kernel (max), or k_plus over the trivial group (plus) — which is the same
// posterior (tested to 1e-6) but predicts with one base-kernel evaluation
// per observation instead of an orbit enumeration for the gradient (on
// Rastrigin5d, |G| = 3840, this made the acquisition step ~300× faster);
// the gradient in x is chained through the Jacobian of φ (central
// differences of φ, exact up to rounding off the kinks of the piecewise
// linear φ).
//
// # Acquisition
//
// UCB is α(x) = μ(x) + √β·σ(x), σ² the latent posterior variance. With
// BetaPaper (default) β_t = 0.5·d·log t where t = n − Init + 1 counts the
// acquisition steps (n = observations so far): t = 1 for the first point
// chosen after the initial design, so β_1 = 0; BetaAuthors is the authors'
// code, β = 0.5·d·log(2n). EI is expected improvement over the best
// observed (noisy) y. The trace records t and β of every step, and the rule.
//
// Acquisition optimizer: RawSamples (512) points of a scrambled Halton
// sequence (internal/qmc; scrambling seeded from (seed, n), so no point is
// special — in particular the box centre, the optimum of Ackley, Griewank
// and Rastrigin and a fixed point of their groups, is never a start) and the
// best observed point are scored; the best Starts (10) of these 513 start a
// projected L-BFGS ascent (gradient projection with backtracking along the
// projected path, at most MaxIter = 100 iterations, stopping when an
// iteration gains at most 1e-11·max(1, |α|) — 1e-13 before, which cost up
// to 4× more evaluations for a relative gain below 1e-5 of the acquisition
// maximum, measured — analytic gradient through gp.PredictGrad, taken only
// at accepted points: trial points of the line search are valued alone and
// gp.Workspace reuses the prediction when the gradient follows, which
// saved 10–30% of the acquisition time, most with kernels whose gradient
// is a finite difference). After
// warm-up an acquisition evaluation and a whole ascent allocate nothing
// (TestAcquisitionAllocs). Every iterate is clamped coordinate-wise, so
// points lie in the closed box exactly. Starts run on Workers goroutines
// writing owned slots; the best end point wins, ties to the better-ranked
// start.
//
// Protocol pitfall (DESIGN.md): with invariant kernels the centre of a
// symmetric box is a critical point of α, and for max and plus, which see
// the box through the orbit distance, it is the apex of the quotient cone,
// so the ascent can converge onto it exactly when α peaks there. Trace
// counts the evaluations at exactly the optimum (ExactOptimumHits) as a
// diagnostic; on Ackley2d with plus they occur from random starts (2–5
// per 20 steps, measured), with base never.
//
// # Run protocol
//
// Init (5) uniform random initial points (point i from stream (seed, i)),
// then Iters (50) acquisition steps. Observations are y = f(x) + ε, ε ~
// N(0, p.NoiseVariance()) (2% of the variance of f over the box), drawn from
// a per-evaluation stream; regret is always f* − f(x) on the noiseless f.
// The Trace (JSON field names are stable: problem, d, kernel, seed,
// evaluations with x, y, f, regret, cumulative_regret, best_f, …) records
// every evaluation with its fitted hyperparameters, β, acquisition value
// and per-phase timings. Without a known optimum (WLAN) the regret fields
// are absent and best_f carries the result.
//
// # Invariants
//
//   - Ask returns points inside the closed box [lo, hi]; Tell accepts only
//     such points and finite y.
//   - Deterministic: every random choice derives from (seed, stream,
//     index) with rand.NewPCG; the same seed gives the same trace bits for
//     any GOMAXPROCS and Workers (timings aside).
//   - With an invariant kernel the acquisition is invariant: α(g·x) = α(x).
//   - Inputs are never modified; Ask returns fresh slices.
//
// # Concurrency
//
// An Optimizer is not safe for concurrent use; Ask parallelizes the raw
// sample scoring and the starts internally over Config.Workers goroutines
// (0 = GOMAXPROCS), each with its own gp.Workspace. Run is safe to call
// concurrently with different problems or seeds.
//
// # Errors
//
// Errors start with "bo: " and wrap ErrUnknownKernel, ErrMaxNotPSD,
// ErrBadConfig, ErrBadPoint or ErrBadValue where they apply (test with
// errors.Is), or the gp error of a failed fit. A rejected Tell leaves the
// optimizer unchanged. Duplicate points and constant y are accepted (the GP
// handles them with its noise and jitter).
//
// # Cost
//
// A whole run, 5 + 50 evaluations, in process CPU seconds (user + system,
// all threads: what adds up when runs share the cores; gonum backend, AMD
// EPYC, 2 cores shared with other jobs; TestTimingTable with
// SYMBO_TIMING). Before (seed 0, machine heavily loaded) → after (mean of
// seeds 0 and 1) the profile-likelihood fit (gp.FitProfile), the
// feature-form k_plus posterior, value-only line-search trials and the
// looser ascent tolerance:
//
//	            base         max          plus         avg
//	Ackley2d    0.29 → 0.17  0.39 → 0.22  2.05 → 0.24  1.49 → 0.29
//	Rastrigin5d 0.39 → 0.23  0.49 → 0.30  2.78 → 0.33  12.2 → 0.56
//	Griewank6d  0.43 → 0.23  0.69 → 0.36  3.60 → 0.41  1.65 → 0.33
//	Radial2d    0.40 → 0.17  0.41 → 0.18  2.80 → 0.21  1.55 → 0.26
//	WLAN8d      0.44 → 0.26  —            5.28 → 0.83  4.50 → 0.71
//	Scaling2d   0.48 → 0.17  —            2.97 → 0.28  (see below)
//
// Wall times on a quiet machine are about the same (the fit is serial, the
// acquisition uses both cores). A fit is now ~20 eigendecompositions (one
// Gram each for avg) instead of 3 BFGS starts of ~110 likelihood
// evaluations (three k_avg Grams each for avg); about half of a run is
// now the acquisition. avg on Scaling2d is dominated by the kernel itself:
// k_avg over the continuous scaling group is a double Gauss–Legendre
// quadrature (32×32 nodes) per pair, ≈ 17 s per run (135 s before its
// analytic gradient and node rule; more than all other runs of a seed
// together). Mean seconds per run for every problem and kernel of the last
// full table are in docs/results/table-own/table.md.
package bo
