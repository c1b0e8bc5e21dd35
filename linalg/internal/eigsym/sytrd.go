package eigsym

import (
	"github.com/symbo/symbo/internal/f64"
)

const (
	// trdNB is the panel width of the blocked reduction: each panel ends
	// in a rank-2·trdNB GEMM update of the trailing matrix.
	trdNB = 32
	// trdNX: the last trdNX columns are reduced one at a time.
	trdNX = 32
	// symvBlock is the number of rows of a symmetric matrix-vector
	// product whose contributions form one partial vector (see symv).
	symvBlock = 64
	// symvParallel: symv runs in parallel from this order on.
	symvParallel = 256
)

// sytrd reduces the symmetric n×n matrix held in the upper triangle of a
// (row-major, row stride lda) to tridiagonal form T = Qᵀ·A·Q, as LAPACK's
// dsytrd does for the lower triangle of a column-major matrix (the same
// numbers). On return d (n) and e (n−1) hold the diagonal and
// off-diagonal of T, and Q = H_0·H_1⋯H_{n−2} with H_i = I − tau[i]·u·uᵀ,
// u_j = 0 for j ≤ i, u_{i+1} = 1 and u_j = a[i][j] for j ≥ i+2. The rest of
// the upper triangle is overwritten; the strict lower triangle is not read
// but may be written.
func sytrd(n int, a []float64, lda int, d, e, tau []float64, ws *workspace, w int) {
	if n == 0 {
		return
	}
	if n <= symvParallel {
		w = 1
	}
	tm := newTeam(w) // for the matrix-vector products
	defer tm.close()
	i0 := 0
	if n > trdNX {
		nb := trdNB
		ld := n
		vw := ws.floats(&ws.vw, 3*nb*ld)
		for ; i0 < n-trdNX; i0 += nb {
			latrd(n, i0, nb, a, lda, d, e, tau, vw, ld, ws, tm)
			// A22 −= V·Wᵀ + W·Vᵀ on the trailing matrix (rows and columns
			// from i0+nb): rows 0…2nb−1 of vw are [V; W], rows nb…3nb−1
			// are [W; V].
			m := n - i0 - nb
			gemm(true, false, m, m, 2*nb, -1, vw[nb:], ld, vw[nb*ld+nb:], ld,
				1, a[(i0+nb)*lda+i0+nb:], lda, upper, w)
		}
	}
	sytd2(n, i0, a, lda, d, e, tau, ws, tm)
}

// latrd reduces the nb columns from i0 of the trailing matrix, as dlatrd:
// the rank-two updates of the reflectors are kept in V and W (row p of vw
// is V_p, row nb+p is W_p, row 2nb+p a copy of V_p, each indexed from
// global column i0) rather than applied, and each new column is brought up
// to date, and each new w corrected, with them.
func latrd(n, i0, nb int, a []float64, lda int, d, e, tau []float64, vw []float64, ld int, ws *workspace, tm *team) {
	L := n - i0
	V := func(p int) []float64 { return vw[p*ld : p*ld+L] }
	W := func(p int) []float64 { return vw[(nb+p)*ld : (nb+p)*ld+L] }
	t1 := ws.floats(&ws.t1, 2*nb)
	t2 := t1[nb:]
	for j := range nb {
		c := i0 + j
		row := a[c*lda+c : c*lda+n]
		for p := range j {
			vp, wp := V(p), W(p)
			f64.AddScaled(row, -vp[j], wp[j:])
			f64.AddScaled(row, -wp[j], vp[j:])
		}
		d[c] = row[0]
		vj, wj := V(j), W(j)
		clear(vj[:j+1])
		clear(wj)
		beta, tj := householder(row[1], row[2:])
		e[c], tau[c] = beta, tj
		row[1] = beta
		vj[j+1] = 1
		copy(vj[j+2:], row[2:])
		if tj == 0 {
			continue
		}
		v := vj[j+1:]
		y := wj[j+1:]
		symv(n-c-1, a[(c+1)*lda+c+1:], lda, v, y, ws, tm)
		for p := range j {
			t1[p] = f64.Inner(W(p)[j+1:], v)
			t2[p] = f64.Inner(V(p)[j+1:], v)
		}
		for p := range j {
			f64.AddScaled(y, -t1[p], V(p)[j+1:])
			f64.AddScaled(y, -t2[p], W(p)[j+1:])
		}
		scaleVec(y, tj)
		f64.AddScaled(y, -0.5*tj*f64.Inner(y, v), v)
	}
	for p := range nb {
		copy(vw[(2*nb+p)*ld:(2*nb+p)*ld+L], V(p))
	}
}

