package gp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// softFamily is the mix bo.Soft builds: k_plus over g and k_plus over the
// trivial group (nystrom) at share w.
func softFamily(t *testing.T, shape kernel.Shape, g orbit.Group, w float64) Family {
	t.Helper()
	po := kernel.PlusOptions{Backend: linalg.Gonum()}
	inv := mustG(NewPlusFamily(shape, g, kernel.Options{}, po))
	free := mustG(NewPlusFamily(shape, mustG(orbit.Trivial(g.Dim())), kernel.Options{}, po))
	return mustG(NewMixFamily(inv, free, w))
}

// nystromOracle is k(x, D)·k(D, D)⁻¹·k(D, y) for the base kernel k, by a
// Cholesky solve (independent of kernel.Plus's eigendecomposition).
func nystromOracle(t *testing.T, p kernel.Params, d *mat.Dense, x, y []float64) float64 {
	t.Helper()
	n, dim := d.Dims()
	kb := mustG(kernel.NewBase(p, dim))
	var kdd mat.SymDense
	kdd.ReuseAsSym(n)
	if err := gramTo(kb, &kdd, d); err != nil {
		t.Fatal(err)
	}
	var ch mat.Cholesky
	if !ch.Factorize(&kdd) {
		t.Fatal("design Gram not positive definite")
	}
	kx, ky := mat.NewDense(1, n, nil), mat.NewDense(1, n, nil)
	must(t, kb.CrossTo(kx, mat.NewDense(1, dim, x), d))
	must(t, kb.CrossTo(ky, mat.NewDense(1, dim, y), d))
	var s mat.VecDense
	if err := ch.SolveVecTo(&s, ky.RowView(0)); err != nil {
		t.Fatal(err)
	}
	return mat.Dot(kx.RowView(0), &s)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestMixKernelOracle: the soft kernel's value is (1−w)·k_plus + w·k_nystrom
// with k_nystrom from a Cholesky solve, at design and new points; its Gram
// on the design agrees with CorrTo; it is symmetric and PSD; and it is not
// invariant where k_plus is.
func TestMixKernelOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	for _, tc := range []struct {
		name  string
		shape kernel.Shape
		g     orbit.Group
	}{
		{"hyperoct3/rbf", kernel.RBF, mustG(orbit.Hyperoctahedral(3))},
		{"perm4/matern52", kernel.Matern52, mustG(orbit.Permutation(4))},
		{"rotation2d/matern52", kernel.Matern52, mustG(orbit.Rotation2D())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const w, v, l = 0.2, 1.7, 0.9
			d := tc.g.Dim()
			x, _ := sample(rng, 12, d)
			fam := softFamily(t, tc.shape, tc.g, w)
			b := mustG(fam.Bind(x))
			k := mustG(b.Kernel(v, l))
			kmax := mustG(kernel.NewMax(kernel.Params{Shape: tc.shape, Variance: (1 - w) * v, Lengthscale: l}, tc.g, kernel.Options{}))
			kplus := mustG(kernel.NewPlus(kmax, x, kernel.PlusOptions{Backend: linalg.Gonum()}))
			pb := kernel.Params{Shape: tc.shape, Variance: w * v, Lengthscale: l}
			pts := mat.NewDense(6, d, nil)
			for i := range 6 {
				for j := range d {
					if i < 2 {
						pts.Set(i, j, x.At(i, j))
					} else {
						pts.Set(i, j, -2+4*rng.Float64())
					}
				}
			}
			got := mat.NewDense(6, 6, nil)
			must(t, k.CrossTo(got, pts, pts))
			kp := mat.NewDense(6, 6, nil)
			must(t, kplus.CrossTo(kp, pts, pts))
			for i := range 6 {
				for j := range 6 {
					want := kp.At(i, j) + nystromOracle(t, pb, x, pts.RawRowView(i), pts.RawRowView(j))
					if e := math.Abs(got.At(i, j) - want); e > 1e-9*v {
						t.Errorf("k(p%d, p%d) = %.15g, oracle %.15g", i, j, got.At(i, j), want)
					}
					if got.At(i, j) != got.At(j, i) && math.Abs(got.At(i, j)-got.At(j, i)) > 1e-12*v {
						t.Errorf("k not symmetric at (%d, %d)", i, j)
					}
				}
			}
			diag := mustG(k.DiagTo(nil, pts))
			for i := range 6 {
				if math.Abs(diag[i]-got.At(i, i)) > 1e-12*v {
					t.Errorf("DiagTo[%d] = %v, CrossTo %v", i, diag[i], got.At(i, i))
				}
			}
			// CorrTo on the design is the kernel's Gram at unit variance.
			var c mat.SymDense
			must(t, b.CorrTo(&c, nil, l))
			k1 := mustG(b.Kernel(1, l))
			n := 12
			g1 := mat.NewDense(n, n, nil)
			must(t, k1.CrossTo(g1, x, x))
			for i := range n {
				for j := range n {
					if e := math.Abs(c.At(i, j) - g1.At(i, j)); e > 1e-9 {
						t.Fatalf("CorrTo[%d,%d] = %v, Gram %v", i, j, c.At(i, j), g1.At(i, j))
					}
				}
			}
			var eig mat.EigenSym
			if !eig.Factorize(&c, false) {
				t.Fatal("eigendecomposition failed")
			}
			if lo := eig.Values(nil)[0]; lo < -1e-10 {
				t.Errorf("CorrTo has eigenvalue %v < 0", lo)
			}
			// Not invariant: images of a new point move the kernel row.
			p := mat.NewDense(1, d, pts.RawRowView(4))
			r1, r2 := mat.NewDense(1, n, nil), mat.NewDense(1, n, nil)
			must(t, k.CrossTo(r1, p, x))
			var moved float64
			for seed := range uint64(4) {
				must(t, k.CrossTo(r2, kerneltest.Act(tc.g, p, seed), x))
				for j := range n {
					moved = math.Max(moved, math.Abs(r1.At(0, j)-r2.At(0, j)))
				}
			}
			if moved < 1e-6 {
				t.Errorf("the soft kernel row did not move under a group element (max change %g)", moved)
			}
		})
	}
}

