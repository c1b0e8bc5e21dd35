package orbit_test

import (
	"math/big"
	"slices"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// bareFinite is a finite group that does not say which maps commute
// with it (no CoordinateMapper).
type bareFinite struct{ f orbit.Finite }

func (b bareFinite) Name() string                  { return "bare" }
func (b bareFinite) Dim() int                      { return b.f.Dim() }
func (b bareFinite) Order() *big.Int               { return b.f.Order() }
func (b bareFinite) ActTo(dst, x []float64, i int) { b.f.ActTo(dst, x, i) }
func (b bareFinite) Inverse(i int) int             { return b.f.Inverse(i) }

// bareGroup is a continuous group nothing is known about.
type bareGroup struct{ d int }

func (b bareGroup) Name() string    { return "opaque" }
func (b bareGroup) Dim() int        { return b.d }
func (b bareGroup) Order() *big.Int { return nil }

// TestCoordinateMaps: the classes and freedoms of each group, through
// OnCoords (the inner group's on its coordinates, every other coordinate
// its own affine class), and the safe rule for groups without
// CoordinateMapper.
func TestCoordinateMaps(t *testing.T) {
	must := func(g orbit.Group, err error) orbit.Group {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	on := func(g orbit.Group, d int, coords ...int) orbit.Group {
		return must(orbit.OnCoords(g, d, coords))
	}
	type cm = orbit.CoordMap
	A, S, N := orbit.FreeAffine, orbit.FreeScale, orbit.FreeNone
	sf := must(orbit.SignFlip(2))
	for _, tc := range []struct {
		g    orbit.Group
		want []cm
	}{
		{must(orbit.Trivial(3)), []cm{{0, A}, {1, A}, {2, A}}},
		{sf, []cm{{0, S}, {1, S}}},
		{must(orbit.Permutation(3)), []cm{{0, A}, {0, A}, {0, A}}},
		{must(orbit.Hyperoctahedral(2)), []cm{{0, S}, {0, S}}},
		{must(orbit.BlockPerm(2, 2)), []cm{{0, A}, {1, A}, {0, A}, {1, A}}},
		{must(orbit.PairedPerm(2)), []cm{{0, A}, {0, A}, {1, A}, {1, A}}},
		{must(orbit.Cyclic(3)), []cm{{0, A}, {0, A}, {0, A}}},
		{must(orbit.Rotation2D()), []cm{{0, S}, {0, S}}},
		{must(orbit.Scaling([]float64{1, 1}, []float64{2, 2})), []cm{{0, N}, {0, N}}},
		{must(orbit.ScalingDir([]float64{1, 1}, []float64{2, 2})), []cm{{0, N}, {0, N}}},
		{must(orbit.NewMatrices(3, [][]float64{{0, 1, 0, 1, 0, 0, 0, 0, -1}})), []cm{{0, S}, {0, S}, {1, S}}},
		// OnCoords: the inner group's classes on its coordinates.
		{on(must(orbit.Permutation(4)), 6, 1, 2, 3, 4), []cm{{0, A}, {1, A}, {1, A}, {1, A}, {1, A}, {2, A}}},
		{on(sf, 4, 3, 1), []cm{{0, A}, {1, S}, {2, A}, {3, S}}},
		{on(must(orbit.Rotation2D()), 3, 2, 0), []cm{{0, S}, {1, A}, {0, S}}},
		{on(must(orbit.Scaling([]float64{1, 1}, []float64{2, 2})), 3, 0, 2), []cm{{0, N}, {1, A}, {0, N}}},
		// The safe rule: one common scale about 0 for a finite group, no
		// map for another; and through OnCoords.
		{bareFinite{must(orbit.Permutation(3)).(orbit.Finite)}, []cm{{0, S}, {0, S}, {0, S}}},
		{bareGroup{2}, []cm{{0, N}, {0, N}}},
		{on(bareFinite{sf.(orbit.Finite)}, 3, 0, 2), []cm{{0, S}, {1, A}, {0, S}}},
	} {
		if got := orbit.CoordinateMaps(tc.g); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.g.Name(), got, tc.want)
		}
	}
}
