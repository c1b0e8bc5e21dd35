package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/atomicfile"
	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/internal/journal"
	"github.com/symbo/symbo/lab/experiments"
)

// runner runs an experiment for a subcommand. It owns what a long run
// needs besides its computation:
//
//   - the journal that makes it resumable (internal/journal): created for
//     a new run; on --resume opened (a symbolic link in an --out directory
//     refused), verified (every line carries the run's identity, so a
//     line of another run is refused; a torn last line is dropped, with a
//     note), its settings and records read back strictly, and a warning
//     where it cannot vouch for them (warnResumed);
//   - the signal context: SIGINT or SIGTERM stops the run, and the error
//     (exit status 130) says what was kept and the command that resumes
//     it;
//   - the progress display on stderr (progress.go): a bar with an ETA for
//     the runs of a plan, a line per unit of one sequential run, each with
//     a heartbeat when stderr is not a terminal.
//
// An experiment supplies its settings (the journal's header), the names
// of its messages, and then either a plan of runs (runPlan: the runs of
// experiments.Plan in parallel, each finished run's result one journal
// record) or one sequential computation that journals its units as it
// goes (stream: perf bo's evaluations). The zero journal fields mean no
// journal: the run is not resumable.
type runner struct {
	cmd    string    // "perf table": the prefix of messages, the progress label and the journal's kind
	stderr io.Writer // progress, notes and warnings
	unit   string    // what one journal record is, in messages: "run record", "evaluation"
	whole  string    // what a journal makes resumable: "table", "run"
	// enable is the flag that makes a journal, e.g. "--out DIR"; "" for a
	// command that keeps none.
	enable string

	path      string // the journal ("" without one)
	resumeCmd string // the command that resumes it
	w         *journal.Writer
	// lock is the output directory's lock (hold), released by close
	// after the journal is closed; nil without one.
	lock *atomicfile.Lock

	// sig is cancelled by SIGINT or SIGTERM from the first runPlan or
	// stream until close (signals): a signal that arrives once the
	// computation has finished, while the outputs are written, is caught
	// too, and the next output refuses to start (stopped) instead of the
	// process dying between two files.
	sig     context.Context
	stopSig context.CancelFunc
	held    bool // the holdEnv=outputs hook has held
}

// planRecord is the journal record of a run of a plan: its index in the
// plan and its result. The result's field is named trace because the
// first runs journaled this way (perf table's) were bo traces: the journal
// format keeps the name.
type planRecord[T any] struct {
	Index int `json:"index"`
	Trace T   `json:"trace"`
}

// create starts a new journal at path (refused as bad input of flag if it
// cannot be created) holding settings, which cmdline resumes.
func (r *runner) create(flag, path, cmdline string, settings any) error {
	w, err := journal.Create(path, r.cmd, settings)
	if err != nil {
		return badInput("%s: %w", flag, err)
	}
	r.w, r.path, r.resumeCmd = w, path, cmdline
	return nil
}

// resume opens the journal name inside the --out directory dir (dir "":
// the file name), which cmdline resumes, and appends after it from then
// on. It decodes the journal's settings into settings and returns its
// records; every problem with the journal is bad input.
func resume[R any](r *runner, dir, name, cmdline string, settings any) ([]R, error) {
	path := name
	var (
		c   *journal.Contents
		err error
	)
	if dir != "" {
		path = filepath.Join(dir, name)
		c, r.w, err = journal.OpenIn(dir, name, r.cmd)
	} else {
		c, r.w, err = journal.Open(name, r.cmd)
	}
	if err != nil {
		return nil, badInput("--resume: %w", err)
	}
	r.path, r.resumeCmd = path, cmdline
	if err := strictJSON(c.Header.Settings, settings); err != nil {
		return nil, badInput("--resume %s: settings: %w", path, err)
	}
	recs := make([]R, len(c.Records))
	for i, raw := range c.Records {
		if err := strictJSON(raw, &recs[i]); err != nil {
			return nil, badInput("--resume %s: %s %d: %w", path, r.unit, i, err)
		}
	}
	if c.Torn {
		fmt.Fprintf(r.stderr, "%s: %s: dropped a torn last line (the %s was killed while writing it)\n", r.cmd, path, r.whole)
	}
	if err := warnResumed(r.stderr, r.cmd, path, c); err != nil {
		return nil, err
	}
	if err := pinEnv(r.stderr, r.cmd, path, c.Header.Env); err != nil {
		return nil, err
	}
	return recs, nil
}

