package kernel

import (
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// evaluator computes k(x, y) for prepared points. The left argument is
// prepared once per call for all rows (prepX, xLen floats per point); the
// right one per column (prepY, yLen floats, e.g. a whole orbit), into
// per-worker scratch. column must compute every entry independently of the
// others and of n, so that results do not depend on tiling or workers.
type evaluator interface {
	xLen() int
	yLen() int
	prepX(dst, x []float64)
	prepY(dst, y []float64)
	// column writes k(x_i, y) to out[i*stride] for the n prepared rows px.
	column(out []float64, stride int, px []float64, n int, py []float64)
}

// rowEvaluator is an evaluator that also writes contiguous rows: its
// right-hand points can be prepared like the left ones (the first xLen
// floats of prepY(y) are prepX(y); the rest, if any, is scratch), so a
// run of pairs k(x, y_j), j < m, reads one buffer of points prepared by
// prepX and writes m consecutive floats. row must give exactly the bits of
// column for every pair. Gram and cross assembly use it for cheap per-pair
// work (closed forms), where column's strided writes and per-column
// preparation dominate.
type rowEvaluator interface {
	evaluator
	// rowLen is the per-worker scratch length of row.
	rowLen() int
	// row writes k(x, y_j) to out[j], j < m, for prepared x (px, xLen
	// floats) and the m points py prepared by prepX (xLen floats each).
	row(out, px, py []float64, m int, scratch []float64)
}

// rowDiagEvaluator is a rowEvaluator whose row can also give k(x, x)
// in the same pass (Avg.CrossDiagPreparedTo): a GP predicting at one
// point needs the row against its points and the prior variance.
type rowDiagEvaluator interface {
	rowEvaluator
	// rowDiag is row that also writes k(x, x) to *diag, with the bits
	// of pairValue(x, x) (DiagTo's), for px prepared from x by prepX.
	rowDiag(out, px, py []float64, m int, diag *float64, scratch []float64)
}

// diagRows returns ev as a rowDiagEvaluator when it is one whose rowDiag
// applies (an embedded group's, when its inner evaluator's does).
func diagRows(ev evaluator) (rowDiagEvaluator, bool) {
	switch e := ev.(type) {
	case *embedRowEval:
		_, ok := e.rin.(rowDiagEvaluator)
		return e, ok
	case rowDiagEvaluator:
		return e, true
	}
	return nil, false
}

// gradFunc writes ∇ₓk(x, y) into dst (length d) using scratch.
//
// A batch of calls for one x (gradRows, Avg.GradTo) hands each worker
// scratch that is zeroed first and that nothing else writes to during
// the batch, so a gradient may cache what depends on x alone in it,
// under a key it writes itself (the scaling groups' series keeps x's
// moments): a zeroed key matches no x. Pooled scratch is otherwise
// arbitrary — a key left by an earlier batch may still match while
// what it describes was overwritten since.
type gradFunc func(dst, x, y, scratch []float64)

// checkPoints validates user data: non-empty, d columns, finite.
// ErrBadPoints reports points a kernel cannot evaluate: empty, of the
// wrong dimension, with a NaN or infinite coordinate, or a coordinate so
// large that x/ℓ overflows.
var ErrBadPoints = errclass.New(errclass.Input, "kernel: invalid points")

// coordLimit is the largest |x_k| whose x_k/ℓ is finite.
func coordLimit(l float64) float64 { return math.MaxFloat64 * min(l, 1) }

func checkPoints(name string, x *mat.Dense, d int, l float64) (int, error) {
	if x == nil || x.IsEmpty() {
		return 0, fmt.Errorf("%w: %s is empty", ErrBadPoints, name)
	}
	n, c := x.Dims()
	if c != d {
		return 0, fmt.Errorf("%w: %s has %d columns, want d = %d", ErrBadPoints, name, c, d)
	}
	raw := x.RawMatrix()
	lim := coordLimit(l)
	for i := range n {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			if !(math.Abs(v) <= lim) {
				return 0, badCoord(name+fmt.Sprintf("[%d,%d]", i, j), v, l)
			}
		}
	}
	return n, nil
}

