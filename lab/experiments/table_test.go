package experiments

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo"
)

func TestSummarize(t *testing.T) {
	// 1, 2, 3, 6: mean 3, sample variance (4+1+0+9)/3 = 14/3, s.e. √(14/3/4).
	s := Summarize([]float64{1, 2, 3, 6})
	if s.Mean != 3 || s.N != 4 || math.Abs(s.SE-math.Sqrt(14.0/12)) > 1e-15 {
		t.Errorf("Summarize = %+v", s)
	}
	if s := Summarize([]float64{5}); s.Mean != 5 || s.SE != 0 {
		t.Errorf("one value: %+v", s)
	}
	if e := FormatEntry(Summarize([]float64{5}), Best); e != "**5.0**" {
		t.Errorf("one value formats as %q, want **5.0** (no error bar)", e)
	}
	if s := Summarize(nil); !math.IsNaN(s.Mean) {
		t.Errorf("no values: %+v", s)
	}
}

// TestMarks checks the bold/underline rule on hand-made summaries, each
// interval worked out by hand.
func TestMarks(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    []Summary
		want []Mark
	}{
		// best 10 ± 1 → [8.04, 11.96]; 13 ± 0.5 → [12.02, …]: no overlap;
		// 12 ± 0.5 → [11.02, …]: overlap; 30 ± 10 → [10.4, …]: overlap.
		{"mixed", []Summary{{Mean: 13, SE: 0.5}, {Mean: 10, SE: 1}, {Mean: 12, SE: 0.5}, {Mean: 30, SE: 10}},
			[]Mark{Plain, Best, Overlapped, Overlapped}},
		// The paper's Ackley2d row: avg 128.2 ± 10.4 overlaps plus 126.4 ± 3.6; base does not.
		{"paper Ackley2d", []Summary{{Mean: 382.7, SE: 5.7}, {Mean: 128.2, SE: 10.4}, {Mean: 126.4, SE: 3.6}},
			[]Mark{Plain, Overlapped, Best}},
		// Negative values (WLAN): the lowest is best; −65.0 ± 3.2 → [−71.27, …]
		// vs best −74.4 ± 0.7 → […, −73.03]: no overlap.
		{"paper WLAN", []Summary{{Mean: -65, SE: 3.2}, {Mean: -51.8, SE: 1.7}, {Mean: -74.4, SE: 0.7}},
			[]Mark{Plain, Plain, Best}},
		// Touching intervals count as overlapping: 0 ± 1 and 3.92 ± 1.
		{"touching", []Summary{{Mean: 0, SE: 1}, {Mean: 3.92, SE: 1}}, []Mark{Best, Overlapped}},
		{"tie: first is best", []Summary{{Mean: 1, SE: 0}, {Mean: 1, SE: 0}}, []Mark{Best, Overlapped}},
		{"NaN skipped", []Summary{{Mean: math.NaN()}, {Mean: 2, SE: 0}}, []Mark{Plain, Best}},
		// One seed: no error bars, so nothing overlaps the best.
		{"one seed", []Summary{{Mean: 1, N: 1}, {Mean: 1.5, N: 1}}, []Mark{Best, Plain}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Marks(tc.s); !slices.Equal(got, tc.want) {
				t.Errorf("Marks = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFormatEntry(t *testing.T) {
	for _, tc := range []struct {
		s    Summary
		m    Mark
		want string
	}{
		{Summary{Mean: 382.66, SE: 5.74}, Plain, "382.7 ± 5.7"},
		{Summary{Mean: 126.4, SE: 3.6}, Best, "**126.4 ± 3.6**"},
		{Summary{Mean: -51.84, SE: 1.7}, Overlapped, "<u>−51.8 ± 1.7</u>"},
	} {
		if got := FormatEntry(tc.s, tc.m); got != tc.want {
			t.Errorf("FormatEntry(%+v, %v) = %q, want %q", tc.s, tc.m, got, tc.want)
		}
	}
}

// seededTable builds a table from per-seed metrics: vals[problem][kernel]
// is the metric of seeds 0, 1, …; problems whose name starts with "WLAN"
// have an unknown optimum (the metric is the negated best reward).
func seededTable(set Settings, kernels []string, problems []string, vals map[string]map[string][]float64) *TableResult {
	r := &TableResult{Settings: set, Kernels: kernels}
	for _, p := range problems {
		known := !strings.HasPrefix(p, "WLAN")
		row := Row{Problem: p, Order: map[bool]string{true: "8", false: "24"}[known], known: known, Paper: paperTable1[p], Cells: map[string]*Cell{}}
		for _, k := range kernels {
			v, ok := vals[p][k]
			if !ok {
				continue
			}
			c := &Cell{Problem: p, Kernel: k}
			row.Cells[k] = c
			r.CellList = append(r.CellList, c)
			for s, x := range v {
				tr := &bo.Trace{BestF: -x}
				if known {
					opt := 0.0
					tr.Optimum, tr.CumulativeRegret = &opt, []float64{x}
				}
				r.Specs = append(r.Specs, RunSpec{Index: len(r.Specs), Problem: p, Kernel: k, Seed: uint64(s)})
				r.Runs = append(r.Runs, tr)
			}
		}
		r.Rows = append(r.Rows, row)
	}
	r.summarize()
	return r
}

// TestMarkdown formats a made-up table beside the paper's Ackley2d and
// WLAN8d rows, at the paper's budget; at any other budget the paper's
// columns are left out. Our entries are marked by paired t tests against
// the row's best with Holm's correction over the table (five
// comparisons), the paper's by its interval-overlap rule.
func TestMarkdown(t *testing.T) {
	kernels := []string{bo.NameBase, bo.NameAvg, bo.NamePlus, bo.NameMax}
	vals := map[string]map[string][]float64{
		"Ackley2d": {
			bo.NamePlus: {90, 92, 88, 91, 89},
			bo.NameAvg:  {91, 89, 93, 89, 93},      // − plus: 1, −3, 5, −2, 4: mean 1, p ≈ 0.66 → underlined
			bo.NameMax:  {120, 123, 117, 121, 119}, // − plus: 30, 31, 29, 30, 30: p < 1e-6 → plain
			bo.NameBase: {300, 290, 310, 295, 305}, // − plus: 210, 198, 222, 204, 216 → plain
		},
		"WLAN8d": {
			bo.NamePlus: {-25, -24, -26, -25, -25},
			bo.NameAvg:  {-21, -20, -22, -21, -21}, // − plus: 4 every seed → plain
			bo.NameBase: {-20, -20, -20, -20, -20}, // − plus: 5, 4, 6, 5, 5 → plain
		},
	}
	r := seededTable(Settings{Init: 5, Iters: 50}, kernels, []string{"Ackley2d", "WLAN8d"}, vals)
	want := "| Benchmark | \\|G\\| | base | base (paper) | avg | avg (paper) | plus | plus (paper) | max | exact-optimum hits (runs/evals) |\n" +
		"|---|---|---|---|---|---|---|---|---|---|\n" +
		"| Ackley2d | 8 | 300.0 ± 3.5 | 382.7 ± 5.7 | <u>91.0 ± 0.9</u> | <u>128.2 ± 10.4</u> | **90.0 ± 0.7** | **126.4 ± 3.6** | 120.0 ± 1.0 | none |\n" +
		"| WLAN8d | 24 | −20.0 ± 0.0 | −65.0 ± 3.2 | −21.0 ± 0.3 | −51.8 ± 1.7 | **−25.0 ± 0.3** | **−74.4 ± 0.7** | — | n/a (f* unknown) |\n"
	if got := r.Markdown(); got != want {
		t.Errorf("Markdown:\n%s\nwant:\n%s", got, want)
	}
	want = "| Benchmark | \\|G\\| | base | avg | plus | max | exact-optimum hits (runs/evals) |\n" +
		"|---|---|---|---|---|---|---|\n" +
		"| Ackley2d | 8 | 300.0 ± 3.5 | <u>91.0 ± 0.9</u> | **90.0 ± 0.7** | 120.0 ± 1.0 | none |\n" +
		"| WLAN8d | 24 | −20.0 ± 0.0 | −21.0 ± 0.3 | **−25.0 ± 0.3** | — | n/a (f* unknown) |\n"
	for _, set := range []Settings{{Init: 5, Iters: 495}, {Init: 10, Iters: 50}, {Init: 5, Iters: 50, Batch: 4}} {
		r.Settings = set
		if r.PaperComparable() {
			t.Errorf("%+v: PaperComparable", set)
		}
		if got := r.Markdown(); got != want {
			t.Errorf("%+v: Markdown:\n%s\nwant:\n%s", set, got, want)
		}
	}
	// A bimodal cell: its median (−30) lies outside mean ± 1.96·s.e.
	// (−20 ± 9.8), so the entry shows it.
	r = seededTable(Settings{Init: 5, Iters: 50}, []string{bo.NamePlus}, []string{"Ackley2d"},
		map[string]map[string][]float64{"Ackley2d": {bo.NamePlus: {-30, -30, -30, -30, -30, -30, 0, 0, 0}}})
	if got := r.Markdown(); !strings.Contains(got, "**−20.0 ± 5.0** (median −30.0)") {
		t.Errorf("bimodal cell without its median:\n%s", got)
	}
}

func TestCurveWLAN(t *testing.T) {
	tr := &bo.Trace{Evaluations: []bo.Evaluation{
		{Phase: bo.PhaseInit, F: 3}, {Phase: bo.PhaseInit, F: 5},
		{Phase: bo.PhaseBO, F: 4}, {Phase: bo.PhaseBO, F: 7}, {Phase: bo.PhaseBO, F: 6},
	}, BestF: 7}
	if got, want := Curve(tr), []float64{-5, -7, -7}; !slices.Equal(got, want) {
		t.Errorf("Curve = %v, want %v", got, want)
	}
	if Metric(tr) != -7 {
		t.Errorf("Metric = %v, want −7", Metric(tr))
	}
}

// jsonKeys returns the top-level keys of the JSON encoding of v.
func jsonKeys(t *testing.T, v any) []string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestTableEndToEnd runs a tiny table (1 problem, 2 kernels, 2 seeds, 3
// iterations) and checks it against the traces: the metric recomputed from
// the evaluations, determinism across worker counts, the stable JSON
// fields, and the figure files.
func TestTableEndToEnd(t *testing.T) {
	opts := TableOptions{
		Problems: []string{"radial"}, Kernels: []string{bo.NameBase, bo.NameMax}, Seeds: 2,
		Iters: 3, Config: bo.Config{Init: 3, Protocol: bo.Protocol{RawSamples: 32, Starts: 2, MaxIter: 10, Restarts: -1}},
	}
	var calls int
	progress := func(p Progress) {
		calls++ // one call at the start, then one per run
		if p.Done != calls-1 || p.Total != 4 || p.ETA < 0 {
			t.Errorf("progress %+v at call %d", p, calls)
		}
	}
	opts.Workers = 1
	r1, err := execute(Table(opts))(ExecOptions[*bo.Trace]{Workers: 1, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 5 || len(r1.Runs) != 4 || len(r1.CellList) != 2 {
		t.Fatalf("%d progress calls, %d runs, %d cells", calls, len(r1.Runs), len(r1.CellList))
	}
	for i, s := range r1.Specs {
		tr := r1.Runs[i]
		if tr.Problem != "Radial2d" || tr.Kernel != string(s.Kernel) || tr.Seed != s.Seed || s.Index != i {
			t.Errorf("run %d: spec %+v, trace %s %s %d", i, s, tr.Problem, tr.Kernel, tr.Seed)
		}
		// R_T recomputed from the noiseless f of the BO-phase evaluations (f* = 0).
		var want float64
		for _, e := range tr.Evaluations {
			if e.Phase == bo.PhaseBO {
				want += e.F - 0 // minimized: regret f − f*
			}
		}
		if got := Metric(tr); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("run %d: Metric %v, recomputed %v", i, got, want)
		}
	}
	c := r1.Rows[0].Cells[bo.NameMax]
	want := Summarize([]float64{Metric(r1.Runs[2]), Metric(r1.Runs[3])})
	if c.Summary != want {
		t.Errorf("max cell %+v, want %+v", c.Summary, want)
	}
	opts.Workers = 3
	r2, err := execute(Table(opts))(ExecOptions[*bo.Trace]{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range r1.Runs {
		if Metric(r1.Runs[i]) != Metric(r2.Runs[i]) || !reflect.DeepEqual(r1.Runs[i].Evaluations[4].X, r2.Runs[i].Evaluations[4].X) {
			t.Errorf("run %d differs between 1 and 3 workers", i)
		}
	}
	if got, want := jsonKeys(t, r1), []string{"cells", "environment", "kernels", "rows", "runs", "settings", "wall_seconds"}; !slices.Equal(got, want) {
		t.Errorf("results.json keys %v, want %v", got, want)
	}
	for _, k := range []string{"problem", "d", "kernel", "seed", "evaluations", "cumulative_regret", "best_f"} {
		if !slices.Contains(jsonKeys(t, r1.Runs[0]), k) {
			t.Errorf("trace JSON lacks %q", k)
		}
	}
	for _, k := range []string{"cpu", "go_version", "goarch", "gomaxprocs", "goos", "module", "num_cpu", "revision", "simd"} {
		if !slices.Contains(jsonKeys(t, r1.Environment), k) {
			t.Errorf("environment lacks %q (has %v)", k, jsonKeys(t, r1.Environment))
		}
	}
	dir := t.TempDir()
	paths, err := WriteFigure(dir, "regret", r1.Panels(), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil || len(data) < 1000 {
			t.Errorf("%s: %d bytes, %v", p, len(data), err)
		}
		if strings.HasSuffix(p, ".svg") && !strings.Contains(string(data), "<svg") {
			t.Errorf("%s is not SVG", p)
		}
		if strings.HasSuffix(p, ".png") && !strings.HasPrefix(string(data), "\x89PNG") {
			t.Errorf("%s is not PNG", p)
		}
	}
	if filepath.Base(paths[0]) != "regret.png" {
		t.Errorf("paths %v", paths)
	}
}

func TestTableBadOptions(t *testing.T) {
	for _, o := range []TableOptions{
		{Problems: []string{"nosuch"}},
		{Problems: []string{"ackley", "Ackley2d"}, Seeds: 1, Iters: 1},
		{Seeds: -1},
		{Kernels: []string{"nosuch"}, Problems: []string{"ackley"}},
	} {
		if _, err := Table(o); err == nil {
			t.Errorf("Table(%+v) succeeded", o)
		}
	}
	// A kernel listed twice is refused before any run (perf table --resume
	// of a journal whose settings list one twice ran every run of both,
	// then failed writing the NaN summary of their one cell: exit 1).
	o := TableOptions{Problems: []string{"Ackley2d"}, Kernels: []string{"plus", "base", "plus"}, Seeds: 1, Iters: 1}
	if _, err := Table(o); !errors.Is(err, ErrBadOptions) || !strings.Contains(err.Error(), "plus listed twice") {
		t.Errorf("Table with kernels %v: %v, want ErrBadOptions naming plus", o.Kernels, err)
	}
	ro := RobustnessOptions{Kernels: []string{"plus", "base", "plus"}, Seeds: 1, Iters: 1}
	if _, err := Robustness(ro); !errors.Is(err, ErrBadOptions) || !strings.Contains(err.Error(), "plus listed twice") {
		t.Errorf("Robustness with kernels %v: %v, want ErrBadOptions naming plus", ro.Kernels, err)
	}
}

func TestRobustnessEndToEnd(t *testing.T) {
	r, err := execute(Robustness(RobustnessOptions{
		Problems: []string{"ackley"}, Dims: []int{1, 2}, Kernels: []string{bo.NameBase, bo.NamePlus}, Seeds: 1,
		Iters: 2, Config: bo.Config{Init: 3, Protocol: bo.Protocol{RawSamples: 32, Starts: 2, MaxIter: 10, Restarts: -1}},
	}))(ExecOptions[*bo.Trace]{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Points) != 4 || len(r.Runs) != 4 {
		t.Fatalf("%d points, %d runs", len(r.Points), len(r.Runs))
	}
	for i, pt := range r.Points {
		tr := r.Runs[i] // one seed: run i is point i
		var sum float64
		for _, e := range tr.Evaluations {
			if e.Phase == bo.PhaseBO {
				sum += e.F // Ackley: f* = 0, regret f
			}
		}
		if math.Abs(pt.Mean-sum/2) > 1e-9*(1+sum) || pt.D != tr.D {
			t.Errorf("point %+v: trace R_T/T %v", pt, sum/2)
		}
	}
	if md := r.Markdown(); !strings.Contains(md, "| Ackley1d | 1 | 2 |") || !strings.Contains(md, "| Ackley2d | 2 | 8 |") {
		t.Errorf("Markdown:\n%s", md)
	}
	if _, err := WriteFigure(t.TempDir(), "robustness", r.Panels(), 2); err != nil {
		t.Fatal(err)
	}
}

// execute returns a function executing plan, or failing with err.
func execute[R, Res any](plan Plan[R, Res], err error) func(ExecOptions[R]) (Res, error) {
	return func(o ExecOptions[R]) (Res, error) {
		if err != nil {
			var zero Res
			return zero, err
		}
		return plan.Execute(o)
	}
}

// TestBORunsRefuseUnknownKernelUpFront: a plan naming a kernel no
// problem has is refused when it is built, before any run (perf check of
// an edited record.json once reran seven runs before the eighth's kernel
// was found unknown).
func TestBORunsRefuseUnknownKernelUpFront(t *testing.T) {
	specs := []RunSpec{
		{Index: 0, Problem: "Ackley2d", Kernel: "plus", Seed: 0},
		{Index: 1, Problem: "Ackley2d", Kernel: "nosuch", Seed: 0},
	}
	runs, err := BORuns(specs, bo.Config{}, 2, 0, bo.NoiseRule{})
	if err == nil || !strings.Contains(err.Error(), `"nosuch"`) || !strings.Contains(err.Error(), "run 1") {
		t.Fatalf("BORuns: %d runs, error %v; want run 1's unknown kernel", len(runs), err)
	}
	if _, err := BORuns(specs[:1], bo.Config{}, 2, 0, bo.NoiseRule{}); err != nil {
		t.Fatalf("a known kernel: %v", err)
	}
}

// TestTableSkipMustNameItsCells: a skipped cell outside the table (a
// misspelt or stale --skip once skipped nothing, silently) and a table
// with nothing left to run are ErrBadOptions.
func TestTableSkipMustNameItsCells(t *testing.T) {
	base := TableOptions{Seeds: 1, Iters: 1, Problems: []string{"Ackley2d"}, Kernels: []string{"base", "plus"}}
	for _, skip := range [][]CellKey{
		{{Problem: "Radial2d", Kernel: "base"}},
		{{Problem: "Ackley2d", Kernel: "avg"}},
		{{Problem: "Ackley2d", Kernel: "base"}, {Problem: "Ackley2d", Kernel: "plus"}},
	} {
		o := base
		o.Skip = skip
		if _, err := Table(o); !errors.Is(err, ErrBadOptions) {
			t.Errorf("skip %v: %v, want ErrBadOptions", skip, err)
		}
	}
	o := base
	o.Skip = []CellKey{{Problem: "Ackley2d", Kernel: "base"}}
	if _, err := Table(o); err != nil {
		t.Errorf("skip one of two cells: %v", err)
	}
}

// TestTableSkipsRefusedCell: a cell bo refuses — avg on
// Ackley10d:permutation, Matérn-5/2 enumerated over 3628800 elements,
// over bo.AvgEnumerateLimit — fails the table with bo.ErrBadConfig, the
// message naming the cell to skip, unless skipped; skipped, the rest of
// the table is planned (the refusal used to fail the table whatever
// Skip said). Robustness plans its points by the same rule (kernelsOn).
func TestTableSkipsRefusedCell(t *testing.T) {
	const big = "Ackley10d:permutation"
	o := TableOptions{Seeds: 1, Iters: 1, Problems: []string{big, "Ackley2d"}, Kernels: []string{"avg", "plus"}}
	if _, err := Table(o); !errors.Is(err, bo.ErrBadConfig) || !strings.Contains(err.Error(), "AvgEnumerateLimit") || !strings.Contains(err.Error(), "skip the cell "+big+"/avg") {
		t.Errorf("avg on %s: %v, want bo.ErrBadConfig naming the cell to skip", big, err)
	}
	o.Skip = []CellKey{{Problem: big, Kernel: "avg"}}
	plan, err := Table(o)
	if err != nil {
		t.Fatalf("avg on %s skipped: %v", big, err)
	}
	var cells []string
	for _, r := range plan.Runs {
		cells = append(cells, r.Cell)
	}
	slices.Sort(cells)
	if want := []string{"Ackley10d:permutation/plus", "Ackley2d/avg", "Ackley2d/plus"}; !slices.Equal(cells, want) {
		t.Errorf("runs %v, want %v", cells, want)
	}
}

// TestPairedMarksUnequalSeeds: when a row's kernels ran different seeds,
// the best is chosen on the seeds they all ran. Kernel a ran seeds 0–19
// (about 100 on 0–9, 50 on 10–19: mean 75) and b only 0–9 (about 90:
// mean 90). On the seeds both ran b is better by 10, significantly; the
// mean over each one's own seeds made a the best and left b plain, which
// reads as significantly worse.
func TestPairedMarksUnequalSeeds(t *testing.T) {
	per := PerSeed{"P": {"a": {}, "b": {}}}
	for s := range uint64(20) {
		jitter := float64(s%3) * 0.1
		if s < 10 {
			per["P"]["a"][s] = 100 + jitter
			per["P"]["b"][s] = 90 + jitter*2
		} else {
			per["P"]["a"][s] = 50 + jitter
		}
	}
	marks, vs := PairedMarks([]string{"P"}, []string{"a", "b"}, per)
	if marks[0]["b"] != Best {
		t.Fatalf("marks %v: b, better by 10 on every seed both ran, is not the best", marks[0])
	}
	e := vs[0]["a"]
	if e == nil || e.N != 10 || !e.Significant || e.Est < 9 {
		t.Fatalf("a against the best: %+v, want a significant +10 over the 10 shared seeds", e)
	}
	if marks[0]["a"] != Plain {
		t.Errorf("a, significantly worse on the shared seeds, is marked %v", marks[0]["a"])
	}
	// Equal seed sets: the best is the lowest mean, as before.
	per["P"]["b"] = map[uint64]float64{}
	for s := range uint64(20) {
		per["P"]["b"][s] = 80 + float64(s%3)*0.1
	}
	if marks, _ := PairedMarks([]string{"P"}, []string{"a", "b"}, per); marks[0]["a"] != Best {
		t.Errorf("equal seeds: marks %v, want a (mean 75) best", marks[0])
	}
}

// TestPairedMarksUnequalSeedsThree: the guarantee of
// TestPairedMarksUnequalSeeds with three kernels. a and b ran seeds 0–19,
// c only 0–1, so the best is chosen on seeds 0–1, where b (90) beats a
// (100) and c (95). On the 20 seeds a and b share, a is lower by 35 on
// average (−40 on seeds 2–19): a must not be left plain, which reads as
// significantly worse than b. The p-value of a − b, from
// scipy.stats.ttest_1samp(d, 0) on those 20 differences, is 3.8953095570631204e-09.
func TestPairedMarksUnequalSeedsThree(t *testing.T) {
	per := PerSeed{"P": {"a": {}, "b": {}, "c": {}}}
	for s := range uint64(20) {
		jitter := float64(s%3) * 0.1
		per["P"]["b"][s] = 90 + jitter*2
		if s < 2 {
			per["P"]["a"][s] = 100 + jitter
			per["P"]["c"][s] = 95 + jitter
		} else {
			per["P"]["a"][s] = 50 + jitter
		}
	}
	marks, vs := PairedMarks([]string{"P"}, []string{"a", "b", "c"}, per)
	if marks[0]["b"] != Best {
		t.Fatalf("marks %v: b, the lowest on the seeds all three ran, is not the best", marks[0])
	}
	e := vs[0]["a"]
	if e == nil || e.N != 20 || e.Est > -30 || math.Abs(e.P-3.8953095570631204e-09)/3.8953095570631204e-09 > 1e-9 {
		t.Fatalf("a against the best: %+v, want −35 over the 20 shared seeds, p 3.8953095570631204e-09", e)
	}
	if marks[0]["a"] == Plain {
		t.Errorf("a, lower than the best by 35 on the 20 seeds they share, is left plain (read: significantly worse)")
	}
}
