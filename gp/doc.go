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
// The prior mean of y_s is 0 by default (MeanSample: the sample mean of y,
// the paper's protocol). With MeanConstant (FitOptions.Mean, Options.Mean)
// it is a constant m fitted by maximum likelihood, as BoTorch's
// SingleTaskGP fits its ConstantMean. For any covariance K the maximizer
// is the generalized least squares estimate m̂ = 1ᵀK⁻¹y_s / 1ᵀK⁻¹1, so m is
// profiled out in closed form: every likelihood is that of the residual
// y_s − m̂·1, maximized over (v, ℓ, σ²) as before. It is ML, not REML, as
// in BoTorch (which fits its constant jointly, with no prior). The
// posterior mean is
// m̂ + k(x, X)·K⁻¹(y_s − m̂·1); the posterior variance leaves out the GLS
// term (1 − 1ᵀK⁻¹k(X, x))²/1ᵀK⁻¹1 of m̂'s own uncertainty, as BoTorch does
// (m is a point estimate there too), so far from the data the mean tends
// to m̂ and the variance to the prior's. GP.PriorMean reports m̂
// (standardized scale). A GP built by New with MeanConstant estimates m̂
// for its own data and hyperparameters (one more solve, K⁻¹1).
//
// Families:
//
//   - NewBaseFamily: v·κ(‖x−y‖/ℓ). NewMaxFamily: k_max = v·κ(d_G(x,y)/ℓ)
//     with the orbit distance d_G (orbit.Distancer, else enumeration of a
//     finite group). Both are distanceFamily: Bind computes the distance
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
//     threshold. One evaluation costs an n×n eigendecomposition and four
//     n×n products.
//   - NewLandmarkPlusFamily: k_plus whose design set is capped at m
//     points. On n ≤ m inputs it is NewPlusFamily (the same bits); above,
//     the design D is m landmarks chosen among the inputs for each
//     lengthscale, and the GP is low-rank plus noise (see Landmarks
//     below).
//   - NewLandmarkFamily(fam, m): any family whose kernel does not depend
//     on the inputs (base, max, avg, FamilyOf) capped at m points: fam
//     itself on n ≤ m inputs (the same bits); above, the DTC
//     approximation of fam's GP on m landmarks (see Landmarks for any
//     kernel below).
//   - NewAvgFamily and FamilyOf (any kernel constructor): rebuild the
//     kernel and its Gram for each ℓ; ∂C/∂log ℓ by central difference
//     (step 1e-4 in log ℓ, two more Grams; the profile fit below needs
//     none, one Gram per ℓ).
//
// # Fitting
//
// Fit maximizes the log marginal likelihood over (v, ℓ, σ²) within box
// bounds. Default bounds: v ∈ [1e-3, 1e3], σ² ∈ [1e-6, 1] (standardized),
// ℓ ∈ [1e-3·s, 1e3·s] with s the diagonal of the bounding box of the
// training inputs, or 1 where they coincide or differ by rounding alone
// (by at most 2⁻⁴⁴ of their largest |coordinate|, as one ulp apart; the
// same for each class's s_c in FitClasses). FixNoise holds σ² at a known level given in the units
// of y. ModeOwn (default) fits each family on its own likelihood; ModeBase
// fits the base family (the family's method Base() Family) and reuses its
// hyperparameters, as the authors' public code does. The method is the
// profile likelihood; a
// gradient-based BFGS fit is kept internally as the reference the tests
// compare it with.
//
//   - Profile likelihood: P(ℓ) = max over (v, σ²).
//     For each ℓ one correlation matrix and one eigendecomposition
//     C_ℓ = QΛQᵀ (for plus, that of k_max with the clipped eigenvalues set
//     to 0: no Daleckii–Krein products) turn the likelihood of
//     K = Q(vΛ + σ²)Qᵀ into sums over n eigenvalues; with r = σ²/v the
//     optimal v = (1/n)·Σ ỹ_i²/(λ_i + r) (ỹ = Qᵀy; the likelihood is
//     concave in log v, so clamping into the bounds is exact), leaving a
//     1-D search over log r: a 24-point grid plus Brent's method, O(n) per
//     step (log v alone with FixNoise). With MeanConstant the
//     projections ỹ = Qᵀy and õ = Qᵀ1 give, at each step, m̂ = Σ ỹ_iõ_i/d_i /
//     Σ õ_i²/d_i and the residual's Σ (ỹ_i − m̂·õ_i)²/d_i (d_i = λ_i + r,
//     summed term by term), still O(n); m̂ does not depend on v at fixed
//     r, so the closed-form v stands. Jitter is mimicked on the eigenvalues as factorJitter
//     would add it. The outer search over log ℓ evaluates the starts —
//     FitOptions.Init's ℓ, s/4, Restarts (default 2) random ℓ ∈ [s/20, s] from
//     rand.NewPCG(Seed, i) — and the grid s·2^k, k ∈ {−10, −6, …, 1, 3},
//     then brackets the best by its evaluated neighbours (extending
//     towards a bound if it is extreme) and refines it with Brent's method
//     (tolerance 1e-4 in log ℓ). No ℓ-derivative is needed, so avg needs
//     one Gram per ℓ: 17–25 eigendecompositions per fit. From
//     200 observations the distinct starting lengthscales (starts and
//     grid) are evaluated concurrently, one scratch per goroutine (at most
//     GOMAXPROCS of them, fewer if the memory budget says so), and
//     recorded in order: the same bits as evaluating them in turn.
//     One eigendecomposition serves every σ²/v the inner search tries
//     (about 30 per ℓ), where a Cholesky-based search would factor once
//     per value. The fit reaches at least the BFGS optimum (to 1e-3;
//     TestProfileVsBFGS, TestFitMeanVsBFGS).
//   - The BFGS reference: BFGS (gonum/optimize) over θ = (log v, log ℓ, log σ²), box
//     bounds by the smooth bijection θ = lo + (hi−lo)·logistic(z), from the
//     starts Init, the default (v = 1, ℓ = s/4, σ² = 1e-2) and Restarts
//     random ones (log v ∈ [log 0.2, log 5], ℓ ∈ [s/20, s], σ² ∈
//     [1e-4, 1e-1] log-uniformly); Nelder–Mead for families without a
//     lengthscale derivative. The best optimum wins (ties: the earliest).
//     With MeanConstant its objective is the profiled likelihood (α =
//     K⁻¹y − m̂·K⁻¹1) and its gradient the fixed-m gradient at m̂: ∂lml/∂m
//     is 0 there, so m̂'s own derivative drops out.
//
// # Priors (MAP fitting)
//
// FitOptions.Prior = PriorBoTorch maximizes lml + log p(v) + log p(ℓ/w) +
// log p(σ²) instead (the zero value PriorNone is the plain likelihood).
// The priors are the classic defaults of BoTorch's SingleTaskGP (BoTorch < 0.12; 0.12 switched to a
// dimension-scaled LogNormal lengthscale prior, not implemented here),
// assuming its recommended transforms, inputs normalized to the unit cube
// and standardized outputs: ℓ/w ~ Gamma(3, 6), v ~ Gamma(2, 0.15), σ² ~
// Gamma(1.1, 0.05) (concentration, rate), with BoTorch's noise floor
// σ² ≥ 1e-4 as the default lower noise bound. w (FitOptions.PriorScale)
// is the box width the normalization divides by; the kernels here are
// isotropic, so one width stands for all coordinates (bo passes the
// box's largest side, equal to every side on the cube boxes of the
// benchmarks; 0 means the largest side of the data's bounding box, 1 where the
// inputs coincide or differ only by rounding). As in
// GPyTorch the densities are evaluated at the parameters themselves, with
// no Jacobian term for the log parametrization (the MAP is therefore not
// invariant to reparametrization, exactly as in BoTorch). With FixNoise
// the noise prior is dropped. The objective is lml + log prior (normalized
// Gamma densities); GP.LogMarginal still reports the likelihood alone.
// The constant mean of MeanConstant has no prior (nor has BoTorch's
// ConstantMean): it is the same GLS estimate.
//
// The profile fit handles the prior without losing its O(n) inner solve: at
// fixed ℓ and ρ = log(σ²/v) the objective is concave in t = log v (the
// likelihood contributes −A/2·e^{−t} − (n/2)·t, the Gamma terms
// (a−1)·t − b·e^t), and its maximizer is the positive root of
// B·u² + c·u − A/2 = 0 in u = e^t (B = b_v + b_σ·e^ρ, c = n/2 − (a_v−1) −
// (a_σ−1)), clamped to the bounds; the 1-D search over ρ and the outer
// search over log ℓ (which adds log p(ℓ/w)) are unchanged. The BFGS
// reference adds the prior and its gradient ((a−1) − b·x per parameter
// x = e^θ) to its objective.
//
// # Prediction with k_plus
//
// A GP of a plusFamily predicts through the feature form of its posterior
// (built on first use): with W = Q_r·Λ_r^{−1/2} from k_max(X, X) and
// φ(x) = Wᵀ·k_max(X, x), mean = k_max(x, X)·u and variance
// ‖φ‖² − φᵀMφ with u (n) and M (r×r) precomputed, so a prediction with
// gradient costs one k_max row and its gradient plus O(n·r + r² + n·d)
// instead of O(n·r·d).
//
// # Landmarks
//
// NewLandmarkPlusFamily and NewLandmarkFamily(fam, m) cap the design at m
// points. On n ≤ m inputs they are NewPlusFamily and fam themselves (the
// same bits). Above, m landmarks are chosen among the inputs by a greedy
// pivoted Cholesky of the unit-variance Gram at the lengthscale in
// question: deterministic, serial, ties to the smallest index. k_plus is
// then exactly kernel.NewPlus(k_max, D) on the landmarks D, a rank-r model
// v·Φ·Φᵀ + σ²·I; any other kernel gets the DTC approximation of its GP
// (the subset-of-regressors mean, a variance that returns to the prior's
// far from every landmark). With every input a landmark both are the exact
// GP. The methods are documented on landmarkFamily and sparseFamily.
//
// Hyperparameters (FitOptions.LandmarkFit, for both landmark families):
//
//   - LandmarkFitSubset (NewLandmarkFamily's default): the exact profile
//     likelihood of the family itself on the m inputs of indices ⌊t·n/m⌋,
//     t = 0…m−1 (for k_plus, NewPlusFamily with that subset as its
//     design). Subset-of-data hyperparameters (Chalupka, Williams & Murray,
//     JMLR 2013) cost O(m³) per lengthscale whatever n — the only rule here
//     whose fit does not grow with n — and are the exact fit whenever
//     n ≤ m. The subset is evenly spaced in the order given (gaps of
//     ⌊n/m⌋ or ⌈n/m⌉): no seed, and in BO the early space-filling points and the late ones
//     near the incumbent in proportion.
//   - LandmarkFitLikelihood (NewLandmarkPlusFamily's default): the
//     landmark model's own likelihood, the landmarks chosen anew for each
//     lengthscale, on all n inputs up to s = max(4·m, 1024) and above on
//     the s inputs of indices ⌊t·n/s⌋: O(min(n, s)·m² + m³) per
//     lengthscale, about 20 of them per fit up to s. Above s the search
//     is shorter: its starts and grid run on the exact likelihood of the
//     family on k = max(m/2, min(m, 64)) inputs (indices ⌊t·n/k⌋, O(k³)
//     each), the landmark likelihood then only at the best of them and a
//     factor 2 either side (extended while it still increases), and
//     Brent's refinement stops at 5·10⁻² in log ℓ instead of 10⁻⁴: fewer
//     landmark evaluations (counted in docs/performance.md, "Every kernel
//     at scale"). That is a local search around where the
//     exact likelihood puts ℓ, not the global one: above s it approximates
//     the full rule's fit (on pure noise it may settle on another noise
//     model; TestLandmarkCapSeed).
//   - LandmarkFitFull: the landmark likelihood on all n inputs whatever n:
//     O(n·m² + m³) per lengthscale (LandmarkFitLikelihood up to s).
//
// Cost above m of a Fit with the subset rule: O(m³) per lengthscale, then
// once at the fitted ℓ m kernel columns (n·m evaluations), O(n·m²) for the
// selection and the QR, two m×m eigendecompositions; memory O(n·m). A
// prediction: m kernel evaluations (and their gradients), O(m·r + r²),
// plus one diagonal evaluation for a kernel with a varying diagonal.
// Errors: m < 1, a nil family, or a family whose kernel depends on its
// inputs (NewPlusFamily, the landmark families themselves, a
// NewMixFamily with such a part); an unknown LandmarkFit is an input
// error of Fit.
//
// # Prediction
//
// Predict and PredictGrad work in the units of y (ErrOverflow when those
// exceed the float64 range); PredictStandardized (mean and latent variance
// of the standardized outputs, with their gradients into caller buffers)
// and Standardize work on the standardized scale, where nothing
// overflows. Those two and Hyper make the Posterior interface, all of a
// fitted GP that bo's acquisition uses. The kernel's gradient comes from
// kernel.Grad: its GradTo, or for a kernel without one (a caller's,
// through FamilyOf) central differences of CrossTo with steps
// ε^{1/3}·max(|x_k|, ℓ), 2d more kernel rows per gradient.
//
// # Cost
//
// With n observations and a kernel evaluation costing c (O(d) for a base
// kernel, O(|G|·d) for avg by enumeration): Fit makes 17–25 lengthscale
// evaluations, each an n×n Gram (n(n+1)/2 evaluations; distances cached
// across ℓ for base, max and plus) and an O(n³) eigendecomposition, with
// O(n) per step of the inner search; memory about five n×n matrices. A
// landmark family on m landmarks costs O(n·m² + m³) per lengthscale and
// O(n·m) memory. A prediction with its gradient costs n kernel
// evaluations and their gradients plus O(n²) (O(n·r + r²) for plus,
// O(m·r + r²) on landmarks).
//
// Measured: docs/performance.md.
//
// # Invariants
//
//   - x is n×d with one point per row; y has length n; inputs are never
//     modified and are copied where retained.
//   - K = v·C + σ²·I (+ jitter) is factored by the backend's Cholesky; on
//     failure a jitter of 1e-10·mean(diag K), ×10 up to 1e-4·mean(diag K),
//     is added; GP.Jitter reports it. The likelihood gradient ignores the
//     jitter. A landmark GP never forms K: it adds the jitter the profile
//     would (the first of those multiples that makes its smallest
//     eigenvalue exceed n·ε times its largest).
//   - The posterior mean interpolates the data as σ² → 0; duplicate inputs
//     are allowed (σ² > 0 or jitter keeps K definite).
//   - With an invariant kernel the posterior is invariant: f(g·x) and
//     f(x) have the same mean and variance.
//   - Fit is deterministic: the same inputs and options give the same bits.
//
// # Concurrency
//
// A GP is immutable and safe for concurrent use (with a caller's family,
// as long as its kernels are, as Family requires); each goroutine needs its
// own Workspace. A Workspace remembers its last prediction (keyed by the
// GP and the bits of x), so PredictGrad right after Predict at the same
// point only adds the gradient work. After warm-up, Predict and
// PredictGrad allocate nothing
// beyond what the kernel's CrossTo, DiagTo and GradTo allocate (nothing
// with allocation-free kernels). Families and Bounds of this package are
// safe for concurrent use. Fit evaluates the profile's starting
// lengthscales concurrently from 200 observations (see Fitting), the
// rest serially; its results do not depend on GOMAXPROCS.
//
// # Errors
//
// Errors start with "gp: ". NaN or infinite inputs or outputs, mismatched
// shapes and invalid hyperparameters, bounds, priors, means or settings
// are errors wrapping ErrInvalid (a prediction point's wrap
// kernel.ErrBadPoints). A GP whose memory exceeds its budget is an error
// wrapping orbit.ErrOverBudget (about five n×n matrices for an exact GP,
// O(n·m) plus the subset's exact GP for a landmark one), refused before
// anything is allocated. The budget
// is a value the caller passes, Options.Budget or FitOptions.Budget (0:
// orbit.DefaultBudget, never the environment); a negative one is an
// error. A covariance that stays non-PD after the largest jitter gives an
// error wrapping linalg.ErrNotPositiveDefinite that states the jitter
// tried; during Fit such a point counts as −∞ likelihood, and Fit fails
// only if every start fails. A covariance so small that K⁻¹y or the log
// marginal likelihood overflows, or that no jitter can make definite
// (the largest, 1e-4 × mean diagonal, zero or subnormal), is an error
// wrapping ErrOverflow (variance and noise near the smallest float64),
// never a NaN likelihood.
// ErrNoDerivative marks families without a lengthscale derivative.
// LOOLogPredictive of a landmark GP is ErrNoLOO.
// ErrInvalid, ErrOverflow, ErrNilArgument and ErrNoLOO are input errors, ErrNoDerivative and
// linalg.ErrNotPositiveDefinite internal ones (internal/errclass). A nil
// or zero-value *GP (one New or Fit did not make) is ErrNilArgument from
// the methods that return an error; its other methods panic. A caller's
// Family whose Bind returns no Bound and no error, or whose Bound's Kernel
// returns no kernel and no error, is ErrNilArgument from Fit and New (as
// FamilyOf's constructor returning neither is). Gradient buffers of
// PredictGrad and PredictStandardized whose length is not d (and that are
// not nil) are ErrInvalid. The families' Bind refuses a nil or empty x,
// one of another width and a NaN or ±Inf coordinate (ErrInvalid, O(n·d));
// their Bounds' CorrTo a nil dst (ErrNilArgument), a non-empty dst or
// dLog that is not n×n and a lengthscale outside [kernel.MinLengthscale,
// kernel.MaxLengthscale] (ErrInvalid), in O(1) before any work.
package gp
