package kernel_test

import (
	"errors"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/errclass/errclasstest"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// TestNoPanic calls every method and function of the package that writes
// a dst with a nil dst and with a non-empty dst of the wrong shape (and
// ProjectTo with a malformed eig), on every kernel type (base, average,
// normalized average, max, plus): each is an input error wrapping
// ErrNilArgument, ErrDstShape or ErrInvalid, not a panic. A nil dst was a
// runtime nil-pointer panic, a mis-shaped one a "kernel: dst is …" panic.
func TestNoPanic(t *testing.T) {
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	g, err := orbit.Permutation(2)
	if err != nil {
		t.Fatal(err)
	}
	base, err := kernel.NewBase(p, 2)
	if err != nil {
		t.Fatal(err)
	}
	avg, err := kernel.NewAvg(p, g, kernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	navg, err := kernel.NewAvg(p, g, kernel.Options{Normalize: true})
	if err != nil {
		t.Fatal(err)
	}
	mx, err := kernel.NewMax(p, g, kernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	plus, err := kernel.NewPlus(mx, mat.NewDense(3, 2, []float64{0, 1, 1, 0, 0.5, 0.2}), kernel.PlusOptions{Backend: linalg.Gonum()})
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(2, 2, []float64{0, 1, 2, 3})
	x1 := []float64{0.5, 1}
	wrong := func() *mat.Dense { return mat.NewDense(5, 5, nil) }
	wrongSym := func() *mat.SymDense { return mat.NewSymDense(5, nil) }
	type tcase struct {
		name string
		want error
		f    func() error
	}
	var cases []tcase
	add := func(name string, want error, f func() error) { cases = append(cases, tcase{name, want, f}) }
	type full interface {
		kernel.Kernel
		kernel.Gramer
		kernel.Gradienter
	}
	for _, kc := range []struct {
		name string
		k    full
	}{{"base", base}, {"avg", avg}, {"navg", navg}, {"max", mx}, {"plus", plus}} {
		k := kc.k
		add(kc.name+"/CrossTo/nil", kernel.ErrNilArgument, func() error { return k.CrossTo(nil, x, x) })
		add(kc.name+"/CrossTo/shape", kernel.ErrDstShape, func() error { return k.CrossTo(wrong(), x, x) })
		add(kc.name+"/GramTo/nil", kernel.ErrNilArgument, func() error { return k.GramTo(nil, x) })
		add(kc.name+"/GramTo/shape", kernel.ErrDstShape, func() error { return k.GramTo(wrongSym(), x) })
		add(kc.name+"/DiagTo/shape", kernel.ErrDstShape, func() error { _, err := k.DiagTo(make([]float64, 7), x); return err })
		add(kc.name+"/GradTo/nil", kernel.ErrNilArgument, func() error { return k.GradTo(nil, x1, x) })
		add(kc.name+"/GradTo/shape", kernel.ErrDstShape, func() error { return k.GradTo(wrong(), x1, x) })
		add(kc.name+"/Gram/nil", kernel.ErrNilArgument, func() error { return kernel.Gram(k, nil, x) })
		add(kc.name+"/Grad/nil", kernel.ErrNilArgument, func() error { return kernel.Grad(k, nil, x1, x, 1) })
		add(kc.name+"/Grad/shape", kernel.ErrDstShape, func() error { return kernel.Grad(k, wrong(), x1, x, 1) })
	}
	// Gram's and Grad's fallbacks for a kernel with only CrossTo.
	cross := crossOnly{base}
	add("crossonly/Gram/nil", kernel.ErrNilArgument, func() error { return kernel.Gram(cross, nil, x) })
	add("crossonly/Gram/shape", kernel.ErrDstShape, func() error { return kernel.Gram(cross, wrongSym(), x) })
	add("crossonly/Grad/nil", kernel.ErrNilArgument, func() error { return kernel.Grad(cross, nil, x1, x, 1) })
	add("crossonly/Grad/shape", kernel.ErrDstShape, func() error { return kernel.Grad(cross, wrong(), x1, x, 1) })
	for _, pc := range []struct {
		name string
		k    interface {
			Prepare(*mat.Dense) (*kernel.Prepared, error)
			CrossPreparedTo(dst, x *mat.Dense, p *kernel.Prepared) error
		}
	}{{"base", base}, {"avg", avg}, {"navg", navg}, {"max", mx}} {
		pp, err := pc.k.Prepare(x)
		if err != nil {
			t.Fatal(err)
		}
		k := pc.k
		add(pc.name+"/CrossPreparedTo/nil", kernel.ErrNilArgument, func() error { return k.CrossPreparedTo(nil, x, pp) })
		add(pc.name+"/CrossPreparedTo/shape", kernel.ErrDstShape, func() error { return k.CrossPreparedTo(wrong(), x, pp) })
	}
	ap, err := avg.Prepare(mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5}))
	if err != nil {
		t.Fatal(err)
	}
	one := mat.NewDense(1, 2, x1)
	add("avg/CrossDiagPreparedTo/nil", kernel.ErrNilArgument, func() error { _, err := avg.CrossDiagPreparedTo(nil, nil, one, ap); return err })
	add("avg/CrossDiagPreparedTo/shape", kernel.ErrDstShape, func() error { _, err := avg.CrossDiagPreparedTo(wrong(), nil, one, ap); return err })
	add("avg/CrossDiagPreparedTo/diag", kernel.ErrDstShape, func() error {
		_, err := avg.CrossDiagPreparedTo(&mat.Dense{}, make([]float64, 9), one, ap)
		return err
	})
	add("avg/GradPreparedTo/nil", kernel.ErrNilArgument, func() error { return avg.GradPreparedTo(nil, x1, ap) })
	add("avg/GradPreparedTo/shape", kernel.ErrDstShape, func() error { return avg.GradPreparedTo(wrong(), x1, ap) })
	add("plus/FeaturesTo/nil", kernel.ErrNilArgument, func() error { return plus.FeaturesTo(nil, x) })
	add("plus/FeaturesTo/shape", kernel.ErrDstShape, func() error { return plus.FeaturesTo(wrong(), x) })
	add("OrbitDist2To/nil", kernel.ErrNilArgument, func() error { return kernel.OrbitDist2To(nil, g, x, kernel.Options{}) })
	add("OrbitDist2To/shape", kernel.ErrDstShape, func() error { return kernel.OrbitDist2To(wrongSym(), g, x, kernel.Options{}) })
	add("OrbitDistTo/nil", kernel.ErrNilArgument, func() error { return kernel.OrbitDistTo(nil, nil, x, kernel.Options{}) })
	od, err := kernel.NewOrbitDist(g, x, kernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	add("OrbitDist.ColumnTo/nil", kernel.ErrDstShape, func() error { return od.ColumnTo(nil, x1) })
	add("OrbitDist.ColumnTo/shape", kernel.ErrDstShape, func() error { return od.ColumnTo(make([]float64, 3), x1) })
	var eig linalg.Eigen
	if err := linalg.Gonum().EigenSym(&eig, mat.NewSymDense(2, []float64{0, 1, 1, 0})); err != nil {
		t.Fatal(err)
	}
	be := linalg.Gonum()
	add("ProjectTo/nil-dst", kernel.ErrNilArgument, func() error { _, err := kernel.ProjectTo(be, nil, &mat.Dense{}, &eig, 0); return err })
	add("ProjectTo/nil-scratch", kernel.ErrNilArgument, func() error { _, err := kernel.ProjectTo(be, &mat.Dense{}, nil, &eig, 0); return err })
	add("ProjectTo/dst-shape", kernel.ErrDstShape, func() error { _, err := kernel.ProjectTo(be, wrong(), &mat.Dense{}, &eig, 0); return err })
	add("ProjectTo/scratch-shape", kernel.ErrDstShape, func() error {
		_, err := kernel.ProjectTo(be, &mat.Dense{}, mat.NewDense(1, 1, nil), &eig, 0)
		return err
	})
	add("ProjectTo/no-vectors", kernel.ErrInvalid, func() error {
		_, err := kernel.ProjectTo(be, &mat.Dense{}, &mat.Dense{}, &linalg.Eigen{Values: []float64{-1, 1}}, 0)
		return err
	})
	add("ProjectTo/vectors-shape", kernel.ErrInvalid, func() error {
		_, err := kernel.ProjectTo(be, &mat.Dense{}, &mat.Dense{}, &linalg.Eigen{Values: []float64{-1, 1}, Vectors: mat.NewDense(1, 2, nil)}, 0)
		return err
	})
	add("ProjectTo/dst-is-scratch", kernel.ErrInvalid, func() error {
		s := mat.NewDense(2, 2, nil)
		_, err := kernel.ProjectTo(be, s, s, &eig, 0)
		return err
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			errclasstest.InputError(t, tc.want, tc.f)
		})
	}
}

// crossOnly hides every method of k but Dim, CrossTo and DiagTo.
type crossOnly struct{ k kernel.Kernel }

func (c crossOnly) Dim() int                                              { return c.k.Dim() }
func (c crossOnly) CrossTo(dst *mat.Dense, x, y *mat.Dense) error         { return c.k.CrossTo(dst, x, y) }
func (c crossOnly) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) { return c.k.DiagTo(dst, x) }

// narrowCross is a caller's kernel whose CrossTo writes an n×1 matrix
// whatever y is: it breaks Kernel's contract.
type narrowCross struct{ crossOnly }

func (narrowCross) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	n, _ := x.Dims()
	dst.ReuseAs(n, 1)
	return nil
}

// TestGramFallbackWrongShape: Gram's CrossTo fallback refuses a caller's
// CrossTo(x, x) that is not n×n (ErrInvalid); it read past it (a mat
// index panic).
func TestGramFallbackWrongShape(t *testing.T) {
	base, err := kernel.NewBase(kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5})
	err = func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		return kernel.Gram(narrowCross{crossOnly{base}}, &mat.SymDense{}, x)
	}()
	if !errors.Is(err, kernel.ErrInvalid) {
		t.Fatalf("err = %v, want one wrapping ErrInvalid", err)
	}
}
