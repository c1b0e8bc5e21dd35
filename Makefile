# symbo — build, test and benchmark targets. `make test` is what CI runs.
GO      ?= go
PKGS    ?= ./...
# The committed results, golden hashes and bit-equality tests are the
# bits of a GOAMD64=v1 build, Go's default. At v3 the compiler may fuse a
# multiply and an add into one rounding, which moves last bits (measured:
# two tests of bit equality between code paths, and a hash of proposals,
# fail). So every target here builds at v1, whatever the environment says.
export GOAMD64 := v1
# The openblas leg needs libopenblas-dev and liblapacke-dev. `make test`
# skips it with a warning when they are missing, unless REQUIRE_OPENBLAS=1
# (CI sets it, after installing them).
HAVE_LAPACKE := $(shell test -f /usr/include/lapacke.h -o -f /usr/include/x86_64-linux-gnu/lapacke.h && echo 1)

.PHONY: results results-check all build test test-gonum test-race test-race-cmd test-noasm test-openblas test-capi test-python test-python-long python field test-long check-generated vet bench bench-compare bench-gate golden fuzz help

all: build

help:
	@echo "make build | test | field | test-long | check-generated | fuzz | bench | bench-compare BASE=<rev> | bench-gate | golden"

build:
	CGO_ENABLED=0 $(GO) build $(PKGS)
	$(GO) build -o bin/perf ./cmd/perf

## vet: go vet, gofmt, and staticcheck (default checks; a go tool in
## go.mod) over both builds — the default and -tags openblas when lapacke is
## installed, since each sees files the other does not.
vet:
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)
ifeq ($(HAVE_LAPACKE),1)
	$(GO) tool staticcheck -tags openblas $(PKGS)
endif
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

