package bo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestGroupOnCoords: the optimizer runs unchanged with a group acting on
// some of the parameters (orbit.OnCoords): signed permutations of x2 and
// x0, the identity on x1 and x3. Plus and Avg (the factored RBF form and
// the whole group's enumeration for Matérn) ask points in the box,
// pending points are never in the orbit of another, and the acquisition
// is invariant under the group.
func TestGroupOnCoords(t *testing.T) {
	g := must(orbit.OnCoords(must(orbit.Hyperoctahedral(2)), 4, []int{2, 0}))
	f := func(x []float64) float64 { // invariant under g
		a, b := math.Abs(x[0]), math.Abs(x[2])
		return -((a-1)*(a-1) + (b-0.5)*(b-0.5) + (a-b)*(a-b)*0.3) - (x[1]-0.3)*(x[1]-0.3) - 0.5*(x[3]+0.5)*(x[3]+0.5)
	}
	lo, hi := box(4, 2)
	for _, c := range []struct {
		name  string
		shape kernel.Shape
	}{{NamePlus, kernel.RBF}, {NameAvg, kernel.RBF}, {NameAvg, kernel.Matern52}, {NameAvgNorm, kernel.RBF}, {NameMax, kernel.Matern52}} {
		t.Run(c.name+"/"+c.shape.String(), func(t *testing.T) {
			k, err := ParseKernel(c.name, g, c.shape)
			if err != nil {
				t.Fatal(err)
			}
			o, err := New(lo, hi, Config{Kernel: k, Init: 4, Protocol: Protocol{RawSamples: 64, Starts: 3}}, 7)
			if err != nil {
				t.Fatal(err)
			}
			for range 9 {
				x, err := o.Ask()
				if err != nil {
					t.Fatal(err)
				}
				for i, v := range x {
					if !(v >= lo[i] && v <= hi[i]) {
						t.Fatalf("x = %v outside the box", x)
					}
				}
				if err := o.Tell(x, f(x)); err != nil {
					t.Fatal(err)
				}
			}
			batch, err := o.AskBatch(3)
			if err != nil {
				t.Fatal(err)
			}
			radius := pendingExclusion * math.Sqrt(4*16) // of the box diagonal
			for i := range batch {
				for j := range i {
					if d := math.Sqrt(orbitDist2(g, batch[i], batch[j])); d < radius {
						t.Errorf("batch points %d and %d are %g apart in orbit distance", j, i, d)
					}
				}
			}
			// The acquisition is invariant under every element, acting on
			// x0 and x2 only.
			a := o.newAcq()
			s := newAcqScratch(4, o.canon)
			rng := rand.New(rand.NewPCG(3, 3))
			fg := g.(orbit.Finite)
			x, gx := make([]float64, 4), make([]float64, 4)
			for range 4 {
				for i := range x {
					x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
				}
				ax, err := a.eval(s, x, nil)
				if err != nil {
					t.Fatal(err)
				}
				for j := range 8 {
					fg.ActTo(gx, x, j)
					if gx[1] != x[1] || gx[3] != x[3] {
						t.Fatalf("element %d moved a free coordinate: %v → %v", j, x, gx)
					}
					agx, err := a.eval(s, gx, nil)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(agx-ax) > 1e-8*math.Max(1, math.Abs(ax)) {
						t.Errorf("α(g%d·x) = %v, α(x) = %v", j, agx, ax)
					}
				}
			}
		})
	}
}
