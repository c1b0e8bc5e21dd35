package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/symbo/symbo/internal/atomicfile"
	"github.com/symbo/symbo/internal/journal"
	"github.com/symbo/symbo/linalg"
)

// TestMain lets tests run perf as a real subprocess (to kill it): with
// PERF_TEST_MAIN=1 the test binary is perf.
func TestMain(m *testing.M) {
	if os.Getenv("PERF_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	if dir := os.Getenv("PERF_TEST_LOCK"); dir != "" {
		holdLock(dir)
	}
	os.Exit(m.Run())
}

// lockedBuffer is a bytes.Buffer that a test may read while a child
// process's output is copied into it (os/exec copies from a goroutine).
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// heldCmd is a perf process started with the test hook holdEnv: it stops
// after its n-th journal record and waits for a signal. startHeld returns
// once it holds (the event its stderr announces), so a test interrupts or
// kills it at a known point instead of racing a timer; the 5-minute
// limit only fails a hung start.
type heldCmd struct {
	*exec.Cmd
	stderr *lockedBuffer
	done   chan error // the process's exit, once
}

func startHeld(t *testing.T, c *exec.Cmd, n int) *heldCmd {
	t.Helper()
	return startHeldAt(t, c, strconv.Itoa(n))
}

// startHeldAt is startHeld with holdEnv's value n: a count of records, or
// holdOutputs.
func startHeldAt(t *testing.T, c *exec.Cmd, n string) *heldCmd {
	t.Helper()
	c.Env = append(c.Env, fmt.Sprintf("%s=%s", holdEnv, n))
	h := &heldCmd{Cmd: c, stderr: &lockedBuffer{}, done: make(chan error, 1)}
	pr, pw := io.Pipe()
	c.Stderr = pw
	held := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		once := false
		for sc.Scan() {
			h.stderr.Write(append(sc.Bytes(), '\n'))
			if !once && strings.HasPrefix(sc.Text(), "perf: holding after ") {
				once = true
				close(held)
			}
		}
		io.Copy(io.Discard, pr)
	}()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { err := c.Wait(); pw.Close(); h.done <- err }()
	select {
	case <-held:
	case err := <-h.done:
		h.done <- err
		t.Fatalf("exited (%v) before holding after %s: %s", err, n, h.stderr.String())
	case <-time.After(5 * time.Minute):
		c.Process.Kill()
		t.Fatalf("no hold after %s in 5 minutes: %s", n, h.stderr.String())
	}
	return h
}

// wait returns the process's exit error.
func (h *heldCmd) wait() error { return <-h.done }

func (l *lockedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

// perfCmd returns the test binary as perf with args.
func perfCmd(dir string, args ...string) *exec.Cmd {
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), "PERF_TEST_MAIN=1")
	c.Dir = dir
	return c
}

// TestHostileInput: the crashes, hangs and silent answers of the
// reliability issue, each now exit 2 with one line on stderr, decided
// before any large allocation or long loop.
func TestHostileInput(t *testing.T) {
	same3 := writeFile(t, "same3.csv", "1,2,3\n1,2,3\n1,2,3\n")
	p2 := writeFile(t, "p2.csv", "1,2\n3,4\n")
	huge := writeFile(t, "m.json", `{"dim":4294967296}`)
	trail := writeFile(t, "t.json", `{"dim":2} xyz`)
	var rows strings.Builder
	for i := range 600 {
		fmt.Fprintf(&rows, "%d,%d,%d\n", i, i+1, i+2)
	}
	big := writeFile(t, "big.csv", rows.String())
	// The same rows and a bad last one: sized from the row count, refused
	// over budget before it is parsed (else the error would be the bad row).
	bigBad := writeFile(t, "bigbad.csv", rows.String()+"x,y,z\n")
	users := writeFile(t, "users.csv", "\ufeff1, 2\r\n3,4\r\n")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"gram over budget", []string{"gram", "--group", "hyperoctahedral", "--d", "3", "--base", "rbf", "--lengthscale", "1", "--kernel", "base", "--x", big, "--mem-budget", "1MiB"}, []string{"budget", "600×600"}},
		{"gram over budget before parsing", []string{"gram", "--group", "hyperoctahedral", "--d", "3", "--base", "rbf", "--lengthscale", "1", "--kernel", "base", "--x", bigBad, "--mem-budget", "1MiB"}, []string{"budget", "601×601"}},
		{"bad mem budget", []string{"gram", "--mem-budget", "lots"}, []string{"--mem-budget"}},
		{"matrices dim 2^32", []string{"gram", "--group", "matrices", "--d", "2", "--base", "rbf", "--lengthscale", "1", "--kernel", "max", "--matrices", huge, "--x", p2}, []string{"MaxMatrixDim"}},
		{"matrices trailing data", []string{"gram", "--group", "matrices", "--d", "2", "--base", "rbf", "--lengthscale", "1", "--kernel", "max", "--matrices", trail, "--x", p2}, []string{"after the JSON value"}},
		{"bo iters MaxInt64", []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--iters", "9223372036854775807"}, []string{"--iters"}},
		{"bo iters 1e8", []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--iters", "100000000"}, []string{"--iters"}},
		{"bo init huge", []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "9223372036854775806"}, []string{"--init"}},
		{"table seeds 1e9", []string{"table", "--seeds", "1000000000"}, []string{"--seeds"}},
		{"plus variance 1e308", []string{"gram", "--group", "hyperoctahedral", "--d", "3", "--base", "rbf", "--lengthscale", "1", "--kernel", "plus", "--variance", "1e308", "--x", same3}, []string{"eigenvalue"}},
		{"signflip d 1e12", []string{"gram", "--group", "signflip", "--d", "1000000000000", "--base", "rbf", "--lengthscale", "1", "--kernel", "base", "--x", p2}, []string{"maximum dimension"}},
		{"scaling d 1e9", []string{"gram", "--group", "scaling", "--d", "1000000000", "--base", "rbf", "--lengthscale", "1", "--kernel", "base", "--x", p2}, []string{"maximum dimension"}},
		{"permutation d 1e7", []string{"gram", "--group", "permutation", "--d", "10000000", "--base", "rbf", "--lengthscale", "1", "--kernel", "base", "--x", p2}, []string{"maximum dimension"}},
		{"profile signflip 1e12", []string{"profile", "--group", "signflip", "--d", "1000000000000"}, []string{"maximum dimension"}},
		{"profile hyperoctahedral 20", []string{"profile", "--group", "hyperoctahedral", "--d", "20", "--n", "55", "--max-phase-seconds", "1"}, []string{"hyperoctahedral(20)"}},
		{"repeated flag", []string{"eval", "--problem", "ackley", "--problem", "rastrigin", "--x", p2}, []string{"given twice"}},
		{"json not writable", []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--json", "/sys/x.json"}, []string{"--json"}},
		{"checkpoint not writable", []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--checkpoint", "/proc/x.journal"}, []string{"--checkpoint"}},
		{"table out not writable", []string{"table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Ackley2d", "--kernels", "base", "--out", "/sys", "--force"}, []string{"--out"}},
		{"robustness out not writable", []string{"robustness", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "rastrigin", "--dims", "1", "--kernels", "base", "--out", "/sys", "--force"}, []string{"--out"}},
		{"complexity out not writable", []string{"complexity", "--group", "signflip", "--d", "3", "--n", "6,12", "--sweep", "signflip:2-3", "--group-n", "6", "--m", "4", "--min-time", "1us", "--max-reps", "2", "--out", "/sys"}, []string{"--out"}},
		{"users bad field", []string{"eval", "--problem", "wlan", "--x", p2, "--users", writeFile(t, "u.csv", "1,2\n3,x\n")}, []string{"u.csv:2:2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One line on stderr and nothing on stdout: refused before any
			// progress, i.e. before the run (a hang or an out-of-memory
			// crash fails the test by itself; no timing is asserted).
			code, stdout, stderr := runCLI(t, tc.args...)
			checkOneLineError(t, code, stdout, stderr, "perf "+tc.args[0]+": ", tc.want...)
		})
	}
	// --users and --x read one dialect: a BOM, spaces and CRLF are fine for both.
	if code, _, stderr := runCLI(t, "eval", "--problem", "WLAN4d", "--x", writeFile(t, "ap.csv", "\ufeff1, 2,3,4\r\n"), "--users", users); code != exitOK {
		t.Errorf("users with BOM/CRLF: exit %d: %s", code, stderr)
	}
}

func stripTimingsJSON(t *testing.T, data []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%v in %.200s", err, data)
	}
	var walk func(any) any
	walk = func(x any) any {
		switch x := x.(type) {
		case map[string]any:
			for k := range x {
				if k == "timings" || k == "seconds" || k == "wall_seconds" || k == "environment" {
					delete(x, k)
					continue
				}
				x[k] = walk(x[k])
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return x
	}
	b, _ := json.Marshal(walk(v))
	return string(b)
}

var timeLine = regexp.MustCompile(`(?m)^time .*$`)

// TestBOKillResume: perf bo killed with SIGKILL at several moments resumes
// from its checkpoint to the same --json trace and stdout (timings aside)
// as an uninterrupted run. Each kill lands after the progress line of a
// given evaluation, and counts only if it left a partial journal (at
// least one evaluation kept, not all): a kill that came too late (the run
// had finished) is tried again, and a moment with no partial journal in
// three tries fails — a resume that replays nothing, or has nothing left
// to compute, tests nothing.
func TestBOKillResume(t *testing.T) {
	dir := t.TempDir()
	const total = 3 + 12
	args := []string{"bo", "--problem", "Ackley2d", "--kernel", "plus", "--seed", "4", "--init", "3", "--iters", "12"}
	ref := perfCmd(dir, append(args, "--json", "ref.json")...)
	refOut, err := ref.Output()
	if err != nil {
		t.Fatal(err)
	}
	refJSON, _ := os.ReadFile(filepath.Join(dir, "ref.json"))
	want := stripTimingsJSON(t, refJSON)
	// kept counts the whole records of a journal (a torn last line, the
	// kill landing while it was written, is not one).
	kept := func(p string) int {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			return -1
		}
		return strings.Count(string(b), "\n") - 1
	}
	for _, after := range []int{1, 4, 8, 11} {
		jp := fmt.Sprintf("run%d.journal", after)
		out := fmt.Sprintf("run%d.json", after)
		// The journal holds the header and the first after evaluations
		// when the process is killed.
		h := startHeld(t, perfCmd(dir, append(args, "--json", out, "--checkpoint", jp)...), after)
		h.Process.Kill()
		h.wait()
		if n := kept(jp); n != after {
			t.Fatalf("killed holding after evaluation %d: %d evaluations journaled", after, n)
		}
		r := perfCmd(dir, "bo", "--resume", jp)
		var stderr bytes.Buffer
		r.Stderr = &stderr
		got, err := r.Output()
		if err != nil {
			t.Fatalf("kill after evaluation %d: resume: %v: %s", after, err, stderr.String())
		}
		if note := fmt.Sprintf("resuming after %d of %d evaluations", after, total); !strings.Contains(stderr.String(), note) {
			t.Errorf("kill after evaluation %d: resume's stderr lacks %q:\n%s", after, note, stderr.String())
		}
		if timeLine.ReplaceAllString(string(got), "") != timeLine.ReplaceAllString(string(refOut), "") {
			t.Errorf("kill after evaluation %d: stdout differs:\n%s\nwant\n%s", after, got, refOut)
		}
		data, err := os.ReadFile(filepath.Join(dir, out))
		if err != nil {
			t.Fatal(err)
		}
		if stripTimingsJSON(t, data) != want {
			t.Errorf("kill after evaluation %d: trace differs from the uninterrupted run", after)
		}
	}
}

// TestResumeChecksOutputs: perf bo --resume checks its --json path before
// replaying and continuing the run, as the first run did (it computed the
// whole run and failed at the end).
func TestResumeChecksOutputs(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(dir, "cp.journal")
	args := []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--json", filepath.Join(sub, "x.json"), "--checkpoint", cp}
	if code, _, stderr := runCLI(t, args...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := os.RemoveAll(sub); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "bo", "--resume", cp)
	checkOneLineError(t, code, stdout, stderr, "perf bo: ", "--json")
}

// TestProfileKillKeepsFiles: perf profile killed with SIGKILL while it
// profiles leaves the previous --cpuprofile and --memprofile files whole
// (they were truncated at the start and left partial).
func TestProfileKillKeepsFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"cpu.pprof", "mem.pprof"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := perfCmd(dir, "profile", "--group", "hyperoctahedral", "--d", "5", "--n", "55,400", "--min-time", "2s",
		"--cpuprofile", "cpu.pprof", "--memprofile", "mem.pprof")
	// Killed once it reports its first phase (the event: a line on
	// stderr), while it profiles: phases of at least 2 s lie ahead.
	pr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(pr).ReadString('\n'); err != nil {
		t.Fatalf("no progress line: %v", err)
	}
	c.Process.Kill()
	io.Copy(io.Discard, pr)
	c.Wait()
	for _, f := range []string{"cpu.pprof", "mem.pprof"} {
		if b, _ := os.ReadFile(filepath.Join(dir, f)); string(b) != "old" {
			t.Errorf("%s after the kill: %.40q, want the previous file", f, b)
		}
	}
}

