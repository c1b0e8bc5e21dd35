package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// mainEnv makes the test binary run refgen's main with the arguments
// after "--" (see TestMain), so that a test can run it as a child under
// limits of its own.
const mainEnv = "REFGEN_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		for i, a := range os.Args {
			if a == "--" {
				os.Args = append([]string{"refgen"}, os.Args[i+1:]...)
				break
			}
		}
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestFailedWriteKeepsGolden: a write that fails part-way (here a file
// size limit below the files' size, as a full disk would) leaves each
// golden file as it was, never a truncated one, and no temporary beside
// it. os.WriteFile truncated signflip_rbf.json to the limit, and
// make check-generated then reported the tree stale.
func TestFailedWriteKeepsGolden(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -f in sh: Linux only")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	refgen := func(limit bool) ([]byte, error) {
		script := `exec "$0" "$@"`
		if limit {
			script = "ulimit -f 2; " + script // 1 KiB, below every golden file
		}
		cmd := exec.Command(sh, "-c", script, os.Args[0], "-test.run=^$", "--", "-out", dir, "-group", "signflip")
		cmd.Env = append(os.Environ(), mainEnv+"=1")
		return cmd.CombinedOutput()
	}
	if out, err := refgen(false); err != nil {
		t.Fatalf("refgen: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "signflip_rbf.json")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) <= 1024 {
		t.Fatalf("%s has %d bytes, not above the 1 KiB limit", path, len(want))
	}
	if out, err := refgen(true); err == nil {
		t.Fatalf("refgen under a 1 KiB file size limit succeeded:\n%s", out)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("a failed write left %s with %d bytes, want the previous %d", path, len(got), len(want))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".json" {
			t.Errorf("%s left in the output directory", e.Name())
		}
	}
}
