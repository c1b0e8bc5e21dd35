package kernel_test

import (
	"errors"
	"math"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

func TestTruncate(t *testing.T) {
	eps := 0x1p-52
	for _, c := range []struct {
		name   string
		values []float64
		relTol float64
		first  int
		err    error
	}{
		{"all kept", []float64{1, 2, 3}, 0, 0, nil},
		{"negative clipped", []float64{-1, 1e-20, 2, 3}, 0, 2, nil},
		{"tiny kept", []float64{4 * eps * 3, 3}, 0, 0, nil},
		{"reltol", []float64{0.1, 0.5, 1}, 0.5, 2, nil},
		{"single", []float64{7}, 0, 0, nil},
		{"empty", nil, 0, 0, kernel.ErrSpectrum},
		{"inf", []float64{1, math.Inf(1)}, 0, 0, kernel.ErrSpectrum},
		{"nan", []float64{1, math.NaN()}, 0, 0, kernel.ErrSpectrum},
		{"nonpositive", []float64{-2, -1, 0}, 0, 0, kernel.ErrSpectrum},
	} {
		first, thr, err := kernel.Truncate(c.values, c.relTol)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: error %v, want %v", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		// Independent rule: kept ⇔ λ > tol·λ_max.
		n := len(c.values)
		tol := c.relTol
		if tol == 0 {
			tol = float64(n) * eps
		}
		want := tol * c.values[n-1]
		if thr != want {
			t.Errorf("%s: thr %g, want %g", c.name, thr, want)
		}
		for i, v := range c.values {
			if (i >= first) != (v > want) {
				t.Errorf("%s: first = %d, but λ[%d] = %g vs thr %g", c.name, first, i, v, want)
			}
		}
	}
	if _, _, err := kernel.Truncate([]float64{1}, 1); err == nil {
		t.Error("relTol 1 accepted")
	}
}

// TestPlusOverflowingSpectrum: three identical design points with variance
// 1e308 give λ_max = +Inf; NewPlus must fail with ErrSpectrum, not panic.
func TestPlusOverflowingSpectrum(t *testing.T) {
	g, _ := orbit.Hyperoctahedral(3)
	mx, err := kernel.NewMax(kernel.Params{Shape: kernel.RBF, Variance: 1e308, Lengthscale: 1}, g, kernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := mat.NewDense(3, 3, []float64{1, 2, 3, 1, 2, 3, 1, 2, 3})
	_, err = kernel.NewPlus(mx, d, kernel.PlusOptions{})
	if !errors.Is(err, kernel.ErrSpectrum) {
		t.Fatalf("NewPlus: error %v, want ErrSpectrum", err)
	}
	// A large but safe variance still works and reproduces K on D×D.
	mx, _ = kernel.NewMax(kernel.Params{Shape: kernel.RBF, Variance: 1e300, Lengthscale: 1}, g, kernel.Options{})
	kp, err := kernel.NewPlus(mx, d, kernel.PlusOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var k mat.Dense
	if err := kp.CrossTo(&k, d, d); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 3 {
			if v := k.At(i, j); math.Abs(v-1e300) > 1e-12*1e300 {
				t.Fatalf("k_plus(D, D)[%d,%d] = %g, want 1e300", i, j, v)
			}
		}
	}
}

// TestProjectTo checks the projection against Q·diag(f(λ))·Qᵀ built
// entry by entry.
func TestProjectTo(t *testing.T) {
	be, err := linalg.Default()
	if err != nil {
		t.Fatal(err)
	}
	a := mat.NewSymDense(3, []float64{1, 2, 0, 2, 1, 0, 0, 0, 3}) // eigenvalues −1, 3, 3
	var e linalg.Eigen
	if err := be.EigenSym(&e, a); err != nil {
		t.Fatal(err)
	}
	var dst, scratch mat.Dense
	clipped, err := kernel.ProjectTo(be, &dst, &scratch, &e, 0)
	if err != nil || !clipped {
		t.Fatalf("clipped %v, err %v", clipped, err)
	}
	for i := range 3 {
		for j := range 3 {
			var want float64
			for k := range 3 {
				if e.Values[k] > 3*3*0x1p-52 {
					want += e.Vectors.At(i, k) * e.Values[k] * e.Vectors.At(j, k)
				}
			}
			if math.Abs(dst.At(i, j)-want) > 1e-14 {
				t.Fatalf("K₊[%d,%d] = %g, want %g", i, j, dst.At(i, j), want)
			}
		}
	}
	// K₊ of [[1,2],[2,1]] ⊕ 3 is [[1.5,1.5],[1.5,1.5]] ⊕ 3 (closed form).
	for _, w := range []struct {
		i, j int
		v    float64
	}{{0, 0, 1.5}, {0, 1, 1.5}, {2, 2, 3}, {0, 2, 0}} {
		if math.Abs(dst.At(w.i, w.j)-w.v) > 1e-14 {
			t.Errorf("K₊[%d,%d] = %g, want %g", w.i, w.j, dst.At(w.i, w.j), w.v)
		}
	}
	pd := mat.NewSymDense(2, []float64{2, 1, 1, 2})
	if err := be.EigenSym(&e, pd); err != nil {
		t.Fatal(err)
	}
	var d2, s2 mat.Dense
	if clipped, err := kernel.ProjectTo(be, &d2, &s2, &e, 0); clipped || err != nil {
		t.Errorf("PD matrix: clipped %v, err %v", clipped, err)
	}
}

// TestProjectToNilArguments: a nil backend is linalg.Default(), as every
// Backend option of symbo's says (the same bits as the default's), and a
// nil eigendecomposition has no eigenvalues, ErrSpectrum; both were nil
// dereferences.
func TestProjectToNilArguments(t *testing.T) {
	be, err := linalg.Default()
	if err != nil {
		t.Fatal(err)
	}
	var e linalg.Eigen
	if err := be.EigenSym(&e, mat.NewSymDense(2, []float64{1, 2, 2, 1})); err != nil {
		t.Fatal(err)
	}
	var want, got, s1, s2 mat.Dense
	if _, err := kernel.ProjectTo(be, &want, &s1, &e, 0); err != nil {
		t.Fatal(err)
	}
	if clipped, err := kernel.ProjectTo(nil, &got, &s2, &e, 0); err != nil || !clipped || !mat.Equal(&got, &want) {
		t.Errorf("nil backend: clipped %v, err %v, K₊ %v, want %v", clipped, err, mat.Formatted(&got), mat.Formatted(&want))
	}
	if _, err := kernel.ProjectTo(be, &got, &s2, nil, 0); !errors.Is(err, kernel.ErrSpectrum) {
		t.Errorf("nil eigendecomposition: %v, want ErrSpectrum", err)
	}
}
