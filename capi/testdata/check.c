/*
 * check.c — the C side of capi's test: calls libsymbo through symbo.h and
 * prints every result as the bits of its doubles, which the Go test
 * compares with the Go API's. Also checks error codes, per-thread error
 * messages, concurrent calls from several threads, absurd sizes and
 * strict settings, and the optimizer handle: a sequence compared with Go's
 * bo.Optimizer, its errors, and several threads hammering one handle.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS and feenableexcept under -std=c11 */
#include <fenv.h>
#include <inttypes.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "symbo.h"

#define N 10
#define M 7
#define D 3

static double X[N * D], Y[M * D];

static void points(void) {
	/* Exactly representable values, so that C and Go read the same bits. */
	for (int i = 0; i < N * D; i++) X[i] = ((i * 37) % 23 - 11) / 8.0;
	for (int i = 0; i < M * D; i++) Y[i] = ((i * 29) % 19 - 9) / 4.0;
}

static void bits(const char *label, const double *v, int64_t n) {
	printf("%s", label);
	for (int64_t i = 0; i < n; i++) {
		uint64_t b;
		memcpy(&b, &v[i], sizeof b);
		printf(" %016" PRIx64, b);
	}
	printf("\n");
}

static const char *kernels[] = {"base", "avg", "avgnorm", "max", "plus"};

static int cross(const char *kernel, int useY, double *out) {
	char spec[256];
	snprintf(spec, sizeof spec,
	         "{\"group\":\"hyperoctahedral\",\"d\":3,\"base\":\"matern52\",\"lengthscale\":1.3,\"variance\":2,\"kernel\":\"%s\"}",
	         kernel);
	return symbo_cross(spec, X, N, useY ? Y : NULL, M, D, NULL, 0, out, N * N);
}

static int failures = 0;

static void expect(int cond, const char *what) {
	if (!cond) {
		fprintf(stderr, "check.c: FAILED: %s\n", what);
		failures++;
	}
}

struct job {
	int id;
	double out[N * N];
	int code;
	char msg[256];
	int badcode;
};

static void *worker(void *arg) {
	struct job *j = arg;
	for (int r = 0; r < 20; r++) {
		j->code = cross("plus", 0, j->out);
		char bad[128];
		snprintf(bad, sizeof bad, "{\"group\":\"signflip\",\"d\":3,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"bad%d\"}", j->id);
		double tmp[9];
		j->badcode = symbo_cross(bad, X, 3, NULL, 0, D, NULL, 0, tmp, 9);
		symbo_last_error(j->msg, sizeof j->msg);
		char want[16];
		snprintf(want, sizeof want, "bad%d", j->id);
		if (strstr(j->msg, want) == NULL) {
			j->code = -99;
			return NULL;
		}
	}
	return NULL;
}

/* code runs a call expected to fail with want, and checks that the
 * message contains has (if not NULL) and names no Go package. */
static void code(int got, int want, const char *has, const char *what) {
	char msg[1024];
	symbo_last_error(msg, sizeof msg);
	if (got != want) {
		fprintf(stderr, "check.c: FAILED: %s: code %d, want %d (%s)\n", what, got, want, msg);
		failures++;
		return;
	}
	if (has != NULL && strstr(msg, has) == NULL) {
		fprintf(stderr, "check.c: FAILED: %s: message %s lacks %s\n", what, msg, has);
		failures++;
	}
	static const char *pkgs[] = {"frontend:", "bo:", "orbit:", "kernel:", "gp:", "problem:", "linalg:", "symbo:"};
	for (size_t i = 0; i < sizeof pkgs / sizeof *pkgs; i++) {
		char inner[32];
		snprintf(inner, sizeof inner, ": %s ", pkgs[i]);
		if (strncmp(msg, pkgs[i], strlen(pkgs[i])) == 0 || strstr(msg, inner) != NULL) {
			fprintf(stderr, "check.c: FAILED: %s: message names a package: %s\n", what, msg);
			failures++;
		}
	}
}

/* Absurd sizes and sloppy settings: SYMBO_EINVAL with a message, before
 * anything is allocated (the repros: these aborted the host). */
