package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/symbo/symbo/lab/experiments"
	"github.com/symbo/symbo/linalg"
)

// tinyProfileArgs runs in well under a second.
var tinyProfileArgs = []string{"profile", "--group", "hyperoctahedral", "--d", "3", "--n", "6,12", "--m", "8",
	"--min-time", "1us", "--max-reps", "2", "--gemm-n", "12"}

func TestProfileTable(t *testing.T) {
	code, out, errOut := runCLI(t, tinyProfileArgs...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "# perf profile: hyperoctahedral(3), |G| = 48, base rbf") {
		t.Errorf("title %q", lines[0])
	}
	for _, want := range []string{"backend ", "SIMD ", "GOMAXPROCS ", "module "} {
		if !strings.Contains(out, want) {
			t.Errorf("header lacks %q", want)
		}
	}
	// The table: a header row, a separator, one row per phase and n, all
	// with the same number of cells.
	var rows [][]string
	for _, l := range lines {
		if strings.HasPrefix(l, "|") {
			rows = append(rows, splitRow(l))
		}
	}
	if len(rows) < 3 {
		t.Fatalf("no table in\n%s", out)
	}
	wantHeader := []string{"phase", "n", "time", "runs", "pairs/s", "GFLOP/s", "% step", "ratio"}
	if !slices.Equal(rows[0], wantHeader) {
		t.Errorf("header %q, want %q", rows[0], wantHeader)
	}
	// 23 phases at each of 2 sizes (11, and fit, acquisition and step for
	// each of 4 BO kernels: plus, base, avg and the default), plus one
	// DGEMM row per backend and gonum's.
	if got, want := len(rows)-2, 2*23+len(linalg.Available())+1; got != want {
		t.Errorf("%d table rows, want %d", got, want)
	}
	for _, r := range rows {
		if len(r) != len(wantHeader) {
			t.Errorf("row %q has %d cells", r, len(r))
		}
	}
	for _, label := range []string{"Gram k_max closed", "Gram k_avg enumerate", "eigen of the k_max Gram", "BO step, plus", "BO step, base",
		"BO step, avg", "BO step, default", "DGEMM, backend gonum", "DGEMM, gonum/blas Dgemm"} {
		if !strings.Contains(out, "| "+label) {
			t.Errorf("no row %q", label)
		}
	}
	if !strings.Contains(out, "enum ") || !strings.Contains(out, "Gram ") || !strings.Contains(out, " dgemm") ||
		!strings.Contains(out, "BO step plus at n = 12") || !strings.Contains(out, "BO step default at n = 12") || !strings.Contains(out, "× gonum/blas's") {
		t.Errorf("ratio columns missing:\n%s", out)
	}
	// Readable in 100 columns.
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("%d columns: %q", n, l)
		}
	}
	// Progress: one line per row on stderr, with the table's time, and
	// one per size.
	var progress []string
	for _, l := range strings.Split(errOut, "\n") {
		if strings.HasPrefix(l, "profile: ") && !strings.HasPrefix(l, "profile: n = ") {
			progress = append(progress, l)
		}
	}
	if len(progress) != len(rows)-2 || strings.Count(errOut, "profile: n = ") != 2 || !strings.Contains(errOut, "(2 of 2 sizes)") {
		t.Errorf("%d progress lines for %d rows:\n%s", len(progress), len(rows)-2, errOut)
	}
	for _, r := range rows[2:] {
		if !strings.HasPrefix(r[0], "BO step") {
			continue
		}
		var line string
		for _, l := range progress {
			if strings.Contains(l, r[0]) && strings.Contains(l, "n="+r[1]+" ") {
				line = l
			}
		}
		fields := strings.Fields(strings.TrimSpace(line[strings.Index(line, "n="+r[1]):]))
		// The table rounds to three digits and stderr to four.
		sec, err := strconv.ParseFloat(fields[1], 64)
		num, unit, _ := strings.Cut(r[2], " ")
		v, err2 := strconv.ParseFloat(num, 64)
		v *= map[string]float64{"s": 1, "ms": 1e-3, "µs": 1e-6}[unit]
		if err != nil || err2 != nil || math.Abs(sec-v) > 0.006*v {
			t.Errorf("%s n=%s: table %s, stderr %q", r[0], r[1], r[2], line)
		}
	}
}

func splitRow(l string) []string {
	l = strings.TrimSuffix(strings.TrimPrefix(l, "|"), "|")
	l = strings.ReplaceAll(l, `\|`, "\x00")
	var cells []string
	for _, c := range strings.Split(l, "|") {
		cells = append(cells, strings.ReplaceAll(strings.TrimSpace(c), "\x00", "|"))
	}
	return cells
}

