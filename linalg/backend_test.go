package linalg_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/linalg/linalgtest"
	"gonum.org/v1/gonum/mat"
)

func TestConformance(t *testing.T) {
	for _, name := range linalg.Available() {
		t.Run("backend="+name, func(t *testing.T) {
			b, err := linalg.ByName(name)
			if err != nil {
				t.Fatal(err)
			}
			if b.Name() != name {
				t.Fatalf("ByName(%q).Name() = %q", name, b.Name())
			}
			if name == "gonum" {
				// Full depth in make test's GOMAXPROCS 1 leg, a sample in
				// the others; openblas runs only in its own leg, in full.
				linalgtest.RunSome(t, b, func(i int) bool { return testdepth.Keep(t, i) })
				return
			}
			linalgtest.Run(t, b)
		})
	}
}

func TestByName(t *testing.T) {
	avail := linalg.Available()
	if len(avail) == 0 || avail[0] != "gonum" {
		t.Fatalf("Available() = %v, want gonum first", avail)
	}
	if _, err := linalg.ByName("openblas"); slices.Contains(avail, "openblas") {
		if err != nil {
			t.Errorf("openblas is available but ByName fails: %v", err)
		}
	} else {
		if !errors.Is(err, linalg.ErrUnavailable) {
			t.Errorf("ByName(openblas) without the tag: err = %v, want ErrUnavailable", err)
		}
		for _, want := range []string{"-tags openblas", "libopenblas-dev", "liblapacke-dev"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v does not mention %q", err, want)
			}
		}
	}
	_, err := linalg.ByName("mkl")
	if err == nil || !strings.Contains(err.Error(), "gonum") || !strings.Contains(err.Error(), "openblas") {
		t.Errorf("ByName(mkl): err = %v, want one listing gonum and openblas", err)
	}
	// An input error (the C ABI's SYMBO_EINVAL, perf's exit 2), not an
	// unclassified one, which front ends report as the library's bug.
	if !errors.Is(err, linalg.ErrBadBackend) || errclass.Of(err) != errclass.Input {
		t.Errorf("ByName(mkl): err = %v (class %v), want ErrBadBackend, an input error", err, errclass.Of(err))
	}
	t.Setenv(linalg.EnvBackend, "mkl")
	if _, err := linalg.Default(); !errors.Is(err, linalg.ErrBadBackend) {
		t.Errorf("Default with %s=mkl: err = %v, want ErrBadBackend", linalg.EnvBackend, err)
	}
}