// TestProfileComplexityInterrupt: perf profile and perf complexity
// stopped by SIGINT or SIGTERM while they measure exit 130 with one line
// on stderr, and leave no temporary file (profile's --cpuprofile and
// --memprofile were left as hidden .tmp- files, the previous file kept
// beside them) nor lock file (complexity's --out), nothing on stdout.
// They had no signal handling: the process died by the signal, silently.
func TestProfileComplexityInterrupt(t *testing.T) {
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"profile", syscall.SIGINT, []string{"profile", "--group", "hyperoctahedral", "--d", "5", "--n", "55,400", "--min-time", "2s",
			"--cpuprofile", "cpu.pprof", "--memprofile", "mem.pprof"}},
		{"complexity", syscall.SIGTERM, []string{"complexity", "--out", "o"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "cpu.pprof"), []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			c := perfCmd(dir, tc.args...)
			var stdout bytes.Buffer
			c.Stdout = &stdout
			// Signalled once it reports its first measurement (a line
			// on stderr): more lie ahead.
			_, rest, err := signalAfterFirstLine(t, c, tc.sig)
			wantInterrupted(t, err, rest, "perf "+tc.name+": interrupted: ")
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
			err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && atomicfile.IsTemp(d.Name()) {
					t.Errorf("left %s behind", p)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "cpu.pprof")); string(b) != "old" {
				t.Errorf("cpu.pprof after the signal: %.40q, want the previous file", b)
			}
		})
	}
}

// TestOutDirStaleTemporaries: a kill -9 while perf table created its
// journal may leave atomicfile's hidden temporary in --out; running the
// same command again is not refused as "not empty".
func TestOutDirStaleTemporaries(t *testing.T) {
	out := filepath.Join(t.TempDir(), "res")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, ".runs.journal.tmp-123456"), []byte("{\"seq\":0"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Radial2d", "--kernels", "base", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(out, "mine.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Radial2d", "--kernels", "base", "--out", out)
	checkOneLineError(t, code, stdout, stderr, "perf table: ", "not empty")
}

// TestInterruptPrintsResume: SIGINT stops perf bo cleanly, exit 130, with
// the resume command on stderr; resuming finishes the run.
func TestInterruptPrintsResume(t *testing.T) {
	dir := t.TempDir()
	// The run holds after its seventh evaluation (the test hook) until the
	// signal lands.
	h := startHeld(t, perfCmd(dir, "bo", "--problem", "Rastrigin5d", "--kernel", "plus", "--iters", "10", "--checkpoint", "r.journal"), 7)
	h.Process.Signal(syscall.SIGINT)
	err := h.wait()
	stderr := h.stderr
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, stderr %s", err, stderr.String())
	}
	last := strings.TrimSpace(stderr.String())
	last = last[strings.LastIndex(last, "\n")+1:]
	if !strings.Contains(last, "perf bo --resume r.journal") {
		t.Fatalf("last stderr line %q lacks the resume command", last)
	}
	if out, err := perfCmd(dir, "bo", "--resume", "r.journal").CombinedOutput(); err != nil {
		t.Fatalf("resume: %v: %s", err, out)
	}
	if out, err := perfCmd(dir, "bo", "--resume", "r.journal", "--seed", "3").CombinedOutput(); err == nil || !strings.Contains(string(out), "remove --seed") {
		t.Errorf("--resume with a setting: %v %s", err, out)
	}
}