func badCoord(what string, v, l float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%w: %s is %v", ErrBadPoints, what, v)
	}
	return fmt.Errorf("%w: %s = %v is too large for lengthscale %v (x/ℓ overflows)", ErrBadPoints, what, v, l)
}

func checkVec(name string, x []float64, d int, l float64) error {
	if len(x) != d {
		return fmt.Errorf("%w: %s has length %d, want d = %d", ErrBadPoints, name, len(x), d)
	}
	lim := coordLimit(l)
	for j, v := range x {
		if !(math.Abs(v) <= lim) {
			return badCoord(name+fmt.Sprintf("[%d]", j), v, l)
		}
	}
	return nil
}

func row(x *mat.Dense, i int) []float64 {
	raw := x.RawMatrix()
	return raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
}

// ErrNilArgument reports a nil dst (or eig, for ProjectTo) where the
// methods write their results: an input error, the caller's to fix.
var ErrNilArgument = errclass.New(errclass.Input, "kernel: nil argument")

// ErrDstShape reports a non-empty dst whose shape (or length) is not the
// result's: an input error (an empty dst is resized instead).
var ErrDstShape = errclass.New(errclass.Input, "kernel: dst has the wrong shape")

// checkDst refuses a nil dst (ErrNilArgument) and a non-empty one that is
// not rows×cols (ErrDstShape); an empty one is resized by the caller.
// O(1).
func checkDst(dst *mat.Dense, rows, cols int) error {
	if dst == nil {
		return fmt.Errorf("%w: dst is a nil *mat.Dense", ErrNilArgument)
	}
	if !dst.IsEmpty() {
		if r, c := dst.Dims(); r != rows || c != cols {
			return fmt.Errorf("%w: dst is %d×%d, want %d×%d", ErrDstShape, r, c, rows, cols)
		}
	}
	return nil
}

// checkSymDst is checkDst for an n×n symmetric dst.
func checkSymDst(dst *mat.SymDense, n int) error {
	if dst == nil {
		return fmt.Errorf("%w: dst is a nil *mat.SymDense", ErrNilArgument)
	}
	if !dst.IsEmpty() {
		if nn := dst.SymmetricDim(); nn != n {
			return fmt.Errorf("%w: dst is %d×%d, want %d×%d", ErrDstShape, nn, nn, n, n)
		}
	}
	return nil
}

// checkVecDst refuses a dst of length other than n (ErrDstShape); a nil
// one is allocated by the caller. O(1).
func checkVecDst(dst []float64, n int) error {
	if dst != nil && len(dst) != n {
		return fmt.Errorf("%w: dst has length %d, want %d", ErrDstShape, len(dst), n)
	}
	return nil
}

// checkOut is checkDst, then refuses, before anything is allocated, an
// empty dst that would be resized to rows×cols beyond the kernel's memory
// budget l.
func checkOut(l budget.Limit, dst *mat.Dense, rows, cols int) error {
	if err := checkDst(dst, rows, cols); err != nil || !dst.IsEmpty() {
		return err
	}
	return l.Check(fmt.Sprintf("a %d×%d kernel matrix", rows, cols), 8*float64(rows)*float64(cols))
}

// checkOutSym is checkOut for an n×n symmetric dst.
func checkOutSym(l budget.Limit, dst *mat.SymDense, n int) error {
	if err := checkSymDst(dst, n); err != nil || !dst.IsEmpty() {
		return err
	}
	return l.Check(fmt.Sprintf("a %d×%d kernel matrix", n, n), 8*float64(n)*float64(n))
}

