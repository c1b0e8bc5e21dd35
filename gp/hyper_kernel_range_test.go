package gp_test

import (
	"errors"
	"testing"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"gonum.org/v1/gonum/mat"
)

// TestNewLengthscaleOutsideKernelRange: a lengthscale that is positive
// and finite but outside the kernels' range is an invalid hyperparameter,
// ErrInvalid as the package documents; it wrapped kernel.ErrInvalid only.
func TestNewLengthscaleOutsideKernelRange(t *testing.T) {
	base, err := gp.NewBaseFamily(kernel.RBF, 2)
	if err != nil {
		t.Fatal(err)
	}
	lm, err := gp.NewLandmarkFamily(base, 2, gp.LandmarkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(4, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1})
	y := []float64{1, 2, 3, 4}
	for _, fam := range []gp.Family{base, lm} {
		for _, ell := range []float64{1e-200, 1e200} {
			_, err := gp.New(fam, x, y, gp.Hyper{Variance: 1, Lengthscale: ell, Noise: 0.01}, gp.Options{})
			if !errors.Is(err, gp.ErrInvalid) || !errors.Is(err, kernel.ErrInvalid) || errclass.Of(err) != errclass.Input {
				t.Errorf("New with ℓ = %g: %v, want gp.ErrInvalid wrapping kernel.ErrInvalid (input)", ell, err)
			}
		}
	}
}
