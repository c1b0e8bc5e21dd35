package linalg

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

// TestOverlap compares overlap with the sets of addresses two views of
// one backing matrix touch, element by element, over random views
// (disjoint column blocks, row blocks, shared corners, wraps past a row's
// end), and checks that views of different arrays never overlap.
func TestOverlap(t *testing.T) {
	const r, c = 7, 9
	m := mat.NewDense(r, c, nil)
	addrs := func(v *mat.Dense) map[uintptr]bool {
		raw := v.RawMatrix()
		set := map[uintptr]bool{}
		for i := range raw.Rows {
			for j := range raw.Cols {
				set[uintptr(unsafe.Pointer(&raw.Data[i*raw.Stride+j]))] = true
			}
		}
		return set
	}
	view := func(rng *rand.Rand) *mat.Dense {
		i0, j0 := rng.IntN(r), rng.IntN(c)
		i1, j1 := i0+1+rng.IntN(r-i0), j0+1+rng.IntN(c-j0)
		return m.Slice(i0, i1, j0, j1).(*mat.Dense)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	shared, apart := 0, 0
	for range 20000 {
		x, y := view(rng), view(rng)
		want := false
		ax := addrs(x)
		for p := range addrs(y) {
			if ax[p] {
				want = true
				break
			}
		}
		if got := overlap(x.RawMatrix(), y.RawMatrix()); got != want {
			t.Fatalf("views %v and %v: overlap = %v, want %v", x.RawMatrix(), y.RawMatrix(), got, want)
		}
		if want {
			shared++
		} else {
			apart++
		}
	}
	if shared < 1000 || apart < 1000 {
		t.Fatalf("%d overlapping and %d disjoint pairs drawn: the test no longer covers both", shared, apart)
	}
	other := mat.NewDense(r, c, nil)
	if overlap(m.RawMatrix(), other.RawMatrix()) {
		t.Error("two arrays overlap")
	}
}
