package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tinyBO are protocol flags that make a run take milliseconds.
var tinyBO = []string{"--iters", "3", "--init", "3", "--workers", "1"}

func TestBOBadInput(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "exists.json")
	if err := os.WriteFile(existing, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	// L links to sub/dir: L/../j is sub/j, though "L/.." reads as ".".
	if err := os.MkdirAll(filepath.Join(dir, "sub", "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("sub", "dir"), filepath.Join(dir, "L")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"no problem", []string{"--kernel", "base"}, []string{"--problem"}},
		{"no kernel", []string{"--problem", "ackley"}, []string{"--kernel"}},
		{"unknown problem", []string{"--problem", "nosuch", "--kernel", "base"}, []string{"nosuch"}},
		{"unknown kernel", []string{"--problem", "ackley", "--kernel", "nosuch"}, []string{"nosuch"}},
		{"max not PSD", []string{"--problem", "wlan", "--kernel", "max"}, []string{"PSD"}},
		{"bad acq", []string{"--problem", "ackley", "--kernel", "base", "--acq", "pi"}, []string{"--acq"}},
		{"bad beta", []string{"--problem", "ackley", "--kernel", "base", "--beta", "x"}, []string{"--beta"}},
		{"bad fit", []string{"--problem", "ackley", "--kernel", "base", "--fit", "x"}, []string{"--fit"}},
		{"bad prior", []string{"--problem", "ackley", "--kernel", "base", "--prior", "gamma"}, []string{"--prior"}},
		{"bad landmarks", []string{"--problem", "ackley", "--kernel", "plus", "--landmarks", "-2"}, []string{"--landmarks"}},
		{"huge landmarks", []string{"--problem", "ackley", "--kernel", "plus", "--landmarks", "2000000"}, []string{"--landmarks"}},
		{"bad iters", []string{"--problem", "ackley", "--kernel", "base", "--iters", "0"}, []string{"--iters"}},
		// The bound is a number, not a formula in "init".
		{"iters past the cap", []string{"--problem", "ackley", "--kernel", "base", "--init", "5", "--iters", "999999"}, []string{"[1, 999995]", "--init 5"}},
		{"bad d", []string{"--problem", "radial", "--d", "3", "--kernel", "base"}, []string{"dimension"}},
		{"bad backend", []string{"--problem", "ackley", "--kernel", "base", "--backend", "cuda"}, []string{"--backend"}},
		{"existing json", []string{"--problem", "ackley", "--kernel", "base", "--json", existing}, []string{"already exists", "--force"}},
		// --force cannot overwrite a journal: the advice is --resume.
		{"existing checkpoint", []string{"--problem", "ackley", "--kernel", "base", "--checkpoint", existing}, []string{"already exists", "--resume"}},
		{"json in missing dir", []string{"--problem", "ackley", "--kernel", "base", "--json", filepath.Join(dir, "no", "x.json")}, []string{"no such file or directory"}},
		{"stray argument", []string{"--problem", "ackley", "--kernel", "base", "extra"}, []string{"extra"}},
		// Refused before the run: the trace would replace the journal.
		{"json is the checkpoint", []string{"--problem", "ackley", "--kernel", "base", "--checkpoint", filepath.Join(dir, "same"), "--json", filepath.Join(dir, ".", "same"), "--force"}, []string{"same file"}},
		{"json is the checkpoint through a link", []string{"--problem", "ackley", "--kernel", "base", "--checkpoint", dir + "/L/../j", "--json", filepath.Join(dir, "sub", "j"), "--force"}, []string{"same file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"bo"}, tc.args...)...)
			checkOneLineError(t, code, stdout, stderr, "perf bo: ", tc.want...)
		})
	}
	if data, _ := os.ReadFile(existing); string(data) != "keep me" {
		t.Errorf("existing --json file was modified: %q", data)
	}
}

// TestBOAfford: --afford holds a candidate list over a scaling group to
// the front ends' rule (avg left out, the trace says so); without it the
// list keeps avg (the committed records).
func TestBOAfford(t *testing.T) {
	for _, afford := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "trace.json")
		args := append([]string{"bo", "--problem", "Scaling2d", "--kernel", "portfolio:nystrom+avg:soft+plus", "--json", path}, tinyBO...)
		if afford {
			args = append(args, "--afford")
		}
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Afford     bool     `json:"afford"`
			Candidates []string `json:"candidates"`
			LeftOut    []string `json:"left_out"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Afford != afford || slices.Contains(doc.Candidates, "avg") == afford || (len(doc.LeftOut) == 1) != afford {
			t.Errorf("--afford %v: trace %+v", afford, doc)
		}
	}
}

// TestBOPrior: --prior botorch is recorded in the --json trace and the
// summary.
func TestBOPrior(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	args := append([]string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--seed", "1", "--prior", "botorch", "--json", path}, tinyBO...)
	code, stdout, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "prior botorch") {
		t.Errorf("summary does not mention the prior:\n%s", stdout)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Prior string `json:"prior"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Prior != "botorch" {
		t.Errorf("trace prior %q (%v), want botorch", doc.Prior, err)
	}
}

