/*
 * check.c — the C side of capi's test: calls libsymbo through symbo.h and
 * prints every result as the bits of its doubles, which the Go test
 * compares with the Go API's. Also checks error codes, per-thread error
 * messages and concurrent calls from several threads.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* With SYMBO_CAPI_TEST_PANIC=1 every call panics inside the library: it
 * must come back as SYMBO_EINTERNAL with a message, on every thread. */
static int panics(void) {
	double out[N * N];
	char msg[256];
	expect(cross("base", 0, out) == SYMBO_EINTERNAL, "panic → SYMBO_EINTERNAL");
	expect(symbo_last_error(msg, sizeof msg) > 0 && strstr(msg, "internal error") != NULL, "panic message");
	expect(symbo_suggest("{\"problem\":\"Ackley2d\",\"kernel\":\"plus\"}", NULL, NULL, 0, NULL, 0, 2, 1, out, 2) == SYMBO_EINTERNAL, "suggest panic");
	if (failures == 0) printf("ok\n");
	return failures != 0;
}

int main(int argc, char **argv) {
	points();
	if (argc > 1 && strcmp(argv[1], "panic") == 0) return panics();
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
