package orbit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestPermIndexRoundTrip(t *testing.T) {
	for m := 1; m <= 7; m++ {
		n := factorialInt(m)
		seen := map[string]bool{}
		a := make([]int, m)
		pos := make([]int, m)
		for i := 0; i < n; i++ {
			decodePerm(a, i)
			k := string(fmtInts(a))
			if seen[k] {
				t.Fatalf("m = %d: index %d repeats permutation %v", m, i, a)
			}
			seen[k] = true
			if got := encodePerm(slices.Clone(a), pos); got != i {
				t.Fatalf("m = %d: encode(decode(%d)) = %d", m, i, got)
			}
			// Inverse: composing gives the identity.
			q := make([]int, m)
			decodePerm(q, invertPermIndex(m, i))
			for k := range a {
				if a[q[k]] != k && q[a[k]] != k {
					t.Fatalf("m = %d: %v and %v are not inverse", m, a, q)
				}
			}
		}
		if len(seen) != n {
			t.Fatalf("m = %d: %d distinct permutations, want %d", m, len(seen), n)
		}
	}
	rng := rand.New(rand.NewPCG(3, 1))
	for _, m := range []int{12, 20, 30, 100} {
		a := make([]int, m)
		pos := make([]int, m)
		for s := 0; s < 200; s++ {
			i := rng.IntN(math.MaxInt)
			if m <= 20 {
				i %= factorialInt(m)
			}
			decodePerm(a, i)
			if got := encodePerm(slices.Clone(a), pos); got != i {
				t.Fatalf("m = %d: encode(decode(%d)) = %d", m, i, got)
			}
		}
	}
}

func fmtInts(a []int) []byte {
	b := make([]byte, len(a))
	for k, v := range a {
		b[k] = byte(v)
	}
	return b
}

// The precomputed tables and the arithmetic decoding must agree.
func TestTableMatchesArithmetic(t *testing.T) {
	for _, c := range []struct{ m, b, ks, os int }{
		{5, 1, 1, 0}, {4, 3, 3, 1}, {4, 2, 1, 4}, {8, 1, 1, 0},
	} {
		tab := newBlocks(c.m, c.b, c.ks, c.os)
		ari := tab
		ari.table = nil
		d := c.m * c.b
		x := make([]float64, d)
		for k := range x {
			x[k] = float64(k + 1)
		}
		y, z := make([]float64, d), make([]float64, d)
		for i := 0; i < factorialInt(c.m); i++ {
			tab.actTo(y, x, i)
			ari.actTo(z, x, i)
			if !slices.Equal(y, z) {
				t.Fatalf("%+v element %d: table %v, arithmetic %v", c, i, y, z)
			}
		}
	}
}

// The Hungarian algorithm must find the optimal assignment (checked by
// enumerating all m! assignments), also with ties and large ranges.
func TestHungarian(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	var h hungarian
	for trial := 0; trial < 400; trial++ {
		m := 1 + trial%7
		h.resize(m)
		for k := range h.cost {
			switch trial % 4 {
			case 0:
				h.cost[k] = rng.Float64()
			case 1:
				h.cost[k] = float64(rng.IntN(3)) // ties
			case 2:
				h.cost[k] = math.Exp(20 * rng.NormFloat64())
			default:
				h.cost[k] = 0
			}
		}
		h.solve(m)
		var got float64
		cols := map[int]bool{}
		for j := 1; j <= m; j++ {
			got += h.cost[(h.p[j]-1)*m+j-1]
			cols[h.p[j]] = true
		}
		if len(cols) != m {
			t.Fatalf("not a permutation: %v", h.p)
		}
		a := make([]int, m)
		best := math.Inf(1)
		for i := 0; i < factorialInt(m); i++ {
			decodePerm(a, i)
			var s float64
			for k := range a {
				s += h.cost[k*m+a[k]]
			}
			best = math.Min(best, s)
		}
		if math.Abs(got-best) > 1e-12*best {
			t.Fatalf("trial %d (m = %d): Hungarian %g, brute force %g", trial, m, got, best)
		}
	}
}
