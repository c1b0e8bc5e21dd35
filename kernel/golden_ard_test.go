package kernel_test

import (
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// The ARD golden files, testdata/golden/ard_<group>_<base>.json, are
// written by internal/refgen from the definitions with a base kernel that
// has a lengthscale per coordinate, r² = Σ_i ((x_i − y_i)/ℓ_i)², equal
// within each class of coordinates the group moves together (classes in
// the file). symbo has no per-coordinate lengthscale in the kernel
// package; the optimizer gets one by scaling the inputs: with
// S = diag(L/ℓ_i), the ARD kernel is the isotropic kernel of lengthscale L
// at S·x, S·y, and since S commutes with the group (it is constant on every
// class), k_avg, k_max and k_plus (on the design S·D) of the ARD kernel are
// symbo's isotropic ones at the scaled points. TestGoldenARD checks exactly
// that against the reference, with the tolerances of TestGolden.

type ardGoldenCase struct {
	goldenCase
	Lengthscales []float64 `json:"lengthscales"`
	Classes      [][]int   `json:"classes"`
}

func loadGoldenARD(t *testing.T) map[string]*ardGoldenCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "ard_*.json"))
	if err != nil {
		t.Fatal(err)
	}
	// signflip, permutation-oncoords, hyperoctahedral-oncoords × 4 bases.
	if len(files) < 12 {
		t.Fatalf("found %d ARD golden files in testdata/golden, want ≥ 12 (run go run ./internal/refgen -out testdata/golden -ard)", len(files))
	}
	out := make(map[string]*ardGoldenCase, len(files))
	for _, f := range files {
		var c ardGoldenCase
		readGolden(t, f, &c)
		if !c.wellFormed() || len(c.Lengthscales) != c.D || c.Lengthscale != 0 {
			t.Fatalf("%s: malformed ARD golden case", f)
		}
		// The classes partition the coordinates, with one lengthscale each.
		seen := make([]bool, c.D)
		for _, cl := range c.Classes {
			for _, i := range cl {
				if i < 0 || i >= c.D || seen[i] || c.Lengthscales[i] != c.Lengthscales[cl[0]] {
					t.Fatalf("%s: classes %v do not partition the coordinates with one lengthscale each (%v)", f, c.Classes, c.Lengthscales)
				}
				seen[i] = true
			}
		}
		if slices.Contains(seen, false) {
			t.Fatalf("%s: classes %v miss a coordinate", f, c.Classes)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = &c
	}
	return out
}

// scaledDense returns the rows of P with coordinate i multiplied by s[i].
func scaledDense(P [][]float64, s []float64) *mat.Dense {
	m := denseOf(P)
	for r := range P {
		for i, si := range s {
			m.Set(r, i, P[r][i]*si)
		}
	}
	return m
}

// maxDev returns max |got − want| over the entries (+Inf for a NaN).
func maxDev(got *mat.Dense, want [][]float64) float64 {
	m := 0.0
	for i := range want {
		for j := range want[i] {
			e := math.Abs(got.At(i, j) - want[i][j])
			if math.IsNaN(e) {
				return math.Inf(1)
			}
			m = math.Max(m, e)
		}
	}
	return m
}

// ardScales returns L = min_i ℓ_i and S = diag(L/ℓ_i).
func ardScales(ls []float64) (float64, []float64) {
	L := slices.Min(ls)
	s := make([]float64, len(ls))
	for i, l := range ls {
		s[i] = L / l
	}
	return L, s
}

