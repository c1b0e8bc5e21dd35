package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/csvio"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

const (
	points5d = "../../testdata/examples/points5d.csv"
	points2d = "../../testdata/examples/points2d.csv"
)

// writeFile writes content to name in a fresh temporary directory and
// returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writePoints writes x as a point file and returns its path.
func writePoints(t *testing.T, name string, x *mat.Dense) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := csvio.WritePoints(f, x); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func readPointsT(t *testing.T, path string) *mat.Dense {
	t.Helper()
	x, err := csvio.ReadPoints(path)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// gram runs perf gram with args, requires success, and returns the matrix
// read back from its JSON output (every number checked to be in shortest
// round-trip form).
func gram(t *testing.T, args ...string) *mat.Dense {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"gram"}, args...)...)
	if code != 0 || stderr != "" {
		t.Fatalf("perf gram %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
	}
	r, c, m := parseMatrixJSON(t, stdout)
	out := mat.NewDense(max(r, 1), max(c, 1), nil)
	for i := range r {
		for j := range c {
			out.Set(i, j, shortest(t, m[i][j]))
		}
	}
	return out
}

// baseKernel is the textbook formula for base kernel b at distance r (docs/design.md).
func baseKernel(b string, v, l, r float64) float64 {
	u := r / l
	switch b {
	case "rbf":
		return v * math.Exp(-r*r/(2*l*l))
	case "matern12":
		return v * math.Exp(-u)
	case "matern32":
		return v * (1 + math.Sqrt(3)*u) * math.Exp(-math.Sqrt(3)*u)
	case "matern52":
		return v * (1 + math.Sqrt(5)*u + 5*u*u/3) * math.Exp(-math.Sqrt(5)*u)
	}
	panic("unknown base " + b)
}

func dist(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += (x[i] - y[i]) * (x[i] - y[i])
	}
	return math.Sqrt(s)
}

func checkClose(t *testing.T, what string, got, want float64, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %v, want %v (diff %g)", what, got, want, got-want)
	}
}

func TestGramBaseMatchesFormula(t *testing.T) {
	x5, x2 := readPointsT(t, points5d), readPointsT(t, points2d)
	for _, tc := range []struct {
		base     string
		v, l     float64
		x, y     string
		xm, ym   *mat.Dense
		d, group string
	}{
		{"rbf", 1, 2, points5d, "", x5, x5, "5", "hyperoctahedral"},
		{"rbf", 2.5, 0.7, points5d, points5d, x5, x5, "5", "none"},
		{"matern12", 1, 3, points2d, "", x2, x2, "2", "rotation2d"},
		{"matern32", 0.3, 1.5, points2d, "", x2, x2, "2", "signflip"},
		{"matern52", 1, 2, points5d, "", x5, x5, "5", "permutation"},
	} {
		t.Run(fmt.Sprintf("%s/v=%g/l=%g/group=%s/y=%t", tc.base, tc.v, tc.l, tc.group, tc.y != ""), func(t *testing.T) {
			args := []string{"--group", tc.group, "--d", tc.d, "--base", tc.base,
				"--lengthscale", fmt.Sprint(tc.l), "--variance", fmt.Sprint(tc.v),
				"--kernel", "base", "--x", tc.x, "--method", "enumerate"} // --method ignored by base
			if tc.y != "" {
				args = append(args, "--y", tc.y)
			}
			got := gram(t, args...)
			n, _ := tc.xm.Dims()
			m, _ := tc.ym.Dims()
			if r, c := got.Dims(); r != n || c != m {
				t.Fatalf("shape %d×%d, want %d×%d", r, c, n, m)
			}
			for i := range n {
				for j := range m {
					want := baseKernel(tc.base, tc.v, tc.l, dist(tc.xm.RawRowView(i), tc.ym.RawRowView(j)))
					checkClose(t, fmt.Sprintf("K[%d,%d]", i, j), got.At(i, j), want, 1e-12)
				}
			}
		})
	}
}

