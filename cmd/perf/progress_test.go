package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/symbo/symbo/lab/experiments"
)

// TestProgressHeartbeat (issue 15): when stderr is not a terminal the
// progress display prints a line per finished run and, while nothing
// finishes — one long run in progress — a heartbeat line once 30 s passed
// since the last line, with the elapsed time and the ETA recomputed for
// that moment (Progress.ETAAt); none after the last run. Before, a plain
// display printed on finished runs only: a 3-minute run was 3 silent
// minutes. Driven by a fake clock.
func TestProgressHeartbeat(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	now := t0
	var buf bytes.Buffer
	b := newProgressBarAt(&buf, "perf table", false, func() time.Time { return now })
	etaAt := func(at time.Time) time.Duration { return max(200*time.Second-at.Sub(t0), 0) }
	lines := func() []string { return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") }
	step := func(sec int) {
		now = now.Add(time.Duration(sec) * time.Second)
		b.tick()
	}

	b.update(experiments.Progress{Done: 0, Total: 3, ETA: etaAt(now), ETAAt: etaAt})
	for range 29 {
		step(1)
	}
	if got := lines(); len(got) != 1 || got[0] != "perf table: 0/3 runs  0s elapsed  ETA 3m20s" {
		t.Fatalf("after 29 s: %q", got)
	}
	step(1)
	if got := lines(); len(got) != 2 || got[1] != "perf table: 0/3 runs  30s elapsed  ETA 2m50s" {
		t.Fatalf("after 30 s: %q, want a heartbeat", got)
	}
	step(15)
	b.update(experiments.Progress{Done: 1, Total: 3, ETA: etaAt(now), ETAAt: etaAt})
	for range 29 {
		step(1)
	}
	if got := lines(); len(got) != 3 || got[2] != "perf table: 1/3 runs  45s elapsed  ETA 2m35s" {
		t.Fatalf("29 s after a finished run: %q", got)
	}
	step(1)
	if got := lines(); len(got) != 4 || got[3] != "perf table: 1/3 runs  1m15s elapsed  ETA 2m05s" {
		t.Fatalf("30 s after a finished run: %q, want a heartbeat", got)
	}
	b.update(experiments.Progress{Done: 3, Total: 3, ETAAt: etaAt})
	for range 120 {
		step(1)
	}
	if got := lines(); len(got) != 5 || !strings.HasSuffix(got[4], "done") {
		t.Fatalf("after the last run: %q, want no heartbeat", got)
	}
	b.finish()
}

// TestProgressLiveETA: on a terminal the line is redrawn every second
// with the ETA recomputed for that moment, not only counted down from the
// last finished run's report.
func TestProgressLiveETA(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	now := t0
	var buf bytes.Buffer
	b := newProgressBarAt(&buf, "perf table", true, func() time.Time { return now })
	b.update(experiments.Progress{Done: 1, Total: 4, ETA: time.Minute, ETAAt: func(at time.Time) time.Duration {
		return time.Minute + at.Sub(t0) // a run overdue: the estimate grows
	}})
	now = now.Add(10 * time.Second)
	b.tick()
	if s := buf.String(); !strings.Contains(s, "10s elapsed  ETA 1m10s") || strings.Count(s, "\r") != 2 {
		t.Errorf("live display %q", s)
	}
	b.finish()
	if !strings.HasSuffix(buf.String(), "\n") {
		t.Error("finish did not end the live line")
	}
}

// TestLineProgressHeartbeat: perf bo's plain progress (one line per
// evaluation) repeats its last line with the time since it once 30 s
// passed without one, as during one long evaluation; a terminal's live
// line needs none.
func TestLineProgressHeartbeat(t *testing.T) {
	now := time.Unix(1e9, 0)
	var buf bytes.Buffer
	p := newLineProgressAt(&buf, "perf bo: Ackley2d plus seed 1", false, func() time.Time { return now })
	p.tick()
	now = now.Add(time.Minute)
	p.tick() // nothing reported yet: nothing to repeat
	p.printf("evaluation %d/%d", 7, 55)
	for range 29 {
		now = now.Add(time.Second)
		p.tick()
	}
	now = now.Add(time.Second)
	p.tick()
	now = now.Add(45 * time.Second)
	p.tick()
	want := "perf bo: Ackley2d plus seed 1: evaluation 7/55\n" +
		"perf bo: Ackley2d plus seed 1: evaluation 7/55 (still running, 30s since)\n" +
		"perf bo: Ackley2d plus seed 1: evaluation 7/55 (still running, 1m15s since)\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	p.finish()
	var live bytes.Buffer
	q := newLineProgressAt(&live, "x", true, func() time.Time { return now })
	q.printf("evaluation 1/2")
	now = now.Add(time.Hour)
	q.tick()
	q.finish()
	if live.String() != "\rx: evaluation 1/2\n" {
		t.Errorf("live: %q", live.String())
	}
}
