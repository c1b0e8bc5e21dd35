package eigsym

import "sync"

const (
	// ormNB is the number of reflectors applied together by ormtr.
	ormNB = 64
	// ormNC is the width of the column panels of z that ormtr carries
	// through all blocks of reflectors while they stay in cache.
	ormNC = 96
)

// ormW is the scratch W of one column panel.
var ormW = sync.Pool{New: func() any { return new([]float64) }}

// ormtr overwrites the n×n matrix z (row stride ldz) with Q·z, where Q is
// the product of sytrd's reflectors (held in a and tau), as LAPACK's
// dormtr (SIDE = 'L', TRANS = 'N'). Reflectors go in blocks of ormNB in
// compact WY form, H_b⋯H_{b+nb−1} = I − V·T·Vᵀ (T upper triangular, as
// dlarft), last block first; each block is two GEMMs, W = Vᵀ·Z and
// Z −= (V·T)·W, over the rows it touches. All blocks' V and (V·T)ᵀ are
// formed first; then each column panel of z (ormNC wide, independent of
// the others, in parallel) goes through every block while it is in cache.
// Each entry's operations do not depend on the panels.
func ormtr(n int, a []float64, lda int, tau []float64, z []float64, ldz int, ws *workspace, w int) {
	nr := n - 1 // reflectors 0…n−2
	if nr <= 0 {
		return
	}
	nblk := (nr + ormNB - 1) / ormNB
	// Block b holds v (L×nb: column p is u_{b0+p} on rows b0+1…n−1) and
	// vtt = (V·T)ᵀ (nb×L), at off[b].
	off := ws.ints(&ws.ooff, nblk+1)
	off[0] = 0
	for b := range nblk {
		b0 := b * ormNB
		nb, L := min(ormNB, nr-b0), n-b0-1
		off[b+1] = off[b] + 2*L*nb
	}
	store := ws.floats(&ws.dcf, off[nblk])
	for b := range nblk {
		b0 := b * ormNB
		nb, L := min(ormNB, nr-b0), n-b0-1
		v := store[off[b] : off[b]+L*nb]
		vtt := store[off[b]+L*nb : off[b+1]]
		ormBlock(n, b0, nb, a, lda, tau, v, vtt, ws, w)
	}
	np := (n + ormNC - 1) / ormNC
	parallelFor(np, w, func(p int) {
		c0 := p * ormNC
		nc := min(ormNC, n-c0)
		wp := ormW.Get().(*[]float64)
		defer ormW.Put(wp)
		wk := grow(*wp, ormNB*nc)
		*wp = wk
		for b := nblk - 1; b >= 0; b-- {
			b0 := b * ormNB
			nb, L := min(ormNB, nr-b0), n-b0-1
			v := store[off[b] : off[b]+L*nb]
			vtt := store[off[b]+L*nb : off[b+1]]
			zs := z[(b0+1)*ldz+c0:]
			gemm(true, false, nb, nc, L, 1, v, nb, zs, ldz, 0, wk, nc, full, 1)
			gemm(true, false, L, nc, nb, -1, vtt, L, wk, nc, 1, zs, ldz, full, 1)
		}
	})
}

// ormBlock forms v (L×nb, column p the reflector vector u_{b0+p} on rows
// b0+1…n−1) and vtt = (V·T)ᵀ = Tᵀ·Vᵀ (nb×L) for the block of reflectors
// b0…b0+nb−1, with T built column by column as dlarft:
// T[p][p] = τ_p and T[0:p, p] = −τ_p·T[0:p, 0:p]·(Vᵀu_p)[0:p], from the
// Gram matrix S = VᵀV (upper triangle).
func ormBlock(n, b0, nb int, a []float64, lda int, tau, v, vtt []float64, ws *workspace, w int) {
	L := n - b0 - 1
	vt := ws.floats(&ws.ovt, nb*L)  // nb×L: row p is u_{b0+p}
	t := ws.floats(&ws.ot, 2*nb*nb) // T and S (nb×nb each)
	for p := range nb {
		row := vt[p*L : (p+1)*L]
		i := b0 + p
		clear(row[:p])
		row[p] = 1
		copy(row[p+1:], a[i*lda+i+2:i*lda+n])
	}
	for r := range L {
		vr := v[r*nb : (r+1)*nb]
		for p := range nb {
			vr[p] = vt[p*L+r]
		}
	}
	s := t[nb*nb:]
	gemm(true, false, nb, nb, L, 1, v, nb, v, nb, 0, s, nb, upper, w)
	clear(t[:nb*nb])
	var xbuf [ormNB]float64
	for p := range nb {
		tp := tau[b0+p]
		t[p*nb+p] = tp
		x := xbuf[:p]
		for q := range p {
			x[q] = -tp * s[q*nb+p]
		}
		for q := range p {
			row := t[q*nb+q : q*nb+p]
			xq := x[q:p]
			var acc float64
			for r, tv := range row {
				acc += tv * xq[r]
			}
			t[q*nb+p] = acc
		}
	}
	gemm(true, false, nb, L, nb, 1, t, nb, vt, L, 0, vtt, L, full, w)
}
