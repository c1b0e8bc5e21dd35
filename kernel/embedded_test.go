package kernel_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"github.com/symbo/symbo/orbit/orbittest"
	"gonum.org/v1/gonum/mat"
)

// embeddedTestGroups returns groups acting on subsets of the coordinates
// (orbit.OnCoords) in shuffled order, one of every kind, and one on all
// coordinates in a shuffled order (k = d, no other coordinate).
func embeddedTestGroups(t testing.TB) []orbit.Group {
	t.Helper()
	var gs []orbit.Group
	on := func(g orbit.Group, err error) func(d int, coords ...int) {
		if err != nil {
			t.Fatal(err)
		}
		return func(d int, coords ...int) {
			e, err := orbit.OnCoords(g, d, coords)
			if err != nil {
				t.Fatal(err)
			}
			gs = append(gs, e)
		}
	}
	on(orbit.SignFlip(2))(4, 3, 1)
	on(orbit.Permutation(3))(5, 4, 0, 2)
	on(orbit.Permutation(3))(3, 2, 0, 1)
	on(orbit.Hyperoctahedral(3))(4, 1, 3, 0)
	on(orbit.BlockPerm(2, 2))(5, 4, 0, 3, 1)
	on(orbit.Cyclic(3))(4, 2, 3, 0)
	on(orbit.NewMatrices(2, [][]float64{{0, -1, 1, 0}}))(3, 2, 0)
	on(orbit.Rotation2D())(3, 2, 0)
	on(orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10}))(3, 2, 1)
	return gs
}

// TestConformanceEmbedded runs kerneltest.Run for avg, the normalized
// avg, max and plus over every embedded group with every base shape, by
// the default path (for RBF avg: the product over the inner group's own
// path) and by enumerating (discretizing) the whole group.
func TestConformanceEmbedded(t *testing.T) {
	i := -1 // the case's index, for testdepth's sample
	for _, g := range embeddedTestGroups(t) {
		inner, _ := g.(orbit.Embedded).Inner()
		for _, s := range shapes {
			p := kernel.Params{Shape: s, Variance: 1.7, Lengthscale: 0.9}
			if strings.HasPrefix(inner.Name(), "scaling") {
				p.Lengthscale = 3
			}
			for _, method := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
				if i++; !testdepth.Keep(t, i) {
					continue
				}
				name := fmt.Sprintf("group=%s/base=%s/method=%s", g.Name(), s, method)
				o := kernel.Options{Method: method}
				t.Run(name+"/kernel=avg", func(t *testing.T) {
					k, err := kernel.NewAvg(p, g, o)
					if err != nil {
						t.Fatal(err)
					}
					kerneltest.Run(t, k, g)
				})
				t.Run(name+"/kernel=avgnorm", func(t *testing.T) {
					on := o
					on.Normalize = true
					k, err := kernel.NewAvg(p, g, on)
					if err != nil {
						t.Fatal(err)
					}
					kerneltest.Run(t, k, g)
				})
				t.Run(name+"/kernel=max", func(t *testing.T) {
					k, err := kernel.NewMax(p, g, o)
					if err != nil {
						t.Fatal(err)
					}
					kerneltest.Run(t, k, g)
				})
				t.Run(name+"/kernel=plus", func(t *testing.T) {
					m, err := kernel.NewMax(p, g, o)
					if err != nil {
						t.Fatal(err)
					}
					k, err := kernel.NewPlus(m, kerneltest.Points(g, 12, 9), kernel.PlusOptions{})
					if err != nil {
						t.Fatal(err)
					}
					kerneltest.Run(t, k, g)
				})
			}
		}
	}
}