// pinEnv sets the environment variables that change results (the
// linear-algebra backend, OpenBLAS's threads: journal.Env) to the values
// the journal's run started with, saying so on stderr for each that
// differs, so that a resumed run computes what the uninterrupted one
// would have whatever the resuming shell's environment. A journal written
// before the environment was recorded (env nil) changes nothing.
func pinEnv(stderr io.Writer, cmd, path string, env map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(env)) {
		v, now := env[k], os.Getenv(k)
		if v == now {
			continue
		}
		show := func(s string) string {
			if s == "" {
				return k + " unset"
			}
			return k + "=" + s
		}
		fmt.Fprintf(stderr, "%s: %s was started with %s; resuming with it (this environment has %s)\n", cmd, path, show(v), show(now))
		var err error
		if v == "" {
			err = os.Unsetenv(k)
		} else {
			err = os.Setenv(k, v)
		}
		if err != nil {
			return fmt.Errorf("--resume %s: %s: %w", path, k, err)
		}
	}
	return nil
}

// close closes the journal, if any, then releases the output
// directory's lock, if any (hold) — in that order, so that the run the
// lock lets in next (a --resume of the directory) finds the journal's own
// lock free — and restores the default signal handling. It returns err,
// the command's error, or else the journal's Close error (with err's, in
// its message, when both failed).
func (r *runner) close(err error) error {
	if r.w != nil {
		if cerr := r.w.Close(); cerr != nil {
			if err == nil {
				err = fmt.Errorf("closing the journal %s: %w", r.path, cerr)
			} else {
				err = fmt.Errorf("%w (and closing the journal %s: %v)", err, r.path, cerr)
			}
		}
		r.w = nil
	}
	r.lock.Release()
	r.lock = nil
	if r.stopSig != nil {
		r.stopSig()
	}
	return err
}

// hold makes lock, the output directory's, the runner's: close releases
// it after closing the journal.
func (r *runner) hold(lock *atomicfile.Lock) { r.lock = lock }

// signals returns the runner's signal context (see sig), made on the
// first call.
func (r *runner) signals() context.Context {
	if r.sig == nil {
		r.sig, r.stopSig = signalContext()
	}
	return r.sig
}

// stopped is the error of a run stopped by a signal after its
// computation, before an output is written (nil when none arrived): each
// output already written is whole, and the journal holds every run.
func (r *runner) stopped() error {
	if os.Getenv(holdEnv) == holdOutputs && !r.held {
		r.held = true
		holdBeforeOutputs(r.signals(), r.stderr)
	}
	if r.sig != nil && r.sig.Err() != nil {
		return r.interrupted("stopped before writing every output")
	}
	return nil
}

// preflight refuses, before any journal, output or progress line, a
// plan whose runs cannot start — over the memory budget (--mem-budget:
// bo.Run refuses a run whose largest fit exceeds it before its first
// evaluation), or any other setting bo.Run checks first: the first run
// not yet kept of each cell (Run.Cell) is started under a cancelled
// context, which builds its optimizer, checks it and stops before it
// evaluates anything. The runs of kept (a resumed journal's) are not
// checked: they will not run again.
func preflight(runs []experiments.Run[*bo.Trace], kept []planRecord[*bo.Trace]) error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(map[int]bool, len(kept))
	for _, k := range kept {
		done[k.Index] = true
	}
	cells := map[string]bool{}
	for i, r := range runs {
		if done[i] || cells[r.Cell] {
			continue
		}
		cells[r.Cell] = true
		if _, err := r.Do(ctx); err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("run %d (%s): %w", i, r.Label, err)
		}
	}
	return nil
}

// runPlan executes plan on workers goroutines (0: GOMAXPROCS) with a
// progress bar until it finishes or a signal stops it. With a journal,
// each finished run's result is appended to it, and the runs of kept (its
// records, see resume) are not run again.
func runPlan[T, Res any](r *runner, plan experiments.Plan[T, Res], workers int, kept []planRecord[T]) (Res, error) {
	var zero Res
	done := make(map[int]T, len(kept))
	for _, k := range kept {
		if _, dup := done[k.Index]; dup {
			return zero, badInput("--resume %s: run %d journaled twice", r.path, k.Index)
		}
		done[k.Index] = k.Trace
	}
	ctx := r.signals()
	var appendErr error
	bar := newProgressBar(r.stderr, r.cmd)
	o := experiments.ExecOptions[T]{Workers: workers, Context: ctx, Progress: bar.update, Done: done}
	if r.w != nil {
		hold := newHold(r.stderr)
		o.OnRun = func(i int, v T) error {
			if err := r.w.Append(planRecord[T]{Index: i, Trace: v}); err != nil {
				appendErr = err
				return err
			}
			return hold.after(ctx)
		}
	}
	res, err := plan.Execute(o)
	bar.finish()
	if err != nil && ctx.Err() != nil {
		return zero, r.interrupted("")
	}
	if err != nil && appendErr != nil {
		return zero, r.notJournaled(err, "the runs journaled before it")
	}
	return res, err
}

