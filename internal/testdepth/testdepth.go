// Package testdepth decides how much of an expensive test suite one test
// process runs. `make test` runs each configuration of the same tests
// (GOMAXPROCS 1 and 4, -race, -tags noasm, -tags openblas); an expensive
// suite — a conformance table over every group, shape and method — runs
// on a sample in each, the samples of four configurations together
// covering every case once (the Makefile says which process runs which
// sample, and where a package runs at full depth); `make test-long` runs
// every suite at full depth.
//
// The sample is named by the environment variable SYMBO_TEST_SAMPLE,
// "k/m" with 0 ≤ k < m: a process keeps the cases whose index i (their
// order in the suite's table) has i mod m = k. Unset or empty, every case
// runs (full depth: what `go test` does by default and what `make
// test-long` runs). A malformed value fails the test that asks, so a typo
// in the Makefile cannot silently skip a suite.
//
// Once does the same for a single expensive test, by its name.
// Sequential skips an expensive test whose code under test starts no
// goroutine in a sampled process built with -race, where the detector
// can find nothing in it and only multiplies its cost.
//
// Only tests read it; it is read once per process.
package testdepth

import (
	"fmt"
	"hash/fnv"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Var is the environment variable that names the sample.
const Var = "SYMBO_TEST_SAMPLE"

// part is the sample k/m: the cases i with i mod m = k.
type part struct{ k, m int }

func (p part) keep(i int) bool { return i%p.m == p.k }

var sample = sync.OnceValues(func() (part, error) { return parse(os.Getenv(Var)) })

func parse(s string) (part, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return part{0, 1}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	k, errK := strconv.Atoi(a)
	m, errM := strconv.Atoi(b)
	if !ok || errK != nil || errM != nil || m < 1 || k < 0 || k >= m {
		return part{}, fmt.Errorf("testdepth: %s=%q, want k/m with 0 ≤ k < m", Var, s)
	}
	return part{k, m}, nil
}

// Keep reports whether the case of index i runs in this process: always
// at full depth, one case in m in a sample. It fails t on a malformed
// SYMBO_TEST_SAMPLE.
func Keep(t testing.TB, i int) bool {
	t.Helper()
	p, err := sample()
	if err != nil {
		t.Fatal(err)
	}
	return p.keep(i)
}

// Once skips t unless this process runs at full depth or t's name falls
// in its sample (the name's FNV-1a hash mod m = k): an expensive test
// that is not a table then runs in exactly one of the sampled
// configurations besides the full one. Call it first in the test.
func Once(t testing.TB) {
	t.Helper()
	p, err := sample()
	if err != nil {
		t.Fatal(err)
	}
	if !p.keepName(t.Name()) {
		t.Skipf("expensive: runs at full depth and in sample %d/%d (%s=%d/%d here)", nameHash(t.Name())%uint64(p.m), p.m, Var, p.k, p.m)
	}
}

func nameHash(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

func (p part) keepName(name string) bool { return nameHash(name)%uint64(p.m) == uint64(p.k) }

// Full reports whether this process runs at full depth (no sample). It
// fails t on a malformed SYMBO_TEST_SAMPLE.
func Full(t testing.TB) bool {
	t.Helper()
	p, err := sample()
	if err != nil {
		t.Fatal(err)
	}
	return p.m == 1
}

// Sequential skips t when this process is sampled and built with -race
// (`make test`'s race leg): call it first in an expensive test whose code
// under test starts no goroutine, so that the race detector can find
// nothing in it and only multiplies its cost, by an order of magnitude
// or more (docs/performance.md, "The race detector's slowdown"). It runs
// in every other configuration, and under -race at full depth (a bare
// `go test -race`). A test that reaches internal/parallel, a worker pool
// or any other goroutine must not call it. It fails t on a malformed
// SYMBO_TEST_SAMPLE.
func Sequential(t testing.TB) {
	t.Helper()
	p, err := sample()
	if err != nil {
		t.Fatal(err)
	}
	if skipSequential(raceDetector, p) {
		t.Skipf("sequential code: the race detector finds nothing here (runs without -race, and under -race at full depth; %s=%s here)", Var, os.Getenv(Var))
	}
}

// skipSequential is Sequential's rule: skipped only in a sampled process
// built with -race.
func skipSequential(race bool, p part) bool { return race && p.m > 1 }
