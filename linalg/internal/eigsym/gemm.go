package eigsym

import (
	"fmt"
	"sync"

	"github.com/symbo/symbo/internal/f64"
)

// Blocking of gemm. The results do not depend on any of these (each
// entry of c is one chain of fused multiply-adds in increasing k, see
// f64.GemmKernel), only the speed does.
const (
	gemmKC = 256 // depth of a packed block: an 8×256 panel of a fills half of L1
	gemmMT = 128 // rows of a task (a multiple of every path's mr)
	gemmNT = 240 // columns of a task (a multiple of every path's nr): 256×240 of b fill half of L2

	// gemmSerialFlops: below this many flops (2mnk) a product runs on the
	// calling goroutine.
	gemmSerialFlops = 1 << 21

	gemmMaxTile = 8 * 24 // the largest register tile, mr·nr
)

// triangle restricts the entries of c that gemm must compute.
type triangle int

const (
	full  triangle = iota
	upper          // only c[i][j] with j ≥ i; others may be overwritten with anything
)

// gemmBufs holds one product's packed operands.
type gemmBufs struct {
	a, b []float64
}

var gemmPool = sync.Pool{New: func() any { return new(gemmBufs) }}

// gemm computes c = beta·c + alpha·op(a)·op(b) for row-major matrices, op(a)
// m×k (a itself, or aᵀ when ta), op(b) k×n, c m×n with row stride ldc,
// on at most w goroutines. Entry (i, j) is computed as
//
//	s = beta·c[i][j] (0 when beta is 0, c[i][j] when beta is 1)
//	s = fma(alpha·op(a)[i][p], op(b)[p][j], s)   for p = 0…k−1
//
// whatever the blocking, path or number of goroutines. With tri = upper,
// entries below the diagonal may be left with any value. c must not
// overlap a or b.
//
// For each block of gemmKC steps of k, op(a) and op(b) are packed once
// (f64.GemmKernel's panels; ta and !tb are contiguous copies, the other
// layouts gathers), then the tiles of c (gemmMT×gemmNT) are computed
// independently from the shared packed blocks.
func gemm(ta, tb bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int, tri triangle, w int) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || alpha == 0 {
		if tri == upper {
			for i := range m {
				scaleRegion(c, ldc, i, i+1, i, n, beta)
			}
		} else {
			scaleRegion(c, ldc, 0, m, 0, n, beta)
		}
		return
	}
	mr, nr := f64.GemmTile()
	mt, nt := gemmMT, gemmNT
	if 2*float64(m)*float64(n)*float64(k) < gemmSerialFlops {
		w = 1
	}
	if w > 1 {
		// Narrower tiles when there are few of them (the bits do not
		// change), still a multiple of nr so that they start on a packed
		// panel.
		for nt > 2*nr && ceilDiv(m, mt)*ceilDiv(n, nt) < 3*w {
			nt = max(2*nr, nt/2/nr*nr)
		}
	}
	rt, ct := ceilDiv(m, mt), ceilDiv(n, nt)
	rp, cp := ceilDiv(m, mr), ceilDiv(n, nr)
	kc0 := min(k, gemmKC)
	bufs := gemmPool.Get().(*gemmBufs)
	defer gemmPool.Put(bufs)
	bufs.a = grow(bufs.a, rp*mr*kc0)
	bufs.b = grow(bufs.b, cp*nr*kc0)
	st := gemmStep{ta: ta, tb: tb, a: a, b: b, c: c, lda: lda, ldb: ldb, ldc: ldc, m: m, n: n,
		mr: mr, nr: nr, mt: mt, nt: nt, ct: ct, alpha: alpha, beta: beta, tri: tri,
		pa: ceilDiv(m, mt), pb: ceilDiv(n, nt)}
	// The tiles of c, skipping those strictly below the diagonal for
	// tri = upper. Serially they are visited in place; in parallel they
	// are listed (the only allocations of a product: the serial path
	// allocates nothing after the pool is warm).
	if w > 1 {
		for i := range rt {
			for j := range ct {
				if !st.skip(i, j) {
					st.tasks = append(st.tasks, int32(i*ct+j))
				}
			}
		}
	}
	// Packing tasks: row panels of a in groups of mt rows, column panels of
	// b in groups of nt columns.
	for p0 := 0; p0 < k; p0 += gemmKC {
		st.p0, st.kc = p0, min(gemmKC, k-p0)
		st.ap, st.bp = bufs.a[:rp*mr*st.kc], bufs.b[:cp*nr*st.kc]
		if w == 1 {
			for t := range st.pa + st.pb {
				st.pack(t)
			}
			for i := range rt {
				for j := range ct {
					if !st.skip(i, j) {
						st.tile(i, j)
					}
				}
			}
			continue
		}
		parallelFor(st.pa+st.pb, w, st.pack)
		parallelFor(len(st.tasks), w, st.tileTask)
	}
}

