/*
 * symbo.h — the C ABI of symbo, symmetry-aware Bayesian optimization.
 *
 * Build the library from the repository root:
 *     go build -buildmode=c-shared -o libsymbo.so ./capi
 * and link with -lsymbo. This header is the contract; its version is
 * SYMBO_ABI_VERSION, and symbo_abi_version() returns the library's: they
 * must be equal.
 *
 * Conventions
 *   - Every function returns SYMBO_OK (0) or a negative error code; then
 *     symbo_last_error copies the message of the calling thread's last
 *     failure. Messages are per thread: functions may be called from
 *     several threads at once.
 *   - Matrices are row-major arrays of double owned by the caller, with
 *     explicit lengths; the library reads inputs and writes outputs during
 *     the call only and keeps no pointer afterwards.
 *   - Settings are JSON strings (UTF-8, NUL-terminated) with the field
 *     names documented below; unknown fields are errors.
 *   - No Go panic crosses the boundary: an internal failure is
 *     SYMBO_EINTERNAL with its message.
 */
#ifndef SYMBO_H
#define SYMBO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SYMBO_ABI_VERSION 1

enum {
	SYMBO_OK = 0,
	SYMBO_EINVAL = -1,    /* bad input: settings, sizes, values */
	SYMBO_ESIZE = -2,     /* an output buffer too small, or over the memory budget */
	SYMBO_EINTERNAL = -3  /* a failure that is not the input's (a bug) */
};

/* The ABI version of the library (compare with SYMBO_ABI_VERSION). */
int symbo_abi_version(void);

/* A static, NUL-terminated version string ("symbo <module version>, abi 1"). */
const char *symbo_version(void);

/*
 * Copies the calling thread's last error message (NUL-terminated,
 * truncated to len − 1 bytes) into buf and returns its full length in bytes
 * (0 if the thread has no error), like snprintf.
 */
size_t symbo_last_error(char *buf, size_t len);

/*
 * Cross-covariance K(x, y), n×m, into out (out_len ≥ n·m doubles).
 *
 * spec: {"group": G, "d": D, "base": B, "lengthscale": L, "variance": V,
 *        "kernel": "base"|"nystrom"|"avg"|"avgnorm"|"max"|"plus",
 *        "method": "auto"|"enumerate"|"closed",
 *        "block": b, "box": [[lo…], [hi…]], "matrices": "file.json"}
 *   group and its extra fields as in perf gram; variance defaults to 1,
 *   method to auto; box (scaling only) defaults to [0.1, 10] per coordinate.
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
 *
 * settings: {"problem": P} (a benchmark: box, group, base, direction) or
 *           {"group": G, "d": D, "box": [[lo…], [hi…]], "block": b,
 *            "matrices": "file.json"} (your own black box),
 *           with "kernel": K (required), "base": B, "seed": S,
 *           "minimize": true|false, "init": 5, "acq": "ucb"|"ei",
 *           "beta": "paper"|"authors", "fit": "own"|"base",
 *           "prior": "none"|"botorch", "landmarks": M (the design cap
 *           of plus and nystrom: 0 or absent 256, negative none).
 * hist_x: n×d observed points, hist_y: their n values (n may be 0);
 * pending: np×d points handed out and not yet evaluated (np may be 0).
 */
int symbo_suggest(const char *settings,
                  const double *hist_x, const double *hist_y, int64_t n,
                  const double *pending, int64_t np,
                  int64_t d, int64_t q,
                  double *out, int64_t out_len);

#ifdef __cplusplus
}
#endif

#endif /* SYMBO_H */
