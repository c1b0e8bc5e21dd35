//go:build cgo

/*
 * entry.c — the functions of symbo.h. Each runs its Go function (capi.go,
 * handle.go: symbogo_<name>, the same arguments) in the floating-point
 * environment Go's arithmetic assumes, and gives the caller its own back.
 *
 * A C thread may run with another environment: a rounding mode set by
 * fesetround, flush-to-zero and denormals-are-zero (x86's MXCSR, set by
 * -ffast-math's start-up code and by numerical libraries), unmasked
 * exceptions (feenableexcept). Go code called from C runs on the caller's
 * thread, in the caller's environment, and a thread the Go runtime starts
 * from there inherits it for good. So the library computed other bits for
 * a caller in FE_UPWARD than for one in the default environment, failed
 * with a floating point error (SYMBO_EINTERNAL) for a caller with an
 * unmasked overflow, and after such a caller had started a Go thread,
 * changed the results of later calls from default threads (the tasks that
 * thread ran were rounded upwards).
 *
 * Here every entry point sets the default environment (round to nearest,
 * every exception masked, no flush-to-zero) before it enters Go, so that
 * Go runs, and starts threads, only in it; on return the caller's
 * environment is set back as it was at the call. On x86-64 that is MXCSR
 * alone (Go computes with SSE, never x87), read once and left alone when
 * its control bits are the default already, as they almost always are
 * (then exception flags the call raised stay raised, as before); a
 * caller's other MXCSR is set back whole, its flags included. Elsewhere
 * it is fegetenv, fesetenv(FE_DFL_ENV) and fesetenv.
 */

#include <stddef.h>
#include <stdint.h>

#include "_cgo_export.h"
#include "symbo.h"

#if defined(__x86_64__)

#include <xmmintrin.h>

/* MXCSR's default: every exception masked, round to nearest, no
 * flush-to-zero or denormals-are-zero. Its low 6 bits are the exception
 * flags, which do not change how anything computes. */
#define SYMBO_MXCSR_DEFAULT 0x1f80u
#define SYMBO_MXCSR_FLAGS 0x3fu

typedef unsigned int symbo_fpenv;

static inline symbo_fpenv symbo_fp_enter(void) {
	unsigned int csr = _mm_getcsr();
	if ((csr & ~SYMBO_MXCSR_FLAGS) != SYMBO_MXCSR_DEFAULT) _mm_setcsr(SYMBO_MXCSR_DEFAULT);
	return csr;
}

static inline void symbo_fp_leave(symbo_fpenv csr) {
	if ((csr & ~SYMBO_MXCSR_FLAGS) != SYMBO_MXCSR_DEFAULT) _mm_setcsr(csr);
}

#else

#include <fenv.h>

typedef fenv_t symbo_fpenv;

static inline symbo_fpenv symbo_fp_enter(void) {
	fenv_t env;
	fegetenv(&env);
	fesetenv(FE_DFL_ENV);
	return env;
}

static inline void symbo_fp_leave(symbo_fpenv env) { fesetenv(&env); }

#endif

/* ENTER runs the expression in the default environment and returns its
 * value in the caller's. */
#define ENTER(type, call)                       \
	do {                                        \
		symbo_fpenv symbo_env_ = symbo_fp_enter(); \
		type symbo_ret_ = (call);               \
		symbo_fp_leave(symbo_env_);             \
		return symbo_ret_;                      \
	} while (0)

int symbo_abi_version(void) { ENTER(int, symbogo_abi_version()); }

const char *symbo_version(void) { ENTER(const char *, symbogo_version()); }

size_t symbo_last_error(char *buf, size_t len) { ENTER(size_t, symbogo_last_error(buf, len)); }

int symbo_cross(const char *spec, const double *x, int64_t n, const double *y, int64_t m, int64_t d,
                const double *design, int64_t nd, double *out, int64_t out_len) {
	ENTER(int, symbogo_cross((char *)spec, (double *)x, n, (double *)y, m, d, (double *)design, nd, out, out_len));
}

int symbo_suggest(const char *settings, const double *hist_x, const double *hist_y, int64_t n,
                  const double *pending, int64_t np, int64_t d, int64_t q, double *out, int64_t out_len) {
	ENTER(int, symbogo_suggest((char *)settings, (double *)hist_x, (double *)hist_y, n, (double *)pending, np, d, q, out, out_len));
}

int symbo_optimizer_new(const char *settings, int64_t *handle) {
	ENTER(int, symbogo_optimizer_new((char *)settings, handle));
}

int symbo_optimizer_free(int64_t handle) { ENTER(int, symbogo_optimizer_free(handle)); }

int symbo_optimizer_dim(int64_t handle, int64_t *d) { ENTER(int, symbogo_optimizer_dim(handle, d)); }

int symbo_optimizer_ask(int64_t handle, double *x, int64_t d) { ENTER(int, symbogo_optimizer_ask(handle, x, d)); }

int symbo_optimizer_ask_batch(int64_t handle, int64_t q, double *out, int64_t out_len) {
	ENTER(int, symbogo_optimizer_ask_batch(handle, q, out, out_len));
}

int symbo_optimizer_suggest(int64_t handle, int64_t q, double *out, int64_t out_len) {
	ENTER(int, symbogo_optimizer_suggest(handle, q, out, out_len));
}

int symbo_optimizer_tell(int64_t handle, const double *x, int64_t d, double y) {
	ENTER(int, symbogo_optimizer_tell(handle, (double *)x, d, y));
}

int symbo_optimizer_fail(int64_t handle, const double *x, int64_t d) {
	ENTER(int, symbogo_optimizer_fail(handle, (double *)x, d));
}

int symbo_optimizer_add_pending(int64_t handle, const double *x, int64_t d) {
	ENTER(int, symbogo_optimizer_add_pending(handle, (double *)x, d));
}

int symbo_optimizer_cancel(int64_t handle, const double *x, int64_t d, int *was_pending) {
	ENTER(int, symbogo_optimizer_cancel(handle, (double *)x, d, was_pending));
}

int symbo_optimizer_near(int64_t handle, const double *x, int64_t d, const double *points, int64_t rows, int *near) {
	ENTER(int, symbogo_optimizer_near(handle, (double *)x, d, (double *)points, rows, near));
}

int symbo_optimizer_counts(int64_t handle, int64_t *observed, int64_t *pending, int64_t *failed) {
	ENTER(int, symbogo_optimizer_counts(handle, observed, pending, failed));
}

int symbo_optimizer_pending(int64_t handle, double *out, int64_t out_len, int64_t *rows) {
	ENTER(int, symbogo_optimizer_pending(handle, out, out_len, rows));
}

int symbo_optimizer_failed(int64_t handle, double *out, int64_t out_len, int64_t *rows) {
	ENTER(int, symbogo_optimizer_failed(handle, out, out_len, rows));
}

int symbo_optimizer_best(int64_t handle, double *x, int64_t d, double *y, int *found) {
	ENTER(int, symbogo_optimizer_best(handle, x, d, y, found));
}

int symbo_optimizer_history(int64_t handle, char *buf, size_t len, size_t *needed) {
	ENTER(int, symbogo_optimizer_history(handle, buf, len, needed));
}

int symbo_optimizer_info(int64_t handle, char *buf, size_t len, size_t *needed) {
	ENTER(int, symbogo_optimizer_info(handle, buf, len, needed));
}

int symbo_optimizer_restore(int64_t handle, const char *history) {
	ENTER(int, symbogo_optimizer_restore(handle, (char *)history));
}
