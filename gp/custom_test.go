package gp_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestPredictGradWithoutKernelGradient: a FamilyOf kernel without
// kernel.Gradienter predicts the values of the kernel it hides, and
// gradients (by central differences of its values) within 1e-6 of the
// analytic ones, on both scales.
func TestPredictGradWithoutKernelGradient(t *testing.T) {
	g, err := orbit.Hyperoctahedral(2)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(hide bool) gp.Family {
		f, err := gp.FamilyOf(2, kernel.Matern52, func(p kernel.Params) (kernel.Kernel, error) {
			k, err := kernel.NewAvg(p, g, kernel.Options{})
			if hide {
				return kerneltest.ValuesOnly(k), err
			}
			return k, err
		})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	x := mat.NewDense(6, 2, []float64{0.3, -1.2, 1.5, 0.4, -0.7, 0.9, -1.6, -1.1, 0.1, 0.2, 1.9, -0.3})
	y := []float64{0.5, -0.2, 1.1, 0.3, -0.8, 0.9}
	h := gp.Hyper{Variance: 1.4, Lengthscale: 0.7, Noise: 1e-3}
	want, err := gp.New(mk(false), x, y, h, gp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := gp.New(mk(true), x, y, h, gp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ws1, ws2 gp.Workspace
	for _, q := range [][]float64{{0.2, 0.6}, {-1.3, 0.05}, {1.7, -1.9}} {
		dm1, dv1, dm2, dv2 := make([]float64, 2), make([]float64, 2), make([]float64, 2), make([]float64, 2)
		m1, v1, err1 := want.PredictGrad(&ws1, q, dm1, dv1)
		m2, v2, err2 := got.PredictGrad(&ws2, q, dm2, dv2)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		// The Gram differs in the last bits (GramTo against CrossTo).
		if math.Abs(m1-m2) > 1e-12 || math.Abs(v1-v2) > 1e-12 {
			t.Errorf("at %v: (%v, %v) without the kernel's gradient, (%v, %v) with it", q, m2, v2, m1, v1)
		}
		for j := range 2 {
			if math.Abs(dm1[j]-dm2[j]) > 1e-6*math.Max(1, math.Abs(dm1[j])) || math.Abs(dv1[j]-dv2[j]) > 1e-6*math.Max(1, math.Abs(dv1[j])) {
				t.Errorf("at %v, ∂/∂x%d: mean %v, variance %v by differences; %v, %v analytic", q, j, dm2[j], dv2[j], dm1[j], dv1[j])
			}
		}
		_, _, err = got.PredictStandardized(&ws2, q, dm2, dv2)
		if err != nil {
			t.Fatal(err)
		}
	}
}

// nilFamily is a caller's family whose Bind, or whose Bound's Kernel,
// returns nil without an error: a broken implementation of the interfaces.
type nilFamily struct{ nilKernel bool }

func (nilFamily) Dim() int { return 1 }

func (f nilFamily) Bind(x *mat.Dense) (gp.Bound, error) {
	if !f.nilKernel {
		return nil, nil
	}
	fam, err := gp.NewBaseFamily(kernel.RBF, 1)
	if err != nil {
		return nil, err
	}
	b, err := fam.Bind(x)
	return nilKernelBound{b}, err
}

type nilKernelBound struct{ gp.Bound }

func (nilKernelBound) Kernel(v, l float64) (kernel.Kernel, error) { return nil, nil }

// TestFamilyReturnsNil: a caller's Family whose Bind returns no Bound and
// no error, or whose Bound's Kernel returns no kernel and no error, is
// ErrNilArgument from Fit and New, alone and inside the landmark and mix
// families — as FamilyOf's constructor returning neither already was.
// They panicked on a nil interface.
func TestFamilyReturnsNil(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{0, 0.25, 0.5, 1})
	y := []float64{1, 2, 0, 3}
	h := gp.Hyper{Variance: 1, Lengthscale: 0.5, Noise: 0.01}
	for _, nilKernel := range []bool{false, true} {
		f := nilFamily{nilKernel: nilKernel}
		lm, err := gp.NewLandmarkFamily(f, 2, gp.LandmarkOptions{})
		if err != nil {
			t.Fatal(err)
		}
		mix, err := gp.NewMixFamily(f, f, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		for name, fam := range map[string]gp.Family{"own": f, "landmark": lm, "mix": mix} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("nil kernel %v, %s: panic %v", nilKernel, name, r)
					}
				}()
				if _, err := gp.Fit(fam, x, y, gp.FitOptions{}); !errors.Is(err, gp.ErrNilArgument) {
					t.Errorf("nil kernel %v, %s: Fit: %v", nilKernel, name, err)
				}
				if _, err := gp.New(fam, x, y, h, gp.Options{}); !errors.Is(err, gp.ErrNilArgument) {
					t.Errorf("nil kernel %v, %s: New: %v", nilKernel, name, err)
				}
			}()
		}
	}
}