// TestEmbeddedPaths: the path each kernel takes over an embedded group is
// the inner group's for RBF avg when that is a closed form or a
// quadrature (they carry over), the whole group's otherwise.
func TestEmbeddedPaths(t *testing.T) {
	want := map[string][2]kernel.Method{ // RBF avg, Matérn-5/2 avg under Auto
		"signflip(2)":             {kernel.Closed, kernel.Enumerate},
		"permutation(3)":          {kernel.Closed, kernel.Enumerate},
		"hyperoctahedral(3)":      {kernel.Closed, kernel.Enumerate},
		"blockperm(2,2)":          {kernel.Enumerate, kernel.Enumerate},
		"cyclic(3)":               {kernel.Enumerate, kernel.Enumerate},
		"matrices(dim=2,order=4)": {kernel.Enumerate, kernel.Enumerate},
		"rotation2d":              {kernel.Closed, kernel.Quadrature},
		"scaling(2,0.1,10)":       {kernel.Closed, kernel.Quadrature},
	}
	for _, g := range embeddedTestGroups(t) {
		inner, _ := g.(orbit.Embedded).Inner()
		w, ok := want[inner.Name()]
		if !ok {
			t.Fatalf("no expectation for %s", inner.Name())
		}
		for i, s := range []kernel.Shape{kernel.RBF, kernel.Matern52} {
			k, err := kernel.NewAvg(kernel.Params{Shape: s, Variance: 1, Lengthscale: 1}, g, kernel.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if k.Method() != w[i] {
				t.Errorf("avg %s over %s: method %v, want %v", s, g.Name(), k.Method(), w[i])
			}
		}
		// Closed is honoured exactly when the inner group has a closed form.
		_, err := kernel.NewAvg(kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}, g, kernel.Options{Method: kernel.Closed})
		if (err == nil) != (w[0] == kernel.Closed) || (err != nil && !errors.Is(err, kernel.ErrNoClosedForm)) {
			t.Errorf("avg rbf over %s with Method Closed: %v", g.Name(), err)
		}
		// Max is closed whenever the embedding has a canonical map or a
		// closed distance.
		_, canon := g.(orbit.Canonicalizer)
		_, dist := g.(orbit.Distancer)
		m, err := kernel.NewMax(kernel.Params{Shape: kernel.Matern32, Variance: 1, Lengthscale: 1}, g, kernel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if (m.Method() == kernel.Closed) != (canon || dist) {
			t.Errorf("max over %s: method %v (canonical map %v, distance %v)", g.Name(), m.Method(), canon, dist)
		}
	}
}

// embedTol is the agreement required between k_avg over an embedded group
// as the RBF product (the inner group's closed form or enumeration times
// the kernel of the other coordinates) and the enumeration of the whole
// group, relative to the variance: both are sums of the same positive
// terms within a few ulps (and FusedTol for the fused enumeration).
const embedTol = 1e-12

// TestEmbeddedProductMatchesEnumeration: the factored RBF k_avg equals the
// enumeration of the whole group (finite groups), and the trapezoidal rule
// of the whole group with many nodes (rotation2d, whose Bessel form it
// then uses), on points with ties, zeros and far-apart coordinates, for
// several lengthscales; its gradient equals the enumeration's.
func TestEmbeddedProductMatchesEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	for _, g := range embeddedTestGroups(t) {
		inner, _ := g.(orbit.Embedded).Inner()
		if strings.HasPrefix(inner.Name(), "scaling") {
			continue // Gauss–Legendre against midpoints: TestGolden holds both to the reference
		}
		d := g.Dim()
		n := 7
		x := mat.NewDense(n, d, nil)
		y := mat.NewDense(n+2, d, nil)
		for _, m := range []*mat.Dense{x, y} {
			r, _ := m.Dims()
			for i := range r {
				for k := range d {
					switch i % 3 {
					case 0:
						m.Set(i, k, 2*rng.NormFloat64())
					case 1:
						m.Set(i, k, float64(rng.IntN(3)-1))
					default:
						m.Set(i, k, 0.5)
					}
				}
			}
		}
		x.Set(n-1, 0, 40) // far apart
		for _, ell := range []float64{0.1, 0.9, 7} {
			p := kernel.Params{Shape: kernel.RBF, Variance: 1.3, Lengthscale: ell}
			ref := kernel.Options{Method: kernel.Enumerate}
			if _, fin := g.(orbit.Finite); !fin {
				ref.Quadrature = 4096
			}
			a, err := kernel.NewAvg(p, g, kernel.Options{})
			if err != nil {
				t.Fatal(err)
			}
			e, err := kernel.NewAvg(p, g, ref)
			if err != nil {
				t.Fatal(err)
			}
			var ka, ke mat.Dense
			if err := a.CrossTo(&ka, x, y); err != nil {
				t.Fatal(err)
			}
			if err := e.CrossTo(&ke, x, y); err != nil {
				t.Fatal(err)
			}
			worst := 0.0
			for i := range n {
				for j := range n + 2 {
					worst = math.Max(worst, math.Abs(ka.At(i, j)-ke.At(i, j)))
				}
			}
			t.Logf("%s ℓ = %g: worst %.3g", g.Name(), ell, worst)
			if worst > embedTol*p.Variance {
				t.Errorf("%s ℓ = %g: |product − enumeration| up to %.3g", g.Name(), ell, worst)
			}
			var ga, ge mat.Dense
			for i := range n {
				xi := mat.Row(nil, i, x)
				ga.Reset()
				ge.Reset()
				if err := a.GradTo(&ga, xi, y); err != nil {
					t.Fatal(err)
				}
				if err := e.GradTo(&ge, xi, y); err != nil {
					t.Fatal(err)
				}
				if !mat.EqualApprox(&ga, &ge, 1e-11*p.Variance/ell) {
					t.Errorf("%s ℓ = %g: gradient at x%d\nproduct     %v\nenumeration %v", g.Name(), ell, i, mat.Formatted(&ga), mat.Formatted(&ge))
				}
			}
		}
	}
}