func TestGramInvariantKernels(t *testing.T) {
	// Positive points for the scaling group, inside its default box [0.1, 10].
	pos := mat.NewDense(6, 2, []float64{0.5, 1, 2, 3, 7.5, 0.2, 1, 1, 9, 4, 0.3, 0.3})
	posPath := writePoints(t, "pos.csv", pos)
	type tc struct {
		group string
		d     string
		x     string
		extra []string
	}
	cases := []tc{
		{"none", "5", points5d, nil},
		{"signflip", "5", points5d, nil},
		{"permutation", "5", points5d, nil},
		{"hyperoctahedral", "5", points5d, nil},
		{"cyclic", "5", points5d, nil},
		{"blockperm", "2", points2d, []string{"--block", "1"}},
		{"pairedperm", "2", points2d, nil},
		{"rotation2d", "2", points2d, nil},
		{"scaling", "2", posPath, nil},
		{"scaling", "2", posPath, []string{"--box", "0.1,10"}},
		{"scaling", "2", posPath, []string{"--box", "0.1:10"}},
		{"scaling", "2", posPath, []string{"--box", "0.1:12,0.05:10"}},
	}
	for _, c := range cases {
		for _, k := range []string{"avg", "max", "plus"} {
			name := fmt.Sprintf("group=%s/kernel=%s/%s", c.group, k, strings.Join(c.extra, ""))
			t.Run(name, func(t *testing.T) {
				args := append([]string{"--group", c.group, "--d", c.d, "--base", "matern52",
					"--lengthscale", "2", "--kernel", k, "--x", c.x}, c.extra...)
				got := gram(t, args...)
				n, _ := readPointsT(t, c.x).Dims()
				if r, cc := got.Dims(); r != n || cc != n {
					t.Fatalf("shape %d×%d, want %d×%d", r, cc, n, n)
				}
				for i := range n {
					for j := range i {
						checkClose(t, fmt.Sprintf("K[%d,%d] vs K[%d,%d]", i, j, j, i), got.At(i, j), got.At(j, i), 1e-12)
					}
					// avg and max are ≤ the base kernel's variance; plus
					// may exceed it (clipping adds a PSD matrix).
					if v := got.At(i, i); !(v > 0) || k != "plus" && !(v <= 1+1e-12) {
						t.Errorf("K[%d,%d] = %v, want in (0, 1]", i, i, v)
					}
				}
				if k == "max" {
					// Isometry groups: k_max(x, x) = v exactly.
					for i := range n {
						if c.group != "scaling" {
							checkClose(t, fmt.Sprintf("K[%d,%d]", i, i), got.At(i, i), 1, 1e-12)
						}
					}
				}
				if k == "plus" {
					// With the design D = X, K_plus(X, X) is K_max(X, X)
					// with its negative eigenvalues clipped to zero.
					kmax := gram(t, append([]string{"--group", c.group, "--d", c.d, "--base", "matern52",
						"--lengthscale", "2", "--kernel", "max", "--x", c.x}, c.extra...)...)
					want := clipNegative(t, kmax)
					for i := range n {
						for j := range n {
							checkClose(t, fmt.Sprintf("K_plus[%d,%d]", i, j), got.At(i, j), want.At(i, j), 1e-8)
						}
					}
				}
				if k != "max" {
					// avg and plus are PSD.
					var eig mat.EigenSym
					if !eig.Factorize(mat.NewSymDense(n, symmetrize(got)), false) {
						t.Fatal("eigendecomposition failed")
					}
					if lmin := slices.Min(eig.Values(nil)); lmin < -1e-9 {
						t.Errorf("smallest eigenvalue %g < 0: not PSD", lmin)
					}
				}
			})
		}
	}
}