// gemmStep is one block of k of a product: the packed blocks ap, bp of
// op(a) and op(b) for k in [p0, p0+kc), and what packing and the tiles
// need. Its methods have value receivers, so that only the parallel path
// (which takes method values) copies it to the heap.
type gemmStep struct {
	ta, tb         bool
	a, b, c        []float64
	lda, ldb, ldc  int
	m, n           int
	mr, nr, mt, nt int
	ct, pa, pb     int
	alpha, beta    float64
	tri            triangle
	ap, bp         []float64
	p0, kc         int
	tasks          []int32
}

// skip reports whether tile (i, j) lies strictly below the diagonal of an
// upper-triangle product.
func (s gemmStep) skip(i, j int) bool {
	return s.tri == upper && min((j+1)*s.nt, s.n)-1 < i*s.mt
}

// pack packs row group t of a (t < pa) or column group t − pa of b.
func (s gemmStep) pack(t int) {
	if t < s.pa {
		r0 := t * s.mt
		packA(s.ap[r0*s.kc:], s.a, s.lda, s.ta, r0, min(s.mt, s.m-r0), s.p0, s.kc, s.mr, s.alpha)
		return
	}
	c0 := (t - s.pa) * s.nt
	packB(s.bp[c0*s.kc:], s.b, s.ldb, s.tb, s.p0, s.kc, c0, min(s.nt, s.n-c0), s.nr)
}

// tileTask computes the tile of listed task t.
func (s gemmStep) tileTask(t int) { s.tile(int(s.tasks[t])/s.ct, int(s.tasks[t])%s.ct) }

