// Package bo implements symbo's ask/tell Bayesian optimizer: GP-UCB or
// expected improvement over a GP whose covariance is the base kernel, the
// orbit average, the max kernel or its PSD projection (or a covariance of
// the caller's own), with a bounded quasi-Newton acquisition optimizer, and
// Run, the driver of a whole experiment. The paper's benchmark problems
// live in the subpackage bo/problem.
//
//	g, _ := orbit.Hyperoctahedral(5)
//	cfg, err := bo.Recommended(g, kernel.Matern52)
//	cfg.Minimize = true
//	opt, err := bo.New(lo, hi, cfg, seed)
//	for range budget {
//		x, err := opt.Ask()
//		err = opt.Tell(x, blackBox(x))
//	}
//	x, y, ok := opt.Best()
//
// # Kernels
//
//   - Base is k_b. Avg is k_avg; AvgNorm the normalized average. Their
//     cost per pair of points is one to a few base-kernel evaluations
//     where k_avg has a closed form (RBF over sign flips, rotations, and
//     permutations or signed permutations of m ≤ kernel.MaxPermanentDim
//     coordinates, a permanent: 2^m evaluations' worth), else |G|: k_avg
//     is enumerated (every Matérn shape over every finite group; RBF
//     over the block, cyclic and paired groups), a Gram on n points
//     costs n(n+1)/2·|G| base-kernel evaluations of O(d) each, and a
//     step grows linearly in |G|. New refuses an enumerated avg or
//     avgnorm over more than AvgEnumerateLimit (8192) elements with
//     ErrBadConfig, naming |G| and the alternatives (plus, soft, auto,
//     portfolio; RBF where its average has a closed form). Over a
//     continuous group with no closed form k_avg is a quadrature, never
//     refused by that limit: M = 256 nodes per pair over rotation2d with
//     a Matérn shape, an adaptive Gauss–Kronrod double integral over a
//     scaling group (see kernel's package doc).
//   - Nystrom is k_b Nyström-extended from the observed points: k_plus
//     over the trivial group, the Nyström half of k_plus without its
//     invariance. It reproduces k_b's Gram on the observations (up to the
//     eigenvalues below numerical rank), so at the same hyperparameters
//     its GP has Base's likelihood and posterior mean; its variance is
//     Base's less the residual k_b(x, x) − k_ny(x, x), 0 at the
//     observations and most of Base's far from them, so an acquisition on
//     it explores less (gp's TestNystromIsBaseLessResidual). With
//     Protocol.ResidualVariance the residual is added back: Nystrom is
//     then Base's GP, and Plus and Soft have k_max's prior variance far
//     from the data.
//   - Plus is k_plus with the observed points as its design set.
//   - Max is k_max used directly as the covariance. It is accepted only
//     where it is provably PSD: groups with a canonical map φ
//     (orbit.Canonicalizer: sign flips |x|, permutations sort(x), signed
//     permutations sort(|x|), planar rotations ‖x‖, the trivial group;
//     scalingdir's direction map, symbo's own case beyond the paper; and
//     any of them on some coordinates, orbit.OnCoords), where k_max(x, y)
//     = k_b(φ(x), φ(y)) for every isotropic non-increasing base kernel
//     (the paper's Proposition 1). Elsewhere New fails with ErrMaxNotPSD.
//   - Custom wraps any gp.Family (gp.FamilyOf turns a kernel.Kernel
//     constructor into one): a covariance of the caller's own. Its kernels
//     need no gradient (the ascent then differentiates them numerically),
//     and the group declared with it defines the orbits excluded.
//   - Soft is (1 − SoftShare)·k_plus + SoftShare·k_nystrom on the observed
//     points at one lengthscale: an invariant function plus a smaller
//     non-invariant one, so the data can overrule a wrong group. It is not
//     invariant, and it is exact at every n (Config.Landmarks does not
//     apply).
//   - Auto fits each of its candidates (nystrom, avg, plus, or those
//     AutoOf names) at every step and predicts with the one of highest log
//     marginal likelihood, the last favoured by the log prior odds AutoOdds
//     (or each candidate AutoFavouring names after the others). A step
//     costs the sum of the candidates' fits plus one acquisition.
//   - Portfolio fits the same candidates, lets each propose its
//     acquisition maximizer and returns the proposal with the highest
//     posterior mean under Auto's choice. The exception, with avg among
//     the candidates, is one fixed-point probe: avg's proposal on the
//     group's fixed-point set, evaluated once while no point there is
//     observed (with DecideOptions.ProbeWindow, only in the first BO
//     steps; DecideOptions.Probe: always, only where the referee's own
//     acquisition rates it as high as the chosen proposal, or never). A
//     step costs Auto's fits plus one
//     acquisition per candidate. With DecideOptions.Hedge every
//     candidate proposes twice — the maximizers of Config.Acquisition
//     and of HedgeAcquisition (EI beside UCB: a portfolio of
//     acquisitions as well as of kernels), on the same raw samples, the
//     second from DecideOptions.HedgeStarts ascents — and the referee's
//     mean picks among all of them (Diagnostics.Hedged names the half).
//     DecideOptions.CandidateStarts cuts the searches of the candidates
//     other than the referee to that many ascents (the referee keeps
//     Config.Starts, but not under DecideOptions.Afford where an avg
//     or avgnorm candidate fitted; avg and avgnorm then score a prefix
//     of the raw samples: Diagnostics.CutStarts). DecideOptions.CandidateFit =
//     CandidateFitAnchored fits the last candidate (plus) first and the
//     others only around its lengthscale (gp.FitOptions.Around), with
//     about half their likelihood evaluations; CandidateFitOwn, each its
//     own search, is the zero value. Soft, as a candidate, sits out the
//     steps above Config.Landmarks observations. With more than one worker
//     the candidates' fits run concurrently (the same bits).
//
// Every built-in kernel but Soft is exact up to Config.Landmarks
// observations and uses landmarks beyond (below). Over a group with a
// canonical map, Max, Plus and Soft predict in canonical coordinates.
// Recommended's kernel is RecommendedKernel: PortfolioFavouring(g, shape,
// [nystrom], [soft, plus]) with CandidateFitAnchored, hedged with
// DefaultHedgeStarts ascents, DefaultCandidateStarts ascents for the
// candidates other than the referee (and, for a kernel with avg set on
// top, DefaultProbeWindow and ProbeEarned). ParseRecommended names
// another kernel with those options (what the front ends build for a
// kernel a user names); ParseKernel's has the paper's.
//
// At every acquisition step the signal variance, lengthscale and noise are
// fitted by gp.Fit to all observations (Config.FitMode: each kernel on its
// own likelihood, the paper's default, or the base kernel's reused, as the
// authors' code does; Config.Prior: the plain likelihood or BoTorch's
// classic priors; Config.Mean: the sample mean of the observations as the
// prior mean, the default and the paper's protocol, or a constant fitted
// by maximum likelihood as BoTorch's SingleTaskGP fits its ConstantMean,
// gp.MeanConstant). For Max and Plus over a group with a canonical map, the
// fitted posterior is rebuilt on φ(X) (the base kernel for Max, k_plus
// over the trivial group for Plus): the same posterior, predicted with one
// base-kernel evaluation per observation instead of an orbit enumeration,
// the gradient chained through the Jacobian of φ (not for a landmark GP,
// which predicts at x itself: its landmarks are chosen in the original
// coordinates).
//
// # Landmarks
//
// Config.Landmarks (default DefaultLandmarks = 256) caps the exact GP of
// every built-in kernel but Soft, which has no landmark form: alone it is
// exact at any n, and a deciding kernel leaves it out above the cap. While the observations and pending points number
// at most the cap, the GP is exact: for Plus and Nystrom the design is all
// of them, the paper's k_plus bit for bit, so its protocol (55
// evaluations) is unchanged. Beyond it the GP is a GP on the cap's number
// of landmarks chosen among the points by a greedy pivoted Cholesky of the
// kernel's Gram (the point the landmarks so far explain worst, ties to the
// earliest observation), of rank at most the cap plus noise: for Plus and
// Nystrom gp.NewLandmarkPlusFamily's (the landmarks are k_plus's design),
// for Base, Max, Avg and AvgNorm gp.NewLandmarkFamily's DTC approximation
// of the kernel's own GP (the mean of the low-rank model, its variance plus
// the prior variance the landmarks miss, so exploration far from the data
// is the exact GP's). Config.LandmarkFit says how the hyperparameters are
// then fitted: by default Plus and Nystrom on the landmark model's
// likelihood (the landmarks chosen anew for every lengthscale tried, on
// at most max(4·m, 1024) of the observations, O(min(n, max(4m, 1024))·m²)
// each), the
// others on the exact likelihood of m of the observations (evenly spaced
// in the order told, indices ⌊t·n/m⌋; O(m³) each whatever n); either rule, or the landmark likelihood on
// every observation (gp.LandmarkFitFull, O(n·m²) each), for every kernel. A prediction costs O(m) kernel evaluations instead of
// O(n). The landmarks and the subset are functions of the points alone, so
// the next point is still a function of (configuration, seed,
// observations, pending and failed points). A new built-in kernel gets the same path
// by building its family through famEnv.landmarked, as long as its kernel
// does not depend on the observations. Negative Landmarks keeps every GP
// exact. Custom kernels are never capped (their family's kernel may depend
// on the observations), nor is Soft (no landmark form yet).
//
// # Acquisition
//
// UCB is α(x) = μ(x) + √β·σ(x), σ² the latent posterior variance. With
// BetaPaper (default) β_t = 0.5·d·log t where t = n − Init + 1 counts the
// acquisition steps (n = observations so far, pending and failed points
// counted too), so β_1 = 0; BetaAuthors is
// the authors' code, β = 0.5·d·log(2n); Protocol.BetaScale multiplies
// either (Recommended: DefaultBetaScale, a quarter). EI is the expected improvement over
// the best observed value. Both are evaluated on the GP's standardized
// output scale, a positive affine image of the scale of y with the same
// maximizers: proposals do not change (up to rounding) when y is scaled or
// shifted, and nothing overflows for any finite y. The GP models sign·y,
// sign = −1 with Config.Minimize. The acquisition sees the fitted GP only
// through gp.Posterior. Diagnostics reports, after each Ask, the fitted
// hyperparameters, β, the acquisition value and the fit and acquisition
// times (what Run records in an Evaluation).
//
// The acquisition optimizer scores RawSamples points of a scrambled Halton
// sequence (scrambling seeded from (seed, n); no point is special — in
// particular not the box centre, a fixed point of the groups and the
// optimum of several benchmarks) and the best observed point; the best
// Starts of them start a projected L-BFGS ascent of at most MaxIter
// iterations with an analytic gradient. Every iterate is clamped into the
// box. Starts run on Workers goroutines writing owned slots; the best end
// point wins, ties to the better-ranked start.
//
// # Units
//
// With Config.Normalize (set by Recommended, so by every front end) the
// user's units do not matter: the model works in coordinates
// u_k = (x_k − c_k)/s_k, one affine map per coordinate chosen from the box
// and the kernel's group so that the group commutes with it and acts on u
// exactly as on x (orbit.CoordinateMaps). Coordinates the group mixes
// (permutes among themselves, or rotates together) share one map. A class
// the group only permutes, or leaves alone (coordinates outside an
// OnCoords group's coords, every coordinate of the trivial group or of a
// kernel without a group), gets the centre and half-width of the union of
// its sides: they map into [−1, 1]. A class the group flips or rotates
// keeps centre 0, the group's fixed point, and is scaled by its largest
// |bound|. A group that does not say (no orbit.CoordinateMapper) gets one
// common scale about 0 if it is finite (orthogonal linear maps commute
// with it), none otherwise; the scaling groups' coordinates are never
// mapped (their orbits are taken in their own box); a class whose scale
// would be subnormal keeps the identity.
//
// Normalized: the kernel and its group, the GP fit and its priors (the
// lengthscale prior is on ℓ over the normalized box's largest side, about
// 2), the initial design (uniform in the normalized box, the same
// distribution), the raw samples and the ascents' box, the exclusion
// radius, the fixed-point probe, landmarks and canonical maps, and
// Diagnostics.Hyper's lengthscale. In the user's units: every point a
// caller gives or gets — Tell, AddPending, Fail, Cancel, Record, Restore,
// Near, Ask, AskBatch, Pending, Failed, Best, History — and y. Ask maps its
// point back, c + s·u, clamped into the box; a point told is mapped in
// anew, so an optimizer rebuilt from its History proposes the same bits.
// Contract: the same problem written in two unit systems x' = a·x + b (a
// and b of the form the group allows, as above) proposes the same points
// up to the change of units — to the last bit, over a whole run, when the
// change is exact in floating point (a power-of-two scale, no shift);
// else, from the same history, up to the rounding of x' itself, which the
// fits' and ascents' stopping rules can grow to 1e-6 of the box's
// diagonal (1e-5 with ARD, whose class lengthscales carry their own fit's
// rounding; TestNormalizeUnits, TestNormalizeUnitsGeneral). Over a run the two
// histories then differ by those roundings, and where the acquisition
// nearly ties — between two members of one orbit, or two maxima — the
// rounding can decide differently: from there on they are two runs of
// the same method, whose proposals drift apart (far apart where a
// non-invariant candidate, nystrom or soft, then fits a different model). Without
// Normalize (the zero Config: perf bo, perf table) the model works on x
// itself, bit for bit as before the setting. Normalization makes the
// sides comparable, not the coordinates' relevance; that is ARD's.
//
// # Lengthscales per class
//
// With Protocol.ARD (set by Recommended) each class of coordinates the
// group allows has its own lengthscale: the coordinates it permutes or
// rotates together share one (they must, for the kernel to stay
// invariant), and a coordinate it only flips, or leaves alone, has its
// own; base and nystrom named over a group (ParseKernel) take that
// group's classes. Every step first fits the base kernel with one
// lengthscale per class to the observations (gp.FitClassLengthscales,
// MAP with the fit's prior on each class's lengthscale; on canonical
// coordinates φ(u) where the group's canonical map follows the classes,
// so that the fit models the invariant objective, k_max with a
// lengthscale per class). Class c's coordinates are then scaled by
// ℓ_min/ℓ_c, ℓ_min the shortest, and every candidate fits its own one
// lengthscale, as without ARD, on the scaled coordinates, where it is
// conditioned and evaluated (the acquisition chains its gradient through
// the scaling). The scaling is constant on each class, so the group
// commutes with it and every kernel of the scaled coordinates — avg with
// its closed forms and permanents, max, plus, soft, the landmark GPs — is
// the kernel with a lengthscale per class, as invariant as before
// (TestARDInvariantAndGradient; internal/refgen's ARD cases check avg,
// max and plus against their definitions). The search, the exclusion
// radius, the probe and the initial design stay in the model's
// coordinates u. Diagnostics.Hyper.Lengthscales gives the lengthscale
// along each coordinate. Nothing changes with one class (a group that
// mixes every coordinate, as on the paper's problems), for a custom
// kernel, or over a scaling group.
//
// # Parallel evaluations
//
// Ask may be called while earlier points are pending (asked, not told; or
// added with AddPending after a restart or by another process), and
// AskBatch(q) is q successive Asks. Pending points are handled by the
// constant liar (Ginsbourger, Le Riche and Carraro, 2010): each is told,
// for the acquisition only, the mean of the values observed so far
// ("CL-mean"), and the GP's hyperparameters stay those fitted to the real
// observations. It costs one extra conditioning per pending point, is
// deterministic, and, told through an invariant kernel, removes the
// exploration bonus on the whole orbit of a pending point (why this rule:
// docs/design.md). Config.Liar = LiarWorst tells the worst value instead
// ("CL-min", symbo's first choice), which pulls the model down around
// every pending point, the optimum's neighbourhood included.
//
// The lie only lowers the acquisition near a pending point; an exclusion
// radius makes avoiding it a guarantee (below): no point within it of a
// pending point's orbit is proposed, so a batch never holds two points of
// one orbit.
//
// # The exclusion radius
//
// A point x is within the exclusion radius of the orbit of a point p when
//
//	d_G(x, p) = min over g in G of ‖x − g·p‖₂ ≤ r,   r = 10⁻³·‖hi − lo‖₂,
//
// distances taken in the coordinates the kernel sees — the box's own
// coordinates, [lo, hi], or with Config.Normalize the normalized ones
// (see Units: the box's image, about [−1, 1]^d) — and r a thousandth of
// that box's diagonal. G is
// the kernel's group (Custom's declared group included; the trivial group,
// so d_G(x, p) = ‖x − p‖₂, for Base and Nystrom and kernels without one);
// d_G is computed through the group's closed-form distance or canonical
// map, by enumeration for other finite groups of at most 2¹⁶ elements,
// and as ‖x − p‖₂ for larger groups without either. Under a scaling
// group with Config.ExcludeObserved, whose orbit of p is the segment
// {c·p : c ∈ C(p)} of its ray in the box, d_G(x, p) is the distance from
// x to that segment (clamped projection, O(d)): not the distance between
// the two orbits, which all nearly meet at the box's lower corner, so that
// a few dozen observations would exclude the whole box. Without
// ExcludeObserved (the paper's protocol) it stays the distance between
// the orbits, as the committed records were made. A distance or radius
// that overflows float64 (a box near ±MaxFloat64) counts as far. A
// proposal is tested as the optimizer will hold it once told: the image
// of the point Ask returns, rounded to the user's coordinates — on a box
// whose sides are tiny beside its coordinates that rounding is a sizeable
// part of r.
//
// Excluded orbits: those of the pending and failed points always, and of
// the observed points with Config.ExcludeObserved (the front ends'
// default; without it a BO step may return to an observed point, as the
// paper's protocol and perf bo/table do). The initial design skips any
// point within r of an observed, pending or failed orbit. A BO step takes
// the best ascent end off the excluded orbits, else the best-scored raw
// sample off them (the acquisition's maximizer may sit on an observed
// point: one of the ascents starts there); when every ascent end and raw
// sample is excluded or has a non-finite acquisition, Ask returns
// ErrSpaceExhausted (an input error). That is the verdict of the step's
// search, not a proof that the study covers the box at radius r: the
// step searches only its Config.RawSamples raw samples (scrambled Halton
// points of stream (seed, n), n the observed, pending and failed points),
// the best observed point and the ends of the ascents from the best of
// them (with Config.StepAside, the points beside those ends). Points that
// cover the box at radius r exhaust every step; a small RawSamples can
// exhaust one early, on a box they are far from covering — with
// RawSamples 1 in d = 1, a raw sample near an observed point and ascents
// that end on observed orbits (as around a best point the study has
// refined) are enough. Asking again with the same points gives the same
// verdict; a larger RawSamples searches more of the box.
// A portfolio searches so for every candidate (twice with
// DecideOptions.Hedge): a search that is exhausted proposes nothing, the
// referee chooses among the others' proposals, and Ask returns
// ErrSpaceExhausted only when no search proposes.
//
// With Config.StepAside (Recommended sets it), where an ascent end ranked
// above every end off the excluded orbits lies on an observed point's
// excluded orbit (not a pending or failed point's), the best by the
// acquisition's value of the 2·d points x ± ρ·e_k beside it (ρ just
// above r, or 2ρ where ρ is still excluded; each clamped into the box and
// off every excluded orbit) competes with that next end: where the model
// rates an observed point highest — typically the optimum found — the
// step refines beside it rather than jumping to the next local maximum
// of the acquisition, which may lie anywhere (Diagnostics.Aside).
//
// While nothing has been observed — the start of a parallel study, where
// many workers ask before any result, or a study whose first evaluations
// all fail — Ask keeps drawing points of the uniform initial design, past
// Init if need be, each off the orbits of the points already handed out
// (observed, pending or failed).
//
// # Failed evaluations
//
// Fail(x) reports that the evaluation of x failed (it crashed, timed out
// or returned no usable value). We treat a failed point as a pending
// point that never returns: it is excluded, with its orbit, from every
// later proposal (the exclusion radius above), and it is told the mean of
// the observed values for the acquisition only (the constant liar), so the
// exploration bonus vanishes around it and the optimizer does not return
// to explore a region that fails. It is deliberately not told the worst
// value (SMAC's "crash cost"): when failures lie near the optimum, the
// worst value makes the model shun the optimum's neighbourhood. The
// hyperparameters stay fitted to the real observations alone: a failure
// says nothing about f's scale or smoothness. We chose this over
// modelling feasibility with a second (classification) GP because it is
// deterministic, costs one
// conditioning per failed point, and needs no assumption on how failures
// are spread; a region that fails everywhere is still probed at a few
// points, each on a new orbit, until the failed orbits cover the box (or
// every point a step searches) and Ask returns ErrSpaceExhausted. Failed points count towards
// MaxEvaluations and are kept in History (version 2; version 1 histories,
// which have none, are still read).
//
// An observation supersedes a failure, in either order: Tell(x) ends every
// pending and failed copy of x, and Fail(x) of an observed x records no
// failure (it only ends a pending copy), so no point is both observed and
// failed. A point may be both pending and failed (retried after it
// failed), and Restore and Record keep it so.
//
// # Run protocol
//
// Run: Init uniform random initial points (point i from stream (seed, i)),
// then RunOptions.Iters acquisition steps, in rounds of RunOptions.Batch
// points asked together. The value told is y = f(x) + ε, ε ~ N(0, σ²)
// drawn from stream (seed, i) for evaluation i, σ² by RunOptions.Noise:
// the problem's NoiseVariance (the default), 2% of the variance of f over
// the run's initial design, or a fixed value; regret (f − f* minimizing,
// f* − f maximizing) is measured on the noiseless f. The Trace records every
// evaluation with its fitted hyperparameters, β, acquisition value and
// timings (JSON field names are stable; see Trace and Evaluation).
//
// # History, resuming and persistence
//
// An Optimizer's next point is a function of its configuration, seed,
// observations (in order), pending points and failed points: no state carries over from one Ask to the next
// — no warm start — so telling all observations and then asking gives the
// same point as interleaving Ask and Tell, and an optimizer rebuilt with
// New and Restore(History()) proposes the bit-identical point the original
// would. History's JSON form is versioned (HistoryVersion). Run calls
// RunOptions.OnEvaluation after every evaluation (a caller persists it
// there) and resumes from RunOptions.Resume, a prefix of an earlier run's
// evaluations, to the trace an uninterrupted run gives, timings aside; a
// cancelled context stops it between evaluations.
//
// # Invariants
//
//   - Ask returns points inside the closed box [lo, hi]; Tell accepts only
//     such points and finite y (any magnitude).
//   - Deterministic: every random choice derives from (seed, stream,
//     index); the same inputs give the same bits for any GOMAXPROCS and
//     Workers (timings aside).
//   - With an invariant kernel the acquisition is invariant: α(g·x) = α(x).
//   - Inputs are never modified; Ask returns fresh slices.
//
// # Concurrency
//
// An Optimizer is not safe for concurrent use; Ask parallelizes the raw
// sample scoring and the starts internally over Config.Workers goroutines
// (0 = GOMAXPROCS). Run is safe to call concurrently with different
// problems or seeds; a Problem (or a Custom kernel's family) shared by
// concurrent Runs must itself be safe for concurrent use, as bo/problem's
// benchmarks are.
//
// # Errors
//
// Errors start with "bo: " and wrap ErrUnknownKernel, ErrMaxNotPSD,
// ErrBadConfig (bad settings, caps exceeded such as AvgEnumerateLimit, nil or typed-nil groups,
// problems and Custom families, a zero Optimizer), ErrBadPoint, ErrBadValue, ErrHistory (with
// a *PointError naming a refused point of a History) or ErrSpaceExhausted
// (an Ask with every point it searched on an excluded orbit — a pending or
// failed point's, or with Config.ExcludeObserved an observed one's:
// points that cover the box, or, with a small Config.RawSamples, just the
// points searched; for a portfolio, every candidate's search) where they apply (test with errors.Is; all
// seven are input errors, internal/errclass), or the gp error of a failed fit (a GP or kernel
// request over Config.Budget wraps orbit.ErrOverBudget; the budget is the
// caller's value, 0 meaning orbit.DefaultBudget, never read from the
// environment). What the configuration alone dooms — a box whose
// arithmetic overflows in the model's coordinates, raw samples or a GP
// on the Init points over the budget — New refuses, before any
// evaluation is spent; the first Ask after the initial design meets only
// what the observations decide. A
// rejected Tell or Restore leaves the optimizer unchanged. Duplicate points
// and constant y are accepted (the GP handles them with noise and jitter).
//
// # Cost
//
// One acquisition step with n observations costs a fit — about 20 profile
// likelihood evaluations (about 10 for a candidate fitted around the
// anchor's lengthscale, CandidateFitAnchored), each an n×n correlation matrix and its
// eigendecomposition (O(n³), plus the Gram for avg: n(n+1)/2 pairs of
// one closed form or |G| enumerated base-kernel evaluations each, see
// AvgEnumerateLimit; with landmarks either
// that of an exact GP on m points, O(m³), then once the selection, a thin
// QR and two m×m eigendecompositions, O(n·m² + m³) — or, fitting on the
// landmark likelihood, the latter at every lengthscale) —
// and the acquisition: RawSamples + Starts·(ascent evaluations)
// predictions of O(n) kernel evaluations and O(n²) triangular solves each
// (k_plus: O(n·r) with the feature form, r ≤ n; with landmarks O(m)
// kernel evaluations and O(m·r + r²)); a custom kernel without gradients
// adds 2d kernel rows per gradient. With Protocol.ARD and C ≥ 2 classes
// the step adds the class fit: O(d·m²) to bind (the classes' squared
// distances over m = min(n, 256, √(2²²/C)) of the observations) and O(m³ + C·m²)
// for each of its likelihood evaluations (E of them, plus those of the
// one-lengthscale fit it must beat; the counts measured are in
// docs/performance.md, "Lengthscales per class"), plus O(d)
// per prediction for the scaling — so in d the fit costs
// O(d·m² + E·(m³ + C·m²)), C ≤ d, E its evaluations.
//
// Measured: docs/performance.md (the time of a step), lab/results/README.md
// (regret, and why Recommended's settings).
package bo
