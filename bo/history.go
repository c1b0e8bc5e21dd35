package bo

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/symbo/symbo/internal/errclass"
)

// HistoryVersion is the version of the History format this package
// writes. Restore reads it and version 1 (the format before failed
// points, which has none).
const HistoryVersion = 2

// ErrHistory reports a History that cannot be restored: another format
// version (or failed points in version 1), another seed, kernel,
// dimension or direction than the optimizer's, an optimizer that holds
// points already, more than MaxEvaluations points, or a point refused
// (an observation Tell refuses, a pending or failed point outside the
// box, a failed point that is observed; a *PointError names it).
var ErrHistory = errclass.New(errclass.Input, "bo: history does not match")

// History is everything an Optimizer's next point depends on besides its
// configuration: the observations in the order they were told, the
// pending points and the failed points. Its JSON form is documented and
// versioned (field names are stable):
//
//	{"version": 2, "seed": 7, "kernel": "plus", "dim": 2, "minimize": false,
//	 "observations": [{"x": [0.5, -1], "y": 3.25}, …],
//	 "pending": [[0.1, 0.2]], "failed": [[1.9, -1.9]]}
//
// Floats are written in shortest round-trip form, so a History read back
// holds the same bits. Seed, kernel, dimension and direction are recorded
// so that Restore can refuse a history made under other settings; the rest
// of the configuration (acquisition, protocol switches, budgets) is the
// caller's to keep.
type History struct {
	Version      int           `json:"version"`      // HistoryVersion when written
	Seed         uint64        `json:"seed"`         // the optimizer's seed
	Kernel       string        `json:"kernel"`       // the kernel's name
	Dim          int           `json:"dim"`          // the box's dimension d
	Minimize     bool          `json:"minimize"`     // the direction
	Observations []Observation `json:"observations"` // the told points, in order
	// Pending are points asked and not yet told (parallel evaluations).
	Pending [][]float64 `json:"pending,omitempty"`
	// Failed are points whose evaluation failed (Optimizer.Fail), in the
	// order they were reported.
	Failed [][]float64 `json:"failed,omitempty"`
}

// Observation is one told point.
type Observation struct {
	X []float64 `json:"x"` // the point (length Dim)
	Y float64   `json:"y"` // its told value
}

// History returns a copy of the optimizer's history.
func (o *Optimizer) History() History {
	if o == nil || o.fam == nil {
		return History{Version: HistoryVersion}
	}
	h := History{
		Version: HistoryVersion, Seed: o.seed, Kernel: o.cfg.Kernel.Name(), Dim: o.d,
		Minimize: o.cfg.Minimize, Observations: make([]Observation, len(o.xs)),
	}
	for i, x := range o.xs {
		h.Observations[i] = Observation{X: append([]float64(nil), x...), Y: o.ys[i]}
	}
	if len(o.pend) > 0 {
		h.Pending = o.Pending()
	}
	if len(o.failed) > 0 {
		h.Failed = o.Failed()
	}
	return h
}

// Restore tells the observations of h, in order, then records its pending
// and failed points as they are (a point both pending and failed stays
// both, each copy kept), in an optimizer that has none yet, after
// checking that h was made under a version it reads and the same seed,
// kernel, dimension and direction. The optimizer then holds exactly the
// state h records (its History equals h when History wrote h; a history
// written by hand comes back with empty lists for nil ones and the
// reverse, and one of format version 1 as version HistoryVersion) and
// proposes exactly the points
// the optimizer that wrote h would have (Ask is a function of the
// configuration, the seed, the observations and the pending and failed
// points). A failed point that is also observed is refused: History
// never writes one (an observation supersedes a failure, see Fail).
// Restore costs O(N·d) for N points (expected; the observed points are
// looked up by their bits). On error the optimizer is unchanged, and a
// point it refuses is named by a *PointError in the error's chain.
func (o *Optimizer) Restore(h History) error {
	if o == nil || o.fam == nil {
		return errNotNew
	}
	switch {
	case h.Version != HistoryVersion && h.Version != 1:
		return fmt.Errorf("%w: format version %d, want 1 or %d", ErrHistory, h.Version, HistoryVersion)
	case h.Version == 1 && len(h.Failed) > 0:
		return fmt.Errorf("%w: format version 1 has no failed points", ErrHistory)
	case len(o.xs) != 0 || len(o.pend) != 0 || len(o.failed) != 0:
		return fmt.Errorf("%w: the optimizer already has %d observations, %d pending and %d failed points", ErrHistory, len(o.xs), len(o.pend), len(o.failed))
	case len(h.Observations)+len(h.Pending)+len(h.Failed) > MaxEvaluations:
		return fmt.Errorf("%w: %d points exceed MaxEvaluations = %d", ErrHistory, len(h.Observations)+len(h.Pending)+len(h.Failed), MaxEvaluations)
	case h.Seed != o.seed:
		return fmt.Errorf("%w: seed %d, the optimizer's is %d", ErrHistory, h.Seed, o.seed)
	case h.Kernel != o.cfg.Kernel.Name():
		return fmt.Errorf("%w: kernel %q, the optimizer's is %q", ErrHistory, h.Kernel, o.cfg.Kernel.Name())
	case h.Dim != o.d:
		return fmt.Errorf("%w: dimension %d, the optimizer's is %d", ErrHistory, h.Dim, o.d)
	case h.Minimize != o.cfg.Minimize:
		return fmt.Errorf("%w: minimize = %v, the optimizer's is %v", ErrHistory, h.Minimize, o.cfg.Minimize)
	case len(h.Observations) > MaxEvaluations:
		return fmt.Errorf("%w: %d observations exceed MaxEvaluations = %d", ErrHistory, len(h.Observations), MaxEvaluations)
	}
	// Nothing is pending or failed yet: each Tell is O(d).
	for i, ob := range h.Observations {
		if err := o.Tell(ob.X, ob.Y); err != nil {
			o.reset()
			return fmt.Errorf("%w: %w", ErrHistory, &PointError{List: ListObservations, Index: i, Err: err})
		}
	}
	if err := o.record(h.Pending, h.Failed, true); err != nil {
		o.reset()
		return fmt.Errorf("%w: %w", ErrHistory, err)
	}
	return nil
}

