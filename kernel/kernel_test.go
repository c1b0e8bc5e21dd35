package kernel_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

func finiteGroups(t testing.TB) []orbit.Finite {
	var out []orbit.Finite
	for _, g := range testGroups(t) {
		if f, ok := g.(orbit.Finite); ok {
			out = append(out, f)
		}
	}
	return out
}

// bruteForce computes the paper's definitions literally: the double
// average 1/|G|²·Σ_{g,g'} and the double maximum over (g, g') of
// k_b(g·x, g'·y).
func bruteForce(p kernel.Params, g orbit.Finite, x, y []float64) (avg, mx float64) {
	G := int(g.Order().Int64())
	d := g.Dim()
	gx, gy := make([]float64, d), make([]float64, d)
	mx = math.Inf(-1)
	for a := range G {
		g.ActTo(gx, x, a)
		for b := range G {
			g.ActTo(gy, y, b)
			var d2 float64
			for k := range d {
				d2 += (gx[k] - gy[k]) * (gx[k] - gy[k])
			}
			v := p.Kappa(math.Sqrt(d2))
			avg += v
			mx = math.Max(mx, v)
		}
	}
	return avg / float64(G*G), mx
}

// TestAgainstDefinition checks Avg and Max (closed and enumerated) against
// the double orbit sum and maximum, which for these isometry groups must
// equal the single ones the package computes.
func TestAgainstDefinition(t *testing.T) {
	for _, g := range finiteGroups(t) {
		for _, s := range shapes {
			p := kernel.Params{Shape: s, Variance: 1.3, Lengthscale: 1.1}
			x := kerneltest.Points(g, 6, 5)
			y := kerneltest.Points(g, 7, 6)
			for _, m := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
				avg, err := kernel.NewAvg(p, g, kernel.Options{Method: m})
				if err != nil {
					t.Fatal(err)
				}
				mx, err := kernel.NewMax(p, g, kernel.Options{Method: m})
				if err != nil {
					t.Fatal(err)
				}
				var ka, km mat.Dense
				if err := avg.CrossTo(&ka, x, y); err != nil {
					t.Fatal(err)
				}
				if err := mx.CrossTo(&km, x, y); err != nil {
					t.Fatal(err)
				}
				for i := range 6 {
					for j := range 7 {
						wa, wm := bruteForce(p, g, x.RawRowView(i), y.RawRowView(j))
						if got := ka.At(i, j); math.Abs(got-wa) > 1e-12 {
							t.Errorf("%s %s %s avg(%d,%d) = %v, want %v", g.Name(), s, m, i, j, got, wa)
						}
						if got := km.At(i, j); math.Abs(got-wm) > 1e-12 {
							t.Errorf("%s %s %s max(%d,%d) = %v (%s), want %v", g.Name(), s, m, i, j, got, mx.Method(), wm)
						}
					}
				}
			}
		}
	}
}

// pinvQuad returns a·K₊^†·b by an independent route: gonum's EigenSym.
func plusReference(t *testing.T, k *mat.SymDense, tol float64) (kp *mat.Dense, pinv *mat.Dense) {
	var es mat.EigenSym
	if !es.Factorize(k, true) {
		t.Fatal("eigen failed")
	}
	vals := es.Values(nil)
	var q mat.Dense
	es.VectorsTo(&q)
	n := len(vals)
	lmax := vals[n-1]
	kp = mat.NewDense(n, n, nil)
	pinv = mat.NewDense(n, n, nil)
	for l, lam := range vals {
		for i := range n {
			for j := range n {
				qq := q.At(i, l) * q.At(j, l)
				if lam > 0 {
					kp.Set(i, j, kp.At(i, j)+lam*qq)
				}
				if lam > tol*lmax {
					pinv.Set(i, j, pinv.At(i, j)+qq/lam)
				}
			}
		}
	}
	return kp, pinv
}

