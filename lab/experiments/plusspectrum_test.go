package experiments

import (
	"math"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestPlusSpectrum: the profile's per-lengthscale k_plus work builds the
// unit-variance k_max Gram (within rounding of kernel.Max's own) and
// keeps its eigenvalues above the cut-off, zeroing the rest.
func TestPlusSpectrum(t *testing.T) {
	g, err := orbit.Hyperoctahedral(3)
	if err != nil {
		t.Fatal(err)
	}
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 0.7}
	x := Points(12, 3, 4)
	dist, err := orbitDistances(g, x, 0)
	if err != nil {
		t.Fatal(err)
	}
	var c mat.SymDense
	var e linalg.Eigen
	if err := plusSpectrum(linalg.Gonum(), &e, &c, dist, p); err != nil {
		t.Fatal(err)
	}
	mx, err := kernel.NewMax(p, g, kernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want mat.SymDense
	if err := mx.GramTo(&want, x); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		for j := range 12 {
			if d := math.Abs(c.At(i, j) - want.At(i, j)); d > 1e-14 {
				t.Errorf("C[%d,%d] = %v, k_max Gram %v", i, j, c.At(i, j), want.At(i, j))
			}
		}
	}
	first, _, err := kernel.Truncate(append([]float64(nil), e.Values...), 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range e.Values {
		if (i < first) != (v == 0) {
			t.Errorf("eigenvalue %d = %v (cut-off index %d)", i, v, first)
		}
	}
}
