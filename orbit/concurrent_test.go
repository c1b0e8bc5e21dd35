package orbit_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// groupCalls is every method on points a group has — ActTo, ActRangeTo,
// ActPackedTo, OrbitDist2, PointOrbitDist2, CanonicalTo, AlignTo,
// OrbitTo, IntervalFaces, and Enumerator.Orbits for a finite group of
// at most 4096 elements — at x and y: the values, flattened, in a fixed
// order.
func groupCalls(g orbit.Group, x, y []float64) ([]float64, error) {
	d := g.Dim()
	var out []float64
	if f, ok := g.(orbit.Finite); ok {
		size, err := orbit.Size(f)
		if err != nil {
			size = -1
		}
		n := min(size, 64)
		if size < 0 {
			n = 64
		}
		dst := make([]float64, d)
		for i := range n {
			f.ActTo(dst, x, i)
			out = append(out, dst...)
			out = append(out, float64(f.Inverse(i)))
		}
		if ra, ok := g.(orbit.RangeActor); ok {
			buf := make([]float64, n*d)
			ra.ActRangeTo(buf, x, 0, n)
			out = append(out, buf...)
		}
		if pa, ok := g.(orbit.PackedActor); ok {
			w := min(n, 8)
			buf := make([]float64, w*d)
			pa.ActPackedTo(buf, x, 0, w, w)
			out = append(out, buf...)
		}
		if size > 0 && size <= 4096 {
			orbs, err := orbit.Enumerator{Workers: 2}.Orbits(nil, f, append(append([]float64(nil), x...), y...), 2)
			if err != nil {
				return nil, err
			}
			out = append(out, orbs...)
		}
	}
	if dg, ok := g.(orbit.Distancer); ok {
		out = append(out, dg.OrbitDist2(x, y))
	}
	if pd, ok := g.(orbit.PointDistancer); ok {
		out = append(out, pd.PointOrbitDist2(x, y))
	}
	if c, ok := g.(orbit.Canonicalizer); ok {
		dst := make([]float64, c.CanonicalDim())
		c.CanonicalTo(dst, x)
		out = append(out, dst...)
	}
	if a, ok := g.(orbit.Aligner); ok {
		dst := make([]float64, d)
		out = append(out, a.AlignTo(dst, x, y))
		out = append(out, dst...)
	}
	if ds, ok := g.(orbit.Discretizer); ok {
		dst := make([]float64, 16*d)
		ds.OrbitTo(dst, x, 16)
		out = append(out, dst...)
	}
	if s, ok := g.(orbit.Segmenter); ok {
		a, b, ka, kb := s.IntervalFaces(x)
		out = append(out, a, b, float64(ka), float64(kb))
	}
	return out, nil
}

// TestConcurrentGroupCalls: the package doc says groups are immutable and
// all their methods safe for concurrent use (OnCoords groups pool their
// gather buffers, blockperm and pairedperm beyond 16 blocks their
// Hungarian scratch): one value of every kind of group, called by many
// goroutines at once (run it with -race), gives the bits of serial calls.
func TestConcurrentGroupCalls(t *testing.T) {
	lo, hi := []float64{0.1, 0.1, 0.1}, []float64{10, 10, 10}
	groups := []orbit.Group{
		must(orbit.Trivial(4)), must(orbit.SignFlip(4)), must(orbit.Permutation(5)),
		must(orbit.Hyperoctahedral(4)), must(orbit.BlockPerm(3, 2)), must(orbit.BlockPerm(20, 2)),
		must(orbit.PairedPerm(20)), must(orbit.Cyclic(5)), must(orbit.Rotation2D()),
		must(orbit.Scaling(lo, hi)), must(orbit.ScalingDir(lo, hi)),
		must(orbit.OnCoords(must(orbit.Hyperoctahedral(3)), 5, []int{4, 0, 2})),
		must(orbit.OnCoords(must(orbit.BlockPerm(20, 2)), 42, seq(40))),
		must(orbit.OnCoords(must(orbit.Rotation2D()), 3, []int{2, 0})),
		must(orbit.NewMatrices(2, [][]float64{{0, -1, 1, 0}})),
	}
	const goroutines = 8
	for _, g := range groups {
		t.Run(g.Name(), func(t *testing.T) {
			d := g.Dim()
			pts := make([][2][]float64, 6)
			rng := rand.New(rand.NewPCG(uint64(d), 3))
			for i := range pts {
				for k := range 2 {
					p := make([]float64, d)
					for j := range p {
						p[j] = 0.2 + 9*rng.Float64()
						if _, ok := g.(orbit.Segmenter); !ok && rng.IntN(2) == 0 {
							p[j] = -p[j]
						}
					}
					pts[i][k] = p
				}
			}
			want := make([][]float64, len(pts))
			for i, p := range pts {
				var err error
				if want[i], err = groupCalls(g, p[0], p[1]); err != nil {
					t.Fatal(err)
				}
			}
			errs := make([]error, goroutines)
			var wg sync.WaitGroup
			for w := range goroutines {
				wg.Go(func() {
					for it := range 4 {
						i := (w + it) % len(pts)
						got, err := groupCalls(g, pts[i][0], pts[i][1])
						if err != nil {
							errs[w] = err
							return
						}
						if len(got) != len(want[i]) {
							errs[w] = fmt.Errorf("goroutine %d, point %d: %d values, serial %d", w, i, len(got), len(want[i]))
							return
						}
						for j := range got {
							if math.Float64bits(got[j]) != math.Float64bits(want[i][j]) {
								errs[w] = fmt.Errorf("goroutine %d, point %d, value %d: %v, serial %v", w, i, j, got[j], want[i][j])
								return
							}
						}
					}
				})
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
