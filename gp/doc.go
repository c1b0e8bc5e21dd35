// Package gp implements exact Gaussian-process regression on standardized
// outputs with Gaussian noise: the log marginal likelihood and its analytic
// gradient, multi-start hyperparameter fitting, and prediction (mean,
// variance and their gradients in x).
//
// # Model
//
// Outputs are standardized, y_s = (y − mean)/scale (population standard
// deviation; scale 1 when y is constant), and modelled as
// y_s ~ N(0, v·C_ℓ(X, X) + σ²·I): a Family is a one-parameter family of
// unit-variance correlations C_ℓ, so the hyperparameters (Hyper) are the
// signal variance v, the lengthscale ℓ and the noise variance σ², all on the
// standardized scale. Predictions are returned in the units of y; the
// variance is that of the latent function (no noise; add NoiseVariance for
// a predictive variance of y), clamped at 0.
//
// Families:
//
//   - NewBaseFamily: v·κ(‖x−y‖/ℓ). NewMaxFamily: k_max = v·κ(d_G(x,y)/ℓ)
//     with the orbit distance d_G (orbit.Distancer, else enumeration of a
//     finite group). Both are DistanceFamily: Bind computes the distance
//     matrix once per training set, each likelihood evaluation is then
//     O(n²) for the Gram plus O(n³) for the factorization, with the
//     analytic ∂C/∂log ℓ = −(δ/ℓ)·κ'(δ/ℓ). k_max is PSD for the groups of
//     the paper's Proposition 1 only; the caller (bo) decides where to use
//     it.
//   - NewPlusFamily: k_plus with the training inputs as its design, so that
//     C_ℓ = clip(κ(d_G/ℓ)) exactly as kernel.Plus reproduces K₊ on D×D
//     (same eigenvalue tolerance). ∂C/∂log ℓ goes through the
//     eigendecomposition (Daleckii–Krein): with ∂K = ∂k_max and K = QΛQᵀ,
//     ∂K₊ = Q(F∘(Qᵀ∂KQ))Qᵀ, F_ij = (f(λ_i)−f(λ_j))/(λ_i−λ_j), F_ii =
//     f'(λ_i). It is exact while no eigenvalue crosses the clipping
//     threshold (tested against finite differences on designs with clipped
//     negative eigenvalues). One evaluation costs an n×n eigendecomposition
//     and four n×n products.
//   - NewAvgFamily (RebuildFamily): rebuilds the kernel and its Gram for
//     each ℓ; ∂C/∂log ℓ by central difference (step 1e-4 in log ℓ, two
//     more Grams), or none (Step < 0), in which case Fit uses Nelder–Mead.
//
// # Fitting
//
// Fit maximizes the log marginal likelihood over θ = (log v, log ℓ, log σ²)
// with BFGS (gonum/optimize). Box bounds are enforced by the smooth
// bijection θ = lo + (hi−lo)·logistic(z) and BFGS runs on z. Default
// bounds: v ∈ [1e-3, 1e3], σ² ∈ [1e-6, 1] (standardized), ℓ ∈ [1e-3·s,
// 1e3·s] with s the diagonal of the bounding box of the training inputs.
// Starts, in order: FitOptions.Init (the previous optimum, if given), the
// default (v = 1, ℓ = s/4, σ² = 1e-2), then Restarts (default 2) random
// starts drawn from rand.NewPCG(Seed, i): log v ∈ [log 0.2, log 5],
// ℓ ∈ [s/20, s] and σ² ∈ [1e-4, 1e-1] log-uniformly. The best optimum wins
// (ties: the earliest). FixNoise holds σ² at a known level given in the
// units of y. ModeOwn (default) fits each family on its own likelihood;
// ModeBase fits the base family (Baser) and reuses its hyperparameters, as
// the authors' public code does.
//
// Measured (gonum backend, AMD EPYC, 2 shared cores; n = 55, d = 5,
// Matérn 5/2, 3 starts, BenchmarkFit): base 21 ms, max (hyperoctahedral)
// 21 ms, plus 0.30 s (eigendecomposition per evaluation), avg (RBF, sign
// flips) 0.42 s; 230–340 likelihood evaluations per fit.
//
// # Invariants
//
//   - x is n×d with one point per row; y has length n; inputs are never
//     modified and are copied where retained.
//   - K = v·C + σ²·I (+ jitter) is factored by the backend's Cholesky; on
//     failure a jitter of 1e-10·mean(diag K), ×10 up to 1e-4·mean(diag K),
//     is added; GP.Jitter reports it. The likelihood gradient ignores the
//     jitter.
//   - The posterior mean interpolates the data as σ² → 0; duplicate inputs
//     are allowed (σ² > 0 or jitter keeps K definite).
//   - With an invariant kernel the posterior is invariant: f(g·x) and
//     f(x) have the same mean and variance.
//   - Fit is deterministic: the same inputs and options give the same bits.
//
// # Concurrency
//
// A GP is immutable and safe for concurrent use; each goroutine needs its
// own Workspace. After warm-up, Predict and PredictGrad allocate nothing
// beyond what the kernel's CrossTo, DiagTo and GradTo allocate (nothing
// with allocation-free kernels). Families and Bounds of this package are
// safe for concurrent use. Fit runs its starts serially.
//
// # Errors
//
// Errors start with "gp: ". NaN or infinite inputs, outputs or prediction
// points, mismatched shapes and invalid hyperparameters or bounds are
// errors. A covariance that stays non-PD after the largest jitter gives an
// error wrapping linalg.ErrNotPositiveDefinite that states the jitter
// tried; during Fit such a point counts as −∞ likelihood, and Fit fails
// only if every start fails. ErrNoDerivative marks families without a
// lengthscale derivative. Wrong-length gradient buffers passed to
// PredictGrad are programmer errors and panic.
package gp
