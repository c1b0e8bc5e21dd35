package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSpectrumBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--n", "0"}, "--n"},
		{[]string{"--n", "1"}, "--n"},
		{[]string{"--n", "-5"}, "--n"},
		{[]string{"--n", "1000000000"}, "--n"},
		{[]string{"--n", "99999999999999999999"}, "-n"},
		{[]string{"--n", "15000", "--mem-budget", "1GiB"}, "budget"},
		// The two point sets count: 2·100·65536 coordinates are 105 MB,
		// where the Grams are 240 KB (they were allocated, and the
		// spectra run, over the budget; at --n 10000 the default budget
		// let 10.5 GB of points crash the process out of memory).
		{[]string{"--group", "none", "--d", "65536", "--n", "100", "--bases", "rbf", "--mem-budget", "50MiB"}, "two sets of 100 points in dimension 65536"},
		{[]string{"--d", ""}, "--d"},
		{[]string{"--d", "1,,2"}, "--d"},
		{[]string{"--d", "0"}, "--d"},
		{[]string{"--d", "x"}, "--d"},
		{[]string{"--d", "2,2"}, "--d"},
		{[]string{"--d", "100"}, "--d"},
		{[]string{"--group", "cyclic"}, "--group"},
		{[]string{"--group", "rotation2d", "--d", "2"}, "--group"},
		{[]string{"--group", "nosuch"}, "--group"},
		{[]string{"--bases", "foo"}, "--bases"},
		{[]string{"--bases", "rbf,rbf"}, "--bases"},
		{[]string{"--bases", ""}, "--bases"},
		{[]string{"--lengthscale", "-1"}, "--lengthscale"},
		{[]string{"--lengthscale", "NaN"}, "--lengthscale"},
		{[]string{"--fit-lo", "5", "--fit-hi", "3"}, "--fit-lo"},
		{[]string{"--n", "100", "--fit-hi", "101"}, "--fit-hi"},
		{[]string{"--fit-lo", "0"}, "--fit-lo"},
		{[]string{"--backend", "nosuch"}, "--backend"},
		{[]string{"stray"}, "unexpected argument"},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"spectrum"}, tc.args...)...)
		checkOneLineError(t, code, stdout, stderr, "perf spectrum: ", tc.want)
	}
}

// TestSpectrumOutputs: a small run prints the slopes table (or JSON), and
// with --out writes the four files; a non-empty --out is refused.
func TestSpectrumOutputs(t *testing.T) {
	small := []string{"spectrum", "--n", "80", "--d", "1,2", "--bases", "matern52", "--fit-hi", "20"}
	code, stdout, stderr := runCLI(t, small...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := 0
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "| Matérn-5/2 | hyperoctahedral(") {
			rows++
			if cells := splitRow(l); len(cells) != 14 {
				t.Errorf("row has %d cells: %q", len(cells), l)
			}
		}
	}
	if rows != 2 {
		t.Errorf("%d table rows, want 2:\n%s", rows, stdout)
	}
	if !strings.Contains(stderr, "[8/8] matern52") {
		t.Errorf("no progress on stderr:\n%s", stderr)
	}

	code, stdout, stderr = runCLI(t, append(small, "--json")...)
	if code != exitOK {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	var res struct {
		N      int `json:"n"`
		Panels []struct {
			Group  string `json:"group"`
			Series []struct {
				Kernel      string    `json:"kernel"`
				Eigenvalues []float64 `json:"eigenvalues"`
				Slope       *float64  `json:"slope"`
			} `json:"series"`
		} `json:"panels"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json: %v", err)
	}
	if res.N != 80 || len(res.Panels) != 2 || len(res.Panels[1].Series) != 4 || res.Panels[1].Series[3].Kernel != "base-S'" {
		t.Fatalf("--json: %+v", res)
	}
	for _, s := range res.Panels[0].Series {
		if len(s.Eigenvalues) < 20 || s.Slope == nil {
			t.Errorf("%s: %d eigenvalues, slope %v", s.Kernel, len(s.Eigenvalues), s.Slope)
		}
	}

	dir := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := runCLI(t, append(small, "--out", dir)...); code != exitOK {
		t.Fatalf("--out: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"spectrum.md", "spectrum.json", "spectrum.png", "spectrum.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "spectrum.md"))
	if !strings.Contains(string(md), "Command: `perf spectrum --n 80") || !strings.Contains(string(md), "![spectra](spectrum.png)") {
		t.Errorf("spectrum.md:\n%s", md)
	}
	code, stdout, stderr = runCLI(t, append(small, "--out", dir)...)
	checkOneLineError(t, code, stdout, stderr, "perf spectrum: ", "not empty")
}