static void sizes(void) {
	double out[16], x1[2] = {1, 2};
	code(symbo_cross("{\"group\":\"scaling\",\"d\":2147483648,\"box\":[[0.1],[10]],\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"max\"}",
	                 x1, 1, NULL, 0, 1, NULL, 0, out, 16), SYMBO_EINVAL, "d = 2147483648", "cross d = 2^31");
	code(symbo_suggest("{\"group\":\"permutation\",\"d\":1099511627776,\"box\":[[-2],[2]],\"kernel\":\"plus\"}",
	                   NULL, NULL, 0, NULL, 0, 2, 1, out, 16), SYMBO_EINVAL, "d = 1099511627776", "suggest d = 2^40");
	code(symbo_suggest("{\"group\":\"permutation\",\"d\":-5,\"box\":[[-2],[2]],\"kernel\":\"plus\"}",
	                   NULL, NULL, 0, NULL, 0, 2, 1, out, 16), SYMBO_EINVAL, "d = -5", "suggest d = -5");
	code(symbo_cross("{\"group\":\"scaling\",\"d\":-5,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"max\"}",
	                 x1, 1, NULL, 0, 1, NULL, 0, out, 16), SYMBO_EINVAL, "d = -5", "cross d = -5");
	code(symbo_cross("{\"group\":\"permutation\",\"d\":70000,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"max\"}",
	                 x1, 1, NULL, 0, 1, NULL, 0, out, 16), SYMBO_EINVAL, "d = 70000", "cross d over MaxDim");
	int64_t h = 0;
	code(symbo_optimizer_new("{\"group\":\"permutation\",\"d\":1099511627776,\"box\":[[-2],[2]],\"kernel\":\"plus\"}", &h),
	     SYMBO_EINVAL, "d = 1099511627776", "optimizer_new d = 2^40");
	/* Settings over 1 MiB are refused before they are copied or decoded
	 * (10 MB of coordinates took 2.6 s and 170 MiB to refuse). */
	size_t big = (1 << 20) + 64;
	char *s = malloc(big + 1);
	if (s == NULL) {
		failures++;
		return;
	}
	int k = sprintf(s, "{\"group\":\"permutation\",\"d\":2,\"box\":[[-2],[2]],\"coords\":[0");
	while ((size_t)k + 4 < big) k += sprintf(s + k, ",0");
	sprintf(s + k, "]}");
	code(symbo_optimizer_new(s, &h), SYMBO_EINVAL, "longer than 1048576 bytes", "optimizer_new settings over 1 MiB");
	code(symbo_suggest(s, NULL, NULL, 0, NULL, 0, 2, 1, out, 16), SYMBO_EINVAL, "longer than 1048576 bytes", "suggest settings over 1 MiB");
	free(s);
	/* Counts and outputs are refused before the inputs are read: these
	 * inputs are unreadable (PROT_NONE), so a copy would crash. A history
	 * of 2^27 rows (1 GiB, under the default budget) was copied and told
	 * one by one, past 14 GiB, before MaxEvaluations refused it; an n×n
	 * output out or over the budget was refused after copying x. */
	int64_t rows = 1000001;
	size_t bytes = (size_t)(1 << 21) * sizeof(double);
	double *none = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect(none != MAP_FAILED, "mmap");
	if (none != MAP_FAILED) {
		const char *one = "{\"group\":\"none\",\"d\":1,\"box\":[[0],[1]]}";
		code(symbo_suggest(one, none, none, rows, NULL, 0, 1, 1, out, 16), SYMBO_EINVAL, "MaxEvaluations", "suggest history over MaxEvaluations");
		code(symbo_suggest(one, none, none, 600000, none, 400001, 1, 1, out, 16), SYMBO_EINVAL, "MaxEvaluations", "suggest history and pending over MaxEvaluations");
		code(symbo_suggest(one, none, none, 10, NULL, 0, 1, 1, out, 0), SYMBO_ESIZE, "out holds 0", "suggest out too small, before the copy");
		const char *base = "{\"group\":\"none\",\"d\":1,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"plus\"}";
		code(symbo_cross(base, none, 1 << 21, NULL, 0, 1, NULL, 0, out, 16), SYMBO_ESIZE, "out holds 16", "cross out too small, before the copy");
		code(symbo_cross(base, none, 1 << 21, none, 1 << 21, 1, NULL, 0, out, (int64_t)1 << 42), SYMBO_ESIZE, "a 2097152×2097152 kernel matrix needs 32 TiB", "cross over the budget, before the copy");
		/* A d other than the spec's is refused before x (n·d doubles) is
		 * copied: it was copied, and then refused. */
		code(symbo_cross(base, none, 1024, NULL, 0, 2, NULL, 0, none, 1 << 21), SYMBO_EINVAL, "the spec's d is 1", "cross d other than the spec's, before the copy");
		munmap(none, bytes);
	}
	code(symbo_suggest("{\"GROUP\":\"permutation\",\"d\":2,\"box\":[[-2],[2]],\"kernel\":\"plus\"}",
	                   NULL, NULL, 0, NULL, 0, 2, 1, out, 16), SYMBO_EINVAL, "case-sensitive", "GROUP");
	code(symbo_suggest("{\"group\":\"permutation\",\"group\":\"signflip\",\"d\":2,\"box\":[[-2],[2]],\"kernel\":\"plus\"}",
	                   NULL, NULL, 0, NULL, 0, 2, 1, out, 16), SYMBO_EINVAL, "duplicate field \"group\"", "duplicate key");
	code(symbo_cross("{\"group\":\"signflip\",\"d\":2,\"base\":\"rbf\",\"lengthscale\":1,\"variance\":0,\"kernel\":\"max\"}",
	                 x1, 1, NULL, 0, 2, NULL, 0, out, 16), SYMBO_EINVAL, "variance", "variance 0");
	/* A message is one C string: a NUL in it (echoed from a settings
	 * string that holds \u0000, here through the OS's error for the
	 * path) cut it short at the NUL for C, and for Python's ctypes,
	 * while symbo_last_error returned the longer length. */
	{
		char msg[512];
		int c = symbo_cross("{\"group\":\"matrices\",\"d\":2,\"matrices\":\"/nonexistent\\u0000dir/g.json\",\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"avg\"}",
		                    x1, 1, NULL, 0, 2, NULL, 0, out, 16);
		size_t len = symbo_last_error(msg, sizeof msg);
		expect(c == SYMBO_EINVAL, "matrices path with a NUL: SYMBO_EINVAL");
		if (len != strlen(msg) || strstr(msg, "dir/g.json") == NULL) {
			fprintf(stderr, "check.c: FAILED: a message with a NUL: length %zu, strlen %zu: %s\n", len, strlen(msg), msg);
			failures++;
		}
	}
	/* The orbit distance of blockperm and pairedperm (kernels max and
	 * plus) solves an m×m assignment per pair: its scratch, 8·m² bytes
	 * per worker, is sized against the budget. pairedperm(32768), d =
	 * 65536, asked for 8 GiB per worker whatever the budget, and the
	 * host died of Go's fatal out-of-memory error. */
	{
		static double xp[2 * 1024];
		for (int i = 0; i < 2 * 1024; i++) xp[i] = (i % 13) * 0.25;
		double op[4];
		code(symbo_cross("{\"group\":\"pairedperm\",\"d\":1024,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"max\",\"mem_budget\":\"1MiB\"}",
		                 xp, 2, NULL, 0, 1024, NULL, 0, op, 4), SYMBO_ESIZE, "budget", "cross max pairedperm(512): assignment scratch over the budget");
		code(symbo_cross("{\"group\":\"blockperm\",\"block\":2,\"d\":1024,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"plus\",\"mem_budget\":\"1MiB\"}",
		                 xp, 2, NULL, 0, 1024, NULL, 0, op, 4), SYMBO_ESIZE, "budget", "cross plus blockperm(512,2): assignment scratch over the budget");
		/* The same group on 1024 of 1025 coordinates (orbit.OnCoords; the
		 * message names them all). */
		static double xc[2 * 1025];
		for (int i = 0; i < 2 * 1025; i++) xc[i] = (i % 13) * 0.25;
		static char spec[8192];
		int k = snprintf(spec, sizeof spec, "{\"group\":\"pairedperm\",\"d\":1025,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"max\",\"mem_budget\":\"1MiB\",\"coords\":[0");
		for (int i = 1; i < 1024; i++) k += snprintf(spec + k, sizeof spec - k, ",%d", i + 1);
		snprintf(spec + k, sizeof spec - k, "]}");
		code(symbo_cross(spec, xc, 2, NULL, 0, 1025, NULL, 0, op, 4), SYMBO_ESIZE, NULL, "cross max pairedperm(512) on coordinates: over the budget");
		expect(symbo_cross("{\"group\":\"pairedperm\",\"d\":1024,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"max\",\"mem_budget\":\"4MiB\"}",
		                   xp, 2, NULL, 0, 1024, NULL, 0, op, 4) == SYMBO_OK, "cross max pairedperm(512) within its budget");
	}
	code(symbo_suggest("{\"group\":\"permutation\",\"d\":2,\"box\":[[-2],[2]],\"kernel\":\"plus\",\"init\":-3}",
	                   NULL, NULL, 0, NULL, 0, 2, 1, out, 16), SYMBO_EINVAL, "init = -3", "negative init");
}

static const char *ackley = "{\"problem\":\"Ackley2d\",\"kernel\":\"plus\",\"seed\":3,\"init\":3}";

/* A sequence on one handle whose every point Go recomputes with
 * bo.Optimizer (capi_test.go): ask, tell, fail, suggest, ask_batch,
 * add_pending, history, best; and restore. */
static void handle_sequence(void) {
	int64_t h = 0, d = 0;
	expect(symbo_optimizer_new(ackley, &h) == SYMBO_OK && h > 0, "optimizer_new");
	expect(symbo_optimizer_dim(h, &d) == SYMBO_OK && d == 2, "optimizer_dim");
	double a[3 * 2], s[2 * 2], b[2 * 2], c[2], pend[2] = {-1, -1};
	for (int i = 0; i < 3; i++) expect(symbo_optimizer_ask(h, a + 2 * i, 2) == SYMBO_OK, "ask");
	bits("hask", a, 6);
	expect(symbo_optimizer_tell(h, a, 2, a[0] + a[1]) == SYMBO_OK, "tell 0");
	expect(symbo_optimizer_tell(h, a + 2, 2, a[2] + a[3]) == SYMBO_OK, "tell 1");
	expect(symbo_optimizer_fail(h, a + 4, 2) == SYMBO_OK, "fail 2");
	expect(symbo_optimizer_suggest(h, 2, s, 4) == SYMBO_OK, "suggest");
	int64_t no = -1, np = -1, nf = -1;
	expect(symbo_optimizer_counts(h, &no, &np, &nf) == SYMBO_OK && no == 2 && np == 0 && nf == 1, "suggest records nothing");
	expect(symbo_optimizer_ask_batch(h, 2, b, 4) == SYMBO_OK, "ask_batch");
	expect(memcmp(s, b, sizeof s) == 0, "suggest = the next ask_batch");
	bits("hbatch", b, 4);
	expect(symbo_optimizer_tell(h, b, 2, b[0] + b[1]) == SYMBO_OK, "tell batch 0");
	expect(symbo_optimizer_add_pending(h, pend, 2) == SYMBO_OK, "add_pending");
	expect(symbo_optimizer_ask(h, c, 2) == SYMBO_OK, "ask 2");
	bits("hask2", c, 2);
	expect(symbo_optimizer_counts(h, &no, &np, &nf) == SYMBO_OK && no == 3 && np == 3 && nf == 1, "counts");
	int64_t rows = -1;
	double pm[3 * 2], fm[2];
	expect(symbo_optimizer_pending(h, NULL, 0, &rows) == SYMBO_OK && rows == 3, "pending count");
	expect(symbo_optimizer_pending(h, pm, 6, &rows) == SYMBO_OK && rows == 3, "pending");
	expect(memcmp(pm, b + 2, 2 * sizeof(double)) == 0 && memcmp(pm + 2, pend, sizeof pend) == 0 && memcmp(pm + 4, c, sizeof c) == 0,
	       "pending in asking order");
	expect(symbo_optimizer_failed(h, fm, 2, &rows) == SYMBO_OK && rows == 1 && memcmp(fm, a + 4, sizeof fm) == 0, "failed");
	size_t need = 0;
	expect(symbo_optimizer_history(h, NULL, 0, &need) == SYMBO_OK && need > 0, "history length");
	char *js = malloc(need + 1);
	expect(symbo_optimizer_history(h, js, need + 1, &need) == SYMBO_OK && strlen(js) == need, "history");
	printf("hhistory %s\n", js);
	double bx[2], by;
	int found = -1;
	expect(symbo_optimizer_best(h, bx, 2, &by, &found) == SYMBO_OK && found == 1, "best");
	double bb[3] = {bx[0], bx[1], by};
	bits("hbest", bb, 3);
	/* A handle restored from the history proposes the same points. */
	int64_t h2 = 0;
	double s1[4], s2[4];
	expect(symbo_optimizer_new(ackley, &h2) == SYMBO_OK && h2 > h, "second handle");
	expect(symbo_optimizer_best(h2, bx, 2, &by, &found) == SYMBO_OK && found == 0, "best before any tell");
	expect(symbo_optimizer_restore(h2, js) == SYMBO_OK, "restore");
	expect(symbo_optimizer_suggest(h, 2, s1, 4) == SYMBO_OK && symbo_optimizer_suggest(h2, 2, s2, 4) == SYMBO_OK &&
	       memcmp(s1, s2, sizeof s1) == 0, "restored handle proposes the same points");
	code(symbo_optimizer_restore(h2, js), SYMBO_EINVAL, "already has", "restore into a used optimizer");
	free(js);
	expect(symbo_optimizer_free(h2) == SYMBO_OK, "free h2");
	expect(symbo_optimizer_free(h) == SYMBO_OK, "free h");
}

