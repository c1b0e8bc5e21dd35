package gp_test

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/errclass/errclasstest"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// TestNoPanic calls, for every family this package makes (base, max,
// avg, plus, landmark plus, mix, landmark), Bind with a nil, empty,
// mis-shaped or non-finite x, the Bound's CorrTo with a nil or
// mis-shaped dst or dLog and a NaN, zero, negative or infinite
// lengthscale, and a GP's PredictGrad and PredictStandardized with
// gradient buffers of the wrong length: each is an input error wrapping
// ErrInvalid or ErrNilArgument, not a panic (Bind(nil) and CorrTo(nil)
// were nil dereferences, a mis-shaped dst a slice or index panic, the
// buffers a "gp: PredictGrad" panic) nor a nil error over NaN
// correlations (CorrTo's lengthscales).
func TestNoPanic(t *testing.T) {
	g, err := orbit.Permutation(2)
	if err != nil {
		t.Fatal(err)
	}
	po := kernel.PlusOptions{Backend: linalg.Gonum()}
	nan, inf := math.NaN(), math.Inf(1)
	must := func(f gp.Family, err error) gp.Family {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	base := must(gp.NewBaseFamily(kernel.Matern52, 2))
	mx := must(gp.NewMaxFamily(kernel.Matern52, g, kernel.Options{}))
	fams := []struct {
		name string
		f    gp.Family
	}{
		{"base", base},
		{"max", mx},
		{"avg", must(gp.NewAvgFamily(kernel.Matern52, g, kernel.Options{}))},
		{"plus", must(gp.NewPlusFamily(kernel.Matern52, g, kernel.Options{}, po))},
		{"landmarkplus", must(gp.NewLandmarkPlusFamily(kernel.Matern52, g, kernel.Options{}, po, 3))},
		{"mix", must(gp.NewMixFamily(base, mx, 0.5))},
		{"landmark", must(gp.NewLandmarkFamily(base, 3, gp.LandmarkOptions{}))},
	}
	x := mat.NewDense(5, 2, []float64{0, 1, 1, 0, 0.5, 0.2, 0.3, 0.9, 0.7, 0.4})
	y := []float64{1, 2, 3, 4, 5}
	h := gp.Hyper{Variance: 1, Lengthscale: 1, Noise: 1e-3}
	type tcase struct {
		name string
		want error
		f    func() error
	}
	var cases []tcase
	add := func(name string, want error, f func() error) { cases = append(cases, tcase{name, want, f}) }
	for _, fc := range fams {
		fam := fc.f
		add(fc.name+"/Bind/nil", gp.ErrInvalid, func() error { _, err := fam.Bind(nil); return err })
		add(fc.name+"/Bind/empty", gp.ErrInvalid, func() error { _, err := fam.Bind(&mat.Dense{}); return err })
		add(fc.name+"/Bind/width", gp.ErrInvalid, func() error { _, err := fam.Bind(mat.NewDense(1, 3, nil)); return err })
		add(fc.name+"/Bind/NaN", gp.ErrInvalid, func() error { _, err := fam.Bind(mat.NewDense(1, 2, []float64{nan, 0})); return err })
		b, err := fam.Bind(x)
		if err != nil {
			t.Fatalf("%s: Bind: %v", fc.name, err)
		}
		add(fc.name+"/CorrTo/nil-dst", gp.ErrNilArgument, func() error { return b.CorrTo(nil, nil, 1) })
		add(fc.name+"/CorrTo/dst-shape", gp.ErrInvalid, func() error { return b.CorrTo(mat.NewSymDense(2, nil), nil, 1) })
		add(fc.name+"/CorrTo/dLog-shape", gp.ErrInvalid, func() error { return b.CorrTo(&mat.SymDense{}, mat.NewSymDense(2, nil), 1) })
		for _, l := range []float64{nan, 0, -1, inf} {
			add(fmt.Sprintf("%s/CorrTo/l=%v", fc.name, l), gp.ErrInvalid, func() error { return b.CorrTo(&mat.SymDense{}, nil, l) })
		}
		model, err := gp.New(fam, x, y, h, gp.Options{})
		if err != nil {
			t.Fatalf("%s: New: %v", fc.name, err)
		}
		pt := []float64{0.2, 0.6}
		add(fc.name+"/PredictGrad/dmean", gp.ErrInvalid, func() error {
			_, _, err := model.PredictGrad(&gp.Workspace{}, pt, make([]float64, 1), nil)
			return err
		})
		add(fc.name+"/PredictGrad/dvar", gp.ErrInvalid, func() error {
			_, _, err := model.PredictGrad(nil, pt, nil, make([]float64, 5))
			return err
		})
		add(fc.name+"/PredictStandardized/dmean", gp.ErrInvalid, func() error {
			_, _, err := model.PredictStandardized(&gp.Workspace{}, pt, make([]float64, 3), nil)
			return err
		})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			errclasstest.InputError(t, tc.want, tc.f)
		})
	}
}
