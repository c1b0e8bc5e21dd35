package baseline_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestShapeJSONFailureLeavesNoTemp: when shape.go cannot put its -json
// file in place (here the path is a directory), it fails and leaves no
// temporary file beside it — a runs.json.tmp stayed behind.
func TestShapeJSONFailureLeavesNoTemp(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "runs.json")
	if err := os.MkdirAll(filepath.Join(out, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gobin, "run", "shape.go", "-problems", "Ackley2d", "-shapes", "rbf", "-seeds", "1", "-json", out)
	if b, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("-json naming a directory: no error\n%s", b)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "runs.json" {
			t.Errorf("a failed -json write left %s", e.Name())
		}
	}
}
