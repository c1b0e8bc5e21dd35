//go:build cgo

package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
)

// TestCABI builds libsymbo with -buildmode=c-shared, compiles
// testdata/check.c against symbo.h with gcc, runs it (GODEBUG=cgocheck=1)
// and compares every double it prints, bit for bit, with the Go API's
// result for the same inputs.
func TestCABI(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found: the C ABI test needs it (CI installs it)")
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "libsymbo.so")
	build := exec.Command("go", "build", "-buildmode=c-shared", "-o", lib, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildmode=c-shared: %v\n%s", err, out)
	}
	bin := filepath.Join(dir, "check")
	cc := exec.Command("gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-I.", "testdata/check.c", "-o", bin,
		"-L"+dir, "-lsymbo", "-Wl,-rpath,"+dir, "-pthread")
	if out, err := cc.CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	run := exec.Command(bin)
	run.Env = append(os.Environ(), "GODEBUG=cgocheck=1")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("check: %v\n%s", err, out)
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
	for _, l := range lines[1 : len(lines)-1] {
		f := strings.Fields(l)
		key := f[0]
		vals := f[1:]
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
	for _, k := range []string{"base", "avg", "avgnorm", "max", "plus"} {
		spec := frontend.KernelSpec{Group: frontend.Group{Group: "hyperoctahedral", D: 3}, Base: "matern52", Lengthscale: 1.3, Variance: 2, Kernel: k}
		for _, c := range []struct {
			key string
			y   *mat.Dense
		}{{"gram " + k, nil}, {"cross " + k, y}} {
			want, err := frontend.Cross(spec, x, c.y, nil, be)
			if err != nil {
				t.Fatal(err)
			}
			compareBits(t, c.key, got[c.key], want)
		}
	}
	st := frontend.SuggestSettings{Problem: "Ackley2d", Kernel: "plus", Seed: 3, Init: 3}
	opt, err := st.Optimizer(be)
	if err != nil {
		t.Fatal(err)
	}
	want, err := frontend.Suggest(opt, mat.NewDense(4, 2, []float64{1, 2, -3, 0.5, 4, -4, 0.25, 7}), []float64{5, 4, 3, 6}, mat.NewDense(1, 2, []float64{-1, -1}), 3)
	if err != nil {
		t.Fatal(err)
	}
	compareBits(t, "suggest", got["suggest"], want)
	opt, _ = st.Optimizer(be)
	want, _ = frontend.Suggest(opt, nil, nil, nil, 1)
	compareBits(t, "suggest0", got["suggest0"], want)
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