// resizeDense, resizeSym and resizeVec resize an empty dst; their panics
// are assertions: every exported entry point refuses a nil or mis-shaped
// dst first (checkDst, checkSymDst, checkVecDst).
func resizeDense(dst *mat.Dense, r, c int) {
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return
	}
	if rr, cc := dst.Dims(); rr != r || cc != c {
		panic(fmt.Sprintf("kernel: dst is %d×%d, want %d×%d", rr, cc, r, c))
	}
}

func resizeSym(dst *mat.SymDense, n int) {
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
		return
	}
	if nn := dst.SymmetricDim(); nn != n {
		panic(fmt.Sprintf("kernel: dst is %d×%d, want %d×%d", nn, nn, n, n))
	}
}

func resizeVec(dst []float64, n int) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("kernel: dst has length %d, want %d", len(dst), n))
	}
	return dst
}

// Scratch. Internal buffers (prepared points, per-worker orbits) come from
// size-classed sync.Pools (class c holds buffers of 2^c float64s), so
// that after warm-up assembly allocates nothing. They never reach callers.
var scratchPools [64]sync.Pool

// getScratch returns a buffer of length n (contents arbitrary) and the
// handle to give back to putScratch. A new buffer has 2^c floats, the
// next power of two, up to exactScratch floats, and exactly n above (a
// large orbit buffer is not doubled past the memory budget it was
// checked against).
func getScratch(n int) (*[]float64, []float64) {
	c := bits.Len(uint(max(n, 1) - 1))
	b, ok := scratchPools[c].Get().(*[]float64)
	if !ok {
		size := 1 << c
		if n > exactScratch {
			size = n
		}
		s := make([]float64, size)
		b = &s
	}
	return b, (*b)[:n]
}

// exactScratch is the length (floats) above which getScratch allocates
// exactly what is asked: 8 MiB.
const exactScratch = 1 << 20

// putScratch gives b back to the pool of class ⌊log₂ cap⌋, which serves
// requests of at most 2^class ≤ cap floats.
func putScratch(b *[]float64) { scratchPools[bits.Len(uint(cap(*b)))-1].Put(b) }

// serialWork is the estimated work (pairs × prepared-y length, roughly
// flops) below which assembly runs on the calling goroutine: starting and
// joining workers costs a few microseconds and allocates. Measured on the
// 2-core CI machine: a single point against 55 rows (base, closed max,
// small enumerations) stays well below it and gains nothing from workers.
const serialWork = 1 << 16

// assemblyWorkers is the number of workers for tasks of the given total
// work: 1 below serialWork, else parallel.Workers(workers, tasks).
func assemblyWorkers(workers, tasks int, work float64) int {
	if work < parallel.SerialThreshold(serialWork) {
		return 1
	}
	return parallel.Workers(workers, tasks)
}

// prepAll prepares every row of x into px (length n·xLen).
func prepAll(px []float64, ev evaluator, x *mat.Dense, n int) {
	xl := ev.xLen()
	for i := range n {
		ev.prepX(px[i*xl:(i+1)*xl], row(x, i))
	}
}

// crossTile is the number of columns of one CrossTo task of a row
// evaluator: a constant, so the split does not depend on the workers.
const crossTile = 256

// crossRowJob fills tiles of rows of dst: task t is row t/nb, columns
// crossTile·(t mod nb) … (one tile).
type crossRowJob struct {
	ev         rowEvaluator
	px, py     []float64
	scr        []float64
	xl, sl, nb int
	m          int
	out        []float64
	stride     int
}

func (c *crossRowJob) tile(k, t int) {
	i, j0 := t/c.nb, (t%c.nb)*crossTile
	j1 := min(j0+crossTile, c.m)
	o := c.out[i*c.stride+j0 : i*c.stride+j1]
	c.ev.row(o, c.px[i*c.xl:(i+1)*c.xl], c.py[j0*c.xl:j1*c.xl], j1-j0, c.scr[k*c.sl:(k+1)*c.sl])
}

