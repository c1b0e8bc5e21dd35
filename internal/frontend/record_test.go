package frontend

import (
	"errors"
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