func TestPlus(t *testing.T) {
	for _, g := range testGroups(t) {
		for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern52} {
			t.Run(fmt.Sprintf("group=%s/base=%s", g.Name(), s), func(t *testing.T) {
				p := kernel.Params{Shape: s, Variance: 1.5, Lengthscale: 0.8}
				if g.Order() == nil && g.Dim() == 2 && g.Name() != "rotation2d" {
					p.Lengthscale = 3
				}
				m, err := kernel.NewMax(p, g, kernel.Options{})
				if err != nil {
					t.Fatal(err)
				}
				const n = 40
				design := kerneltest.Points(g, n, 11)
				pk, err := kernel.NewPlus(m, design, kernel.PlusOptions{})
				if err != nil {
					t.Fatal(err)
				}
				var kmax mat.SymDense
				if err := m.GramTo(&kmax, design); err != nil {
					t.Fatal(err)
				}
				kp, pinv := plusReference(t, &kmax, float64(n)*0x1p-52)
				var kplus mat.SymDense
				if err := pk.GramTo(&kplus, design); err != nil {
					t.Fatal(err)
				}
				ev := pk.Eigenvalues()
				lmax := ev[n-1]
				// plus(D, D) = K₊.
				if d := maxAbsDiff(&kplus, kp); d > 1e-10*lmax {
					t.Errorf("‖plus(D,D) − K₊‖ = %.3g (λmax %.3g)", d, lmax)
				}
				// K₊ PSD.
				var es mat.EigenSym
				es.Factorize(&kplus, false)
				pv := es.Values(nil)
				if pv[0] < -1e-10*pv[n-1] {
					t.Errorf("plus Gram not PSD: %v", pv[0])
				}
				// plus = max on D×D when k_max(D, D) is PSD.
				if ev[0] >= -1e-10*lmax {
					if d := maxAbsDiff(&kplus, &kmax); d > 1e-10*lmax {
						t.Errorf("k_max(D,D) PSD (λmin %.3g) but ‖plus − max‖ = %.3g", ev[0], d)
					}
				}
				if r := pk.Rank(); r < 1 || r > n {
					t.Errorf("rank %d", r)
				}
				for i := 1; i < n; i++ {
					if ev[i] < ev[i-1] {
						t.Fatal("eigenvalues not ascending")
					}
				}
				_ = pinv
				// Off D: k_max(x, D)·K₊^†·k_max(D, y), on a small design
				// (a large one makes K₊^† ill-conditioned, so that two
				// eigensolvers legitimately disagree).
				small := kerneltest.Points(g, 5, 14)
				ps, err := kernel.NewPlus(m, small, kernel.PlusOptions{})
				must(t, err)
				var ks mat.SymDense
				must(t, m.GramTo(&ks, small))
				_, spinv := plusReference(t, &ks, 5*0x1p-52)
				x := kerneltest.Points(g, 4, 12)
				y := kerneltest.Points(g, 3, 13)
				var kxd, kdy, want, tmp, got mat.Dense
				must(t, m.CrossTo(&kxd, x, small))
				must(t, m.CrossTo(&kdy, small, y))
				tmp.Mul(&kxd, spinv)
				want.Mul(&tmp, &kdy)
				must(t, ps.CrossTo(&got, x, y))
				// Rounding in k_max (ulps) is amplified by the kept part of
				// K₊^†: allow 64·ε·cond on top of the fixed 1e-9.
				sv := ps.Eigenvalues()
				smin := sv[len(sv)-1]
				for _, v := range sv {
					if v > 5*0x1p-52*sv[len(sv)-1] {
						smin = min(smin, v)
					}
				}
				tol := max(1e-9, 64*0x1p-52*sv[len(sv)-1]/smin)
				if d := maxAbsDiff(&got, &want); d > tol*p.Variance {
					t.Errorf("plus(x, y) off D differs from the definition by %.3g", d)
				}
			})
		}
	}
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := range r {
		for j := range c {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestRotationClosedForms compares the SO(2) closed forms with a fine
// discretization of the group (the Enumerate method).
func TestRotationClosedForms(t *testing.T) {
	g, _ := orbit.Rotation2D()
	x := kerneltest.Points(g, 8, 21)
	y := kerneltest.Points(g, 8, 22)
	// Include equal radii, a point at the origin and large radii
	// (rs/ℓ² up to ~10⁴: the scaled Bessel function must not overflow).
	y.Set(0, 0, -x.At(0, 1))
	y.Set(0, 1, x.At(0, 0))
	x.Set(1, 0, 0)
	x.Set(1, 1, 0)
	x.Set(2, 0, 30)
	y.Set(2, 1, 30.5)
	for _, ell := range []float64{0.3, 1, 4} {
		p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: ell}
		fine := kernel.Options{Method: kernel.Enumerate, Quadrature: 8192}
		for _, kind := range []string{"avg", "max"} {
			var closed, disc kernel.Kernel
			var err error
			if kind == "avg" {
				closed, err = kernel.NewAvg(p, g, kernel.Options{Method: kernel.Closed})
				must(t, err)
				disc, err = kernel.NewAvg(p, g, fine)
			} else {
				closed, err = kernel.NewMax(p, g, kernel.Options{Method: kernel.Closed})
				must(t, err)
				disc, err = kernel.NewMax(p, g, fine)
			}
			must(t, err)
			var a, b mat.Dense
			must(t, closed.CrossTo(&a, x, y))
			must(t, disc.CrossTo(&b, x, y))
			// avg: the trapezoidal rule is exponentially accurate; max:
			// the node grid misses the best angle by ≤ π/8192, a relative
			// squared-distance error ≤ rs·(π/8192)²/ℓ².
			tol := 1e-12
			if kind == "max" {
				tol = 30 * 30.5 * math.Pow(math.Pi/8192, 2) / (ell * ell)
			}
			if d := maxAbsDiff(&a, &b); d > tol {
				t.Errorf("%s ℓ=%v: closed vs discretized differ by %.3g (tol %.3g)", kind, ell, d, tol)
			}
		}
	}
}

// TestRotationQuadrature measures the default trapezoidal rule for
// Matérn k_avg over SO(2) against a 2¹⁶-node rule; the bounds are the
// ones documented in doc.go.
func TestRotationQuadrature(t *testing.T) {
	testdepth.Once(t)
	skipSerialUnderRace(t)
	g, _ := orbit.Rotation2D()
	bound := map[kernel.Shape]float64{kernel.Matern12: 2e-4, kernel.Matern32: 2e-6, kernel.Matern52: 5e-8}
	for _, s := range []kernel.Shape{kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		worst := 0.0
		for _, ell := range []float64{0.2, 1, 5} {
			p := kernel.Params{Shape: s, Variance: 1, Lengthscale: ell}
			def, err := kernel.NewAvg(p, g, kernel.Options{})
			must(t, err)
			if def.Method() != kernel.Quadrature {
				t.Fatalf("method %v", def.Method())
			}
			ref, err := kernel.NewAvg(p, g, kernel.Options{Quadrature: 1 << 16})
			must(t, err)
			// Radii on a grid in [0, 10ℓ] including r = s (the kink of
			// κ at zero distance is the worst case).
			x := mat.NewDense(21, 2, nil)
			for i := range 21 {
				x.Set(i, 0, float64(i)*ell/2)
			}
			var a, b mat.Dense
			must(t, def.CrossTo(&a, x, x))
			must(t, ref.CrossTo(&b, x, x))
			worst = math.Max(worst, maxAbsDiff(&a, &b))
		}
		t.Logf("%s: max error of the %d-node rule: %.2g·v", s, kernel.DefaultQuadrature, worst)
		if worst > bound[s] {
			t.Errorf("%s: quadrature error %.3g > documented %.3g", s, worst, bound[s])
		}
	}
}

// TestWorkersDeterminism: Workers 1 vs 8 and GOMAXPROCS 1 vs 4 give the
// same bits, at sizes around the 4-row blocking of the fused loop.
func TestWorkersDeterminism(t *testing.T) {
	h, _ := orbit.Hyperoctahedral(3)
	r, _ := orbit.Rotation2D()
	sc, _ := orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10})
	type ctor func(o kernel.Options) (kernel.Kernel, error)
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	cases := []struct {
		name string
		g    orbit.Group
		mk   ctor
	}{
		{"avg-enum", h, func(o kernel.Options) (kernel.Kernel, error) { return kernel.NewAvg(p, h, o) }},
		{"max-enum", h, func(o kernel.Options) (kernel.Kernel, error) {
			o.Method = kernel.Enumerate
			return kernel.NewMax(p, h, o)
		}},
		{"plus-enum", h, func(o kernel.Options) (kernel.Kernel, error) {
			o.Method = kernel.Enumerate
			m, err := kernel.NewMax(p, h, o)
			if err != nil {
				return nil, err
			}
			return kernel.NewPlus(m, kerneltest.Points(h, 20, 3), kernel.PlusOptions{})
		}},
		{"avg-rot", r, func(o kernel.Options) (kernel.Kernel, error) { return kernel.NewAvg(p, r, o) }},
		{"avg-scaling", sc, func(o kernel.Options) (kernel.Kernel, error) {
			o.Quadrature = 16
			return kernel.NewAvg(p, sc, o)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := kerneltest.Points(c.g, 67, 1)
			y := kerneltest.Points(c.g, 9, 2)
			var ref mat.SymDense
			var refC, refG mat.Dense
			for i, w := range []int{1, 8, 0, 0} {
				procs := runtime.GOMAXPROCS(0)
				if i == 2 {
					runtime.GOMAXPROCS(1)
				} else if i == 3 {
					runtime.GOMAXPROCS(4)
				}
				k, err := c.mk(kernel.Options{Workers: w})
				must(t, err)
				var gm mat.SymDense
				var cr, gr mat.Dense
				must(t, kernel.Gram(k, &gm, x))
				must(t, k.CrossTo(&cr, x, y))
				must(t, k.(kernel.Gradienter).GradTo(&gr, x.RawRowView(0), y))
				runtime.GOMAXPROCS(procs)
				if i == 0 {
					ref, refC, refG = gm, cr, gr
					continue
				}
				if !mat.Equal(&gm, &ref) || !mat.Equal(&cr, &refC) || !mat.Equal(&gr, &refG) {
					t.Errorf("run %d (workers %d) differs from workers 1", i, w)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	good := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	sf, _ := orbit.SignFlip(3)
	for _, p := range []kernel.Params{
		{Shape: kernel.RBF, Variance: 0, Lengthscale: 1},
		{Shape: kernel.RBF, Variance: -1, Lengthscale: 1},
		{Shape: kernel.RBF, Variance: math.NaN(), Lengthscale: 1},
		{Shape: kernel.RBF, Variance: math.Inf(1), Lengthscale: 1},
		{Shape: kernel.RBF, Variance: 1, Lengthscale: 0},
		{Shape: kernel.RBF, Variance: 1, Lengthscale: math.Inf(1)},
		{Shape: kernel.Shape(9), Variance: 1, Lengthscale: 1},
	} {
		if _, err := kernel.NewBase(p, 2); err == nil {
			t.Errorf("NewBase accepted %+v", p)
		}
		if _, err := kernel.NewMax(p, sf, kernel.Options{}); err == nil {
			t.Errorf("NewMax accepted %+v", p)
		}
	}
	if _, err := kernel.ParseShape("gauss"); err == nil {
		t.Error("ParseShape accepted gauss")
	}
	for i, s := range []string{"rbf", "matern12", "matern32", "matern52"} {
		if sh, err := kernel.ParseShape(s); err != nil || sh != kernel.Shape(i) || sh.String() != s {
			t.Errorf("ParseShape(%q) = %v, %v", s, sh, err)
		}
	}
	for i, s := range []string{"auto", "enumerate", "closed"} {
		if m, err := kernel.ParseMethod(s); err != nil || m != kernel.Method(i) || m.String() != s {
			t.Errorf("ParseMethod(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := kernel.ParseMethod("fast"); err == nil {
		t.Error("ParseMethod accepted fast")
	}
	// No closed form (avg over signflip has one for rbf only).
	m52 := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	if _, err := kernel.NewAvg(m52, sf, kernel.Options{Method: kernel.Closed}); !errors.Is(err, kernel.ErrNoClosedForm) {
		t.Errorf("closed avg over signflip: %v", err)
	}
	rot, _ := orbit.Rotation2D()
	m12 := kernel.Params{Shape: kernel.Matern12, Variance: 1, Lengthscale: 1}
	if _, err := kernel.NewAvg(m12, rot, kernel.Options{Method: kernel.Closed}); !errors.Is(err, kernel.ErrNoClosedForm) {
		t.Errorf("closed matern avg over rotation2d: %v", err)
	}
	quarter, qerr := orbit.NewMatrices(2, [][]float64{{0, -1, 1, 0}})
	must(t, qerr)
	if _, err := kernel.NewMax(good, quarter, kernel.Options{Method: kernel.Closed}); !errors.Is(err, kernel.ErrNoClosedForm) {
		t.Errorf("closed max over %s: %v", quarter.Name(), err)
	}
	// Too large to enumerate: avg fails, max (closed) works, with a
	// finite-difference gradient.
	big, _ := orbit.Hyperoctahedral(10)
	if _, err := kernel.NewAvg(m52, big, kernel.Options{}); !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("avg over hyperoctahedral(10): %v", err)
	}
	if _, err := kernel.NewMax(good, big, kernel.Options{Method: kernel.Enumerate}); !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("enumerated max over hyperoctahedral(10): %v", err)
	}
	small, _ := orbit.Hyperoctahedral(4)
	if _, err := kernel.NewAvg(m52, small, kernel.Options{Budget: 1000}); !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("avg with a 1000-byte budget: %v", err)
	}
	mb, err := kernel.NewMax(good, big, kernel.Options{})
	must(t, err)
	x := kerneltest.Points(big, 3, 1)
	var gr mat.Dense
	must(t, mb.GradTo(&gr, x.RawRowView(0), x))
	huge, _ := orbit.Hyperoctahedral(25)
	if _, err := kernel.NewAvg(good, huge, kernel.Options{}); !errors.Is(err, orbit.ErrTooLarge) {
		t.Errorf("avg over hyperoctahedral(25): %v", err)
	}
	// Bad data.
	k, _ := kernel.NewAvg(m52, sf, kernel.Options{})
	var dst mat.Dense
	if err := k.CrossTo(&dst, &mat.Dense{}, mat.NewDense(1, 3, nil)); err == nil {
		t.Error("empty x accepted")
	}
	if err := k.GradTo(&dst, []float64{1, math.Inf(1), 0}, mat.NewDense(1, 3, nil)); err == nil {
		t.Error("Inf x accepted by GradTo")
	}
	if err := k.GradTo(&dst, []float64{1, 0}, mat.NewDense(1, 3, nil)); err == nil {
		t.Error("short x accepted by GradTo")
	}
	mk, _ := kernel.NewMax(good, sf, kernel.Options{})
	// The design's points are refused as the methods refuse points
	// (ErrBadPoints); a nil k_max and RelTol are ErrInvalid (package doc,
	// Errors).
	if _, err := kernel.NewPlus(mk, &mat.Dense{}, kernel.PlusOptions{}); !errors.Is(err, kernel.ErrBadPoints) {
		t.Errorf("empty design: %v, want ErrBadPoints", err)
	}
	if _, err := kernel.NewPlus(mk, mat.NewDense(2, 2, nil), kernel.PlusOptions{}); !errors.Is(err, kernel.ErrBadPoints) {
		t.Errorf("design of the wrong dimension: %v, want ErrBadPoints", err)
	}
	if _, err := kernel.NewPlus(mk, mat.NewDense(1, 3, []float64{0, math.NaN(), 0}), kernel.PlusOptions{}); !errors.Is(err, kernel.ErrBadPoints) {
		t.Errorf("NaN in the design: %v, want ErrBadPoints", err)
	} else if msg := err.Error(); strings.Count(msg, "kernel: ") != 1 || !strings.Contains(msg, "plus design") {
		t.Errorf("NaN in the design: %q, want one \"kernel: \" prefix and the design named", msg)
	}
	for _, tol := range []float64{-1, 1, math.NaN()} {
		if _, err := kernel.NewPlus(mk, mat.NewDense(2, 3, nil), kernel.PlusOptions{RelTol: tol}); !errors.Is(err, kernel.ErrInvalid) {
			t.Errorf("RelTol %v: %v, want ErrInvalid", tol, err)
		}
	}
	if _, err := kernel.NewPlus(nil, mat.NewDense(2, 3, nil), kernel.PlusOptions{}); !errors.Is(err, kernel.ErrInvalid) {
		t.Errorf("nil k_max: %v, want ErrInvalid", err)
	}
	if _, err := kernel.NewAvg(good, rot, kernel.Options{Quadrature: 1}); err == nil {
		t.Error("Quadrature 1 accepted")
	}
	// Methods reported.
	for _, c := range []struct {
		k    interface{ Method() kernel.Method }
		want kernel.Method
	}{
		{k, kernel.Enumerate}, {mk, kernel.Closed},
	} {
		if got := c.k.Method(); got != c.want {
			t.Errorf("Method() = %v, want %v", got, c.want)
		}
	}
}
