package qmc

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// MaxDim is the largest dimension NewHalton accepts (the 1000th prime is
// 7919, so one permutation table stays small).
const MaxDim = 1000

// Halton is a scrambled Halton sequence in [0, 1)^d.
type Halton struct {
	d      int
	base   []uint64
	digits []int       // K_j, the number of scrambled digit positions
	perm   [][]float64 // perm[j][k·b_j + a] = π_{j,k}(a), as a float
}

// NewHalton returns the d-dimensional Halton sequence scrambled with random
// digit permutations drawn from seed.
func NewHalton(d int, seed uint64) (*Halton, error) {
	if d < 1 || d > MaxDim {
		return nil, fmt.Errorf("qmc: dimension %d outside [1, %d]", d, MaxDim)
	}
	h := &Halton{d: d, base: primes(d), digits: make([]int, d), perm: make([][]float64, d)}
	for j, b := range h.base {
		lb := math.Log2(float64(b))
		// Digits of a uint64 index, and enough for 53 bits after them.
		k := int(math.Ceil(64/lb)) + int(math.Ceil(53/lb))
		h.digits[j] = k
		rng := rand.New(rand.NewPCG(seed, uint64(j)))
		p := make([]float64, k*int(b))
		idx := make([]int, b)
		for q := range k {
			for a := range idx {
				idx[a] = a
			}
			rng.Shuffle(len(idx), func(a, c int) { idx[a], idx[c] = idx[c], idx[a] })
			for a, v := range idx {
				p[q*int(b)+a] = float64(v)
			}
		}
		h.perm[j] = p
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
		k := h.digits[j]
		n := i
		for q := range k {
			dig[q] = n % b
			n /= b
		}
		p := h.perm[j]
		fb := float64(b)
		v := 0.0
		for q := k - 1; q >= 0; q-- {
			v = (v + p[q*int(b)+int(dig[q])]) / fb
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
