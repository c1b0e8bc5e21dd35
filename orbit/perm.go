package orbit

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// Permutation indices.
//
// A permutation a of {0, …, m−1} is indexed by i = Σ_{k≥1} c_k·k! with
// digits c_k ∈ [0, k] (the factorial number system, least significant digit
// first). Decoding runs the forward Fisher–Yates shuffle with choices fixed
// by the digits: starting from the identity, for k = 1, 2, … swap positions
// k and k − c_k. Index 0 is the identity, every index in [0, m!) gives a
// distinct permutation, and decoding stops as soon as the remaining index is
// zero, so small indices are cheap even for large m.
//
// A permutation a acts on points by (a·x)[k] = x[a[k]] (for blocks: block k
// of a·x is block a[k] of x).

// tableMaxM is the largest m whose m!·m permutation table is precomputed
// (8!·8 = 322560 bytes).
const tableMaxM = 8

// maxStack is the size of stack scratch arrays; larger problems allocate.
const maxStack = 64

// blocks describes m blocks of b coordinates each: coordinate o of block k
// sits at position k·ks + o·os.
type blocks struct {
	m, b   int
	ks, os int
	table  []uint8 // m!·m entries, row i = permutation i; nil if m > tableMaxM
}

func newBlocks(m, b, ks, os int) blocks {
	bl := blocks{m: m, b: b, ks: ks, os: os}
	if m <= tableMaxM {
		n := factorialInt(m)
		bl.table = make([]uint8, n*m)
		var a [tableMaxM]int
		for i := 0; i < n; i++ {
			decodePerm(a[:m], i)
			row := bl.table[i*m : (i+1)*m]
			for k := range row {
				row[k] = uint8(a[k])
			}
		}
	}
	return bl
}

// actTo writes the p-th permutation of the blocks of x into dst.
func (bl *blocks) actTo(dst, x []float64, p int) {
	if bl.table != nil {
		row := bl.table[p*bl.m : (p+1)*bl.m]
		if bl.b == 1 {
			for k, src := range row {
				dst[k] = x[src]
			}
			return
		}
		for k, src := range row {
			dk, sk := k*bl.ks, int(src)*bl.ks
			for o := 0; o < bl.b; o++ {
				dst[dk+o*bl.os] = x[sk+o*bl.os]
			}
		}
		return
	}
	copy(dst, x)
	for k := 1; p > 0; k++ {
		c := p % (k + 1)
		p /= k + 1
		if c == 0 {
			continue
		}
		j := k - c
		if bl.b == 1 {
			dst[k], dst[j] = dst[j], dst[k]
			continue
		}
		for o := 0; o < bl.b; o++ {
			u, v := k*bl.ks+o*bl.os, j*bl.ks+o*bl.os
			dst[u], dst[v] = dst[v], dst[u]
		}
	}
}

// decodePerm writes permutation i into a (len m).
func decodePerm(a []int, i int) {
	for k := range a {
		a[k] = k
	}
	for k := 1; i > 0; k++ {
		c := i % (k + 1)
		i /= k + 1
		j := k - c
		a[k], a[j] = a[j], a[k]
	}
}

// encodePerm returns the index of permutation a, destroying a. pos is
// scratch of the same length. It panics if the index overflows int.
func encodePerm(a, pos []int) int {
	for k, v := range a {
		pos[v] = k
	}
	var idx uint64
	// Undo the shuffle from the last step: before step k, value k sat at
	// position k; the swap moved it to position j = k − c_k.
	for k := len(a) - 1; k >= 1; k-- {
		j := pos[k]
		ck := uint64(k - j)
		// a[j] = k; swap back so that a[k] = k.
		w := a[k]
		a[j], a[k] = w, k
		pos[w], pos[k] = j, k
		hi, lo := bits.Mul64(idx, uint64(k+1))
		lo, carry := bits.Add64(lo, ck, 0)
		if hi != 0 || carry != 0 || lo > math.MaxInt {
			panic(fmt.Sprintf("orbit: permutation index of %d elements overflows int", len(a)))
		}
		idx = lo
	}
	return int(idx)
}

// invertPermIndex returns the index of the inverse of permutation p of m
// elements.
func invertPermIndex(m, p int) int {
	var sa, sq, sp [maxStack]int
	a, q, pos := stackOr(&sa, m), stackOr(&sq, m), stackOr(&sp, m)
	decodePerm(a, p)
	for k, v := range a {
		q[v] = k
	}
	return encodePerm(q, pos)
}

// factorial returns m! exactly.
func factorial(m int) *big.Int {
	if m < 2 {
		return big.NewInt(1)
	}
	return new(big.Int).MulRange(1, int64(m))
}

// factorialInt returns m! for m ≤ 20.
func factorialInt(m int) int {
	f := 1
	for k := 2; k <= m; k++ {
		f *= k
	}
	return f
}

// factorialOrder returns m!·2^s as an int, or −1 if it overflows, without
// big-integer arithmetic (m! overflows int beyond m = 20).
func factorialOrder(m, s int) int {
	if s >= bits.UintSize-1 {
		return -1
	}
	f := 1 << s
	for k := 2; k <= m; k++ {
		hi, lo := bits.Mul64(uint64(f), uint64(k))
		if hi != 0 || lo > math.MaxInt {
			return -1
		}
		f = int(lo)
	}
	return f
}

// intOrder returns o as an int, or −1 if it does not fit.
func intOrder(o *big.Int) int {
	if o.IsInt64() && o.Int64() <= math.MaxInt {
		return int(o.Int64())
	}
	return -1
}