func crossRowPar(c crossRowJob, tasks, w int) { parallel.For(tasks, w, c.tile) }

// crossRows is crossTo for a row evaluator on w workers: x and y are
// prepared once, and each task writes one contiguous tile of a row of dst.
func crossRows(ev rowEvaluator, w int, dst *mat.Dense, x, y *mat.Dense, n, m int) {
	hp, py := getScratch(m * ev.xLen())
	prepAll(py, ev, y, m)
	crossRowsPrepared(ev, w, dst, x, py, n, m)
	putScratch(hp)
}

// crossRowsPrepared is crossRows with y's m points prepared already (py).
func crossRowsPrepared(ev rowEvaluator, w int, dst *mat.Dense, x *mat.Dense, py []float64, n, m int) {
	xl, sl := ev.xLen(), ev.rowLen()
	nb := (m + crossTile - 1) / crossTile
	hp, px := getScratch(n * xl)
	hs, scr := getScratch(w * sl)
	prepAll(px[:n*xl], ev, x, n)
	raw := dst.RawMatrix()
	c := crossRowJob{ev: ev, px: px, py: py, scr: scr, xl: xl, sl: sl, nb: nb, m: m, out: raw.Data, stride: raw.Stride}
	if w == 1 {
		for t := range n * nb {
			c.tile(0, t)
		}
	} else {
		crossRowPar(c, n*nb, w)
	}
	putScratch(hs)
	putScratch(hp)
}

// crossJob fills columns of dst: column j is k(x_·, y_j).
type crossJob struct {
	ev        evaluator
	px, scr   []float64
	yl, sl, n int // sl: a task's scratch, yl (+ xLen with diag)
	y         *mat.Dense
	out       []float64
	// Task j writes out[j·step + i·stride], i < n.
	step, stride int
	// diag, when set, gets k(y_j, y_j) from y_j's prepared form, the bits
	// of pairValue (prepX and prepY of y_j, then column).
	diag []float64
}

func (c *crossJob) column(k, j int) {
	s := c.scr[k*c.sl : (k+1)*c.sl]
	py := s[:c.yl]
	yj := row(c.y, j)
	c.ev.prepY(py, yj)
	c.ev.column(c.out[j*c.step:], c.stride, c.px, c.n, py)
	if c.diag != nil {
		px := s[c.yl:]
		c.ev.prepX(px, yj)
		c.ev.column(c.diag[j:], 1, px, 1, py)
	}
}

// crossPar runs c on w workers. c is passed by value so that only this
// copy escapes to the heap (the serial path allocates nothing).
func crossPar(c crossJob, m, w int) { parallel.For(m, w, c.column) }

// crossPrepared writes k(x_i, y_j) to out[j·step + i·stride] for i < n,
// j < m: the n rows of x prepared once, one task per row of y (prepared
// in the task's scratch). crossTo calls it with step 1 and the stride of
// dst (a task per column of dst); crossToT with the roles of x and y
// swapped (a task per row of dst), which an enumeration's symmetry allows.
func crossPrepared(ev evaluator, workers int, out []float64, step, stride int, x, y *mat.Dense, n, m int) {
	crossPreparedDiag(ev, workers, out, step, stride, x, y, n, m, nil)
}

// crossPreparedDiag is crossPrepared that also writes k(y_j, y_j) into
// diag[j] (j < m) when diag is not nil, from the preparation of y_j the
// task made for its column: DiagTo's bits (pairValue) at the cost of a
// column of length one.
func crossPreparedDiag(ev evaluator, workers int, out []float64, step, stride int, x, y *mat.Dense, n, m int, diag []float64) {
	yl := ev.yLen()
	sl := yl
	if diag != nil {
		sl += ev.xLen()
	}
	w := assemblyWorkers(workers, m, float64(n)*float64(m)*float64(yl))
	hp, px := getScratch(n * ev.xLen())
	hs, scr := getScratch(w * sl)
	prepAll(px, ev, x, n)
	c := crossJob{ev: ev, px: px, scr: scr, yl: yl, sl: sl, n: n, y: y, out: out, step: step, stride: stride, diag: diag}
	if w == 1 {
		for j := range m {
			c.column(0, j)
		}
	} else {
		crossPar(c, m, w)
	}
	putScratch(hs)
	putScratch(hp)
}

