package kernel_test

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// TestPlusBackendsAgree builds k_plus through every backend compiled into
// this build (gonum and, with -tags openblas, OpenBLAS/LAPACKE) and checks
// that K₊ on the design, the cross-covariance off the design and its
// gradient agree with the gonum backend to 1e-10 relative to λ_max,
// including groups whose k_max(D, D) is indefinite (cyclic, pairedperm).
func TestPlusBackendsAgree(t *testing.T) {
	names := linalg.Available()
	if len(names) < 2 {
		t.Skipf("only %v compiled in; build with -tags openblas to compare backends", names)
	}
	ref := linalg.Gonum()
	groups := []func() (orbit.Group, error){
		func() (orbit.Group, error) { return orbit.Hyperoctahedral(3) },
		func() (orbit.Group, error) { return orbit.Cyclic(4) },
		func() (orbit.Group, error) { return orbit.PairedPerm(3) },
	}
	for _, mk := range groups {
		g, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if name == ref.Name() {
				continue
			}
			t.Run(fmt.Sprintf("group=%s/backend=%s", g.Name(), name), func(t *testing.T) {
				be, err := linalg.ByName(name)
				if err != nil {
					t.Fatal(err)
				}
				p := kernel.Params{Shape: kernel.Matern52, Variance: 1.3, Lengthscale: 1.5}
				m, err := kernel.NewMax(p, g, kernel.Options{})
				if err != nil {
					t.Fatal(err)
				}
				design := kerneltest.Points(g, 30, 5)
				x := kerneltest.Points(g, 7, 6)
				a, err := kernel.NewPlus(m, design, kernel.PlusOptions{Backend: ref})
				if err != nil {
					t.Fatal(err)
				}
				b, err := kernel.NewPlus(m, design, kernel.PlusOptions{Backend: be})
				if err != nil {
					t.Fatal(err)
				}
				ev := a.Eigenvalues()
				tol := 1e-10 * ev[len(ev)-1]
				if a.Rank() != b.Rank() {
					t.Fatalf("rank %d (gonum) vs %d (%s)", a.Rank(), b.Rank(), name)
				}
				for i, v := range b.Eigenvalues() {
					if d := math.Abs(v - ev[i]); d > tol {
						t.Errorf("eigenvalue %d: %g vs %g", i, ev[i], v)
					}
				}
				var ga, gb mat.SymDense
				if err := a.GramTo(&ga, design); err != nil {
					t.Fatal(err)
				}
				if err := b.GramTo(&gb, design); err != nil {
					t.Fatal(err)
				}
				if d := maxAbsDiff(&ga, &gb); d > tol {
					t.Errorf("K₊ differs by %g (tol %g)", d, tol)
				}
				var ca, cb mat.Dense
				if err := a.CrossTo(&ca, x, design); err != nil {
					t.Fatal(err)
				}
				if err := b.CrossTo(&cb, x, design); err != nil {
					t.Fatal(err)
				}
				if d := maxAbsDiff(&ca, &cb); d > tol {
					t.Errorf("cross differs by %g (tol %g)", d, tol)
				}
				var da, db mat.Dense
				x0 := x.RawRowView(0)
				if err := a.GradTo(&da, x0, design); err != nil {
					t.Fatal(err)
				}
				if err := b.GradTo(&db, x0, design); err != nil {
					t.Fatal(err)
				}
				if d := maxAbsDiff(&da, &db); d > tol*10 {
					t.Errorf("gradient differs by %g", d)
				}
				t.Logf("min eigenvalue %.3g, rank %d", ev[0], a.Rank())
			})
		}
	}
}