// TestBOJSON runs a tiny experiment and checks the --json document: the
// stable field names, the evaluations (initial design included), the
// regrets recomputed from f, cumulative_regret over the BO iterations only,
// and the environment; then that --force overwrites and a second run
// without it is refused.
func TestBOJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	args := append([]string{"bo", "--problem", "Ackley2d", "--kernel", "plus", "--seed", "7", "--json", path}, tinyBO...)
	code, stdout, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, w := range []string{"Ackley2d", "plus", "cumulative regret", "best f"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("summary does not mention %q:\n%s", w, stdout)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"problem", "d", "kernel", "seed", "evaluations", "cumulative_regret", "best_f",
		"module", "simd", "gomaxprocs", "backend", "beta", "fit_mode", "acquisition"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("--json lacks top-level field %q", k)
		}
	}
	var tr struct {
		Problem     string  `json:"problem"`
		D           int     `json:"d"`
		Kernel      string  `json:"kernel"`
		Seed        uint64  `json:"seed"`
		BestF       float64 `json:"best_f"`
		Evaluations []struct {
			Phase  string    `json:"phase"`
			X      []float64 `json:"x"`
			Y      float64   `json:"y"`
			F      float64   `json:"f"`
			Regret *float64  `json:"regret"`
		} `json:"evaluations"`
		CumulativeRegret []float64 `json:"cumulative_regret"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Problem != "Ackley2d" || tr.D != 2 || tr.Kernel != "plus" || tr.Seed != 7 || len(tr.Evaluations) != 6 {
		t.Fatalf("trace header %+v", tr)
	}
	var cum, best float64 = 0, math.Inf(1)
	var cums []float64
	for i, e := range tr.Evaluations {
		want := "init"
		if i >= 3 {
			want = "bo"
		}
		if e.Phase != want || len(e.X) != 2 || e.Regret == nil || *e.Regret != e.F || e.Y == e.F {
			t.Errorf("evaluation %d: %+v", i, e)
		}
		best = min(best, e.F) // Ackley is minimized
		if e.Phase == "bo" {
			cum += *e.Regret
			cums = append(cums, cum)
		}
	}
	if len(tr.CumulativeRegret) != 3 {
		t.Fatalf("cumulative_regret %v, want 3 entries", tr.CumulativeRegret)
	}
	for i := range cums {
		if math.Abs(cums[i]-tr.CumulativeRegret[i]) > 1e-12*(1+cums[i]) {
			t.Errorf("cumulative_regret %v, recomputed %v", tr.CumulativeRegret, cums)
		}
	}
	if tr.BestF != best {
		t.Errorf("best_f %v, want %v", tr.BestF, best)
	}
	// Refused without --force, accepted with it (same content: deterministic
	// up to the timings).
	code, stdout, stderr = runCLI(t, args...)
	checkOneLineError(t, code, stdout, stderr, "perf bo: ", "already exists")
	if code, _, stderr = runCLI(t, append(args, "--force")...); code != exitOK {
		t.Fatalf("--force: exit %d, stderr %q", code, stderr)
	}
}

// TestBOLandmarks: --landmarks is recorded in the --json trace (the cap,
// and the landmarks of every fit beyond it) and the summary.
func TestBOLandmarks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	args := append([]string{"bo", "--problem", "Rastrigin3d", "--kernel", "plus", "--seed", "1", "--landmarks", "4", "--json", path}, tinyBO...)
	code, stdout, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "landmarks  ") || !strings.Contains(stdout, "cap 4, reached (at most 4 landmarks used, for fits of up to 5 observations)") {
		t.Errorf("summary does not report the landmarks:\n%s", stdout)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Landmarks   int `json:"landmarks"`
		Evaluations []struct {
			Hyper *struct {
				Landmarks int `json:"landmarks"`
			} `json:"hyper"`
		} `json:"evaluations"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Landmarks != 4 {
		t.Fatalf("trace landmarks %d (%v), want 4", doc.Landmarks, err)
	}
	for i, e := range doc.Evaluations {
		if i >= 5 && (e.Hyper == nil || e.Hyper.Landmarks != 4) {
			t.Errorf("evaluation %d (5 or more observations): %+v, want 4 landmarks", i, e.Hyper)
		}
	}
}

// TestBOLandmarksNotReached (issue 15): when no fit had more observations
// than the landmark cap — the default 256 for the paper's 5 + 50
// evaluations — the summary says so plainly, with the largest fit; before,
// it read "landmarks 256 (at most 0 used)". With --batch a fit sees the
// rounds before its own.
func TestBOLandmarksNotReached(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{tinyBO, "cap 256, not reached (at most 5 observations in a fit, all used)"},
		{[]string{"--iters", "4", "--init", "3", "--batch", "2", "--workers", "1"}, "cap 256, not reached (at most 5 observations in a fit, all used)"},
		{append([]string{"--landmarks", "-1"}, tinyBO...), "none (every observation)"},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"bo", "--problem", "Ackley2d", "--kernel", "plus", "--seed", "1"}, tc.args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
		line := ""
		for _, l := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(l, "landmarks ") {
				line = strings.Join(strings.Fields(l)[1:], " ")
			}
		}
		if line != tc.want {
			t.Errorf("%v: landmarks row %q, want %q\n%s", tc.args, line, tc.want, stdout)
		}
	}
}
