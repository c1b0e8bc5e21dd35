package experiments

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{2, 2, 9, 1, 2}, 2},
	} {
		in := slices.Clone(tc.in)
		if got := median(in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("median modified its input: %v, was %v", in, tc.in)
		}
	}
}

// TestFlops checks the flop counts against counting loops.
func TestFlops(t *testing.T) {
	for _, n := range []int{1, 2, 7, 55} {
		for _, g := range []struct{ d, order int }{{6, 64}, {5, 3840}} {
			var want float64
			for i := range n {
				for j := i; j < n; j++ {
					for range g.order {
						want += 2 * float64(g.d)
					}
				}
			}
			if got := EnumGramFlops(n, g.d, g.order); got != want {
				t.Errorf("EnumGramFlops(%d, %d, %d) = %v, want %v", n, g.d, g.order, got, want)
			}
		}
		var want float64
		for range n * n {
			want += 2 * float64(n) // one dot product of length n per entry
		}
		if got := GemmFlops(n); got != want {
			t.Errorf("GemmFlops(%d) = %v, want %v", n, got, want)
		}
	}
}

func TestRatios(t *testing.T) {
	r, err := Ratios(RatiosOptions{N: 24, EigenN: 16, Threads: 1, Reps: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.N != 24 || r.EigenN != 16 || r.Threads != 1 || r.Reps != 2 || r.Group != "hyperoctahedral(5)" {
		t.Errorf("settings not echoed: %+v", r)
	}
	if !(r.EnumSeconds > 0) || math.Abs(r.EnumGFLOPS-EnumGramFlops(24, 5, 3840)/r.EnumSeconds/1e9) > 1e-9*r.EnumGFLOPS {
		t.Errorf("enumeration: %v s, %v GFLOP/s", r.EnumSeconds, r.EnumGFLOPS)
	}
	if len(r.Gemm) == 0 || r.Gemm[0].Backend != "gonum" {
		t.Fatalf("Gemm = %+v, want gonum first", r.Gemm)
	}
	for _, g := range r.Gemm {
		if !(g.Seconds > 0) || math.Abs(g.GFLOPS-GemmFlops(24)/g.Seconds/1e9) > 1e-9*g.GFLOPS ||
			math.Abs(g.EnumFraction-r.EnumGFLOPS/g.GFLOPS) > 1e-12*g.EnumFraction {
			t.Errorf("gemm %+v inconsistent with enumeration %v GFLOP/s", g, r.EnumGFLOPS)
		}
		if _, ok := r.Eigen[g.Backend]; !ok {
			t.Errorf("no eigen time for %s", g.Backend)
		}
	}
	if ob, ok := r.Eigen["openblas"]; ok {
		if math.Abs(r.EigenRatio-ob/r.Eigen["gonum"]) > 1e-12 {
			t.Errorf("EigenRatio %v, want %v", r.EigenRatio, ob/r.Eigen["gonum"])
		}
	} else if r.EigenRatio != 0 {
		t.Errorf("EigenRatio %v without openblas", r.EigenRatio)
	}

	s, err := Ratios(RatiosOptions{N: 8, Reps: 1, SkipEigen: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Eigen != nil || s.EigenRatio != 0 {
		t.Errorf("SkipEigen: Eigen = %v, ratio %v", s.Eigen, s.EigenRatio)
	}
	for _, o := range []RatiosOptions{{N: -1}, {Reps: -2}, {Threads: -1}, {EigenN: -5}} {
		if _, err := Ratios(o); err == nil {
			t.Errorf("Ratios(%+v): no error", o)
		}
	}
}

// TestTimeRounds: rounds run every f in order, an untimed warm-up round
// first; a fixed rule gives exactly that many timed rounds; errors stop
// the loop.
func TestTimeRounds(t *testing.T) {
	var order []int
	fs := []func() error{
		func() error { order = append(order, 0); return nil },
		func() error { order = append(order, 1); return nil },
	}
	med, reps, err := timeRounds(timing{minReps: 4, maxReps: 4, minTime: time.Hour}, fs...)
	if err != nil || reps != 4 || len(med) != 2 {
		t.Fatalf("%v, %d reps, %v", med, reps, err)
	}
	if want := []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}; !slices.Equal(order, want) {
		t.Errorf("calls %v, want %v", order, want)
	}
	boom := errors.New("boom")
	calls := 0
	if _, _, err := timeRounds(timing{minReps: 3, maxReps: 3}, func() error {
		if calls++; calls == 2 {
			return boom
		}
		return nil
	}); !errors.Is(err, boom) || calls != 2 {
		t.Errorf("error %v after %d calls", err, calls)
	}
}