// TestErrorPrefixOnce: an error of this package wrapped on its way out
// carries the package's prefix once. A FamilyOf constructor's error (a
// kernel returned as nil is ErrNilArgument) read "gp: gp: nil argument:
// …" from the family's CorrTo, and so from Fit, and FitClasses' NaN input
// and unknown prior read "gp: gp: …"; errors.Is sees the same sentinels.
func TestErrorPrefixOnce(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{0, 0, 0.25, 1, 0.5, 0.5, 1, 0.25})
	y := []float64{1, 2, 0, 3}
	nan := mat.DenseCopyOf(x)
	nan.Set(2, 1, math.NaN())
	h := gp.Hyper{Variance: 1, Lengthscale: 0.5, Noise: 0.01}
	nilKernel, err := gp.FamilyOf(2, kernel.RBF, func(kernel.Params) (kernel.Kernel, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	ownErr, err := gp.FamilyOf(2, kernel.RBF, func(kernel.Params) (kernel.Kernel, error) {
		return nil, fmt.Errorf("%w: the caller's kernel refuses", gp.ErrInvalid)
	})
	if err != nil {
		t.Fatal(err)
	}
	corr := func(fam gp.Family) error {
		b, err := fam.Bind(x)
		if err != nil {
			return err
		}
		return b.CorrTo(mat.NewSymDense(4, nil), nil, 0.5)
	}
	// A constructor returning package kernel's error, and a mix whose
	// split variance w·v underflows to 0 for a subnormal v (kernel's
	// constructor refuses it): New said "gp: kernel: kernel: …".
	kernelsErr, err := gp.FamilyOf(2, kernel.RBF, func(p kernel.Params) (kernel.Kernel, error) {
		if p.Variance != 1 {
			p.Lengthscale = -1
		}
		return kernel.NewBase(p, 2)
	})
	if err != nil {
		t.Fatal(err)
	}
	base, err := gp.NewBaseFamily(kernel.RBF, 2)
	if err != nil {
		t.Fatal(err)
	}
	mix, err := gp.NewMixFamily(base, base, 0.25)
	if err != nil {
		t.Fatal(err)
	}
	fitClasses := func(x *mat.Dense, o gp.ClassFitOptions) error {
		_, err := gp.FitClasses(kernel.RBF, []int{0, 1}, x, y, o)
		return err
	}
	fit := func(fam gp.Family) error { _, err := gp.Fit(fam, x, y, gp.FitOptions{}); return err }
	newGP := func(fam gp.Family) error { _, err := gp.New(fam, x, y, h, gp.Options{}); return err }
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"nil kernel: CorrTo", corr(nilKernel), gp.ErrNilArgument},
		{"nil kernel: Fit", fit(nilKernel), gp.ErrNilArgument},
		{"nil kernel: New", newGP(nilKernel), gp.ErrNilArgument},
		{"constructor's error: CorrTo", corr(ownErr), gp.ErrInvalid},
		{"constructor's error: Fit", fit(ownErr), gp.ErrInvalid},
		{"FitClasses: NaN input", fitClasses(nan, gp.ClassFitOptions{}), gp.ErrInvalid},
		{"FitClasses: unknown prior", fitClasses(x, gp.ClassFitOptions{Prior: 9}), gp.ErrInvalid},
		{"New: NaN input", func() error { _, err := gp.New(nilKernel, nan, y, h, gp.Options{}); return err }(), gp.ErrInvalid},
		{"New: kernel's error", func() error {
			_, err := gp.New(kernelsErr, x, y, gp.Hyper{Variance: 2, Lengthscale: 0.5, Noise: 0.01}, gp.Options{})
			return err
		}(), kernel.ErrInvalid},
		{"New: mix's part variance 0", func() error {
			_, err := gp.New(mix, x, y, gp.Hyper{Variance: 1e-323, Lengthscale: 0.5, Noise: 0.01}, gp.Options{})
			return err
		}(), kernel.ErrInvalid},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
			continue
		}
		for _, p := range []string{"gp", "kernel", "linalg", "orbit"} {
			if twice := p + ": " + p + ": "; strings.Contains(c.err.Error(), twice) {
				t.Errorf("%s: %q holds %q", c.name, c.err, twice)
			}
		}
	}
}
