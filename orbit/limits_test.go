package orbit_test

import (
	"errors"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// TestDimensionCaps: a huge d is refused by every constructor and by Parse
// before anything is allocated or d! is computed (issue: signflip d = 1e12
// and scaling d = 1e9 died of OOM, permutation d = 1e7 hung).
func TestDimensionCaps(t *testing.T) {
	huge := []int{orbit.MaxDim + 1, 1e7, 1e9, 1e12, math.MaxInt}
	for _, d := range huge {
		for _, name := range []string{"none", "signflip", "permutation", "hyperoctahedral", "cyclic", "blockperm", "pairedperm", "scaling"} {
			s := orbit.Spec{Name: name, D: d}
			switch name {
			case "blockperm":
				s.Block = 1
			case "scaling":
				s.Lo, s.Hi = []float64{1}, []float64{2}
			}
			_, err := orbit.Parse(s)
			if !errors.Is(err, orbit.ErrInvalid) || !strings.Contains(err.Error(), "maximum dimension") {
				t.Errorf("Parse(%s, d = %d) error %v; want ErrInvalid naming the maximum dimension", name, d, err)
			}
		}
		if _, err := orbit.BlockPerm(d, 2); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("BlockPerm(%d, 2) error %v", d, err)
		}
		if _, err := orbit.PairedPerm(d); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("PairedPerm(%d) error %v", d, err)
		}
	}
	// The largest allowed d constructs and Size formats its error without
	// converting a 2^65536-sized integer to decimal text (a regression hangs
	// and fails by the test's deadline; no timing is asserted).
	for _, mk := range []func(int) (orbit.Group, error){
		func(d int) (orbit.Group, error) { return orbit.SignFlip(d) },
		func(d int) (orbit.Group, error) { return orbit.Permutation(d) },
		func(d int) (orbit.Group, error) { return orbit.Hyperoctahedral(d) },
	} {
		g, err := mk(orbit.MaxDim)
		if err != nil {
			t.Fatal(err)
		}
		_, err = orbit.Size(g)
		if !errors.Is(err, orbit.ErrTooLarge) {
			t.Errorf("Size(%s) error %v, want ErrTooLarge", g.Name(), err)
		}
	}
}

// TestSizeMessageHuge checks the magnitude printed for orders far beyond
// float64 against log10 computed independently: 2^65536 = 10^19728.3.
func TestSizeMessageHuge(t *testing.T) {
	g, err := orbit.SignFlip(orbit.MaxDim)
	if err != nil {
		t.Fatal(err)
	}
	_, err = orbit.Size(g)
	l := 65536 * math.Log10(2) // 19728.30…
	want := "2.0e+19728"
	if math.Abs(math.Pow(10, l-math.Floor(l))-2.0) > 0.05 {
		t.Fatalf("oracle: mantissa %g", math.Pow(10, l-math.Floor(l)))
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Size(signflip(65536)) error %v; want it to contain %q", err, want)
	}
}

// zeros reads "0,0,0,…" forever.
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "0,"[z.n%2]
		z.n++
	}
	return len(p), nil
}

