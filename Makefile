# symbo — build, test and benchmark targets. `make test` is what CI runs.
GO      ?= go
PKGS    ?= ./...
# The openblas leg needs libopenblas-dev and liblapacke-dev. `make test`
# skips it with a warning when they are missing, unless REQUIRE_OPENBLAS=1
# (CI sets it, after installing them).
HAVE_LAPACKE := $(shell test -f /usr/include/lapacke.h -o -f /usr/include/x86_64-linux-gnu/lapacke.h && echo 1)

.PHONY: all build test test-gonum test-race test-openblas vet bench golden help

all: build

help:
	@echo "make build | test | bench | golden"

build:
	CGO_ENABLED=0 $(GO) build $(PKGS)
	$(GO) build -o bin/perf ./cmd/perf

vet:
	$(GO) vet $(PKGS)
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

## test: vet, pure-Go tests (CGO_ENABLED=0, GOMAXPROCS 1 and 4), -race on the
## parallel packages, and the openblas backend's tests.
test: vet test-gonum test-race test-openblas

test-gonum:
	CGO_ENABLED=0 $(GO) test -short -count=1 -cpu 1,4 $(PKGS)

test-race:
	$(GO) test -short -count=1 -race ./kernel/... ./orbit/... ./linalg/...

test-openblas:
ifeq ($(HAVE_LAPACKE),1)
	$(GO) test -short -count=1 -tags openblas ./linalg/... ./kernel/... ./cmd/...
else
ifeq ($(REQUIRE_OPENBLAS),1)
	@echo "lapacke.h not found: install libopenblas-dev liblapacke-dev" >&2; exit 1
else
	@echo "WARNING: skipping openblas tests (apt-get install libopenblas-dev liblapacke-dev to run them)" >&2
endif
endif

## bench: the benchmark suites, both backends when available.
bench:
	$(GO) test -run '^$$' -bench . -benchtime=1s -count=1 ./linalg/ ./kernel/
ifeq ($(HAVE_LAPACKE),1)
	$(GO) test -tags openblas -run '^$$' -bench . -benchtime=1s -count=1 ./linalg/
endif

## golden: regenerate testdata/golden with the independent reference.
golden:
	$(GO) run ./internal/refgen -out testdata/golden