/* Every misuse of a handle is SYMBO_EINVAL (or ESIZE for a short buffer)
 * with a message, and leaves it usable. */
static void handle_errors(void) {
	int64_t h = 0, rows;
	double x[4], out[8], in[2] = {0.5, 0.5}, far[2] = {50, 0}, y;
	int found;
	size_t need;
	code(symbo_optimizer_new(NULL, &h), SYMBO_EINVAL, "settings is NULL", "new NULL settings");
	code(symbo_optimizer_new(ackley, NULL), SYMBO_EINVAL, "handle is NULL", "new NULL handle");
	code(symbo_optimizer_new("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\",\"Seed\":3}", &h), SYMBO_EINVAL, "\"Seed\"", "new Seed");
	/* Invalid UTF-8 was read as U+FFFD ("unknown kernel \"plus\uFFFD\""). */
	code(symbo_optimizer_new("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\xff\"}", &h), SYMBO_EINVAL,
	     "settings is not valid UTF-8 (byte 0xff at offset 36)", "new invalid UTF-8");
	code(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\xc3\"}", NULL, NULL, 0, NULL, 0, 2, 1, out, 8), SYMBO_EINVAL,
	     "settings is not valid UTF-8 (byte 0xc3 at offset 36)", "suggest invalid UTF-8");
	code(symbo_cross("{\"group\":\"permutation\",\"d\":2,\"base\":\"rbf\xed\xa0\x80\",\"lengthscale\":1,\"kernel\":\"avg\"}",
	                 in, 1, NULL, 0, 2, NULL, 0, out, 8), SYMBO_EINVAL, "spec is not valid UTF-8 (byte 0xed at offset 40)", "cross invalid UTF-8");
	for (int64_t bad = -1; bad <= 0; bad++) {
		code(symbo_optimizer_ask(bad, x, 2), SYMBO_EINVAL, "not open", "ask on handle 0 or -1");
	}
	code(symbo_optimizer_tell(INT64_MAX, in, 2, 1), SYMBO_EINVAL, "not open", "tell on an unknown handle");
	expect(symbo_optimizer_new(ackley, &h) == SYMBO_OK, "new");
	code(symbo_optimizer_tell(h, in, 3, 1), SYMBO_EINVAL, "3 coordinates", "tell with d = 3");
	code(symbo_optimizer_tell(h, NULL, 2, 1), SYMBO_EINVAL, "x is NULL", "tell NULL");
	code(symbo_optimizer_ask(h, NULL, 2), SYMBO_EINVAL, "x is NULL", "ask NULL"); /* was "out is NULL": ask has no out */
	code(symbo_optimizer_tell(h, far, 2, 1), SYMBO_EINVAL, "outside", "tell outside the box");
	code(symbo_optimizer_tell(h, in, 2, NAN), SYMBO_EINVAL, "not finite", "tell NaN");
	code(symbo_optimizer_add_pending(h, far, 2), SYMBO_EINVAL, "outside", "add_pending outside the box");
	code(symbo_optimizer_fail(h, far, 2), SYMBO_EINVAL, "outside", "fail outside the box");
	code(symbo_optimizer_ask_batch(h, 0, out, 8), SYMBO_EINVAL, "q = 0", "ask_batch 0");
	code(symbo_optimizer_ask_batch(h, -1, out, 8), SYMBO_EINVAL, "q = -1", "ask_batch -1");
	code(symbo_optimizer_ask_batch(h, (int64_t)1 << 40, out, 8), SYMBO_EINVAL, "q = 1099511627776", "ask_batch 2^40");
	code(symbo_optimizer_ask_batch(h, 2, out, 3), SYMBO_ESIZE, "out holds 3", "ask_batch short out");
	code(symbo_optimizer_ask_batch(h, 2, NULL, 4), SYMBO_EINVAL, "out is NULL", "ask_batch NULL out");
	code(symbo_optimizer_ask(h, x, 1), SYMBO_EINVAL, "1 coordinates", "ask with d = 1");
	code(symbo_optimizer_best(h, x, 2, NULL, &found), SYMBO_EINVAL, "NULL", "best NULL y");
	code(symbo_optimizer_history(h, (char *)out, 4, &need), SYMBO_ESIZE, "buf holds 4", "history short buf");
	code(symbo_optimizer_history(h, NULL, 0, NULL), SYMBO_EINVAL, "needed is NULL", "history NULL needed");
	/* Errors wrapped deep inside the library name no package either. */
	int64_t h2 = 0;
	code(symbo_optimizer_new("{\"group\":\"hyperoctahedral\",\"d\":20,\"box\":[[-1],[1]],\"kernel\":\"avg\"}", &h2),
	     SYMBO_EINVAL, "too large", "new avg over hyperoctahedral(20)");
	double hx[4] = {0.1, 0.2, 0.3, 0.4}, hy[2] = {1, NAN};
	code(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\"}", hx, hy, 2, NULL, 0, 2, 1, out, 8),
	     SYMBO_EINVAL, "history row 1", "suggest NaN in the history");
	code(symbo_optimizer_history(h, NULL, 1000, &need), SYMBO_EINVAL, "buf is NULL", "history NULL buf with len > 0");
	code(symbo_optimizer_ask_batch(h, 1, out, -1), SYMBO_EINVAL, "out_len is -1", "ask_batch negative out_len");
	code(symbo_optimizer_pending(h, out, -5, &rows), SYMBO_EINVAL, "out_len is -5", "pending negative out_len");
	code(symbo_optimizer_pending(h, NULL, 100, &rows), SYMBO_EINVAL, "out is NULL", "pending NULL out with out_len > 0");
	code(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\"}", NULL, NULL, 0, NULL, 0, 2, 1, out, -3),
	     SYMBO_EINVAL, "out_len is -3", "suggest negative out_len");
	code(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\"}", NULL, NULL, 0, NULL, 0, 2, 1, NULL, 2),
	     SYMBO_EINVAL, "out is NULL", "suggest NULL out");
	code(symbo_cross("{\"group\":\"signflip\",\"d\":2,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"avg\"}",
	                 in, 1, NULL, 0, 2, NULL, 0, out, -1), SYMBO_EINVAL, "out_len is -1", "cross negative out_len");
	code(symbo_optimizer_pending(h, out, 8, NULL), SYMBO_EINVAL, "rows is NULL", "pending NULL rows");
	code(symbo_optimizer_restore(h, "{\"version\":2,\"seed\":3,\"kernel\":\"plus\",\"dim\":2,\"minimize\":true,\"observations\":[{\"X\":[0,0],\"y\":1}]}"),
	     SYMBO_EINVAL, "\"observations[0].X\"", "restore with X");
	code(symbo_optimizer_restore(h, "{\"version\":2,\"seed\":4,\"kernel\":\"plus\",\"dim\":2,\"minimize\":true,\"observations\":[]}"),
	     SYMBO_EINVAL, "seed 4", "restore another seed");
	code(symbo_optimizer_restore(h, "[1,"), SYMBO_EINVAL, "history JSON", "restore garbage");
	code(symbo_optimizer_restore(h, "{\"version\":2,\"seed\":3,\"kernel\":\"plus\xff\"}"), SYMBO_EINVAL,
	     "history is not valid UTF-8 (byte 0xff at offset 36)", "restore invalid UTF-8");
	/* near: x's own orbit (a sign flip and a swap of Ackley2d's
	 * hyperoctahedral group) and a far point; its errors. */
	double pts[3 * 2] = {0.5, 0.5, -0.5, 0.5, 10, 10}, nanp[2] = {0, NAN};
	int nr[3] = {-1, -1, -1};
	expect(symbo_optimizer_near(h, in, 2, pts, 3, nr) == SYMBO_OK && nr[0] == 1 && nr[1] == 1 && nr[2] == 0, "near");
	expect(symbo_optimizer_near(h, in, 2, NULL, 0, NULL) == SYMBO_OK, "near with no points");
	code(symbo_optimizer_near(h, in, 2, pts, -1, nr), SYMBO_EINVAL, "rows = -1", "near rows -1");
	code(symbo_optimizer_near(h, in, 2, NULL, 3, nr), SYMBO_EINVAL, "NULL", "near NULL points");
	code(symbo_optimizer_near(h, in, 2, nanp, 1, nr), SYMBO_EINVAL, "not finite", "near NaN point");
	code(symbo_optimizer_near(h, nanp, 2, NULL, 0, NULL), SYMBO_EINVAL, "not finite", "near NaN x, no points");
	code(symbo_optimizer_near(h, in, 3, pts, 1, nr), SYMBO_EINVAL, "3 coordinates", "near with d = 3");
	/* near's points are copied into the model's coordinates (rows·d
	 * doubles, and a slice header a row): sized against the handle's
	 * budget before anything is copied, as symbo_suggest's inputs are.
	 * 10⁵ points of d = 10 (16 MiB of copies) went through a 64 KiB
	 * budget. (128 KiB: a BO step's 512 raw samples in d = 10 take 71
	 * KiB, which the handle's creation checks.) */
	{
		int64_t hb = 0;
		expect(symbo_optimizer_new("{\"group\":\"permutation\",\"d\":10,\"box\":[[0],[1]],\"mem_budget\":\"128KiB\"}", &hb) == SYMBO_OK,
		       "new with a 128 KiB budget");
		int64_t nb = 100000;
		double *pb = calloc(nb * 10, sizeof(double));
		int *nrb = calloc(nb, sizeof(int));
		double xb[10] = {0};
		if (pb == NULL || nrb == NULL) {
			failures++;
		} else {
			code(symbo_optimizer_near(hb, xb, 10, pb, nb, nrb), SYMBO_ESIZE, "budget", "near's copies over the budget");
			expect(symbo_optimizer_near(hb, xb, 10, pb, 100, nrb) == SYMBO_OK && nrb[0] == 1, "near within the budget");
		}
		free(pb);
		free(nrb);
		symbo_optimizer_free(hb);
	}
	/* Nothing was recorded by the refused calls; the handle still works. */
	int64_t no, np, nf;
	expect(symbo_optimizer_counts(h, &no, &np, &nf) == SYMBO_OK && no == 0 && np == 0 && nf == 0, "refused calls change nothing");
	expect(symbo_optimizer_ask_batch(h, 2, out, 8) == SYMBO_OK, "usable after errors");
	expect(symbo_optimizer_pending(h, out, 3, &rows) == SYMBO_ESIZE && rows == 2, "pending short out");
	expect(symbo_optimizer_best(h, x, 2, &y, &found) == SYMBO_OK && found == 0, "no best yet");
	expect(symbo_optimizer_free(h) == SYMBO_OK, "free");
	code(symbo_optimizer_free(h), SYMBO_EINVAL, "not open", "double free");
	code(symbo_optimizer_ask(h, x, 2), SYMBO_EINVAL, "not open", "ask after free");
	code(symbo_optimizer_counts(h, &no, NULL, NULL), SYMBO_EINVAL, "not open", "counts after free");
}