// The lists of a History a PointError names.
const (
	ListObservations = "observations"
	ListPending      = "pending"
	ListFailed       = "failed"
)

// PointError names the point of a History that Restore refused: its list
// (ListObservations, ListPending or ListFailed) and its index there. Err
// is the refusal (wrapping ErrBadPoint, ErrBadValue, …).
type PointError struct {
	List  string // ListObservations, ListPending or ListFailed
	Index int    // the point's index in that list
	Err   error  // the refusal
}

func (e *PointError) Error() string {
	what := map[string]string{ListObservations: "observation", ListPending: "pending point", ListFailed: "failed point"}[e.List]
	// One "bo: " at the front, as the package's other errors: the
	// point's own error (ErrBadPoint's) loses its prefix.
	return fmt.Sprintf("bo: %s %d: %s", what, e.Index, strings.TrimPrefix(e.Err.Error(), "bo: "))
}

func (e *PointError) Unwrap() error { return e.Err }

// record appends pending and failed points as they are (no failed point
// ends a pending copy of itself, unlike Fail one at a time), after
// checking every one: a point of the box, the total within
// MaxEvaluations. A failed point that is observed is refused when strict
// (Restore), else left out (Record: the observation supersedes it, as
// with Fail). O((n + P + F)·d) expected. On error (a *PointError for a
// refused point) nothing is recorded.
func (o *Optimizer) record(pending, failed [][]float64, strict bool) error {
	if len(o.xs)+len(o.pend)+len(o.failed)+len(pending)+len(failed) > MaxEvaluations {
		return fmt.Errorf("%w: %d points exceed MaxEvaluations = %d", ErrBadConfig, len(o.xs)+len(o.pend)+len(o.failed)+len(pending)+len(failed), MaxEvaluations)
	}
	for i, p := range pending {
		if err := o.checkPoint(p); err != nil {
			return &PointError{List: ListPending, Index: i, Err: err}
		}
	}
	var observed map[string]struct{}
	if len(failed) > 0 && len(o.xs) > 0 {
		observed = make(map[string]struct{}, len(o.xs))
		for _, x := range o.xs {
			observed[bitsKey(x)] = struct{}{}
		}
	}
	for i, p := range failed {
		if err := o.checkPoint(p); err != nil {
			return &PointError{List: ListFailed, Index: i, Err: err}
		}
		if _, ok := observed[bitsKey(p)]; ok && strict {
			return &PointError{List: ListFailed, Index: i, Err: fmt.Errorf("%w: it is observed (a History never holds an observed point as failed)", ErrBadPoint)}
		}
	}
	keep := failed
	if observed != nil {
		keep = slices.DeleteFunc(slices.Clone(failed), func(p []float64) bool {
			_, ok := observed[bitsKey(p)]
			return ok
		})
	}
	o.pend = append(o.pend, copyPoints(pending)...)
	o.failed = append(o.failed, copyPoints(keep)...)
	return nil
}

// Record records pending and failed points in an optimizer as one state,
// as Restore records a History's (the state a front end hands over with
// its observations, which it tells first): every point is checked first
// and on error (a *PointError naming the point, its List ListPending or
// ListFailed) nothing is recorded. Unlike AddPending and Fail called one
// after the other, a failed point does not end a pending copy of itself:
// a point retried after it failed is both. A failed point that is
// observed is left out, as Fail leaves it out (an observation supersedes
// a failure). It costs O((n + P + F)·d) expected.
func (o *Optimizer) Record(pending, failed [][]float64) error {
	if o == nil || o.fam == nil {
		return errNotNew
	}
	return o.record(pending, failed, false)
}

// bitsKey is a map key of x's bits: points are equal as keys when they
// are bit for bit (check.SameBits).
func bitsKey(x []float64) string {
	b := make([]byte, 8*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return string(b)
}

// reset forgets every observation, pending and failed point.
func (o *Optimizer) reset() {
	o.xs, o.ys, o.pend, o.failed = o.xs[:0], o.ys[:0], nil, nil
	o.mxs, o.mpend, o.mfailed = nil, nil, nil
}