func TestDefault(t *testing.T) {
	for _, tc := range []struct {
		env, want string
		ok        bool
	}{
		{"", "gonum", true},
		{"gonum", "gonum", true},
		{"openblas", "openblas", slices.Contains(linalg.Available(), "openblas")},
		{"GONUM", "", false},
		{"blas", "", false},
	} {
		t.Run("env="+tc.env, func(t *testing.T) {
			t.Setenv(linalg.EnvBackend, tc.env)
			b, err := linalg.Default()
			if !tc.ok {
				if err == nil {
					t.Fatalf("no error, got backend %s", b.Name())
				}
				if !strings.Contains(err.Error(), linalg.EnvBackend) {
					t.Errorf("error %q does not name %s", err, linalg.EnvBackend)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Name() != tc.want {
				t.Errorf("Default() = %s, want %s", b.Name(), tc.want)
			}
		})
	}
}

func TestOpenBLASInfo(t *testing.T) {
	if !slices.Contains(linalg.Available(), "openblas") {
		if linalg.OpenBLASCoreName() != "" || linalg.OpenBLASThreads() != 0 {
			t.Errorf("without openblas: core %q threads %d, want \"\" and 0", linalg.OpenBLASCoreName(), linalg.OpenBLASThreads())
		}
		return
	}
	if linalg.OpenBLASCoreName() == "" {
		t.Error("OpenBLASCoreName() is empty")
	}
	if n := linalg.OpenBLASThreads(); n < 1 {
		t.Errorf("OpenBLASThreads() = %d", n)
	}
	t.Logf("OpenBLAS core %s, %d thread(s)", linalg.OpenBLASCoreName(), linalg.OpenBLASThreads())
}

// TestOpenBLASThreadsEnv: an invalid SYMBO_OPENBLAS_THREADS is an error
// wrapping ErrBadBackend from ByName("openblas"), and a valid one is the
// thread count OpenBLAS runs with. The variable is read once per process,
// so each value runs in a child: this test binary, on this test alone. A
// count past C's int (2147483648, 4294967297) was converted with
// C.int — wrapped to a negative count, which OpenBLAS replaces by its
// default (every core), or to 1 — instead of refused.
func TestOpenBLASThreadsEnv(t *testing.T) {
	const child = "LINALG_TEST_THREADS_CHILD"
	if os.Getenv(child) == "1" {
		_, err := linalg.ByName("openblas")
		fmt.Printf("result: threads=%d bad=%v err=%v\n", linalg.OpenBLASThreads(), errors.Is(err, linalg.ErrBadBackend), err)
		return
	}
	if !slices.Contains(linalg.Available(), "openblas") {
		t.Skip("openblas backend not compiled in")
	}
	for _, tc := range []struct {
		env     string
		threads int // 0: an error wrapping ErrBadBackend
	}{
		{"1", 1},
		{"2", 2},
		{"0", 0},
		{"-1", 0},
		{" 1", 0},
		{"two", 0},
		{"2147483648", 0},
		{"4294967297", 0},
		{"9223372036854775808", 0},
	} {
		t.Run(tc.env, func(t *testing.T) {
			c := exec.Command(os.Args[0], "-test.run=^TestOpenBLASThreadsEnv$")
			c.Env = append(os.Environ(), child+"=1", linalg.EnvOpenBLASThreads+"="+tc.env)
			out, err := c.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			var line string
			for l := range strings.Lines(string(out)) {
				if strings.HasPrefix(l, "result: ") {
					line = strings.TrimSpace(l)
				}
			}
			if tc.threads == 0 {
				if !strings.Contains(line, "bad=true") {
					t.Errorf("%s=%q: %q, want an error wrapping ErrBadBackend", linalg.EnvOpenBLASThreads, tc.env, line)
				}
				return
			}
			if want := fmt.Sprintf("result: threads=%d bad=false err=<nil>", tc.threads); line != want {
				t.Errorf("%s=%q: %q, want %q", linalg.EnvOpenBLASThreads, tc.env, line, want)
			}
		})
	}
}

// TestGonumGemmAllocs: the pure-Go Gemm allocates nothing after warm-up
// when it runs serially (small products), as the kernels' allocation
// contract needs.
func TestGonumGemmAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not asserted under the race detector")
	}
	be := linalg.Gonum()
	a, b := mat.NewDense(20, 7, nil), mat.NewDense(7, 9, nil)
	for i := range a.RawMatrix().Data {
		a.RawMatrix().Data[i] = float64(i%5) - 2
	}
	for i := range b.RawMatrix().Data {
		b.RawMatrix().Data[i] = float64(i%3) + 0.5
	}
	c := mat.NewDense(20, 9, nil)
	for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}} {
		x, y := a, b
		if tr[0] {
			x = mat.DenseCopyOf(a.T())
		}
		if tr[1] {
			y = mat.DenseCopyOf(b.T())
		}
		be.Gemm(tr[0], tr[1], 1, x, y, 0, c)
		if n := testing.AllocsPerRun(20, func() { be.Gemm(tr[0], tr[1], 1.5, x, y, 0.5, c) }); n != 0 {
			t.Errorf("transA %v transB %v: %v allocations per call", tr[0], tr[1], n)
		}
	}
}

