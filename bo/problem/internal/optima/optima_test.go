package optima

import (
	"math"
	"testing"

	"github.com/symbo/symbo/bo/problem"
)

// TestRecompute recomputes every optimum Search covers from 2000 starts
// (not in -short: minutes) and checks the registry's Optimum to Tol, and
// that the registered optimizers evaluate to it.
func TestRecompute(t *testing.T) {
	if testing.Short() {
		t.Skip("2000 local minimizations per problem")
	}
	for _, name := range Names {
		r, err := Search(name, 2000, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Known || math.Abs(r.F-r.Registered) > Tol {
			t.Errorf("%s: registered %v (known %v), recomputed %.17g at %v (%d of 2000 starts)", name, r.Registered, r.Known, r.F, r.X, r.Hits)
		}
	}
}

// TestLocalOnFace: Local finds a minimizer on the box's face (a
// stationary point of the sine map) and one inside.
func TestLocalOnFace(t *testing.T) {
	f := func(x []float64) float64 { return (x[0]-2)*(x[0]-2) + (x[1]-0.3)*(x[1]-0.3) }
	x, fx := Local(f, []float64{0, 0}, []float64{1, 1}, []float64{0.5, 0.9})
	if math.Abs(x[0]-1) > 1e-6 || math.Abs(x[1]-0.3) > 1e-6 || math.Abs(fx-1) > 1e-10 {
		t.Errorf("Local = %v, %v; want (1, 0.3), 1", x, fx)
	}
}

// TestMedian: the geometric median of a triangle with an angle of 120° or
// more is that vertex; of a square, its centre.
func TestMedian(t *testing.T) {
	m, s := median([][2]float64{{0, 0}, {10, 0}, {-5, 1}})
	if m != [2]float64{0, 0} || math.Abs(s-(10+math.Hypot(5, 1))) > 1e-12 {
		t.Errorf("obtuse triangle: median %v, cost %v", m, s)
	}
	m, s = median([][2]float64{{0, 0}, {2, 0}, {2, 2}, {0, 2}})
	if math.Hypot(m[0]-1, m[1]-1) > 1e-9 || math.Abs(s-4*math.Sqrt2) > 1e-9 {
		t.Errorf("square: median %v, cost %v", m, s)
	}
	if _, err := problem.New("Fleet8d", 0); err != nil {
		t.Fatal(err)
	}
}
