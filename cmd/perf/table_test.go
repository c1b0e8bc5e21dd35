package main

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTableBadInput(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "keep.txt"), []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(full, "keep.txt")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"bad seeds", []string{"--seeds", "0"}, []string{"--seeds"}},
		{"bad iters", []string{"--iters", "-1"}, []string{"--iters"}},
		{"bad problem", []string{"--problems", "ackley,nosuch"}, []string{"--problems", "nosuch"}},
		{"bad kernel", []string{"--kernels", "base,nosuch"}, []string{"--kernels", "nosuch"}},
		{"bad fit", []string{"--fit", "mine"}, []string{"--fit"}},
		{"bad workers", []string{"--workers", "-2"}, []string{"--workers"}},
		{"non-empty out", []string{"--out", full}, []string{"not empty", "--force"}},
		{"out is a file", []string{"--out", file}, []string{"not a directory"}},
		{"unknown flag", []string{"--frobnicate"}, []string{"frobnicate"}},
		{"skip without kernel", []string{"--skip", "Scaling2d"}, []string{"--skip", "problem/kernel"}},
		{"skip bad kernel", []string{"--skip", "Scaling2d/nosuch"}, []string{"--skip", "nosuch"}},
		{"bad noise", []string{"--noise", "-1"}, []string{"--noise"}},
		{"bad noise word", []string{"--noise", "loud"}, []string{"--noise"}},
		{"bad regret", []string{"--regret", "some"}, []string{"--regret"}},
		{"empty problems", []string{"--problems", ""}, []string{"--problems is empty"}},
		{"empty kernels", []string{"--kernels", " "}, []string{"--kernels is empty"}},
		{"skip outside the table", []string{"--problems", "Ackley2d", "--skip", "Radial2d/base"}, []string{"Radial2d/base", "not in the table"}},
		{"everything skipped", []string{"--problems", "Ackley2d", "--kernels", "base", "--skip", "Ackley2d/base"}, []string{"nothing to run"}},
		// max over scaling(2) is not PSD: the table leaves the cell out
		// without a skip, and a skip of it skipped nothing, exit 0.
		{"skip a cell left out anyway", []string{"--problems", "Scaling2d,Ackley2d", "--kernels", "base,max", "--skip", "Scaling2d/max"}, []string{"Scaling2d/max", "not run in any case", "PSD"}},
		// A cell bo refuses for another reason than the avg enumeration
		// limit fails the table before any run, naming the cell.
		{"cell over the memory budget", []string{"--problems", "Ackley2d", "--kernels", "base", "--mem-budget", "1KiB"}, []string{"Ackley2d, base", "over memory budget"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"table"}, tc.args...)...)
			checkOneLineError(t, code, stdout, stderr, "perf table: ", tc.want...)
		})
	}
	if data, _ := os.ReadFile(file); string(data) != "keep me" {
		t.Errorf("file in --out was modified: %q", data)
	}
}

