package kernel_test

import (
	"errors"
	"math"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestGradFallback: for a kernel without GradTo, Grad's central
// differences match the analytic gradient of the same kernel; for a
// Gradienter it is GradTo, bit for bit.
func TestGradFallback(t *testing.T) {
	ho, _ := orbit.Hyperoctahedral(3)
	for _, ell := range []float64{0.3, 1, 4} {
		p := kernel.Params{Shape: kernel.Matern52, Variance: 1.3, Lengthscale: ell}
		b, err := kernel.NewBase(p, 3)
		must(t, err)
		a, err := kernel.NewAvg(p, ho, kernel.Options{})
		must(t, err)
		for _, k := range []kernel.Kernel{b, a} {
			x := []float64{0.4, -1.1, 2.5}
			y := mat.NewDense(4, 3, []float64{0.1, 0.2, 0.3, -1, 1.5, 0.7, 2, -0.4, 1.1, 0.4, -1.1, 2.5})
			var want, got, direct mat.Dense
			must(t, k.(kernel.Gradienter).GradTo(&want, x, y))
			must(t, kernel.Grad(k, &direct, x, y, ell))
			if !mat.Equal(&direct, &want) {
				t.Errorf("ℓ = %g %T: Grad of a Gradienter is not its GradTo", ell, k)
			}
			must(t, kernel.Grad(kerneltest.ValuesOnly(k), &got, x, y, ell))
			for i := range 4 {
				for j := range 3 {
					w, g := want.At(i, j), got.At(i, j)
					if math.Abs(w-g) > 1e-7*math.Max(1, math.Abs(w)) {
						t.Errorf("ℓ = %g %T: ∂k(x, y_%d)/∂x_%d = %v by differences, %v analytic", ell, k, i, j, g, w)
					}
				}
			}
			// Deterministic, and the same bits into a reused dst.
			var again mat.Dense
			must(t, kernel.Grad(kerneltest.ValuesOnly(k), &again, x, y, ell))
			must(t, kernel.Grad(kerneltest.ValuesOnly(k), &got, x, y, ell))
			if !mat.Equal(&again, &got) {
				t.Errorf("ℓ = %g %T: fallback not deterministic", ell, k)
			}
		}
	}
}

func TestGradErrors(t *testing.T) {
	b, err := kernel.NewBase(kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}, 2)
	must(t, err)
	k := kerneltest.ValuesOnly(b)
	y := mat.NewDense(1, 2, []float64{0, 0})
	var dst mat.Dense
	for name, c := range map[string]struct {
		k     kernel.Kernel
		x     []float64
		y     *mat.Dense
		scale float64
		want  error
	}{
		"nil kernel":   {nil, []float64{0, 0}, y, 1, kernel.ErrBadOptions},
		"nil *Base":    {(*kernel.Base)(nil), []float64{0, 0}, y, 1, kernel.ErrBadOptions},
		"nil *Plus":    {(*kernel.Plus)(nil), []float64{0, 0}, y, 1, kernel.ErrBadOptions},
		"scale 0":      {k, []float64{0, 0}, y, 0, kernel.ErrBadOptions},
		"scale NaN":    {k, []float64{0, 0}, y, math.NaN(), kernel.ErrBadOptions},
		"x length":     {k, []float64{0}, y, 1, kernel.ErrBadPoints},
		"y empty":      {k, []float64{0, 0}, &mat.Dense{}, 1, kernel.ErrBadPoints},
		"y columns":    {k, []float64{0, 0}, mat.NewDense(1, 3, nil), 1, kernel.ErrBadPoints},
		"x not finite": {k, []float64{math.Inf(1), 0}, y, 1, kernel.ErrBadPoints},
		// A subnormal scale at x_k = 0: the step ε^{1/3}·5e-324 is 0,
		// and the difference was 0/0, a NaN gradient with a nil error.
		"scale subnormal": {k, []float64{0, 0}, y, 5e-324, kernel.ErrBadOptions},
		// A caller's kernel of values near the float64 maximum whose
		// difference over the step overflows: +Inf with a nil error.
		"quotient overflows": {kerneltest.Pairwise(2, func(x, y []float64) float64 {
			return math.MaxFloat64 * math.Tanh(1e3*(x[0]-y[0]))
		}), []float64{0, 0}, y, 1e-10, kernel.ErrBadPoints},
	} {
		if err := kernel.Grad(c.k, &dst, c.x, c.y, c.scale); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", name, err, c.want)
		}
	}
}

// TestGradFallbackAllocs: after warm-up the fallback allocates nothing
// beyond its kernel's CrossTo (nothing for Base).
func TestGradFallbackAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	b, err := kernel.NewBase(kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}, 3)
	must(t, err)
	var k kernel.Kernel = kerneltest.ValuesOnly(b)
	x := []float64{0.1, 0.2, 0.3}
	y := mat.NewDense(5, 3, nil)
	var dst mat.Dense
	must(t, kernel.Grad(k, &dst, x, y, 1))
	if a := testing.AllocsPerRun(50, func() { _ = kernel.Grad(k, &dst, x, y, 1) }); a != 0 {
		t.Errorf("Grad fallback allocates %v per call", a)
	}
}

// unchecked is a caller's kernel whose CrossTo checks nothing: the unit
// RBF of its two-column points, NaN in, NaN out.
var unchecked = kerneltest.Pairwise(2, func(x, y []float64) float64 {
	a, b := x[0]-y[0], x[1]-y[1]
	return math.Exp(-(a*a + b*b) / 2)
})

// TestFallbacksRefuseNonFinite: Grad's central differences and Gram's
// CrossTo path refuse a NaN or ±Inf coordinate themselves (ErrBadPoints),
// also for a kernel whose CrossTo does not check its points: they
// returned NaN gradients and Gram entries with a nil error.
func TestFallbacksRefuseNonFinite(t *testing.T) {
	k := unchecked
	good := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5})
	var dst mat.Dense
	var sym mat.SymDense
	must(t, kernel.Grad(k, &dst, []float64{0.5, 1}, good, 1))
	must(t, kernel.Gram(k, &sym, good))
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		x := []float64{0.5, v}
		y := mat.DenseCopyOf(good)
		y.Set(1, 1, v)
		dst.Reset()
		if err := kernel.Grad(k, &dst, x, good, 1); !errors.Is(err, kernel.ErrBadPoints) {
			t.Errorf("Grad with x = %v: err = %v, want ErrBadPoints", x, err)
		}
		dst.Reset()
		if err := kernel.Grad(k, &dst, []float64{0.5, 1}, y, 1); !errors.Is(err, kernel.ErrBadPoints) {
			t.Errorf("Grad with y[1][1] = %v: err = %v, want ErrBadPoints", v, err)
		}
		sym.Reset()
		if err := kernel.Gram(k, &sym, y); !errors.Is(err, kernel.ErrBadPoints) {
			t.Errorf("Gram with x[1][1] = %v: err = %v, want ErrBadPoints", v, err)
		}
	}
	sym.Reset()
	if err := kernel.Gram(k, &sym, mat.NewDense(2, 3, nil)); !errors.Is(err, kernel.ErrBadPoints) {
		t.Errorf("Gram of 3-column points for a 2-dimensional kernel: err = %v, want ErrBadPoints", err)
	}
}
