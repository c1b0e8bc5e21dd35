package kernel_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// testGroups returns one small instance of every group.
func testGroups(t testing.TB) []orbit.Group {
	t.Helper()
	var gs []orbit.Group
	add := func(g orbit.Group, err error) {
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	add(orbit.Trivial(3))
	add(orbit.SignFlip(3))
	add(orbit.Permutation(4))
	add(orbit.Hyperoctahedral(3))
	add(orbit.BlockPerm(3, 2))
	add(orbit.PairedPerm(3))
	add(orbit.Cyclic(4))
	add(orbit.NewMatrices(2, [][]float64{{0, -1, 1, 0}}))
	add(orbit.Rotation2D())
	add(orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10}))
	add(orbit.ScalingDir([]float64{0.1, 0.1}, []float64{10, 10}))
	return gs
}

var shapes = []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52}

func TestConformance(t *testing.T) {
	i := -1 // the case's index, for testdepth's sample
	for _, g := range testGroups(t) {
		for _, s := range shapes {
			p := kernel.Params{Shape: s, Variance: 1.7, Lengthscale: 0.9}
			if g.Name() == "scaling(2,0.1,10)" || g.Name() == "scalingdir(2,0.1,10)" {
				p.Lengthscale = 3
			}
			for _, method := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
				if i++; !testdepth.Keep(t, i) {
					continue
				}
				name := fmt.Sprintf("group=%s/base=%s/method=%s", g.Name(), s, method)
				o := kernel.Options{Method: method}
				_, dir := g.(*orbit.ScalingDirGroup)
				// Under -race, the scaling group's k_avg keeps one shape per
				// route (RBF: series, Matérn-5/2: quadrature); Matérn-1/2
				// and 3/2 take the quadrature route's code again, at 16-19 s
				// each there, and run without -race in make test.
				_, scaling := g.(*orbit.ScalingGroup)
				raceSkip := raceEnabled && scaling && (s == kernel.Matern12 || s == kernel.Matern32)
				t.Run(name+"/kernel=avg", func(t *testing.T) {
					if dir {
						t.Skip("scalingdir's k_avg is scaling's (same orbits and measure; TestScalingDirMaxPSD checks the Grams equal bit for bit)")
					}
					if raceSkip {
						t.Skip("under -race: Matérn-5/2 covers the quadrature route (see above)")
					}
					k, err := kernel.NewAvg(p, g, o)
					if err != nil {
						t.Fatal(err)
					}
					kerneltest.Run(t, k, g)
				})
				t.Run(name+"/kernel=avg-normalized", func(t *testing.T) {
					if dir {
						t.Skip("scalingdir's k_avg is scaling's (same orbits and measure; TestScalingDirMaxPSD checks the Grams equal bit for bit)")
					}
					if raceSkip {
						t.Skip("under -race: Matérn-5/2 covers the quadrature route (see above)")
					}
					on := o
					on.Normalize = true
					k, err := kernel.NewAvg(p, g, on)
					if err != nil {
						t.Fatal(err)
					}
					kerneltest.Run(t, k, g)
					x := kerneltest.Points(g, 9, 1)
					diag, err := k.DiagTo(nil, x)
					if err != nil {
						t.Fatal(err)
					}
					var gram mat.SymDense
					if err := k.GramTo(&gram, x); err != nil {
						t.Fatal(err)
					}
					var cross mat.Dense
					if err := k.CrossTo(&cross, x, x); err != nil {
						t.Fatal(err)
					}
					for i, v := range diag {
						if v != p.Variance || gram.At(i, i) != p.Variance {
							t.Errorf("Diag[%d] = %v, Gram[%d,%d] = %v, want v = %v", i, v, i, i, gram.At(i, i), p.Variance)
						}
						if c := cross.At(i, i); math.Abs(c-p.Variance) > 1e-12*p.Variance {
							t.Errorf("Cross[%d,%d] = %v, want v = %v", i, i, c, p.Variance)
						}
					}
				})
				if _, canon := g.(orbit.Canonicalizer); canon && method == kernel.Enumerate && !orbit.IsIsometric(g) {
					// scalingdir: its max kernel is its canonical map's,
					// which its orbits' points do not discretize.
					t.Run(name+"/kernel=max", func(t *testing.T) {
						if _, err := kernel.NewMax(p, g, o); !errors.Is(err, kernel.ErrBadOptions) {
							t.Fatalf("NewMax with Method Enumerate: err = %v, want ErrBadOptions", err)
						}
					})
					continue
				}
				t.Run(name+"/kernel=max", func(t *testing.T) {
					k, err := kernel.NewMax(p, g, o)
					if err != nil {
						t.Fatal(err)
					}
					kerneltest.Run(t, k, g)
				})
				t.Run(name+"/kernel=plus", func(t *testing.T) {
					m, err := kernel.NewMax(p, g, o)
					if err != nil {
						t.Fatal(err)
					}
					k, err := kernel.NewPlus(m, kerneltest.Points(g, 12, 9), kernel.PlusOptions{})
					if err != nil {
						t.Fatal(err)
					}
					kerneltest.Run(t, k, g)
				})
			}
			if g.Order() == nil || g.Order().Int64() != 1 {
				continue // the base kernel is invariant only under the trivial group
			}
			t.Run(fmt.Sprintf("group=%s/base=%s/kernel=base", g.Name(), s), func(t *testing.T) {
				k, err := kernel.NewBase(p, g.Dim())
				if err != nil {
					t.Fatal(err)
				}
				kerneltest.Run(t, k, g)
			})
		}
	}
}
