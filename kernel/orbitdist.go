package kernel

import (
	"fmt"

	"github.com/symbo/symbo/internal/parallel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// OrbitDist holds n points prepared once for columns of squared orbit
// distances d_G(x_i, y)² against one point y at a time: what a greedy
// landmark selection needs, which learns the next column to compute only
// after the previous one (gp's landmark k_plus). The values are those of
// OrbitDist2To (the same evaluation path: a canonical map or a closed-form
// distance, else the fused enumeration with its exact fallback), and a
// column costs n orbit distances, O(d log d) closed or O(|G|·d)
// enumerated, after the O(n) preparation of NewOrbitDist. Immutable after
// construction and safe for concurrent use.
type OrbitDist struct {
	ev      evaluator
	px      []float64 // n prepared rows, ev.xLen() floats each
	n, d    int
	workers int
}

// distRows is the number of rows of one ColumnTo task (a constant, so that
// the split does not depend on the workers).
const distRows = 256

// NewOrbitDist prepares the rows of x (n×d, copied as prepared points) for
// ColumnTo under the group g (nil: Euclidean distances), evaluated as
// OrbitDist2To does with options o.
func NewOrbitDist(g orbit.Group, x *mat.Dense, o Options) (*OrbitDist, error) {
	k, err := rawDistKernel(g, x, o)
	if err != nil {
		return nil, err
	}
	ev := k.ev
	n, err := checkPoints("x", x, k.d, k.Params().Lengthscale)
	if err != nil {
		return nil, err
	}
	if err := k.budget.Check(fmt.Sprintf("%d prepared points", n), 8*float64(n)*float64(ev.xLen())); err != nil {
		return nil, err
	}
	od := &OrbitDist{ev: ev, px: make([]float64, n*ev.xLen()), n: n, d: k.d, workers: k.nw()}
	prepAll(od.px, ev, x, n)
	return od, nil
}

// N is the number of prepared points.
func (o *OrbitDist) N() int { return o.n }

// ColumnTo writes d_G(x_i, y)² into dst[i] for the n prepared points (y of
// length d, else ErrBadPoints; dst of length n, else ErrDstShape). Large columns run on Options.Workers goroutines over fixed
// blocks of rows, every entry computed alone: the same bits for any
// worker count. Serially it allocates nothing after warm-up.
func (o *OrbitDist) ColumnTo(dst, y []float64) error {
	if len(dst) != o.n {
		return fmt.Errorf("%w: OrbitDist.ColumnTo: dst has length %d, want %d", ErrDstShape, len(dst), o.n)
	}
	if err := checkVec("y", y, o.d, 1); err != nil {
		return err
	}
	yl, xl := o.ev.yLen(), o.ev.xLen()
	hs, py := getScratch(yl)
	o.ev.prepY(py, y)
	tasks := (o.n + distRows - 1) / distRows
	w := assemblyWorkers(o.workers, tasks, float64(o.n)*float64(yl))
	job := distColJob{ev: o.ev, px: o.px, py: py, out: dst, n: o.n, xl: xl}
	if w == 1 {
		for t := range tasks {
			job.block(0, t)
		}
	} else {
		distColPar(job, tasks, w)
	}
	putScratch(hs)
	return nil
}

type distColJob struct {
	ev     evaluator
	px, py []float64
	out    []float64
	n, xl  int
}

func (j *distColJob) block(_, t int) {
	i0 := t * distRows
	i1 := min(i0+distRows, j.n)
	j.ev.column(j.out[i0:], 1, j.px[i0*j.xl:], i1-i0, j.py)
}

func distColPar(j distColJob, tasks, w int) { parallel.For(tasks, w, j.block) }