## test: vet, pure-Go tests (CGO_ENABLED=0, GOMAXPROCS 1 and 4; the command at 1), -race on the
## library's packages (the command's: test-race-cmd), the generic SIMD paths, the openblas backend, the C
## ABI and the Python package. A leg that fails does not stop the others
## (make -k): make test fails at the end, after running every leg.
##
## The expensive suites (kernel's conformance tables and quadratures) run
## on a quarter each in the four configurations that build kernel
## (GOMAXPROCS 4, -race, noasm, openblas), which together cover every case
## once (SYMBO_TEST_SAMPLE, internal/testdepth); the GOMAXPROCS 1 leg runs
## every other package at full depth and kernel on noasm's quarter, so that
## every quarter runs on the SIMD paths too; test-long runs all of it at
## full depth. Python tests marked long (several seconds each) run in
## test-long too. Every go test has a -timeout sized for a loaded 2-core
## machine (TEST_TIMEOUT, RACE_TIMEOUT).
##
## TEST_JOBS legs run at once (default 2; the longest first, so that they
## end together), each leg's output printed whole when it ends
## (--output-sync), so a failure reads as it would alone.
TEST_LEGS    := test-race test-gonum test-python vet test-noasm test-openblas test-capi
TEST_TIMEOUT ?= 15m
RACE_TIMEOUT ?= 25m
TEST_JOBS    ?= 2
test:
	@$(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target $(TEST_LEGS) || { echo "make test: FAILED — a leg above failed (the others ran)" >&2; exit 1; }

# SAMPLED_PKG: the package whose expensive suites the GOMAXPROCS 1 leg
# samples (it is in every configuration; its full depth is test-long's);
# CPU1_PKGS and CPU1_SAMPLED: PKGS without it, and it when PKGS has it
# (go list, expanded only by test-gonum; empty when go list fails, which
# the recipe refuses rather than testing the current directory alone).
SAMPLED_PKG  := github.com/symbo/symbo/kernel
PKG_LIST      = $(eval PKG_LIST := $$(shell CGO_ENABLED=0 $(GO) list $(PKGS) 2>/dev/null))$(PKG_LIST)
CPU1_PKGS     = $(filter-out $(SAMPLED_PKG),$(PKG_LIST))
CPU1_SAMPLED  = $(filter $(SAMPLED_PKG),$(PKG_LIST))
# CMD_PKG: the command's package, left out of the GOMAXPROCS 4 leg. Most
# of its test time is perf run as a child process (kill and resume,
# signals, interrupted figures), at the machine's GOMAXPROCS whatever -cpu
# says, so a second pure-Go leg would repeat those runs; the GOMAXPROCS 1
# leg runs it whole, the openblas leg on its sample, test-long at the
# default GOMAXPROCS and under -race. CPU4_PKGS: PKGS without it.
CMD_PKG      := github.com/symbo/symbo/cmd/perf
CPU4_PKGS     = $(filter-out $(CMD_PKG),$(PKG_LIST))
test-gonum:
	@test -n "$(strip $(PKG_LIST))" || { echo "test-gonum: go list $(PKGS) listed no package" >&2; exit 1; }
	CGO_ENABLED=0 $(GO) test -short -count=1 -timeout $(TEST_TIMEOUT) -cpu 1 $(CPU1_PKGS)
	$(if $(CPU1_SAMPLED),CGO_ENABLED=0 SYMBO_TEST_SAMPLE=2/4 $(GO) test -short -count=1 -timeout $(TEST_TIMEOUT) -cpu 1 $(SAMPLED_PKG),@true)
	$(if $(CPU4_PKGS),CGO_ENABLED=0 SYMBO_TEST_SAMPLE=0/4 $(GO) test -short -count=1 -timeout $(TEST_TIMEOUT) -cpu 4 $(CPU4_PKGS),@true)

test-race:
	SYMBO_TEST_SAMPLE=1/4 $(GO) test -short -count=1 -timeout $(RACE_TIMEOUT) -race ./kernel/... ./orbit/... ./linalg/... ./internal/... ./gp/... ./bo/... ./bench/... ./capi/...

## test-race-cmd: -race on the command's tests, many of which run perf as
## a child process (kill and resume, signals, studies): the longest
## package under -race by far, so it runs with test-long, not make test.
test-race-cmd:
	SYMBO_TEST_SAMPLE=1/4 $(GO) test -short -count=1 -timeout $(RACE_TIMEOUT) -race ./cmd/...

## test-capi: the C ABI — builds libsymbo (-buildmode=c-shared), compiles a
## C program against capi/symbo.h with gcc and checks its results against
## the Go API to the bit, from several threads.
test-capi:
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./capi/

## python: builds libsymbo into the Python package (python/symbo).
python:
	$(GO) build -buildmode=c-shared -o python/symbo/libsymbo.so ./capi
	rm -f python/symbo/libsymbo.h

## test-python: the Python package's tests with Debian's interpreter
## (another python3 may come first on PATH). Skipped with a warning when
## numpy, pytest or optuna are missing, unless REQUIRE_PYTHON=1 (CI).
## The PostgreSQL scale-out test runs when SYMBO_TEST_POSTGRES is set
## (scripts/with-postgres.sh sets it).
PYTHON ?= /usr/bin/python3
## Tests marked long (pytest -m long) run in test-python-long, a part of
## test-long.
test-python: python
	@if $(PYTHON) -c 'import numpy, pytest, optuna' 2>/dev/null; then \
		$(PYTHON) -m pytest -q -m 'not long' python/tests; \
	elif [ "$(REQUIRE_PYTHON)" = 1 ]; then \
		echo "test-python: $(PYTHON) lacks numpy, pytest or optuna (apt-get install python3-numpy python3-pytest python3-optuna python3-psycopg2)" >&2; exit 1; \
	else \
		echo "WARNING: skipping the Python tests ($(PYTHON) lacks numpy, pytest or optuna)" >&2; \
	fi

test-python-long: python
	@if $(PYTHON) -c 'import numpy, pytest, optuna' 2>/dev/null; then \
		$(PYTHON) -m pytest -q -m long python/tests; \
	elif [ "$(REQUIRE_PYTHON)" = 1 ]; then \
		echo "test-python-long: $(PYTHON) lacks numpy, pytest or optuna" >&2; exit 1; \
	else \
		echo "WARNING: skipping the long Python tests ($(PYTHON) lacks numpy, pytest or optuna)" >&2; \
	fi

## field: the field test (python/field/field_study.py) — an Optuna study on
## PostgreSQL with 8 workers started at once, failing evaluations, log/int
## parameters, a group on some of them and one worker SIGKILLed; about
## 25 s. Needs SYMBO_TEST_POSTGRES: run it as scripts/with-postgres.sh make field.
field: python
	@test -n "$$SYMBO_TEST_POSTGRES" || { echo "field: SYMBO_TEST_POSTGRES is unset (run: scripts/with-postgres.sh make field)" >&2; exit 2; }
	$(PYTHON) python/field/field_study.py

## test-long: every test without -short (full sizes: MaxDot over |G| = 3840,
## the long linalg conformance sizes, …), pure Go and with openblas when
## available, test-race-cmd and the long Python tests (test-python-long).
## CI runs it after make test.
test-long: test-race-cmd test-python-long
	CGO_ENABLED=0 $(GO) test -count=1 -timeout 30m $(PKGS)
ifeq ($(HAVE_LAPACKE),1)
	SYMBO_TEST_SAMPLE=3/4 $(GO) test -count=1 -timeout 30m -tags openblas ./linalg/... ./kernel/...
endif

## check-generated: generated files (go generate: the AVX-512 permanent
## kernels, the unrolled permanents, the WLAN users) and the golden values
## of internal/refgen are current: regenerate them and require no diff and
## no new file (git diff does not see a file go generate creates that is
## not committed; files untracked before it ran do not count).
check-generated:
	@t=$$(mktemp); git ls-files -o --exclude-standard -- . >$$t; \
	echo '$(GO) generate ./...'; $(GO) generate ./... || { rm -f $$t; exit 1; }; \
	added=$$(git ls-files -o --exclude-standard -- . | grep -vxF -f $$t); rm -f $$t; \
	git diff --exit-code -- . || { echo "check-generated: go generate changed files; commit them" >&2; exit 1; }; \
	test -z "$$added" || { echo "check-generated: go generate created files that are not committed; commit them:" >&2; echo "$$added" >&2; exit 1; }
	@tmp=$$(mktemp -d); $(GO) run ./internal/refgen -out $$tmp >/dev/null && diff -r $$tmp testdata/golden >/dev/null || { echo "check-generated: testdata/golden is stale; run make golden" >&2; rm -rf $$tmp; exit 1; }; rm -rf $$tmp

## fuzz: every native fuzz target (found automatically) for about FUZZTIME
## each (default 30s), in execution-count bursts (scripts/fuzz.sh says why);
## a crasher fails and is left under testdata/fuzz.
fuzz:
	FUZZTIME=$(or $(FUZZTIME),30s) GO=$(GO) scripts/fuzz.sh

## test-noasm: the generic (non-SIMD) paths of every package that has them.
test-noasm:
	SYMBO_TEST_SAMPLE=2/4 $(GO) test -short -count=1 -timeout $(TEST_TIMEOUT) -tags noasm ./internal/f64/... ./kernel/... ./linalg/...

test-openblas:
ifeq ($(HAVE_LAPACKE),1)
	SYMBO_TEST_SAMPLE=3/4 $(GO) test -short -count=1 -timeout $(TEST_TIMEOUT) -tags openblas ./linalg/... ./kernel/... ./cmd/...
else
ifeq ($(REQUIRE_OPENBLAS),1)
	@echo "lapacke.h not found: install libopenblas-dev liblapacke-dev" >&2; exit 1
else
	@echo "WARNING: skipping openblas tests (apt-get install libopenblas-dev liblapacke-dev to run them)" >&2
endif
endif

## bench: the full benchmark suites (bench's BenchmarkCore and the package
## micro-benchmarks), with -tags openblas when lapacke is installed so both
## backends run. Output is printed and saved to bench/out/bench-<time>.txt
## (benchstat format). BENCH, BENCHTIME, COUNT and BENCH_PKGS override.
BENCH      ?= .
BENCHTIME  ?= 1s
COUNT      ?= 1
BENCH_PKGS ?= ./bench/ ./linalg/ ./kernel/ ./orbit/
BENCH_TAGS := $(if $(filter 1,$(HAVE_LAPACKE)),openblas,)
bench:
	@mkdir -p bench/out
	@out=bench/out/bench-$$(date +%Y%m%d-%H%M%S).txt; \
	{ echo "commit: $$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$$(git diff --quiet HEAD -- 2>/dev/null || echo -dirty)"; \
	  echo "tags: $(if $(BENCH_TAGS),$(BENCH_TAGS),none)"; } | tee $$out; \
	{ $(GO) test -tags '$(BENCH_TAGS)' -run '^$$' -bench '$(BENCH)' -benchtime=$(BENCHTIME) -count=$(COUNT) $(BENCH_PKGS); \
	  echo $$? >$$out.rc; } 2>&1 | tee -a $$out; \
	status=$$(cat $$out.rc); rm -f $$out.rc; echo "bench: results in $$out" >&2; exit $$status

## bench-compare: BASE (a git revision, required) against the working tree,
## interleaved, then benchstat; see scripts/bench-compare.sh for the knobs.
bench-compare:
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=<rev>" >&2; exit 2; }
	scripts/bench-compare.sh '$(BASE)'

## bench-gate: CI's regression gate, the short core suite of the tag
## bench-base (the last commit CI passed; else HEAD~1) vs the
## working tree; fails on a slowdown > 25% with p < 0.05 (scripts/bench-gate.sh).
## BASE=<rev> compares with that revision instead.
bench-gate:
	scripts/bench-gate.sh $(if $(BASE),'$(BASE)')

## results: regenerate every lab/results directory from the committed
## code (lab/scripts/results.sh; a few hours on 2 cores).
results:
	lab/scripts/results.sh

## results-check: the committed results regenerate — perf check reruns the
## cheapest cells (CHECK_CELLS, default 2) of every record.json under
## lab/results with the recorded settings, CHECK_SEEDS seeds of each
## (0: all; CI uses 1: one or two 500-evaluation runs per landmark
## record, 1-9 minutes each), plus CHECK_SPOT runs per record drawn among
## the others of at most 5 s (CI: 2; the draw's seed is HEAD's commit
## time, so a commit always checks the same runs and successive commits
## different ones), and compares the metrics bit for bit. The runs of
## all records share one pool of GOMAXPROCS workers, longest first.
## CHECK_ROTATE=1 (CI) reruns the cells of one member per family of
## records with the same settings and cells (a pilot, its main set and
## its replication), drawn by the same seed: the others rerun their spot
## draw only. CHECK_SEED_ORDER=cheapest (CI) reruns a cell's CHECK_SEEDS
## runs of least recorded time instead of its first seeds.
## CHECK_MAX_SECONDS=S (CI: 240) reruns only a sample of all that, drawn
## by the same seed, whose recorded run time fits in S seconds of the
## workers' time: successive commits rotate through the planned runs.
CHECK_CELLS ?= 2
CHECK_SEEDS ?= 0
CHECK_SPOT ?= 0
CHECK_ROTATE ?= 0
CHECK_SEED_ORDER ?= first
CHECK_MAX_SECONDS ?= 0
CHECK_SPOT_SEED ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
results-check:
	$(GO) run ./cmd/perf check --dir lab/results --cells $(CHECK_CELLS) --seeds $(CHECK_SEEDS) --spot $(CHECK_SPOT) --spot-seed $(CHECK_SPOT_SEED) --seed-order $(CHECK_SEED_ORDER) --max-seconds $(CHECK_MAX_SECONDS) $(if $(filter 1,$(CHECK_ROTATE)),--rotate)

## golden: regenerate testdata/golden with the independent reference.
golden:
	$(GO) run ./internal/refgen -out testdata/golden