// clipNegative returns Q·max(Λ, 0)·Qᵀ for the symmetric part of a.
func clipNegative(t *testing.T, a *mat.Dense) *mat.Dense {
	t.Helper()
	n, _ := a.Dims()
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(n, symmetrize(a)), true) {
		t.Fatal("eigendecomposition failed")
	}
	lambda := eig.Values(nil)
	var q mat.Dense
	eig.VectorsTo(&q)
	out := mat.NewDense(n, n, nil)
	for k, l := range lambda {
		if l <= 0 {
			continue
		}
		for i := range n {
			for j := range n {
				out.Set(i, j, out.At(i, j)+l*q.At(i, k)*q.At(j, k))
			}
		}
	}
	return out
}

func symmetrize(a *mat.Dense) []float64 {
	n, _ := a.Dims()
	s := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s[i*n+j] = (a.At(i, j) + a.At(j, i)) / 2
		}
	}
	return s
}

// TestGramInvariance moves every point of Y by a group element and checks
// the kernel does not change: the CLI really used the group.
func TestGramInvariance(t *testing.T) {
	x := readPointsT(t, points5d)
	n, d := x.Dims()
	// A signed permutation: reverse the coordinates and flip two signs.
	gy := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			v := x.At(i, d-1-j)
			if j%2 == 0 {
				v = -v
			}
			gy.Set(i, j, v)
		}
	}
	gyPath := writePoints(t, "gy.csv", gy)
	for _, k := range []string{"avg", "max", "plus"} {
		t.Run("kernel="+k, func(t *testing.T) {
			common := []string{"--group", "hyperoctahedral", "--d", "5", "--base", "rbf",
				"--lengthscale", "3", "--kernel", k, "--x", points5d}
			a := gram(t, common...)
			b := gram(t, append(common, "--y", gyPath)...)
			for i := range n {
				for j := range n {
					checkClose(t, fmt.Sprintf("K(x, g·y)[%d,%d]", i, j), b.At(i, j), a.At(i, j), 1e-10)
				}
			}
			// The base kernel is not invariant: the same test must see a change.
			if k == "max" {
				c := gram(t, "--group", "hyperoctahedral", "--d", "5", "--base", "rbf",
					"--lengthscale", "3", "--kernel", "base", "--x", points5d, "--y", gyPath)
				if mat.EqualApprox(c, a, 1e-6) {
					t.Error("base kernel unchanged by the group: test cannot fail")
				}
			}
		})
	}
}