// TestEmbeddedInvariance: an element of the inner group moved on the
// coordinates it acts on (by hand, not through the embedding's ActTo)
// leaves every kernel unchanged, while permuting two of the other
// coordinates changes it.
func TestEmbeddedInvariance(t *testing.T) {
	h, err := orbit.Hyperoctahedral(3)
	if err != nil {
		t.Fatal(err)
	}
	coords := []int{5, 1, 3}
	g, err := orbit.OnCoords(h, 6, coords)
	if err != nil {
		t.Fatal(err)
	}
	x := kerneltest.Points(g, 6, 5)
	y := kerneltest.Points(g, 4, 6)
	moved := mat.DenseCopyOf(x)
	swapped := mat.DenseCopyOf(x)
	rng := rand.New(rand.NewPCG(2, 2))
	xs, gs := make([]float64, 3), make([]float64, 3)
	for i := range 6 {
		for j, c := range coords {
			xs[j] = x.At(i, c)
		}
		h.ActTo(gs, xs, 1+rng.IntN(47))
		for j, c := range coords {
			moved.Set(i, c, gs[j])
		}
		swapped.Set(i, 0, x.At(i, 2))
		swapped.Set(i, 2, x.At(i, 0))
	}
	for _, s := range shapes {
		p := kernel.Params{Shape: s, Variance: 1.1, Lengthscale: 1.3}
		avg, err := kernel.NewAvg(p, g, kernel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mx, err := kernel.NewMax(p, g, kernel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []kernel.Kernel{avg, mx} {
			var a, b, c mat.Dense
			for _, e := range []error{k.CrossTo(&a, x, y), k.CrossTo(&b, moved, y), k.CrossTo(&c, swapped, y)} {
				if e != nil {
					t.Fatal(e)
				}
			}
			if !mat.EqualApprox(&a, &b, 1e-12) {
				t.Errorf("%T %s: not invariant under the inner group", k, s)
			}
			if mat.EqualApprox(&a, &c, 1e-6) {
				t.Errorf("%T %s: invariant under swapping coordinates 0 and 2, which the group does not act on", k, s)
			}
		}
	}
}

// TestEmbeddedTooLarge: an inner group too large for its closed form and
// for the enumeration budget is an error, not an allocation.
func TestEmbeddedTooLarge(t *testing.T) {
	h, err := orbit.Hyperoctahedral(kernel.MaxPermanentDim + 4)
	if err != nil {
		t.Fatal(err)
	}
	coords := make([]int, h.Dim())
	for j := range coords {
		coords[j] = h.Dim() - j
	}
	g, err := orbit.OnCoords(h, h.Dim()+2, coords)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12} {
		_, err := kernel.NewAvg(kernel.Params{Shape: s, Variance: 1, Lengthscale: 1}, g, kernel.Options{})
		if !errors.Is(err, orbit.ErrTooLarge) && !errors.Is(err, orbit.ErrOverBudget) {
			t.Errorf("avg %s over %s: %v, want ErrTooLarge or ErrOverBudget", s, g.Name(), err)
		}
	}
	// Max stays closed (sorting), whatever the order.
	if _, err := kernel.NewMax(kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}, g, kernel.Options{}); err != nil {
		t.Errorf("max over %s: %v", g.Name(), err)
	}
}

