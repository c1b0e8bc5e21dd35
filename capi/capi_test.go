//go:build cgo

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
)

// checkBin compiles testdata/check.c against symbo.h and libsymbo.
func checkBin(t *testing.T) string {
	t.Helper()
	dir := buildLib(t)
	bin := filepath.Join(t.TempDir(), "check")
	cc := exec.Command("gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-I.", "testdata/check.c", "-o", bin,
		"-L"+dir, "-lsymbo", "-Wl,-rpath,"+dir, "-pthread", "-lm")
	if out, err := cc.CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	return bin
}

// environ is the environment without SYMBO_MEMORY_BUDGET, plus extra.
func environ(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SYMBO_MEMORY_BUDGET=") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// TestCABI builds libsymbo with -buildmode=c-shared, compiles
// testdata/check.c against symbo.h with gcc, runs it (GODEBUG=cgocheck=1)
// and compares every double it prints, bit for bit, with the Go API's
// result for the same inputs.
func TestCABI(t *testing.T) {
	bin := checkBin(t)
	run := exec.Command(bin)
	run.Env = environ("GODEBUG=cgocheck=1")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("check: %v\n%s", err, out)
	}
	// Each C thread's last error message ends with the thread.
	if tout, err := exec.Command(bin, "threadexit").CombinedOutput(); err != nil || strings.TrimSpace(string(tout)) != "ok" {
		t.Fatalf("check threadexit: %v\n%s", err, tout)
	}
	panicRun := exec.Command(bin, "panic")
	panicRun.Env = append(os.Environ(), "GODEBUG=cgocheck=1", "SYMBO_CAPI_TEST_PANIC=1")
	if pout, err := panicRun.CombinedOutput(); err != nil || strings.TrimSpace(string(pout)) != "ok" {
		t.Fatalf("check panic: %v\n%s", err, pout)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if lines[len(lines)-1] != "ok" || !strings.HasPrefix(lines[0], "version symbo ") {
		t.Fatalf("check output:\n%s", out)
	}
	got := map[string][]uint64{}
	var history string
	for _, l := range lines[1 : len(lines)-1] {
		f := strings.Fields(l)
		key := f[0]
		vals := f[1:]
		switch key {
		case "hhistory":
			history = strings.TrimPrefix(l, "hhistory ")
			continue
		case "hhammer":
			t.Logf("hammered handle: %s observations, %s pending, %s failed", f[1], f[2], f[3])
			continue
		}
		if key == "gram" || key == "cross" {
			key, vals = f[0]+" "+f[1], f[2:]
		}
		for _, v := range vals {
			b, err := strconv.ParseUint(v, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			got[key] = append(got[key], b)
		}
	}
	const n, m, d = 10, 7, 3
	x, y := mat.NewDense(n, d, nil), mat.NewDense(m, d, nil)
	for i := range n * d {
		x.RawMatrix().Data[i] = float64((i*37)%23-11) / 8
	}
	for i := range m * d {
		y.RawMatrix().Data[i] = float64((i*29)%19-9) / 4
	}
	be, _ := linalg.Default()
	variance := 2.0
	for _, k := range []string{"base", "avg", "avgnorm", "max", "plus"} {
		spec := frontend.KernelSpec{Group: frontend.Group{Group: "hyperoctahedral", D: 3}, Base: "matern52", Lengthscale: 1.3, Variance: &variance, Kernel: k}
		for _, c := range []struct {
			key string
			y   *mat.Dense
		}{{"gram " + k, nil}, {"cross " + k, y}} {
			want, err := frontend.Cross(spec, x, c.y, nil, be, 0)
			if err != nil {
				t.Fatal(err)
			}
			compareBits(t, c.key, got[c.key], want)
		}
	}
	st := frontend.SuggestSettings{Problem: "Ackley2d", Kernel: "plus", Seed: 3, Init: new(3)}
	opt, err := st.Optimizer(be, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := frontend.Suggest(opt, mat.NewDense(4, 2, []float64{1, 2, -3, 0.5, 4, -4, 0.25, 7}), []float64{5, 4, 3, 6}, mat.NewDense(1, 2, []float64{-1, -1}), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	compareBits(t, "suggest", got["suggest"], want)
	opt, _ = st.Optimizer(be, 0)
	want, _ = frontend.Suggest(opt, nil, nil, nil, nil, 1)
	compareBits(t, "suggest0", got["suggest0"], want)
	handleSequence(t, got, history)
}

// handleSequence replays check.c's handle_sequence with bo.Optimizer and
// compares every point, the history JSON and the best point.
func handleSequence(t *testing.T, got map[string][]uint64, history string) {
	t.Helper()
	be, _ := linalg.Default()
	st := frontend.SuggestSettings{Problem: "Ackley2d", Kernel: "plus", Seed: 3, Init: new(3)}
	opt, err := st.Optimizer(be, 0)
	if err != nil {
		t.Fatal(err)
	}
	rows := func(pts ...[]float64) *mat.Dense {
		m := mat.NewDense(len(pts), len(pts[0]), nil)
		for i, p := range pts {
			m.SetRow(i, p)
		}
		return m
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	a, err := opt.AskBatch(3)
	must(err)
	compareBits(t, "hask", got["hask"], rows(a...))
	must(opt.Tell(a[0], a[0][0]+a[0][1]))
	must(opt.Tell(a[1], a[1][0]+a[1][1]))
	must(opt.Fail(a[2]))
	b, err := opt.AskBatch(2)
	must(err)
	compareBits(t, "hbatch", got["hbatch"], rows(b...))
	must(opt.Tell(b[0], b[0][0]+b[0][1]))
	must(opt.AddPending([]float64{-1, -1}))
	c, err := opt.Ask()
	must(err)
	compareBits(t, "hask2", got["hask2"], rows(c))
	js, err := json.Marshal(opt.History())
	must(err)
	if string(js) != history {
		t.Errorf("history JSON:\nC  %s\nGo %s", history, js)
	}
	bx, by, _ := opt.Best()
	compareBits(t, "hbest", got["hbest"], rows(append(bx, by)))
}

var lib struct {
	once sync.Once
	dir  string
	err  error
}

// buildLib builds libsymbo.so once for the package's tests and returns its
// directory; it skips the test without gcc.
func buildLib(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found: the C ABI test needs it (CI installs it)")
	}
	lib.once.Do(func() {
		lib.dir, lib.err = os.MkdirTemp("", "symbo-capi-")
		if lib.err != nil {
			return
		}
		out, err := exec.Command("go", "build", "-buildmode=c-shared", "-o", filepath.Join(lib.dir, "libsymbo.so"), ".").CombinedOutput()
		if err != nil {
			lib.err = fmt.Errorf("go build -buildmode=c-shared: %v\n%s", err, out)
		}
	})
	if lib.err != nil {
		t.Fatal(lib.err)
	}
	return lib.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if lib.dir != "" {
		os.RemoveAll(lib.dir)
	}
	os.Exit(code)
}

// TestCABIBudget runs check.c's budget checks: SYMBO_MEMORY_BUDGET is the
// default budget of every call, read once at load; the settings key
// mem_budget overrides it for its call (an optimizer handle keeps its
// own); a malformed variable is SYMBO_EINVAL for the calls that need it.
func TestCABIBudget(t *testing.T) {
	bin := checkBin(t)
	for mode, env := range map[string]string{"budget": "2KiB", "badenv": "lots"} {
		run := exec.Command(bin, mode)
		run.Env = environ("GODEBUG=cgocheck=1", "SYMBO_MEMORY_BUDGET="+env)
		if out, err := run.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "ok" {
			t.Errorf("check %s (SYMBO_MEMORY_BUDGET=%s): %v\n%s", mode, env, err, out)
		}
	}
}

// TestCABIBadBackend runs check.c's badbackend checks: an unknown
// SYMBO_BACKEND is SYMBO_EINVAL (it was SYMBO_EINTERNAL, "a bug in
// symbo", where perf says bad input).
func TestCABIBadBackend(t *testing.T) {
	bin := checkBin(t)
	run := exec.Command(bin, "badbackend")
	run.Env = environ("GODEBUG=cgocheck=1", "SYMBO_BACKEND=bogus")
	if out, err := run.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("check badbackend (SYMBO_BACKEND=bogus): %v\n%s", err, out)
	}
}

// TestCABIInertSettings runs check.c's inert checks: "hedge", "probe"
// earned, "probe_window" above 0 with auto or a single kernel and
// "candidate_fit" anchored with a single kernel are SYMBO_EINVAL naming
// the setting and the kernel, from symbo_suggest and symbo_optimizer_new
// (they were dropped without a word); hedge 0 and the like are taken. So
// is "landmarks" above 0 with kernel soft (ABI 7), -1 taken.
func TestCABIInertSettings(t *testing.T) {
	bin := checkBin(t)
	run := exec.Command(bin, "inert")
	run.Env = environ("GODEBUG=cgocheck=1")
	if out, err := run.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("check inert: %v\n%s", err, out)
	}
}

// TestCABIExhaustedBatch runs check.c's exhausted checks: a batch the
// search space runs out of midway is SYMBO_EINVAL saying how many of its
// q points could be proposed and that q = that many returns them — from
// symbo_suggest and a handle's ask_batch and suggest, as perf suggest
// says it (frontend.AskBatch) — and q = k does return k points. The
// message was bo's alone.
func TestCABIExhaustedBatch(t *testing.T) {
	bin := checkBin(t)
	run := exec.Command(bin, "exhausted")
	run.Env = environ("GODEBUG=cgocheck=1")
	if out, err := run.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("check exhausted: %v\n%s", err, out)
	}
}

// TestCABIFloatEnv runs check.c's fenv checks: calls from C threads
// running with another floating-point environment (FE_UPWARD, x86's
// flush-to-zero and denormals-are-zero, unmasked overflow, invalid and
// divide-by-zero) give the default environment's bits and succeed, and
// leave the caller's environment as it was. They computed in the
// caller's: other bits under FE_UPWARD, SYMBO_EINTERNAL under an unmasked
// overflow.
func TestCABIFloatEnv(t *testing.T) {
	bin := checkBin(t)
	run := exec.Command(bin, "fenv")
	run.Env = environ("GODEBUG=cgocheck=1")
	if out, err := run.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("check fenv: %v\n%s", err, out)
	}
}

