package bo

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// The operations FuzzOptimizerOps interprets, one a byte (mod opCount);
// the byte after an operation that needs one picks a point or a size.
const (
	opAsk = iota
	opAskBatch
	opTell
	opFail
	opAddPending
	opCancel
	opHistory // History round-trips through JSON and Restore to an equal History
	opRestore // Restore(History()) then Ask equals Ask on the original
	opCount
)

// fuzzMaxOps bounds the operations of one input (each Ask is a small fit
// and acquisition: a few milliseconds).
const fuzzMaxOps = 32

// fuzzFixed are points of the box [−1, 1]² the operations may use besides
// the ones Ask returned: two on one orbit of the sign flips, the origin
// (Fix(G)) and a corner.
var fuzzFixed = [][]float64{{0.5, -0.25}, {-0.5, 0.25}, {0, 0}, {1, -1}, {0.125, 0.75}}

// fuzzCfg is a cheap optimizer on [−1, 1]² under the sign flips.
func fuzzCfg() ([]float64, []float64, Config) {
	g, err := orbit.SignFlip(2)
	if err != nil {
		panic(err)
	}
	return []float64{-1, -1}, []float64{1, 1},
		Config{Kernel: Plus(g, kernel.Matern52), Init: 2, Workers: 1, Protocol: Protocol{RawSamples: 8, Starts: 1, MaxIter: 5, Restarts: 1}}
}

// FuzzOptimizerOps runs sequences of optimizer operations (Ask, AskBatch,
// Tell, Fail, AddPending, Cancel, History, Restore) on a small problem
// and checks the documented invariants after each: no point is both
// observed and failed; a point told is neither pending nor failed; every
// point is in the box; History round-trips through JSON and Restore to an
// equal History; Restore(History()) then Ask equals Ask on the original,
// bit for bit (errors included); an error never comes with a point, a
// point never with NaN; nothing panics.
func FuzzOptimizerOps(f *testing.F) {
	// Sequences that broke Tell: fail, fail, tell (and add_pending twice, tell)
	// left x failed (pending); tell then fail made it observed and failed.
	f.Add([]byte{opAsk, opAsk, opTell, 5, 1, opTell, 6, 2, opFail, 0, opFail, 0, opTell, 0, 3, opHistory, opRestore})
	f.Add([]byte{opAsk, opAsk, opTell, 5, 1, opTell, 6, 2, opAddPending, 0, opAddPending, 0, opTell, 0, 3, opRestore})
	f.Add([]byte{opAsk, opAsk, opTell, 5, 1, opTell, 6, 2, opTell, 0, 3, opFail, 0, opRestore})
	// Sequences that broke Restore: a point both failed and pending restored with one pending
	// point fewer and proposed another point.
	f.Add([]byte{opAsk, opAsk, opTell, 5, 1, opTell, 6, 2, opFail, 1, opAddPending, 1, opHistory, opRestore})
	f.Add([]byte{opAsk, opAsk, opTell, 5, 1, opTell, 6, 2, opAddPending, 1, opAddPending, 1, opFail, 1, opRestore})
	f.Add([]byte{opAskBatch, 2, opTell, 5, 7, opFail, 6, opCancel, 7, opAsk, opHistory, opRestore})
	f.Fuzz(func(t *testing.T, ops []byte) {
		lo, hi, cfg := fuzzCfg()
		o, err := New(lo, hi, cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		pool := slices.Clone(fuzzFixed)
		next := func(i *int) byte {
			if *i >= len(ops) {
				return 0
			}
			b := ops[*i]
			*i++
			return b
		}
		point := func(i *int) []float64 { return pool[int(next(i))%len(pool)] }
		asked := func(x []float64, err error) {
			t.Helper()
			if err != nil {
				if x != nil {
					t.Fatalf("a point %v with the error %v", x, err)
				}
				return
			}
			if !inBox(x, lo, hi) || slices.ContainsFunc(x, math.IsNaN) {
				t.Fatalf("Ask returned %v", x)
			}
			pool = append(pool, x)
		}
		for i, n := 0, 0; i < len(ops) && n < fuzzMaxOps; n++ {
			op := next(&i) % opCount
			switch op {
			case opAsk:
				asked(o.Ask())
			case opAskBatch:
				q := 1 + int(next(&i))%3
				xs, err := o.AskBatch(q)
				if err == nil && len(xs) != q {
					t.Fatalf("AskBatch(%d) gave %d points", q, len(xs))
				}
				if err != nil && xs != nil {
					t.Fatalf("points %v with the error %v", xs, err)
				}
				for _, x := range xs {
					asked(x, nil)
				}
			case opTell:
				x, y := point(&i), float64(int(next(&i))-128)/16
				if err := o.Tell(x, y); err != nil {
					t.Fatalf("Tell(%v, %v): %v", x, y, err)
				}
				if slices.ContainsFunc(o.Pending(), func(p []float64) bool { return check.SameBits(p, x) }) ||
					slices.ContainsFunc(o.Failed(), func(p []float64) bool { return check.SameBits(p, x) }) {
					t.Fatalf("after Tell(%v): pending %v, failed %v", x, o.Pending(), o.Failed())
				}
			case opFail:
				if x := point(&i); o.Fail(x) != nil {
					t.Fatalf("Fail(%v) refused", x)
				}
			case opAddPending:
				if x := point(&i); o.AddPending(x) != nil {
					t.Fatalf("AddPending(%v) refused", x)
				}
			case opCancel:
				o.Cancel(point(&i))
			case opHistory:
				h := o.History()
				back := jsonRoundTrip(t, h)
				r, _ := New(lo, hi, cfg, 1)
				if err := r.Restore(back); err != nil {
					t.Fatalf("restore of its own history: %v", err)
				}
				if got := r.History(); !reflect.DeepEqual(got, h) {
					t.Fatalf("restored history %+v, want %+v", got, h)
				}
			case opRestore:
				r, _ := New(lo, hi, cfg, 1)
				h := o.History()
				if err := r.Restore(h); err != nil {
					t.Fatalf("restore of its own history: %v", err)
				}
				if got := r.History(); !reflect.DeepEqual(got, h) {
					t.Fatalf("restored history %+v, want %+v", got, h)
				}
				xr, errR := r.Ask()
				xo, errO := o.Ask()
				if (errR == nil) != (errO == nil) || !check.SameBits(xr, xo) || errR != nil && errR.Error() != errO.Error() {
					t.Fatalf("restored Ask %v (%v), the original's %v (%v)", xr, errR, xo, errO)
				}
				asked(xo, errO)
			}
			// No point both observed and failed; everything in the box.
			h := o.History()
			for _, p := range h.Failed {
				if slices.ContainsFunc(h.Observations, func(ob Observation) bool { return check.SameBits(ob.X, p) }) {
					t.Fatalf("after op %d: %v is observed and failed", op, p)
				}
			}
			for _, ps := range [][][]float64{h.Pending, h.Failed} {
				for _, p := range ps {
					if !inBox(p, lo, hi) {
						t.Fatalf("after op %d: %v outside the box", op, p)
					}
				}
			}
		}
	})
}
