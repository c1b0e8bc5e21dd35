package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBOMean: --mean constant is recorded in the --json trace and the
// summary, the default records nothing (the traces of before the flag),
// and a bad value is bad input.
func TestBOMean(t *testing.T) {
	checkTraceFlag(t, "plus", "mean", "constant", "sample", "mean", "mean constant", "zero")
}

// TestTableMean: perf table --mean constant records the mean in its
// settings and table.md.
func TestTableMean(t *testing.T) {
	out := filepath.Join(t.TempDir(), "res")
	code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Ackley2d",
		"--kernels", "base", "--mean", "constant", "--workers", "1", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, "table.md"))
	if !strings.Contains(string(md), "mean constant") {
		t.Errorf("table.md does not mention the mean:\n%s", md)
	}
	var res struct {
		Settings struct {
			Mean string `json:"mean"`
		} `json:"settings"`
		Runs []struct {
			Mean string `json:"mean"`
		} `json:"runs"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(data, &res); err != nil || len(res.Runs) != 1 {
		t.Fatalf("results.json: %v", err)
	}
	if res.Settings.Mean != "constant" || res.Runs[0].Mean != "constant" {
		t.Errorf("settings mean %q, run mean %q; want constant", res.Settings.Mean, res.Runs[0].Mean)
	}
}