// crossTo fills dst (n×m) with k(x_i, y_j): one task per column of dst.
// An enumeration with fewer rows than columns enumerates the orbits of
// the rows instead (crossToT).
func crossTo(ev evaluator, workers int, dst *mat.Dense, x, y *mat.Dense, n, m int) {
	if te, ok := ev.(*enumEval); ok && n < m {
		crossToT(te, workers, dst, x, y, n, m)
		return
	}
	resizeDense(dst, n, m)
	if re, ok := ev.(rowEvaluator); ok {
		nb := (m + crossTile - 1) / crossTile
		w := assemblyWorkers(workers, n*nb, float64(n)*float64(m)*float64(ev.yLen()))
		crossRows(re, w, dst, x, y, n, m)
		return
	}
	raw := dst.RawMatrix()
	crossPrepared(ev, workers, raw.Data, 1, raw.Stride, x, y, n, m)
}

// gramJob fills column j of the upper triangle and the diagonal entry
// (j, j), which is diagV if diagIsV, else pairValue(x_j, x_j).
type gramJob struct {
	ev      evaluator
	px, scr []float64
	sl, n   int
	x       *mat.Dense
	out     []float64
	stride  int
	diagV   float64
	diagIsV bool
}

func (g *gramJob) column(k, t int) {
	j := g.n - 1 - t
	s := g.scr[k*g.sl : (k+1)*g.sl]
	py := s[:g.ev.yLen()]
	xj := row(g.x, j)
	g.ev.prepY(py, xj)
	g.ev.column(g.out[j:], g.stride, g.px, j, py)
	if g.diagIsV {
		g.out[j*g.stride+j] = g.diagV
	} else {
		// pairValue(x_j, x_j)'s bits from the preparations at hand: x_j's
		// prepX (row j of px) against the prepY above.
		xl := g.ev.xLen()
		g.ev.column(g.out[j*g.stride+j:], 1, g.px[j*xl:(j+1)*xl], 1, py)
	}
}

func gramPar(g gramJob, n, w int) { parallel.For(n, w, g.column) }

// gramRowJob fills row i of the upper triangle: k(x_i, x_j) for j > i
// (contiguous in dst) and the diagonal entry, diagV if diagIsV, else
// k(x_i, x_i) as the first pair of the same row call (by the row
// contract, the bits of pairValue and so of DiagTo).
type gramRowJob struct {
	ev      rowEvaluator
	px, scr []float64
	xl, sl  int
	n       int
	x       *mat.Dense
	out     []float64
	stride  int
	diagV   float64
	diagIsV bool
}

func (g *gramRowJob) row(k, i int) {
	s := g.scr[k*g.sl : (k+1)*g.sl]
	o := g.out[i*g.stride : i*g.stride+g.n]
	px := g.px[i*g.xl : (i+1)*g.xl]
	if !g.diagIsV {
		// The diagonal pair leads the row: row gives pairValue's bits.
		g.ev.row(o[i:], px, g.px[i*g.xl:g.n*g.xl], g.n-i, s)
		return
	}
	if i+1 < g.n {
		g.ev.row(o[i+1:], px, g.px[(i+1)*g.xl:g.n*g.xl], g.n-1-i, s)
	}
	o[i] = g.diagV
}

func gramRowPar(g gramRowJob, n, w int) { parallel.For(n, w, g.row) }