func TestGoldenARD(t *testing.T) {
	cases := loadGoldenARD(t)
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		c := cases[name]
		t.Run(name, func(t *testing.T) {
			g, p, s := ardSetup(t, c)
			x, y, d := scaledDense(c.X, s), scaledDense(c.Y, s), scaledDense(c.Design, s)
			scale := goldenRelTol * c.Variance
			tolAvg := math.Max(scale, c.Accuracy.Avg)
			tolMax := math.Max(scale, c.Accuracy.Max)
			tolPlus := math.Max(scale, c.Accuracy.Plus)
			tolPlusDD := math.Max(scale, c.Accuracy.PlusDD)

			for _, m := range []kernel.Method{kernel.Auto, kernel.Enumerate, kernel.Closed} {
				opt := kernel.Options{Method: m}
				var wAvg, wMax, wPlus, wPlusDD worst
				var got mat.Dense
				avg, err := kernel.NewAvg(p, g, opt)
				switch {
				case m == kernel.Closed && p.Shape != kernel.RBF && errors.Is(err, kernel.ErrNoClosedForm):
					// k_avg has a closed form for the RBF base only.
				case err != nil:
					t.Fatalf("%s: NewAvg: %v", m, err)
				default:
					if m != kernel.Auto && avg.Method() != m {
						t.Errorf("%s: avg reports Method %s", m, avg.Method())
					}
					if err := avg.CrossTo(&got, x, y); err != nil {
						t.Fatalf("%s: avg CrossTo: %v", m, err)
					}
					compare(t, m.String()+" avg", &got, c.Avg, tolAvg, &wAvg)
				}

				mx, err := kernel.NewMax(p, g, opt)
				if err != nil {
					t.Fatalf("%s: NewMax: %v", m, err)
				}
				if m != kernel.Auto && mx.Method() != m {
					t.Errorf("%s: max reports Method %s", m, mx.Method())
				}
				got.Reset()
				if err := mx.CrossTo(&got, x, y); err != nil {
					t.Fatalf("%s: max CrossTo: %v", m, err)
				}
				compare(t, m.String()+" max", &got, c.Max, tolMax, &wMax)

				for _, po := range []struct {
					name string
					opt  kernel.PlusOptions
				}{{"reltol=golden", kernel.PlusOptions{RelTol: c.RelTol}}, {"reltol=default", kernel.PlusOptions{}}} {
					pl, err := kernel.NewPlus(mx, d, po.opt)
					if err != nil {
						t.Fatalf("%s %s: NewPlus: %v", m, po.name, err)
					}
					got.Reset()
					if err := pl.CrossTo(&got, x, y); err != nil {
						t.Fatalf("%s %s: plus CrossTo: %v", m, po.name, err)
					}
					compare(t, m.String()+" "+po.name+" plus", &got, c.Plus, tolPlus, &wPlus)
					got.Reset()
					if err := pl.CrossTo(&got, d, d); err != nil {
						t.Fatalf("%s %s: plus CrossTo(D, D): %v", m, po.name, err)
					}
					compare(t, m.String()+" "+po.name+" plus_dd", &got, c.PlusDD, tolPlusDD, &wPlusDD)
					ev := pl.Eigenvalues()
					if len(ev) != len(c.Eigenvalues) {
						t.Errorf("%s %s: %d eigenvalues, want %d", m, po.name, len(ev), len(c.Eigenvalues))
						continue
					}
					etol := math.Max(goldenRelTol*c.EigMax, float64(len(ev))*c.Accuracy.Max)
					for i := range ev {
						if math.Abs(ev[i]-c.Eigenvalues[i]) > etol {
							t.Errorf("%s %s: eigenvalue %d = %.17g, want %.17g", m, po.name, i, ev[i], c.Eigenvalues[i])
						}
					}
				}
				avgMsg := wAvg.String()
				if wAvg.where == "" {
					avgMsg = "(no closed form)"
				}
				t.Logf("%s %s (L = %g, S = %v): worst |err| avg %s; max %s; plus %s; plus_dd %s", name, m, p.Lengthscale, s, avgMsg, &wMax, &wPlus, &wPlusDD)
			}
		})
	}
}

// TestGoldenARDNegative is the control that TestGoldenARD can fail: S
// scaled unequally within a class of coordinates the group permutes
// (coordinate i of the class by 1.1·L/ℓ_i, the others by L/ℓ) no longer
// commutes with the group, and symbo's kernels at S·x, S·y must then miss
// the reference k_avg and k_max by more than TestGoldenARD's tolerances.
func TestGoldenARDNegative(t *testing.T) {
	cases := loadGoldenARD(t)
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	slices.Sort(names)
	n := 0
	for _, name := range names {
		c := cases[name]
		var class []int
		for _, cl := range c.Classes {
			if len(cl) > 1 {
				class = cl
			}
		}
		if class == nil {
			continue // every diagonal S commutes with signflip
		}
		n++
		g, p, s := ardSetup(t, c)
		s[class[0]] *= 1.1
		x, y := scaledDense(c.X, s), scaledDense(c.Y, s)
		scale := goldenRelTol * c.Variance
		avg, err := kernel.NewAvg(p, g, kernel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mx, err := kernel.NewMax(p, g, kernel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got mat.Dense
		if err := avg.CrossTo(&got, x, y); err != nil {
			t.Fatal(err)
		}
		devAvg, tolAvg := maxDev(&got, c.Avg), math.Max(scale, c.Accuracy.Avg)
		got.Reset()
		if err := mx.CrossTo(&got, x, y); err != nil {
			t.Fatal(err)
		}
		devMax, tolMax := maxDev(&got, c.Max), math.Max(scale, c.Accuracy.Max)
		if devAvg <= tolAvg || devMax <= tolMax {
			t.Errorf("%s: S scaled unequally on class %v (S = %v): max |err| avg %.3g (tol %.3g), max %.3g (tol %.3g): the golden comparison would not fail",
				name, class, s, devAvg, tolAvg, devMax, tolMax)
		}
		t.Logf("%s: coordinate %d of class %v scaled 1.1×: max |err| avg %.3g (%.3g× tol), max %.3g (%.3g× tol)",
			name, class[0], class, devAvg, devAvg/tolAvg, devMax, devMax/tolMax)
	}
	if n < 8 {
		t.Fatalf("%d ARD cases with a class of several coordinates, want ≥ 8", n)
	}
}

// ardSetup returns the case's group, symbo's isotropic parameters at the
// lengthscale L of ardScales, and the coordinates' scales L/ℓ_i.
func ardSetup(t *testing.T, c *ardGoldenCase) (orbit.Group, kernel.Params, []float64) {
	t.Helper()
	g, err := orbit.Parse(orbit.Spec{Name: c.Group, D: c.D, Block: c.Block, Coords: c.Coords})
	if err != nil {
		t.Fatal(err)
	}
	shape, err := kernel.ParseShape(c.Base)
	if err != nil {
		t.Fatal(err)
	}
	L, s := ardScales(c.Lengthscales)
	return g, kernel.Params{Shape: shape, Variance: c.Variance, Lengthscale: L}, s
}