// TestGemmDisjointViews: c may be a column block of the matrix whose
// other columns hold a and b (their address ranges interleave, their
// elements do not); the product equals gonum's mat.Mul on copies. c
// sharing an element with a is refused.
func TestGemmDisjointViews(t *testing.T) {
	for _, name := range linalg.Available() {
		be, err := linalg.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		m := mat.NewDense(6, 9, nil)
		for i := range m.RawMatrix().Data {
			m.RawMatrix().Data[i] = float64(i%7) - 3
		}
		a := m.Slice(0, 6, 0, 6).(*mat.Dense)
		b := m.Slice(0, 6, 6, 7).(*mat.Dense)
		c := m.Slice(0, 6, 7, 8).(*mat.Dense)
		var want mat.Dense
		want.Mul(mat.DenseCopyOf(a), mat.DenseCopyOf(b))
		be.Gemm(false, false, 1, a, b, 0, c)
		if !mat.Equal(c, &want) {
			t.Errorf("backend %s: c = %v, want %v", name, mat.Formatted(c), mat.Formatted(&want))
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "overlaps") {
					t.Errorf("backend %s: c sharing a column with a: recover() = %v, want the overlap panic", name, r)
				}
			}()
			be.Gemm(false, false, 1, a, b, 0, m.Slice(0, 6, 5, 6).(*mat.Dense))
		}()
	}
}

// TestNilMatrixIsEmpty: a nil a (and EigenSymProject's nil b) is an empty
// matrix, ErrShape, in every backend, as &mat.SymDense{} is; the entry
// points dereferenced it and panicked.
func TestNilMatrixIsEmpty(t *testing.T) {
	for _, name := range linalg.Available() {
		b, err := linalg.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		var e linalg.Eigen
		if err := b.EigenSym(&e, nil); !errors.Is(err, linalg.ErrShape) {
			t.Errorf("%s: EigenSym(nil): err = %v, want ErrShape", name, err)
		}
		var c linalg.Cholesky
		if err := b.Cholesky(&c, nil); !errors.Is(err, linalg.ErrShape) {
			t.Errorf("%s: Cholesky(nil): err = %v, want ErrShape", name, err)
		}
		var p linalg.EigenProj
		if err := linalg.EigenSymProject(b, &p, nil, mat.NewDense(1, 1, nil)); !errors.Is(err, linalg.ErrShape) {
			t.Errorf("%s: EigenSymProject(nil a): err = %v, want ErrShape", name, err)
		}
		if err := linalg.EigenSymProject(b, &p, mat.NewSymDense(1, []float64{1}), nil); !errors.Is(err, linalg.ErrShape) {
			t.Errorf("%s: EigenSymProject(nil b): err = %v, want ErrShape", name, err)
		}
	}
}

// TestEigenSymProjectDstSharesA: a dst.Proj that shares storage with a
// (a scratch buffer holding both) gives the results of a separate dst, as
// EigenSym's dst.Vectors over a's storage does (and as a dst.Proj over
// b's storage did). EigenSymProject copied b into dst.Proj before it read
// a, so it decomposed b's entries written over a's: other eigenvalues
// with a nil error.
func TestEigenSymProjectDstSharesA(t *testing.T) {
	const n, p = 6, 2
	for _, name := range linalg.Available() {
		be, err := linalg.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, off := range []int{0, 5, n*n - n*p} {
			a0 := linalgtest.RandomSymmetric(rand.New(rand.NewPCG(3, 4)), n)
			b := mat.NewDense(n, p, nil)
			for i := range n {
				b.Set(i, 0, float64(i)-2.5)
				b.Set(i, 1, float64(i%2))
			}
			var want linalg.EigenProj
			if err := linalg.EigenSymProject(be, &want, a0, b); err != nil {
				t.Fatal(err)
			}
			data := make([]float64, n*n)
			a := mat.NewSymDense(n, data)
			a.CopySym(a0)
			got := linalg.EigenProj{Proj: mat.NewDense(n, p, data[off:off+n*p])}
			if err := linalg.EigenSymProject(be, &got, a, b); err != nil {
				t.Fatalf("%s, Proj at a's element %d: %v", name, off, err)
			}
			if !slices.Equal(got.Values, want.Values) || !mat.Equal(got.Proj, want.Proj) {
				t.Errorf("%s, Proj at a's element %d: values %v, want %v", name, off, got.Values, want.Values)
			}
			// dst.Proj over b's storage, shifted either way.
			buf := make([]float64, n*p+off)
			for _, bo := range []int{0, off} {
				bb := mat.NewDense(n, p, buf[bo:bo+n*p])
				bb.Copy(b)
				got := linalg.EigenProj{Proj: mat.NewDense(n, p, buf[off-bo:off-bo+n*p])}
				if err := linalg.EigenSymProject(be, &got, a0, bb); err != nil {
					t.Fatalf("%s, b at %d, Proj at %d: %v", name, bo, off-bo, err)
				}
				if !slices.Equal(got.Values, want.Values) || !mat.Equal(got.Proj, want.Proj) {
					t.Errorf("%s, b at %d, Proj at %d: projections %v, want %v", name, bo, off-bo, mat.Formatted(got.Proj), mat.Formatted(want.Proj))
				}
			}
		}
	}
}

