/*
 * symbo.h — the C ABI of symbo, symmetry-aware Bayesian optimization.
 *
 * Build the library from the repository root, and a program against it:
 *
 *     go build -buildmode=c-shared -o libsymbo.so ./capi
 *     gcc -std=c11 -Icapi main.c -o main -L. -lsymbo -Wl,-rpath,"$PWD" -pthread
 *
 * (-Wl,-rpath records where libsymbo.so lives; without it, run the program
 * with LD_LIBRARY_PATH=<that directory>). Include this header, symbo.h:
 * the libsymbo.h that go build writes beside the library is cgo's
 * generated list of Go-typed declarations, not the contract; do not
 * include it (make python deletes it).
 *
 * This header is the contract; its version is SYMBO_ABI_VERSION, and
 * symbo_abi_version() returns the library's: they must be equal.
 *
 * Conventions
 *   - Every function but the three getters returns SYMBO_OK (0) or a
 *     negative error code; then symbo_last_error copies the message of
 *     the calling thread's last failure. Messages are per thread: functions
 *     may be called from several threads at once. A call that succeeds
 *     clears its thread's message (symbo_last_error then returns 0), so
 *     read it before the thread's next call, a symbo_optimizer_free
 *     included; the three getters leave it alone.
 *   - The library never hands the caller memory to free: outputs go into
 *     the caller's buffers, messages are copied out by symbo_last_error,
 *     and symbo_version's string is static.
 *   - Bad input of any kind — settings, names, sizes, points, values, an
 *     unknown or freed handle — is SYMBO_EINVAL, decided before anything
 *     is allocated for it: a settings' dimension d outside [1, 65536], say,
 *     is refused, never attempted. Messages do not name Go packages.
 *   - Matrices are row-major arrays of double owned by the caller, with
 *     explicit lengths; the library reads inputs and writes outputs during
 *     the call only and keeps no pointer afterwards.
 *   - Settings are JSON strings (UTF-8, NUL-terminated; one that is not
 *     valid UTF-8 is SYMBO_EINVAL, as is a history's), parsed strictly:
 *     field names as documented below, case-sensitive; an unknown field or
 *     a field given twice is an error, at every nesting level, and so is
 *     null where a required number goes (it is not 0) and an observation
 *     of a history without its "x" or "y"; null for an optional field
 *     ("variance", "init", "hedge", …) means absent. A settings string
 *     longer than 1 MiB (far above any real one) is
 *     SYMBO_EINVAL, measured before it is copied or read.
 *   - Every failure has one class, decided where the library defines the
 *     error (not per function): bad input, SYMBO_EINVAL; too large for
 *     the memory budget or the output buffer, SYMBO_ESIZE; anything else —
 *     a numerical failure such as a covariance that stays non-positive-
 *     definite, or a bug — SYMBO_EINTERNAL.
 *   - No Go panic crosses the boundary: an internal failure is
 *     SYMBO_EINTERNAL with its message.
 *   - Every function computes in the default floating-point environment
 *     (round to nearest, every exception masked, no flush-to-zero or
 *     denormals-are-zero), whatever the calling thread's (fesetround,
 *     feenableexcept, the FTZ/DAZ bits -ffast-math sets on x86), and
 *     returns with the caller's environment as it was at the call: the
 *     same arguments give the same bits from every thread. The library's
 *     own threads start in the environment of the thread that loads it:
 *     load it (a program linked with it does at start-up; dlopen, import
 *     symbo) from a thread in the default environment.
 *   - The library runs Go's runtime, which does not survive fork(): a
 *     process forked after the library was loaded must not call it (a
 *     call may hang for good); exec first, or load it in the child.
 *   - The memory budget caps the large allocations of a call (input
 *     copies, matrices, orbit buffers, a GP's work matrices), each sized
 *     before it is made; a request over it is SYMBO_ESIZE. It is the
 *     settings' "mem_budget" when given (every settings record below
 *     takes it: a JSON string as "512MiB", "16GiB" or "2e9" bytes — a
 *     decimal number, then optionally a binary unit B, KiB, MiB, GiB,
 *     TiB (in any case), ASCII spaces allowed around them —, a positive
 *     whole number of bytes; anything else, "1GB", "0.5", "0x10", "1_6"
 *     and a JSON number included, is SYMBO_EINVAL), else the environment
 *     variable SYMBO_MEMORY_BUDGET (same syntax), read once at load, else
 *     8 GiB.
 *     A malformed SYMBO_MEMORY_BUDGET makes every call that would use it
 *     (settings without "mem_budget") SYMBO_EINVAL, naming the variable.
 *     An optimizer handle keeps the budget it was created with. Budgets
 *     are per call: nothing a call does changes another's.
 *   - Cost: a call costs the Go computation it runs plus O(L) to parse
 *     its settings (L bytes) and O(r·d) to copy its r rows of d doubles
 *     in and out. symbo_cross is the kernel's cross-covariance or Gram
 *     (Go package kernel: n·m or n(n+1)/2 pair evaluations, each O(d) to
 *     O(|G|·d) by group and method; plus and nystrom add an nd×nd
 *     eigendecomposition, O(nd³)). symbo_suggest builds an optimizer,
 *     records its n observations and np pending points and asks q points:
 *     a fit and an acquisition as in Go package bo (each step O(n³) for
 *     an exact GP, O(n·m² + m³) with m landmarks). On a handle,
 *     symbo_optimizer_ask and _suggest cost one such step per point,
 *     _tell, _fail, _add_pending and _cancel O(d) plus bitwise scans of
 *     the points held, at most O((n + np + nf)·d) (nf failed points);
 *     _history and _restore O((n + np + nf)·d) plus their JSON, _info
 *     O(1).
 */
