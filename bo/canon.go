package bo

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/canon"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// canonMap is the canonical map φ of a group with the paper's
// Proposition 1 (orbit.Canonicalizer): d_G(x, y) = ‖φ(x) − φ(y)‖, so
// k_max(x, y) = k_b(φ(x), φ(y)) and k_plus over k_max is k_plus over the
// base kernel in canonical coordinates. The optimizer predicts with a GP on
// φ(X) (base kernel for max, plus over the trivial group for plus), which
// is the same posterior as the GP of k_max / k_plus on X, and chains the
// gradient through the Jacobian of φ.
type canonMap struct {
	c     orbit.Canonicalizer
	d, cd int
}

func newCanonMap(g orbit.Group) (*canonMap, bool) {
	c, ok := g.(orbit.Canonicalizer)
	if !ok {
		return nil, false
	}
	return &canonMap{c: c, d: g.Dim(), cd: c.CanonicalDim()}, true
}

// points returns φ(x_i) as an n×cd matrix.
func (m *canonMap) points(xs [][]float64) *mat.Dense {
	z := mat.NewDense(len(xs), m.cd, nil)
	for i, x := range xs {
		m.c.CanonicalTo(z.RawRowView(i), x)
	}
	return z
}

// chainTo writes Jφ(x)ᵀ·gz into dst (length d), by central differences
// (internal/canon).
func (m *canonMap) chainTo(dst, x, gz []float64, s *acqScratch) {
	canon.ChainTo(m.c, [][]float64{dst}, [][]float64{gz}, x, s.cs)
}

// canonModel returns the GP of the fitted model (hyperparameters h) in
// canonical coordinates: base kernel for max, plus over the trivial group
// for plus.
func canonModel(cfg Config, k Kernel, cm *canonMap, xs [][]float64, ys []float64, h gp.Hyper) (gp.Posterior, error) {
	var fam gp.Family
	var err error
	shape := k.shape
	switch k.name {
	case NameMax:
		fam, err = gp.NewBaseFamily(shape, cm.cd)
	case NamePlus:
		var tg orbit.Group
		tg, err = orbit.Trivial(cm.cd)
		if err == nil {
			fam, err = gp.NewPlusFamily(shape, tg, kernel.Options{Workers: cfg.Workers, Budget: cfg.Budget}, kernel.PlusOptions{Backend: cfg.Backend})
		}
	default:
		return nil, fmt.Errorf("bo: no canonical model for kernel %s", k.Name())
	}
	if err != nil {
		return nil, wrapf(err, "canonical model")
	}
	m, err := gp.New(fam, cm.points(xs), ys, h, gp.Options{Backend: cfg.Backend, Budget: cfg.Budget, Mean: cfg.Mean, ResidualVariance: cfg.ResidualVariance})
	if err != nil {
		return nil, wrapf(err, "canonical model")
	}
	return m, nil
}

// excludeDist2 is the squared distance from x to the orbit of p that the
// exclusion radius is tested against (onExcludedOrbit). For a group of
// isometries, and for every group when pointwise is false, it is
// orbitDist2, the distance between the two orbits. With pointwise
// (Config.ExcludeObserved, the no-repeat rule) a group that says otherwise
// (orbit.PointDistancer: the scaling group, whose orbits all nearly meet at
// the box's lower corner, so that measured between orbits a few dozen
// observations put every point of a 2-d box within the radius of one)
// gives min over the orbit's points q of ‖x − q‖², the distance from x
// itself. Without the rule only the pending and failed points and the
// initial design's spacing use the radius, and the distance between
// orbits keeps the paper protocol's records as they were.
func excludeDist2(g orbit.Group, x, p []float64, pointwise bool) float64 {
	if pd, ok := g.(orbit.PointDistancer); ok && pointwise {
		return pd.PointOrbitDist2(x, p)
	}
	return orbitDist2(g, x, p)
}

// orbitDist2 returns d_G(x, y)² under g (Euclidean for a nil group):
// through the canonical map or the closed-form distance when the group has
// one, by enumeration for other finite groups, and Euclidean otherwise.
func orbitDist2(g orbit.Group, x, y []float64) float64 {
	sq := func(a, b []float64) float64 {
		var s float64
		for i := range a {
			t := a[i] - b[i]
			s += t * t
		}
		return s
	}
	switch gg := g.(type) {
	case nil:
		return sq(x, y)
	case orbit.Distancer:
		return gg.OrbitDist2(x, y)
	case orbit.Canonicalizer:
		cd := gg.CanonicalDim()
		a, b := make([]float64, cd), make([]float64, cd)
		gg.CanonicalTo(a, x)
		gg.CanonicalTo(b, y)
		return sq(a, b)
	case orbit.Finite:
		if n, err := orbit.Size(gg); err == nil && n <= 1<<16 {
			gy := make([]float64, len(y))
			best := math.Inf(1)
			for i := range n {
				gg.ActTo(gy, y, i)
				best = min(best, sq(x, gy))
			}
			return best
		}
	}
	return sq(x, y)
}
