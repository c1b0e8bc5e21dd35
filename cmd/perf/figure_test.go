package main

import (
	"github.com/symbo/symbo/internal/testdepth"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestFigureBadInput(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, "not-a-dir", "x")
	taken := t.TempDir()
	if err := os.WriteFile(filepath.Join(taken, "radial.svg"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no out", []string{"--name", "radial"}, "--out"},
		{"unknown figure", []string{"--out", dir, "--name", "radial,bogus"}, "bogus"},
		{"repeated figure", []string{"--out", dir, "--name", "wlan,wlan"}, "twice"},
		{"empty item", []string{"--out", dir, "--name", "radial,"}, "empty item"},
		{"empty name", []string{"--out", dir, "--name", " "}, "--name"},
		{"grid too small", []string{"--out", dir, "--grid", "1"}, "--grid"},
		{"grid too large", []string{"--out", dir, "--grid", "1000000"}, "--grid"},
		{"grid not a number", []string{"--out", dir, "--grid", "many"}, "grid"},
		{"radius NaN", []string{"--out", dir, "--radius-max", "NaN"}, "--radius-max"},
		{"radius negative", []string{"--out", dir, "--radius-max", "-1"}, "--radius-max"},
		{"radius infinite", []string{"--out", dir, "--radius-max", "+Inf"}, "--radius-max"},
		{"radius huge", []string{"--out", dir, "--radius-max", "1e300"}, "--radius-max"},
		{"init zero", []string{"--out", dir, "--init", "0"}, "--init"},
		{"iters negative", []string{"--out", dir, "--iters", "-5"}, "--iters"},
		{"iters too many", []string{"--out", dir, "--iters", "2000000"}, "--iters"},
		{"iters past the cap", []string{"--out", dir, "--init", "7", "--iters", "999999"}, "[1, 999993] (1000000 evaluations less --init 7)"},
		// --init leaving no --iters step is its own fault (it read
		// "--iters must lie in [1, 0]", a range with nothing in it).
		{"init at the cap", []string{"--out", dir, "--init", "1000000", "--iters", "1"}, "--init must lie in [1, 999999], got 1000000"},
		{"seed negative", []string{"--out", dir, "--seed", "-1"}, "seed"},
		{"unknown backend", []string{"--out", dir, "--backend", "cuda"}, "--backend"},
		{"out is a file", []string{"--out", file, "--name", "radial"}, "not a directory"},
		{"existing output", []string{"--out", taken, "--name", "radial", "--grid", "3"}, "--force"},
		{"flag twice", []string{"--out", dir, "--seed", "1", "--seed", "2"}, "twice"},
		{"stray argument", []string{"--out", dir, "radial"}, "unexpected argument"},
		{"unknown flag", []string{"--out", dir, "--figure", "radial"}, "figure"},
		// A flag that sets none of the figures drawn is refused, not
		// ignored (--iters with radial and ackley drew them and exited 0).
		{"iters without wlan", []string{"--out", dir, "--name", "radial,ackley", "--iters", "3"}, "--iters sets the wlan figure only, and --name draws radial, ackley"},
		{"init without wlan", []string{"--out", dir, "--name", "ackley", "--init", "3"}, "--init sets the wlan figure only"},
		{"radius-max without radial", []string{"--out", dir, "--name", "ackley,wlan", "--radius-max", "2"}, "--radius-max sets the radial figure only"},
		{"grid with wlan alone", []string{"--out", dir, "--name", "wlan", "--grid", "9"}, "--grid sets the radial and ackley figures only"},
		{"seed with radial alone", []string{"--out", dir, "--name", "radial", "--seed", "3"}, "--seed sets the ackley and wlan figures only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"figure"}, tc.args...)...)
			checkOneLineError(t, code, stdout, stderr, "perf figure: ", tc.want)
		})
	}
	// Nothing was written by the refused commands.
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused commands wrote %d entries into --out", len(entries))
	}
	if b, _ := os.ReadFile(filepath.Join(taken, "radial.svg")); string(b) != "old" {
		t.Errorf("an existing output was replaced without --force")
	}
}

func TestFigureWrites(t *testing.T) {
	testdepth.Once(t)
	dir := filepath.Join(t.TempDir(), "new", "figs")
	args := []string{"figure", "--name", "ackley,radial", "--grid", "7", "--seed", "2", "--out", dir}
	code, stdout, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"radial.png", "radial.svg", "ackley.png", "ackley.svg", "figures.md"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "wlan.png")); err == nil {
		t.Error("wlan.png written without being asked for")
	}
	md, err := os.ReadFile(filepath.Join(dir, "figures.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "perf figure --name ackley,radial --grid 7 --seed 2 --out "+dir) {
		t.Errorf("figures.md does not carry the command:\n%s", md)
	}
	// The summary is a result (stdout); which files were written is a
	// log line (stderr), as perf spectrum's and perf complexity's.
	if !strings.Contains(stdout, "ackley: posterior-mean RMSE") || strings.Contains(stdout, "wrote") {
		t.Errorf("stdout = %q, want the summary without the \"wrote\" line", stdout)
	}
	if !strings.Contains(stderr, "perf figure: wrote "+filepath.Join(dir, "radial.png")+", ") || !strings.Contains(stderr, filepath.Join(dir, "figures.md")) {
		t.Errorf("stderr = %q, want \"perf figure: wrote …\"", stderr)
	}
	// Again: refused without --force, done with it.
	code, stdout, stderr = runCLI(t, args...)
	checkOneLineError(t, code, stdout, stderr, "perf figure: ", "already exists", "--force")
	if code, _, stderr := runCLI(t, append(args, "--force")...); code != exitOK {
		t.Errorf("--force: exit %d: %s", code, stderr)
	}
}

// TestFigureWLANIsPerfBO holds the WLAN figure to the run perf bo makes
// with the same seed and protocol: the same best f.
func TestFigureWLANIsPerfBO(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "figure", "--name", "wlan", "--iters", "4", "--seed", "5", "--out", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, boOut, stderr := runCLI(t, "bo", "--problem", "WLAN8d", "--kernel", "plus", "--iters", "4", "--seed", "5")
	if code != exitOK {
		t.Fatalf("perf bo: exit %d: %s", code, stderr)
	}
	var best string
	for _, line := range strings.Split(boOut, "\n") {
		if rest, ok := strings.CutPrefix(line, "best f (maximized)"); ok {
			best = strings.TrimSpace(rest)
		}
	}
	if _, err := strconv.ParseFloat(best, 64); err != nil {
		t.Fatalf("no best f in perf bo's output:\n%s", boOut)
	}
	if !strings.Contains(stdout, "total throughput "+best+" Mbps") {
		t.Errorf("perf figure: %q; perf bo's best f is %s", stdout, best)
	}
	md, err := os.ReadFile(filepath.Join(dir, "figures.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| 16 |") || !strings.Contains(string(md), "5 init + 4 iterations, seed 5") {
		t.Errorf("figures.md:\n%s", md)
	}
}
