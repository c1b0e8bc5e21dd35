//go:build amd64 && !noasm

package f64

import "math"

// expConst holds the constants of the assembly, each repeated 8 times (one
// zmm, or two ymm, per constant; see the offsets in exp_amd64.s).
var expConst = func() (t [26 * 8]float64) {
	set := func(i int, v float64) {
		for l := range 8 {
			t[i*8+l] = v
		}
	}
	set(0, expMagic)
	set(1, expLog2e)
	set(2, -expLn2hi)
	set(3, -expLn2lo)
	set(4, expLo)
	set(5, expHi)
	for k, c := range expCoef {
		set(6+k, c)
	}
	set(20, math.Float64frombits(2048))
	set(21, math.Float64frombits(2047))
	set(22, math.Float64frombits(1))
	set(23, 0)
	set(24, math.Float64frombits(1<<63))
	set(25, -0.5)
	return t
}()

// expTo runs the assembly on the largest multiple of the vector width and
// returns how many elements it did.
func expTo(dst, x []float64) int {
	switch {
	case feat.avx512:
		n := len(x) &^ 7
		if n > 0 {
			expAVX512(&dst[0], &x[0], n, &expConst[0])
		}
		return n
	case feat.avx2:
		n := len(x) &^ 3
		if n > 0 {
			expAVX2(&dst[0], &x[0], n, &expConst[0])
		}
		return n
	}
	return 0
}

// sumKappa runs the assembly over the groups of 8 elements, the last,
// padded group included, and returns the number of elements done: G, or
// 0 without AVX2.
func sumKappa(acc *[8]float64, x []float64, nxy float64, orb []float64, G int, rbf bool, inv2, c, q1, q2 float64) int {
	if !feat.avx512 && !feat.avx2 {
		return 0
	}
	d := len(x)
	nw := len(orb) / d / Wide
	full := G / Narrow
	nwg := min(full, nw*Wide/Narrow)
	nng := full - nwg
	params := [5]float64{nxy, inv2, c, q1, q2}
	r := 0
	if rbf {
		r = 1
	}
	if nwg > 0 {
		if feat.avx512 {
			sumKappaAVX512(acc, &x[0], d, &orb[0], nwg, Wide/Narrow, Wide*8, Wide*8*(d-1), &params, r, &expConst[0])
		} else {
			sumKappaAVX2(acc, &x[0], d, &orb[0], nwg, Wide/Narrow, Wide*8, Wide*8*(d-1), &params, r, &expConst[0])
		}
	}
	if nng > 0 {
		o := &orb[nw*Wide*d]
		if feat.avx512 {
			sumKappaAVX512(acc, &x[0], d, o, nng, 1, Narrow*8, Narrow*8*(d-1), &params, r, &expConst[0])
		} else {
			sumKappaAVX2(acc, &x[0], d, o, nng, 1, Narrow*8, Narrow*8*(d-1), &params, r, &expConst[0])
		}
	}
	if g0 := full * Narrow; g0 < G {
		// The last, padded group: its 8 lanes into a zero accumulator
		// (0 + t = t, κ ≥ 0), then its G − g0 real lanes into acc — the
		// same bits as sumKappaTail, without its call per group.
		var tmp [8]float64
		base, w, l0 := blockOf(g0, len(orb)/d, d)
		o := &orb[base+l0]
		if feat.avx512 {
			sumKappaAVX512(&tmp, &x[0], d, o, 1, 1, w*8, w*8*(d-1), &params, r, &expConst[0])
		} else {
			sumKappaAVX2(&tmp, &x[0], d, o, 1, 1, w*8, w*8*(d-1), &params, r, &expConst[0])
		}
		for l := range G - g0 {
			acc[l] += tmp[l]
		}
	}
	return G
}

// expAVX512 writes Exp(x[i]) to dst[i] for n (a multiple of 8) elements.
//
//go:noescape
func expAVX512(dst, x *float64, n int, consts *float64)

// expAVX2 is expAVX512 for n a multiple of 4.
//
//go:noescape
func expAVX2(dst, x *float64, n int, consts *float64)

// sumKappaAVX512 adds the terms of n groups of 8 orbit elements to acc
// (lane l gets the group's element l). Groups come per to a block: group j
// starts at orb + (j/per)·(ks·d) + (j mod per)·64 bytes, coordinates ks
// bytes apart; adv = ks·(d−1) is the jump from the end of one block's
// first coordinate row to the next block.
//
//go:noescape
func sumKappaAVX512(acc *[8]float64, x *float64, d int, orb *float64, n, per, ks, adv int, params *[5]float64, rbf int, consts *float64)

// sumKappaAVX2 is sumKappaAVX512 with two ymm halves per group.
//
//go:noescape
func sumKappaAVX2(acc *[8]float64, x *float64, d int, orb *float64, n, per, ks, adv int, params *[5]float64, rbf int, consts *float64)