// TestReadmeC compiles README.md's C example with the build line the
// README gives (and -Wall -Wextra -Werror) and runs it.
func TestReadmeC(t *testing.T) {
	dir := buildLib(t)
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "## From C")
	if i < 0 {
		t.Fatal(`README.md has no "## From C" section`)
	}
	s = s[i:]
	start := strings.Index(s, "```c\n")
	if start < 0 {
		t.Fatal("no C block in README.md's From C section")
	}
	src := s[start+len("```c\n"):]
	src = src[:strings.Index(src, "```")]
	sh := s[strings.Index(s, "```sh\n")+len("```sh\n"):]
	sh = sh[:strings.Index(sh, "```")]
	if !strings.Contains(sh, "-L. -lsymbo -Wl,-rpath,") || !strings.Contains(sh, "LD_LIBRARY_PATH") || !strings.Contains(sh, "-Icapi") {
		t.Errorf("README's build lines lack the link flags:\n%s", sh)
	}
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "main.c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "main")
	cc := exec.Command("gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I.", filepath.Join(tmp, "main.c"), "-o", bin,
		"-L"+dir, "-lsymbo", "-Wl,-rpath,"+dir, "-pthread")
	if out, err := cc.CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s\n%s", err, out, src)
	}
	run := exec.Command(bin)
	run.Env = append(os.Environ(), "GODEBUG=cgocheck=1")
	out, err := run.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "best f = ") {
		t.Fatalf("README's C example: %v\n%s", err, out)
	}
}

// TestHeaderConstants: symbo.h's constants are the library's.
func TestHeaderConstants(t *testing.T) {
	h, err := os.ReadFile("symbo.h")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"SYMBO_ABI_VERSION": abiVersion, "SYMBO_MAX_BATCH": bo.MaxBatch, "SYMBO_MAX_DIM": bo.MaxDim} {
		m := regexp.MustCompile(`#define ` + name + ` (\d+)`).FindSubmatch(h)
		if m == nil || string(m[1]) != strconv.Itoa(want) {
			t.Errorf("symbo.h: %s is %q, the library's %d", name, m, want)
		}
	}
}

func compareBits(t *testing.T, key string, got []uint64, want *mat.Dense) {
	t.Helper()
	r, c := want.Dims()
	if len(got) != r*c {
		t.Fatalf("%s: C printed %d values, want %d", key, len(got), r*c)
	}
	for i := range r {
		for j := range c {
			if w := math.Float64bits(want.At(i, j)); got[i*c+j] != w {
				t.Fatalf("%s (%d,%d): C %v, Go %v", key, i, j, math.Float64frombits(got[i*c+j]), want.At(i, j))
			}
		}
	}
}
