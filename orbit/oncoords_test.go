package orbit_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// TestOnCoordsErrors: bad arguments are refused with ErrInvalid and a
// message saying what is wrong, before anything proportional to d is
// allocated (d = 2^31 and MaxInt cost nothing).
func TestOnCoordsErrors(t *testing.T) {
	sf := must(orbit.SignFlip(2))
	var typedNil *orbit.SignFlipGroup
	for _, c := range []struct {
		name   string
		g      orbit.Group
		d      int
		coords []int
		msg    string
	}{
		{"nil", nil, 4, []int{0, 1}, "got nil"},
		{"typed nil", typedNil, 4, []int{0, 1}, "got nil"},
		{"d = 0", sf, 0, []int{0, 1}, "d = 0 outside [1, 65536]"},
		{"d < 0", sf, -3, []int{0, 1}, "d = -3 outside"},
		{"d = 2^31", sf, 1 << 31, []int{0, 1}, "d = 2147483648 outside"},
		{"d = MaxInt", sf, math.MaxInt, []int{0, 1}, "outside [1, 65536]"},
		{"too few", sf, 4, []int{0}, "signflip(2) acts on 2 coordinates, but 1 are listed"},
		{"too many", sf, 4, []int{0, 1, 2}, "but 3 are listed"},
		{"nil coords", sf, 4, nil, "but 0 are listed"},
		{"negative", sf, 4, []int{1, -1}, "coords[1] = -1 outside [0, 4)"},
		{"too large", sf, 4, []int{4, 0}, "coords[0] = 4 outside [0, 4)"},
		{"huge index", sf, 4, []int{0, math.MaxInt}, "outside [0, 4)"},
		{"repeated", sf, 4, []int{3, 3}, "coordinate 3 is listed twice (coords[0] and coords[1])"},
		{"k > d", must(orbit.SignFlip(3)), 2, []int{0, 1, 2}, "coords[2] = 2 outside [0, 2)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			g, err := orbit.OnCoords(c.g, c.d, c.coords)
			runtime.ReadMemStats(&ms1)
			if g != nil || !errors.Is(err, orbit.ErrInvalid) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("OnCoords = %v, %v; want ErrInvalid containing %q", g, err, c.msg)
			}
			if b := ms1.TotalAlloc - ms0.TotalAlloc; b > 1<<16 {
				t.Errorf("refusing allocated %d bytes", b)
			}
		})
	}
	// Repetitions far apart, in a long list.
	h := must(orbit.Permutation(6))
	_, err := orbit.OnCoords(h, 10, []int{9, 2, 4, 7, 2, 0})
	if err == nil || !strings.Contains(err.Error(), "coordinate 2 is listed twice (coords[1] and coords[4])") {
		t.Errorf("repeated coordinate: %v", err)
	}
}

func TestOnCoordsIdentityAndFlatten(t *testing.T) {
	h := must(orbit.Hyperoctahedral(3))
	if g := must(orbit.OnCoords(h, 3, []int{0, 1, 2})); g != orbit.Group(h) {
		t.Errorf("coords 0, 1, 2 of R^3: got %s, want the group itself", g.Name())
	}
	g := must(orbit.OnCoords(h, 5, []int{4, 0, 2}))
	if g.Name() != "hyperoctahedral(3)@[4,0,2]/5" || g.Dim() != 5 || g.Order().Cmp(h.Order()) != 0 {
		t.Errorf("name %q, dim %d, order %v", g.Name(), g.Dim(), g.Order())
	}
	inner, coords := g.(orbit.Embedded).Inner()
	if inner != orbit.Group(h) || !slices.Equal(coords, []int{4, 0, 2}) {
		t.Errorf("Inner = %s, %v", inner.Name(), coords)
	}
	coords[0] = 99 // a copy
	if _, c := g.(orbit.Embedded).Inner(); c[0] != 4 {
		t.Error("Inner returned the group's own slice")
	}
	// Embedding an embedded group composes the coordinates: coordinate j
	// of g is coordinate outer[j] of R^7.
	outer := []int{6, 1, 3, 0, 2}
	gg := must(orbit.OnCoords(g, 7, outer))
	inner, coords = gg.(orbit.Embedded).Inner()
	if inner != orbit.Group(h) || !slices.Equal(coords, []int{2, 6, 3}) || gg.Name() != "hyperoctahedral(3)@[2,6,3]/7" {
		t.Errorf("flattened: %s, inner %s on %v", gg.Name(), inner.Name(), coords)
	}
	// … and acts as the composition does.
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 7)
	for k := range x {
		x[k] = rng.NormFloat64()
	}
	fg, f := gg.(orbit.Finite), g.(orbit.Finite)
	a, b := make([]float64, 7), make([]float64, 5)
	for i := range 48 {
		fg.ActTo(a, x, i)
		xs := []float64{x[6], x[1], x[3], x[0], x[2]}
		f.ActTo(b, xs, i)
		want := slices.Clone(x)
		for j, k := range outer {
			want[k] = b[j]
		}
		if !slices.Equal(a, want) {
			t.Fatalf("element %d: %v, want %v", i, a, want)
		}
	}
	// Flattening back to the identity layout gives the inner group.
	back := must(orbit.OnCoords(must(orbit.OnCoords(h, 3, []int{2, 0, 1})), 3, []int{1, 2, 0}))
	if back != orbit.Group(h) {
		t.Errorf("re-embedding onto 0, 1, 2 gave %s", back.Name())
	}
}

