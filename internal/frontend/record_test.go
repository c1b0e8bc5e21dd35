package frontend

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/symbo/symbo/bo"
	"gonum.org/v1/gonum/mat"
)

// TestRecordState: Record records the pending and failed rows as the
// state a History holds — a row both pending and failed stays both — and
// the suggestion is that of the optimizer restored from that History.
func TestRecordState(t *testing.T) {
	s := SuggestSettings{Group: Group{Group: "hyperoctahedral", D: 2, Box: [][]float64{{-2}, {2}}}, Kernel: "plus", Seed: 5, Init: new(3)}
	hx := mat.NewDense(4, 2, []float64{1, 0.5, -1.5, 0.25, 0.1, -1.9, 1.2, 1.3})
	hy := []float64{1, 2, 0.5, 3}
	pend := mat.NewDense(2, 2, []float64{-0.3, 0.7, 0.4, -0.2})
	failed := mat.NewDense(1, 2, []float64{0.4, -0.2})
	opt, _ := s.Optimizer(nil, 0)
	if err := Record(opt, hx, hy, pend, failed); err != nil {
		t.Fatal(err)
	}
	h := opt.History()
	if len(h.Pending) != 2 || len(h.Failed) != 1 {
		t.Fatalf("pending %v, failed %v", h.Pending, h.Failed)
	}
	ref, _ := s.Optimizer(nil, 0)
	if err := ref.Restore(h); err != nil {
		t.Fatal(err)
	}
	got, err := opt.Ask()
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := ref.Ask(); !reflect.DeepEqual(got, want) {
		t.Errorf("suggestion %v, the restored optimizer's %v", got, want)
	}
	// A failed row that is a history point is left out, as Fail leaves
	// it out; a failed row outside the box is a RowError naming it, and
	// nothing is recorded.
	opt, _ = s.Optimizer(nil, 0)
	if err := Record(opt, hx, hy, nil, mat.NewDense(2, 2, []float64{0, 0, 0.1, -1.9})); err != nil {
		t.Fatal(err)
	}
	if f := opt.Failed(); !reflect.DeepEqual(f, [][]float64{{0, 0}}) {
		t.Errorf("failed %v, want [[0 0]]", f)
	}
	opt, _ = s.Optimizer(nil, 0)
	err = Record(opt, hx, hy, pend, mat.NewDense(2, 2, []float64{0, 0, 5, 0}))
	var re *RowError
	if !errors.As(err, &re) || re.Input != "failed" || re.Row != 1 || !errors.Is(err, bo.ErrBadPoint) {
		t.Errorf("failed row outside the box: %v", err)
	}
	if len(opt.Failed()) != 0 || len(opt.Pending()) != 0 {
		t.Errorf("a refused record kept pending %v, failed %v", opt.Pending(), opt.Failed())
	}
}

// TestRecordLinear: 250k pending and 250k failed rows are recorded (each
// failed row used to scan every pending one: 6·10¹⁰ comparisons, minutes
// at this size). No clock is read.
func TestRecordLinear(t *testing.T) {
	const n = 250_000
	s := SuggestSettings{Group: Group{Group: "signflip", D: 1, Box: [][]float64{{-1}, {1}}}, Kernel: "plus", Seed: 1}
	opt, err := s.Optimizer(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	pend, failed := mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		pend.Set(i, 0, -1+float64(i)/n)
		failed.Set(i, 0, float64(i)/n)
	}
	if err := Record(opt, mat.NewDense(1, 1, []float64{0.123456789}), []float64{1}, pend, failed); err != nil {
		t.Fatal(err)
	}
	if p, f := opt.Pending(), opt.Failed(); len(p) != n || len(f) != n || p[n-1][0] != pend.At(n-1, 0) || f[n-1][0] != failed.At(n-1, 0) {
		t.Errorf("%d pending, %d failed", len(p), len(f))
	}
}

// TestSuggestFailedAfterPending: symbo_suggest, which takes no failed
// points, gives an optimizer's next point when its failed points follow
// its pending points among the pending rows (symbo.h): the liar conditions
// on the pending points, then on the failed ones. Listed first, the
// failed points give other bits; and a batch's later points differ from
// the optimizer's, which conditions on the batch's earlier points before
// its failed ones.
func TestSuggestFailedAfterPending(t *testing.T) {
	s := SuggestSettings{Group: Group{Group: "hyperoctahedral", D: 2, Box: [][]float64{{-2}, {2}}}, Seed: 3, Init: new(3)}
	opt, err := s.Optimizer(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		x, err := opt.Ask()
		if err != nil {
			t.Fatal(err)
		}
		if err := opt.Tell(x, x[0]-2*x[1]*x[1]); err != nil {
			t.Fatal(err)
		}
	}
	pts, err := opt.AskBatch(3)
	if err != nil {
		t.Fatal(err)
	}
	if err := opt.Fail(pts[0]); err != nil {
		t.Fatal(err)
	}
	h := opt.History()
	want, err := AskBatch(opt, 2, "q =")
	if err != nil {
		t.Fatal(err)
	}
	hx := mat.NewDense(len(h.Observations), 2, nil)
	hy := make([]float64, len(h.Observations))
	for i, ob := range h.Observations {
		hx.SetRow(i, ob.X)
		hy[i] = ob.Y
	}
	rows := func(ps ...[][]float64) *mat.Dense {
		var all [][]float64
		for _, p := range ps {
			all = append(all, p...)
		}
		m := mat.NewDense(len(all), 2, nil)
		for i, p := range all {
			m.SetRow(i, p)
		}
		return m
	}
	// same reports, for each of the two points suggested from pending,
	// whether it is the optimizer's bit for bit.
	same := func(pending *mat.Dense) [2]bool {
		o, err := s.Optimizer(nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Suggest(o, hx, hy, pending, nil, 2)
		if err != nil {
			t.Fatal(err)
		}
		var out [2]bool
		for i, x := range want {
			out[i] = math.Float64bits(got.At(i, 0)) == math.Float64bits(x[0]) && math.Float64bits(got.At(i, 1)) == math.Float64bits(x[1])
		}
		return out
	}
	if got := same(rows(h.Pending, h.Failed)); !got[0] {
		t.Errorf("pending then failed rows do not suggest the optimizer's next point %v", want[0])
	}
	if got := same(rows(h.Failed, h.Pending)); got[0] {
		t.Errorf("failed then pending rows suggest the optimizer's next point: symbo.h says they give other bits")
	}
}
