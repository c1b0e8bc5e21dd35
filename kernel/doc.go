// Package kernel implements the covariance functions of symbo: isotropic
// base kernels and their group-invariant versions k_avg, k_max and k_plus
// (the paper's equations for k_avg, (1) for k_max and (5)–(6) for the
// PSD-projected Nyström kernel), with cross-covariances, diagonals, Gram
// matrices and gradients in the first argument.
//
// Points are rows: x is n×d. Base kernels are k(x, y) = v·κ(‖x−y‖/ℓ) with,
// for u = r/ℓ, κ = exp(−u²/2) (rbf), exp(−u) (matern12),
// (1+√3u)·exp(−√3u) (matern32) and (1+√5u+5u²/3)·exp(−√5u) (matern52).
//
// # Evaluation paths (Method)
//
// Finite groups (orbit.Finite, orthogonal maps, so double orbit sums and
// maxima reduce to single ones):
//   - Max, closed (Auto): through the group's Canonicalizer,
//     k = v·κ(‖φ(x) − φ(y)‖/ℓ), else its Distancer, k = v·κ(d_G/ℓ).
//   - Max, enumerate: the orbit of y is enumerated (|G|·d floats per
//     worker) and the inner products ⟨x, g·y⟩ are fused with the max in
//     registers, four rows of x at a time, one κ per pair:
//     d_G² = max(‖x‖² + ‖y‖² − 2·max_g ⟨x, g·y⟩, 0). Materializing the
//     n × n·|G| product with GEMM and reducing afterwards does not fit in
//     cache and loses to the fused loop (docs/design.md).
//   - Avg, closed (Auto, rbf base only; avgclosed.go): the RBF kernel
//     is a product over coordinates, so signflip(d) gives a product of d
//     two-term averages (d + 1 exponentials instead of 2^d), and
//     permutation(d) and hyperoctahedral(d), d ≤ MaxPermanentDim, give
//     v/d!·perm(M) with M_ij = e^{−(x_i−y_j)²/2ℓ²} (resp. the two-sign
//     average ½[e^{−(x_i−y_j)²/2ℓ²} + e^{−(x_i+y_j)²/2ℓ²}]). The
//     permanent of these positive matrices is computed in O(2^d·d) by
//     the subset recursion, a sum of non-negative terms with relative
//     error < 2d·ε (unrolled for d ≤ 6, the exponentials of 8 pairs
//     in one vectorized call), after scaling each row by its largest
//     entry when some entry could underflow; Ryser's
//     formula (same cost) was measured to lose all digits once points
//     are ~10 lengthscales apart (alternating sum; TestRyserCancellation).
//     The points are scaled by 1/ℓ before they are differenced, so the
//     absolute error grows as ≈ 2ε·max(|x_k|, |y_k|)/ℓ·v (below 1e−12·v
//     while the coordinates stay within ~4000 lengthscales of the origin;
//     FuzzClosedVsEnumerate checks the bound against direct differences).
//     Closed and enumerated values agree within 1e−12 relative
//     (TestAvgClosedMatchesEnumeration, hard inputs, ℓ from 0.05 to 20).
//     For d ≤ 6 and pairs within a proven accuracy guard, the factored
//     form e^{−‖u‖²/2}·e^{−‖w‖²/2}·perm(cosh(u_i·w_j)) is evaluated for 8
//     pairs at once in registers (f64.ExpPermanent8: d² exponentials per
//     pair instead of 2d²+1); the Gram's upper triangle, diagonal
//     included, streams through those batches across row boundaries
//     (f64.ExpPermanent8Pairs, one u per lane). Gradients are analytic.
//     Measured speed-ups over enumeration are in docs/performance.md.
//   - Avg, enumerate: one κ per element, evaluated eight elements at a
//     time by f64.SumKappa (vectorized exp within f64.ExpMaxUlp = 2 ulp of
//     math.Exp, square roots, fixed-order lane sums; the same bits on
//     every SIMD path). Other groups and Matérn bases
//     have no closed form: Closed is an error (ErrNoClosedForm).
//   - Enumeration prepares each orbit one packed block (32 or 8
//     elements) at a time, through orbit.RangeActor where the group has
//     it (the same values as ActTo).
//
// Closed forms write contiguous rows (an internal row evaluator): the
// points are prepared once, the squared distances of a row go straight
// into dst and κ is applied in place by f64.KappaTo (the tail of each row
// through a zero-padded block of 8, so the exponential never runs
// scalar); rows are contiguous in both mat.Dense and the upper triangle
// of mat.SymDense. Enumeration keeps one orbit per column (it prepares
// the orbit of the column point once for the whole column).
//
// Cost: GramTo makes n(n−1)/2 pair evaluations (plus n diagonal ones),
// each O(|G|·d) when enumerating, O(d) or O(d log d) when closed (avg:
// O(d) for signflip, O(d² + 2^d·d) for the permanents; a group on k of
// the d coordinates: its own closed form's cost on R^k plus O(d); avg over
// scaling: see below).
//
// # Allocation
//
// After warm-up CrossTo, GramTo, DiagTo and GradTo allocate nothing when
// they run serially, which they do below an estimated work of serialWork
// (2^16 pair × prepared-length units; e.g. one point against 55 rows) or
// with one worker: internal scratch comes from size-classed sync.Pools
// and never reaches callers (TestAllocs). Above the threshold, starting
// the workers allocates O(Workers) small objects per call. Plus keeps
// its matrices in a per-kernel pool and multiplies single query rows
// itself; products of several rows go to the backend's Gemm, which may
// allocate (gonum parallelizes large ones).
//
// Planar rotations (rotation2d): Max is closed, v·κ(|‖x‖ − ‖y‖|/ℓ). Avg
// with rbf is the closed form of the paper's Example 1,
// v·exp(−(r−s)²/2ℓ²)·i0e(rs/ℓ²) with r = ‖x‖, s = ‖y‖ and the scaled Bessel
// function i0e(z) = e^{−z}I₀(z) (power series for z ≤ 20, Hankel's
// asymptotic series above; relative error < 1e−13, never overflows). Avg
// with a Matérn base uses the M-node trapezoidal rule in the relative
// angle, v/M·Σ_j κ(√((r−s)² + 4rs·sin²(πj/M))/ℓ), M = DefaultQuadrature
// = 256 unless Options.Quadrature says otherwise. It equals the average
// over the cyclic subgroup C_M, so it is exactly invariant and PSD. The
// integrand has a kink when r = s (κ is not smooth at 0), so convergence
// is algebraic there; measured worst-case errors at M = 256 over radii in
// [0, 10ℓ] (TestRotationQuadrature): 1.6e−4·v (matern12), 1.7e−6·v
// (matern32), 3.4e−8·v (matern52).
//
// Other continuous groups use their closed-form orbit distance for Max
// (scaling: exact). Avg over scaling (any group declaring orbit.Segmenter)
// is by default the exact double average over the orbits in log c,
// v/(L_x·L_y)·∫∫ κ(‖e^s·x − e^t·y‖/ℓ) ds dt (Method Closed;
// scalingexact.go), computed by one of two routes:
//   - RBF pairs whose orbits stay within seriesAlphaMax = 80 lengthscales
//     of the origin: expanding e^{αβ·cos∠(x,y)} (α = c‖x‖/ℓ, β = c'‖y‖/ℓ)
//     gives Σ_n cos^n∠(x,y)·ν_n(x)·ν_n(y) with per-point moments ν_n ∈
//     [0, 1] (by recursions from E1 and erf, scalingseries.go) and a
//     rigorous tail bound: relative truncation error ≤ seriesTol = 1e−16,
//     plus ~1e−13 relative from the moments' rounding where the orbits
//     lie beyond ~30ℓ. A point costs O(N) to prepare, a pair O(d + T),
//     N, T ≲ λ + 9√λ + 40 with λ = (max ‖c·x‖/ℓ)², fewer terms for pairs
//     at an angle (the γ^n bound).
//   - Every other pair (Matérn bases, smaller ℓ): with p = s + t,
//     q = s − t the integral over p has the closed form
//     F(u_lo) − F(u_hi), F(u) = ∫_u^∞ κ(ρ)/ρ dρ = c·E1(a) + e^{−a}·P(a)
//     (E1 the exponential integral, expint.go), and the remaining
//     integral over q is adaptive Gauss–Kronrod (31 points per panel,
//     gk.go) to the relative tolerance quadTol = 1e−13, with break points
//     where the integrand kinks or peaks and panels graded toward the
//     orbits' closest approach (scalingquad.go): about 100–300 integrand
//     evaluations (each a few exponentials and two E1) per pair; pairs
//     whose orbits are farther apart than where κ underflows are 0.
//
// Error bound: the series' truncation is bounded rigorously (above); the
// quadrature route's tolerance is against the Gauss–Kronrod error
// estimate, which is not a proven bound. What the package guarantees, by
// test, is agreement with two independent references — nested adaptive
// Gauss–Legendre in (c, c') and a tanh-sinh product rule in (s, t) —
// within 1e−12 relative, plus where the value itself is ill-conditioned
// u²·2e−15 (u the orbit distance in lengthscales) and 1e−15/L for orbits
// of log-length L (TestScalingExactValues: all shapes, ℓ from 0.01 to
// 1e4, collinear, touching, short and degenerate orbits;
// TestScalingExactTanhSinh; measured worst 1.9e−14 against the tanh-sinh
// rule), and with the Gauss–Legendre rule at 1024 nodes where that
// converges (TestScalingExactMatchesGauss1024). Values below ~1e−300·v
// are held in absolute terms only. The value is smooth in ℓ to ~1e−9
// relative (the tolerances' footprint), below what gp's central
// difference in ln ℓ (step 1e−4) resolves.
//
// Cost of the exact average: GramTo prepares n points (O(N) each, the
// RBF moments, cached per kernel for up to 256 points) and makes
// n(n+1)/2 pair evaluations, each O(d + T) on the series route or
// ~(100–300)·O(d) on the quadrature route; GradTo costs the same per
// pair, the quadrature route integrating d + 1 functions at once plus
// two edge integrals. No errors beyond NewAvg's usual ones
// (ErrBadOptions for Options.Quadrature above MaxQuadratureDouble).
//
// The value is symmetric bit for bit, PSD to rounding, and its gradient
// analytic (the derivative of
// the exact average, including the motion of the orbit's ends with x,
// computed by the same route; relative accuracy ~ε/L for orbits of
// log-length L). Options.Quadrature > 0 instead selects the former rule,
// Σ_{a,b} w_a w_b k_b(c_a·x, c'_b·y) over that many Gauss–Legendre nodes
// per orbit in log c (composite with 32-node panels above 32; Method
// Enumerate: DefaultQuadratureGauss = 32 unless Options.Quadrature says
// otherwise; scaling is not an isometry, so the single sum would be
// wrong): m² base-kernel evaluations per pair, PSD for any m (positive
// weights), its gradient analytic including the motion of the nodes with
// the orbit's ends. Where its integrand is resolved (ℓ ≳ 1 on [0.1, 10]²)
// its error is small; for small ℓ on long orbits (narrow ridges) no fixed
// rule of this size converges. Measured errors and speeds of both are in
// docs/performance.md. Other non-isometric groups use orbit.Discretizer
// nodes, DefaultQuadratureDouble = 64 per orbit. Method Enumerate on a
// continuous group means this discretized orbit (single reduction over the nodes of y for isometric groups).
// Method() reports the path taken: Closed, Enumerate (finite groups) or
// Quadrature (nodes of a continuous orbit), never Auto.
//
// # Groups on some coordinates
//
// A group that acts by G on the coordinates S and as the identity on the
// others R (orbit.Embedded, built by orbit.OnCoords) is a group like any
// other for every kernel here, through the capabilities it passes through
// from G: Max is closed through its canonical map (φ_G(x_S), x_R) or its
// distance d_G(x_S, y_S)² + ‖x_R − y_R‖², with the analytic gradient of
// its Aligner; Plus follows Max. For k_avg with the RBF base, a product
// over coordinates, newOrbitKernel's first strategy factors the average:
//
//	k_avg(x, y) = k_avg^G(x_S, y_S) · exp(−‖x_R − y_R‖²/2ℓ²)
//
// (v counted once, in k_avg^G) when G alone has a closed form — the
// signflip product, the permanents of permutation and hyperoctahedral,
// the Bessel form of rotation2d, the exact average of scaling (Method
// Closed) — or a quadrature — scaling's Gauss–Legendre rule when
// Options.Quadrature asks for it, or G's discretization (Quadrature); the gradient is analytic (G's in x_S, the factor's in
// x_R) and a pair costs G's closed form on R^k plus O(d). Method() reports
// G's path; Closed fails exactly when G has no closed form. Otherwise the
// whole group is enumerated (finite) or discretized (continuous) like any
// group of order |G| on R^d: for Method Enumerate, for an inner group that
// would itself be enumerated (one exponential per element either way, and
// the factored form measured slower), and for Matérn bases, which are not
// products over coordinates. The factored and the enumerated k_avg agree
// within 1e−12·v for finite groups and rotation2d
// (TestEmbeddedProductMatchesEnumeration), and both match internal/app/refgen's
// brute-force references (TestGolden, the -oncoords cases).
//
// # Normalized k_avg
//
// k_avg(x, x) = v/|G|·Σ_g κ(‖x − g·x‖/ℓ) is v at the group's fixed points
// and much smaller elsewhere (matern52, ℓ = 4, hyperoctahedral(2): v at
// the origin, 0.33·v at (4, 4), 0.14·v at (12, −5)), so a GP's posterior
// variance under k_avg is drawn to the fixed points. Options.Normalize
// (NewAvg only; NewMax, hence NewPlus, rejects it) gives the normalized
// average k̃(x, y) = v·a(x, y)/√(a(x, x)·a(y, y)), a = k_avg with unit
// variance by any Method: PSD (D^{−1/2}·A·D^{−1/2}), invariant, k̃(x, x) = v
// (DiagTo returns v, the Gram diagonal is exactly v). GramTo scales the
// k_avg Gram by its own diagonal (no extra evaluations); CrossTo adds
// n + m diagonal evaluations, GradTo one k_avg cross row, and
// ∇ₓa(x, x) = 2·∇₁a(x, y)|_{y=x}. The diagonal factors of the last
// design (the points of GramTo, or the right-hand side of CrossTo and
// GradTo) are kept in a one-entry cache, an immutable snapshot swapped
// atomically and reused only for a bit-for-bit equal point set (O(n·d)
// check; the same bits as recomputing), so the acquisition loop's
// CrossTo(x, D) and GradTo(x, D) pay no per-call diagonal of D; a miss
// allocates the new O(n·d) entry. Method() reports the path of the
// underlying k_avg; Normalized() reports the normalization.
//
// # Plus
//
// NewPlus eigendecomposes K = k_max(D, D) through a linalg.Backend, keeps
// the r eigenvalues λ > RelTol·λ_max (default RelTol = n·ε, the usual
// numerical-rank threshold) and evaluates φ(x) = Λ₊^{−1/2}·Qᵀ·k_max(D, x),
// k_plus(x, y) = φ(x)·φ(y) = k_max(x, D)·K₊^†·k_max(D, y). φ(D) is
// cached: any argument equal to D bit for bit (an O(n·d) check) uses the
// cache, so a query x against the design costs one k_max row plus
// O(n·r) (the paper's Table 2). On D×D it
// reproduces K₊ = Q·max(Λ, 0)·Qᵀ up to the dropped eigenvalues (each
// ≤ n·ε·λ_max), hence equals k_max there when K is PSD.
//
// # Orbit-distance columns
//
// OrbitDist prepares n points once (canonical forms, closed-form
// arguments, or the points themselves for enumeration) and computes
// columns d_G(x_i, y)² against one point y at a time, with the values and
// evaluation path of OrbitDist2To (its upper triangle bit for bit): n
// orbit distances per column, over fixed blocks of 256 rows on
// Options.Workers goroutines when large. gp's landmark selection uses it,
// learning its next column only after the previous one.
//
// # Gradients
//
// GradTo is analytic for the base kernel, for closed-form Max over
// finite groups with an orbit.Aligner (∇ = v/ℓ²·κ'(u)/u·(x − g*·y) with
// g*·y the aligned point: sorts for signflip, permutation and
// hyperoctahedral, the Hungarian assignment for blockperm and pairedperm,
// the best shift for cyclic; O(d log d) or O(m³) per pair instead of
// O(|G|·d), and it does not need the group to fit the budget), for
// enumerated finite groups
// (Max: the base gradient at the first maximizing element g*, valid
// wherever g* is unique; Avg: the mean of the element gradients), for
// rotation2d (closed forms, trapezoid), for discretized isometric
// groups and for Avg over scaling (the exact average's derivative; with
// Options.Quadrature, Gauss nodes moving with the orbit's ends). Where no
// analytic form exists — Max of a finite group too large to enumerate under the budget, Max over scaling, and other non-isometric
// continuous groups — it uses central differences with step ε^{1/3}·max(|x_k|, ℓ)
// (relative error ~1e−10). Plus: (∇ₓk_max(x, D))ᵀ·K₊^†·k_max(D, y_j).
// Matérn-1/2 is not differentiable at zero (orbit) distance; the gradient
// returned there is zero.
//
// Grad differentiates any Kernel: through its GradTo when it is a
// Gradienter, else by central differences of CrossTo with the step above
// (the caller names the lengthscale), 2d CrossTo calls per point; gp uses
// it, so a caller's kernel without gradients still drives bo's gradient
// ascent.
//
// Preparer (Base, Avg, Max): Prepare validates and prepares fixed points
// y once (O(m·d), or m feature rows of a closed form) and
// CrossPreparedTo(dst, x, p) is CrossTo(dst, x, y) bit for bit without
// that work per call — a GP's prediction against its training inputs.
// Where CrossTo does not prepare y as a whole (enumerated k_avg, the
// normalized average) it is CrossTo's own path.
//
// # Invariants
//
//   - k(g·x, y) = k(x, y) = k(x, g·y) for every g in the group (for
//     discretized continuous orbits: for g in the discretization).
//   - Gram is symmetric, its diagonal is exactly DiagTo's; Base, Avg and
//     Plus Grams are PSD, Max Grams need not be.
//   - Results are bit-identical for every GOMAXPROCS and Workers value:
//     assembly is split by output ownership (enumeration and quadrature:
//     one task per column of the output; closed forms: one task per row
//     of the Gram's upper triangle, or per tile of a fixed 256 columns of
//     a CrossTo row) and every entry is computed by the same sequence of
//     operations whatever the tiling.
//   - Inputs are never modified; an empty dst is resized, a non-empty one
//     of the wrong size is a programmer bug (panic).
//   - Accuracy of enumeration: the fused squared distance
//     ‖x‖² + ‖y‖² − 2⟨x, g·y⟩ carries the rounding bound
//     b = 2(d+2)·ε·(‖x‖² + ‖y‖²)/ℓ² on u² (guard.go); a pair whose bound
//     could move κ by more than FusedTol = 1e−12 (units of v) is
//     recomputed from the direct differences ‖x − g·y‖² (k_max: the
//     minimum over the orbit; k_avg: every term), so enumerated values are
//     within FusedTol of the exact ones at any magnitude. Ordinary inputs
//     (‖x‖/ℓ ≲ 10) never take the exact path; Matérn-1/2 k_avg always
//     does (its κ is not differentiable at 0, where the fused form loses
//     half the digits).
//   - No NaN from finite inputs: κ is 0 where its exponential underflows
//     (the Matérn polynomial may then overflow), ℓ lies in
//     [MinLengthscale, MaxLengthscale] so that 1/ℓ² is finite, and
//     coordinates with x/ℓ overflowing are refused (ErrBadPoints).
//   - Plus and every PSD projection in symbo keep the eigenvalues
//     λ > tol·λ_max (Truncate; tol = n·2⁻⁵² by default); ProjectTo forms
//     K₊ = Q·diag(λ kept)·Qᵀ exactly as gp's plus family does.
//
// # Concurrency
//
// Kernels are immutable after construction and safe for concurrent use
// (the normalized Avg's diagonal cache is an atomically swapped immutable
// snapshot).
// Assembly runs on Options.Workers goroutines (0 = GOMAXPROCS; Base and
// Plus use GOMAXPROCS), serially below the work threshold (see
// Allocation). Peak scratch for enumeration is Workers·|G|·d
// float64s.
//
// # Errors
//
// Constructors fail on a non-positive or non-finite variance, a
// lengthscale outside [MinLengthscale, MaxLengthscale], an unknown shape or
// method, a Quadrature outside [2, MaxQuadrature] (MaxQuadratureDouble for
// double reductions; ErrBadOptions), Method Closed without a closed form
// (ErrNoClosedForm), a group too large for the enumeration budget (wraps
// orbit.ErrOverBudget) or whose order overflows int (orbit.ErrTooLarge),
// an orbit.Embedded group whose declared inner group is nil or whose
// coordinates are not its dimension's distinct indices in [0, d) (a
// caller's own type; wraps orbit.ErrInvalid),
// and, for NewPlus, an empty or mis-shaped design set or an invalid
// RelTol, a spectrum of k_max(D, D) whose largest eigenvalue is not
// positive and finite (ErrSpectrum: e.g. a variance near the float64
// maximum), and Options.Normalize for NewMax. Methods fail (ErrBadPoints)
// on empty inputs, a dimension mismatch, NaN or infinite coordinates and
// coordinates too large for ℓ, and (wrapping orbit.ErrOverBudget) on an
// empty dst whose output would exceed the kernel's memory budget
// (Options.Budget; orbit.DefaultBudget for Base and when 0: a value the
// caller passes, never read from the environment); the normalized
// k_avg also fails if some k_avg(x, x) underflows to 0 (not reachable for
// the groups here, where k_avg(x, x) ≥ v/|G| or the quadrature analogue).
// Errors are prefixed "kernel: ". The sentinels are input errors
// (internal/errclass: each has ErrClass).
package kernel