// TestOnCoordsCapabilities: the embedding declares the inner group's
// optional interfaces that hold for it, and never the whole-space ones.
func TestOnCoordsCapabilities(t *testing.T) {
	for _, g := range embeddedGroups(t) {
		inner, _ := g.(orbit.Embedded).Inner()
		_, fin := inner.(orbit.Finite)
		for _, c := range []struct {
			name       string
			inner, got bool
		}{
			{"Finite", fin, is[orbit.Finite](g)},
			{"RangeActor", fin, is[orbit.RangeActor](g)},
			{"Distancer", is[orbit.Distancer](inner), is[orbit.Distancer](g)},
			{"Canonicalizer", is[orbit.Canonicalizer](inner), is[orbit.Canonicalizer](g)},
			{"Aligner", is[orbit.Aligner](inner), is[orbit.Aligner](g)},
			{"Discretizer", !fin && is[orbit.Discretizer](inner), is[orbit.Discretizer](g)},
			{"Isometric", !fin && is[orbit.Isometric](inner), is[orbit.Isometric](g)},
			{"IsIsometric", orbit.IsIsometric(inner), orbit.IsIsometric(g)},
			{"Circular", false, is[orbit.Circular](g)},
			{"Segmenter", false, is[orbit.Segmenter](g)},
			{"CoordinateGroup", false, is[orbit.CoordinateGroup](g)},
		} {
			if c.inner != c.got {
				t.Errorf("%s: %s declared %v, want %v", g.Name(), c.name, c.got, c.inner)
			}
		}
		if cn, ok := g.(orbit.Canonicalizer); ok {
			want := inner.(orbit.Canonicalizer).CanonicalDim() + g.Dim() - inner.Dim()
			if cn.CanonicalDim() != want {
				t.Errorf("%s: CanonicalDim %d, want %d", g.Name(), cn.CanonicalDim(), want)
			}
		}
	}
}

func is[T any](g orbit.Group) bool {
	_, ok := g.(T)
	return ok
}