// triEvaluator is a row evaluator that fills whole blocks of rows of the
// upper triangle with the diagonal (k(x_i, x_j), i0 ≤ i < i1, j ≥ i, into
// out[i·stride+j], for n points prepared by prepX) with scratch of rowLen
// floats, streaming the pairs across row boundaries. Every entry must
// have the bits of row (hence of column and pairValue).
type triEvaluator interface {
	rowEvaluator
	tri(out []float64, stride int, px []float64, n, i0, i1 int, scratch []float64)
}

// triPairs is the target number of pairs of one task of gramTri (a
// constant, so the split does not depend on the workers).
const triPairs = 512

// gramTriJob fills blocks of rows of the upper triangle: block t holds
// the rows i with t·per ≤ pairs before row i < (t+1)·per.
type gramTriJob struct {
	ev     triEvaluator
	px     []float64
	scr    []float64
	sl, n  int
	per    int
	out    []float64
	stride int
}

// start is the first row of block t.
func (g *gramTriJob) start(t int) int {
	i, before := 0, 0
	for i < g.n && before < t*g.per {
		before += g.n - i
		i++
	}
	return i
}

func (g *gramTriJob) block(k, t int) {
	g.ev.tri(g.out, g.stride, g.px, g.n, g.start(t), g.start(t+1), g.scr[k*g.sl:(k+1)*g.sl])
}

func gramTriPar(g gramTriJob, tasks, w int) { parallel.For(tasks, w, g.block) }

// triSerialPairs is the number of pairs (n(n+1)/2; 2048 is n ≈ 63)
// below which gramTo runs a triangle evaluator on one worker whatever
// the work estimate: for so few pairs, handing blocks to a second worker
// costs more than it saves; for a few times as many, two workers win.
// The crossover is BenchmarkGramTri's (hyperoctahedral(5) k_avg):
// docs/performance.md, "Serial Gram triangles".
const triSerialPairs = 2048

// triTasks is the number of gramTri blocks for n points.
func triTasks(n int) int { return (n*(n+1)/2 + triPairs - 1) / triPairs }

// gramTri is gramTo for a triangle evaluator (diagonal not constant) on w
// workers: one stream of pairs on one worker, else triTasks(n) blocks of
// about triPairs pairs.
func gramTri(ev triEvaluator, w int, dst *mat.SymDense, x *mat.Dense, n int) {
	xl, sl := ev.xLen(), ev.rowLen()
	total := n * (n + 1) / 2
	tasks := triTasks(n)
	hp, px := getScratch(n * xl)
	hs, scr := getScratch(w * sl)
	prepAll(px, ev, x, n)
	raw := dst.RawSymmetric()
	if w == 1 {
		ev.tri(raw.Data, raw.Stride, px, n, 0, n, scr)
	} else {
		g := gramTriJob{ev: ev, px: px, scr: scr, sl: sl, n: n, per: (total + tasks - 1) / tasks, out: raw.Data, stride: raw.Stride}
		gramTriPar(g, tasks, w)
	}
	putScratch(hs)
	putScratch(hp)
}

// gramRows is gramTo for a row evaluator on w workers: one task per row of
// the upper triangle, longest first.
func gramRows(ev rowEvaluator, w int, dst *mat.SymDense, x *mat.Dense, n int, diagV float64, diagIsV bool) {
	xl := ev.xLen()
	sl := max(ev.rowLen(), pairLen(ev))
	hp, px := getScratch(n * xl)
	hs, scr := getScratch(w * sl)
	prepAll(px, ev, x, n)
	raw := dst.RawSymmetric()
	g := gramRowJob{ev: ev, px: px, scr: scr, xl: xl, sl: sl, n: n, x: x, out: raw.Data, stride: raw.Stride, diagV: diagV, diagIsV: diagIsV}
	if w == 1 {
		for i := range n {
			g.row(0, i)
		}
	} else {
		gramRowPar(g, n, w)
	}
	putScratch(hs)
	putScratch(hp)
}