// notJournaled is err, an append to the journal that failed (a full disk,
// a file size limit), with what the journal keeps and the command that
// resumes from it once the cause is fixed: the journal is cut back to its
// last whole record, so the resume computes what an uninterrupted run
// would.
func (r *runner) notJournaled(err error, kept string) error {
	return fmt.Errorf("%w; %s are kept in %s; once the cause is fixed, resume with: %s", err, kept, shellQuote(r.path), r.resumeCmd)
}

// outputsFailed is err, the failure of writing the outputs (or stdout)
// once every run or evaluation is journaled — a full disk, say — with
// where they are kept and the command that finishes the job once the
// cause is fixed: a resume runs nothing again and writes the outputs.
// Without a journal, an interruption (already saying how to resume) or
// nil, err is returned as it is; its class, hence the exit status, is
// err's.
func (r *runner) outputsFailed(err error) error {
	var ie *interruptedError
	if err == nil || r.w == nil || errors.As(err, &ie) {
		return err
	}
	return fmt.Errorf("%w; every %s is kept in %s; once the cause is fixed, resume with: %s", err, r.unit, r.path, r.resumeCmd)
}

// stream runs work, one sequential computation of total units of which
// the first kept were journaled before (and are replayed by work, not
// passed to keep again), until it finishes or a signal stops it. work
// passes each new unit to keep, which journals it and reports it on a
// progress line headed label.
func (r *runner) stream(label string, total, kept int, work func(ctx context.Context, keep func(unit any) error) error) error {
	ctx := r.signals()
	prog := newLineProgress(r.stderr, label)
	if kept > 0 {
		prog.printf("resuming after %d of %d %ss from %s", kept, total, r.unit, r.path)
	}
	n := kept
	hold := newHold(r.stderr)
	var appendErr error
	err := work(ctx, func(unit any) error {
		if r.w != nil {
			if err := r.w.Append(unit); err != nil {
				appendErr = err
				return err
			}
		}
		n++
		prog.printf("%s %d/%d", r.unit, n, total)
		if r.w != nil {
			return hold.after(ctx)
		}
		return nil
	})
	prog.finish()
	if err != nil && ctx.Err() != nil {
		return r.interrupted(fmt.Sprintf("stopped after %d of %d %ss", n, total, r.unit))
	}
	if err != nil && appendErr != nil {
		return r.notJournaled(err, fmt.Sprintf("the first %d of %d %ss", n, total, r.unit))
	}
	return err
}

// interrupted is the error of a run stopped by a signal: what was kept
// and how to resume. stopped, for a sequential run (all it finished is
// kept), says how far it got; a plan's runs in progress are dropped.
func (r *runner) interrupted(stopped string) error {
	switch {
	case r.enable == "":
		return interrupted(r.cmd + " keeps no journal; rerun it")
	case r.w == nil:
		msg := fmt.Sprintf("nothing was kept (run with %s to make a %s resumable)", r.enable, r.whole)
		if stopped != "" {
			msg = stopped + "; " + msg
		}
		return interrupted(msg)
	case stopped != "":
		return interrupted(fmt.Sprintf("%s, all kept in %s; resume with: %s", stopped, r.path, r.resumeCmd))
	}
	return interrupted(fmt.Sprintf("finished runs are kept in %s; resume with: %s", shellQuote(r.path), r.resumeCmd))
}

// signalContext returns a context cancelled on SIGINT or SIGTERM (the
// first one; a second kills the process as usual) and its stop function.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // restore the default: a second signal terminates
	}()
	return ctx, stop
}

// warnResumed says on stderr what a resumed journal cannot vouch for: a
// version-1 journal's records are not bound to its run (a record spliced
// from another run's journal would go unnoticed; version 2 refuses it),
// and a journal created by another build than the running one mixes two
// versions of the code, so the result may differ from an uninterrupted
// run's. When both builds name their VCS revision and they differ (a
// tree with uncommitted changes counting as another), the resume is
// refused (bad input): the outputs would name the resuming build's
// commit alone, and perf check would rerun them against it; a build that
// names none (-buildvcs=false, go test) only gets the warning.
func warnResumed(stderr io.Writer, cmd, path string, c *journal.Contents) error {
	if c.Run == "" {
		fmt.Fprintf(stderr, "%s: warning: %s is a version-%d journal, whose records are not bound to their run: records spliced from another run's journal would go unnoticed\n", cmd, path, c.Header.Version)
	}
	if now, code := buildCode(), c.Header.Code; code != now {
		was, is := codeRevision(code), codeRevision(now)
		if was != "" && is != "" && was != is {
			return badInput("--resume %s: the journal was started by revision %s, this is %s: the resumed result would mix two versions of the code under one commit's name; resume it with the build that started it, or start it again", path, was, is)
		}
		if code == "" {
			code = "an unrecorded build"
		}
		fmt.Fprintf(stderr, "%s: warning: %s was started by %s, this is %s: the resumed result may differ from an uninterrupted run's\n", cmd, path, code, now)
	}
	return nil
}

