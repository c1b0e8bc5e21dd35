//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestTempsWithoutFileLocks: on a file system whose flock(2) fails with
// ENOSYS (Lustre mounted without -o flock) or EOPNOTSUPP, the writes
// and CheckWritable work as before temporaries were locked, unlocked,
// and RemoveStaleTemps leaves every temporary alone without an error.
// Every write failed there ("atomicfile: locking …: function not
// implemented"), perf's outputs refused as unwritable.
func TestTempsWithoutFileLocks(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOSYS, syscall.EOPNOTSUPP} {
		t.Run(errno.Error(), func(t *testing.T) {
			defer func(f func(*os.File) error) { flockTemp = f }(flockTemp)
			flockTemp = func(*os.File) error { return errno }
			dir := t.TempDir()
			target := filepath.Join(dir, "out.json")
			if err := CheckWritable(target, false); err != nil {
				t.Fatalf("CheckWritable: %v", err)
			}
			if err := Write(target, []byte("a"), 0o644); err != nil {
				t.Fatalf("Write: %v", err)
			}
			live, err := New(target, 0o644, false)
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			if removed, err := RemoveStaleTemps(dir, "out.json"); err != nil || len(removed) != 0 {
				t.Errorf("RemoveStaleTemps = %q, %v; want nothing removed, no error", removed, err)
			}
			if _, err := live.Write([]byte("b")); err != nil {
				t.Fatal(err)
			}
			if err := live.Commit(); err != nil {
				t.Fatalf("Commit: %v", err)
			}
			if b, err := os.ReadFile(target); err != nil || string(b) != "b" {
				t.Errorf("target = %q, %v; want b", b, err)
			}
		})
	}
}
