package eigsym

// ormNB is the number of reflectors applied together by ormtr.
const ormNB = 64

// ormtr overwrites the n×n matrix z (row stride ldz) with Q·z, where Q is
// the product of sytrd's reflectors (held in a and tau), as LAPACK's
// dormtr (SIDE = 'L', TRANS = 'N'). Reflectors go in blocks of ormNB in
// compact WY form, H_b⋯H_{b+nb−1} = I − V·T·Vᵀ (T upper triangular, as
// dlarft), last block first; each block is two GEMMs,
// W = Vᵀ·Z and Z −= (V·T)·W, over the rows it touches.
func ormtr(n int, a []float64, lda int, tau []float64, z []float64, ldz int, ws *workspace, w int) {
	nr := n - 1 // reflectors 0…n−2
	if nr <= 0 {
		return
	}
	for b0 := (nr - 1) / ormNB * ormNB; b0 >= 0; b0 -= ormNB {
		nb := min(ormNB, nr-b0)
		L := n - b0 - 1                  // rows b0+1…n−1
		v := ws.floats(&ws.ov, L*nb)     // L×nb: column p is u_{b0+p}
		vt := ws.floats(&ws.ovt, nb*L)   // nb×L: row p is u_{b0+p}
		t := ws.floats(&ws.ot, 2*nb*nb)  // T and S (nb×nb each)
		wk := ws.floats(&ws.ow, nb*n)    // W
		vtt := ws.floats(&ws.ovtt, nb*L) // (V·T)ᵀ
		for p := range nb {
			row := vt[p*L : (p+1)*L]
			i := b0 + p
			clear(row[:p])
			row[p] = 1
			copy(row[p+1:], a[i*lda+i+2:i*lda+n])
		}
		for r := range L {
			for p := range nb {
				v[r*nb+p] = vt[p*L+r]
			}
		}
		// T, column by column: T[p][p] = τ_p and
		// T[0:p, p] = −τ_p·T[0:p, 0:p]·(Vᵀu_p)[0:p], from the Gram matrix
		// S = VᵀV (upper triangle).
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
		zs := z[(b0+1)*ldz:]
		// (V·T)ᵀ = Tᵀ·Vᵀ.
		gemm(true, false, nb, L, nb, 1, t, nb, vt, L, 0, vtt, L, full, w)
		gemm(true, false, nb, n, L, 1, v, nb, zs, ldz, 0, wk, n, full, w)
		gemm(true, false, L, n, nb, -1, vtt, L, wk, n, 1, zs, ldz, full, w)
	}
}
