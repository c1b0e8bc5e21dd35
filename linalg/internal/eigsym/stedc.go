package eigsym

import (
	"errors"
	"math"
	"slices"
)

const (
	// smlsiz: blocks of at most this order are solved by implicit QL,
	// larger ones are split in halves (LAPACK's SMLSIZ).
	smlsiz = 25
	// dcParallel: subproblems of at least this order solve their halves
	// concurrently.
	dcParallel = 256
)

// errNoConvergence reports an implicit QL leaf that did not converge.
var errNoConvergence = errors.New("implicit QL did not converge")

// stedc computes all eigenvalues and eigenvectors of the symmetric
// tridiagonal n×n matrix with diagonal d and off-diagonal e, by Cuppen's
// divide and conquer as LAPACK's dstedc (COMPZ = 'I'): on return d holds
// the eigenvalues in ascending order and column j of z (n×n, row stride
// ldz) a unit eigenvector for d[j]; e is destroyed.
//
// The matrix is first split where an off-diagonal is negligible
// (|e_i| ≤ ε·√|d_i|·√|d_{i+1}|); each unreduced block is scaled by a power
// of two to norm in [½, 1), solved (see dc), and scaled back.
func stedc(n int, d, e []float64, z []float64, ldz int, ws *workspace, w int) error {
	for i := range n {
		clear(z[i*ldz : i*ldz+n])
	}
	order := ws.ints(&ws.order, n)
	for s := 0; s < n; {
		f := blockEnd(n, s, d, e)
		m := f - s + 1
		if err := solveBlock(m, d[s:f+1], e[s:f], z[s*ldz+s:], ldz, order[s:f+1], ws, w); err != nil {
			return err
		}
		for i := s; i <= f; i++ {
			order[i] += s
		}
		s = f + 1
	}
	// Sort all eigenvalues: order lists each block's in ascending order;
	// blocks interleave.
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case d[i] < d[j]:
			return -1
		case d[i] > d[j]:
			return 1
		}
		return 0
	})
	permuteColumns(n, d, z, ldz, order, ws)
	return nil
}

// permuteColumns reorders d and the columns of the n×n z so that new
// column j is old column order[j].
func permuteColumns(n int, d []float64, z []float64, ldz int, order []int, ws *workspace) {
	if slices.IsSortedFunc(order, func(a, b int) int { return a - b }) {
		return
	}
	tmp := ws.floats(&ws.y, n)
	for j, o := range order {
		tmp[j] = d[o]
	}
	copy(d, tmp)
	for r := range n {
		row := z[r*ldz : r*ldz+n]
		for j, o := range order {
			tmp[j] = row[o]
		}
		copy(row, tmp)
	}
}

// solveBlock solves one unreduced block (order m): eigenvalues into d,
// eigenvectors into the m×m block of z, and order such that d[order[j]]
// ascends.
func solveBlock(m int, d, e []float64, z []float64, ldz int, order []int, ws *workspace, w int) error {
	if m == 1 {
		z[0] = 1
		order[0] = 0
		return nil
	}
	s1, s2 := scaleBlock(d[:m], e[:m-1])
	if s1 == 0 {
		for i := range m {
			z[i*ldz+i] = 1
			order[i] = i
		}
		return nil
	}
	fbuf := ws.floats(&ws.dcf, dcFloats(m))
	ibuf := ws.ints(&ws.dci, dcInts(m))
	if err := dc(m, d, e, z, ldz, order, fbuf, ibuf, w); err != nil {
		return err
	}
	unscaleBlock(d[:m], s1, s2)
	return nil
}

// blockEnd returns the last index of the unreduced block of the
// tridiagonal n×n (d, e) that starts at s: the first f ≥ s whose
// off-diagonal is negligible, |e_f| ≤ ε·√|d_f|·√|d_{f+1}| (set to 0
// there), or n−1. stedc and TridiagProject split T at the same places.
func blockEnd(n, s int, d, e []float64) int {
	f := s
	for f < n-1 && math.Abs(e[f]) > eps*math.Sqrt(math.Abs(d[f]))*math.Sqrt(math.Abs(d[f+1])) {
		f++
	}
	if f < n-1 {
		e[f] = 0
	}
	return f
}

// scaleBlock scales the unreduced block with diagonal d and off-diagonal
// e to norm (largest |entry|) in [½, 1) by a power of two, in two factors
// so that a block of subnormal norm scales too, and returns them; a zero
// block is left as it is, with s1 = s2 = 0. unscaleBlock(d, s1, s2) takes
// the eigenvalues back.
func scaleBlock(d, e []float64) (s1, s2 float64) {
	var nrm float64
	for _, v := range d {
		nrm = max(nrm, math.Abs(v))
	}
	for _, v := range e {
		nrm = max(nrm, math.Abs(v))
	}
	if nrm == 0 {
		return 0, 0
	}
	s1, s2 = pow2Scale(nrm)
	for i := range d {
		d[i] = d[i] * s1 * s2
	}
	for i := range e {
		e[i] = e[i] * s1 * s2
	}
	return s1, s2
}

// unscaleBlock undoes scaleBlock's factors on the eigenvalues d.
func unscaleBlock(d []float64, s1, s2 float64) {
	for i := range d {
		d[i] = d[i] / s1 / s2
	}
}

// dcFloats and dcInts are the scratch of dc for order m: the merge's
// gathered vectors (≤ m²), its K×K vector matrix, and O(m) vectors; the two
// halves fit in their parent's space.
func dcFloats(m int) int { return 2*m*m + 8*m }
func dcInts(m int) int   { return 8 * m }

// dc solves the tridiagonal block (d, e) of order m: halves are solved
// recursively (concurrently when large) after Cuppen's tear
// d_{k−1} −= |β|, d_k −= |β| with β = e_{k−1}, then merged by merge. Blocks
// of order ≤ smlsiz go to implicit QL. On return d[order[j]] ascends.
func dc(m int, d, e []float64, z []float64, ldz int, order []int, fbuf []float64, ibuf []int, w int) error {
	if m <= smlsiz {
		if !steqr(m, d, e, z, ldz) {
			return errNoConvergence
		}
		argsort(d[:m], order[:m])
		return nil
	}
	k := m / 2
	beta := e[k-1]
	d[k-1] -= math.Abs(beta)
	d[k] -= math.Abs(beta)
	f1, f2 := dcFloats(k), dcFloats(m-k)
	i1, i2 := dcInts(k), dcInts(m-k)
	var err1, err2 error
	parallelDo(m >= dcParallel && w > 1, func() {
		err1 = dc(k, d[:k], e[:k-1], z, ldz, order[:k], fbuf[:f1], ibuf[:i1], w)
	}, func() {
		err2 = dc(m-k, d[k:m], e[k:m-1], z[k*ldz+k:], ldz, order[k:m], fbuf[f1:f1+f2], ibuf[i1:i1+i2], w)
	})
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	merge(m, k, beta, d, z, ldz, order, fbuf, ibuf, w)
	return nil
}

// argsort sets order to the permutation sorting v ascending (stable).
func argsort(v []float64, order []int) {
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case v[i] < v[j]:
			return -1
		case v[i] > v[j]:
			return 1
		}
		return 0
	})
}