// buildCode identifies the running build (journal.Code); a variable so
// that a test can be another build.
var buildCode = journal.Code

// codeRevision returns the VCS revision a journal.Code string names (its
// third field, "+modified" kept: "path version revision[+modified]"),
// "" when it names none.
func codeRevision(code string) string {
	if f := strings.Fields(code); len(f) >= 3 {
		return f[len(f)-1]
	}
	return ""
}

// strictJSON decodes data into v as the front ends decode a history
// (frontend.Decode): unknown, duplicated or differently cased keys,
// trailing data, and null or a missing required field where a number
// goes are refused — a journal record whose "y" is null would otherwise
// replay as y = 0, its checksum holding.
func strictJSON(data []byte, v any) error {
	return frontend.Decode(data, v)
}

// shellQuote quotes a path for a shell command line when it needs it: in
// single quotes, or, for a path that an error message's one line would
// not keep — a control character, a space other than ' ', two spaces in
// a row (finish folds every run of white space into one ' ', so a
// newline would read "; ", naming another path) — in ANSI-C quotes
// ($'…': bash, zsh, ksh) with each byte but printable ASCII escaped.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r == ',' || r == ':' || r == '=' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'))
	}) < 0 {
		return s
	}
	if !strings.Contains(s, "  ") && strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.IsSpace(r) && r != ' '
	}) < 0 {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for _, c := range []byte(s) {
		switch {
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c <= ' ' || c >= 0x7f:
			fmt.Fprintf(&b, "\\x%02x", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("'")
	return b.String()
}

// holdEnv is a test hook: with PERF_TEST_HOLD_AFTER=N, a journaled
// command stops after its N-th journal record of this process is
// written, says so on stderr ("perf: holding after N records") and waits
// for a signal, so that a test can interrupt or kill it at a known point
// instead of racing a timer. With PERF_TEST_HOLD_AFTER=outputs it holds
// once every run is done, before the first output is written
// (runner.stopped). Unset (always, outside tests), nothing waits.
const (
	holdEnv     = "PERF_TEST_HOLD_AFTER"
	holdOutputs = "outputs"
)

// holdBeforeOutputs waits for ctx (a signal) with holdEnv=outputs, once
// the computation is done and before the first output is written (the
// test hook of runner.stopped, and of the commands without a runner);
// unset, it returns at once.
func holdBeforeOutputs(ctx context.Context, stderr io.Writer) {
	if os.Getenv(holdEnv) == holdOutputs {
		fmt.Fprintf(stderr, "\nperf: holding after the runs, before the outputs (%s)\n", holdEnv)
		<-ctx.Done()
	}
}

// stoppedBeforeOutputs is the interruption of a command cmd that keeps no
// journal and writes its outputs only after its computation, which
// returned err: after holdBeforeOutputs (when the computation succeeded),
// a signal on ctx makes it the error saying that nothing was written;
// otherwise it is nil (and err is the caller's to return).
func stoppedBeforeOutputs(ctx context.Context, stderr io.Writer, cmd string, err error) error {
	if err == nil {
		holdBeforeOutputs(ctx, stderr)
	}
	if ctx.Err() != nil {
		return interrupted(cmd + " keeps no journal; nothing was written, rerun it")
	}
	return nil
}

// hold counts journal records and waits after the N-th (holdEnv).
type hold struct {
	n      int64 // 0: never
	stderr io.Writer
	mu     sync.Mutex
	count  int64
}

func newHold(stderr io.Writer) *hold {
	n, _ := strconv.ParseInt(os.Getenv(holdEnv), 10, 64)
	return &hold{n: max(n, 0), stderr: stderr}
}

// after counts one record; at and after the N-th it waits for ctx (a
// signal) and returns its error.
func (h *hold) after(ctx context.Context) error {
	if h.n == 0 {
		return nil
	}
	h.mu.Lock()
	h.count++
	c := h.count
	h.mu.Unlock()
	if c < h.n {
		return nil
	}
	if c == h.n {
		fmt.Fprintf(h.stderr, "\nperf: holding after %d records (%s)\n", c, holdEnv)
	}
	<-ctx.Done()
	return ctx.Err()
}
