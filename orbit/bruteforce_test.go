package orbit

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

func bfGroups(t *testing.T) []Finite {
	var gs []Finite
	add := func(g Group, err error) {
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g.(Finite))
	}
	for d := 1; d <= 4; d++ {
		add(Trivial(d))
		add(SignFlip(d))
		add(Permutation(d))
		add(Hyperoctahedral(d))
		add(Cyclic(d))
		add(PairedPerm(d))
	}
	add(BlockPerm(3, 2))
	add(BlockPerm(2, 3))
	add(BlockPerm(4, 1))
	h, _ := Hyperoctahedral(3)
	add(OnCoords(h, 5, []int{3, 0, 2}))
	p, _ := Permutation(3)
	add(OnCoords(p, 4, []int{2, 1, 3}))
	b, _ := BlockPerm(2, 2)
	add(OnCoords(b, 5, []int{4, 0, 2, 1}))
	return gs
}

func bfEnum(g Finite) [][]float64 {
	n := intOrder(g.Order())
	d := g.Dim()
	// act on basis to get matrices
	var mats [][]float64
	for i := 0; i < n; i++ {
		m := make([]float64, d*d)
		for j := 0; j < d; j++ {
			e := make([]float64, d)
			e[j] = 1
			out := make([]float64, d)
			g.ActTo(out, e, i)
			for k := 0; k < d; k++ {
				m[k*d+j] = out[k]
			}
		}
		mats = append(mats, m)
	}
	return mats
}

func bfApply(m, x []float64) []float64 {
	d := len(x)
	out := make([]float64, d)
	for k := 0; k < d; k++ {
		for j := 0; j < d; j++ {
			if m[k*d+j] == 1 {
				out[k] = x[j]
			} else if m[k*d+j] == -1 {
				out[k] = -x[j]
			}
		}
	}
	return out
}

func bfBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
}

// TestBruteForceSmallGroups checks small finite groups (and embeddings)
// against an enumeration of their elements as signed permutation matrices,
// on points of small integers, ±0 included (ties, stabilizers): distinct
// elements, Inverse undoing ActTo, OrbitDist2 and AlignTo equal to the
// brute-force minimum, and a canonical map equal bit for bit on every g·x
// and equal for two points exactly when their orbits are.
func TestBruteForceSmallGroups(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	vals := []float64{-2, -1, math.Copysign(0, -1), 0, 1, 2}
	for _, g := range bfGroups(t) {
		d := g.Dim()
		mats := bfEnum(g)
		// distinct elements
		seen := map[string]bool{}
		for _, m := range mats {
			seen[string(bfKey(m))] = true
		}
		if len(seen) != len(mats) {
			t.Errorf("%s: %d distinct of %d", g.Name(), len(seen), len(mats))
		}
		for i := range mats {
			x := make([]float64, d)
			for k := range x {
				x[k] = rng.NormFloat64()
			}
			a, b := make([]float64, d), make([]float64, d)
			g.ActTo(a, x, i)
			g.ActTo(b, a, g.Inverse(i))
			if !bfBits(b, x) {
				t.Errorf("%s: inverse of %d", g.Name(), i)
			}
		}
		for trial := 0; trial < 200; trial++ {
			x, y := make([]float64, d), make([]float64, d)
			for k := range x {
				x[k] = vals[rng.Intn(len(vals))]
				y[k] = vals[rng.Intn(len(vals))]
			}
			best := math.Inf(1)
			for _, m := range mats {
				gy := bfApply(m, y)
				best = math.Min(best, dist2(x, gy))
			}
			if dg, ok := g.(Distancer); ok {
				if got := dg.OrbitDist2(x, y); got != best {
					t.Errorf("%s: OrbitDist2(%v,%v) = %v, brute %v", g.Name(), x, y, got, best)
				}
			}
			if al, ok := g.(Aligner); ok {
				dst := make([]float64, d)
				if got := al.AlignTo(dst, x, y); got != best {
					t.Errorf("%s: AlignTo(%v,%v) = %v, brute %v", g.Name(), x, y, got, best)
				}
			}
			if c, ok := g.(Canonicalizer); ok {
				cx, cy := make([]float64, c.CanonicalDim()), make([]float64, c.CanonicalDim())
				c.CanonicalTo(cx, x)
				c.CanonicalTo(cy, y)
				if (best == 0) != (dist2(cx, cy) == 0) {
					t.Errorf("%s: canonical %v %v vs best %v", g.Name(), cx, cy, best)
				}
				for _, m := range mats {
					gx := bfApply(m, x)
					cg := make([]float64, len(cx))
					c.CanonicalTo(cg, gx)
					if !bfBits(cg, cx) {
						t.Errorf("%s: canonical of %v = %v, of g·x = %v: %v", g.Name(), x, cx, gx, cg)
						break
					}
				}
			}
		}
	}
}

