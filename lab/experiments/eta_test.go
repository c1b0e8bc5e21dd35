package experiments

import (
	"fmt"
	"math"
	"sort"
	"testing"
	"time"

	"github.com/symbo/symbo/bo/problem"
)

// etaScenario is a batch replayed on a fake clock: run i belongs to
// cell[i], the cost model says cost[i], and it takes secs[i]; runs start
// in order on workers goroutines.
type etaScenario struct {
	cell    []string
	cost    []float64
	secs    []float64
	order   []int
	workers int
}

// etaReport is one estimate during the replay and the true remaining
// time at that moment.
type etaReport struct {
	at, eta, actual float64
	done            int
	what            string
}

// replay runs the scenario through the ETA model with a fake clock and
// returns its estimate at every finished run (what Progress reports) and
// every 30 s between them (what the heartbeat prints).
func (s etaScenario) replay() []etaReport {
	m := newETAModel(s.cost, s.cell, secondsPerCost, s.workers)
	for i := range s.cell {
		m.add(i)
	}
	t0 := time.Unix(1e9, 0)
	at := func(sec float64) time.Time { return t0.Add(time.Duration(sec * float64(time.Second))) }
	type run struct {
		end float64
		i   int
	}
	var running []run
	var reports []etaReport
	next, done, beat := 0, 0, 0.0
	startNext := func(now float64) {
		if next < len(s.order) {
			i := s.order[next]
			next++
			m.start(i, at(now))
			running = append(running, run{now + s.secs[i], i})
		}
	}
	for range s.workers {
		startNext(0)
	}
	for len(running) > 0 {
		sort.Slice(running, func(a, b int) bool { return running[a].end < running[b].end })
		r := running[0]
		running = running[1:]
		for beat+30 < r.end {
			beat += 30
			reports = append(reports, etaReport{at: beat, eta: m.eta(at(beat)).Seconds(), done: done, what: "heartbeat"})
		}
		m.finished(r.i, s.secs[r.i])
		done++
		reports = append(reports, etaReport{at: r.end, eta: m.eta(at(r.end)).Seconds(), done: done, what: "finish " + s.cell[r.i]})
		startNext(r.end)
	}
	end := reports[len(reports)-1].at
	for k := range reports {
		reports[k].actual = end - reports[k].at
	}
	return reports
}

// TestETASlowCell (issue 15): the ETA while the slowest cell runs. A
// table's shape: one slow cell (10 runs of 30 s: Scaling2d's orbit
// average by quadrature) whose cost model is 20× too low (as avgnorm's
// was, priced like the base kernel), ten cheap cells (10 runs of 0.3 s,
// modelled right), two workers, the slow runs first. Replayed on a fake
// clock, the estimate at every finished run and every 30-s heartbeat,
// from the first finished slow run on (before it, nothing says the cell
// is slow), stays within a factor 2 of the true remaining time. Before,
// one finished slow run set the seconds-per-cost rate of every cell not
// measured yet (measured seconds / modelled cost, pooled), so the cheap
// cells were predicted at 30 s each and the ETA was 12× too high, and a
// run in progress counted in full however long it had run.
func TestETASlowCell(t *testing.T) {
	var s etaScenario
	add := func(cell string, n int, cost, secs float64) {
		for range n {
			s.order = append(s.order, len(s.cell))
			s.cell = append(s.cell, cell)
			s.cost = append(s.cost, cost)
			s.secs = append(s.secs, secs)
		}
	}
	add("Scaling2d/avgnorm", 10, 1.5, 30)
	for c := range 10 {
		add(fmt.Sprintf("cheap%d/base", c), 10, 1.5, 0.3)
	}
	s.workers = 2
	reports := s.replay()
	slowSeen := false
	for _, r := range reports {
		if r.what == "finish Scaling2d/avgnorm" {
			slowSeen = true
		}
		if !slowSeen || r.actual < 1 {
			continue
		}
		if ratio := r.eta / r.actual; ratio > 2 || ratio < 0.5 {
			t.Errorf("at %.0f s (%d/%d runs, %s): ETA %.0f s, true remaining %.0f s (%.2g×)", r.at, r.done, len(s.cell), r.what, r.eta, r.actual, ratio)
		}
	}
}

