package frontend

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/errclass"
	"gonum.org/v1/gonum/mat"
)

// TestSuggestBatchExhaustedSaysHowMany: Suggest (the C ABI's
// symbo_suggest) refuses a batch the search space runs out of midway —
// a 1-d box under sign flips whose history covers [0, 1] at spacing
// 0.002 (the exclusion radius) but for a gap around 0.51 — with bo's
// error (an input error, its message first) saying how many of the q
// points could be proposed, k, and that q = k returns them; q = k does.
// Before, the error was bo's alone.
func TestSuggestBatchExhaustedSaysHowMany(t *testing.T) {
	var xs, ys []float64
	for i := 0; i <= 1000; i += 2 {
		if x := float64(i) / 1000; x <= 0.5 || x >= 0.52 {
			xs, ys = append(xs, x), append(ys, math.Sin(7*x))
		}
	}
	hx := mat.NewDense(len(xs), 1, xs)
	st := SuggestSettings{Group: Group{Group: "hyperoctahedral", D: 1, Box: [][]float64{{-1}, {1}}}}
	suggest := func(q int) (*mat.Dense, error) {
		opt, err := st.Optimizer(nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return Suggest(opt, hx, ys, nil, nil, q)
	}
	_, err := suggest(20)
	if !errors.Is(err, bo.ErrSpaceExhausted) || errclass.Of(err) != errclass.Input || !strings.HasPrefix(err.Error(), bo.ErrSpaceExhausted.Error()) {
		t.Fatalf("q = 20: %v, want bo.ErrSpaceExhausted first", err)
	}
	m := regexp.MustCompile(`; only (\d+) of the q = 20 points could be proposed \(the points counted above include them\): q = (\d+) returns those$`).FindStringSubmatch(err.Error())
	if m == nil || m[1] != m[2] {
		t.Fatalf("q = 20: %q does not say how many points could be proposed", err)
	}
	k, _ := strconv.Atoi(m[1])
	if k < 1 || k >= 20 {
		t.Fatalf("%q: %d points proposed, want 1…19", err, k)
	}
	if pts, err := suggest(k); err != nil || pts.RawMatrix().Rows != k {
		t.Errorf("q = %d: %v", k, err)
	}
	if _, err := suggest(k + 1); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("only %d of the q = %d points", k, k+1)) {
		t.Errorf("q = %d: %v", k+1, err)
	}
	// Another error, or exhaustion at the batch's first point, is passed
	// on as it is.
	other := errors.New("x")
	if ExhaustedBatch(other, 3, 5, "q =") != other || ExhaustedBatch(bo.ErrSpaceExhausted, 0, 5, "q =") != bo.ErrSpaceExhausted {
		t.Error("ExhaustedBatch changed an error it should pass on")
	}
}
