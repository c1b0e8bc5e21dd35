package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/symbo/symbo/lab/experiments"
)

// The progress displays of the runner (runner.go) on stderr: a bar for
// the parallel runs of a plan, a line for the units of one sequential
// run. Both redraw in place on a terminal; elsewhere (a log, a pipe) they
// print plain lines, and a heartbeat line whenever heartbeatEvery passed
// without one.

// progressBar shows a batch's progress on stderr. The bar counts finished
// runs (not their cost); elapsed time and the ETA
// (experiments.Progress.ETAAt: measured per-cell run times, a cost model
// until a cell has one, the time the running runs have already had) are
// recomputed every second. On a terminal the line is redrawn every
// second, from the start. Elsewhere (a log, a pipe) it prints one plain
// line per finished run, and a heartbeat line whenever heartbeatEvery
// passed without one — while one long run is in progress too.
type progressBar struct {
	w     io.Writer
	label string
	live  bool
	now   func() time.Time

	mu      sync.Mutex
	p       experiments.Progress
	at      time.Time // when p arrived
	start   time.Time
	printed time.Time // when a plain line was last printed
	drawn   bool
	stop    func() // stops the ticker
}

// heartbeatEvery is the longest a plain (not live) progress display stays
// silent.
const heartbeatEvery = 30 * time.Second

func newProgressBar(w io.Writer, label string) *progressBar {
	b := newProgressBarAt(w, label, isTerminal(w), time.Now)
	b.stop = everySecond(b.tick)
	return b
}

// newProgressBarAt returns a bar on the clock now, without its ticker
// (tests call tick).
func newProgressBarAt(w io.Writer, label string, live bool, now func() time.Time) *progressBar {
	t := now()
	return &progressBar{w: w, label: label, live: live, now: now, start: t, printed: t}
}

// tick is the once-a-second refresh: a redraw on a terminal, a heartbeat
// line elsewhere once heartbeatEvery passed since the last line.
func (b *progressBar) tick() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.p.Total == 0 {
		return
	}
	now := b.now()
	switch {
	case b.live:
		b.draw(now)
	case now.Sub(b.printed) >= heartbeatEvery && b.p.Done < b.p.Total:
		b.println(now)
	}
}

func (b *progressBar) update(p experiments.Progress) {
	b.mu.Lock()
	defer b.mu.Unlock()
	first := b.p.Total == 0
	now := b.now()
	b.p, b.at = p, now
	if b.live {
		b.draw(now)
		return
	}
	if first || p.Done > p.Resumed {
		b.println(now)
	}
}

func (b *progressBar) println(now time.Time) {
	fmt.Fprintln(b.w, b.line(now))
	b.printed = now
}

// line is the progress text at now.
func (b *progressBar) line(now time.Time) string {
	p := b.p
	var left time.Duration
	if p.ETAAt != nil {
		left = p.ETAAt(now)
	} else {
		left = max(p.ETA-now.Sub(b.at), 0)
	}
	eta := "ETA " + fmtDuration(left)
	if p.Done == p.Total {
		eta = "done"
	}
	extra := ""
	if p.Resumed > 0 {
		extra = fmt.Sprintf(" (%d resumed)", p.Resumed)
	}
	return fmt.Sprintf("%s: %d/%d runs%s  %s elapsed  %s", b.label, p.Done, p.Total, extra, fmtDuration(now.Sub(b.start)), eta)
}

func (b *progressBar) draw(now time.Time) {
	const width = 30
	p := b.p
	fill := width * p.Done / max(p.Total, 1)
	fmt.Fprintf(b.w, "\r[%s%s] %s   ", strings.Repeat("#", fill), strings.Repeat("-", width-fill), b.line(now))
	b.drawn = true
}

func (b *progressBar) finish() {
	if b.stop != nil {
		b.stop()
		b.stop = nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn {
		fmt.Fprint(b.w, "\n")
	}
}

func fmtDuration(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// lineProgress reports progress on stderr: one line redrawn in place on a
// terminal, one line per update otherwise (a log, a pipe), and there a
// heartbeat — the last update again, with the time since it — whenever
// heartbeatEvery passed without a line (one long evaluation). finish
// must be called.
type lineProgress struct {
	w     io.Writer
	label string
	live  bool
	now   func() time.Time

	mu      sync.Mutex
	drawn   bool
	width   int
	last    string    // the last update's text
	at      time.Time // when it came
	printed time.Time // when a plain line was last printed
	stop    func()    // stops the ticker
}

func newLineProgress(w io.Writer, label string) *lineProgress {
	p := newLineProgressAt(w, label, isTerminal(w), time.Now)
	if !p.live {
		p.stop = everySecond(p.tick)
	}
	return p
}

// newLineProgressAt returns a lineProgress on the clock now, without its
// ticker (tests call tick).
func newLineProgressAt(w io.Writer, label string, live bool, now func() time.Time) *lineProgress {
	return &lineProgress{w: w, label: label, live: live, now: now, printed: now()}
}

func (p *lineProgress) printf(format string, a ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	msg := p.label + ": " + fmt.Sprintf(format, a...)
	p.last, p.at = msg, p.now()
	if !p.live {
		fmt.Fprintln(p.w, msg)
		p.printed = p.at
		return
	}
	pad := max(p.width-len(msg), 0)
	fmt.Fprint(p.w, "\r"+msg+strings.Repeat(" ", pad))
	p.width, p.drawn = len(msg), true
}

// tick prints the heartbeat of a plain display when it is due.
func (p *lineProgress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.live || p.last == "" || now.Sub(p.printed) < heartbeatEvery {
		return
	}
	fmt.Fprintf(p.w, "%s (still running, %s since)\n", p.last, fmtDuration(now.Sub(p.at)))
	p.printed = now
}

// finish stops the heartbeat and ends a live line.
func (p *lineProgress) finish() {
	if p.stop != nil {
		p.stop()
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// everySecond calls tick once a second, from a goroutine of its own,
// until the returned function is called; it returns once tick is no
// longer running.
func everySecond(tick func()) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				tick()
			}
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}

// isTerminal reports whether w is a character device (a terminal), where
// progress redraws one line; elsewhere it prints plain lines.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