// badEmbedding is a caller's orbit.Embedded group whose declared
// embedding is inconsistent.
type badEmbedding struct {
	orbit.Group
	inner  orbit.Group
	coords []int
}

func (b badEmbedding) Inner() (orbit.Group, []int) { return b.inner, b.coords }

// TestEmbeddedBadDeclaration: an Embedded group declaring coordinates out
// of range, repeated, or of the wrong number is an error, not a panic.
func TestEmbeddedBadDeclaration(t *testing.T) {
	outer, err := orbit.SignFlip(4) // any group on R^4
	if err != nil {
		t.Fatal(err)
	}
	inner, err := orbit.SignFlip(2)
	if err != nil {
		t.Fatal(err)
	}
	p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	for _, coords := range [][]int{{0, 4}, {-1, 2}, {1, 1}, {0}, {0, 1, 2}} {
		g := badEmbedding{outer, inner, coords}
		if _, err := kernel.NewAvg(p, g, kernel.Options{}); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("coords %v: %v, want ErrInvalid", coords, err)
		}
	}
	// Every constructor (orbit.Check), not only avg's factored form,
	// which alone checked the declaration: max, and avg enumerated or
	// over Matérn, took it.
	bad := badEmbedding{outer, nil, []int{0, 1}}
	for _, c := range []struct {
		name string
		new  func() error
	}{
		{"avg", func() error { _, err := kernel.NewAvg(p, bad, kernel.Options{}); return err }},
		{"avg enumerated", func() error { _, err := kernel.NewAvg(p, bad, kernel.Options{Method: kernel.Enumerate}); return err }},
		{"max", func() error { _, err := kernel.NewMax(p, bad, kernel.Options{}); return err }},
	} {
		if err := c.new(); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("nil inner group, %s: %v, want ErrInvalid", c.name, err)
		}
	}
	if _, err := orbit.OnCoords(bad, 5, []int{0, 1, 2, 3}); !errors.Is(err, orbit.ErrInvalid) {
		t.Errorf("nil inner group, OnCoords: %v, want ErrInvalid", err)
	}
}

// noElements is a caller's orbit.Finite group on R² that declares no
// elements, against Finite's contract (element 0 is the identity).
type noElements struct{}

func (noElements) Name() string                  { return "noelements" }
func (noElements) Dim() int                      { return 2 }
func (noElements) Order() *big.Int               { return new(big.Int) }
func (noElements) ActTo(dst, x []float64, i int) { copy(dst, x) }
func (noElements) Inverse(i int) int             { return i }

// TestFiniteWithoutElements: a Finite group declaring no elements is
// refused by the constructors (orbit.ErrInvalid). k_avg over it panicked
// in SumKappa and k_max was 0 everywhere with a nil error — bo's plus
// then panicked in an acquisition worker, killing the process.
func TestFiniteWithoutElements(t *testing.T) {
	p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	for _, m := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
		if _, err := kernel.NewAvg(p, noElements{}, kernel.Options{Method: m}); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("avg (%v): %v, want orbit.ErrInvalid", m, err)
		}
		if _, err := kernel.NewMax(p, noElements{}, kernel.Options{Method: m}); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("max (%v): %v, want orbit.ErrInvalid", m, err)
		}
	}
}

// TestNegativeCanonicalDim: a group declaring a canonical map of
// dimension below 1 is refused by the constructors (orbit.ErrInvalid,
// orbit.Check); k_max over it was built and panicked in CrossTo (slice
// bounds out of range).
func TestNegativeCanonicalDim(t *testing.T) {
	p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	if _, err := kernel.NewMax(p, orbittest.NegativeCanonical{}, kernel.Options{}); !errors.Is(err, orbit.ErrInvalid) {
		t.Errorf("max: %v, want orbit.ErrInvalid", err)
	}
	if _, err := kernel.NewAvg(p, orbittest.NegativeCanonical{}, kernel.Options{}); !errors.Is(err, orbit.ErrInvalid) {
		t.Errorf("avg: %v, want orbit.ErrInvalid", err)
	}
	if _, err := orbit.OnCoords(orbittest.NegativeCanonical{}, 3, []int{0, 2}); !errors.Is(err, orbit.ErrInvalid) {
		t.Errorf("OnCoords: %v, want orbit.ErrInvalid", err)
	}
}