// TestOnCoordsAllocs: acting, distances, canonical forms, alignment and
// discretization allocate nothing after warm-up.
func TestOnCoordsAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	for _, g := range embeddedGroups(t) {
		d := g.Dim()
		x, y, dst := make([]float64, d), make([]float64, d), make([]float64, d)
		for k := range x {
			x[k], y[k] = 0.5+0.1*float64(k%5), 1.5-0.1*float64(k%7)
		}
		var fs []func()
		if f, ok := g.(orbit.Finite); ok {
			n := 5
			if G, err := orbit.Size(f); err == nil {
				n = min(n, G)
			}
			buf := make([]float64, n*d)
			ra := g.(orbit.RangeActor)
			fs = append(fs, func() { f.ActTo(dst, x, 0) }, func() { _ = f.Inverse(0) },
				func() { ra.ActRangeTo(buf, x, 0, n) })
		}
		if ds, ok := g.(orbit.Distancer); ok {
			fs = append(fs, func() { _ = ds.OrbitDist2(x, y) })
		}
		if cn, ok := g.(orbit.Canonicalizer); ok {
			phi := make([]float64, cn.CanonicalDim())
			fs = append(fs, func() { cn.CanonicalTo(phi, x) })
		}
		if al, ok := g.(orbit.Aligner); ok {
			fs = append(fs, func() { _ = al.AlignTo(dst, x, y) })
		}
		if dz, ok := g.(orbit.Discretizer); ok {
			nodes := make([]float64, 16*d)
			fs = append(fs, func() { dz.OrbitTo(nodes, x, 16) })
		}
		for i, f := range fs {
			if a := testing.AllocsPerRun(20, f); a != 0 {
				t.Errorf("%s: method %d allocates %v times per call", g.Name(), i, a)
			}
		}
	}
}

func TestParseCoords(t *testing.T) {
	for _, c := range []struct {
		s    orbit.Spec
		name string
		err  error
		msg  string
	}{
		{s: orbit.Spec{Name: "hyperoctahedral", D: 5, Coords: []int{0, 2, 3}}, name: "hyperoctahedral(3)@[0,2,3]/5"},
		{s: orbit.Spec{Name: "SignFlip", D: 4, Coords: []int{3, 1}}, name: "signflip(2)@[3,1]/4"},
		{s: orbit.Spec{Name: "blockperm", D: 7, Block: 2, Coords: []int{6, 5, 0, 1}}, name: "blockperm(2,2)@[6,5,0,1]/7"},
		{s: orbit.Spec{Name: "rotation2d", D: 3, Coords: []int{2, 0}}, name: "rotation2d@[2,0]/3"},
		{s: orbit.Spec{Name: "scaling", D: 3, Coords: []int{2, 1}, Lo: []float64{0.1}, Hi: []float64{10}}, name: "scaling(2,0.1,10)@[2,1]/3"},
		{s: orbit.Spec{Name: "permutation", D: 3, Coords: []int{0, 1, 2}}, name: "permutation(3)"},
		{s: orbit.Spec{Name: "permutation", D: 3, Coords: []int{}}, err: orbit.ErrInvalid, msg: "the list of coordinates is empty"},
		{s: orbit.Spec{Name: "permutation", Coords: []int{0, 1}}, err: orbit.ErrInvalid, msg: "d = 0 outside"},
		{s: orbit.Spec{Name: "permutation", D: 1 << 31, Coords: []int{0, 1}}, err: orbit.ErrInvalid, msg: "d = 2147483648 outside"},
		{s: orbit.Spec{Name: "permutation", D: 2, Coords: []int{0, 1, 2}}, err: orbit.ErrInvalid, msg: "3 coordinates listed"},
		{s: orbit.Spec{Name: "permutation", D: 4, Coords: []int{0, 4}}, err: orbit.ErrInvalid, msg: "coords[1] = 4 outside [0, 4)"},
		{s: orbit.Spec{Name: "permutation", D: 4, Coords: []int{2, 2}}, err: orbit.ErrInvalid, msg: "listed twice"},
		{s: orbit.Spec{Name: "rotation2d", D: 4, Coords: []int{0, 1, 2}}, err: orbit.ErrInvalid, msg: "rotation2d acts on d = 2, got 3"},
		{s: orbit.Spec{Name: "blockperm", D: 5, Block: 2, Coords: []int{0, 1, 2}}, err: orbit.ErrInvalid, msg: "multiple of the block size"},
		{s: orbit.Spec{Name: "nosuch", D: 5, Coords: []int{0}}, err: orbit.ErrUnknown, msg: `"nosuch"`},
	} {
		g, err := orbit.Parse(c.s)
		if c.err != nil {
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("Parse(%+v) error %v; want %v containing %q", c.s, err, c.err, c.msg)
			}
			continue
		}
		if err != nil || g.Name() != c.name {
			t.Errorf("Parse(%+v) = %v, %v; want %s", c.s, g, err, c.name)
		}
	}
}