// TestTableKillResume: perf table killed mid-way resumes from its journal
// to the same table.md and results.json (timings aside).
func TestTableKillResume(t *testing.T) {
	dir := t.TempDir()
	// The table holds after its third journaled run (the test hook) until
	// it is killed.
	args := []string{"table", "--seeds", "3", "--iters", "5", "--init", "3", "--problems", "Ackley2d,Radial2d", "--kernels", "base,plus", "--workers", "1"}
	if out, err := perfCmd(dir, append(args, "--out", "ref")...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	h := startHeld(t, perfCmd(dir, append(args, "--out", "cut")...), 3)
	h.Process.Kill()
	h.wait()
	if _, err := os.Stat(filepath.Join(dir, "cut", "table.md")); err == nil {
		t.Fatal("the killed table finished before the kill")
	}
	// --workers given again changes the parallelism of the remaining runs
	// only: results.json keeps the workers its command names.
	if out, err := perfCmd(dir, "table", "--out", "cut", "--resume", "--workers", "2").CombinedOutput(); err != nil {
		t.Fatalf("resume: %v: %s", err, out)
	}
	for _, f := range []string{"results.json"} {
		a, _ := os.ReadFile(filepath.Join(dir, "ref", f))
		b, _ := os.ReadFile(filepath.Join(dir, "cut", f))
		if stripTimingsJSON(t, a) != stripTimingsJSON(t, b) {
			t.Errorf("%s differs after resume", f)
		}
	}
	md := func(d string) string {
		b, _ := os.ReadFile(filepath.Join(dir, d, "table.md"))
		s := string(b)
		s = s[:strings.Index(s, "Environment:")] // timings and environment follow
		return strings.Replace(s, "--out "+d, "--out X", 1)
	}
	if md("ref") != md("cut") {
		t.Errorf("table.md differs after resume:\n%s\nvs\n%s", md("ref"), md("cut"))
	}
}

// TestResumeReadOnlyOut: --resume into an --out directory where the
// outputs cannot be written is refused before any run (it ran every
// remaining run, then failed writing results.json). Root writes anywhere,
// so the test needs another user.
func TestResumeReadOnlyOut(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes in a read-only directory")
	}
	dir := t.TempDir()
	h := startHeld(t, perfCmd(dir, "table", "--seeds", "2", "--iters", "2", "--init", "3", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1", "--out", "T"), 1)
	h.Process.Kill()
	h.wait()
	out := filepath.Join(dir, "T")
	if err := os.Chmod(out, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(out, 0o755)
	c := perfCmd(dir, "table", "--out", "T", "--resume")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	err := c.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "--out") {
		t.Fatalf("resume into a read-only --out: %v, stderr %q; want exit %d and one line naming --out", err, stderr.String(), exitUsage)
	}
	if strings.Contains(stderr.String(), "results.json") {
		t.Errorf("refused only after the runs: %q", stderr.String())
	}
}

// TestStudyKillResume: perf batch and perf robustness journal their runs
// as perf table does (they once kept none: a kill -9 lost everything):
// killed after their third journaled run and resumed with --out DIR
// --resume alone (the study's arguments come from the journal), they end
// with the results and the record of an uninterrupted study.
func TestStudyKillResume(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"batch", []string{"batch", "--qs", "1,2", "--seeds", "2", "--iters", "4", "--init", "3", "--problems", "Ackley2d", "--kernels", "base,plus", "--workers", "1"}},
		{"robustness", []string{"robustness", "--seeds", "2", "--iters", "4", "--init", "3", "--problems", "rastrigin", "--dims", "1,2", "--kernels", "base,plus", "--workers", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if out, err := perfCmd(dir, append(tc.args, "--out", "ref")...).CombinedOutput(); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			h := startHeld(t, perfCmd(dir, append(tc.args, "--out", "cut")...), 3)
			h.Process.Kill()
			h.wait()
			if _, err := os.Stat(filepath.Join(dir, "cut", "record.json")); err == nil {
				t.Fatal("the killed study finished before the kill")
			}
			code, stdout, stderr := runCLI(t, tc.name, "--out", filepath.Join(dir, "cut"), "--resume", "--seeds", "3")
			checkOneLineError(t, code, stdout, stderr, "perf "+tc.name+": ", "--seeds")
			out, err := perfCmd(dir, tc.name, "--out", "cut", "--resume").CombinedOutput()
			if err != nil {
				t.Fatalf("resume: %v: %s", err, out)
			}
			if !regexp.MustCompile(`\(([3-9]|\d\d) resumed\)`).Match(out) {
				t.Errorf("the resume reran the journaled runs: %s", out)
			}
			a, _ := os.ReadFile(filepath.Join(dir, "ref", "results.json"))
			b, _ := os.ReadFile(filepath.Join(dir, "cut", "results.json"))
			if stripTimingsJSON(t, a) != stripTimingsJSON(t, b) {
				t.Error("results.json differs after resume")
			}
			var recs [2]resultsRecord
			for i, d := range []string{"ref", "cut"} {
				data, _ := os.ReadFile(filepath.Join(dir, d, recordFile))
				if err := json.Unmarshal(data, &recs[i]); err != nil {
					t.Fatal(err)
				}
				for j := range recs[i].Runs {
					recs[i].Runs[j].Seconds = 0
				}
			}
			if !reflect.DeepEqual(recs[0].Runs, recs[1].Runs) || strings.Replace(recs[0].Command, "--out ref", "--out cut", 1) != recs[1].Command {
				t.Errorf("record.json differs after resume: %q vs %q", recs[0].Command, recs[1].Command)
			}
		})
	}
}