// gramTo fills the upper triangle of dst (n×n) with k(x_i, x_j), i < j,
// and the diagonal with diagV (if diagIsV) or the pair value k(x_j, x_j)
// computed exactly as DiagTo does. Columns are claimed longest first.
func gramTo(ev evaluator, workers int, dst *mat.SymDense, x *mat.Dense, n int, diagV float64, diagIsV bool) {
	resizeSym(dst, n)
	sl := max(ev.yLen(), pairLen(ev))
	w := assemblyWorkers(workers, n, float64(n)*float64(n+1)/2*float64(sl))
	if te, ok := ev.(triEvaluator); ok && !diagIsV {
		tw := 1
		if n*(n+1)/2 >= triSerialPairs {
			tw = assemblyWorkers(workers, triTasks(n), float64(n)*float64(n+1)/2*float64(sl))
		}
		gramTri(te, tw, dst, x, n)
		return
	}
	if re, ok := ev.(rowEvaluator); ok {
		gramRows(re, w, dst, x, n, diagV, diagIsV)
		return
	}
	hp, px := getScratch(n * ev.xLen())
	hs, scr := getScratch(w * sl)
	prepAll(px, ev, x, n)
	raw := dst.RawSymmetric()
	g := gramJob{ev: ev, px: px, scr: scr, sl: sl, n: n, x: x, out: raw.Data, stride: raw.Stride, diagV: diagV, diagIsV: diagIsV}
	if w == 1 {
		for t := range n {
			g.column(0, t)
		}
	} else {
		gramPar(g, n, w)
	}
	putScratch(hs)
	putScratch(hp)
}

// gradAuxFunc writes ∇ₓk(x, y) into dst (length d) using scratch, given
// auxWidth values for the pair that a row pass computed beforehand
// (gradAuxTo).
type gradAuxFunc func(dst, x, y []float64, aux [auxWidth]float64, scratch []float64)

// auxWidth is the number of values gradPreFunc computes per pair.
const auxWidth = 2

// gradPreFunc writes the values gradAuxFunc takes for the pair (x, y_j),
// j < m, to out[j], out[m+j], …, out[(auxWidth−1)·m+j], using scratch; py, when
// not nil, holds the rows of y as the evaluator's prepX prepared them (a
// Prepared's), which it may read instead of preparing y again (the same
// values).
type gradPreFunc func(out, x []float64, y *mat.Dense, py []float64, m int, scratch []float64)

// gradJob fills row j of dst with ∇ₓk(x, y_j): by f, by fa given pair
// j's auxWidth values in aux (gradPreFunc's layout),
// or by eo.gradOrbit given y_j's orbit in orbs (|G|·d floats a row) and
// the same packed in porbs (f64.PackedLen(|G|, d) a row).
type gradJob struct {
	f           gradFunc
	fa          gradAuxFunc
	eo          *enumEval
	aux         []float64
	orbs, porbs []float64
	sl          int
	scr, x      []float64
	dst, y      *mat.Dense
}

func (g *gradJob) row(k, j int) {
	if e := g.eo; e != nil {
		ol, pl := e.G*e.d, f64.PackedLen(e.G, e.d)
		e.gradOrbit(row(g.dst, j), g.x, g.orbs[j*ol:(j+1)*ol], g.porbs[j*pl:(j+1)*pl], g.scr[k*g.sl:(k+1)*g.sl])
		return
	}
	if g.fa != nil {
		g.fa(row(g.dst, j), g.x, row(g.y, j), [auxWidth]float64{g.aux[j], g.aux[len(g.aux)/auxWidth+j]}, g.scr[k*g.sl:(k+1)*g.sl])
		return
	}
	g.f(row(g.dst, j), g.x, row(g.y, j), g.scr[k*g.sl:(k+1)*g.sl])
}

func gradPar(g gradJob, m, w int) { parallel.For(m, w, g.row) }