func TestProfileJSON(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	code, out, errOut := runCLI(t, append(slices.Clone(tinyProfileArgs), "--json", "--cpuprofile", cpu, "--memprofile", mem)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Group      string `json:"group"`
		D          int    `json:"d"`
		Order      string `json:"order"`
		Backend    string `json:"backend"`
		SIMD       string `json:"simd"`
		GOMAXPROCS int    `json:"gomaxprocs"`
		Module     string `json:"module"`
		N          []int  `json:"n"`
		Rows       []struct {
			Phase     string   `json:"phase"`
			Label     string   `json:"label"`
			N         int      `json:"n"`
			Status    string   `json:"status"`
			Seconds   *float64 `json:"seconds"`
			Reps      *int     `json:"reps"`
			Ratio     float64  `json:"ratio"`
			RatioKind string   `json:"ratio_kind"`
		} `json:"rows"`
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Group != "hyperoctahedral(3)" || res.D != 3 || res.Order != "48" || res.Backend == "" || res.SIMD == "" ||
		res.GOMAXPROCS < 1 || res.Module == "" || !slices.Equal(res.N, []int{6, 12}) {
		t.Errorf("header fields: %+v", res)
	}
	phases := map[string]bool{}
	for _, r := range res.Rows {
		phases[r.Phase] = true
		if r.Seconds == nil || r.Reps == nil || r.Status == "" || r.Label == "" {
			t.Errorf("row %+v lacks a field", r)
		}
	}
	for _, p := range []string{"enumerate-orbits", "gram", "eigen", "plus-spectrum", "plus-build", "plus-cross", "dgemm", "gp-fit", "acquisition", "bo-iteration"} {
		if !phases[p] {
			t.Errorf("no %s row", p)
		}
	}
	for _, f := range []string{cpu, mem} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("profile %s not written: %v", f, err)
		}
	}
}

func TestProfileBadInput(t *testing.T) {
	pdir := t.TempDir()
	cases := [][]string{
		{"profile", "--group", "nosuchgroup", "--d", "3"},
		{"profile", "--group", "signflip", "--d", "3", "--n", "10,x"},
		{"profile", "--group", "signflip", "--d", "3", "--n", "100,50"},
		{"profile", "--group", "signflip", "--d", "3", "--n", "1"},
		{"profile", "--group", "signflip", "--d", "3", "--n", ""},
		{"profile", "--group", "signflip", "--d", "0"},
		{"profile", "--d", "3"},
		{"profile", "--group", "signflip", "--d", "3", "--base", "cubic"},
		{"profile", "--group", "signflip", "--d", "3", "--bo-kernel", "best"},
		{"profile", "--group", "signflip", "--d", "3", "--bo-kernel", "plus,"},
		{"profile", "--group", "signflip", "--d", "3", "--landmarks", "-3"},
		{"profile", "--group", "signflip", "--d", "3", "--gemm-n", "0"},
		{"profile", "--group", "signflip", "--d", "3", "--m", "0"},
		// k_plus cross's 1000 candidates of 65536 coordinates are 524 MB:
		// they were allocated over the budget after the other phases
		// (with --m 10000, 5.2 GB: a crash out of memory, stack dumped).
		{"profile", "--group", "none", "--d", "65536", "--n", "2,3", "--m", "1000", "--bo-kernel", "base", "--gemm-n", "2", "--max-phase-seconds", "1", "--mem-budget", "100MiB"},
		{"profile", "--group", "signflip", "--d", "3", "--max-phase-seconds", "-1"},
		{"profile", "--group", "signflip", "--d", "3", "--backend", "fortran"},
		{"profile", "--group", "signflip", "--d", "3", "--cpuprofile", "/nonexistent/dir/cpu.pprof"},
		// One file for both profiles: the heap profile would replace the CPU one.
		{"profile", "--group", "signflip", "--d", "3", "--cpuprofile", filepath.Join(pdir, "p"), "--memprofile", filepath.Join(pdir, "..", filepath.Base(pdir), "p")},
	}
	if !slices.Contains(linalg.Available(), "openblas") {
		cases = append(cases,
			[]string{"profile", "--group", "signflip", "--d", "3", "--backend", "openblas"},
			[]string{"profile", "--group", "signflip", "--d", "3", "--eigen-vs-c", "100"})
	}
	for _, args := range cases {
		code, out, errOut := runCLI(t, args...)
		checkOneLineError(t, code, out, errOut, "perf profile: ")
	}
}