// TestGramBitsMatchLibrary checks the printed floats are the library's bits.
func TestGramBitsMatchLibrary(t *testing.T) {
	x, y := readPointsT(t, points5d), readPointsT(t, points5d).Slice(3, 11, 0, 5).(*mat.Dense)
	yPath := writePoints(t, "y.csv", y)
	got := gram(t, "--group", "hyperoctahedral", "--d", "5", "--base", "matern52", "--lengthscale", "2",
		"--variance", "1.7", "--kernel", "max", "--x", points5d, "--y", yPath)
	g, err := orbit.Parse(orbit.Spec{Name: "hyperoctahedral", D: 5})
	if err != nil {
		t.Fatal(err)
	}
	k, err := kernel.NewMax(kernel.Params{Shape: kernel.Matern52, Variance: 1.7, Lengthscale: 2}, g, kernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want mat.Dense
	if err := k.CrossTo(&want, x, y); err != nil {
		t.Fatal(err)
	}
	r, c := want.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c || r != 20 || c != 8 {
		t.Fatalf("shape %d×%d, want %d×%d = 20×8", gr, gc, r, c)
	}
	for i := range r {
		for j := range c {
			if a, b := got.At(i, j), want.At(i, j); math.Float64bits(a) != math.Float64bits(b) {
				t.Errorf("[%d,%d] printed %v, library %v", i, j, a, b)
			}
		}
	}
}

func TestGramPlusDesign(t *testing.T) {
	// A design other than X, and Y other than X: n×m output.
	x := readPointsT(t, points5d)
	design := writePoints(t, "design.csv", x.Slice(0, 12, 0, 5).(*mat.Dense))
	y := writePoints(t, "y.csv", x.Slice(12, 20, 0, 5).(*mat.Dense))
	common := []string{"--group", "permutation", "--d", "5", "--base", "rbf", "--lengthscale", "4",
		"--kernel", "plus", "--x", points5d, "--design", design}
	got := gram(t, append(common, "--y", y)...)
	if r, c := got.Dims(); r != 20 || c != 8 {
		t.Fatalf("shape %d×%d, want 20×8", r, c)
	}
	// Columns of K(X, Y) are columns 12… of K(X, X) with the same design.
	full := gram(t, common...)
	for i := range 20 {
		for j := range 8 {
			checkClose(t, fmt.Sprintf("K[%d,%d]", i, j), got.At(i, j), full.At(i, 12+j), 1e-10)
		}
	}
}

func TestGramBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	malformed := write("bad.csv", "1,2\n3,abc\n")
	empty := write("empty.csv", "")
	ragged := write("ragged.csv", "1,2\n3\n")
	nan := write("nan.csv", "1,NaN\n")
	twelve := write("p12.csv", strings.Repeat(strings.TrimSuffix(strings.Repeat("0.5,", 12), ",")+"\n", 3))
	missing := filepath.Join(dir, "nope.csv")

	// ok is a valid command line; each case replaces or adds flags.
	ok := map[string]string{"group": "hyperoctahedral", "d": "5", "base": "matern52",
		"lengthscale": "2", "kernel": "max", "x": points5d}
	argv := func(set map[string]string, drop ...string) []string {
		m := map[string]string{}
		for k, v := range ok {
			m[k] = v
		}
		for k, v := range set {
			m[k] = v
		}
		for _, k := range drop {
			delete(m, k)
		}
		args := []string{"gram"}
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range m {
				if !yield(k) {
					return
				}
			}
		}) {
			args = append(args, "--"+k, m[k])
		}
		return args
	}
	type tc struct {
		name string
		args []string
		want []string
	}
	cases := []tc{
		{"missing x file", argv(map[string]string{"x": missing}), []string{"nope.csv"}},
		{"missing y file", argv(map[string]string{"y": missing}), []string{"--y", "nope.csv"}},
		{"malformed csv", argv(map[string]string{"x": malformed, "d": "2"}), []string{"bad.csv:2:2:", `"abc" is not a number`}},
		{"ragged csv", argv(map[string]string{"x": ragged, "d": "2"}), []string{"ragged.csv:2:", "fields"}},
		{"nan in csv", argv(map[string]string{"x": nan, "d": "2"}), []string{"nan.csv:1:2:", "finite"}},
		{"empty file", argv(map[string]string{"x": empty}), []string{"empty.csv: empty file"}},
		{"malformed design", argv(map[string]string{"kernel": "plus", "design": malformed, "d": "2", "x": points2d}), []string{"--design", "bad.csv:2:2:"}},
		{"unknown group", argv(map[string]string{"group": "bogus"}), []string{"bogus"}},
		{"unknown kernel", argv(map[string]string{"kernel": "bogus"}), []string{"--kernel", "bogus"}},
		{"unknown base", argv(map[string]string{"base": "bogus"}), []string{"bogus"}},
		{"unknown method", argv(map[string]string{"method": "bogus"}), []string{"bogus"}},
		{"lengthscale 0", argv(map[string]string{"lengthscale": "0"}), []string{"--lengthscale"}},
		{"lengthscale -1", argv(map[string]string{"lengthscale": "-1"}), []string{"--lengthscale"}},
		{"lengthscale NaN", argv(map[string]string{"lengthscale": "NaN"}), []string{"--lengthscale"}},
		{"lengthscale Inf", argv(map[string]string{"lengthscale": "Inf"}), []string{"--lengthscale"}},
		{"lengthscale not a number", argv(map[string]string{"lengthscale": "two"}), []string{"lengthscale"}},
		{"variance 0", argv(map[string]string{"variance": "0"}), []string{"--variance"}},
		{"variance -2", argv(map[string]string{"variance": "-2"}), []string{"--variance"}},
		{"d mismatch", argv(map[string]string{"d": "3", "group": "permutation"}), []string{"5 columns", "--d is 3"}},
		{"d mismatch y", argv(map[string]string{"y": points2d}), []string{"--y", "2 columns", "--d is 5"}},
		{"d mismatch design", argv(map[string]string{"kernel": "plus", "design": points2d}), []string{"--design", "2 columns"}},
		{"d zero", argv(map[string]string{"d": "0"}), []string{"--d"}},
		{"d not an int", argv(map[string]string{"d": "five"}), []string{"-d"}},
		{"odd d pairedperm", argv(map[string]string{"group": "pairedperm"}), []string{"pairedperm"}},
		{"d not multiple of block", argv(map[string]string{"group": "blockperm", "block": "2"}), []string{"block"}},
		{"blockperm without block", argv(map[string]string{"group": "blockperm"}), []string{"--block"}},
		{"block with other group", argv(map[string]string{"block": "1"}), []string{"--block", "blockperm"}},
		{"box with other group", argv(map[string]string{"box": "0,1"}), []string{"--box", "scaling"}},
		{"box malformed", argv(map[string]string{"group": "scaling", "box": "1"}), []string{"--box"}},
		{"box not numbers", argv(map[string]string{"group": "scaling", "box": "a,b"}), []string{"--box"}},
		{"box reversed", argv(map[string]string{"group": "scaling", "box": "10,0.1"}), []string{"--box", "LO"}},
		{"box three intervals", argv(map[string]string{"group": "scaling", "box": "1:2,1:2,1:2"}), []string{"--box", "LO:HI"}},
		{"box reversed interval", argv(map[string]string{"group": "scaling", "box": "3:2"}), []string{"--box", "LO < HI"}},
		{"matrices without file", argv(map[string]string{"group": "matrices"}), []string{"--matrices"}},
		{"matrices missing file", argv(map[string]string{"group": "matrices", "matrices": missing}), []string{"nope.csv"}},
		{"matrices flag with other group", argv(map[string]string{"matrices": missing}), []string{"--matrices"}},
		{"design without plus", argv(map[string]string{"design": points5d}), []string{"--design", "plus"}},
		{"enumerate over budget", argv(map[string]string{"d": "12", "x": twelve, "method": "enumerate"}), nil},
		{"closed without closed form", argv(map[string]string{"kernel": "avg", "base": "matern52", "method": "closed"}), nil},
		{"backend bogus", argv(map[string]string{"backend": "bogus"}), []string{"bogus"}},
		{"backend bogus base kernel", argv(map[string]string{"backend": "bogus", "kernel": "base"}), []string{"bogus"}},
		{"missing one flag", argv(nil, "lengthscale"), []string{"missing required flag --lengthscale"}},
		{"missing several flags", argv(nil, "x", "group"), []string{"missing required flags", "--group", "--x"}},
		{"no flags", []string{"gram"}, []string{"missing required flags"}},
		{"unknown flag", append(argv(nil), "--frob", "1"), []string{"flag provided but not defined", "-frob"}},
		{"stray argument", append(argv(nil), "extra"), []string{`unexpected argument "extra"`}},
		{"flag without value", append(argv(nil), "--y"), []string{"-y"}},
	}
	if !slices.Contains(linalg.Available(), "openblas") {
		cases = append(cases, tc{"backend openblas unavailable", argv(map[string]string{"backend": "openblas", "kernel": "plus"}), []string{"openblas"}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, c.args...)
			checkOneLineError(t, code, stdout, stderr, "perf gram: ", c.want...)
		})
	}
}