// TestETAInProgress: a long run in progress counts only the rest of its
// predicted time, or half the time it has run if that is more, and the
// estimate is never below the longest single run still to finish. One
// measured cell of 100-s runs, one left on two workers with nothing else:
// the ETA counts down with the clock instead of staying at 100 s; a run
// past its prediction still counts (the ETA once read 0 s for half a
// minute of a run that was going on).
func TestETAInProgress(t *testing.T) {
	m := newETAModel([]float64{1, 1, 1}, []string{"c", "c", "c"}, secondsPerCost, 2)
	t0 := time.Unix(1e9, 0)
	for i := range 3 {
		m.add(i)
	}
	m.start(0, t0)
	m.start(1, t0)
	m.finished(0, 100)
	m.start(2, t0.Add(100*time.Second))
	for _, tc := range []struct {
		at, want float64
	}{
		{100, 100}, // run 1 due (50 s: half its 100 s), run 2 just started (100 s): the longest
		{130, 70},  // run 1 65 s, run 2 70 s
		{160, 80},  // run 1 80 s, run 2 40 s (its 60 s run is past 2/3 of 100)
		{250, 125}, // run 1 overdue by 150 s: half its 250 s
		{299, 149.5},
	} {
		if got := m.eta(t0.Add(time.Duration(tc.at * float64(time.Second)))).Seconds(); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("at %.0f s: ETA %.3g s, want %.3g s", tc.at, got, tc.want)
		}
	}
	// Queued work spreads over the workers, but not below the longest run.
	q := newETAModel([]float64{1, 1, 1, 1}, []string{"a", "a", "b", "b"}, secondsPerCost, 2)
	for i := range 4 {
		q.add(i)
	}
	q.finished(0, 10)
	q.finished(2, 1)
	if got := q.eta(t0).Seconds(); math.Abs(got-10) > 1e-6 {
		t.Errorf("runs of 10 s and 1 s on 2 workers: ETA %.3g s, want 10 s (the longest run)", got)
	}
}

// TestETARate: the rate of cells not measured yet is the median of the
// measured cells' rates with the prior counted twice: one odd cell leaves
// it at the prior, three agreeing cells set it.
func TestETARate(t *testing.T) {
	cells := []string{"slow", "x", "y", "z", "new"}
	m := newETAModel([]float64{1, 1, 1, 1, 2}, cells, 0.2, 1)
	for i := range cells {
		m.add(i)
	}
	m.finished(0, 20) // rate 20: one odd cell
	if r := m.rate(); r != 0.2 {
		t.Errorf("after one slow cell: rate %g, want the prior 0.2", r)
	}
	for i := 1; i <= 3; i++ {
		m.finished(i, 0.5)
	}
	if r := m.rate(); r != 0.5 {
		t.Errorf("after three cells at 0.5 s: rate %g, want 0.5", r)
	}
	if got := m.eta(time.Unix(0, 0)).Seconds(); math.Abs(got-1) > 1e-9 {
		t.Errorf("the unmeasured run of cost 2: ETA %g s, want 1", got)
	}
}

// TestEstimatedCostDeciding: a deciding kernel's prior cost is the sum of
// its candidates' (auto and portfolio alike, whichever are favoured), so
// the portfolio with soft costs more than the one without and more than
// any candidate; soft costs more than plus, plus more than base.
func TestEstimatedCostDeciding(t *testing.T) {
	p, err := problem.New("Griewank6d", 0)
	if err != nil {
		t.Fatal(err)
	}
	c := func(k string) float64 { return EstimatedCost(p, k) }
	three := c("nystrom") + c("avg") + c("plus")
	for _, k := range []string{"auto", "portfolio", "portfolio:nystrom+avg+plus", "auto:nystrom+avg:plus"} {
		if got := c(k); math.Abs(got-three) > 1e-12*three {
			t.Errorf("%s: cost %v, its candidates' sum %v", k, got, three)
		}
	}
	four := c("portfolio:nystrom+avg:soft+plus")
	if four != c("portfolio:nystrom+avg+soft+plus") || math.Abs(four-three-c("soft")) > 1e-12*four {
		t.Errorf("the soft portfolio's cost %v, without soft %v, soft %v", four, three, c("soft"))
	}
	if !(c("soft") > c("plus") && c("plus") > c("base")) {
		t.Errorf("soft %v, plus %v, base %v", c("soft"), c("plus"), c("base"))
	}
}