/* symbo_optimizer_info: the kernel, the candidates it kept and those it
 * left out, with symbo_optimizer_history's buffer conventions. */
static void handle_info(void) {
	const char *list = "{\"group\":\"hyperoctahedral\",\"d\":3,\"box\":[[-1],[1]],\"base\":\"matern52\","
	                   "\"kernel\":\"portfolio:nystrom+avg:soft+plus\"}";
	int64_t h = 0, hd = 0, hp = 0;
	expect(symbo_optimizer_new(list, &h) == SYMBO_OK, "new with avg over hyperoctahedral(3)");
	size_t need = 0;
	expect(symbo_optimizer_info(h, NULL, 0, &need) == SYMBO_OK && need > 0, "info length");
	char *js = malloc(need + 1);
	expect(js != NULL && symbo_optimizer_info(h, js, need + 1, &need) == SYMBO_OK && strlen(js) == need, "info");
	if (js != NULL) {
		const char *pre = "{\"kernel\":\"portfolio:nystrom+avg:soft+plus\",\"candidates\":[\"nystrom\",\"soft\",\"plus\"],"
		                  "\"left_out\":[\"avg: ";
		expect(strncmp(js, pre, strlen(pre)) == 0, "info: avg left out, nystrom, soft and plus kept");
		expect(strstr(js, "hyperoctahedral(3)") != NULL && need > 3 && strcmp(js + need - 3, "\"]}") == 0 &&
		       strstr(js + strlen(pre), "\",\"") == NULL, "info: one reason");
		/* One byte short: SYMBO_ESIZE, nothing written. */
		memset(js, 'x', need + 1);
		code(symbo_optimizer_info(h, js, need, &need), SYMBO_ESIZE, "buf holds", "info short buf");
		expect(js[0] == 'x' && js[need] == 'x', "info short buf: nothing written");
	}
	free(js);
	code(symbo_optimizer_info(h, NULL, 0, NULL), SYMBO_EINVAL, "needed is NULL", "info NULL needed");
	code(symbo_optimizer_info(h, NULL, 10, &need), SYMBO_EINVAL, "buf is NULL", "info NULL buf with len > 0");
	/* The default kernel over the same group leaves nothing out; a single
	 * kernel is its own one candidate. */
	char buf[256];
	expect(symbo_optimizer_new("{\"group\":\"hyperoctahedral\",\"d\":3,\"box\":[[-1],[1]],\"base\":\"matern52\"}", &hd) == SYMBO_OK,
	       "new with the default kernel");
	expect(symbo_optimizer_info(hd, buf, sizeof buf, &need) == SYMBO_OK && strstr(buf, "\"left_out\":[]}") != NULL &&
	       strncmp(buf, "{\"kernel\":\"portfolio:", 21) == 0, "info of the default kernel: nothing left out");
	expect(symbo_optimizer_new("{\"group\":\"hyperoctahedral\",\"d\":3,\"box\":[[-1],[1]],\"kernel\":\"plus\"}", &hp) == SYMBO_OK,
	       "new plus");
	expect(symbo_optimizer_info(hp, buf, sizeof buf, &need) == SYMBO_OK &&
	       strcmp(buf, "{\"kernel\":\"plus\",\"candidates\":[\"plus\"],\"left_out\":[]}") == 0, "info of plus");
	expect(symbo_optimizer_free(hp) == SYMBO_OK && symbo_optimizer_free(hd) == SYMBO_OK && symbo_optimizer_free(h) == SYMBO_OK, "free");
	code(symbo_optimizer_info(h, buf, sizeof buf, &need), SYMBO_EINVAL, "not open", "info after free");
	code(symbo_optimizer_info(0, buf, sizeof buf, &need), SYMBO_EINVAL, "not open", "info on handle 0");
}

/* Several threads hammer one handle: ask, tell, fail, add_pending,
 * suggest, counts, history, all at once. Afterwards the counts are exact
 * and no two pending points share an orbit. */
#define HT 4
#define HR 6

static int64_t hammered;

struct hjob {
	int id;
	int told, failed, added, pending, errors;
};

static double hf(const double *x) { return x[0] * x[0] + 2 * x[1] * x[1] + 3 * x[2] * x[2]; }

static void *hammer(void *arg) {
	struct hjob *j = arg;
	for (int r = 0; r < HR; r++) {
		double x[3], s[3];
		if (symbo_optimizer_ask(hammered, x, 3) != SYMBO_OK) j->errors++;
		switch ((j->id + r) % 3) {
		case 0:
			if (symbo_optimizer_tell(hammered, x, 3, hf(x)) == SYMBO_OK) j->told++; else j->errors++;
			break;
		case 1:
			if (symbo_optimizer_fail(hammered, x, 3) == SYMBO_OK) j->failed++; else j->errors++;
			break;
		default:
			j->pending++; /* left pending */
		}
		/* A point of the box no ask returns: pending from "elsewhere". */
		double p[3] = {-1.9 + 0.1 * j->id, 0.013 * r, -0.5 - 0.01 * r};
		if (symbo_optimizer_add_pending(hammered, p, 3) == SYMBO_OK) j->added++; else j->errors++;
		/* Some told directly, as from a restart. */
		double t[3] = {1.7 - 0.1 * j->id, 0.021 * r + 0.3, 0.9};
		if (symbo_optimizer_tell(hammered, t, 3, hf(t)) == SYMBO_OK) j->told++; else j->errors++;
		int64_t no;
		size_t need;
		if (symbo_optimizer_counts(hammered, &no, NULL, NULL) != SYMBO_OK) j->errors++;
		if (symbo_optimizer_history(hammered, NULL, 0, &need) != SYMBO_OK) j->errors++;
		if (r == HR / 2 && symbo_optimizer_suggest(hammered, 1, s, 3) != SYMBO_OK) j->errors++;
	}
	return NULL;
}