func bfKey(m []float64) []byte {
	b := make([]byte, len(m))
	for k, v := range m {
		b[k] = byte(int(v) + 1)
	}
	return b
}

// TestPermutationCanonicalSignedZeros: sort(x) and sort(g·x) agree bit for
// bit when x holds both −0 and +0 (slices.Sort leaves equal zeros in input
// order).
func TestPermutationCanonicalSignedZeros(t *testing.T) {
	g, _ := Permutation(3)
	nz := math.Copysign(0, -1)
	a, b := make([]float64, 3), make([]float64, 3)
	g.CanonicalTo(a, []float64{1, 0, nz})
	g.CanonicalTo(b, []float64{1, nz, 0})
	if !bfBits(a, b) {
		t.Errorf("canonical of (1, +0, −0) = %v, of (1, −0, +0) = %v", a, b)
	}
	want := []float64{nz, 0, 1}
	if !bfBits(a, want) {
		t.Errorf("canonical = %v, want −0, +0, 1", a)
	}
}

// TestBlockAssignOverflowedCosts: where some block's squared distance
// overflows (coordinates near 1e154) but the minimum over the group is
// finite, OrbitDist2 and AlignTo return it. Clamping every cost above
// MaxFloat64/(4m) to that value made the overflowed assignments tie with
// finite ones, and +Inf (or a larger total) came out.
func TestBlockAssignOverflowedCosts(t *testing.T) {
	bp2, _ := BlockPerm(2, 2)
	bp3, _ := BlockPerm(3, 1)
	pp3, _ := PairedPerm(3)
	for _, c := range []struct {
		g    Finite
		x, y []float64
	}{
		{bp2, []float64{7e153, 3e153, 0, -1e154}, []float64{-1e153, 0, 1.3e154, -1e153}},
		{bp3, []float64{-7e153, -1e153, 1.3e154}, []float64{7e153, 0, 1e153}},
		{bp3, []float64{-1e154, -1e200, -3e153}, []float64{-1e200, -1e153, -3e153}},
		{pp3, []float64{1e153, 1e153, 7e153, 0, 1e153, 7e153}, []float64{0, 1e153, 5e153, -1e153, 3e153, -1e154}},
	} {
		best := math.Inf(1)
		for _, m := range bfEnum(c.g) {
			best = math.Min(best, dist2(c.x, bfApply(m, c.y)))
		}
		if math.IsInf(best, 1) {
			t.Fatalf("%s: bad case, brute-force minimum overflows", c.g.Name())
		}
		got := c.g.(Distancer).OrbitDist2(c.x, c.y)
		dst := make([]float64, len(c.x))
		al := c.g.(Aligner).AlignTo(dst, c.x, c.y)
		if math.Abs(got-best) > 1e-12*best || math.Abs(al-best) > 1e-12*best {
			t.Errorf("%s: OrbitDist2(%v, %v) = %v, AlignTo %v, brute force %v", c.g.Name(), c.x, c.y, got, al, best)
		}
	}
}
