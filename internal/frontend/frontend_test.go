package frontend

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
)

func TestDecodeStrict(t *testing.T) {
	var k KernelSpec
	for _, bad := range []string{`{"kernel":"plus","nope":1}`, `{"kernel":"plus"} x`, `[`, ``} {
		if err := Decode([]byte(bad), &k); !errors.Is(err, ErrInvalid) {
			t.Errorf("Decode(%q): %v", bad, err)
		}
	}
	if err := Decode([]byte(`{"group":"signflip","d":2,"base":"rbf","lengthscale":1,"kernel":"max"}`+"\n"), &k); err != nil {
		t.Fatal(err)
	}
}

func TestSuggestRowErrors(t *testing.T) {
	s := SuggestSettings{Group: Group{Group: "signflip", D: 2, Box: [][]float64{{-1}, {1}}}, Kernel: "plus"}
	opt, err := s.Optimizer(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Suggest(opt, mat.NewDense(2, 2, []float64{0, 0, 3, 0}), []float64{1, 2}, nil, 1)
	var re *RowError
	if !errors.As(err, &re) || re.Input != "history" || re.Row != 1 {
		t.Fatalf("error %v, want a history row 1 error", err)
	}
	for _, bad := range []SuggestSettings{
		{Kernel: "plus"},
		{Problem: "Ackley2d", Group: Group{Group: "signflip"}, Kernel: "plus"},
		{Group: Group{Group: "signflip", D: 2}, Kernel: "plus"},
		{Problem: "WLAN4d", Kernel: "plus", Minimize: true},
	} {
		if _, err := bad.Optimizer(nil); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestSuggestLandmarks: "landmarks" reaches the optimizer — the design
// cap changes the suggestion once the history exceeds it, and a cap
// beyond bo.MaxEvaluations is refused.
func TestSuggestLandmarks(t *testing.T) {
	var s SuggestSettings
	if err := Decode([]byte(`{"group":"hyperoctahedral","d":3,"box":[[-2],[2]],"kernel":"plus","seed":4,"landmarks":3}`), &s); err != nil || s.Landmarks != 3 {
		t.Fatalf("decode: %+v, %v", s, err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	hx := mat.NewDense(9, 3, nil)
	hy := make([]float64, 9)
	for i := range 9 {
		for j := range 3 {
			hx.Set(i, j, 4*rng.Float64()-2)
		}
		hy[i] = hx.At(i, 0)*hx.At(i, 1) - hx.At(i, 2)*hx.At(i, 2)
	}
	suggest := func(lm int) []float64 {
		st := s
		st.Landmarks = lm
		opt, err := st.Optimizer(nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Suggest(opt, hx, hy, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		return out.RawRowView(0)
	}
	a, b, c := suggest(3), suggest(3), suggest(-1)
	if !mat.Equal(mat.NewVecDense(3, a), mat.NewVecDense(3, b)) {
		t.Errorf("not deterministic: %v, %v", a, b)
	}
	if mat.Equal(mat.NewVecDense(3, a), mat.NewVecDense(3, c)) {
		t.Errorf("3 landmarks and the full design of 9 points suggest the same %v", a)
	}
	s.Landmarks = 2_000_000
	if _, err := s.Optimizer(nil); err == nil {
		t.Error("landmarks beyond MaxEvaluations accepted")
	}
}

// BenchmarkCross times the Go side of symbo.gram (the Python package's
// overhead study compares the two in one run).
func BenchmarkCross(b *testing.B) {
	be, err := linalg.Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, kern := range []string{"max", "plus"} {
		for _, n := range []int{55, 1000} {
			rng := rand.New(rand.NewPCG(1, 2))
			x := mat.NewDense(n, 5, nil)
			for i := range x.RawMatrix().Data {
				x.RawMatrix().Data[i] = rng.Float64()*4 - 2
			}
			spec := KernelSpec{Group: Group{Group: "hyperoctahedral", D: 5}, Base: "rbf", Lengthscale: 1, Kernel: kern}
			b.Run(fmt.Sprintf("kernel=%s/n=%d", kern, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := Cross(spec, x, nil, nil, be); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