static void canon(double *c, const double *x) {
	/* Hyperoctahedral canonical form: sorted |x|. */
	for (int i = 0; i < 3; i++) c[i] = fabs(x[i]);
	for (int i = 0; i < 3; i++)
		for (int k = i + 1; k < 3; k++)
			if (c[k] < c[i]) { double t = c[i]; c[i] = c[k]; c[k] = t; }
}

static void handle_threads(void) {
	expect(symbo_optimizer_new("{\"group\":\"hyperoctahedral\",\"d\":3,\"box\":[[-2],[2]],\"kernel\":\"plus\",\"seed\":1,\"init\":4,\"minimize\":true}",
	                           &hammered) == SYMBO_OK, "hammered handle");
	pthread_t th[HT];
	struct hjob jobs[HT];
	memset(jobs, 0, sizeof jobs);
	for (int i = 0; i < HT; i++) {
		jobs[i].id = i;
		pthread_create(&th[i], NULL, hammer, &jobs[i]);
	}
	int told = 0, failed = 0, pending = 0;
	for (int i = 0; i < HT; i++) {
		pthread_join(th[i], NULL);
		expect(jobs[i].errors == 0, "hammer: every call succeeds");
		told += jobs[i].told;
		failed += jobs[i].failed;
		pending += jobs[i].pending + jobs[i].added;
	}
	int64_t no, np, nf, rows;
	expect(symbo_optimizer_counts(hammered, &no, &np, &nf) == SYMBO_OK, "hammer counts");
	expect(no == told && nf == failed && np == pending, "hammer: exact counts");
	expect(told == HT * HR + HT * HR / 3 && failed == HT * HR / 3, "hammer: the planned calls");
	double pm[HT * HR * 2 * 3];
	expect(symbo_optimizer_pending(hammered, pm, sizeof pm / sizeof *pm, &rows) == SYMBO_OK && rows == np, "hammer pending");
	for (int64_t i = 0; i < rows; i++) {
		for (int64_t k = 0; k < i; k++) {
			double ci[3], ck[3], d2 = 0;
			canon(ci, pm + 3 * i);
			canon(ck, pm + 3 * k);
			for (int c = 0; c < 3; c++) d2 += (ci[c] - ck[c]) * (ci[c] - ck[c]);
			if (d2 <= 1e-12) {
				fprintf(stderr, "check.c: FAILED: pending points %" PRId64 " and %" PRId64 " share an orbit\n", i, k);
				failures++;
			}
		}
	}
	size_t need = 0;
	expect(symbo_optimizer_history(hammered, NULL, 0, &need) == SYMBO_OK, "hammer history");
	char *js = malloc(need + 1);
	expect(symbo_optimizer_history(hammered, js, need + 1, &need) == SYMBO_OK, "hammer history JSON");
	printf("hhammer %" PRId64 " %" PRId64 " %" PRId64 "\n", no, np, nf);
	free(js);
	expect(symbo_optimizer_free(hammered) == SYMBO_OK, "free hammered");
}

/* The memory budget: run as "check budget" with SYMBO_MEMORY_BUDGET=2KiB
 * (read at load: the default of every call) and as "check badenv" with a
 * malformed SYMBO_MEMORY_BUDGET. A settings key "mem_budget" sets the
 * budget of its call, over the environment's; calls with different
 * budgets, one after the other, each keep their own. */
#define BN 20
#define HN 400
static int budgets(int badenv) {
	double xb[BN * D], out[BN * BN], pts[2];
	for (int i = 0; i < BN * D; i++) xb[i] = ((i * 37) % 23 - 11) / 8.0;
	const char *plain = "{\"group\":\"signflip\",\"d\":3,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"%s\"%s}";
	char spec[256];
	for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++) {
		/* BN×BN doubles: 3.1 KiB. */
		snprintf(spec, sizeof spec, plain, kernels[k], "");
		if (badenv) {
			code(symbo_cross(spec, xb, BN, NULL, 0, D, NULL, 0, out, BN * BN), SYMBO_EINVAL, "SYMBO_MEMORY_BUDGET", "malformed environment, no key");
		} else {
			code(symbo_cross(spec, xb, BN, NULL, 0, D, NULL, 0, out, BN * BN), SYMBO_ESIZE, "over the budget of 2 KiB", "environment's budget");
		}
		snprintf(spec, sizeof spec, plain, kernels[k], ",\"mem_budget\":\"1MiB\"");
		expect(symbo_cross(spec, xb, BN, NULL, 0, D, NULL, 0, out, BN * BN) == SYMBO_OK, "mem_budget over the environment's");
		snprintf(spec, sizeof spec, plain, kernels[k], ",\"mem_budget\":\"3000\"");
		code(symbo_cross(spec, xb, BN, NULL, 0, D, NULL, 0, out, BN * BN), SYMBO_ESIZE, "mem_budget", "mem_budget 3000 B");
		snprintf(spec, sizeof spec, plain, kernels[k], ",\"mem_budget\":\"lots\"");
		code(symbo_cross(spec, xb, BN, NULL, 0, D, NULL, 0, out, BN * BN), SYMBO_EINVAL, "mem_budget", "malformed mem_budget");
		snprintf(spec, sizeof spec, plain, kernels[k], ",\"mem_budget\":4096");
		code(symbo_cross(spec, xb, BN, NULL, 0, D, NULL, 0, out, BN * BN), SYMBO_EINVAL, "mem_budget", "mem_budget as a number");
	}
	/* The input copies are sized against it too (x: 480 bytes). */
	code(symbo_cross("{\"group\":\"signflip\",\"d\":3,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"base\",\"mem_budget\":\"256B\"}",
	                 xb, BN, NULL, 0, D, NULL, 0, out, BN * BN), SYMBO_ESIZE, "x needs", "input copy over mem_budget");
	/* What every BO step needs (512 raw samples in d = 2: 27.1 KiB) is
	 * refused when the optimizer is made, before any evaluation. */
	const char *tiny = "{\"problem\":\"Ackley2d\",\"kernel\":\"plus\",\"seed\":3,\"init\":3,\"mem_budget\":\"256B\"}";
	double hx[HN * 2], hy[HN];
	for (int i = 0; i < HN; i++) {
		hx[2 * i] = ((i * 37) % 641) / 20.0 - 16;
		hx[2 * i + 1] = ((i * 53) % 641) / 20.0 - 16;
		hy[i] = (i * 7) % 13 - 6;
	}
	code(symbo_suggest(tiny, hx, hy, 4, NULL, 0, 2, 1, pts, 2), SYMBO_ESIZE, "raw samples", "suggest, raw samples over mem_budget");
	{
		int64_t ht = 0;
		code(symbo_optimizer_new(tiny, &ht), SYMBO_ESIZE, "raw samples", "optimizer_new, raw samples over mem_budget");
	}
	const char *small = "{\"problem\":\"Ackley2d\",\"kernel\":\"plus\",\"seed\":3,\"init\":3,\"mem_budget\":\"32KiB\"}";
	const char *large = "{\"problem\":\"Ackley2d\",\"kernel\":\"plus\",\"seed\":3,\"init\":3,\"mem_budget\":\"64MiB\"}";
	/* A GP on HN = 400 points (256 landmarks): megabytes of work matrices. */
	code(symbo_suggest(small, hx, hy, HN, NULL, 0, 2, 1, pts, 2), SYMBO_ESIZE, "a GP on 400 observations", "suggest over mem_budget");
	expect(symbo_suggest(large, hx, hy, HN, NULL, 0, 2, 1, pts, 2) == SYMBO_OK, "suggest within mem_budget");
	if (badenv) {
		code(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\"}", hx, hy, 4, NULL, 0, 2, 1, pts, 2), SYMBO_EINVAL, "SYMBO_MEMORY_BUDGET", "suggest, malformed environment");
		int64_t h = 0;
		code(symbo_optimizer_new("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\"}", &h), SYMBO_EINVAL, "SYMBO_MEMORY_BUDGET", "optimizer_new, malformed environment");
	}
	/* A handle keeps the budget it was created with. */
	int64_t hs = 0, hl = 0;
	expect(symbo_optimizer_new(small, &hs) == SYMBO_OK && symbo_optimizer_new(large, &hl) == SYMBO_OK, "handles with mem_budget");
	for (int i = 0; i < HN; i++) {
		expect(symbo_optimizer_tell(hs, hx + 2 * i, 2, hy[i]) == SYMBO_OK, "tell small");
		expect(symbo_optimizer_tell(hl, hx + 2 * i, 2, hy[i]) == SYMBO_OK, "tell large");
	}
	code(symbo_optimizer_ask(hs, pts, 2), SYMBO_ESIZE, "a GP on 400 observations", "handle ask over its mem_budget");
	expect(symbo_optimizer_ask(hl, pts, 2) == SYMBO_OK, "handle ask within its mem_budget");
	size_t needed = 0;
	code(symbo_optimizer_history(hs, NULL, 0, &needed), SYMBO_ESIZE, "history JSON", "history over the handle's mem_budget");
	expect(symbo_optimizer_history(hl, NULL, 0, &needed) == SYMBO_OK && needed > 0, "history within the handle's mem_budget");
	/* Restoring a history is sized against the handle's budget before the
	 * JSON is decoded (it was decoded whole, whatever the budget). */
	char *js = malloc(needed + 1);
	expect(js != NULL && symbo_optimizer_history(hl, js, needed + 1, &needed) == SYMBO_OK, "history of the large handle");
	int64_t rs = 0, rl = 0;
	expect(symbo_optimizer_new(small, &rs) == SYMBO_OK && symbo_optimizer_new(large, &rl) == SYMBO_OK, "handles to restore");
	code(symbo_optimizer_restore(rs, js), SYMBO_ESIZE, "history JSON", "restore over the handle's mem_budget");
	expect(symbo_optimizer_restore(rl, js) == SYMBO_OK, "restore within the handle's mem_budget");
	free(js);
	expect(symbo_optimizer_free(rs) == SYMBO_OK && symbo_optimizer_free(rl) == SYMBO_OK, "free restored handles");
	expect(symbo_optimizer_free(hs) == SYMBO_OK && symbo_optimizer_free(hl) == SYMBO_OK, "free budget handles");
	if (failures == 0) printf("ok\n");
	return failures != 0;
}

