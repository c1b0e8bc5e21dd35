package gp

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
)

// ardKappa is each shape's κ(u) written out here, independently of the
// kernel package.
func ardKappa(shape kernel.Shape, u float64) float64 {
	switch shape {
	case kernel.RBF:
		return math.Exp(-u * u / 2)
	case kernel.Matern12:
		return math.Exp(-u)
	case kernel.Matern32:
		return (1 + math.Sqrt(3)*u) * math.Exp(-math.Sqrt(3)*u)
	case kernel.Matern52:
		return (1 + math.Sqrt(5)*u + 5*u*u/3) * math.Exp(-math.Sqrt(5)*u)
	}
	panic("shape")
}

// ardLML is the log marginal likelihood of the per-class lengthscale
// kernel by the textbook formula: K = v·κ(u) + σ²·I with u² = Σ_k
// (x_k − x′_k)²/ℓ_{class k}², factored by gonum's Cholesky.
func ardLML(shape kernel.Shape, classes []int, x *mat.Dense, y []float64, v float64, ls []float64, noise float64) float64 {
	n, d := x.Dims()
	k := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			var u2 float64
			for c := range d {
				t := (x.At(i, c) - x.At(j, c)) / ls[classes[c]]
				u2 += t * t
			}
			e := v * ardKappa(shape, math.Sqrt(u2))
			if i == j {
				e += noise
			}
			k.SetSym(i, j, e)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		panic("not PD")
	}
	a := mat.NewVecDense(n, nil)
	if err := ch.SolveVecTo(a, mat.NewVecDense(n, y)); err != nil {
		panic(err)
	}
	return -0.5*mat.Dot(a, mat.NewVecDense(n, y)) - 0.5*ch.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi)
}

func ardData(rng *rand.Rand, n, d int, f func([]float64) float64) (*mat.Dense, []float64) {
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			x.Set(i, j, 2*rng.Float64()-1)
		}
		y[i] = f(x.RawRowView(i))
	}
	return x, y
}

var ardShapes = []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52}

// TestClassObjectiveValueAndGradient: the objective agrees with the
// textbook likelihood, and its analytic gradient with central differences
// of it, for every shape, with the noise fitted and fixed.
func TestClassObjectiveValueAndGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	classes := []int{0, 0, 1, 2, 1}
	x, y := ardData(rng, 12, 5, func(p []float64) float64 { return math.Sin(3*p[0]) + p[2]*p[3] + 0.1*p[4] })
	for _, shape := range ardShapes {
		for _, fixed := range []bool{false, true} {
			be, _ := linalg.Default()
			o := newClassObjective(shape, classes, 3, x, y, be)
			th := []float64{math.Log(1.3), math.Log(0.7), math.Log(1.9), math.Log(0.4), math.Log(0.05)}
			if fixed {
				o.noise = 0.05
				th = th[:4]
			}
			g := make([]float64, len(th))
			l, err := o.eval(th, g)
			if err != nil {
				t.Fatal(err)
			}
			ls := []float64{math.Exp(th[1]), math.Exp(th[2]), math.Exp(th[3])}
			want := ardLML(shape, classes, x, y, math.Exp(th[0]), ls, 0.05)
			if math.Abs(l-want) > 1e-9*math.Abs(want) {
				t.Errorf("%v fixed=%v: lml %v, textbook %v", shape, fixed, l, want)
			}
			for j := range th {
				const h = 1e-5
				tp, tm := append([]float64(nil), th...), append([]float64(nil), th...)
				tp[j] += h
				tm[j] -= h
				lp, _ := o.eval(tp, nil)
				lm, _ := o.eval(tm, nil)
				fd := (lp - lm) / (2 * h)
				if math.Abs(g[j]-fd) > 1e-5*max(1, math.Abs(fd)) {
					t.Errorf("%v fixed=%v: ∂/∂θ_%d = %v, central difference %v", shape, fixed, j, g[j], fd)
				}
			}
		}
	}
}

// TestFitClassLengthscalesRelevance: a function of class 0's coordinates
// alone gets a class-1 lengthscale well above class 0's (BoTorch's prior
// holds it within a few times), with and without
// the prior; so does the same data with class 1's coordinates scaled by
// 1000 gets class 1's lengthscale 1000 times longer, class 0's unchanged
// (the fit follows each class's units).
func TestFitClassLengthscalesRelevance(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2))
	classes := []int{0, 1, 0, 1}
	x, y := ardData(rng, 30, 4, func(p []float64) float64 { return math.Sin(2*p[0]) + math.Cos(3*p[2]) })
	for _, pr := range []Prior{PriorNone, PriorBoTorch} {
		ls, err := FitClassLengthscales(kernel.Matern52, classes, x, y, ClassFitOptions{Prior: pr, PriorScale: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !(ls[1] > 3*ls[0]) {
			t.Errorf("prior %v: lengthscales %v: want class 1 (irrelevant) above 3× class 0", pr, ls)
		}
	}
	xs := mat.DenseCopyOf(x)
	for i := range 30 {
		xs.Set(i, 1, 1000*x.At(i, 1))
		xs.Set(i, 3, 1000*x.At(i, 3))
	}
	ref, err := FitClassLengthscales(kernel.Matern52, classes, x, y, ClassFitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ls, err := FitClassLengthscales(kernel.Matern52, classes, xs, y, ClassFitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ls[0]-ref[0]) > 1e-6*ref[0] || math.Abs(ls[1]-1000*ref[1]) > 1e-6*1000*ref[1] {
		t.Errorf("class 1 in units 1000× larger: lengthscales %v, want %v and 1000 × %v", ls, ref[0], ref[1])
	}
}

// TestFitClassLengthscalesOneClass: with one class the fit is the
// isotropic base kernel's, which Fit finds by another method (the profile
// likelihood): the lengthscales agree.
func TestFitClassLengthscalesOneClass(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 3))
	x, y := ardData(rng, 25, 3, func(p []float64) float64 { return math.Sin(2*p[0]) + p[1]*p[2] })
	for _, shape := range []kernel.Shape{kernel.RBF, kernel.Matern52} {
		fam, err := NewBaseFamily(shape, 3)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Fit(fam, x, y, FitOptions{Prior: PriorBoTorch, PriorScale: 2})
		if err != nil {
			t.Fatal(err)
		}
		ls, err := FitClassLengthscales(shape, []int{0, 0, 0}, x, y, ClassFitOptions{Prior: PriorBoTorch, PriorScale: 2})
		if err != nil {
			t.Fatal(err)
		}
		if want := g.Hyper().Lengthscale; math.Abs(ls[0]-want) > 1e-3*want {
			t.Errorf("%v: one class ℓ = %v, isotropic fit ℓ = %v", shape, ls[0], want)
		}
	}
}

func TestFitClassLengthscalesErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := ardData(rng, 5, 2, func(p []float64) float64 { return p[0] })
	nan := mat.DenseCopyOf(x)
	nan.Set(2, 1, math.NaN())
	// Above MaxPoints the fit uses rows ⌊i·n/m⌋: with n = 5, m = 2 rows 0
	// and 2. A NaN or ±Inf in a row it skips (1) was ignored, a fit
	// returned with a nil error.
	nanSkipped := mat.DenseCopyOf(x)
	nanSkipped.Set(1, 0, math.NaN())
	infSkipped := slices.Clone(y)
	infSkipped[1] = math.Inf(-1)
	cases := []struct {
		name    string
		classes []int
		x       *mat.Dense
		y       []float64
		opts    ClassFitOptions
	}{
		{"short classes", []int{0}, x, y, ClassFitOptions{}},
		{"gap", []int{1, 1}, x, y, ClassFitOptions{}},
		{"negative", []int{0, -1}, x, y, ClassFitOptions{}},
		{"one input", []int{0, 1}, mat.NewDense(1, 2, []float64{0, 0}), []float64{1}, ClassFitOptions{}},
		{"nan input", []int{0, 1}, nan, y, ClassFitOptions{}},
		{"y length", []int{0, 1}, x, y[:3], ClassFitOptions{}},
		{"bad noise", []int{0, 1}, x, y, ClassFitOptions{FixNoise: true, Noise: -1}},
		{"bad scale", []int{0, 1}, x, y, ClassFitOptions{Prior: PriorBoTorch, PriorScale: math.Inf(1)}},
		{"bad cap", []int{0, 1}, x, y, ClassFitOptions{MaxPoints: -3}},
		{"nan input, skipped row", []int{0, 1}, nanSkipped, y, ClassFitOptions{MaxPoints: 2}},
		{"inf output, skipped row", []int{0, 1}, x, infSkipped, ClassFitOptions{MaxPoints: 2}},
	}
	for _, c := range cases {
		if _, err := FitClassLengthscales(kernel.RBF, c.classes, c.x, c.y, c.opts); err == nil {
			t.Errorf("%s: no error", c.name)
		} else if errclass.Of(err) != errclass.Input {
			t.Errorf("%s: %v is not an input error", c.name, err)
		}
	}
	if _, err := FitClassLengthscales(kernel.RBF, []int{0, 1}, nil, y, ClassFitOptions{}); err == nil || errclass.Of(err) != errclass.Input {
		t.Errorf("nil inputs: %v", err)
	}
	// Finite inputs spanning ±1e300: no likelihood is finite. That was
	// gonum's optimize error, of no class; it is ErrOverflow.
	huge := mat.NewDense(3, 2, []float64{1e300, 1, -1e300, 2, 0, 3})
	if _, err := FitClasses(kernel.Matern52, []int{0, 1}, huge, []float64{1, 2, 3}, ClassFitOptions{}); !errors.Is(err, ErrOverflow) {
		t.Errorf("inputs spanning ±1e300: %v, want ErrOverflow", err)
	}
}

// TestFitClassLengthscalesSubsample: above MaxPoints the fit is the fit
// of the evenly spaced rows.
func TestFitClassLengthscalesSubsample(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	x, y := ardData(rng, 40, 2, func(p []float64) float64 { return math.Sin(3 * p[0]) })
	got, err := FitClassLengthscales(kernel.RBF, []int{0, 1}, x, y, ClassFitOptions{MaxPoints: 10})
	if err != nil {
		t.Fatal(err)
	}
	xs := mat.NewDense(10, 2, nil)
	ys := make([]float64, 10)
	for i := range 10 {
		xs.SetRow(i, x.RawRowView(i*4))
		ys[i] = y[i*4]
	}
	want, err := FitClassLengthscales(kernel.RBF, []int{0, 1}, xs, ys, ClassFitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != want[0] || got[1] != want[1] {
		t.Errorf("subsampled fit %v, fit of the rows %v", got, want)
	}
}
