package linalg_test

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/errclass/errclasstest"
	"github.com/symbo/symbo/linalg"
)

// TestNoPanic calls every exported entry point that returns an error with
// nil destinations, a nil backend or receiver, an unfactored Cholesky and
// mis-shaped destinations, in every backend: each is an input error
// wrapping the named sentinel, not a panic (a nil dst was a runtime
// nil-pointer panic, a mis-shaped or unfactored one a "linalg: …" panic).
func TestNoPanic(t *testing.T) {
	for _, name := range linalg.Available() {
		be, err := linalg.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		a := mat.NewSymDense(2, []float64{2, 1, 1, 2})
		b := mat.NewDense(2, 1, []float64{1, 2})
		var ch linalg.Cholesky
		if err := be.Cholesky(&ch, a); err != nil {
			t.Fatal(err)
		}
		var zero linalg.Cholesky
		var nilChol *linalg.Cholesky
		cases := []struct {
			name string
			want error
			f    func() error
		}{
			{"EigenSym/nil-dst", linalg.ErrNilArgument, func() error { return be.EigenSym(nil, a) }},
			{"Cholesky/nil-dst", linalg.ErrNilArgument, func() error { return be.Cholesky(nil, a) }},
			{"EigenSymProject/nil-backend", linalg.ErrNilArgument, func() error {
				return linalg.EigenSymProject(nil, &linalg.EigenProj{}, a, b)
			}},
			{"EigenSymProject/nil-dst", linalg.ErrNilArgument, func() error { return linalg.EigenSymProject(be, nil, a, b) }},
			{"SolveTo/nil-receiver", linalg.ErrNilArgument, func() error { return nilChol.SolveTo(&mat.Dense{}, b) }},
			{"SolveLTo/nil-receiver", linalg.ErrNilArgument, func() error { return nilChol.SolveLTo(&mat.Dense{}, b) }},
			{"SolveVecTo/nil-receiver", linalg.ErrNilArgument, func() error { return nilChol.SolveVecTo(make([]float64, 2), []float64{1, 2}) }},
			{"SolveTo/unfactored", linalg.ErrNotFactored, func() error { return zero.SolveTo(&mat.Dense{}, b) }},
			{"SolveLTo/unfactored", linalg.ErrNotFactored, func() error { return zero.SolveLTo(&mat.Dense{}, b) }},
			{"SolveVecTo/unfactored", linalg.ErrNotFactored, func() error { return zero.SolveVecTo(nil, nil) }},
			{"SolveTo/nil-dst", linalg.ErrNilArgument, func() error { return ch.SolveTo(nil, b) }},
			{"SolveLTo/nil-dst", linalg.ErrNilArgument, func() error { return ch.SolveLTo(nil, b) }},
			{"SolveTo/nil-b", linalg.ErrNilArgument, func() error { return ch.SolveTo(&mat.Dense{}, nil) }},
			{"SolveTo/dst-shape", linalg.ErrShape, func() error { return ch.SolveTo(mat.NewDense(2, 2, nil), b) }},
			{"SolveLTo/dst-shape", linalg.ErrShape, func() error { return ch.SolveLTo(mat.NewDense(1, 1, nil), b) }},
			{"SolveTo/b-rows", mat.ErrShape, func() error { return ch.SolveTo(&mat.Dense{}, mat.NewDense(3, 1, nil)) }},
			{"SolveTo/b-rows-class", linalg.ErrShape, func() error { return ch.SolveTo(&mat.Dense{}, mat.NewDense(3, 1, nil)) }},
			{"SolveVecTo/dst-len", linalg.ErrShape, func() error { return ch.SolveVecTo(make([]float64, 1), []float64{1, 2}) }},
			{"SolveVecTo/nil-dst", linalg.ErrShape, func() error { return ch.SolveVecTo(nil, []float64{1, 2}) }},
			{"SolveVecTo/b-len", linalg.ErrShape, func() error { return ch.SolveVecTo(make([]float64, 2), nil) }},
		}
		for _, tc := range cases {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				errclasstest.InputError(t, tc.want, tc.f)
			})
		}
		if nilChol.Size() != 0 {
			t.Errorf("%s: (*Cholesky)(nil).Size() != 0", name)
		}
	}
}

// TestMisusePanicMessages: the methods without an error result panic on
// a nil receiver or destination with the package's "linalg: …" message,
// not a runtime nil dereference.
func TestMisusePanicMessages(t *testing.T) {
	var nilChol *linalg.Cholesky
	var ch linalg.Cholesky
	if err := linalg.Gonum().Cholesky(&ch, mat.NewSymDense(1, []float64{4})); err != nil {
		t.Fatal(err)
	}
	d := mat.NewDense(1, 1, []float64{1})
	cases := []struct {
		name string
		f    func()
	}{
		{"LogDet/nil-receiver", func() { nilChol.LogDet() }},
		{"LTo/nil-receiver", func() { nilChol.LTo(&mat.TriDense{}) }},
		{"LTo/nil-dst", func() { ch.LTo(nil) }},
	}
	for _, name := range linalg.Available() {
		be, err := linalg.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases,
			struct {
				name string
				f    func()
			}{name + "/Gemm/nil-a", func() { be.Gemm(false, false, 1, nil, d, 0, &mat.Dense{}) }},
			struct {
				name string
				f    func()
			}{name + "/Gemm/nil-b", func() { be.Gemm(false, false, 1, d, nil, 0, &mat.Dense{}) }},
			struct {
				name string
				f    func()
			}{name + "/Gemm/nil-c", func() { be.Gemm(false, false, 1, d, d, 0, nil) }},
		)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				p := recover()
				if s, ok := p.(string); !ok || len(s) < 8 || s[:8] != "linalg: " {
					t.Errorf("panic value %#v, want a string starting with \"linalg: \"", p)
				}
			}()
			tc.f()
		})
	}
}