/* Run as "check badbackend" with SYMBO_BACKEND=bogus: every call that
 * needs a backend fails with SYMBO_EINVAL naming it (a bad setting of the
 * caller's, as perf's exit 2), never SYMBO_EINTERNAL. */
static int badbackend(void) {
	double xb[3 * D], out[9], pts[2];
	for (int i = 0; i < 3 * D; i++) xb[i] = (i % 5 - 2) / 4.0;
	code(symbo_cross("{\"group\":\"signflip\",\"d\":3,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"plus\"}", xb, 3, NULL, 0, D, NULL, 0, out, 9),
	     SYMBO_EINVAL, "unknown backend", "cross, SYMBO_BACKEND=bogus");
	double hx[8] = {0.1, 0.2, -0.3, 0.4, 0.5, -0.6, 0.7, 0.8}, hy[4] = {1, 2, 3, 4};
	code(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\"}", hx, hy, 4, NULL, 0, 2, 1, pts, 2), SYMBO_EINVAL, "unknown backend", "suggest, SYMBO_BACKEND=bogus");
	if (failures == 0) printf("ok\n");
	return failures != 0;
}

/* A deciding kernel's setting given with a kernel it cannot act on is
 * SYMBO_EINVAL naming the setting and the kernel, from symbo_suggest and
 * symbo_optimizer_new alike (it was dropped without a word); the values
 * that ask for nothing the kernel lacks, and the default kernel with
 * every setting, are taken. */
static int inert(void) {
	double hx[8] = {1, 2, -3, 0.5, 4, -4, 0.25, 7}, hy[4] = {5, 4, 3, 6}, pts[2];
	int64_t h = 0;
	static const struct {
		const char *settings, *has;
	} bad[] = {
		{"{\"problem\":\"Ackley2d\",\"kernel\":\"plus\",\"hedge\":3}", "hedge 3 acts only on a portfolio kernel; kernel \"plus\" has one candidate"},
		{"{\"problem\":\"Ackley2d\",\"kernel\":\"auto\",\"hedge\":1}", "hedge 1 acts only on a portfolio kernel; kernel \"auto\""},
		{"{\"problem\":\"Ackley2d\",\"kernel\":\"soft\",\"probe\":\"earned\"}", "probe earned acts only on a portfolio kernel"},
		{"{\"problem\":\"Ackley2d\",\"kernel\":\"nystrom\",\"probe_window\":5}", "probe_window 5 acts only on a portfolio kernel naming avg; kernel \"nystrom\""},
		{"{\"problem\":\"Ackley2d\",\"kernel\":\"base\",\"candidate_fit\":\"anchored\"}", "candidate_fit anchored acts only on a deciding kernel"},
		{"{\"problem\":\"Ackley2d\",\"kernel\":\"soft\",\"landmarks\":16}", "landmarks 16 acts only on a kernel with a landmark form (every kernel but soft); kernel \"soft\" has none"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		code(symbo_suggest(bad[i].settings, hx, hy, 4, NULL, 0, 2, 1, pts, 2), SYMBO_EINVAL, bad[i].has, bad[i].settings);
		code(symbo_optimizer_new(bad[i].settings, &h), SYMBO_EINVAL, bad[i].has, bad[i].settings);
	}
	expect(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\",\"hedge\":0,\"probe\":\"always\",\"probe_window\":0,\"candidate_fit\":\"own\"}",
	                     hx, hy, 4, NULL, 0, 2, 1, pts, 2) == SYMBO_OK, "plus with the values that ask for nothing it lacks");
	expect(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"soft\",\"landmarks\":-1}", hx, hy, 4, NULL, 0, 2, 1, pts, 2) == SYMBO_OK,
	       "soft with landmarks -1 (never: exact, as soft is)");
	expect(symbo_optimizer_new("{\"problem\":\"Ackley2d\",\"landmarks\":16}", &h) == SYMBO_OK && symbo_optimizer_free(h) == SYMBO_OK,
	       "the default kernel, which names soft, with a landmark cap");
	expect(symbo_optimizer_new("{\"problem\":\"Ackley2d\",\"hedge\":3,\"probe\":\"earned\",\"probe_window\":2,\"candidate_fit\":\"anchored\"}", &h) == SYMBO_OK &&
	       symbo_optimizer_free(h) == SYMBO_OK, "the default kernel with every setting");
	if (failures == 0) printf("ok\n");
	return failures != 0;
}

/* A batch the search space runs out of midway — a 1-d box under sign
 * flips whose history covers [0, 1] at spacing 0.002 (the exclusion
 * radius: 1e-3 of the diagonal, 2) but for a gap around 0.51 — is
 * SYMBO_EINVAL whose message says how many of the q points could be
 * proposed and that q = that many returns them, from symbo_suggest and
 * from a handle's ask_batch and suggest (which record nothing); q = k
 * does return k points, q = k + 1 does not. The message was bo's alone,
 * counting the batch's first points as pending. */