// TestResumeWarnsOtherBuild: a checkpoint started by another build is
// resumed with one warning line on stderr (the results may mix two
// versions of the code); by the same build, silently.
func TestResumeWarnsOtherBuild(t *testing.T) {
	dir := t.TempDir()
	cp := filepath.Join(dir, "cp.journal")
	args := []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--checkpoint", cp}
	if code, _, stderr := runCLI(t, args...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, _, stderr := runCLI(t, "bo", "--resume", cp)
	if code != exitOK || strings.Contains(stderr, "warning") {
		t.Fatalf("same build: exit %d, stderr %q", code, stderr)
	}
	// Rewrite the header's code, with its checksum, as another build would
	// (the build is not part of the run's identity: the run id stays).
	data, _ := os.ReadFile(cp)
	first, rest, _ := strings.Cut(string(data), "\n")
	var line struct {
		Seq   int             `json:"seq"`
		Run   string          `json:"run"`
		CRC32 uint32          `json:"crc32"`
		Data  json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal([]byte(first), &line); err != nil {
		t.Fatal(err)
	}
	var h map[string]json.RawMessage
	json.Unmarshal(line.Data, &h)
	h["code"] = json.RawMessage(`"github.com/symbo/symbo v0.0.1 0123abcd"`)
	hd, _ := json.Marshal(struct {
		Format   json.RawMessage `json:"format"`
		Version  json.RawMessage `json:"version"`
		Kind     json.RawMessage `json:"kind"`
		Settings json.RawMessage `json:"settings"`
		Code     json.RawMessage `json:"code"`
	}{h["format"], h["version"], h["kind"], h["settings"], h["code"]})
	// The checksum of journal format 2 covers the line without itself.
	crc := crc32.ChecksumIEEE(fmt.Appendf(nil, `{"seq":0,"run":%q,"data":%s}`, line.Run, hd))
	hdr := fmt.Sprintf(`{"seq":0,"run":%q,"crc32":%d,"data":%s}`, line.Run, crc, hd)
	if err := os.WriteFile(cp, []byte(hdr+"\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "bo", "--resume", cp)
	if code != exitOK || strings.Count(stderr, "warning") != 1 || !strings.Contains(stderr, "v0.0.1 0123abcd") {
		t.Errorf("other build: exit %d, stderr %q", code, stderr)
	}
}

// TestResumePinsEnv: a run resumes under the environment it started with
// (journal.Env: the backend linalg.Default picks, OpenBLAS's threads),
// whatever the resuming shell says, and says so on stderr. Started with
// SYMBO_BACKEND=gonum and resumed with SYMBO_BACKEND=openblas, the resume
// computes with gonum: before, it took the shell's backend, so a trace
// begun on one backend went on with another under the first's name (or,
// in a build without OpenBLAS, the resume failed).
func TestResumePinsEnv(t *testing.T) {
	dir := t.TempDir()
	cp := filepath.Join(dir, "cp.journal")
	t.Setenv(linalg.EnvBackend, "gonum")
	args := []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--checkpoint", cp}
	code, want, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Setenv(linalg.EnvBackend, "openblas")
	code, got, stderr := runCLI(t, "bo", "--resume", cp)
	if code != exitOK || !strings.Contains(stderr, "started with SYMBO_BACKEND=gonum; resuming with it (this environment has SYMBO_BACKEND=openblas)") {
		t.Fatalf("resume: exit %d, stderr %q", code, stderr)
	}
	if b := os.Getenv(linalg.EnvBackend); b != "gonum" {
		t.Errorf("after the resume %s = %q, want gonum", linalg.EnvBackend, b)
	}
	if !strings.Contains(got, "gonum") || stripTimes(got) != stripTimes(want) {
		t.Errorf("resumed stdout differs from the run's:\n%s\nwant\n%s", got, want)
	}
}

// TestResumeRefusesSplicedJournal (issue 15, defect 8): a journal whose
// header is one run's and whose records are another's is refused on
// resume, exit 2 and one line naming the first foreign line: perf bo with
// plus's header over avg's evaluations (Ackley2d, seed 1, as in the
// issue), perf table with an --acq ucb header over --acq ei runs. Before,
// both resumed with exit 0: "Ackley2d plus seed 1" carried avg's regret,
// and the ucb table showed the ei numbers.
func TestResumeRefusesSplicedJournal(t *testing.T) {
	dir := t.TempDir()
	lines := func(p string) []string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ls := strings.SplitAfter(string(b), "\n")
		return ls[:len(ls)-1] // each with its "\n"
	}
	splice := func(dst, header, records string) {
		h, r := lines(header), lines(records)
		if err := os.WriteFile(dst, []byte(h[0]+strings.Join(r[1:], "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bo := []string{"bo", "--problem", "Ackley2d", "--seed", "1", "--init", "3", "--iters", "3"}
	for _, k := range []string{"plus", "avg"} {
		if code, _, stderr := runCLI(t, append(bo, "--kernel", k, "--checkpoint", filepath.Join(dir, k+".journal"))...); code != exitOK {
			t.Fatalf("perf bo --kernel %s: exit %d: %s", k, code, stderr)
		}
	}
	s := filepath.Join(dir, "s.journal")
	splice(s, filepath.Join(dir, "plus.journal"), filepath.Join(dir, "avg.journal"))
	code, stdout, stderr := runCLI(t, "bo", "--resume", s)
	checkOneLineError(t, code, stdout, stderr, "perf bo: ", "s.journal:2: a record of another run")

	table := []string{"table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Radial2d", "--kernels", "base,plus", "--workers", "1"}
	for _, acq := range []string{"ucb", "ei"} {
		if code, _, stderr := runCLI(t, append(table, "--acq", acq, "--out", filepath.Join(dir, acq))...); code != exitOK {
			t.Fatalf("perf table --acq %s: exit %d: %s", acq, code, stderr)
		}
	}
	ucb := filepath.Join(dir, "ucb", tableJournalFile)
	splice(ucb, ucb, filepath.Join(dir, "ei", tableJournalFile))
	code, stdout, stderr = runCLI(t, "table", "--out", filepath.Join(dir, "ucb"), "--resume")
	checkOneLineError(t, code, stdout, stderr, "perf table: ", "runs.journal:2: a record of another run")
}

// TestResumeVersion1Journal: a perf bo checkpoint of journal format 1
// (before records were bound to their run) still resumes, with a warning
// that splicing would go unnoticed, to the uninterrupted run's result.
func TestResumeVersion1Journal(t *testing.T) {
	dir := t.TempDir()
	args := []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--seed", "2", "--init", "3", "--iters", "3"}
	code, want, stderr := runCLI(t, append(args, "--checkpoint", filepath.Join(dir, "v2.journal"))...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Rewrite the first 4 lines in format 1, as the previous build wrote
	// them: no run id, the checksum over the data only.
	var v1 strings.Builder
	b, _ := os.ReadFile(filepath.Join(dir, "v2.journal"))
	for i, l := range strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")[:4] {
		var line struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatal(err)
		}
		d := line.Data
		if i == 0 {
			d = bytes.Replace(d, []byte(`"version":2`), []byte(`"version":1`), 1)
		}
		fmt.Fprintf(&v1, `{"seq":%d,"crc32":%d,"data":%s}`+"\n", i, crc32.ChecksumIEEE(d), d)
	}
	p := filepath.Join(dir, "v1.journal")
	os.WriteFile(p, []byte(v1.String()), 0o644)
	code, got, stderr := runCLI(t, "bo", "--resume", p)
	if code != exitOK || timeLine.ReplaceAllString(got, "") != timeLine.ReplaceAllString(want, "") {
		t.Fatalf("exit %d, stdout\n%s\nwant\n%s\nstderr %s", code, got, want, stderr)
	}
	if !strings.Contains(stderr, "warning: "+p+" is a version-1 journal") || strings.Count(stderr, "warning") != 1 {
		t.Errorf("stderr %q, want one warning about the version-1 journal", stderr)
	}
	// It was appended to in format 1, and resumes again.
	if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(`"run"`)) {
		t.Errorf("a version-1 journal was appended to in version 2:\n%s", b)
	}
	if code, _, stderr := runCLI(t, "bo", "--resume", p); code != exitOK {
		t.Errorf("second resume: exit %d: %s", code, stderr)
	}
}

// TestOutDirSymlinks (issue 15, defect 9): a file perf writes inside an
// --out directory is never written through a symbolic link planted there:
// the link is replaced by the file and its target, outside the directory,
// keeps its bytes — for perf table --resume (the case) and every
// command with --out. A link in place of the journal is refused on
// resume. Before, atomicfile followed the link: `ln -s ../victim.txt
// DIR/table.md; perf table --out DIR --resume` overwrote victim.txt.
func TestOutDirSymlinks(t *testing.T) {
	root := t.TempDir()
	// plant replaces every file of dir (as a first run wrote them) by a
	// symbolic link to a victim outside dir, and returns the victims.
	plant := func(dir string) map[string]string {
		entries, err := os.ReadDir(dir)
		if err != nil || len(entries) == 0 {
			t.Fatalf("%s: %v %v", dir, entries, err)
		}
		victims := map[string]string{}
		for _, e := range entries {
			if e.Name() == tableJournalFile {
				continue
			}
			v := filepath.Join(root, "victim-"+filepath.Base(dir)+"-"+e.Name())
			if err := os.WriteFile(v, []byte("victim"), 0o644); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, e.Name())
			os.Remove(p)
			if err := os.Symlink(v, p); err != nil {
				t.Fatal(err)
			}
			victims[p] = v
		}
		return victims
	}
	check := func(victims map[string]string) {
		t.Helper()
		for p, v := range victims {
			if b, _ := os.ReadFile(v); string(b) != "victim" {
				t.Errorf("%s was written through the link %s", v, p)
			}
			if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
				t.Errorf("%s: %v, want a new regular file in place of the link", p, err)
			}
		}
	}

	t.Run("table resume", func(t *testing.T) {
		out := filepath.Join(root, "table")
		if code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Radial2d", "--kernels", "base", "--out", out); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		victims := plant(out)
		if code, _, stderr := runCLI(t, "table", "--out", out, "--resume"); code != exitOK {
			t.Fatalf("resume: exit %d: %s", code, stderr)
		}
		check(victims)
		// The journal itself: a link is refused, its target untouched.
		other := filepath.Join(root, "other.journal")
		j := filepath.Join(out, tableJournalFile)
		if err := os.Rename(j, other); err != nil {
			t.Fatal(err)
		}
		before, _ := os.ReadFile(other)
		if err := os.Symlink(other, j); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCLI(t, "table", "--out", out, "--resume")
		checkOneLineError(t, code, stdout, stderr, "perf table: ", "runs.journal is a symbolic link")
		if after, _ := os.ReadFile(other); !bytes.Equal(before, after) {
			t.Error("the journal's link target changed")
		}
	})
	for _, tc := range []struct {
		name string
		long bool // not with -short: plots are slow to render (under -race: seconds), and these writers are table's
		args []string
	}{
		{"batch", true, []string{"batch", "--qs", "1,2", "--seeds", "1", "--iters", "1", "--init", "2", "--problems", "Ackley2d", "--kernels", "base", "--force"}},
		{"robustness", true, []string{"robustness", "--seeds", "1", "--iters", "1", "--init", "2", "--problems", "rastrigin", "--dims", "1", "--kernels", "base", "--force"}},
		{"spectrum", false, []string{"spectrum", "--n", "40", "--d", "1", "--bases", "matern52", "--fit-hi", "10", "--force"}},
		{"figure", true, []string{"figure", "--name", "radial", "--grid", "5", "--force"}},
		{"complexity", true, []string{"complexity", "--group", "signflip", "--d", "3", "--n", "6,12", "--sweep", "signflip:2-3", "--group-n", "6", "--m", "4", "--landmark-m", "4", "--landmark-n", "12,24", "--landmark-ms", "4,8", "--min-time", "1us", "--max-reps", "2", "--force"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("-short: writes through the same functions as table and spectrum (make test-long runs it)")
			}
			out := filepath.Join(root, tc.name)
			args := append(tc.args, "--out", out)
			if code, _, stderr := runCLI(t, args...); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			victims := plant(out)
			if code, _, stderr := runCLI(t, args...); code != exitOK {
				t.Fatalf("second run: exit %d: %s", code, stderr)
			}
			check(victims)
		})
	}
}

// TestOneRunPerOut: a directory another run is writing is refused — exit
// 2 and one line naming it — by every command that writes an --out
// directory, before it reads, removes or writes anything there. Two perf table --out X --resume at once both exited 0 with
// their journal lines interleaved, and every later resume refused the
// journal; --force replaced the journal of a table still running. The
// other run is this test holding the directory's lock: flock locks belong
// to an open file description, so it conflicts as another process does.
// perf bo's --checkpoint journal, a file of the user's, is locked by the
// journal itself.
func TestOneRunPerOut(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	table := []string{"table", "--seeds", "1", "--iters", "1", "--init", "2", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1"}
	if code, _, stderr := runCLI(t, append(table, "--out", out)...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	jpath := filepath.Join(out, tableJournalFile)
	before, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(out, atomicfile.LockName)); !os.IsNotExist(err) {
		t.Errorf("the lock file outlives the run: %v", err)
	}
	lock, err := atomicfile.LockDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"table", "--out", out, "--resume"},
		append(table, "--out", out, "--force"),
		{"batch", "--seeds", "1", "--iters", "1", "--init", "2", "--kernels", "base", "--out", out, "--force"},
		{"robustness", "--seeds", "1", "--iters", "1", "--init", "2", "--kernels", "base", "--out", out, "--force"},
		{"spectrum", "--n", "40", "--out", out, "--force"},
		{"complexity", "--group", "signflip", "--d", "2", "--n", "6,12", "--sweep", "none", "--min-time", "1us", "--max-reps", "1", "--out", out},
		{"figure", "--name", "radial", "--grid", "5", "--out", out},
	} {
		code, stdout, stderr := runCLI(t, args...)
		checkOneLineError(t, code, stdout, stderr, "perf "+args[0]+": ", out, "locked by another run")
	}
	if after, _ := os.ReadFile(jpath); !bytes.Equal(before, after) {
		t.Errorf("the journal of the run holding %s changed", out)
	}
	lock.Release()
	if code, _, stderr := runCLI(t, "table", "--out", out, "--resume"); code != exitOK {
		t.Fatalf("resume once the other run is gone: exit %d: %s", code, stderr)
	}

	// perf bo --resume of a checkpoint another run appends to.
	cp := filepath.Join(dir, "cp.journal")
	if code, _, stderr := runCLI(t, "bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "2", "--iters", "1", "--checkpoint", cp); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, w, err := journal.Open(cp, "perf bo")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "bo", "--resume", cp)
	checkOneLineError(t, code, stdout, stderr, "perf bo: ", cp, "locked by another run")
	w.Close()
	if code, _, stderr := runCLI(t, "bo", "--resume", cp); code != exitOK {
		t.Fatalf("resume once the other run is gone: exit %d: %s", code, stderr)
	}
}

// holdLock is the test binary as another process holding the output
// directory dir (TestOneRunPerOutProcesses): it locks dir, says "locked"
// on stdout, and waits for its stdin to close (or for its kill).
func holdLock(dir string) {
	lock, err := atomicfile.LockDir(dir)
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("locked")
	io.Copy(io.Discard, os.Stdin)
	lock.Release()
	os.Exit(0)
}

// TestOneRunPerOutProcesses: TestOneRunPerOut with the other run a real
// process: its lock refuses perf table --resume here, and a kill -9 of it
// releases the lock (the kernel's doing), after which the resume runs.
func TestOneRunPerOutProcesses(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "1", "--init", "2", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1", "--out", out, "--force"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	c := exec.Command(os.Args[0])
	c.Env = append(os.Environ(), "PERF_TEST_LOCK="+out)
	stdin, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		c.Process.Kill()
		c.Wait()
		t.Fatalf("the other process: %q, %v", line, err)
	}
	code, so, se := runCLI(t, "table", "--out", out, "--resume")
	checkOneLineError(t, code, so, se, "perf table: ", out, "locked by another run")
	c.Process.Signal(syscall.SIGKILL)
	c.Wait()
	if code, _, stderr := runCLI(t, "table", "--out", out, "--resume"); code != exitOK {
		t.Fatalf("resume after the other process was killed: exit %d: %s", code, stderr)
	}
}

// stripTimes drops perf bo's timing line from its stdout.
func stripTimes(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "time ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestResumeJSONPath: a checkpointed run's relative --json path is kept
// absolute in the journal, so a resume from another directory writes the
// trace where the run would have (it wrote it into the resuming shell's
// directory).
func TestResumeJSONPath(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	t.Chdir(dir)
	args := []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--checkpoint", "cp.journal", "--json", "out.json"}
	if code, _, stderr := runCLI(t, args...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want, err := os.ReadFile(filepath.Join(dir, "out.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "out.json")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(other)
	if code, _, stderr := runCLI(t, "bo", "--resume", filepath.Join(dir, "cp.journal")); code != exitOK {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(other, "out.json")); err == nil {
		t.Error("the resume wrote out.json into its own directory")
	}
	got, err := os.ReadFile(filepath.Join(dir, "out.json"))
	if err != nil {
		t.Fatalf("the resume did not write the run's out.json: %v", err)
	}
	if stripTimingsJSON(t, got) != stripTimingsJSON(t, want) {
		t.Error("the resumed trace differs from the run's")
	}
}

// TestResumeRefusesNullNumber: a journal record whose "y" is null — its
// checksum recomputed, so the journal itself holds — is refused on
// resume, naming the field. Decoded by encoding/json alone it replayed
// as an observation y = 0.
func TestResumeRefusesNullNumber(t *testing.T) {
	dir := t.TempDir()
	cp := filepath.Join(dir, "cp.journal")
	if code, _, stderr := runCLI(t, "bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "1", "--checkpoint", cp); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(cp)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	var line struct {
		Seq   int             `json:"seq"`
		Run   string          `json:"run"`
		CRC32 uint32          `json:"crc32"`
		Data  json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal([]byte(lines[2]), &line); err != nil {
		t.Fatal(err)
	}
	forged := regexp.MustCompile(`"y":[^,]*`).ReplaceAll(line.Data, []byte(`"y":null`))
	if bytes.Equal(forged, line.Data) {
		t.Fatalf("no y in %s", line.Data)
	}
	crc := crc32.ChecksumIEEE(fmt.Appendf(nil, `{"seq":%d,"run":%q,"data":%s}`, line.Seq, line.Run, forged))
	lines[2] = fmt.Sprintf(`{"seq":%d,"run":%q,"crc32":%d,"data":%s}`+"\n", line.Seq, line.Run, crc, forged)
	if err := os.WriteFile(cp, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "bo", "--resume", cp)
	if code != exitUsage || !strings.Contains(stderr, "y is null") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("forged y: exit %d, stderr %q; want exit %d and one line naming y", code, stderr, exitUsage)
	}
}

// TestForceRemovesStaleOutputs: perf table --out DIR --force (and the
// studies') removes the previous run's files before it starts: killed
// after its first run, the forced table leaves its journal and none of
// the old table.md, results.json, record.json or figures — perf check
// then finds no record to check — and a file perf does not write stays.
// Before, only runs.journal was removed, so the stale record stood
// beside the new journal and perf check --dir DIR checked it, exit 0.
func TestForceRemovesStaleOutputs(t *testing.T) {
	dir := t.TempDir()
	tiny := []string{"--seeds", "2", "--iters", "2", "--init", "3", "--workers", "1"}
	for _, tc := range []struct {
		cmd   string
		args  []string
		files []string
	}{
		{"table", []string{"table", "--problems", "Ackley2d", "--kernels", "base"},
			[]string{"table.md", "results.json", "record.json", "regret.png", "regret.svg", "strips.png", "strips.svg"}},
		{"robustness", []string{"robustness", "--problems", "ackley", "--dims", "1", "--kernels", "base"},
			[]string{"robustness.md", "results.json", "record.json", "robustness.png", "robustness.svg"}},
		{"batch", []string{"batch", "--problems", "Ackley2d", "--qs", "1", "--kernels", "base"},
			[]string{"batch.md", "results.json", "record.json", "batch-evals.png", "batch-rounds.svg", "batch-rounds-cumulative.png"}},
	} {
		out := filepath.Join(dir, tc.cmd)
		args := append(append(tc.args, tiny...), "--out", out)
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Fatalf("%s: exit %d: %s", tc.cmd, code, stderr)
		}
		notes := filepath.Join(out, "notes.txt")
		if err := os.WriteFile(notes, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		h := startHeld(t, perfCmd(dir, append(args, "--force")...), 1)
		h.Process.Kill()
		h.wait()
		for _, f := range tc.files {
			if _, err := os.Stat(filepath.Join(out, f)); err == nil {
				t.Errorf("%s --force, killed after its first run: the previous run's %s is still there", tc.cmd, f)
			}
		}
		if _, err := os.Stat(filepath.Join(out, "runs.journal")); err != nil {
			t.Errorf("%s --force: no journal of the new run: %v", tc.cmd, err)
		}
		if b, err := os.ReadFile(notes); err != nil || string(b) != "mine" {
			t.Errorf("%s --force removed or changed a file it does not write: %q, %v", tc.cmd, b, err)
		}
		code, stdout, stderr := runCLI(t, "check", "--dir", out)
		checkOneLineError(t, code, stdout, stderr, "perf check: ", "no record.json")
	}
}

// TestResumeKeepsOthersJSON: perf bo --resume replaces the file at the
// run's --json path only when the run was started with --force or the
// file is the trace this run wrote (killed after writing it: its
// evaluations are the journal's); another file written there since is
// exit 2 with one line, left as it was. Before, any file there was
// overwritten without --force.
func TestResumeKeepsOthersJSON(t *testing.T) {
	dir := t.TempDir()
	for _, force := range []bool{false, true} {
		out, cp := filepath.Join(dir, fmt.Sprint("out", force, ".json")), filepath.Join(dir, fmt.Sprint("cp", force, ".journal"))
		args := []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--json", out, "--checkpoint", cp}
		if force {
			args = append(args, "--force")
		}
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		// The run's own trace is replaced (by the same run's).
		want, _ := os.ReadFile(out)
		if code, _, stderr := runCLI(t, "bo", "--resume", cp); code != exitOK {
			t.Fatalf("resume over the run's own trace: exit %d: %s", code, stderr)
		}
		if got, _ := os.ReadFile(out); stripTimingsJSON(t, got) != stripTimingsJSON(t, want) {
			t.Error("the resume over the run's own trace wrote another trace")
		}
		// Another run's trace at the path.
		other := []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--seed", "7", "--init", "3", "--iters", "2", "--json", out, "--force"}
		if code, _, stderr := runCLI(t, other...); code != exitOK {
			t.Fatalf("other run: exit %d: %s", code, stderr)
		}
		theirs, _ := os.ReadFile(out)
		code, stdout, stderr := runCLI(t, "bo", "--resume", cp)
		if !force {
			checkOneLineError(t, code, stdout, stderr, "perf bo: ", "--json "+out+" already exists", "not this run's trace")
			if got, _ := os.ReadFile(out); !bytes.Equal(got, theirs) {
				t.Error("the refused resume changed the other run's trace")
			}
			continue
		}
		if code != exitOK {
			t.Fatalf("resume of a run started with --force: exit %d: %s", code, stderr)
		}
		if got, _ := os.ReadFile(out); stripTimingsJSON(t, got) != stripTimingsJSON(t, want) {
			t.Error("the resume of a run started with --force did not write its trace")
		}
	}
}

// setJournalCode rewrites the code (the build) of the journal at path's
// header, with its checksum, as another build would have written it (the
// build is not part of the run's identity: the run id stays).
func setJournalCode(t *testing.T, path, code string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(data), "\n")
	var line struct {
		Run  string          `json:"run"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal([]byte(first), &line); err != nil {
		t.Fatal(err)
	}
	var h struct {
		Format   json.RawMessage `json:"format"`
		Version  json.RawMessage `json:"version"`
		Kind     json.RawMessage `json:"kind"`
		Settings json.RawMessage `json:"settings"`
		Code     string          `json:"code"`
		Env      json.RawMessage `json:"env,omitempty"`
	}
	if err := json.Unmarshal(line.Data, &h); err != nil {
		t.Fatal(err)
	}
	h.Code = code
	hd, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	crc := crc32.ChecksumIEEE(fmt.Appendf(nil, `{"seq":0,"run":%q,"data":%s}`, line.Run, hd))
	hdr := fmt.Sprintf(`{"seq":0,"run":%q,"crc32":%d,"data":%s}`, line.Run, crc, hd)
	if err := os.WriteFile(path, []byte(hdr+"\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResumeRefusesOtherRevision: a table (or a perf bo checkpoint)
// started by one commit is not resumed by a build of another: exit 2,
// one line naming both revisions, the outputs untouched — its record
// would have named the resuming build's commit alone, "modified": false,
// and perf check would rerun it against that. A tree with uncommitted
// changes is another revision. The same revision resumes silently; a
// build that records no revision (-buildvcs=false) resumes with the
// warning, as before.
func TestResumeRefusesOtherRevision(t *testing.T) {
	defer func(f func() string) { buildCode = f }(buildCode)
	const revA, revB = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	build := func(rev string) func() string {
		return func() string { return "github.com/symbo/symbo (devel) " + rev }
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "t")
	if code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1", "--out", out); code != exitOK {
		t.Fatalf("table: exit %d: %s", code, stderr)
	}
	jpath := filepath.Join(out, tableJournalFile)
	record, _ := os.ReadFile(filepath.Join(out, recordFile))
	setJournalCode(t, jpath, "github.com/symbo/symbo (devel) "+revA)
	for _, other := range []string{revB, revA + "+modified"} {
		buildCode = build(other)
		code, stdout, stderr := runCLI(t, "table", "--out", out, "--resume")
		checkOneLineError(t, code, stdout, stderr, "perf table: ", "started by revision "+revA+", this is "+other)
	}
	if b, _ := os.ReadFile(filepath.Join(out, recordFile)); !bytes.Equal(b, record) {
		t.Error("a refused resume rewrote record.json")
	}
	buildCode = build(revA)
	if code, _, stderr := runCLI(t, "table", "--out", out, "--resume"); code != exitOK || strings.Contains(stderr, "warning") {
		t.Errorf("same revision: exit %d, stderr %q", code, stderr)
	}
	buildCode = func() string { return "github.com/symbo/symbo (devel)" }
	if code, _, stderr := runCLI(t, "table", "--out", out, "--resume"); code != exitOK || strings.Count(stderr, "warning") != 1 {
		t.Errorf("a build without a revision: exit %d, stderr %q; want exit 0 and one warning", code, stderr)
	}

	cp := filepath.Join(dir, "cp.journal")
	buildCode = journal.Code
	if code, _, stderr := runCLI(t, "bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--checkpoint", cp); code != exitOK {
		t.Fatalf("bo: exit %d: %s", code, stderr)
	}
	setJournalCode(t, cp, "github.com/symbo/symbo v1.2.3 "+revA)
	buildCode = build(revB)
	code, stdout, stderr := runCLI(t, "bo", "--resume", cp)
	checkOneLineError(t, code, stdout, stderr, "perf bo: ", "started by revision "+revA+", this is "+revB)
}

// TestSignalBeforeOutputs: a signal once every run is done, before the
// outputs are written, stops the command with exit 130 and the resume
// line, writing no output and leaving no lock; the resume writes them.
// The signal handling ended with the computation: the process died by
// the signal between two files, silently, leaving the lock and a part of
// the outputs (table.md without record.json).
func TestSignalBeforeOutputs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		outputs []string // paths that must not exist after the signal
		resume  []string
	}{
		{"table", []string{"table", "--seeds", "1", "--iters", "2", "--init", "2", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1", "--out", "o"},
			[]string{"o/results.json", "o/table.md", "o/record.json", "o/.symbo.lock"}, []string{"table", "--out", "o", "--resume"}},
		{"batch", []string{"batch", "--seeds", "1", "--iters", "2", "--init", "2", "--problems", "Ackley2d", "--kernels", "base", "--qs", "1", "--workers", "1", "--out", "o"},
			[]string{"o/results.json", "o/batch.md", "o/record.json", "o/.symbo.lock"}, []string{"batch", "--out", "o", "--resume"}},
		{"bo", []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "2", "--iters", "2", "--checkpoint", "cp", "--json", "t.json"},
			[]string{"t.json"}, []string{"bo", "--resume", "cp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			h := startHeldAt(t, perfCmd(dir, tc.args...), holdOutputs)
			h.Process.Signal(syscall.SIGTERM)
			last := wantInterrupted(t, h.wait(), h.stderr.String(), "perf "+tc.name+": interrupted: ")
			if !strings.Contains(last, "stopped before writing every output") || !strings.Contains(last, "resume with: perf "+strings.Join(tc.resume, " ")) {
				t.Errorf("last stderr line %q", last)
			}
			for _, p := range tc.outputs {
				if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
					t.Errorf("%s written or left after the signal", p)
				}
			}
			if out, err := perfCmd(dir, tc.resume...).CombinedOutput(); err != nil {
				t.Fatalf("resume: %v: %s", err, out)
			}
			if _, err := os.Stat(filepath.Join(dir, tc.outputs[0])); err != nil {
				t.Errorf("after the resume: %v", err)
			}
		})
	}
}

// TestFigureInterrupt: SIGTERM while perf figure computes a figure stops
// it before the next file with exit 130 and one line; the radial and
// ackley figures ignored it, and the command wrote every file and exited
// 0.
func TestFigureInterrupt(t *testing.T) {
	dir := t.TempDir()
	first, rest, err := signalAfterFirstLine(t, perfCmd(dir, "figure", "--out", "o", "--name", "radial,ackley", "--grid", "201"), syscall.SIGTERM)
	if !strings.Contains(first, "radial") {
		t.Errorf("first stderr line %q, want the radial figure's", first)
	}
	wantInterrupted(t, err, rest, "perf figure: interrupted: stopped before")
	if _, err := os.Stat(filepath.Join(dir, "o", "figures.md")); err == nil {
		t.Error("figures.md written after the signal")
	}
}

// TestFigureInterruptRerun: a signal once the radial figure is written
// stops perf figure with exit 130, and the command its line says to run
// draws every figure. The line said "rerun the command", which then
// refused the radial figure it had written (exit 2, "already exists …
// use --force").
func TestFigureInterruptRerun(t *testing.T) {
	dir := t.TempDir()
	args := []string{"figure", "--out", "o", "--name", "radial,ackley", "--grid", "201"}
	// Once a line names ackley, radial.png and .svg are written.
	_, rest, err := signalAfterLine(t, perfCmd(dir, args...), syscall.SIGTERM, "ackley")
	last := wantInterrupted(t, err, rest, "perf figure: interrupted: ")
	if _, err := os.Stat(filepath.Join(dir, "o", "radial.png")); err != nil {
		t.Fatalf("radial.png not written before the signal: %v", err)
	}
	rerun := args
	if strings.Contains(last, "with --force") {
		rerun = append(slices.Clone(args), "--force")
	}
	if out, err := perfCmd(dir, rerun...).CombinedOutput(); err != nil {
		t.Fatalf("the rerun the line names (%q): %v: %s", last, err, out)
	}
}

// TestSignalAfterComputation: perf profile, complexity and spectrum
// check a signal between phases, points or spectra only; one that
// arrived during the last of them, or after it, was caught (the
// commands' signal context holds until they return) and ignored: every
// output was written and the command exited 0. It now stops them before
// the outputs, with exit 130 and one line (hook PERF_TEST_HOLD_AFTER=
// outputs: held once the computation is done).
func TestSignalAfterComputation(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		outputs []string
	}{
		{"profile", []string{"profile", "--group", "signflip", "--d", "2", "--n", "8,16", "--m", "10", "--bo-kernel", "base",
			"--gemm-n", "8", "--min-time", "0.01s", "--cpuprofile", "cpu.pprof", "--memprofile", "mem.pprof"}, []string{"cpu.pprof", "mem.pprof"}},
		{"complexity", []string{"complexity", "--n", "16,32", "--sweep", "none", "--landmark-n", "65,130", "--landmark-ms", "8,16",
			"--min-time", "0.01s", "--out", "o"}, []string{"o/complexity-n.png", "o/.symbo.lock"}},
		{"spectrum", []string{"spectrum", "--d", "1", "--bases", "rbf", "--n", "200", "--out", "o"},
			[]string{"o/spectrum.json", "o/spectrum.md", "o/.symbo.lock"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := perfCmd(dir, tc.args...)
			var stdout bytes.Buffer
			c.Stdout = &stdout
			h := startHeldAt(t, c, holdOutputs)
			h.Process.Signal(syscall.SIGINT)
			wantInterrupted(t, h.wait(), h.stderr.String(), "perf "+tc.name+": interrupted: ")
			if stdout.Len() != 0 {
				t.Errorf("stdout %.80q, want nothing", stdout.String())
			}
			for _, p := range tc.outputs {
				if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
					t.Errorf("%s written or left after the signal", p)
				}
			}
		})
	}
}

// TestCheckInterrupt: SIGINT while perf check reruns records stops it
// with exit 130 and one line; it exited 1 with "context canceled".
func TestCheckInterrupt(t *testing.T) {
	rec, err := filepath.Abs(filepath.Join("..", "..", "lab", "results", "table-own"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, err := signalAfterFirstLine(t, perfCmd(t.TempDir(), "check", "--dir", rec, "--seeds", "10", "--cells", "6", "--workers", "1"), syscall.SIGINT)
	wantInterrupted(t, err, rest, "perf check: interrupted: ")
}

// signalAfterFirstLine starts c, sends it sig once it has written its
// first line on stderr (a progress line: more work lies ahead), and
// returns that line, the rest of stderr and c's exit error.
func signalAfterFirstLine(t *testing.T, c *exec.Cmd, sig syscall.Signal) (first, rest string, err error) {
	t.Helper()
	return signalAfterLine(t, c, sig, "")
}

// signalAfterLine is signalAfterFirstLine after the first stderr line
// that contains substr ("": the first line), which it returns.
func signalAfterLine(t *testing.T, c *exec.Cmd, sig syscall.Signal, substr string) (line, rest string, err error) {
	t.Helper()
	pr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(pr)
	for {
		if line, err = br.ReadString('\n'); err != nil {
			c.Process.Kill()
			c.Wait()
			t.Fatalf("no stderr line containing %q: %v", substr, err)
		}
		if strings.Contains(line, substr) {
			break
		}
	}
	c.Process.Signal(sig)
	b, _ := io.ReadAll(br)
	return line, string(b), c.Wait()
}

// wantInterrupted fails the test unless err is exit status 130
// (exitInterrupted) and stderr's last line starts with prefix; it
// returns that line.
func wantInterrupted(t *testing.T, err error, stderr, prefix string) string {
	t.Helper()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v (want %d); stderr %q", err, exitInterrupted, stderr)
	}
	last := strings.TrimSpace(stderr)
	last = last[strings.LastIndex(last, "\n")+1:]
	if !strings.HasPrefix(last, prefix) {
		t.Errorf("last stderr line %q, want %s…", last, prefix)
	}
	return last
}

// TestJournalAppendFailsPrintsResume: a journal append that fails (here a
// file size limit, as a full disk would) ends perf bo with exit 1 and one
// line naming what the journal keeps and the command that resumes — which
// then computes what an uninterrupted run does. The line named only the
// write error.
func TestJournalAppendFailsPrintsResume(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh:", err)
	}
	dir := t.TempDir()
	args := []string{"bo", "--problem", "Ackley2d", "--kernel", "plus", "--seed", "4", "--init", "3", "--iters", "25"}
	refOut, err := perfCmd(dir, args...).Output()
	if err != nil {
		t.Fatal(err)
	}
	// ulimit -f counts 512-byte blocks: 8 holds the header and some
	// evaluations, not all 28.
	shArgs := append([]string{"-c", `ulimit -f 8 && exec "$0" "$@"`, os.Args[0]}, append(args, "--checkpoint", "run.journal")...)
	c := exec.Command("sh", shArgs...)
	c.Env = append(os.Environ(), "PERF_TEST_MAIN=1")
	c.Dir = dir
	var stderr bytes.Buffer
	c.Stderr = &stderr
	err = c.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("perf bo past the file size limit: %v, want exit 1\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	last := lines[len(lines)-1]
	for _, want := range []string{"file too large", "evaluations are kept in run.journal", "resume with: perf bo --resume run.journal"} {
		if !strings.Contains(last, want) {
			t.Errorf("last line %q lacks %q", last, want)
		}
	}
	got, err := perfCmd(dir, "bo", "--resume", "run.journal").Output()
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if timeLine.ReplaceAllString(string(got), "") != timeLine.ReplaceAllString(string(refOut), "") {
		t.Errorf("resumed after the failed append: stdout differs:\n%s\nwant\n%s", got, refOut)
	}
}

// TestResumeRemovesStaleTemporaries: a kill -9 while perf wrote an output
// or its journal's header leaves atomicfile's hidden temporary
// (".NAME.tmp-digits", or a writability probe ".NAME.probe-digits")
// beside it; a run or --resume holding the directory (perf table, batch,
// robustness: the --out lock; perf bo: its checkpoint's lock) removes
// those of the files it writes, and nothing else. They stayed forever,
// even after a successful --resume.
func TestResumeRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "T")
	args := []string{"table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Radial2d", "--kernels", "base", "--workers", "1", "--out", out}
	if code, _, stderr := runCLI(t, args...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	stale := []string{".runs.journal.tmp-123456", ".results.json.tmp-1", ".table.md.tmp-22", ".record.json.tmp-333",
		".regret.png.tmp-4", ".strips.svg.tmp-5", "..perf-out.probe-6"}
	others := []string{".mine.txt.tmp-7", ".results.json.tmp-x8", "results.json.tmp-9", ".results.json.tmp-", ".table.md.bak", "notes.txt"}
	plant := func(d string, names []string) {
		t.Helper()
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(d, n), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	plant(out, stale)
	plant(out, others)
	// A directory with a temporary's name is not atomicfile's: it stays.
	if err := os.Mkdir(filepath.Join(out, ".table.md.tmp-10"), 0o755); err != nil {
		t.Fatal(err)
	}
	others = append(others, ".table.md.tmp-10")
	check := func(d string, gone, kept []string) {
		t.Helper()
		for _, n := range gone {
			if _, err := os.Lstat(filepath.Join(d, n)); err == nil {
				t.Errorf("stale temporary %s is still there", n)
			}
		}
		for _, n := range kept {
			if _, err := os.Lstat(filepath.Join(d, n)); err != nil {
				t.Errorf("%s, not a temporary of perf's, was removed: %v", n, err)
			}
		}
	}
	if code, _, stderr := runCLI(t, "table", "--out", out, "--resume"); code != exitOK {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	check(out, stale, others)

	// perf batch (perf robustness shares its code): its page and figures.
	bout := filepath.Join(dir, "B")
	if code, _, stderr := runCLI(t, "batch", "--problems", "Ackley2d", "--qs", "1", "--kernels", "base", "--seeds", "1", "--iters", "2", "--init", "3", "--workers", "1", "--out", bout); code != exitOK {
		t.Fatalf("batch: exit %d: %s", code, stderr)
	}
	plant(bout, []string{".batch.md.tmp-1", ".batch-evals.png.tmp-2", ".table.md.tmp-3"})
	if code, _, stderr := runCLI(t, "batch", "--out", bout, "--resume"); code != exitOK {
		t.Fatalf("batch --resume: exit %d: %s", code, stderr)
	}
	check(bout, []string{".batch.md.tmp-1", ".batch-evals.png.tmp-2"}, []string{".table.md.tmp-3"})

	// perf bo: the checkpoint's header temporary beside it.
	ckpt := filepath.Join(dir, "r.journal")
	if code, _, stderr := runCLI(t, "bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--checkpoint", ckpt); code != exitOK {
		t.Fatalf("bo: exit %d: %s", code, stderr)
	}
	plant(dir, []string{".r.journal.tmp-42", ".q.journal.tmp-43"})
	if code, _, stderr := runCLI(t, "bo", "--resume", ckpt); code != exitOK {
		t.Fatalf("bo --resume: exit %d: %s", code, stderr)
	}
	check(dir, []string{".r.journal.tmp-42"}, []string{".q.journal.tmp-43"})
}

// TestBOResumeRemovesStaleJSONTemporary: a kill -9 while perf bo wrote
// its --json trace (every evaluation journaled) leaves atomicfile's
// hidden temporary beside the trace; the --resume that writes the trace
// removes it, as perf table's removes its outputs' (its checkpoint's
// lock excludes every other resume of the run). Only the journal
// header's temporaries were removed: .trace.json.tmp-N stayed for good.
func TestBOResumeRemovesStaleJSONTemporary(t *testing.T) {
	dir := t.TempDir()
	ckpt, trace := filepath.Join(dir, "r.journal"), filepath.Join(dir, "trace.json")
	if code, _, stderr := runCLI(t, "bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--workers", "1", "--checkpoint", ckpt, "--json", trace); code != exitOK {
		t.Fatalf("bo: exit %d: %s", code, stderr)
	}
	stale := []string{".trace.json.tmp-77", ".trace.json.probe-78"}
	others := []string{".other.json.tmp-79", ".trace.json.tmp-x", "trace.json.tmp-80"}
	for _, n := range append(stale, others...) {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runCLI(t, "bo", "--resume", ckpt)
	if code != exitOK {
		t.Fatalf("bo --resume: exit %d: %s", code, stderr)
	}
	for _, n := range stale {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			t.Errorf("stale temporary %s of the trace is still there", n)
		} else if !strings.Contains(stderr, "removed "+filepath.Join(dir, n)) {
			t.Errorf("no note of removing %s on stderr:\n%s", n, stderr)
		}
	}
	for _, n := range others {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s, not a temporary of the trace, was removed: %v", n, err)
		}
	}
	if _, err := os.Stat(trace); err != nil {
		t.Errorf("the trace: %v", err)
	}
}

// TestBOLeavesLiveJSONTemporary: perf bo --checkpoint removes the
// temporaries of its --json trace that killed runs left, but not one
// another run is writing now — a perf bo of another journal (or none)
// naming the same --json file, which the checkpoint's lock does not
// exclude: that run's write then succeeds. Before, its temporary was
// removed and its rename failed (perf bo exit 1). The other writer is
// simulated in this process by an uncommitted atomicfile.File, whose
// temporary is locked as any writer's is.
func TestBOLeavesLiveJSONTemporary(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.json")
	other, err := atomicfile.New(trace, 0o644, false)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Abort()
	if _, err := io.WriteString(other, `{"other":true}`); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "1", "--workers", "1",
		"--checkpoint", filepath.Join(dir, "r.journal"), "--json", trace)
	if code != exitOK {
		t.Fatalf("bo: exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "removed") {
		t.Errorf("perf bo removed a live writer's temporary:\n%s", stderr)
	}
	if err := other.Commit(); err != nil {
		t.Fatalf("the other run's write of the trace: %v", err)
	}
	if b, err := os.ReadFile(trace); err != nil || string(b) != `{"other":true}` {
		t.Errorf("trace = %q, %v; want the other run's (written last)", b, err)
	}
}

// TestOutputsFailPrintsResume: when writing the outputs fails (a full
// disk) once every run is journaled, perf table, perf batch and perf bo
// exit 1 with one line that names the write error and the command that
// finishes the job — which then does. The line named only the error.
func TestOutputsFailPrintsResume(t *testing.T) {
	wf, wfIn := atomicWrite, atomicWriteIn
	t.Cleanup(func() { atomicWrite, atomicWriteIn = wf, wfIn })
	full := fmt.Errorf("write: %w", syscall.ENOSPC)
	dir := t.TempDir()
	out, bout, ckpt := filepath.Join(dir, "T"), filepath.Join(dir, "B"), filepath.Join(dir, "r.journal")
	for _, tc := range []struct {
		args   []string
		resume []string
		file   string // an output the resume writes
	}{
		{[]string{"table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Radial2d", "--kernels", "base", "--workers", "1", "--out", out},
			[]string{"table", "--out", out, "--resume"}, filepath.Join(out, "results.json")},
		{[]string{"batch", "--problems", "Ackley2d", "--qs", "1", "--kernels", "base", "--seeds", "1", "--iters", "2", "--init", "3", "--workers", "1", "--out", bout},
			[]string{"batch", "--out", bout, "--resume"}, filepath.Join(bout, "record.json")},
		{[]string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--json", filepath.Join(dir, "tr.json"), "--checkpoint", ckpt},
			[]string{"bo", "--resume", ckpt}, filepath.Join(dir, "tr.json")},
	} {
		atomicWrite = func(string, fs.FileMode, bool, func(io.Writer) error) error { return full }
		atomicWriteIn = func(string, string, fs.FileMode, bool, func(io.Writer) error) error { return full }
		code, stdout, stderr := runCLI(t, tc.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		last := lines[len(lines)-1]
		if code != exitFailure || stdout != "" {
			t.Errorf("%s, the outputs failing: exit %d, stdout %q; want exit %d, nothing", tc.args[0], code, stdout, exitFailure)
		}
		for _, want := range []string{"no space left on device", "resume with: perf " + strings.Join(tc.resume, " ")} {
			if !strings.Contains(last, want) {
				t.Errorf("%s: last stderr line %q lacks %q", tc.args[0], last, want)
			}
		}
		atomicWrite, atomicWriteIn = wf, wfIn
		if code, _, stderr := runCLI(t, tc.resume...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", tc.resume, code, stderr)
		}
		if _, err := os.Stat(tc.file); err != nil {
			t.Errorf("%v did not finish: %v", tc.resume, err)
		}
	}
}
