package canon

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// TestChainTo: Jφ(x)ᵀ·g against the Jacobians written out by hand, at
// random points (distinct nonzero coordinates, so no kink lies near):
// sign flips φ = |x| (J = diag(sign x)); permutations φ = sort(x) and
// signed permutations φ = sort(|x|), where ∂φ_k/∂x_i = sign(x_i) (or 1)
// for the one k with φ_k = |x_i| (or x_i); rotations φ = ‖x‖
// (J = xᵀ/‖x‖). A nil gradient leaves its destination alone.
func TestChainTo(t *testing.T) {
	type tc struct {
		name string
		g    orbit.Group
		err  error
		abs  bool // φ involves |x|
		norm bool // φ = ‖x‖
	}
	with := func(name string, abs, norm bool) func(orbit.Group, error) tc {
		return func(g orbit.Group, err error) tc { return tc{name, g, err, abs, norm} }
	}
	cases := []tc{
		with("signflip4", true, false)(orbit.SignFlip(4)),
		with("permutation4", false, false)(orbit.Permutation(4)),
		with("hyperoctahedral5", true, false)(orbit.Hyperoctahedral(5)),
		with("rotation2d", false, true)(orbit.Rotation2D()),
	}
	rng := rand.New(rand.NewPCG(3, 0))
	for _, c := range cases {
		if c.err != nil {
			t.Fatal(c.err)
		}
		cz := c.g.(orbit.Canonicalizer)
		d, cd := c.g.Dim(), cz.CanonicalDim()
		s := NewScratch(d, cd)
		for range 20 {
			x, g, z := make([]float64, d), make([]float64, cd), make([]float64, cd)
			for i := range x {
				x[i] = -3 + 6*rng.Float64()
			}
			for k := range g {
				g[k] = rng.NormFloat64()
			}
			cz.CanonicalTo(z, x)
			want := make([]float64, d)
			for i, v := range x {
				switch {
				case c.norm:
					want[i] = g[0] * v / math.Hypot(x[0], x[1])
				default:
					a, sgn := v, 1.0
					if c.abs {
						a, sgn = math.Abs(v), math.Copysign(1, v)
					}
					k := -1
					for j, w := range z {
						if w == a {
							k = j
						}
					}
					if k < 0 {
						t.Fatalf("%s: %v not in φ(x) = %v", c.name, a, z)
					}
					want[i] = sgn * g[k]
				}
			}
			got, keep := make([]float64, d), make([]float64, d)
			keep[0] = 7
			ChainTo(cz, [][]float64{got, keep}, [][]float64{g, nil}, x, s)
			if keep[0] != 7 {
				t.Fatalf("%s: a nil gradient wrote its destination", c.name)
			}
			for i := range x {
				if math.Abs(got[i]-want[i]) > 1e-8*(1+math.Abs(want[i])) {
					t.Errorf("%s at %v: ∂/∂x%d = %v, want %v", c.name, x, i, got[i], want[i])
				}
			}
		}
	}
}