static int exhausted(void) {
	static double hx[501], hy[501];
	int64_t n = 0;
	for (int i = 0; i <= 1000; i += 2) {
		double x = i / 1000.0;
		if (x <= 0.5 || x >= 0.52) {
			hx[n] = x;
			hy[n] = sin(7 * x);
			n++;
		}
	}
	const char *set = "{\"group\":\"hyperoctahedral\",\"d\":1,\"box\":[[-1],[1]]}";
	double pts[21];
	char msg[1024];
	code(symbo_suggest(set, hx, hy, n, NULL, 0, 1, 20, pts, 20), SYMBO_EINVAL, "search space exhausted", "suggest q = 20");
	symbo_last_error(msg, sizeof msg);
	const char *only = strstr(msg, "; only ");
	int k = -1, k2 = -1;
	expect(strncmp(msg, "search space exhausted", 22) == 0, "suggest q = 20: bo's message first");
	expect(only != NULL && sscanf(only, "; only %d of the q = 20 points could be proposed", &k) == 1, "suggest q = 20: how many could be proposed");
	const char *ret = strstr(msg, "): q = ");
	expect(ret != NULL && sscanf(ret, "): q = %d returns those", &k2) == 1 && k2 == k, "suggest q = 20: q = k returns them");
	if (k < 1 || k >= 20) {
		fprintf(stderr, "check.c: FAILED: %s: %d points proposed, want 1…19\n", msg, k);
		return 1;
	}
	expect(symbo_suggest(set, hx, hy, n, NULL, 0, 1, k, pts, k) == SYMBO_OK, "suggest q = k");
	char want[128];
	snprintf(want, sizeof want, "only %d of the q = %d points could be proposed", k, k + 1);
	code(symbo_suggest(set, hx, hy, n, NULL, 0, 1, k + 1, pts, k + 1), SYMBO_EINVAL, want, "suggest q = k + 1");

	int64_t h, no, np, nf;
	expect(symbo_optimizer_new(set, &h) == SYMBO_OK, "exhausted: new");
	for (int64_t i = 0; i < n; i++) expect(symbo_optimizer_tell(h, hx + i, 1, hy[i]) == SYMBO_OK, "exhausted: tell");
	snprintf(want, sizeof want, "only %d of the q = 20 points could be proposed", k);
	code(symbo_optimizer_ask_batch(h, 20, pts, 20), SYMBO_EINVAL, want, "ask_batch q = 20");
	code(symbo_optimizer_suggest(h, 20, pts, 20), SYMBO_EINVAL, want, "handle suggest q = 20");
	expect(symbo_optimizer_counts(h, &no, &np, &nf) == SYMBO_OK && no == n && np == 0 && nf == 0, "exhausted: a refused batch records nothing");
	expect(symbo_optimizer_ask_batch(h, k, pts, k) == SYMBO_OK, "ask_batch q = k");
	expect(symbo_optimizer_free(h) == SYMBO_OK, "exhausted: free");
	if (failures == 0) printf("ok\n");
	return failures != 0;
}

/* With SYMBO_CAPI_TEST_PANIC=1 every call panics inside the library: it
 * must come back as SYMBO_EINTERNAL with a message, on every thread. */
static int panics(void) {
	double out[N * N];
	char msg[256];
	expect(cross("base", 0, out) == SYMBO_EINTERNAL, "panic → SYMBO_EINTERNAL");
	expect(symbo_last_error(msg, sizeof msg) > 0 && strstr(msg, "internal error") != NULL, "panic message");
	expect(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\"}", NULL, NULL, 0, NULL, 0, 2, 1, out, 2) == SYMBO_EINTERNAL, "suggest panic");
	int64_t h = 0;
	expect(symbo_optimizer_new("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\"}", &h) == SYMBO_EINTERNAL, "optimizer_new panic");
	expect(symbo_optimizer_ask(1, out, 2) == SYMBO_EINTERNAL, "optimizer_ask panic");
	expect(symbo_optimizer_free(1) == SYMBO_EINTERNAL, "optimizer_free panic");
	if (failures == 0) printf("ok\n");
	return failures != 0;
}

/* The floating-point environment: a C thread may run with another
 * rounding mode, flush-to-zero or unmasked exceptions (fesetround,
 * feenableexcept, -ffast-math's start-up code). The library computes in
 * the default environment whatever the caller's, and gives the caller
 * its own back. It computed in the caller's: a Gram and an optimizer's
 * points were other bits under FE_UPWARD than on a default thread, a
 * kernel of two far-apart points was SYMBO_EINTERNAL ("a bug in symbo":
 * a floating point error) under an unmasked overflow, and a Go thread
 * the library started from such a caller kept the caller's rounding for
 * good, changing the results of later calls from default threads. */
#define FN 120
static double fenv_x[FN * D];
static const char *fenv_spec = "{\"group\":\"hyperoctahedral\",\"d\":3,\"base\":\"matern52\",\"lengthscale\":1.3,\"kernel\":\"avg\"}";
static const char *fenv_set = "{\"group\":\"hyperoctahedral\",\"d\":3,\"box\":[[-2],[2]],\"kernel\":\"plus\",\"seed\":7,\"init\":3}";

struct fenv_run {
	int mode; /* 0 default, 1 FE_UPWARD, 2 flush-to-zero and denormals-are-zero (x86), 3 unmasked exceptions */
	double gram[N * N], big[FN * FN], pts[6 * D], far[4];
	int code, kept; /* kept: the caller's environment is its own after every call */
};

/* The control modes of the calling thread: rounding, unmasked exceptions
 * and, on x86, MXCSR's control bits (flush-to-zero, denormals-are-zero). */
static unsigned long fenv_modes(void) {
	unsigned long m = (unsigned long)fegetround() << 32 | (unsigned long)fegetexcept() << 16;
#if defined(__x86_64__) || defined(__i386__)
	unsigned csr;
	__asm__ volatile("stmxcsr %0" : "=m"(csr));
	m |= csr & ~0x3fu;
#endif
	return m;
}

static void *fenv_thread(void *arg) {
	struct fenv_run *r = arg;
	fesetenv(FE_DFL_ENV);
	if (r->mode == 1) fesetround(FE_UPWARD);
#if defined(__x86_64__) || defined(__i386__)
	if (r->mode == 2) {
		unsigned csr;
		__asm__ volatile("stmxcsr %0" : "=m"(csr));
		csr |= 0x8040; /* FTZ, DAZ */
		__asm__ volatile("ldmxcsr %0" : : "m"(csr));
	}
#endif
	if (r->mode == 3) feenableexcept(FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW);
	unsigned long modes = fenv_modes();
	r->kept = 1;
#define KEPT() do { if (fenv_modes() != modes) r->kept = 0; } while (0)
	int c = symbo_cross(fenv_spec, X, N, NULL, 0, D, NULL, 0, r->gram, N * N);
	KEPT();
	/* Large enough to run on several goroutines. */
	c |= symbo_cross(fenv_spec, fenv_x, FN, NULL, 0, D, NULL, 0, r->big, FN * FN);
	KEPT();
	/* Their squared distance overflows: the kernel is 0. */
	double far[2 * D] = {1e200, 0, 0, -1e200, 1, 0};
	c |= symbo_cross("{\"group\":\"signflip\",\"d\":3,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"base\"}", far, 2, NULL, 0, D, NULL, 0, r->far, 4);
	KEPT();
	int64_t h = 0;
	c |= symbo_optimizer_new(fenv_set, &h);
	for (int i = 0; i < 6 && c == SYMBO_OK; i++) {
		double *x = r->pts + D * i;
		c |= symbo_optimizer_ask(h, x, D);
		/* Values exact in any rounding mode: the same values told. */
		c |= symbo_optimizer_tell(h, x, D, (double)((i * 7) % 5));
		KEPT();
	}
	c |= symbo_optimizer_free(h);
	KEPT();
#undef KEPT
	r->code = c;
	fesetenv(FE_DFL_ENV);
	return NULL;
}

static int fenv_checks(void) {
	for (int i = 0; i < FN * D; i++) fenv_x[i] = ((i * 37) % 23 - 11) / 8.0 + i / 1024.0;
	static struct fenv_run ref, run;
	pthread_t t;
	pthread_create(&t, NULL, fenv_thread, &ref);
	pthread_join(t, NULL);
	expect(ref.code == SYMBO_OK, "default environment: every call succeeds");
	for (int round = 0; round < 3; round++) {
		for (int mode = 0; mode <= 3; mode++) {
			memset(&run, 0, sizeof run);
			run.mode = mode;
			pthread_create(&t, NULL, fenv_thread, &run);
			pthread_join(t, NULL);
			char what[128];
			snprintf(what, sizeof what, "environment %d (round %d): every call succeeds", mode, round);
			expect(run.code == SYMBO_OK, what);
			snprintf(what, sizeof what, "environment %d (round %d): the caller's environment is kept", mode, round);
			expect(run.kept, what);
			snprintf(what, sizeof what, "environment %d (round %d): the default environment's bits", mode, round);
			expect(memcmp(run.gram, ref.gram, sizeof ref.gram) == 0 && memcmp(run.big, ref.big, sizeof ref.big) == 0 &&
			       memcmp(run.far, ref.far, sizeof ref.far) == 0 && memcmp(run.pts, ref.pts, sizeof ref.pts) == 0, what);
		}
	}
	if (failures == 0) printf("ok\n");
	return failures != 0;
}

// failOnce makes one failing call on its own thread and exits, leaving
// that thread's error message behind.
static void *failOnce(void *arg) {
	(void)arg;
	int64_t h = 0;
	if (symbo_optimizer_new("{\"group\": \"no such group, a message of some length to leave behind\"}", &h) != SYMBO_EINVAL) return arg;
	return NULL;
}

