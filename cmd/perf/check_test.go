package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/lab/experiments"
	"github.com/symbo/symbo/linalg"
)

// TestCheck: perf check reruns the cheapest cells of a table written by
// perf table and finds them identical; a changed metric, or a record of
// uncommitted code, fails it (exit 1) with one line per failure.
func TestCheck(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "tab")
	code, _, stderr := runCLI(t, "table", "--seeds", "2", "--iters", "3", "--init", "3", "--problems", "Ackley2d,ShiftedRastrigin2d",
		"--kernels", "base,nystrom,plus", "--noise", "observed", "--out", out)
	if code != exitOK {
		t.Fatalf("perf table: exit %d, stderr %q", code, stderr)
	}
	path := filepath.Join(out, recordFile)
	var rec resultsRecord
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &rec); err != nil || len(rec.Runs) != 12 || rec.Noise != "observed" || rec.Kind != "table" {
		t.Fatalf("record: %+v, %v", rec, err)
	}
	write := func(r resultsRecord) {
		data, _ := json.Marshal(r)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec.Modified = false // the test binary may be built from a modified tree
	write(rec)
	code, stdout, stderr := runCLI(t, "check", "--dir", root, "--cells", "6")
	if code != exitOK || !strings.Contains(stdout, "12 runs") || !strings.Contains(stdout, "identical") {
		t.Fatalf("check: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// One changed bit in one recorded metric.
	bad := rec
	bad.Runs = append([]runRecord(nil), rec.Runs...)
	bad.Runs[3].Metric = bad.Runs[3].Metric * (1 + 1e-15)
	write(bad)
	code, stdout, stderr = runCLI(t, "check", "--dir", out, "--cells", "6")
	if code != exitFailure || !strings.Contains(stdout, "1 differ") || len(failureLines(stderr)) != 1 || !strings.Contains(stderr, fmt.Sprintf("%s %s seed %d", rec.Runs[3].Problem, rec.Runs[3].Kernel, rec.Runs[3].Seed)) {
		t.Errorf("tampered: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// --spot: the tampered run lies outside the one cheapest cell's first
	// seed, so only a draw can find it; drawing every other run does, and
	// the draw is a function of --spot-seed and the directory.
	code, stdout, _ = runCLI(t, "check", "--dir", out, "--cells", "1", "--seeds", "1")
	if code != exitOK || !strings.Contains(stdout, "1 runs") {
		t.Errorf("no spot: exit %d, stdout %q", code, stdout)
	}
	code, stdout, stderr = runCLI(t, "check", "--dir", out, "--cells", "1", "--seeds", "1", "--spot", "11", "--spot-max", "1e9")
	if code != exitFailure || !strings.Contains(stdout, "12 runs") || !strings.Contains(stdout, "1 differ") || !strings.Contains(stdout, "(spot, --spot-seed 0)") {
		t.Errorf("spot 11: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	_, a, _ := runCLI(t, "check", "--dir", out, "--cells", "1", "--seeds", "1", "--spot", "3", "--spot-seed", "5", "--spot-max", "1e9")
	_, b, _ := runCLI(t, "check", "--dir", out, "--cells", "1", "--seeds", "1", "--spot", "3", "--spot-seed", "5", "--spot-max", "1e9")
	if cut := func(s string) string { return s[:strings.Index(s, " rerun (")] }; cut(a) != cut(b) || !strings.Contains(a, "4 runs") {
		t.Errorf("spot draw not reproducible: %q, %q", a, b)
	}
	code, stdout, _ = runCLI(t, "check", "--dir", out, "--cells", "1", "--seeds", "1", "--spot", "11", "--spot-max", "0")
	if code != exitOK || !strings.Contains(stdout, "1 runs") {
		t.Errorf("spot-max 0 drew a run: exit %d, stdout %q", code, stdout)
	}
	// --seed-order cheapest: the cheapest cell's run of least recorded
	// time reruns, not its first seed. One cell made the cheapest, its
	// seed 1 the quicker; a tampered seed 1 is found by cheapest, not by
	// first, and a tampered seed 0 the other way round.
	timed := rec
	timed.Runs = append([]runRecord(nil), rec.Runs...)
	c := timed.Runs[3]
	var s0, s1 int
	for i := range timed.Runs {
		r := &timed.Runs[i]
		r.Seconds = 10
		if r.Problem == c.Problem && r.Kernel == c.Kernel && r.Batch == c.Batch {
			if r.Seed == 0 {
				r.Seconds, s0 = 5, i
			} else {
				r.Seconds, s1 = 1, i
			}
		}
	}
	for _, tc := range []struct {
		tamper int
		order  string
		fails  bool
	}{{s1, "cheapest", true}, {s1, "first", false}, {s0, "cheapest", false}, {s0, "first", true}} {
		bad := timed
		bad.Runs = append([]runRecord(nil), timed.Runs...)
		bad.Runs[tc.tamper].Metric *= 1 + 1e-15
		write(bad)
		code, stdout, stderr = runCLI(t, "check", "--dir", out, "--cells", "1", "--seeds", "1", "--seed-order", tc.order)
		want := fmt.Sprintf("%s %s seed %d", c.Problem, c.Kernel, bad.Runs[tc.tamper].Seed)
		if (code == exitFailure) != tc.fails || (tc.fails && !strings.Contains(stderr, want)) || !strings.Contains(stdout, "1 runs of "+c.Problem+"/"+c.Kernel+" rerun") {
			t.Errorf("seed order %s, seed %d tampered: exit %d, stdout %q, stderr %q", tc.order, bad.Runs[tc.tamper].Seed, code, stdout, stderr)
		}
	}
	// Values no perf writes are refused before anything reruns: an
	// unknown kind, a batch of 0, an unknown kernel (the last run's, so
	// that a late check would have rerun the others first).
	for name, edit := range map[string]func(r *resultsRecord){
		"kind":   func(r *resultsRecord) { r.Kind = "nope" },
		"batch":  func(r *resultsRecord) { r.Runs[2].Batch = 0 },
		"kernel": func(r *resultsRecord) { r.Runs[len(r.Runs)-1].Kernel = "nosuch" },
	} {
		bad := rec
		bad.Runs = append([]runRecord(nil), rec.Runs...)
		edit(&bad)
		write(bad)
		code, stdout, stderr = runCLI(t, "check", "--dir", out, "--cells", "6")
		checkOneLineError(t, code, stdout, stderr, "perf check: ", name)
	}
	write(rec)
	for _, args := range [][]string{{"--spot", "-1"}, {"--spot-max", "-1"}, {"--spot-max", "NaN"}, {"--seed-order", "last"}} {
		code, stdout, stderr = runCLI(t, append([]string{"check", "--dir", out}, args...)...)
		checkOneLineError(t, code, stdout, stderr, "perf check: ", "--")
	}
	// Several records rerun as one pool (their runs interleave on the
	// workers); each record's line comes in --dir's order, and a failure
	// is charged to its own record.
	other := filepath.Join(root, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ = json.Marshal(bad)
	os.WriteFile(filepath.Join(other, recordFile), data, 0o644)
	write(rec)
	code, stdout, stderr = runCLI(t, "check", "--dir", other+","+out, "--cells", "6", "--workers", "3")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != exitFailure || len(lines) != 2 || !strings.HasPrefix(lines[0], other+" ") || !strings.HasSuffix(lines[0], ": 1 differ") ||
		!strings.HasPrefix(lines[1], out+" ") || !strings.HasSuffix(lines[1], ": identical") || len(failureLines(stderr)) != 1 ||
		!strings.Contains(stderr, other+": ") {
		t.Errorf("two records: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	rec.Modified = true
	write(rec)
	code, _, stderr = runCLI(t, "check", "--dir", out, "--cells", "1")
	if code != exitFailure || !strings.Contains(stderr, "uncommitted changes") {
		t.Errorf("modified: exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr = runCLI(t, "check", "--dir", filepath.Join(root, "nothing"))
	checkOneLineError(t, code, stdout, stderr, "perf check: ", "--dir")
	// A record.json with no end (a link to /dev/zero) is refused once it
	// passes the cap, not read until memory runs out.
	endless := filepath.Join(root, "endless")
	if err := os.MkdirAll(endless, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(endless, recordFile)); err != nil {
		t.Skip(err)
	}
	code, stdout, stderr = runCLI(t, "check", "--dir", endless)
	checkOneLineError(t, code, stdout, stderr, "perf check: ", "over 64 MiB")
}

// TestCheckRotate: under --rotate, records of the same settings and cells
// (one experiment on other seeds) are one family, and one member, drawn
// by --spot-seed, reruns their cells: the others print which member stood
// in, a record of other settings reruns as usual, every member is drawn
// for some seed, a tampered member fails exactly when it is drawn, and
// the draw does not depend on --dir's order.
func TestCheckRotate(t *testing.T) {
	root := t.TempDir()
	run := func(dir string, kernels string) resultsRecord {
		out := filepath.Join(root, dir)
		code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Ackley2d",
			"--kernels", kernels, "--out", out)
		if code != exitOK {
			t.Fatalf("perf table: exit %d, stderr %q", code, stderr)
		}
		var rec resultsRecord
		data, _ := os.ReadFile(filepath.Join(out, recordFile))
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatal(err)
		}
		rec.Modified = false
		data, _ = json.Marshal(rec)
		os.WriteFile(filepath.Join(out, recordFile), data, 0o644)
		return rec
	}
	rec := run("a", "base,plus")
	run("z", "base") // other cells: its own family
	for _, d := range []string{"b", "c"} {
		// b and c: the same experiment (here the same runs).
		data, _ := json.Marshal(rec)
		os.MkdirAll(filepath.Join(root, d), 0o755)
		os.WriteFile(filepath.Join(root, d, recordFile), data, 0o644)
	}
	dirs := func(names ...string) string {
		var ds []string
		for _, n := range names {
			ds = append(ds, filepath.Join(root, n))
		}
		return strings.Join(ds, ",")
	}
	drawn := map[string]int{}
	for seed := range 12 {
		code, stdout, stderr := runCLI(t, "check", "--dir", dirs("a", "b", "c", "z"), "--rotate", "--spot-seed", fmt.Sprint(seed))
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if code != exitOK || len(lines) != 4 {
			t.Fatalf("seed %d: exit %d, stdout %q, stderr %q", seed, code, stdout, stderr)
		}
		var chosen string
		for i, n := range []string{"a", "b", "c"} {
			switch {
			case strings.Contains(lines[i], " 2 runs of ") && strings.Contains(lines[i], "Ackley2d/base") && strings.Contains(lines[i], "Ackley2d/plus") &&
				strings.HasSuffix(lines[i], ": identical"): // the cells come cheapest first, by their recorded times
				if chosen != "" {
					t.Fatalf("seed %d: two members rerun: %q", seed, stdout)
				}
				chosen = n
			case !strings.Contains(lines[i], "no runs rerun; its cells: "):
				t.Fatalf("seed %d: line %q", seed, lines[i])
			}
		}
		if chosen == "" || !strings.Contains(lines[3], "1 runs of Ackley2d/base rerun") {
			t.Fatalf("seed %d: stdout %q", seed, stdout)
		}
		for i := range 3 {
			if l := lines[i]; !strings.HasPrefix(l, filepath.Join(root, chosen)+" ") && !strings.Contains(l, "its cells: "+filepath.Join(root, chosen)+" reruns") {
				t.Errorf("seed %d: %q does not name %s", seed, l, chosen)
			}
		}
		drawn[chosen]++
		// The draw does not depend on --dir's order.
		_, other, _ := runCLI(t, "check", "--dir", dirs("z", "c", "b", "a"), "--rotate", "--spot-seed", fmt.Sprint(seed))
		if !strings.Contains(other, filepath.Join(root, chosen)+" (commit") || !strings.Contains(other, "its cells: "+filepath.Join(root, chosen)+" reruns") {
			t.Errorf("seed %d: another --dir order drew otherwise: %q", seed, other)
		}
		// A tampered b fails exactly when b is drawn.
		bad := rec
		bad.Runs = append([]runRecord(nil), rec.Runs...)
		bad.Runs[0].Metric *= 1 + 1e-15
		data, _ := json.Marshal(bad)
		os.WriteFile(filepath.Join(root, "b", recordFile), data, 0o644)
		code, _, _ = runCLI(t, "check", "--dir", dirs("a", "b", "c", "z"), "--rotate", "--spot-seed", fmt.Sprint(seed))
		if (code == exitFailure) != (chosen == "b") {
			t.Errorf("seed %d: tampered b, %s drawn: exit %d", seed, chosen, code)
		}
		data, _ = json.Marshal(rec)
		os.WriteFile(filepath.Join(root, "b", recordFile), data, 0o644)
	}
	if len(drawn) != 3 {
		t.Errorf("over 12 seeds the draws were %v, want every member", drawn)
	}
}

// failureLines are the lines of perf check's stderr other than its
// progress bar's ("perf check: 3/12 runs …").
func failureLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !progressLine.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

var progressLine = regexp.MustCompile(`^perf check: \d+/\d+ runs`)

// TestCheckLandmarks: a table run with --landmarks records it, and perf
// check reruns it with the same landmarks (the same bits).
func TestCheckLandmarks(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "tab")
	code, _, stderr := runCLI(t, "table", "--seeds", "2", "--iters", "4", "--init", "3", "--problems", "Rastrigin3d",
		"--kernels", "plus", "--landmarks", "4", "--out", out)
	if code != exitOK {
		t.Fatalf("perf table: exit %d, stderr %q", code, stderr)
	}
	path := filepath.Join(out, recordFile)
	var rec resultsRecord
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &rec); err != nil || rec.Protocol.Landmarks != 4 {
		t.Fatalf("record: %+v, %v", rec.Protocol, err)
	}
	md, _ := os.ReadFile(filepath.Join(out, "table.md"))
	if !strings.Contains(string(md), "landmarks 4") {
		t.Errorf("table.md does not state the landmarks")
	}
	rec.Modified = false
	data, _ = json.Marshal(rec)
	os.WriteFile(path, data, 0o644)
	code, stdout, stderr := runCLI(t, "check", "--dir", out)
	if code != exitOK || !strings.Contains(stdout, "identical") {
		t.Fatalf("check: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// Without the landmarks the runs differ: the check above used them.
	rec.Protocol.Landmarks = 0
	data, _ = json.Marshal(rec)
	os.WriteFile(path, data, 0o644)
	if code, _, _ := runCLI(t, "check", "--dir", out); code != exitFailure {
		t.Errorf("check without the landmarks: exit %d, want %d", code, exitFailure)
	}
}

// TestCheckMaxSeconds: --max-seconds keeps a sample of the planned runs
// whose recorded times fit in the budget, drawn by the seed (the same
// seed, the same sample; other seeds, other samples, which together
// reach every run), counts the others in each plan's line, and changes
// nothing when everything fits.
func TestCheckMaxSeconds(t *testing.T) {
	secs := [][]float64{{1, 2, 3, 4}, {10}, {0.5, 0.5, 0.5}, {7, 1}}
	plans := func() []checkPlan {
		ps := make([]checkPlan, len(secs))
		for j, ss := range secs {
			for k, s := range ss {
				ps[j].want = append(ps[j].want, runRecord{Seed: uint64(10*j + k), Seconds: s})
				ps[j].runs = append(ps[j].runs, experiments.Run[*bo.Trace]{Label: fmt.Sprint(10*j + k)})
			}
		}
		return ps
	}
	kept := func(ps []checkPlan) (seeds []uint64, used float64, left int) {
		for _, p := range ps {
			if len(p.runs) != len(p.want) {
				t.Fatalf("runs %d, want %d", len(p.runs), len(p.want))
			}
			for k, w := range p.want {
				if p.runs[k].Label != fmt.Sprint(w.Seed) {
					t.Fatalf("run %q paired with recorded seed %d", p.runs[k].Label, w.Seed)
				}
				seeds = append(seeds, w.Seed)
				used += w.Seconds
			}
			left += p.left
		}
		return seeds, used, left
	}
	all := plans()
	sampleWithin(all, 100, 1)
	if s, _, left := kept(all); len(s) != 10 || left != 0 {
		t.Fatalf("within the budget: kept %v, left %d", s, left)
	}
	seen := map[uint64]bool{}
	for seed := range uint64(40) {
		a, b := plans(), plans()
		sampleWithin(a, 8, seed)
		sampleWithin(b, 8, seed)
		sa, used, left := kept(a)
		sb, _, _ := kept(b)
		if fmt.Sprint(sa) != fmt.Sprint(sb) {
			t.Fatalf("seed %d: %v then %v", seed, sa, sb)
		}
		if used > 8 || len(sa) == 0 || len(sa)+left != 10 {
			t.Fatalf("seed %d: kept %v (%.1f s of 8), left %d", seed, sa, used, left)
		}
		for _, s := range sa {
			seen[s] = true
		}
	}
	if len(seen) != 9 || seen[10] { // the 10 s run never fits in 8 s
		t.Errorf("forty seeds reached %v, want every run but the 10 s one", seen)
	}
	code, stdout, stderr := runCLI(t, "check", "--dir", t.TempDir(), "--max-seconds", "-1")
	checkOneLineError(t, code, stdout, stderr, "perf check: ", "--max-seconds")
}

// TestCheckRecordBackend: record.json names the backend the runs were
// computed with, also when $SYMBO_BACKEND chose it (it recorded the
// --backend flag's value, "" by default), and perf check reruns a record
// under its backend whatever $SYMBO_BACKEND says where it runs — gonum
// for a record without one, as the committed records are; a backend
// this build lacks is exit 2 with one line. Before, a record made with
// SYMBO_BACKEND=gonum said "", and checked under SYMBO_BACKEND=openblas
// it reran with openblas (or, in a build without it, failed).
func TestCheckRecordBackend(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tab")
	t.Setenv(linalg.EnvBackend, "gonum")
	if code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1", "--out", out); code != exitOK {
		t.Fatalf("perf table: exit %d, stderr %q", code, stderr)
	}
	path := filepath.Join(out, recordFile)
	var rec resultsRecord
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &rec); err != nil || rec.Protocol.Backend != "gonum" || rec.OpenBLASThreads != 0 {
		t.Fatalf("record (%v): backend %q, OpenBLAS threads %d; want gonum, none", err, rec.Protocol.Backend, rec.OpenBLASThreads)
	}
	rec.Modified = false // the test binary may be built from a modified tree
	write := func(r resultsRecord) {
		data, _ := json.Marshal(r)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(linalg.EnvBackend, "openblas")
	for _, b := range []string{"gonum", ""} { // "": a record from before the backend was recorded
		rec.Protocol.Backend = b
		write(rec)
		if code, stdout, stderr := runCLI(t, "check", "--dir", out); code != exitOK || !strings.Contains(stdout, "identical") {
			t.Errorf("record backend %q, SYMBO_BACKEND=openblas: exit %d, stdout %q, stderr %q", b, code, stdout, stderr)
		}
	}
	if !slices.Contains(linalg.Available(), "openblas") {
		rec.Protocol.Backend = "openblas"
		write(rec)
		code, stdout, stderr := runCLI(t, "check", "--dir", out)
		checkOneLineError(t, code, stdout, stderr, "perf check: ", "recorded with the openblas backend", "-tags openblas")
		return
	}
	// -tags openblas: a table computed with SYMBO_BACKEND=openblas says
	// so, with OpenBLAS's threads, and reruns with it under any
	// $SYMBO_BACKEND.
	ob := filepath.Join(t.TempDir(), "ob")
	if code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1", "--out", ob); code != exitOK {
		t.Fatalf("perf table: exit %d, stderr %q", code, stderr)
	}
	data, _ = os.ReadFile(filepath.Join(ob, recordFile))
	if err := json.Unmarshal(data, &rec); err != nil || rec.Protocol.Backend != "openblas" || rec.OpenBLASThreads != linalg.OpenBLASThreads() {
		t.Fatalf("record (%v): backend %q, OpenBLAS threads %d; want openblas, %d", err, rec.Protocol.Backend, rec.OpenBLASThreads, linalg.OpenBLASThreads())
	}
	rec.Modified = false
	path = filepath.Join(ob, recordFile)
	write(rec)
	t.Setenv(linalg.EnvBackend, "gonum")
	if code, stdout, stderr := runCLI(t, "check", "--dir", ob); code != exitOK || !strings.Contains(stdout, "identical") {
		t.Errorf("openblas record, SYMBO_BACKEND=gonum: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestCheckRecordGOAMD64: record.json names the GOAMD64 level of the
// build that made it when it is not v1 (a v1 record, as the 167
// committed ones, stays byte for byte as before), and perf check refuses
// a record of another level than its build's with exit 2 and one line
// naming both and how to rebuild, before anything reruns. Before, the
// level was not recorded, and a table made by a GOAMD64=v3 build failed
// perf check under a v1 build with false mismatches (and vice versa).
// perf stats still takes records of different levels as one table.
func TestCheckRecordGOAMD64(t *testing.T) {
	for _, tc := range []struct {
		goarch   string
		settings []debug.BuildSetting
		want     string
	}{
		{"amd64", nil, "v1"},
		{"amd64", []debug.BuildSetting{{Key: "GOAMD64", Value: ""}}, "v1"},
		{"amd64", []debug.BuildSetting{{Key: "GOARCH", Value: "amd64"}, {Key: "GOAMD64", Value: "v3"}}, "v3"},
		{"arm64", []debug.BuildSetting{{Key: "GOARCH", Value: "arm64"}, {Key: "GOARM64", Value: "v8.0"}}, ""},
	} {
		if got := amd64Level(tc.goarch, tc.settings); got != tc.want {
			t.Errorf("amd64Level(%s, %v) = %q, want %q", tc.goarch, tc.settings, got, tc.want)
		}
	}
	here := goamd64Level()
	out := filepath.Join(t.TempDir(), "tab")
	if code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1", "--out", out); code != exitOK {
		t.Fatalf("perf table: exit %d, stderr %q", code, stderr)
	}
	path := filepath.Join(out, recordFile)
	data, _ := os.ReadFile(path)
	var rec resultsRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	field := here // "" for v1: left out
	if here == "v1" {
		field = ""
	}
	if rec.GOAMD64 != field || field == "" && strings.Contains(string(data), `"goamd64"`) {
		t.Fatalf("a GOAMD64=%q build's record says goamd64 %q, want %q", here, rec.GOAMD64, field)
	}
	rec.Modified = false // the test binary may be built from a modified tree
	write := func(r resultsRecord) {
		data, _ := json.Marshal(r)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(rec)
	if code, stdout, stderr := runCLI(t, "check", "--dir", out); code != exitOK || !strings.Contains(stdout, "identical") {
		t.Fatalf("the record of this build's level: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// perf stats: a table of another level is still the same table.
	other := rec
	other.GOAMD64 = "v3"
	if here == "v3" {
		other.GOAMD64 = "" // v1, as the committed records
	}
	if err := sameTable([]tableRecords{{"--main a", []namedRecord{{"a", rec}}}, {"--replication b", []namedRecord{{"b", other}}}}); err != nil {
		t.Errorf("sameTable of records of two GOAMD64 levels: %v", err)
	}
	write(other)
	code, stdout, stderr := runCLI(t, "check", "--dir", out)
	if here == "" { // another architecture: no level, nothing refused
		if code != exitOK || !strings.Contains(stdout, "identical") {
			t.Errorf("a %s build, a goamd64 %s record: exit %d, stdout %q, stderr %q", runtime.GOARCH, other.GOAMD64, code, stdout, stderr)
		}
	} else {
		lvl := other.goamd64()
		checkOneLineError(t, code, stdout, stderr, "perf check: "+out+": ", "recorded by a GOAMD64="+lvl+" build", "this perf is GOAMD64="+here,
			"rebuild it with GOAMD64="+lvl+" go build ./cmd/perf")
	}
	other.GOAMD64 = "v9"
	write(other)
	code, stdout, stderr = runCLI(t, "check", "--dir", out)
	checkOneLineError(t, code, stdout, stderr, "perf check: ", `goamd64 "v9" is none of v1, v2, v3 and v4`)

	// The committed records name no level (v1 builds made them): they
	// decode, are v1, and encode back to their very bytes, so their
	// identity and familyKey are what they were.
	n := 0
	err := filepath.WalkDir(filepath.Join("..", "..", "lab", "results"), func(p string, e os.DirEntry, err error) error {
		if err != nil || e.Name() != recordFile {
			return err
		}
		n++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var rec resultsRecord
		if err := strictJSON(data, &rec); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		enc, _ := json.MarshalIndent(rec, "", " ")
		if rec.GOAMD64 != "" || rec.goamd64() != "v1" || string(enc)+"\n" != string(data) {
			t.Errorf("%s: goamd64 %q (%s), encodes back to other bytes: %v", p, rec.GOAMD64, rec.goamd64(), string(enc)+"\n" != string(data))
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("the committed records: %d read, %v", n, err)
	}
}

// TestCheckDuplicateRun: a run recorded twice (one problem, kernel, seed
// and batch size) is bad input, refused before anything reruns with one
// line naming the record and the run. Before, check accepted it, and
// --seeds 1 reran only the twin sorted first: the other's metric (here
// tampered) was never compared, and check passed.
func TestCheckDuplicateRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dup")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rec := resultsRecord{Version: recordVersion, Kind: "table", Command: "perf table",
		Protocol: Protocol{Iters: 1, Init: 3, Batch: 1, Acq: "ucb", Beta: "paper", Fit: "own", Prior: "none"},
		Runs: []runRecord{
			{Problem: "Ackley2d", Kernel: "base", Seed: 0, Batch: 1, Metric: 1, BestF: 1, Seconds: 0.01},
			{Problem: "Ackley2d", Kernel: "base", Seed: 0, Batch: 1, Metric: 2, BestF: 2, Seconds: 0.01},
		}}
	data, _ := json.Marshal(rec)
	path := filepath.Join(dir, recordFile)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "check", "--dir", dir, "--seeds", "1")
	checkOneLineError(t, code, stdout, stderr, "perf check: "+path+": ", "run 1: Ackley2d/base seed 0 batch 1 is run 0's too")
	// The same seed at another batch size is another run (perf batch
	// records every seed at each of its --qs).
	rec.Kind, rec.Runs[1].Batch = "batch", 2
	if err := rec.check(); err != nil {
		t.Errorf("one seed at batch sizes 1 and 2: %v", err)
	}
}

// TestCheckCommittedRecordsValid loads every committed record through
// perf check's validation (readRecords: decoding, version, check),
// rerunning nothing: none may be refused.
func TestCheckCommittedRecordsValid(t *testing.T) {
	dirs, _, err := readRecords("dir", filepath.Join("..", "..", "lab", "results"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no committed records found")
	}
	t.Logf("%d committed records pass perf check's validation", len(dirs))
}
