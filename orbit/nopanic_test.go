package orbit_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/orbit"
)

// dimZero is a caller's Finite group that declares dimension 0.
type dimZero struct{}

func (dimZero) Name() string                  { return "dimzero" }
func (dimZero) Dim() int                      { return 0 }
func (dimZero) Order() *big.Int               { return big.NewInt(2) }
func (dimZero) ActTo(dst, x []float64, i int) {}
func (dimZero) Inverse(i int) int             { return i }

// TestNoPanic calls the exported entry points that return an error with
// bad input — nil groups and readers, d ≤ 0 or huge, NaN, ±Inf and
// inverted boxes, ragged or non-orthogonal matrices, a group of
// dimension 0 (a caller's, or a zero-value group type) — and wants an
// input error wrapping the package's sentinel, not a panic. Orbits of a
// group of dimension 0 divided by zero.
func TestNoPanic(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	triv, err := orbit.Trivial(2)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		f    func() error
	}{
		{"Trivial(0)", func() error { _, err := orbit.Trivial(0); return err }},
		{"SignFlip(-1)", func() error { _, err := orbit.SignFlip(-1); return err }},
		{"Permutation(MaxInt)", func() error { _, err := orbit.Permutation(math.MaxInt); return err }},
		{"Hyperoctahedral(MinInt)", func() error { _, err := orbit.Hyperoctahedral(math.MinInt); return err }},
		{"Cyclic(0)", func() error { _, err := orbit.Cyclic(0); return err }},
		{"PairedPerm(0)", func() error { _, err := orbit.PairedPerm(0); return err }},
		{"BlockPerm(2,0)", func() error { _, err := orbit.BlockPerm(2, 0); return err }},
		{"BlockPerm(MaxInt,2)", func() error { _, err := orbit.BlockPerm(math.MaxInt, 2); return err }},
		{"Scaling(nil,nil)", func() error { _, err := orbit.Scaling(nil, nil); return err }},
		{"Scaling(NaN)", func() error { _, err := orbit.Scaling([]float64{0}, []float64{nan}); return err }},
		{"Scaling(Inf)", func() error { _, err := orbit.Scaling([]float64{0}, []float64{inf}); return err }},
		{"Scaling(lo>hi)", func() error { _, err := orbit.Scaling([]float64{1}, []float64{0}); return err }},
		{"Scaling(lengths)", func() error { _, err := orbit.Scaling([]float64{0, 0}, []float64{1}); return err }},
		{"ScalingDir(nil,nil)", func() error { _, err := orbit.ScalingDir(nil, nil); return err }},
		{"ScalingDir(NaN)", func() error { _, err := orbit.ScalingDir([]float64{nan}, []float64{1}); return err }},
		{"NewMatrices(0)", func() error { _, err := orbit.NewMatrices(0, nil); return err }},
		{"NewMatrices(MaxInt)", func() error { _, err := orbit.NewMatrices(math.MaxInt, [][]float64{{1}}); return err }},
		{"NewMatrices(NaN)", func() error { _, err := orbit.NewMatrices(1, [][]float64{{nan}}); return err }},
		{"NewMatrices(ragged)", func() error { _, err := orbit.NewMatrices(1, [][]float64{{1, 0}}); return err }},
		{"NewMatrices(nil gen)", func() error { _, err := orbit.NewMatrices(1, [][]float64{nil}); return err }},
		{"NewMatrices(not orthogonal)", func() error { _, err := orbit.NewMatrices(1, [][]float64{{2}}); return err }},
		{"ReadMatrices(nil)", func() error { _, err := orbit.ReadMatrices(nil); return err }},
		{"ReadMatrices(empty)", func() error { _, err := orbit.ReadMatrices(strings.NewReader("")); return err }},
		{"ReadMatrices(null)", func() error { _, err := orbit.ReadMatrices(strings.NewReader("null")); return err }},
		{"ReadMatrices(huge d)", func() error {
			_, err := orbit.ReadMatrices(strings.NewReader(`{"d":9999999999999,"generators":[[1]]}`))
			return err
		}},
		{"OnCoords(nil)", func() error { _, err := orbit.OnCoords(nil, 3, []int{0}); return err }},
		{"OnCoords(dim 0)", func() error { _, err := orbit.OnCoords(dimZero{}, 3, nil); return err }},
		{"OnCoords(zero Trivial)", func() error { _, err := orbit.OnCoords(&orbit.TrivialGroup{}, 3, nil); return err }},
		{"OnCoords(index)", func() error { _, err := orbit.OnCoords(triv, 3, []int{0, 3}); return err }},
		{"OnCoords(d<0)", func() error { _, err := orbit.OnCoords(triv, -1, []int{0, 1}); return err }},
		{"Parse(empty)", func() error { _, err := orbit.Parse(orbit.Spec{}); return err }},
		{"Parse(blockperm b=0)", func() error { _, err := orbit.Parse(orbit.Spec{Name: "blockperm", D: 4}); return err }},
		{"Parse(coords MinInt)", func() error {
			_, err := orbit.Parse(orbit.Spec{Name: "none", D: 3, Coords: []int{math.MinInt}})
			return err
		}},
		{"Size(nil)", func() error { _, err := orbit.Size(nil); return err }},
		{"Size(zero Matrices)", func() error { _, err := orbit.Size(&orbit.Matrices{}); return err }},
		{"Check(nil)", func() error { return orbit.Check(nil) }},
		{"Check(dim 0)", func() error { return orbit.Check(dimZero{}) }},
		{"Check(zero Trivial)", func() error { return orbit.Check(&orbit.TrivialGroup{}) }},
		{"Orbits(nil group)", func() error { _, err := orbit.Enumerator{}.Orbits(nil, nil, nil, 1); return err }},
		{"Orbits(n<0)", func() error { _, err := orbit.Enumerator{}.Orbits(nil, triv, nil, -1); return err }},
		{"Orbits(n huge)", func() error { _, err := orbit.Enumerator{}.Orbits(nil, triv, nil, math.MaxInt); return err }},
		{"Orbits(NaN)", func() error { _, err := orbit.Enumerator{}.Orbits(nil, triv, []float64{nan, 0}, 1); return err }},
		{"Orbits(workers<0)", func() error {
			_, err := orbit.Enumerator{Workers: -1}.Orbits(nil, triv, []float64{0, 0}, 1)
			return err
		}},
		{"Orbits(dim 0)", func() error { _, err := orbit.Enumerator{}.Orbits(nil, dimZero{}, nil, 1); return err }},
	}
	for _, zero := range []orbit.Finite{&orbit.TrivialGroup{}, &orbit.SignFlipGroup{}, &orbit.PermutationGroup{},
		&orbit.HyperoctahedralGroup{}, &orbit.BlockPermGroup{}, &orbit.PairedPermGroup{}, &orbit.CyclicGroup{}, &orbit.Matrices{}} {
		cases = append(cases, struct {
			name string
			f    func() error
		}{fmt.Sprintf("Orbits(zero %T)", zero), func() error { _, err := orbit.Enumerator{}.Orbits(nil, zero, nil, 1); return err }})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := func() (err error) {
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("panic: %v", p)
					}
				}()
				return tc.f()
			}()
			if !errors.Is(err, orbit.ErrInvalid) && !errors.Is(err, orbit.ErrUnknown) && !errors.Is(err, orbit.ErrTooLarge) && !errors.Is(err, orbit.ErrOverBudget) {
				t.Fatalf("err = %v, want one wrapping one of the package's sentinels", err)
			}
			if c := errclass.Of(err); c == errclass.Internal {
				t.Errorf("class of %v = %v, want input or size", err, c)
			}
		})
	}
}

// dimNegative is a caller's group that declares dimension −1.
type dimNegative struct{ dimZero }

func (dimNegative) Dim() int { return -1 }

// mapperNegative is dimNegative with a CoordinateMaps answer of its own.
type mapperNegative struct{ dimNegative }

func (mapperNegative) CoordinateMaps() []orbit.CoordMap { return nil }

// TestCoordinateMapsNegativeDim: CoordinateMaps of a caller's group whose
// Dim is negative is nil, as a nil group's is; it panicked in
// slices.Repeat ("cannot be negative"), whether or not the group answers
// CoordinateMaps itself.
func TestCoordinateMapsNegativeDim(t *testing.T) {
	for _, g := range []orbit.Group{dimNegative{}, mapperNegative{}} {
		t.Run(fmt.Sprintf("%T", g), func(t *testing.T) {
			var m []orbit.CoordMap
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("CoordinateMaps panicked: %v", p)
					}
				}()
				m = orbit.CoordinateMaps(g)
			}()
			if m != nil {
				t.Errorf("CoordinateMaps = %v, want nil", m)
			}
		})
	}
}