// tile scales (in the first block of k) and accumulates tile (i, j) of c.
func (s gemmStep) tile(i, j int) {
	r0, c0 := i*s.mt, j*s.nt
	r1, c1 := min(r0+s.mt, s.m), min(c0+s.nt, s.n)
	if s.p0 == 0 {
		if s.tri == upper {
			for r := r0; r < r1; r++ {
				scaleRegion(s.c, s.ldc, r, r+1, max(c0, r-r%s.mr), c1, s.beta)
			}
		} else {
			scaleRegion(s.c, s.ldc, r0, r1, c0, c1, s.beta)
		}
	}
	gemmTile(s.ap, s.bp, s.kc, s.mr, s.nr, r0, r1, c0, c1, s.c, s.ldc, s.tri)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// scaleRegion sets c[i][j] = beta·c[i][j] for r0 ≤ i < r1, c0 ≤ j < c1 (0
// when beta is 0, without reading c).
func scaleRegion(c []float64, ldc, r0, r1, c0, c1 int, beta float64) {
	if beta == 1 || c0 >= c1 {
		return
	}
	for i := r0; i < r1; i++ {
		row := c[i*ldc+c0 : i*ldc+c1]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// gemmTile adds the packed blocks' product to rows r0…r1−1 and columns
// c0…c1−1 of c (r0 a multiple of mr, c0 of nr): a row panel of a stays in
// L1 while it sweeps the tile's columns, whose panels of b stay in L2.
func gemmTile(ap, bp []float64, kc, mr, nr, r0, r1, c0, c1 int, c []float64, ldc int, tri triangle) {
	for i0 := r0; i0 < r1; i0 += mr {
		apan := ap[i0*kc : i0*kc+mr*kc]
		for j0 := c0; j0 < c1; j0 += nr {
			if tri == upper && j0+nr-1 < i0 {
				continue
			}
			bpan := bp[j0*kc : j0*kc+nr*kc]
			if i0+mr <= r1 && j0+nr <= c1 {
				f64.GemmKernel(kc, apan, bpan, c[i0*ldc+j0:], ldc)
				continue
			}
			// An edge tile goes through a full-size copy.
			var buf [gemmMaxTile]float64
			tile := buf[:mr*nr]
			h, wd := min(mr, r1-i0), min(nr, c1-j0)
			for i := range h {
				copy(tile[i*nr:i*nr+wd], c[(i0+i)*ldc+j0:(i0+i)*ldc+j0+wd])
			}
			f64.GemmKernel(kc, apan, bpan, tile, nr)
			for i := range h {
				copy(c[(i0+i)*ldc+j0:(i0+i)*ldc+j0+wd], tile[i*nr:i*nr+wd])
			}
		}
	}
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// packA writes alpha·op(a)[r0+i][p0+p] for i < rows, p < kc into dst in
// panels of mr rows: dst[(q·kc+p)·mr+i'] for row q·mr+i', zero-padded.
// With ta the panels are runs of the source rows (f64.PackPanels);
// without, mr rows are gathered side by side.
func packA(dst, a []float64, lda int, ta bool, r0, rows, p0, kc, mr int, alpha float64) {
	q0 := 0
	if ta {
		q0 = rows / mr
		f64.PackPanels(dst, a[p0*lda+r0:], lda, kc, mr, q0, alpha)
	}
	for q := q0; q*mr < rows; q++ {
		panel := dst[q*mr*kc : (q+1)*mr*kc]
		h := min(mr, rows-q*mr)
		rq := r0 + q*mr
		if ta {
			for p := range kc {
				off := (p0+p)*lda + rq
				d := panel[p*mr : p*mr+mr]
				for i := range h {
					d[i] = alpha * a[off+i]
				}
				clear(d[h:])
			}
			continue
		}
		for i := range h {
			src := a[(rq+i)*lda+p0 : (rq+i)*lda+p0+kc]
			for p, v := range src {
				panel[p*mr+i] = alpha * v
			}
		}
		for i := h; i < mr; i++ {
			for p := range kc {
				panel[p*mr+i] = 0
			}
		}
	}
}

// packB writes op(b)[p0+p][c0+j] for p < kc, j < cols into dst in panels of
// nr columns: dst[(q·kc+p)·nr+j'] for column q·nr+j', zero-padded.
func packB(dst, b []float64, ldb int, tb bool, p0, kc, c0, cols, nr int) {
	q0 := 0
	if !tb {
		q0 = cols / nr
		f64.PackPanels(dst, b[p0*ldb+c0:], ldb, kc, nr, q0, 1)
	}
	for q := q0; q*nr < cols; q++ {
		panel := dst[q*nr*kc : (q+1)*nr*kc]
		wd := min(nr, cols-q*nr)
		j0 := c0 + q*nr
		if !tb {
			for p := range kc {
				off := (p0+p)*ldb + j0
				d := panel[p*nr : p*nr+nr]
				copy(d, b[off:off+wd])
				clear(d[wd:])
			}
			continue
		}
		for j := range wd {
			src := b[(j0+j)*ldb+p0 : (j0+j)*ldb+p0+kc]
			for p, v := range src {
				panel[p*nr+j] = v
			}
		}
		for p := range kc {
			clear(panel[p*nr+wd : p*nr+nr])
		}
	}
}

// Gemm computes c = beta·c + alpha·op(a)·op(b) for row-major matrices:
// op(a) is m×k (a with row stride lda, or aᵀ when ta), op(b) k×n (likewise
// with tb), c m×n with row stride ldc. Each entry of c is one chain of
// fused multiply-adds, s = beta·c[i][j] (0 when beta is 0, without reading
// c; c[i][j] when beta is 1), then s = fma(alpha·op(a)[i][p], op(b)[p][j], s)
// for p = 0…k−1, so the bits depend neither on workers (the goroutine
// bound, 0 meaning GOMAXPROCS) nor on the SIMD path. Operands in the
// layouts ta and !tb pack fastest. c must not overlap a or b; wrong sizes
// panic.
func Gemm(ta, tb bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int, workers int) {
	ar, ac := m, k
	if ta {
		ar, ac = k, m
	}
	br, bc := k, n
	if tb {
		br, bc = n, k
	}
	bad := m < 0 || n < 0 || k < 0 || lda < max(ac, 1) || ldb < max(bc, 1) || ldc < max(n, 1) ||
		(ar > 0 && ac > 0 && len(a) < (ar-1)*lda+ac) ||
		(br > 0 && bc > 0 && len(b) < (br-1)*ldb+bc) ||
		(m > 0 && n > 0 && len(c) < (m-1)*ldc+n)
	if bad {
		panic(fmt.Sprintf("eigsym: Gemm: m, n, k = %d, %d, %d, lda, ldb, ldc = %d, %d, %d, len(a), len(b), len(c) = %d, %d, %d", m, n, k, lda, ldb, ldc, len(a), len(b), len(c)))
	}
	gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, full, numWorkers(workers))
}