// TestMatricesLimits: dimensions and generator counts are bounded before
// any O(d³) work; trailing data after the JSON value is an error.
func TestMatricesLimits(t *testing.T) {
	for _, d := range []int{orbit.MaxMatrixDim + 1, 3000, 1 << 32, math.MaxInt} {
		_, err := orbit.NewMatrices(d, nil)
		if !errors.Is(err, orbit.ErrTooLarge) {
			t.Errorf("NewMatrices(%d) error %v, want ErrTooLarge", d, err)
		}
	}
	for _, in := range []string{`{"dim":4294967296}`, `{"dim":9223372036854775807}`, `{"dim":257}`} {
		if _, err := orbit.ReadMatrices(strings.NewReader(in)); !errors.Is(err, orbit.ErrTooLarge) {
			t.Errorf("ReadMatrices(%s) error %v, want ErrTooLarge", in, err)
		}
	}
	// An input longer than MaxMatrixBytes — here endless, as from a pipe —
	// is refused once that much is read, not decoded to memory's end.
	endless := io.MultiReader(strings.NewReader(`{"generators":[[[`), &zeros{})
	if _, err := orbit.ReadMatrices(endless); !errors.Is(err, orbit.ErrTooLarge) || !strings.Contains(err.Error(), "MaxMatrixBytes") {
		t.Errorf("ReadMatrices of an endless input: %v, want ErrTooLarge naming MaxMatrixBytes", err)
	}
	// A 300×300 generator is refused up front, not after the closure.
	var b strings.Builder
	b.WriteString(`{"generators":[[`)
	for i := 0; i < 300; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for j := 0; j < 300; j++ {
			if j > 0 {
				b.WriteByte(',')
			}
			if i == j {
				b.WriteString("-1")
			} else {
				b.WriteByte('0')
			}
		}
		b.WriteByte(']')
	}
	b.WriteString(`]]}`)
	if _, err := orbit.ReadMatrices(strings.NewReader(b.String())); !errors.Is(err, orbit.ErrTooLarge) {
		t.Errorf("300×300 generator: error %v, want ErrTooLarge", err)
	}
	// Many small generators are refused up front too: a product of the
	// closure costs far more than its d³ multiply-adds when d is small
	// (4096 rotations of the plane ran the closure, to its cap, before
	// failing; docs/performance.md, "The matrix closure's products").
	rng := rand.New(rand.NewPCG(1, 2))
	rots := make([][]float64, 4096)
	for i := range rots {
		a := 2 * math.Pi * rng.Float64() // random angles: the closure reaches its cap at once
		rots[i] = []float64{math.Cos(a), -math.Sin(a), math.Sin(a), math.Cos(a)}
	}
	for _, k := range []int{513, 4096} {
		if _, err := orbit.NewMatrices(2, rots[:k]); !errors.Is(err, orbit.ErrTooLarge) || !strings.Contains(err.Error(), "MaxMatrixWork") {
			t.Errorf("%d rotations of the plane: error %v, want ErrTooLarge naming MaxMatrixWork", k, err)
		}
	}
	if _, err := orbit.NewMatrices(2, rots[:512]); !errors.Is(err, orbit.ErrTooLarge) || strings.Contains(err.Error(), "MaxMatrixWork") {
		t.Errorf("512 rotations of the plane: error %v, want the closure's ErrTooLarge (they are allowed to try)", err)
	}
}

// TestMatrixWorkBoundary: MaxMatrixWork = 2³² counts G·k·max(d³, 128)
// multiply-adds with G = min(2¹⁶, 2²⁴/d²) and refuses, before the
// closure, what is over it: at d = 256 (G = 256, d³ = 2²⁴) one matrix is
// at the cap, two over; at d = 64 (G = 4096) four at the cap, five over.
// The cap was 2³⁴, whose worst accepted closures ran for about a minute
// (docs/performance.md, "The matrix closure's products").
func TestMatrixWorkBoundary(t *testing.T) {
	if orbit.MaxMatrixWork != 1<<32 {
		t.Fatalf("MaxMatrixWork = %d: this test and the performance record are at 2³²", orbit.MaxMatrixWork)
	}
	// swap(d, i): the permutation matrix exchanging coordinates i and
	// i+1, of order 2: an accepted closure is two products.
	swap := func(d, i int) []float64 {
		P := make([]float64, d*d)
		for r := range d {
			c := r
			switch r {
			case i:
				c = i + 1
			case i + 1:
				c = i
			}
			P[r*d+c] = 1
		}
		return P
	}
	for _, tc := range []struct{ d, atCap int }{{256, 1}, {128, 2}, {64, 4}, {16, 16}} {
		gens := make([][]float64, tc.atCap+1)
		for i := range gens {
			gens[i] = swap(tc.d, 0) // the same swap: the closure stays of order 2
		}
		if _, err := orbit.NewMatrices(tc.d, gens); !errors.Is(err, orbit.ErrTooLarge) || !strings.Contains(err.Error(), "MaxMatrixWork") {
			t.Errorf("d = %d, %d matrices: error %v, want ErrTooLarge naming MaxMatrixWork", tc.d, len(gens), err)
		}
		g, err := orbit.NewMatrices(tc.d, gens[:tc.atCap])
		if err != nil {
			t.Fatalf("d = %d, %d matrices (at the cap): %v", tc.d, tc.atCap, err)
		}
		if n, _ := orbit.Size(g); n != 2 {
			t.Errorf("d = %d: order %d, want 2", tc.d, n)
		}
	}
	for _, in := range []string{`{"dim":1} xyz`, `{"dim":1} {"dim":1}`, `{"dim":1}]`} {
		if _, err := orbit.ReadMatrices(strings.NewReader(in)); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("ReadMatrices(%q) error %v, want ErrInvalid", in, err)
		}
	}
	// Trailing white space is fine.
	if _, err := orbit.ReadMatrices(strings.NewReader("{\"dim\":1}\n\t \n")); err != nil {
		t.Errorf("trailing white space: %v", err)
	}
}