// sytd2 reduces columns i0… one at a time, as dsytd2: each reflector's
// rank-two update is applied at once.
func sytd2(n, i0 int, a []float64, lda int, d, e, tau []float64, ws *workspace, tm *team) {
	for c := i0; c < n-1; c++ {
		row := a[c*lda+c : c*lda+n]
		d[c] = row[0]
		beta, tc := householder(row[1], row[2:])
		e[c], tau[c] = beta, tc
		row[1] = beta
		if tc == 0 {
			continue
		}
		m := n - c - 1
		v := ws.floats(&ws.v, m)
		v[0] = 1
		copy(v[1:], row[2:])
		y := ws.floats(&ws.y, m)
		a22 := a[(c+1)*lda+c+1:]
		symv(m, a22, lda, v, y, ws, tm)
		scaleVec(y, tc)
		f64.AddScaled(y, -0.5*tc*f64.Inner(y, v), v)
		for r := range m {
			ar := a22[r*lda+r : r*lda+m]
			f64.AddScaled(ar, -v[r], y[r:])
			f64.AddScaled(ar, -y[r], v[r:])
		}
	}
	d[n-1] = a[(n-1)*lda+n-1]
}

// symv sets y = A·v for the symmetric m×m matrix held in the upper
// triangle of a (row stride lda). Rows are taken in blocks of symvBlock;
// block b adds its rows' contributions into a partial vector
// (row r: y_c += a_rc·v_r for c > r and y_r += a_rr·v_r + Σ_{c>r} a_rc·v_c,
// by f64.InnerAddScaled), and y is the sum of the partial vectors in block
// order. The blocks may run concurrently (on tm's goroutines, from order
// symvParallel); the bits do not depend on it.
func symv(m int, a []float64, lda int, v, y []float64, ws *workspace, tm *team) {
	nblk := (m + symvBlock - 1) / symvBlock
	if nblk <= 1 {
		clear(y[:m])
		symvRows(0, m, m, a, lda, v, y)
		return
	}
	part := ws.floats(&ws.symv, nblk*m)
	task := func(b int) {
		r0 := b * symvBlock
		p := part[b*m : (b+1)*m]
		clear(p[r0:])
		symvRows(r0, min(r0+symvBlock, m), m, a, lda, v, p)
	}
	if m < symvParallel || tm == nil {
		for b := range nblk {
			task(b)
		}
	} else {
		tm.For(nblk, task)
	}
	copy(y[:m], part[:m])
	for b := 1; b < nblk; b++ {
		// fma(1, x, y) rounds as y + x.
		r0 := b * symvBlock
		f64.AddScaled(y[r0:m], 1, part[b*m+r0:(b+1)*m])
	}
}

// symvRows adds the contributions of rows r0…r1−1 to p. Each row's kernel
// prefetches the next row: a large matrix streams from memory without a
// stall at every row start.
func symvRows(r0, r1, m int, a []float64, lda int, v, p []float64) {
	for r := r0; r < r1; r++ {
		row := a[r*lda+r : r*lda+m]
		var next []float64
		if r+1 < r1 {
			next = a[(r+1)*lda+r+1 : (r+1)*lda+m]
		}
		s := f64.InnerAddScaledNext(p[r+1:m], v[r], row[1:], v[r+1:m], next)
		p[r] += row[0]*v[r] + s
	}
}
