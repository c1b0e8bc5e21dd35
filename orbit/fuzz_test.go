package orbit_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// FuzzReadMatrices: any input gives a group or an error wrapping one of the
// package's sentinels, never a panic; an accepted group has element 0 the
// identity, an inverse table that inverts, and orthogonal elements.
func FuzzReadMatrices(f *testing.F) {
	for _, s := range []string{
		pentagon,
		`{"dim": 2, "elements": [[[1,0],[0,1]], [[-1,0],[0,-1]]]}`,
		`{"dim": 1}`, `{"dim": 0}`, `{"dim":4294967296}`, `{"dim":1} xyz`,
		`{"dim": 3, "generators": [[[0,1,0],[1,0,0],[0,0,1]], [[0,0,1],[0,1,0],[-1,0,0]]]}`,
		`{"dim": 2, "generators": [[[0.7071, -0.7071], [0.7071, 0.7071]]]}`,
		`{"generators": [[[1e308, 0], [0, 1]]]}`, `{"dim": -1}`, `[]`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		g, err := orbit.ReadMatrices(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, orbit.ErrInvalid) && !errors.Is(err, orbit.ErrTooLarge) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			if !strings.HasPrefix(err.Error(), "orbit: ") {
				t.Fatalf("error %q lacks the package prefix", err)
			}
			return
		}
		n, err := orbit.Size(g)
		if err != nil || n < 1 || n > orbit.MaxMatrixOrder {
			t.Fatalf("Size = %d, %v", n, err)
		}
		d := g.Dim()
		if d < 1 || d > orbit.MaxMatrixDim {
			t.Fatalf("dim %d", d)
		}
		x := make([]float64, d)
		for k := range x {
			x[k] = float64(k+1) / float64(d)
		}
		y, z := make([]float64, d), make([]float64, d)
		for i := 0; i < n; i++ {
			g.ActTo(y, x, i)
			g.ActTo(z, y, g.Inverse(i))
			var nx, ny float64
			for k := range x {
				if math.Abs(z[k]-x[k]) > 1e-6 {
					t.Fatalf("element %d: inverse %d does not undo it", i, g.Inverse(i))
				}
				nx += x[k] * x[k]
				ny += y[k] * y[k]
			}
			if math.Abs(nx-ny) > 1e-6*nx {
				t.Fatalf("element %d is not an isometry", i)
			}
		}
	})
}

// FuzzParse: any spec gives a group or an error wrapping ErrInvalid,
// ErrUnknown or ErrTooLarge, quickly and without a panic; an accepted group
// has the dimension asked for.
func FuzzParse(f *testing.F) {
	f.Add("hyperoctahedral", 5, 0, 0.0, 0.0)
	f.Add("blockperm", 6, 2, 0.0, 0.0)
	f.Add("pairedperm", 7, 0, 0.0, 0.0)
	f.Add("scaling", 2, 0, 0.1, 10.0)
	f.Add("scaling", 2, 0, 10.0, 0.1)
	f.Add("rotation2d", 0, 0, 0.0, 0.0)
	f.Add("permutation", 10000000, 0, 0.0, 0.0)
	f.Add("signflip", -1, 0, 0.0, 0.0)
	f.Add("Cyclic ", 3, 0, 0.0, 0.0)
	f.Add("bogus", 3, 0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, name string, d, block int, lo, hi float64) {
		s := orbit.Spec{Name: name, D: d, Block: block}
		if orbit.TakesBox(name) { // other groups refuse a box
			s.Lo, s.Hi = []float64{lo}, []float64{hi}
		}
		g, err := orbit.Parse(s)
		if err != nil {
			if !errors.Is(err, orbit.ErrInvalid) && !errors.Is(err, orbit.ErrUnknown) && !errors.Is(err, orbit.ErrTooLarge) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			return
		}
		if g.Dim() < 1 || g.Dim() > orbit.MaxDim || (d != 0 && g.Dim() != d) {
			t.Fatalf("%s: dim %d for d = %d", g.Name(), g.Dim(), d)
		}
		if _, err := orbit.Size(g); err != nil && !errors.Is(err, orbit.ErrTooLarge) && !errors.Is(err, orbit.ErrInfinite) {
			t.Fatalf("Size: %v", err)
		}
	})
}

// FuzzOnCoords: any list of coordinates (two bytes each, signed) for a
// group on some coordinates of R^d gives a group or an error wrapping
// ErrInvalid, without a panic; an accepted group has dimension d, its
// Inner coordinates are the ones asked for, element 0 is the identity,
// and every element leaves the other coordinates alone.
func FuzzOnCoords(f *testing.F) {
	f.Add("hyperoctahedral", 5, []byte{0, 4, 0, 0, 0, 2})
	f.Add("signflip", 3, []byte{0, 2, 0, 2})
	f.Add("permutation", 2, []byte{0, 1, 0, 0})
	f.Add("rotation2d", 4, []byte{0, 3, 0, 1})
	f.Add("scaling", 3, []byte{0, 2})
	f.Add("cyclic", 1<<31, []byte{255, 255})
	f.Add("none", 0, []byte{})
	f.Fuzz(func(t *testing.T, name string, d int, raw []byte) {
		if len(raw) > 64 {
			raw = raw[:64]
		}
		coords := make([]int, len(raw)/2)
		for j := range coords {
			coords[j] = int(int16(uint16(raw[2*j])<<8 | uint16(raw[2*j+1])))
		}
		g, err := orbit.Parse(orbit.Spec{Name: name, D: d, Lo: []float64{0.5}, Hi: []float64{2}, Coords: coords})
		if err != nil {
			if !errors.Is(err, orbit.ErrInvalid) && !errors.Is(err, orbit.ErrUnknown) && !errors.Is(err, orbit.ErrTooLarge) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			return
		}
		if g.Dim() != d {
			t.Fatalf("%s: dim %d for d = %d", g.Name(), g.Dim(), d)
		}
		e, ok := g.(orbit.Embedded)
		if !ok {
			return // coords 0, …, d−1: the group itself
		}
		_, in := e.Inner()
		if len(in) != len(coords) {
			t.Fatalf("%s: Inner coordinates %v, asked %v", g.Name(), in, coords)
		}
		fg, ok := g.(orbit.Finite)
		if !ok {
			return
		}
		x, y := make([]float64, d), make([]float64, d)
		for k := range x {
			x[k] = float64(k) + 0.5
		}
		on := map[int]bool{}
		for _, c := range coords {
			on[c] = true
		}
		n, err := orbit.Size(fg)
		if err != nil {
			n = 1 << 20
		}
		for i := range min(n, 8) {
			fg.ActTo(y, x, i)
			for k := range x {
				if (i == 0 || !on[k]) && y[k] != x[k] {
					t.Fatalf("%s: element %d moves coordinate %d", g.Name(), i, k)
				}
			}
		}
	})
}