// TestGramDoesNotTouchInputs checks perf gram leaves its input files as
// they were.
func TestGramDoesNotTouchInputs(t *testing.T) {
	content := "1,2\n3,4\n5,6\n"
	p := writeFile(t, "in.csv", content)
	for _, k := range []string{"base", "max", "plus"} {
		args := []string{"--group", "signflip", "--d", "2", "--base", "rbf", "--lengthscale", "1",
			"--kernel", k, "--x", p, "--y", p}
		if k == "plus" {
			args = append(args, "--design", p)
		}
		gram(t, args...)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != content {
		t.Errorf("input file now %q (err %v), was %q", b, err, content)
	}
}

// TestGramMatricesGroup uses the shipped JSON group file (rotations by
// multiples of 90°): rotating Y by 90° leaves the kernel unchanged.
func TestGramMatricesGroup(t *testing.T) {
	const rot90 = "../../testdata/examples/rot90.json"
	x := readPointsT(t, points2d)
	n, _ := x.Dims()
	ry := mat.NewDense(n, 2, nil)
	for i := range n {
		ry.Set(i, 0, -x.At(i, 1))
		ry.Set(i, 1, x.At(i, 0))
	}
	ryPath := writePoints(t, "ry.csv", ry)
	for _, k := range []string{"avg", "max", "plus"} {
		t.Run("kernel="+k, func(t *testing.T) {
			common := []string{"--group", "matrices", "--matrices", rot90, "--d", "2", "--base", "rbf",
				"--lengthscale", "1.5", "--kernel", k, "--x", points2d}
			a := gram(t, common...)
			b := gram(t, append(common, "--y", ryPath)...)
			if !mat.EqualApprox(a, b, 1e-10) {
				t.Errorf("K(X, R·X) ≠ K(X, X):\n%v\n%v", mat.Formatted(a), mat.Formatted(b))
			}
		})
	}
	// The file's dimension must agree with --d.
	code, stdout, stderr := runCLI(t, "gram", "--group", "matrices", "--matrices", rot90, "--d", "5",
		"--base", "rbf", "--lengthscale", "1", "--kernel", "max", "--x", points5d)
	checkOneLineError(t, code, stdout, stderr, "perf gram: ", "rot90.json")
}

// TestGramNamesCaseInsensitive: -flag and --flag, any case of the names.
func TestGramNamesCaseInsensitive(t *testing.T) {
	a := gram(t, "--group", "hyperoctahedral", "--d", "5", "--base", "matern52", "--lengthscale", "2",
		"--kernel", "max", "--x", points5d)
	b := gram(t, "-group", "HyperOctahedral", "-d", "5", "-base", "Matern52", "-lengthscale=2",
		"-kernel", "MAX", "-x", points5d)
	if !mat.Equal(a, b) {
		t.Error("results differ")
	}
}

// TestGramBackendFlag: an explicit --backend gonum gives the default's bits
// when SYMBO_BACKEND is unset.
func TestGramBackendFlag(t *testing.T) {
	t.Setenv(linalg.EnvBackend, "")
	common := []string{"--group", "signflip", "--d", "5", "--base", "rbf", "--lengthscale", "2",
		"--kernel", "plus", "--x", points5d}
	a := gram(t, common...)
	b := gram(t, append(common, "--backend", "gonum")...)
	if !mat.Equal(a, b) {
		t.Error("--backend gonum differs from the default backend")
	}
	// The environment variable is honoured, and a bad one is bad input.
	t.Setenv(linalg.EnvBackend, "bogus")
	code, stdout, stderr := runCLI(t, append([]string{"gram"}, common...)...)
	checkOneLineError(t, code, stdout, stderr, "perf gram: ", "bogus")
}

// TestGramNystrom: on its own design the nystrom kernel is the base
// kernel (a PSD Gram loses nothing to the projection, up to the
// truncation of eigenvalues below n·ε·λ_max); off the design it is
// k_b(x, D)·K⁻¹·k_b(D, y), computed here with an independent solve.
func TestGramNystrom(t *testing.T) {
	x5 := readPointsT(t, points5d)
	n, _ := x5.Dims()
	common := []string{"--group", "hyperoctahedral", "--d", "5", "--base", "matern52", "--lengthscale", "2.5", "--variance", "1.3", "--kernel", "nystrom"}
	got := gram(t, append(common, "--x", points5d)...)
	for i := range n {
		for j := range n {
			want := baseKernel("matern52", 1.3, 2.5, dist(x5.RawRowView(i), x5.RawRowView(j)))
			checkClose(t, fmt.Sprintf("K[%d,%d]", i, j), got.At(i, j), want, 1e-9)
		}
	}
	// Off the design: queries are the first points shifted.
	m := min(n, 4)
	q := mat.NewDense(m, 5, nil)
	for i := range m {
		for k := range 5 {
			q.Set(i, k, x5.At(i, k)+0.3*float64(k+1)-0.2*float64(i))
		}
	}
	qp := writePoints(t, "q.csv", q)
	design := mat.DenseCopyOf(x5.Slice(0, n-1, 0, 5)) // not all of x: the design is its own flag
	dp := writePoints(t, "design.csv", design)
	off := gram(t, append(common, "--x", qp, "--design", dp)...)
	nd, _ := design.Dims()
	var kdd mat.SymDense
	kdd.ReuseAsSym(nd)
	for i := range nd {
		for j := i; j < nd; j++ {
			kdd.SetSym(i, j, baseKernel("matern52", 1.3, 2.5, dist(design.RawRowView(i), design.RawRowView(j))))
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(&kdd) {
		t.Fatal("base Gram of the design is not PD")
	}
	for a := range m {
		for b := range m {
			ka, kb := mat.NewVecDense(nd, nil), mat.NewVecDense(nd, nil)
			for i := range nd {
				ka.SetVec(i, baseKernel("matern52", 1.3, 2.5, dist(q.RawRowView(a), design.RawRowView(i))))
				kb.SetVec(i, baseKernel("matern52", 1.3, 2.5, dist(q.RawRowView(b), design.RawRowView(i))))
			}
			var s mat.VecDense
			if err := ch.SolveVecTo(&s, kb); err != nil {
				t.Fatal(err)
			}
			checkClose(t, fmt.Sprintf("K(q%d, q%d)", a, b), off.At(a, b), mat.Dot(ka, &s), 1e-8)
		}
	}
}

// TestGramCoords: --coords makes the group act on those coordinates only:
// the kernel ignores a swap of the two grouped coordinates of y and sees a
// swap involving a free one; scaling takes the box of its coordinates.
func TestGramCoords(t *testing.T) {
	dir := t.TempDir()
	x, y, y2 := filepath.Join(dir, "x.csv"), filepath.Join(dir, "y.csv"), filepath.Join(dir, "y2.csv")
	os.WriteFile(x, []byte("0.3,-0.5,1.2,0.4\n"), 0o644)
	os.WriteFile(y, []byte("1.1,0.2,-0.4,0.9\n"), 0o644)
	os.WriteFile(y2, []byte("0.2,1.1,-0.4,0.9\n"), 0o644)
	gram := func(yf string, extra ...string) string {
		args := append([]string{"gram", "--group", "permutation", "--d", "4", "--coords", "0,1", "--base", "rbf",
			"--lengthscale", "0.8", "--kernel", "avg", "--x", x, "--y", yf}, extra...)
		code, out, stderr := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		return out
	}
	if a, b := gram(y), gram(y2); a != b {
		t.Errorf("swapping the grouped coordinates changed k: %s vs %s", a, b)
	}
	os.WriteFile(y2, []byte("-0.4,0.2,1.1,0.9\n"), 0o644)
	if a, b := gram(y), gram(y2); a == b {
		t.Error("swapping a free coordinate left k unchanged")
	}
	os.WriteFile(x, []byte("0.3,5,1.2,0.4\n"), 0o644)
	os.WriteFile(y, []byte("1.1,2,2.4,0.9\n"), 0o644)
	code, _, stderr := runCLI(t, "gram", "--group", "scaling", "--d", "4", "--coords", "1,2", "--box", "0.1:10", "--base", "rbf",
		"--lengthscale", "1", "--kernel", "max", "--x", x, "--y", y)
	if code != exitOK {
		t.Errorf("scaling on coordinates: exit %d: %s", code, stderr)
	}
}