// TestNilGroup: a nil group, or a typed nil pointer in the interface (the
// *TrivialGroup Trivial(0) returns with its error), is an error wherever a
// Group is taken, not a nil dereference (issue: bo.New with a typed-nil
// group dereferenced nil).
func TestNilGroup(t *testing.T) {
	tg, err := orbit.Trivial(0)
	if err == nil {
		t.Fatal("Trivial(0) accepted")
	}
	var sf *orbit.SignFlipGroup
	var sc *orbit.ScalingGroup
	for _, g := range []orbit.Group{nil, tg, sf, sc} {
		if !orbit.IsNil(g) {
			t.Errorf("IsNil(%T) = false", g)
		}
		if _, err := orbit.Size(g); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("Size(%T(nil)): error %v, want ErrInvalid", g, err)
		}
	}
	g, _ := orbit.SignFlip(2)
	if orbit.IsNil(g) {
		t.Error("IsNil(signflip(2)) = true")
	}
}

// emptyGroup is a caller's Finite group that declares order elements —
// none or fewer, against Finite's contract (element 0 is the identity).
type emptyGroup struct{ order int64 }

func (g emptyGroup) Name() string                  { return "empty" }
func (g emptyGroup) Dim() int                      { return 2 }
func (g emptyGroup) Order() *big.Int               { return big.NewInt(g.order) }
func (g emptyGroup) ActTo(dst, x []float64, i int) { copy(dst, x) }
func (g emptyGroup) Inverse(i int) int             { return i }

// TestSizeNoElements: a group declaring no elements, or a negative number
// of them, is ErrInvalid from Size and Orbits (Size returned 0 for it, and
// kernels over it panicked or were 0 with a nil error).
func TestSizeNoElements(t *testing.T) {
	for _, o := range []int64{0, -3} {
		g := emptyGroup{o}
		if n, err := orbit.Size(g); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("Size of a group declaring %d elements = %d, %v; want ErrInvalid", o, n, err)
		}
		if _, err := (orbit.Enumerator{}).Orbits(nil, g, []float64{1, 2}, 1); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("Orbits under a group declaring %d elements: %v; want ErrInvalid", o, err)
		}
	}
}

// nilOrder is a caller's Finite group that declares no order (Order nil,
// which Group reserves for continuous groups), against Finite's contract.
type nilOrder struct{}

func (nilOrder) Name() string                  { return "nilorder" }
func (nilOrder) Dim() int                      { return 2 }
func (nilOrder) Order() *big.Int               { return nil }
func (nilOrder) ActTo(dst, x []float64, i int) { copy(dst, x) }
func (nilOrder) Inverse(i int) int             { return i }

// TestCheckNilOrder: Check refuses a Finite group whose Order is nil with
// ErrInvalid, as its documentation says (it returned Size's ErrInfinite,
// "group is continuous").
func TestCheckNilOrder(t *testing.T) {
	if err := orbit.Check(nilOrder{}); !errors.Is(err, orbit.ErrInvalid) {
		t.Errorf("Check of a Finite group with a nil Order: %v, want ErrInvalid", err)
	}
	if _, err := orbit.OnCoords(nilOrder{}, 3, []int{0, 1}); !errors.Is(err, orbit.ErrInvalid) {
		t.Errorf("OnCoords of a Finite group with a nil Order: %v, want ErrInvalid", err)
	}
}
