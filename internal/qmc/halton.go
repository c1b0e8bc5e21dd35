package qmc

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
)

// MaxDim is the largest dimension NewHalton accepts (the 1000th prime is
// 7919, so one permutation table stays small).
const MaxDim = 1000

// Halton is a scrambled Halton sequence in [0, 1)^d.
type Halton struct {
	d      int
	base   []uint64   // the first d primes: shared by every Halton, read only
	digits []int      // K_j, the number of scrambled digit positions
	perm   [][]uint16 // perm[j][k·b_j + a] = π_{j,k}(a) (b_j ≤ 7919 < 2^16)
	// tail[j][m] is the radical inverse's accumulator after positions
	// K_j−1 down to m, all of whose digits are 0: v = (v + π_{j,q}(0))/b_j
	// for q = K_j−1, …, m, from v = 0 (tail[j][K_j] = 0). An index with m
	// nonzero-or-lower digits starts from tail[j][m], the same operations
	// in the same order as the full loop, so the same bits.
	tail [][]float64
}

// digitsOf is K, the number of scrambled digit positions in base b: the
// digits of a uint64 index, and enough for 53 bits after them.
func digitsOf(b uint64) int {
	lb := math.Log2(float64(b))
	return int(math.Ceil(64/lb)) + int(math.Ceil(53/lb))
}

// TableBytes bounds the memory NewHalton(d, ·) allocates: the permutation
// tables (2 bytes an entry), the tails, the generators and NewHalton's
// scratch, an eighth added for the allocator's size classes; 0 outside
// [1, MaxDim]. A caller with a memory budget checks it before NewHalton
// (about 90 MB at d = MaxDim). O(1) and allocation-free after the first
// call in the process (bo calls it every step): it reads tables built once.
func TableBytes(d int) float64 {
	if d < 1 || d > MaxDim {
		return 0
	}
	t := tables()
	// The largest base's scratch: the bases ascend.
	return (t.tableSum[d] + float64(t.primes[d-1])*8) * 9 / 8
}

// primeTables are the first MaxDim primes and, for TableBytes, the sums
// over the first d of them of each dimension's table bytes.
type primeTables struct {
	primes []uint64 // the first MaxDim primes, ascending; never written after tables builds it
	// tableSum[d] = Σ_{j<d} (2·K_j·b_j + 8·(K_j+1) + 3·8 + 96), summed in
	// increasing j (so the bits of the sum made one dimension at a time).
	tableSum []float64
}

// tables builds the primeTables once per process.
var tables = sync.OnceValue(func() *primeTables {
	t := &primeTables{primes: primes(MaxDim), tableSum: make([]float64, MaxDim+1)}
	var n float64
	for j, b := range t.primes {
		k := float64(digitsOf(b))
		n += k*float64(b)*2 + (k+1)*8 + 3*8 + 96
		t.tableSum[j+1] = n
	}
	return t
})

// NewHalton returns the d-dimensional Halton sequence scrambled with random
// digit permutations drawn from seed.
func NewHalton(d int, seed uint64) (*Halton, error) {
	if d < 1 || d > MaxDim {
		return nil, fmt.Errorf("qmc: dimension %d outside [1, %d]", d, MaxDim)
	}
	h := &Halton{d: d, base: tables().primes[:d:d], digits: make([]int, d), perm: make([][]uint16, d), tail: make([][]float64, d)}
	scratch := make([]int, h.base[d-1]) // the largest base's
	for j, b := range h.base {
		k := digitsOf(b)
		h.digits[j] = k
		rng := rand.New(rand.NewPCG(seed, uint64(j)))
		p := make([]uint16, k*int(b))
		idx := scratch[:b]
		for q := range k {
			for a := range idx {
				idx[a] = a
			}
			rng.Shuffle(len(idx), func(a, c int) { idx[a], idx[c] = idx[c], idx[a] })
			for a, v := range idx {
				p[q*int(b)+a] = uint16(v)
			}
		}
		h.perm[j] = p
		t := make([]float64, k+1)
		fb := float64(b)
		for q := k - 1; q >= 0; q-- {
			t[q] = (t[q+1] + float64(p[q*int(b)])) / fb
		}
		h.tail[j] = t
	}
	return h, nil
}

// Dim returns d.
func (h *Halton) Dim() int { return h.d }

// PointTo writes point i of the sequence into dst (length d).
func (h *Halton) PointTo(dst []float64, i uint64) {
	if len(dst) != h.d {
		panic(fmt.Sprintf("qmc: dst has length %d, want %d", len(dst), h.d))
	}
	var dig [128]uint64
	for j, b := range h.base {
		// The m low digits of i; the K_j − m above them are 0 and their
		// positions' share is tail[j][m].
		m := 0
		for n := i; n > 0; n /= b {
			dig[m] = n % b
			m++
		}
		p := h.perm[j]
		fb := float64(b)
		v := h.tail[j][m]
		for q := m - 1; q >= 0; q-- {
			v = (v + float64(p[q*int(b)+int(dig[q])])) / fb
		}
		if v >= 1 {
			v = math.Nextafter(1, 0)
		}
		dst[j] = v
	}
}

// primes returns the first n primes.
func primes(n int) []uint64 {
	ps := make([]uint64, 0, n)
	for c := uint64(2); len(ps) < n; c++ {
		prime := true
		for _, p := range ps {
			if p*p > c {
				break
			}
			if c%p == 0 {
				prime = false
				break
			}
		}
		if prime {
			ps = append(ps, c)
		}
	}
	return ps
}