// threadExits: 2000 threads each leave an error message and exit; the
// messages end with their threads (a __thread pointer leaked each one:
// about 48 bytes a thread, 96 KB here), so what malloc holds grows by
// far less than that.
static int threadExits(void) {
	pthread_t t;
	for (int i = 0; i < 50; i++) { // warm-up: the runtime's own first allocations
		pthread_create(&t, NULL, failOnce, NULL);
		pthread_join(t, NULL);
	}
	size_t before = mallinfo2().uordblks;
	for (int i = 0; i < 2000; i++) {
		if (pthread_create(&t, NULL, failOnce, NULL) != 0) {
			printf("pthread_create failed\n");
			return 1;
		}
		void *r;
		pthread_join(t, &r);
		if (r != NULL) {
			printf("the call did not fail as expected\n");
			return 1;
		}
	}
	size_t after = mallinfo2().uordblks;
	if (after > before + 32 * 1024) {
		printf("malloc holds %zu bytes more after 2000 threads exited with an error message each\n", after - before);
		return 1;
	}
	printf("ok\n");
	return 0;
}

int main(int argc, char **argv) {
	points();
	if (argc > 1 && strcmp(argv[1], "threadexit") == 0) return threadExits();
	if (argc > 1 && strcmp(argv[1], "panic") == 0) return panics();
	if (argc > 1 && strcmp(argv[1], "budget") == 0) return budgets(0);
	if (argc > 1 && strcmp(argv[1], "badenv") == 0) return budgets(1);
	if (argc > 1 && strcmp(argv[1], "badbackend") == 0) return badbackend();
	if (argc > 1 && strcmp(argv[1], "fenv") == 0) return fenv_checks();
	if (argc > 1 && strcmp(argv[1], "inert") == 0) return inert();
	if (argc > 1 && strcmp(argv[1], "exhausted") == 0) return exhausted();
	expect(symbo_abi_version() == SYMBO_ABI_VERSION, "abi version");
	printf("version %s\n", symbo_version());

	double out[N * N];
	for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++) {
		char label[64];
		expect(cross(kernels[k], 0, out) == SYMBO_OK, "gram");
		snprintf(label, sizeof label, "gram %s", kernels[k]);
		bits(label, out, N * N);
		expect(cross(kernels[k], 1, out) == SYMBO_OK, "cross");
		snprintf(label, sizeof label, "cross %s", kernels[k]);
		bits(label, out, N * M);
	}

	/* suggest: a 2-d benchmark with a history of 4 points and one pending. */
	double hx[4 * 2] = {1, 2, -3, 0.5, 4, -4, 0.25, 7}, hy[4] = {5, 4, 3, 6}, pend[2] = {-1, -1}, pts[3 * 2];
	const char *set = "{\"problem\":\"Ackley2d\",\"kernel\":\"plus\",\"seed\":3,\"init\":3}";
	expect(symbo_suggest(set, hx, hy, 4, pend, 1, 2, 3, pts, 6) == SYMBO_OK, "suggest");
	bits("suggest", pts, 6);
	expect(symbo_suggest(set, NULL, NULL, 0, NULL, 0, 2, 1, pts, 2) == SYMBO_OK, "suggest empty history");
	bits("suggest0", pts, 2);
	/* No history, three pending points, three more asked (init is 3): the
	 * initial design continues (issue 15, defect 1; was SYMBO_EINTERNAL). */
	double pend3[3 * 2] = {1, 2, -3, 0.5, 4, -4};
	expect(symbo_suggest(set, NULL, NULL, 0, pend3, 3, 2, 3, pts, 6) == SYMBO_OK, "suggest pending beyond init");
	for (int i = 0; i < 6; i++)
		expect(pts[i] == pts[i] && pts[i] >= -32.768 && pts[i] <= 32.768, "suggest pending beyond init: in the box");

	/* A failed evaluation has no value, and symbo_suggest no failed
	 * points: a NaN in hist_y is refused with a message saying what to do
	 * (it named Fail and perf suggest's --failed, which this call lacks),
	 * and the failed points given as pending are passed over as a
	 * handle's symbo_optimizer_fail passes over them: the same point. */
	{
		double fy[4] = {5, 4, NAN, 6}, via_pending[2], via_fail[2];
		code(symbo_suggest(set, hx, fy, 4, NULL, 0, 2, 1, pts, 2), SYMBO_EINVAL, "hist_y[2] = NaN is not finite; symbo_suggest takes no failed points: give the x of an evaluation that failed among the pending points", "suggest NaN value");
		fy[2] = -INFINITY;
		code(symbo_suggest(set, hx, fy, 4, NULL, 0, 2, 1, pts, 2), SYMBO_EINVAL, "hist_y[2] = -Inf is not finite", "suggest -Inf value");
		expect(symbo_suggest(set, hx, hy, 2, hx + 4, 2, 2, 1, via_pending, 2) == SYMBO_OK, "suggest, failed points as pending");
		int64_t hf;
		expect(symbo_optimizer_new(set, &hf) == SYMBO_OK, "optimizer_new for fail");
		for (int i = 0; i < 2; i++) expect(symbo_optimizer_tell(hf, hx + 2 * i, 2, hy[i]) == SYMBO_OK, "tell for fail");
		for (int i = 2; i < 4; i++) expect(symbo_optimizer_fail(hf, hx + 2 * i, 2) == SYMBO_OK, "fail");
		expect(symbo_optimizer_ask(hf, via_fail, 2) == SYMBO_OK, "ask after fail");
		expect(memcmp(via_pending, via_fail, sizeof via_fail) == 0, "failed points as pending: the point symbo_optimizer_fail gives");
		expect(symbo_optimizer_free(hf) == SYMBO_OK, "free after fail");
	}

	/* Errors: codes and messages. */
	char msg[512];
	expect(symbo_cross(NULL, X, N, NULL, 0, D, NULL, 0, out, N * N) == SYMBO_EINVAL, "NULL spec");
	expect(symbo_last_error(msg, sizeof msg) > 0 && strstr(msg, "spec") != NULL, "NULL spec message");
	expect(cross("max", 1, out) == SYMBO_OK, "ok clears");
	expect(symbo_last_error(msg, sizeof msg) == 0 && msg[0] == 0, "no error after success");
	expect(symbo_cross("{\"group\":\"signflip\",\"d\":3,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"base\"}", X, N, NULL, 0, D, NULL, 0, out, 5) == SYMBO_ESIZE, "small buffer");
	expect(symbo_cross("{\"group\":\"signflip\",\"d\":3,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"base\",\"extra\":1}", X, N, NULL, 0, D, NULL, 0, out, N * N) == SYMBO_EINVAL, "unknown field");
	expect(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\"}", hx, hy, 4, NULL, 0, 3, 1, pts, 6) == SYMBO_EINVAL, "suggest dimension");
	size_t full = symbo_last_error(msg, 8);
	expect(full > 7 && strlen(msg) == 7, "truncated message");
	const char *maxspec = "{\"group\":\"signflip\",\"d\":3,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"max\"}";
	expect(symbo_cross(maxspec, X, N, NULL, 0, D, Y, M, out, N * N) == SYMBO_EINVAL, "design for max");
	expect(symbo_last_error(msg, sizeof msg) > 0 && strstr(msg, "design") != NULL, "design for max message");
	expect(symbo_cross(maxspec, X, N, NULL, 0, D, NULL, 0, NULL, N * N) == SYMBO_EINVAL, "NULL out");
	expect(symbo_last_error(msg, sizeof msg) > 0 && strstr(msg, "out is NULL") != NULL, "NULL out message");
	expect(symbo_cross("{\"group\":\"signflip\",\"d\":3,\"base\":\"rbf\",\"lengthscale\":1,\"kernel\":\"plus\"}", X, N, NULL, 0, D, Y, 0, out, N * N) == SYMBO_EINVAL, "design with 0 rows");
	expect(symbo_suggest(set, hx, hy, 4, NULL, 0, 2, 1, NULL, 2) == SYMBO_EINVAL, "suggest NULL out");

	sizes();
	handle_sequence();
	handle_errors();
	handle_info();
	handle_threads();

	/* Threads: the same results, and each thread its own last error. */
	double ref[N * N];
	expect(cross("plus", 0, ref) == SYMBO_OK, "reference");
	pthread_t th[4];
	struct job jobs[4];
	for (int i = 0; i < 4; i++) {
		jobs[i].id = i;
		pthread_create(&th[i], NULL, worker, &jobs[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		expect(jobs[i].code == SYMBO_OK, "thread result code (or a message from another thread)");
		expect(jobs[i].badcode == SYMBO_EINVAL, "thread error code");
		expect(memcmp(jobs[i].out, ref, sizeof ref) == 0, "thread result bits");
	}
	if (failures == 0) printf("ok\n");
	return failures != 0;
}