#ifndef SYMBO_H
#define SYMBO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2: the optimizer handle (symbo_optimizer_*); "variance": 0 refused.
 * 3: "probe_window" 0 means no limit, a negative one is refused.
 * 4: symbo_optimizer_near; settings a group does not use ("block",
 *    "matrices", a kernel matrix's "box"; "coords" with "problem") are
 *    SYMBO_EINVAL, not ignored.
 * 5: symbo_optimizer_info (the kernel's candidates, and those it left out
 *    as too costly over the group).
 * 6: a deciding kernel's "hedge", "probe", "probe_window" or
 *    "candidate_fit" given with a kernel it cannot act on is SYMBO_EINVAL,
 *    not ignored.
 * 7: "landmarks" above 0 given with kernel soft (no landmark form: exact
 *    at any n) is SYMBO_EINVAL, not ignored. */
#define SYMBO_ABI_VERSION 7

enum {
	SYMBO_OK = 0,
	SYMBO_EINVAL = -1,    /* bad input: settings, sizes, values */
	SYMBO_ESIZE = -2,     /* an output buffer too small, or over the memory budget */
	SYMBO_EINTERNAL = -3  /* a failure that is not the input's (numerical, or a bug) */
};

/* The ABI version of the library (compare with SYMBO_ABI_VERSION). */
int symbo_abi_version(void);

/* A static, NUL-terminated version string: "symbo <module version>, abi
 * <SYMBO_ABI_VERSION>" ("symbo (devel), abi 7" when built from a checkout). */
const char *symbo_version(void);

/*
 * Copies the calling thread's last error message (NUL-terminated,
 * truncated to len − 1 bytes, which may cut a UTF-8 character short) into buf
 * and returns its full length in bytes (0 if the thread has no error: none
 * yet, or its last call succeeded), like snprintf; buf = NULL or len = 0
 * writes nothing and asks for the length only. A message holds no NUL
 * byte (one echoed from the input is written \x00).
 * The copy is the caller's; the message stays until the thread's next
 * call other than a getter, and ends with the thread.
 */
size_t symbo_last_error(char *buf, size_t len);

/*
 * Cross-covariance K(x, y), n×m, into out (out_len ≥ n·m doubles).
 *
 * spec: {"group": G, "d": D, "base": B, "lengthscale": L, "variance": V,
 *        "kernel": "base"|"nystrom"|"avg"|"avgnorm"|"max"|"plus",
 *        "method": "auto"|"enumerate"|"closed",
 *        "block": b, "box": [[lo…], [hi…]], "matrices": "file.json",
 *        "coords": [i, …]}
 *   group and its extra fields as in perf gram, d in [1, 65536]; coords
 *   (optional, non-empty) makes the group act on those coordinates only,
 *   as the identity on the others: the group is built for dimension
 *   len(coords), its coordinate j being coords[j];
 *   variance (positive) defaults to 1 when absent, method to auto; box
 *   (scaling and scalingdir only) defaults to [0.1, 10] per coordinate;
 *   "mem_budget": "512MiB" (optional) is the call's memory budget (see
 *   Conventions).
 * x: n×d; y: m×d, or NULL for y = x (then m is ignored and the symmetric
 * assembly runs: an exactly symmetric Gram); design: nd×d for plus and
 * nystrom, or NULL (with nd = 0) for design = x; a design for another
 * kernel, or a NULL out, is SYMBO_EINVAL.
 */
int symbo_cross(const char *spec,
                const double *x, int64_t n,
                const double *y, int64_t m,
                int64_t d,
                const double *design, int64_t nd,
                double *out, int64_t out_len);

/*
 * The next q points to evaluate, q×d into out (out_len ≥ q·d doubles):
 * the same function of (settings, seed, history, pending) as perf suggest.
 * Stateless: the optimizer is rebuilt from the arguments at every call (an
 * optimizer handle, below, keeps it between calls, and records failures;
 * symbo_optimizer_info on a handle made from the same settings says which
 * candidates a deciding kernel left out).
 *
 * settings: {"problem": P} (a benchmark: box, group, base, direction) or
 *           {"group": G, "d": D, "box": [[lo…], [hi…]], "block": b,
 *            "matrices": "file.json", "coords": [i, …]} (your own
 *            black box; d in [1, 1000], box with 1 or d values per
 *            bound, coords as in symbo_cross: a group on some of the
 *            parameters), and any of these, each left out for the
 *            recommended value (Go's bo.Recommended) or the default named
 *            (the same table defines perf suggest's flags and Python's
 *            keywords; perf suggest -h prints it):
 *   "kernel": K        a kernel of symbo_cross, "soft" (0.8·plus +
 *                      0.2·nystrom), "auto" (at every fit the candidate
 *                      of highest evidence), "portfolio" (every candidate
 *                      proposes; the model the evidence picks chooses),
 *                      or "auto:a+b+…" / "portfolio:a+b:c+d" naming the
 *                      candidates (those after the colon favoured);
 *                      absent: portfolio:nystrom:soft+plus. "avg" and
 *                      "avgnorm" alone are SYMBO_EINVAL where their
 *                      average would be enumerated over more than 8192
 *                      group elements (Go's bo.AvgEnumerateLimit: a
 *                      Matérn base over permutation(8), hyperoctahedral(6)
 *                      or a larger group; |G| base-kernel evaluations per
 *                      pair of points)
 *   "base": B          rbf, matern12, matern32, matern52 (absent: the
 *                      problem's, else rbf)
 *   "seed": S          absent 0
 *   "minimize": b      absent false (a problem's own direction; given
 *                      with "problem", it must agree with it)
 *   "init": n          the initial design's size (≥ 1), absent 5
 *   "acq": A           ucb or ei, absent ucb
 *   "beta": R          paper or authors, absent paper
 *   "beta_scale": x    a number in (0, 1e6] that multiplies UCB's β, absent the
 *                      library's recommended (0.25), 1 the rule's own
 *   "fit": F           own or base, absent own
 *   "liar": L          mean or worst (what pending and failed points are
 *                      told), absent mean
 *   "prior": P         botorch or none (the paper's), absent botorch
 *   "mean": M          constant or sample (the paper's), absent constant
 *   "landmarks": M     the landmark cap of every kernel but soft (exact
 *                      at any n): absent or 0 256,
 *                      negative none; M ≥ 1 with kernel soft is
 *                      SYMBO_EINVAL (ABI 7), not ignored (a deciding
 *                      kernel naming soft takes it: soft sits out above
 *                      the cap)
 *   "landmark_fit": F  default, subset, likelihood or full (perf bo -h)
 *   "candidate_fit": F anchored or own: how a deciding kernel's
 *                      candidates fit (perf bo -h), absent anchored
 *   "probe_window": W  the BO steps in which a portfolio's fixed-point
 *                      probe may fire (a portfolio naming avg: the
 *                      default kernel names none, so has no probe): absent 5, 0 no limit (as in Go
 *                      and perf; ABI 3 — ABI 2 read 0 as 5 and a
 *                      negative W as no limit, now refused)
 *   "hedge": S         a portfolio's hedging ascents per candidate: each
 *                      candidate also proposes EI's maximizer beside
 *                      UCB's and the referee's mean picks among every
 *                      proposal; absent the library's recommended (1),
 *                      0 no hedging, at most 10
 *   "probe": P         always, earned or off: when a portfolio's
 *                      fixed-point probe fires (one naming avg; perf bo -h), absent
 *                      the library's recommended
 *   These four act on a deciding kernel only (ABI 6): given with one
 *   they cannot act on, "hedge" S ≥ 1, "probe" earned or "probe_window"
 *   W ≥ 1 with auto or a single kernel, "candidate_fit" anchored with a
 *   single kernel, is SYMBO_EINVAL naming the setting and the kernel, not
 *   ignored; hedge 0, probe always or off, probe_window 0 and
 *   candidate_fit own are taken with every kernel (they ask for nothing
 *   such a kernel lacks), and a portfolio takes the probe settings
 *   whether or not it names avg.
 *   "normalize": b     false fits and searches in the box's raw
 *                      coordinates (perf bo's default); absent true: in
 *                      coordinates normalized by maps the group commutes
 *                      with, so that units do not matter
 *   "ard": b           false fits one lengthscale (perf bo's default);
 *                      absent true: one per class of coordinates the
 *                      group allows (coordinates it mixes share one)
 *   "allow_repeats": b true lets a BO step propose a point within the
 *                      exclusion radius (1e-3 of the box diagonal) of an
 *                      observed point's orbit, as perf bo does; absent
 *                      false: never
 *   "mem_budget": "512MiB" the memory budget of the call, or of every
 *                      call on a handle made from it (see Conventions).
 * hist_x: n×d observed points, hist_y: their n values (n may be 0), each
 * finite (NaN or ±Inf is SYMBO_EINVAL);
 * pending: np×d points handed out and not yet evaluated (np may be 0).
 * symbo_suggest takes no failed points: give the x of an evaluation that
 * failed (crashed, timed out, no usable value) among the pending points,
 * which it passes over with their orbits and tells the liar's value, as
 * it would failed ones (as perf suggest's --failed), or the same point is
 * proposed again; an optimizer handle records it with symbo_optimizer_fail.
 * The rows' order is an input: the liar conditions on them in order, as a
 * handle conditions on its pending points, then on its failed ones. For a
 * handle's next point, list its pending points (symbo_optimizer_pending's
 * order), then its failed points (symbo_optimizer_failed's order): the
 * same bits; another order in general gives other bits. The later points
 * of a batch (q ≥ 2) are not the handle's even so (they differ in their
 * last bits, or by more where the acquisition nearly ties): the handle
 * conditions on the batch's earlier points before its failed ones,
 * symbo_suggest after them. For a whole batch of a study with failed
 * points, use a handle (or perf suggest --failed).
 * n + np ≤ 1000000 (a study's evaluations at most), else SYMBO_EINVAL
 * before anything is copied.
 */
int symbo_suggest(const char *settings,
                  const double *hist_x, const double *hist_y, int64_t n,
                  const double *pending, int64_t np,
                  int64_t d, int64_t q,
                  double *out, int64_t out_len);

/*
 * Optimizer handles (ABI 2)
 *
 * An optimizer handle is an ask/tell optimizer kept by the library (Go's
 * bo.Optimizer) between calls, named by an int64_t id: ids start at 1 and
 * are never reused, 0 is never a handle. A call with an unknown or freed
 * id — a second symbo_optimizer_free included — is SYMBO_EINVAL, never a
 * crash.
 *
 * Thread safety: every function may be called on one handle from several
 * threads at once. Each call holds the handle's lock from start to end, so
 * calls on one handle run one at a time, in some order, each seeing the
 * optimizer as the previous one left it: nothing told is lost, and points
 * asked concurrently are all recorded as pending, so no two of them share
 * an orbit (under an invariant kernel). A long call (an ask fits a GP)
 * makes the others on that handle wait; calls on different handles run in
 * parallel (Go code runs on at most GOMAXPROCS CPUs at once, all of them
 * unless the environment variable says otherwise, whatever the number of
 * calling threads). A call already waiting for the lock when
 * symbo_optimizer_free is called either runs before the free or finds the
 * handle gone (SYMBO_EINVAL), in no set order.
 *
 * The next point is a function of the settings, the seed, the history (the
 * points told, in order), the pending points and the failed points: the
 * same bits as perf suggest given the same study, as an optimizer
 * restored from symbo_optimizer_history's JSON, and as symbo_suggest given
 * the same study — where it has failed points, for the next point only,
 * given them after the pending points (see symbo_suggest).
 *
 * Points are d doubles (d the optimizer's dimension; a call with another
 * length is SYMBO_EINVAL) and must lie in the box with finite coordinates
 * (symbo_optimizer_near's need not lie in the box; symbo_optimizer_cancel
 * takes any point and reports whether it was pending); a refused call
 * changes nothing.
 */

/* A new optimizer from settings (as symbo_suggest's), its id into *handle. */
int symbo_optimizer_new(const char *settings, int64_t *handle);

/* Frees the optimizer (waiting for a call on it in progress); its id is
 * then unknown. */
int symbo_optimizer_free(int64_t handle);

/* The optimizer's dimension d into *d. */
int symbo_optimizer_dim(int64_t handle, int64_t *d);

/* The next point into x (d doubles), recorded as pending. */
int symbo_optimizer_ask(int64_t handle, double *x, int64_t d);

/* The largest q of symbo_optimizer_ask_batch, _suggest and symbo_suggest. */
#define SYMBO_MAX_BATCH 1024

/* The largest dimension d of an optimizer (Go's bo.MaxDim): a larger box
 * is SYMBO_EINVAL. */
#define SYMBO_MAX_DIM 1000

/* The next q points (1 ≤ q ≤ SYMBO_MAX_BATCH) into out (out_len ≥ q·d doubles),
 * recorded as pending: what q successive asks return. All or nothing: on
 * an error no point is recorded. Where the search space runs out after k
 * of the q points (every point left lies within the exclusion radius of
 * an observed, pending, failed or already proposed point's orbit), the
 * call is SYMBO_EINVAL and its message, "search space exhausted: …; only
 * k of the q = Q points could be proposed (…): q = k returns those", says
 * that a batch of k returns them (as perf suggest's does; also from
 * _suggest and symbo_suggest). */
int symbo_optimizer_ask_batch(int64_t handle, int64_t q, double *out, int64_t out_len);

/* The points symbo_optimizer_ask_batch(q) would return now, without
 * recording them (the optimizer is unchanged). */
int symbo_optimizer_suggest(int64_t handle, int64_t q, double *out, int64_t out_len);

/* Records the value y (finite) at x; x, if pending or failed (bit for
 * bit), stops being so. x need not come from an ask. A handle holds at
 * most 1000000 observed, pending and failed points in all: a new point
 * beyond is SYMBO_EINVAL. */
int symbo_optimizer_tell(int64_t handle, const double *x, int64_t d, double y);

/* Records that the evaluation of x failed (it crashed, timed out, gave no
 * usable value); x, if pending, stops being pending. Neither x nor its
 * orbit is proposed again, and the acquisition avoids its neighbourhood
 * (it is told the constant liar's value — the mean of the observed values,
 * or the worst with "liar": "worst" — for the acquisition only). An
 * observation supersedes a failure: x already observed (bit for bit) is
 * not recorded as failed (SYMBO_OK; only a pending copy of it ends). */
int symbo_optimizer_fail(int64_t handle, const double *x, int64_t d);

/* Records x as pending: handed out elsewhere (another process, or before
 * a restart) and not yet evaluated. */
int symbo_optimizer_add_pending(int64_t handle, const double *x, int64_t d);

/* Forgets the pending point x (bit for bit); *was_pending (may be NULL)
 * is 1 if it was pending, else 0. Prefer symbo_optimizer_fail when an
 * evaluation failed: a cancelled point may be proposed again. */
int symbo_optimizer_cancel(int64_t handle, const double *x, int64_t d, int *was_pending);

/* For each of the rows points (rows×d doubles, row by row), whether x
 * (d doubles) lies within the exclusion radius of its orbit, into near[i]
 * (1 or 0): the test by which ask passes over pending and failed points,
 * and observed ones unless "allow_repeats" — 1e-3 of the box's diagonal,
 * in the model's coordinates ("normalize"), under the kernel's group (the
 * point itself for base and nystrom). For a caller that keeps points of
 * its own (a sampler's other workers' trials). The points need not lie in
 * the box; the answer does not depend on the optimizer's history.
 * 0 ≤ rows ≤ 1000000 (rows = 0 writes nothing); a non-finite coordinate,
 * in x too when rows = 0, or one so far outside the box that its
 * normalized coordinate overflows, is SYMBO_EINVAL; points whose copy
 * in the model's coordinates (8·rows·d bytes and some 50 a row) exceeds
 * the handle's memory budget are SYMBO_ESIZE. */
int symbo_optimizer_near(int64_t handle, const double *x, int64_t d, const double *points, int64_t rows, int *near);

/* The numbers of observations, pending and failed points (each pointer may
 * be NULL). */
int symbo_optimizer_counts(int64_t handle, int64_t *observed, int64_t *pending, int64_t *failed);

/* The pending points, in asking order (failed: in reporting order), *rows×d
 * into out. *rows (not NULL) is set whenever the handle is known, whatever
 * the code;
 * out = NULL with out_len = 0 asks for the
 * count only, a smaller out is SYMBO_ESIZE (nothing written). The count
 * may change between two calls when other threads use the handle. */
int symbo_optimizer_pending(int64_t handle, double *out, int64_t out_len, int64_t *rows);
int symbo_optimizer_failed(int64_t handle, double *out, int64_t out_len, int64_t *rows);

/* The best observed point (largest y, or smallest with "minimize"; the
 * earliest on ties) into x (d doubles) and its value into *y, *found = 1;
 * before the first tell *found = 0 and x, y are untouched. */
int symbo_optimizer_best(int64_t handle, double *x, int64_t d, double *y, int *found);

/*
 * The optimizer's history as JSON (NUL-terminated) into buf (len bytes):
 *     {"version": 2, "seed": S, "kernel": K, "dim": d, "minimize": b,
 *      "observations": [{"x": […], "y": v}, …],
 *      "pending": [[…], …], "failed": [[…], …]}
 * (Go's bo.History; floats in shortest round-trip form: read back, the
 * same bits). *needed is set to its length without the NUL; buf = NULL
 * with len = 0 asks for the length only, a smaller buf is SYMBO_ESIZE
 * (nothing written).
 */
int symbo_optimizer_history(int64_t handle, char *buf, size_t len, size_t *needed);

/*
 * What the optimizer's kernel models with, as JSON (NUL-terminated) into
 * buf (len bytes), ABI 5:
 *     {"kernel": K, "candidates": [C, …], "left_out": [R, …]}
 * K is the kernel's name as the settings gave it (the default's when they
 * gave none, e.g. "portfolio:nystrom:soft+plus"); candidates are the
 * kernels that model the objective: an auto or portfolio kernel's
 * candidates as kept, in its order, or [K] for a single kernel;
 * left_out has one reason per candidate auto or portfolio left out
 * because it cannot be afforded over the group, in the order named, each
 * starting with the candidate's name ("avg: k_avg over
 * hyperoctahedral(3) with matern52 would be enumerated: …"), [] when none
 * was (Go's bo.Kernel.Candidates and LeftOut; perf suggest prints the
 * reasons on stderr, Python warns). Fixed when the handle is made.
 * *needed is set to its length without the NUL; buf = NULL with len = 0
 * asks for the length only, a smaller buf is SYMBO_ESIZE (nothing
 * written), as for symbo_optimizer_history.
 */
int symbo_optimizer_info(int64_t handle, char *buf, size_t len, size_t *needed);

/* Restores a history (symbo_optimizer_history's JSON; version 1 without
 * failed points is read too) into an optimizer that has no observations,
 * pending or failed points yet, after checking it was made with the same
 * seed, kernel, dimension and direction; the history records no other
 * setting (box, acq, init, …), so an optimizer made from the same
 * settings then proposes what the one that wrote it would, one made from
 * others what they give. A history whose decoding (counted as 16
 * bytes per byte of JSON) would exceed the handle's memory budget is SYMBO_ESIZE,
 * decided before it is read. On error the optimizer is unchanged. */
int symbo_optimizer_restore(int64_t handle, const char *history);

#ifdef __cplusplus
}
#endif

#endif /* SYMBO_H */
