package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// checkTraceFlag runs perf bo (tinyBO, the given kernel) with --flag set
// and --flag unset: set must appear in the summary as summary and in the
// --json trace under key as the string set (the number, when set is an
// integer), unset (the default) in neither; --flag bad must be bad input
// naming the flag.
func checkTraceFlag(t *testing.T, kernel, flag, set, unset, key, summary, bad string) {
	t.Helper()
	dir := t.TempDir()
	for _, v := range []string{set, unset} {
		path := filepath.Join(dir, v+".json")
		args := append([]string{"bo", "--problem", "Ackley2d", "--kernel", kernel, "--seed", "1", "--" + flag, v, "--json", path}, tinyBO...)
		code, stdout, stderr := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("--%s %s: exit %d, stderr %q", flag, v, code, stderr)
		}
		if got := strings.Contains(stdout, summary); got != (v == set) {
			t.Errorf("--%s %s: summary mentions %q: %v\n%s", flag, v, summary, got, stdout)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		raw, ok := doc[key]
		if v == unset && ok {
			t.Errorf("--%s %s: trace records %s", flag, v, raw)
		}
		want := strconv.Quote(set)
		if _, err := strconv.Atoi(set); err == nil {
			want = set
		}
		if v == set && string(raw) != want {
			t.Errorf("--%s %s: trace records %s", flag, v, raw)
		}
	}
	code, stdout, stderr := runCLI(t, append([]string{"bo", "--problem", "Ackley2d", "--kernel", kernel, "--" + flag, bad}, tinyBO...)...)
	checkOneLineError(t, code, stdout, stderr, "perf bo: ", "--"+flag)
}

// TestBOCandidateFit: --candidate-fit anchored is recorded in the --json
// trace and the summary, own (the default) records nothing, and a bad
// value is bad input.
func TestBOCandidateFit(t *testing.T) {
	checkTraceFlag(t, "portfolio", "candidate-fit", "anchored", "own", "candidate_fit", "candidates anchored", "shared")
}

// TestBOProbeWindow: --probe-window 3 is recorded in the --json trace and
// the summary, 0 (the default, no limit) records nothing, and a negative
// window is bad input.
func TestBOProbeWindow(t *testing.T) {
	checkTraceFlag(t, "portfolio", "probe-window", "3", "0", "probe_window", "probe window 3", "-1")
}

// TestBOHedge: --hedge 2 is recorded in the --json trace and the
// summary, 0 (the default, no hedging) records nothing, and a negative
// value is bad input.
func TestBOHedge(t *testing.T) {
	checkTraceFlag(t, "portfolio", "hedge", "2", "0", "hedge", "hedged (2 ascents)", "-1")
}