// TestDstOfAnotherShapeOverInput: a dst whose Vectors or Proj has
// another shape (a previous, larger problem's) and holds the input in its
// storage — a scratch buffer reused for the next matrix — gives the
// results of a separate dst. Resizing it zeroed that storage (gonum's
// ReuseAs) before the input was read: EigenSym decomposed a zero matrix
// and EigenSymProject projected a zero b, each with a nil error.
func TestDstOfAnotherShapeOverInput(t *testing.T) {
	const n, p = 5, 2
	a0 := linalgtest.RandomSymmetric(rand.New(rand.NewPCG(5, 6)), n)
	b0 := mat.NewDense(n, p, nil)
	for i := range n {
		b0.Set(i, 0, float64(i)-1.5)
		b0.Set(i, 1, float64(i%3))
	}
	for _, name := range linalg.Available() {
		be, err := linalg.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		var want linalg.Eigen
		if err := be.EigenSym(&want, a0); err != nil {
			t.Fatal(err)
		}
		var wantP linalg.EigenProj
		if err := linalg.EigenSymProject(be, &wantP, a0, b0); err != nil {
			t.Fatal(err)
		}
		// Vectors (n+1)×(n+1) from a previous problem; a in its storage.
		buf := make([]float64, (n+1)*(n+1))
		a := mat.NewSymDense(n, buf[:n*n])
		a.CopySym(a0)
		got := linalg.Eigen{Vectors: mat.NewDense(n+1, n+1, buf)}
		if err := be.EigenSym(&got, a); err != nil {
			t.Fatalf("%s: EigenSym: %v", name, err)
		}
		if !slices.Equal(got.Values, want.Values) || !mat.Equal(got.Vectors, want.Vectors) {
			t.Errorf("%s: EigenSym with Vectors over a: values %v, want %v", name, got.Values, want.Values)
		}
		// Proj (n+1)×(n+1) from a previous problem; a, then b, in its storage.
		for _, inB := range []bool{false, true} {
			buf := make([]float64, (n+1)*(n+1))
			a, b := a0, b0
			if inB {
				b = mat.NewDense(n, p, buf[:n*p])
				b.Copy(b0)
			} else {
				s := mat.NewSymDense(n, buf[:n*n])
				s.CopySym(a0)
				a = s
			}
			got := linalg.EigenProj{Proj: mat.NewDense(n+1, n+1, buf)}
			if err := linalg.EigenSymProject(be, &got, a, b); err != nil {
				t.Fatalf("%s: EigenSymProject: %v", name, err)
			}
			if !slices.Equal(got.Values, wantP.Values) || !mat.Equal(got.Proj, wantP.Proj) {
				t.Errorf("%s: EigenSymProject with Proj over b=%v: values %v, want %v; projections %v, want %v", name, inB,
					got.Values, wantP.Values, mat.Formatted(got.Proj), mat.Formatted(wantP.Proj))
			}
		}
	}
}