func TestComplexityCLI(t *testing.T) {
	dir := t.TempDir()
	args := []string{"complexity", "--group", "signflip", "--d", "3", "--n", "6,12,24", "--sweep", "signflip:2-4",
		"--group-n", "6", "--m", "4", "--landmark-m", "4", "--landmark-n", "12,24", "--landmark-ms", "4,8", "--min-time", "1us", "--max-reps", "2", "--out", dir}
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows [][]string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "|") {
			rows = append(rows, splitRow(l))
		}
	}
	wantHeader := []string{"quantity", "kernel", "method", "vs", "Table 2", "predicted", "slope", "R²", "top slope", "points", "x range", "slope vs |G|·d", "note"}
	if len(rows) < 3 || !slices.Equal(rows[0], wantHeader) {
		t.Fatalf("table header %q, want %q\n%s", rows[0], wantHeader, out)
	}
	// 17 series against n (one more eigen series per other compiled-in
	// backend), the landmark GP of the six capped kernels against n and
	// against m, 7 against |G| for the one family.
	want := 17 + len(linalg.Available()) - 1 + 2*6 + 7
	if got := len(rows) - 2; got != want {
		t.Errorf("%d series rows, want %d", got, want)
	}
	for _, r := range rows {
		if r[0] == "landmark-gp" && r[9] != "2" {
			t.Errorf("landmark series %q: want 2 points", r)
		}
	}
	for _, f := range []string{"complexity-n.png", "complexity-n.svg", "complexity-group.png", "complexity-group.svg", "complexity-m.png", "complexity-m.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("plot %s: %v", f, err)
		}
	}

	code, out, errOut = runCLI(t, append(args[:len(args)-2], "--json")...)
	if code != exitOK {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var res struct {
		Group  string `json:"group"`
		Series []struct {
			Quantity  string    `json:"quantity"`
			Against   string    `json:"against"`
			Predicted *float64  `json:"predicted"`
			X         []float64 `json:"x"`
			Seconds   []float64 `json:"seconds"`
			Slope     *float64  `json:"slope"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("invalid JSON: %v", err)
	}
	if res.Group != "signflip(3)" || len(res.Series) != want {
		t.Errorf("group %q, %d series", res.Group, len(res.Series))
	}
	for _, s := range res.Series {
		if s.Predicted == nil || len(s.X) != len(s.Seconds) || (len(s.X) >= 2) != (s.Slope != nil) {
			t.Errorf("series %+v", s)
		}
	}
}

func TestComplexityBadInput(t *testing.T) {
	full := t.TempDir() // a file there: refused without --force, before anything runs
	if err := os.WriteFile(filepath.Join(full, "complexity-n.png"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"complexity", "--n", "8,16", "--sweep", "none", "--out", full},
		{"complexity", "--group", "nosuchgroup"},
		{"complexity", "--n", "64"},
		{"complexity", "--n", "64,32"},
		{"complexity", "--n", "a,b"},
		{"complexity", "--sweep", "signflip:5"},
		{"complexity", "--sweep", "nosuch:2-4"},
		{"complexity", "--sweep", "rotation2d:2-3"},
		{"complexity", "--group-n", "1"},
		{"complexity", "--backend", "fortran"},
		// m candidates over the memory budget: refused before the first
		// point, not an out-of-memory crash there.
		{"complexity", "--group", "signflip", "--d", "2", "--n", "8,16", "--m", "1000000000000"},
		// So are the points of a series: 5000 of 65536 coordinates are
		// 2.6 GB, which were allocated over a 100 MiB budget (a crash out
		// of memory, stack dumped, where memory is short).
		{"complexity", "--group", "none", "--d", "65536", "--n", "2,5000", "--sweep", "signflip:2-3", "--landmark-n", "100,200", "--max-point-seconds", "1", "--mem-budget", "100MiB"},
	} {
		code, out, errOut := runCLI(t, args...)
		checkOneLineError(t, code, out, errOut, "perf complexity: ")
	}
}

// TestProfileSummaryClosedRatio: the summary's closed-vs-enumerated
// line gives the table's ratio to three digits, and says "slower" where
// the closed form lost. It printed %.0f: 1.24 as "1× faster", and a
// closed form at 0.4 of enumeration's speed as "0× faster".
func TestProfileSummaryClosedRatio(t *testing.T) {
	row := func(kernel string, ratio float64) experiments.ProfileRow {
		return experiments.ProfileRow{Phase: "gram", Kernel: kernel, Method: "closed", N: 20, Ratio: ratio, RatioKind: experiments.RatioEnumOverClosed}
	}
	got := profileSummary(experiments.ProfileResult{Rows: []experiments.ProfileRow{row("avg", 1.24), row("max", 0.4)}})
	for _, want := range []string{
		"closed k_avg Gram at n = 20: 1.24× faster than enumeration\n",
		"closed k_max Gram at n = 20: 2.5× slower than enumeration\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary %q lacks %q", got, want)
		}
	}
}

// TestProfileOutputsNotInput: a --cpuprofile or --memprofile naming the
// --matrices group file is refused (exit 2, one line) and the file is
// left as it was. perf profile wrote the pprof profile over it, though
// perf never writes to a file the user named as input (doc.go).
func TestProfileOutputsNotInput(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "examples", "rot90.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--cpuprofile", "--memprofile"} {
		t.Run(flag, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "group.json")
			if err := os.WriteFile(path, src, 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI(t, "profile", "--group", "matrices", "--matrices", path, "--d", "2", "--n", "6,12",
				"--m", "8", "--bo-kernel", "base", "--min-time", "1us", "--max-reps", "2", "--gemm-n", "12", flag, path)
			checkOneLineError(t, code, stdout, stderr, "perf profile: ", "name the same file")
			if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, src) {
				t.Errorf("--matrices file after the run: %v, changed: %t", err, !bytes.Equal(got, src))
			}
		})
	}
}