// TestTableTiny runs perf table end to end on one problem, one seed and a
// few iterations, and checks stdout and the files in --out.
func TestTableTiny(t *testing.T) {
	out := filepath.Join(t.TempDir(), "res")
	args := []string{"table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Radial2d",
		"--kernels", "base,plus,max", "--skip", "radial/max", "--out", out}
	code, stdout, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// 3 + 2 evaluations are not the paper's budget: no paper column.
	if !strings.Contains(stdout, "| Radial2d | ∞ |") || strings.Contains(stdout, "(paper)") || !strings.Contains(stdout, "| not run |") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if !strings.Contains(stderr, "2/2 runs") || !strings.Contains(stderr, "ETA") && !strings.Contains(stderr, "done") {
		t.Errorf("stderr has no progress: %q", stderr)
	}
	for _, f := range []string{"table.md", "results.json", "regret.png", "regret.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "table.md"))
	if !strings.Contains(string(md), stdout) || !strings.Contains(string(md), "perf table --seeds 1") {
		t.Errorf("table.md does not hold the table and the command:\n%s", md)
	}
	if !strings.Contains(string(md), "The paper's columns are left out") || !strings.Contains(string(md), "(here 3 + 2)") {
		t.Errorf("table.md does not say why the paper's columns are left out:\n%s", md)
	}
	var res struct {
		Runs []map[string]json.RawMessage `json:"runs"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(data, &res); err != nil || len(res.Runs) != 2 {
		t.Fatalf("results.json: %d runs, %v", len(res.Runs), err)
	}
	for _, k := range []string{"problem", "kernel", "seed", "evaluations", "cumulative_regret", "best_f"} {
		if _, ok := res.Runs[1][k]; !ok {
			t.Errorf("results.json run lacks %q", k)
		}
	}
	// A second run into the now non-empty directory is refused.
	code, stdout, stderr = runCLI(t, args...)
	checkOneLineError(t, code, stdout, stderr, "perf table: ", "not empty")
}

// TestTableSwitches: --noise and --regret reach the runs and the report;
// with --regret all the cell is R_T plus the initial design's regret,
// checked against the trace in results.json.
func TestTableSwitches(t *testing.T) {
	out := filepath.Join(t.TempDir(), "res")
	code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "ShiftedAckley2d",
		"--kernels", "nystrom", "--noise", "0.01", "--regret", "all", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, "table.md"))
	for _, want := range []string{"noise variance fixed at 0.01", "initial design included", "| ShiftedAckley2d | 8 |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("table.md lacks %q:\n%s", want, md)
		}
	}
	var res struct {
		Cells []struct {
			Mean float64 `json:"mean"`
		} `json:"cells"`
		Runs []struct {
			NoiseVariance float64 `json:"noise_variance"`
			NoiseRule     string  `json:"noise_rule"`
			Evaluations   []struct {
				Regret float64 `json:"regret"`
			} `json:"evaluations"`
		} `json:"runs"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(data, &res); err != nil || len(res.Runs) != 1 || len(res.Cells) != 1 {
		t.Fatalf("results.json: %v", err)
	}
	r := res.Runs[0]
	if r.NoiseVariance != 0.01 || r.NoiseRule != "0.01" {
		t.Errorf("noise %v %q", r.NoiseVariance, r.NoiseRule)
	}
	var sum float64
	for _, e := range r.Evaluations {
		sum += e.Regret
	}
	if len(r.Evaluations) != 5 || math.Abs(res.Cells[0].Mean-sum) > 1e-9*sum {
		t.Errorf("cell %v, want the sum of all %d regrets %v", res.Cells[0].Mean, len(r.Evaluations), sum)
	}
}

// TestTableAblation: --ablation reports the decomposition after the table,
// in table.md and in results.json.
func TestTableAblation(t *testing.T) {
	out := filepath.Join(t.TempDir(), "abl")
	code, stdout, stderr := runCLI(t, "table", "--ablation", "--seeds", "2", "--iters", "2", "--init", "3",
		"--problems", "Ackley2d,Scaling2d", "--kernels", "base,nystrom,max,plus", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"Where plus's gain over base comes from", "| Ackley2d | ", "| Scaling2d | — (k_max not PSD for this group) | — |"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "table.md"))
	if !strings.HasPrefix(string(md), "# The invariance × Nyström ablation") || !strings.Contains(string(md), "Nyström share") {
		t.Errorf("table.md:\n%s", md)
	}
	var res struct {
		Ablation []struct {
			Problem string `json:"problem"`
			Seeds   int    `json:"seeds"`
		} `json:"ablation"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(data, &res); err != nil || len(res.Ablation) != 2 || res.Ablation[0].Seeds != 2 {
		t.Errorf("results.json ablation: %+v, %v", res.Ablation, err)
	}
}

func TestRobustnessBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"bad dims", []string{"--dims", "1,x"}, []string{"--dims"}},
		{"zero dim", []string{"--dims", "0"}, []string{"--dims"}},
		{"unknown problem", []string{"--problems", "nosuch", "--dims", "1"}, []string{"nosuch"}},
		{"no optimum", []string{"--problems", "wlan", "--dims", "2"}, []string{"optimum"}},
		{"bad seeds", []string{"--seeds", "-1"}, []string{"--seeds"}},
		{"bad skip", []string{"--skip", "Ackley5d-avg"}, []string{"--skip"}},
		// As perf table's: a --skip naming no point of the study (a typo,
		// a stale name) and a --skip of every point are refused; before,
		// they skipped nothing, or ran nothing and exited 0.
		{"skip outside the study", []string{"--problems", "ackley", "--dims", "1", "--kernels", "base", "--seeds", "1", "--iters", "2", "--init", "3", "--skip", "Ackley2d/base"}, []string{"Ackley2d/base", "not in the study"}},
		{"skip a kernel outside the study", []string{"--problems", "ackley", "--dims", "1", "--kernels", "base", "--seeds", "1", "--iters", "2", "--init", "3", "--skip", "Ackley1d/avg"}, []string{"Ackley1d/avg", "not in the study"}},
		{"everything skipped", []string{"--problems", "ackley", "--dims", "1", "--kernels", "base", "--seeds", "1", "--iters", "2", "--init", "3", "--skip", "Ackley1d/base"}, []string{"nothing to run"}},
		// Ackley6d/avg: Matérn-5/2 over hyperoctahedral(6), 46080
		// elements, over bo.AvgEnumerateLimit: refused before any run,
		// naming the point and the skip.
		{"avg over hyperoctahedral(6)", []string{"--problems", "ackley", "--dims", "6", "--seeds", "1", "--iters", "2", "--init", "3"}, []string{"Ackley6d", "46080", "AvgEnumerateLimit", "skip the cell Ackley6d/avg"}},
		{"skip a point left out anyway", []string{"--problems", "scaling", "--dims", "2", "--kernels", "base,max", "--seeds", "1", "--iters", "2", "--init", "3", "--skip", "Scaling2d/max"}, []string{"Scaling2d/max", "not run in any case", "PSD"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"robustness"}, tc.args...)...)
			checkOneLineError(t, code, stdout, stderr, "perf robustness: ", tc.want...)
		})
	}
}

func TestRobustnessTiny(t *testing.T) {
	out := filepath.Join(t.TempDir(), "rob")
	code, stdout, stderr := runCLI(t, "robustness", "--seeds", "1", "--iters", "2", "--init", "3",
		"--problems", "rastrigin", "--dims", "1,2", "--kernels", "base,max", "--skip", "Rastrigin2d/max", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "| Rastrigin1d | 1 | 2 |") || !strings.Contains(stdout, "| Rastrigin2d | 2 | 8 |") ||
		!strings.Contains(stdout, "| not run |") {
		t.Errorf("stdout:\n%s", stdout)
	}
	for _, f := range []string{"robustness.md", "results.json", "robustness.png", "robustness.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestSeedRange (issue 17): --seeds A:B runs the seeds A…B−1 in table,
// batch and robustness, records the first seed (table.md says which
// seeds, results.json holds them, the journal's header keeps them for
// --resume; record.json holds each run's seed for perf check), and its seed-k run is the run of seed k under --seeds N (the
// same trace bits): a replication on a disjoint set is one flag away.
// Malformed ranges are exit 2.
func TestSeedRange(t *testing.T) {
	dir := t.TempDir()
	seedsOf := func(out string) (seeds []uint64, metric map[uint64]string) {
		var res struct {
			Runs []struct {
				Seed   uint64          `json:"seed"`
				Regret json.RawMessage `json:"cumulative_regret"`
			} `json:"runs"`
		}
		data, _ := os.ReadFile(filepath.Join(out, "results.json"))
		if err := json.Unmarshal(data, &res); err != nil {
			t.Fatal(err)
		}
		metric = map[uint64]string{}
		for _, r := range res.Runs {
			seeds = append(seeds, r.Seed)
			metric[r.Seed] = string(r.Regret)
		}
		return seeds, metric
	}
	base := []string{"table", "--iters", "2", "--init", "3", "--problems", "Ackley2d", "--kernels", "base"}
	rng, all := filepath.Join(dir, "range"), filepath.Join(dir, "all")
	if code, _, stderr := runCLI(t, append(base, "--seeds", "3:5", "--out", rng)...); code != exitOK {
		t.Fatalf("--seeds 3:5: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, append(base, "--seeds", "5", "--out", all)...); code != exitOK {
		t.Fatalf("--seeds 5: exit %d: %s", code, stderr)
	}
	got, m := seedsOf(rng)
	_, want := seedsOf(all)
	if len(got) != 2 || got[0] != 3 || got[1] != 4 || m[3] != want[3] || m[4] != want[4] {
		t.Errorf("--seeds 3:5 ran seeds %v with metrics %v, want 3, 4 with %v, %v", got, m, want[3], want[4])
	}
	md, _ := os.ReadFile(filepath.Join(rng, "table.md"))
	if !strings.Contains(string(md), "2 seeds (3–4)") {
		t.Errorf("table.md does not say which seeds:\n%s", md)
	}
	rec, _ := os.ReadFile(filepath.Join(rng, "record.json"))
	if !strings.Contains(string(rec), "--seeds 3:5") || !strings.Contains(string(rec), `"seed": 3,`) {
		t.Errorf("record.json lacks the seed range's command or runs: %s", rec)
	}
	for _, cmd := range [][]string{{"batch", "--qs", "2", "--problems", "Ackley2d", "--kernels", "base"}, {"robustness", "--dims", "1", "--kernels", "base"}} {
		out := filepath.Join(dir, cmd[0])
		args := append(cmd, "--seeds", "7:8", "--iters", "2", "--init", "3", "--out", out)
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if s, _ := seedsOf(out); len(s) == 0 || s[0] != 7 {
			t.Errorf("%s --seeds 7:8 ran seeds %v", cmd[0], s)
		}
	}
	for _, bad := range []string{"5:5", "5:3", "-1:3", "a:b", "3:", "x", "0", "1:100000"} {
		code, stdout, stderr := runCLI(t, append(base, "--seeds", bad)...)
		checkOneLineError(t, code, stdout, stderr, "perf table: ", "seeds")
	}
}

// TestNoteRemovedTempsOneLine: the warning for temporaries that could not
// be removed is one line on stderr, however many the atomicfile walk
// could not remove (it joins one error per temporary, a line each).
func TestNoteRemovedTempsOneLine(t *testing.T) {
	var buf strings.Builder
	err := errors.Join(errors.New("remove d/.a.tmp-1: permission denied"), errors.New("remove d/.b.tmp-2: permission denied"))
	noteRemovedTemps(&buf, "perf table", "d", nil, err)
	out := buf.String()
	if strings.Count(out, "\n") != 1 || !strings.Contains(out, ".a.tmp-1") || !strings.Contains(out, ".b.tmp-2") {
		t.Errorf("warning %q, want one line naming both temporaries", out)
	}
}
