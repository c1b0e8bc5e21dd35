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
//     worker), and the inner products ⟨x, g·y⟩ are fused with the max,
//     one κ per pair: d_G² = max(‖x‖² + ‖y‖² − 2·max_g ⟨x, g·y⟩, 0).
//   - Avg, closed (Auto, rbf base only; avgclosed.go): signflip(d) is a
//     product of d two-term averages; permutation(d) and
//     hyperoctahedral(d), d ≤ MaxPermanentDim, are v/d!·perm(M) of a
//     positive d×d matrix, computed in O(2^d·d) by a subset recursion of
//     non-negative terms (relative error < 2d·ε). Points are scaled by 1/ℓ
//     before they are differenced, so the absolute error grows as
//     ≈ 2ε·max(|x_k|, |y_k|)/ℓ·v. Closed and enumerated values agree within
//     1e−12 relative. Gradients are analytic.
//   - Avg, enumerate: one κ per element, eight elements at a time
//     (f64.SumKappa: the same bits on every SIMD path). Other groups and
//     Matérn bases have no closed form: Closed is an error
//     (ErrNoClosedForm).
//
// Planar rotations (rotation2d): Max is closed, v·κ(|‖x‖ − ‖y‖|/ℓ). Avg
// with rbf is the paper's Example 1, v·exp(−(r−s)²/2ℓ²)·i0e(rs/ℓ²) with
// r = ‖x‖, s = ‖y‖ (relative error < 1e−13, never overflows). Avg with a
// Matérn base is the M-node trapezoidal rule in the relative angle,
// M = DefaultQuadrature = 256 unless Options.Quadrature says otherwise:
// the average over the cyclic subgroup C_M, so exactly invariant and PSD.
// Its worst-case error at M = 256 over radii in [0, 10ℓ] is below
// 2e−4·v (matern12), 2e−6·v (matern32) and 5e−8·v (matern52), the bounds
// TestRotationQuadrature asserts (it logs the measured errors, recorded
// in docs/performance.md, "The rotation average's quadrature").
//
// Other continuous groups use their closed-form orbit distance for Max
// (scaling: exact). Avg over scaling (any orbit.Segmenter) is by default
// the exact double average over the orbits in log c,
// v/(L_x·L_y)·∫∫ κ(‖e^s·x − e^t·y‖/ℓ) ds dt (Method Closed): a series with
// a rigorous tail bound for RBF pairs near the origin, else a closed-form
// inner integral and adaptive Gauss–Kronrod to 1e−13 relative
// (scalingexact.go). It agrees with two independent references within
// 1e−12 relative, is symmetric bit for bit and PSD to rounding, and its
// gradient is analytic. That holds for ℓ ≥ 2e−4·S, S the pair's orbit
// scale (see Errors): the quadrature's relative error grows like
// 1e−16·S/ℓ (its chord distances are rounded to ε·‖c·x‖ against a peak
// ~ℓ/‖c·x‖ wide), and pairs below that limit are refused.
// Options.Quadrature > 0 selects instead a Gauss–Legendre rule with that
// many nodes per orbit (Method Enumerate; DefaultQuadratureGauss = 32),
// m² base-kernel evaluations per pair, PSD
// for any m; for small ℓ on long orbits it does not converge. Other
// non-isometric groups use orbit.Discretizer nodes,
// DefaultQuadratureDouble = 64 per orbit. Method() reports the path
// taken: Closed, Enumerate (finite groups) or Quadrature (nodes of a
// continuous orbit), never Auto.
//
// # Cost
//
// GramTo makes n(n−1)/2 pair evaluations plus n diagonal ones; CrossTo of
// n×m makes n·m. A pair costs O(|G|·d) when enumerating, O(d) or
// O(d log d) through a canonical map, O(d² + 2^d·d) for avg's permanents,
// O(d + T) on the scaling series route (T ≲ λ + 9√λ + 40, λ = (max
// ‖c·x‖/ℓ)²) and about 100–300 integrand evaluations of O(d) on its
// quadrature route. A group on k of the d coordinates costs its own
// closed form on R^k plus O(d). GradTo costs about as much as CrossTo
// where it is analytic, 2d CrossTo rows where it is not. Peak scratch for
// enumeration is about Workers·|G|·(d + 2) float64s.
//
// Measured: docs/performance.md.
//
// # Allocation
//
// After warm-up CrossTo, GramTo, DiagTo and GradTo allocate nothing when
// they run serially, which they do below an estimated work of serialWork
// (2^16 pair × prepared-length units; e.g. one point against 55 rows) or
// with one worker: internal scratch comes from size-classed sync.Pools
// and never reaches callers. Above the threshold, starting the workers
// allocates O(Workers) small objects per call. Plus multiplies single
// query rows itself; products of several rows go to the backend's Gemm,
// which may allocate.
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
// the factored form is slower), and for Matérn bases, which are not
// products over coordinates. The factored and the enumerated k_avg agree
// within 1e−12·v for finite groups and rotation2d.
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
// ascent. Grad's differences and Gram's CrossTo path (a kernel without
// GramTo) check the points themselves, once per call, so a caller's
// kernel whose CrossTo does not check them still gets ErrBadPoints, not
// NaN, for a NaN or ±Inf coordinate.
//
// Preparer (Base, Avg, Max): Prepare validates and prepares fixed points
// y once (O(m·d), or m feature rows of a closed form) and
// CrossPreparedTo(dst, x, p) is CrossTo(dst, x, y) bit for bit without
// that work per call — a GP's prediction against its training inputs.
// Where CrossTo does not prepare y as a whole (enumerated k_avg, the
// normalized average) it is CrossTo's own path.
//
// CrossDiagPreparer (Avg): CrossDiagPreparedTo(dst, diag, x, p) is
// CrossPreparedTo(dst, x, p) then DiagTo(diag, x), the same bits and
// errors. Where the enumerated k_avg crosses x against more prepared
// points than x has rows, it enumerates the orbit of each x_i (the
// symmetric order, query.go), and k(x_i, x_i) is one more column of |G|
// terms against that orbit instead of a second enumeration: per query
// point, O(|G|·d) of orbit writes saved. Elsewhere it is the two calls.
//
// GradPreparer (Avg): for the enumerated k_avg, the first
// GradPreparedTo(dst, x, p) keeps the orbits of y in p (m·|G|·d floats,
// as enumerated and packed; at most MaxPreparedOrbits and a quarter of
// Options.Budget, else none), and GradPreparedTo is GradTo(dst, x, y)
// bit for bit without enumerating them per call: per point, O(|G|·d) for the distances and
// the sum and |G| exponentials, where GradTo also enumerates the orbit —
// a GP's acquisition ascent against its training inputs. Over a group
// on some coordinates with a closed form (RBF's factored k_avg), it
// takes the inner prepared points from p instead of preparing them per
// call. Elsewhere it is GradTo's own path.
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
//     of the Gram's upper triangle — for avg's permanents, per block of
//     whole rows of about 512 pairs (triPairs, a constant), serially below
//     2048 pairs — or per tile of a fixed 256 columns of a CrossTo row)
//     and every entry is computed by the same sequence of operations
//     whatever the tiling.
//   - Inputs are never modified; an empty dst is resized, a nil one is an
//     error wrapping ErrNilArgument and a non-empty one of the wrong size
//     one wrapping ErrDstShape (both decided in O(1), after the points
//     are checked and before any work). Kernels come from their
//     constructors: the zero value of a kernel type (Plus{},
//     OrbitDist{}, …) or a nil pointer to one is not one, and calling its
//     methods is a programmer bug, with no result promised (some panic,
//     as gonum's methods on a nil receiver do; Base{}, Max{} and Avg{}
//     refuse every point as ErrBadPoints, since their dimension is 0).
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
//     coordinates with x/ℓ overflowing are refused (ErrBadPoints). A
//     value or gradient that still leaves float64's range (a gradient
//     v·κ'(r)/r·(y − x)/ℓ² of a large v over a small ℓ, or points whose
//     difference overflows) is ErrBadPoints, for every kernel's GradTo
//     and every orbit kernel's CrossTo and GramTo, never a NaN or an
//     infinity with a nil error.
//   - Plus and every PSD projection in symbo keep the eigenvalues
//     λ > tol·λ_max (Truncate; tol = n·2⁻⁵² by default); ProjectTo forms
//     K₊ = Q·diag(λ kept)·Qᵀ exactly as gp's plus family does.
//
// # Concurrency
//
// Kernels are immutable after construction, but for internal caches that
// never change a result, and safe for concurrent use: the normalized
// Avg's diagonal cache (an atomically swapped immutable snapshot), the
// exact scaling average's moment cache (a table of immutable entries
// published atomically), Plus's and the package's scratch pools
// (sync.Pool), and a Prepared's orbits, computed once (sync.Once) by the
// first GradPreparedTo whichever goroutine calls it; a Prepared is as
// shareable as its kernel.
// Assembly runs on Options.Workers goroutines (0 = GOMAXPROCS; Base, which
// takes no Options, uses GOMAXPROCS, and Plus its Max's Workers for the
// k_max rows and GOMAXPROCS for its backend's products), serially below
// the work threshold (see Allocation). Peak scratch for enumeration is
// about Workers·|G|·(d + 2) float64s.
//
// # Errors
//
// Constructors fail on a non-positive or non-finite variance, a
// lengthscale outside [MinLengthscale, MaxLengthscale], an unknown shape or
// method, a dimension below 1, a group the kernel cannot evaluate
// (ErrInvalid), a Quadrature, Workers, Budget or Method out of range
// (ErrBadOptions), Method Closed without a closed form
// (ErrNoClosedForm), a group too large for the enumeration budget (wraps
// orbit.ErrOverBudget) or whose order overflows int (orbit.ErrTooLarge),
// an orbit.Embedded group whose declared inner group is nil or whose
// coordinates are not its dimension's distinct indices in [0, d) (a
// caller's own type; wraps orbit.ErrInvalid),
// and, for NewPlus, a nil k_max or an invalid RelTol (ErrInvalid), a
// design set the methods would refuse as points — empty, of another
// dimension, with a NaN, infinite or too large coordinate (ErrBadPoints)
// —, a spectrum of k_max(D, D) whose largest eigenvalue is not
// positive and finite (ErrSpectrum: e.g. a variance near the float64
// maximum), and Options.Normalize for NewMax (ErrInvalid, not
// ErrBadOptions). Methods fail (ErrBadPoints)
// on empty inputs, a dimension mismatch, NaN or infinite coordinates and
// coordinates too large for ℓ (checked once per call on the inputs, before
// any pair; Grad and Gram check a caller's kernel's points too, see
// Gradients), and (wrapping orbit.ErrOverBudget) on an
// empty dst whose output would exceed the kernel's memory budget
// (Options.Budget; orbit.DefaultBudget for Base and when 0: a value the
// caller passes, never read from the environment); the normalized
// k_avg also fails if some k_avg(x, x) underflows to 0 (ErrBadPoints:
// k_avg(x, x) ≥ v/|G| for finite groups and the quadratures, which
// underflows only for a variance near the float64 minimum — signflip(2)
// at v = 5e−324 —, while rotation2d's closed form falls like
// v·ℓ/‖x‖, 0 at v = 1e−300 and ℓ = 1e−150); and the exact scaling
// k_avg (Method Closed) fails (ErrBadPoints, through CrossTo, GramTo,
// DiagTo and GradTo) on a pair whose lengthscale is below what its
// quadrature resolves,
//
//	ℓ < 2e−4·max(S_x, S_y),  S_x = A·B·‖x‖·ln(B/A)/(B − A) for C(x) = [A, B]
//
// (A·‖x‖ for a single scaling; A·‖x‖ ≤ S_x ≤ ‖B·x‖ ≤ ‖hi‖ for x in the
// box; pairs of two single scalings, κ at one distance, are exempt),
// unless the pair is 0 anyway (κ at the orbit distance less its rounding
// underflows). Its chord distances carry a rounding of ε·‖c·x‖ against an
// integrand peak ℓ/‖c·x‖ wide, so the relative error grows like
// 1e−16·S/ℓ and passes 1e−12 near ℓ = 1e−4·S: at x = (0.5, 1.5) on the
// box [0.1, 10]² k(x, x) was 1.3e−2 off at ℓ = 1e−15, negative at 1e−17,
// 0 from 1e−18. gp's fits keep ℓ ≥ 1e−3·s (s the diagonal of the data's
// bounding box), so they reach the limit only on data with s < 0.2·‖hi‖.
// The functions without an error result take no points but distances:
// Params.Kappa and KappaDLog give 0 at r = +Inf and NaN for a NaN r;
// KappaU2To likewise (see its doc).
// A nil *mat.Dense dst is an error wrapping ErrNilArgument, a non-empty
// dst of the wrong shape or length (OrbitDist.ColumnTo's and ProjectTo's
// included) one wrapping ErrDstShape, in every method and function that
// writes one with an error result; a []float64 dst (OrbitDist.ColumnTo's)
// has a length and no other state, so a nil one is one of length 0:
// ErrDstShape where that is the wrong length.
// Errors are prefixed "kernel: ". The sentinels are input errors
// (internal/errclass: each has ErrClass).
package kernel