// gradTo fills row j of dst (m×d) with ∇ₓk(x, y_j): one task per row.
func gradTo(f gradFunc, scratchLen, work, workers int, dst *mat.Dense, x []float64, y *mat.Dense, m, d int) {
	resizeDense(dst, m, d)
	gradRows(gradJob{f: f, sl: scratchLen, x: x, dst: dst, y: y}, work, workers, m, d)
}

// gradAuxTo is gradTo for a gradient that takes values per pair: pre
// (scratch preLen) computes them for the m pairs in one pass, on the calling
// goroutine, before the rows are shared among the workers; py is y's
// prepared rows or nil (gradPreFunc).
func gradAuxTo(pre gradPreFunc, preLen int, f gradAuxFunc, scratchLen, work, workers int, dst *mat.Dense, x []float64, y *mat.Dense, py []float64, m, d int) {
	resizeDense(dst, m, d)
	na := auxWidth * m
	ha, aux := getScratch(na + preLen)
	pre(aux[:na], x, y, py, m, aux[na:])
	gradRows(gradJob{fa: f, aux: aux[:na], sl: scratchLen, x: x, dst: dst, y: y}, work, workers, m, d)
	putScratch(ha)
}

// gradRows runs g's m rows, on workers as their work (per row, in
// serialWork's units) warrants, with g.sl floats of scratch each.
func gradRows(g gradJob, work, workers, m, d int) {
	w := assemblyWorkers(workers, m, float64(m)*float64(max(work, 4*d)))
	hs, scr := getScratch(w * g.sl)
	clear(scr) // no cache key of an earlier batch (gradFunc)
	g.scr = scr
	if w == 1 {
		for j := range m {
			g.row(0, j)
		}
	} else {
		gradPar(g, m, w)
	}
	putScratch(hs)
}

// pairValue evaluates k(x, y) for one pair with scratch of length
// pairLen(ev).
func pairValue(ev evaluator, x, y, scratch []float64) float64 {
	xl, yl := ev.xLen(), ev.yLen()
	px, py, out := scratch[:xl], scratch[xl:xl+yl], scratch[xl+yl:xl+yl+1]
	ev.prepX(px, x)
	ev.prepY(py, y)
	ev.column(out, 1, px, 1, py)
	return out[0]
}

func pairLen(ev evaluator) int { return ev.xLen() + ev.yLen() + 1 }

// fdStep is the central-difference step of coordinate value xk for a
// kernel of lengthscale ell: ε^{1/3}·max(|xk|, ell), which balances the
// truncation error O(h²/ℓ²) against the rounding error O(ε/h).
func fdStep(xk, ell float64) float64 {
	return 6.0554544523933395e-06 * math.Max(math.Abs(xk), ell)
}

// fdPoints returns the two points of the central difference at xk,
// xk ± fdStep(xk, ell) as rounded, and the width between them as the
// difference quotient divides by it (the steps actually taken, hp + hm):
// fdGrad's and Grad's.
func fdPoints(xk, ell float64) (plus, minus, width float64) {
	h := fdStep(xk, ell)
	plus, minus = xk+h, xk-h
	return plus, minus, (plus - xk) + (xk - minus)
}

// fdGrad returns a gradFunc by central differences of pairValue with step
// h = ε^{1/3}·max(|x_k|, ℓ) (relative error ≈ 1e-10 for smooth κ). Used
// where no analytic gradient exists (non-isometric continuous groups and
// finite groups too large to enumerate).
func fdGrad(ev evaluator, ell float64, d int) (gradFunc, int) {
	pl := pairLen(ev)
	f := func(dst, x, y, scratch []float64) {
		xp := scratch[pl : pl+len(x)]
		copy(xp, x)
		for k := range x {
			plus, minus, width := fdPoints(x[k], ell)
			xp[k] = plus
			fp := pairValue(ev, xp, y, scratch)
			xp[k] = minus
			fm := pairValue(ev, xp, y, scratch)
			xp[k] = x[k]
			dst[k] = (fp - fm) / width
		}
	}
	return f, pl + d
}
