package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBOCandidateFit: --candidate-fit anchored is recorded in the --json
// trace and the summary, own (the default) records nothing, and a bad
// value is bad input.
func TestBOCandidateFit(t *testing.T) {
	dir := t.TempDir()
	for _, cf := range []string{"anchored", "own"} {
		path := filepath.Join(dir, cf+".json")
		args := append([]string{"bo", "--problem", "Ackley2d", "--kernel", "portfolio", "--seed", "1", "--candidate-fit", cf, "--json", path}, tinyBO...)
		code, stdout, stderr := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		if got := strings.Contains(stdout, "candidates anchored"); got != (cf == "anchored") {
			t.Errorf("--candidate-fit %s: summary mentions it: %v\n%s", cf, got, stdout)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		raw, ok := doc["candidate_fit"]
		if cf == "own" && ok {
			t.Errorf("--candidate-fit own: trace records %s", raw)
		}
		if cf == "anchored" && string(raw) != `"anchored"` {
			t.Errorf("--candidate-fit anchored: trace records %s", raw)
		}
	}
	code, stdout, stderr := runCLI(t, append([]string{"bo", "--problem", "Ackley2d", "--kernel", "portfolio", "--candidate-fit", "shared"}, tinyBO...)...)
	checkOneLineError(t, code, stdout, stderr, "perf bo: ", "--candidate-fit", "anchored")
}
