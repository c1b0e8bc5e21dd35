package eigsym

import (
	"math"
)

// Column types of the merge (LAPACK's dlaed2): which rows of a column
// can be nonzero.
const (
	colTop   = 1 // rows 0…k−1 (a vector of the first half)
	colDense = 2 // all rows (mixed by a deflating rotation)
	colBot   = 3 // rows k…m−1 (a vector of the second half)
)

// mergeChunk is the number of roots or rows a task of the merge handles.
const mergeChunk = 32

// merge combines the eigendecompositions of the two halves of a torn
// tridiagonal block into one, as LAPACK's dlaed1–dlaed3.
//
// On entry the m×m block of z is diag(Q1, Q2) (Q1 k×k, Q2 (m−k)×(m−k), the
// off-diagonal blocks zero) with d the halves' eigenvalues (d[order[j]]
// ascending within each half, order local to each). The block is
// diag(D1, D2) + ρ·v·vᵀ in that basis, with ρ = 2|β| and v the last row of
// Q1 and sign(β) times the first row of Q2, over √2.
//
// Deflation (with tol = 8ε·max(max|d|, max|v|)): an eigenpair whose
// ρ|v_j| ≤ tol is kept as it is; two eigenvalues close enough that the
// Givens rotation zeroing one of their v components moves them by at most
// tol are rotated, the zeroed one kept. The K others solve the secular
// equation (secular); the eigenvectors of D + ρvvᵀ come from Gu and
// Eisenstat's recomputed v̂, v̂_i² = Π_j(λ_j − d_i)/(ρ·Π_{j≠i}(d_j − d_i)),
// as u_j ∝ (v̂_i/(d_i − λ_j))_i, which makes them numerically orthogonal
// whatever the clustering; and the new eigenvectors are Q·U, two GEMMs
// that skip the zero blocks of Q (its columns sorted top, dense, bottom).
//
// On return the block of z holds the eigenvectors, d the eigenvalues and
// order their ascending order.
func merge(m, k int, beta float64, d []float64, z []float64, ldz int, order []int, fbuf []float64, ibuf []int, w int) {
	if m < dcParallel {
		w = 1 // too little work to gain from goroutines
	}
	idx := ibuf[0:m]
	col := ibuf[m : 2*m]
	typ := ibuf[2*m : 3*m]
	perm := ibuf[3*m : 4*m]
	defl := ibuf[4*m : 5*m]
	zv := fbuf[0:m]
	dl := fbuf[m : 2*m]
	zw := fbuf[2*m : 3*m]
	zhat := fbuf[3*m : 4*m]
	lam := fbuf[4*m : 5*m]
	work := fbuf[8*m:]

	// The rank-one vector, normalized.
	rho := 2 * math.Abs(beta)
	sq := 1 / math.Sqrt2
	for i := range k {
		zv[i] = z[(k-1)*ldz+i] * sq
	}
	if beta < 0 {
		sq = -sq
	}
	for i := k; i < m; i++ {
		zv[i] = z[k*ldz+i] * sq
	}

	// Merge the two sorted halves.
	a, b := 0, k
	for t := range m {
		if b == m || (a < k && d[order[a]] <= d[k+order[b]]) {
			idx[t] = order[a]
			a++
		} else {
			idx[t] = k + order[b]
			b++
		}
	}

	var dmax, zmax float64
	for i := range m {
		dmax = max(dmax, math.Abs(d[i]))
		zmax = max(zmax, math.Abs(zv[i]))
	}
	tol := 8 * eps * max(dmax, zmax)
	if rho*zmax <= tol {
		// Everything deflates: the halves' eigenpairs are the block's.
		argsort(d[:m], order[:m])
		return
	}

	for i := range m {
		typ[i] = colTop
		if i >= k {
			typ[i] = colBot
		}
	}
	K, nd, pj := 0, 0, -1
	for _, nj := range idx {
		if rho*math.Abs(zv[nj]) <= tol {
			defl[nd] = nj
			nd++
			continue
		}
		if pj < 0 {
			pj = nj
			continue
		}
		s, c := zv[pj], zv[nj]
		tau := math.Hypot(c, s)
		t := d[nj] - d[pj]
		c /= tau
		s = -s / tau
		if math.Abs(t*c*s) > tol {
			col[K] = pj
			K++
			pj = nj
			continue
		}
		// Rotate the pair so that zv[pj] = 0; pj deflates.
		zv[nj], zv[pj] = tau, 0
		r0, r1 := rowRange(typ[pj], k, m)
		q0, q1 := rowRange(typ[nj], k, m)
		r0, r1 = min(r0, q0), max(r1, q1)
		for r := r0; r < r1; r++ {
			x, y := z[r*ldz+pj], z[r*ldz+nj]
			z[r*ldz+pj] = c*x + s*y
			z[r*ldz+nj] = c*y - s*x
		}
		if typ[nj] != typ[pj] {
			typ[nj] = colDense
		}
		t = d[pj]*c*c + d[nj]*s*s
		d[nj] = d[pj]*s*s + d[nj]*c*c
		d[pj] = t
		defl[nd] = pj
		nd++
		pj = nj
	}
	col[K] = pj
	K++
	for t := range K {
		dl[t] = d[col[t]]
		zw[t] = zv[col[t]]
	}

	// Group the surviving columns by type: top, dense, bottom.
	var n1, n2 int
	np := 0
	for _, want := range [3]int{colTop, colDense, colBot} {
		for t := range K {
			if typ[col[t]] == want {
				perm[np] = t
				np++
			}
		}
		switch want {
		case colTop:
			n1 = np
		case colDense:
			n2 = np - n1
		}
	}
	n3 := K - n1 - n2
	// Gather them, transposed: gt (n1+n2)×k holds their top rows, gb
	// (n2+n3)×(m−k) their bottom rows.
	gt := work[:(n1+n2)*k]
	gb := work[(n1+n2)*k : (n1+n2)*k+(n2+n3)*(m-k)]
	usel := work[m*m : m*m+K*K]
	for r := range k {
		zr := z[r*ldz : r*ldz+m]
		for i := range n1 + n2 {
			gt[i*k+r] = zr[col[perm[i]]]
		}
	}
	for r := k; r < m; r++ {
		zr := z[r*ldz : r*ldz+m]
		for i := range n2 + n3 {
			gb[i*(m-k)+r-k] = zr[col[perm[n1+i]]]
		}
	}

	// Move the deflated columns that sit in 0…K−1 (where the new vectors
	// go) to the surviving columns' places in K…m−1.
	q := 0
	for _, p := range defl[:nd] {
		if p >= K {
			continue
		}
		for col[q] < K {
			q++
		}
		dst := col[q]
		q++
		for r := range m {
			z[r*ldz+dst] = z[r*ldz+p]
		}
		d[dst] = d[p]
	}

	// Roots of the secular equation; row j of ut (the block's first K
	// rows and columns) gets d_i − λ_j.
	ut := z
	parallelFor((K+mergeChunk-1)/mergeChunk, w, func(c int) {
		for j := c * mergeChunk; j < min(K, (c+1)*mergeChunk); j++ {
			lam[j] = secular(j, dl[:K], zw[:K], rho, ut[j*ldz:j*ldz+K])
		}
	})
	// Gu–Eisenstat: v̂_i from the products over all roots, each i summed
	// over j in increasing order from the j = i term.
	parallelFor((K+mergeChunk-1)/mergeChunk, w, func(c int) {
		i0, i1 := c*mergeChunk, min(K, (c+1)*mergeChunk)
		for i := i0; i < i1; i++ {
			zhat[i] = ut[i*ldz+i]
		}
		for j := range K {
			row := ut[j*ldz : j*ldz+K]
			for i := i0; i < i1; i++ {
				if i != j {
					zhat[i] *= row[i] / (dl[i] - dl[j])
				}
			}
		}
		for i := i0; i < i1; i++ {
			zhat[i] = math.Copysign(math.Sqrt(-zhat[i]), zw[i])
		}
	})
	// The eigenvectors of D + ρvvᵀ, normalized: row j of ut becomes u_j.
	parallelFor((K+mergeChunk-1)/mergeChunk, w, func(c int) {
		for j := c * mergeChunk; j < min(K, (c+1)*mergeChunk); j++ {
			row := ut[j*ldz : j*ldz+K]
			for i, v := range row {
				row[i] = zhat[i] / v
			}
			nrm := nrm2(row)
			for i := range row {
				row[i] /= nrm
			}
		}
	})
	// usel (K×K): row t is component perm[t] of every u_j.
	parallelFor((K+mergeChunk-1)/mergeChunk, w, func(c int) {
		for t := c * mergeChunk; t < min(K, (c+1)*mergeChunk); t++ {
			i := perm[t]
			dst := usel[t*K : (t+1)*K]
			for j := range K {
				dst[j] = ut[j*ldz+i]
			}
		}
	})
	// New eigenvectors: top rows from the top and dense columns, bottom
	// rows from the dense and bottom ones.
	gemm(true, false, k, K, n1+n2, 1, gt, k, usel, K, 0, z, ldz, full, w)
	gemm(true, false, m-k, K, n2+n3, 1, gb, m-k, usel[n1*K:], K, 0, z[k*ldz:], ldz, full, w)
	copy(d[:K], lam[:K])
	argsort(d[:m], order[:m])
}

// rowRange returns the rows a column of type t can have nonzero.
func rowRange(t, k, m int) (int, int) {
	switch t {
	case colTop:
		return 0, k
	case colBot:
		return k, m
	}
	return 0, m
}