// TestMixCorrDerivative: ∂C/∂log ℓ of the mix against a central difference
// of CorrTo.
func TestMixCorrDerivative(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 0))
	x, _ := sample(rng, 10, 3)
	b := mustG(softFamily(t, kernel.Matern52, mustG(orbit.Hyperoctahedral(3)), 0.3).Bind(x))
	const l, h = 0.8, 1e-5
	var c, dl, cp, cm mat.SymDense
	must(t, b.CorrTo(&c, &dl, l))
	must(t, b.CorrTo(&cp, nil, l*math.Exp(h)))
	must(t, b.CorrTo(&cm, nil, l*math.Exp(-h)))
	for i := range 10 {
		for j := range 10 {
			fd := (cp.At(i, j) - cm.At(i, j)) / (2 * h)
			if math.Abs(fd-dl.At(i, j)) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("dC/dlogℓ[%d,%d] = %v, finite difference %v", i, j, dl.At(i, j), fd)
			}
		}
	}
}

// TestMixFeaturePosterior: the feature form of a mix of two k_plus parts
// agrees with the generic posterior of the same kernel, values and
// gradients, and a fit's gradient matches finite differences of Predict.
func TestMixFeaturePosterior(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 0))
	for _, tc := range []struct {
		name  string
		shape kernel.Shape
		g     orbit.Group
		canon bool // the invariant part predicts in canonical coordinates
	}{
		{"hyperoct3/rbf", kernel.RBF, mustG(orbit.Hyperoctahedral(3)), true},
		{"perm3/matern32", kernel.Matern32, mustG(orbit.Permutation(3)), true},
		{"rotation2d/matern52", kernel.Matern52, mustG(orbit.Rotation2D()), true},
		{"cyclic4/matern52", kernel.Matern52, mustG(orbit.Cyclic(4)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.g.Dim()
			x, y := sample(rng, 25, d)
			fam := softFamily(t, tc.shape, tc.g, 0.2)
			h := Hyper{Variance: 1.3, Lengthscale: 0.8, Noise: 1e-3}
			fast := mustG(New(fam, x, y, h, Options{}))
			gen := mustG(newKernelGP(fast.Kernel(), x, y, h.Noise, Options{}))
			sc := fast.yScale
			var w1, w2 Workspace
			dm1, dv1 := make([]float64, d), make([]float64, d)
			dm2, dv2 := make([]float64, d), make([]float64, d)
			for k := range 30 {
				p := make([]float64, d)
				if k < 8 {
					copy(p, x.RawRowView(k))
				} else {
					for j := range p {
						p[j] = -1.5 + 3*rng.Float64()
					}
				}
				m1, v1, err1 := fast.PredictGrad(&w1, p, dm1, dv1)
				if fast.plus == nil || len(fast.plus.parts) != 2 {
					t.Fatal("no two-part feature form")
				}
				// The invariant part's row in canonical coordinates where the
				// group has a canonical map, and the free part's base row.
				inv, free := fast.plus.parts[0], fast.plus.parts[1]
				if _, base := free.km.(*kernel.Base); (inv.canon != nil) != tc.canon || !base || free.canon != nil {
					t.Fatalf("parts: invariant canonical %v, want %v; free part's row %T, canonical %v", inv.canon != nil, tc.canon, free.km, free.canon != nil)
				}
				m2, v2, err2 := gen.PredictGrad(&w2, p, dm2, dv2)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				close := func(a, b, scale float64) bool { return math.Abs(a-b) <= 1e-6*scale }
				if !close(m1, m2, 1+math.Abs(m2)) || !close(v1, v2, sc*sc) {
					t.Errorf("point %d: (mean, var) = (%v, %v), generic (%v, %v)", k, m1, v1, m2, v2)
				}
				for j := range d {
					if !close(dm1[j], dm2[j], 1+math.Abs(dm2[j])) || (v2 > 1e-6*sc*sc && !close(dv1[j], dv2[j], sc*sc*(1+math.Abs(dv2[j])))) {
						t.Errorf("point %d coord %d: grads (%v, %v), generic (%v, %v)", k, j, dm1[j], dv1[j], dm2[j], dv2[j])
					}
				}
				// The mean's gradient against a central difference.
				if k >= 8 {
					const e = 1e-6
					for j := range d {
						q := append([]float64(nil), p...)
						q[j] += e
						mp, _, _ := fast.Predict(&w2, q)
						q[j] -= 2 * e
						mm, _, _ := fast.Predict(&w2, q)
						if fd := (mp - mm) / (2 * e); math.Abs(fd-dm1[j]) > 1e-4*(1+math.Abs(fd)) {
							t.Errorf("point %d coord %d: ∂mean %v, finite difference %v", k, j, dm1[j], fd)
						}
					}
				}
			}
			if a := testing.AllocsPerRun(20, func() { fast.PredictGrad(&w1, x.RawRowView(3), dm1, dv1) }); a != 0 && !raceEnabled {
				t.Errorf("PredictGrad allocates %v", a)
			}
		})
	}
}

// TestMixFamilyErrors: NewMixFamily refuses nil parts, unequal dimensions
// and a weight outside (0, 1).
func TestMixFamilyErrors(t *testing.T) {
	a := mustG(NewBaseFamily(kernel.RBF, 2))
	b3 := mustG(NewBaseFamily(kernel.RBF, 3))
	if _, err := NewMixFamily(nil, a, 0.5); !errors.Is(err, ErrNilArgument) {
		t.Errorf("nil part: %v", err)
	}
	if _, err := NewMixFamily(a, b3, 0.5); err == nil {
		t.Error("dimensions 2 and 3 accepted")
	}
	for _, w := range []float64{0, 1, -0.1, math.NaN()} {
		if _, err := NewMixFamily(a, a, w); err == nil {
			t.Errorf("weight %v accepted", w)
		}
	}
}
