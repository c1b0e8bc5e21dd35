package experiments

import (
	"math"
	"testing"

	"github.com/symbo/symbo/bo"
)

// TestRegretAtRound: after r rounds of q evaluations, the cumulative
// regret sums the first r·q acquisition regrets and the simple regret is
// the best so far, from a hand-made trace (2 initial points in round 0,
// then rounds 1, 2, 3 of 2, 2 and 1 evaluations).
func TestRegretAtRound(t *testing.T) {
	tr := &bo.Trace{}
	rounds := []int{0, 0, 1, 1, 2, 2, 3}
	for i, r := range rounds {
		ph := bo.PhaseBO
		if i < 2 {
			ph = bo.PhaseInit
		}
		tr.Evaluations = append(tr.Evaluations, bo.Evaluation{Phase: ph, Round: r})
	}
	tr.CumulativeRegret = []float64{5, 8, 10, 11, 11.5} // regrets 5, 3, 2, 1, 0.5
	tr.SimpleRegret = []float64{4, 3, 2, 1, 0.5}
	for _, c := range []struct {
		rounds      int
		cum, simple float64
	}{{1, 8, 3}, {2, 11, 1}, {3, 11.5, 0.5}, {9, 11.5, 0.5}} {
		if got := cumulativeAtRound(tr, c.rounds); got != c.cum {
			t.Errorf("cumulative after %d rounds = %v, want %v", c.rounds, got, c.cum)
		}
		if got := simpleAtRound(tr, c.rounds); got != c.simple {
			t.Errorf("simple after %d rounds = %v, want %v", c.rounds, got, c.simple)
		}
	}
	if !math.IsNaN(cumulativeAtRound(tr, 0)) {
		t.Error("no round: want NaN")
	}
}
