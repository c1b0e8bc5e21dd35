//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestRemoveIfUnlockedFIFO: an entry RemoveStaleTemps read as a regular
// temporary but that is a FIFO when removeIfUnlocked opens it (replaced
// in between: the race cannot be timed from a test, so the FIFO is
// handed to removeIfUnlocked directly) is left alone at once. The open
// for reading waited for a writer for ever, and the FIFO, lockable and
// the file the name held, was then removed.
func TestRemoveIfUnlockedFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), ".out.json.tmp-7")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	type result struct {
		gone bool
		err  error
	}
	done := make(chan result, 1)
	go func() {
		gone, err := removeIfUnlocked(fifo)
		done <- result{gone, err}
	}()
	select {
	case r := <-done:
		if r.gone || r.err != nil {
			t.Errorf("removeIfUnlocked(FIFO) = %v, %v; want false, nil", r.gone, r.err)
		}
	case <-time.After(10 * time.Second):
		// Release the blocked open (a writer), then fail.
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			defer w.Close()
		}
		t.Fatal("removeIfUnlocked(FIFO) still waiting after 10 s: the open waits for a writer")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is gone: %v", err)
	}
}

// TestRemoveStaleTempsGoesOn: a stale temporary that RemoveStaleTemps
// cannot lock (an I/O error) or, where permissions bind, open does not
// stop it: the other stale temporaries are removed, and the error, joined,
// names the one left. It stopped at the first error, leaving the rest.
func TestRemoveStaleTempsGoesOn(t *testing.T) {
	for _, c := range []string{"lock", "open"} {
		t.Run(c, func(t *testing.T) {
			dir := t.TempDir()
			var paths []string
			for _, n := range []string{".out.json.probe-1", ".out.json.tmp-2", ".out.json.tmp-3"} {
				p := filepath.Join(dir, n)
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, p)
			}
			bad := paths[0] // first in directory order (os.ReadDir sorts)
			switch c {
			case "lock":
				defer func(f func(*os.File) error) { flockTemp = f }(flockTemp)
				flockTemp = func(f *os.File) error {
					if f.Name() == bad {
						return syscall.EIO
					}
					return flock(f)
				}
			case "open":
				if os.Geteuid() == 0 {
					t.Skip("root opens a file of mode 000")
				}
				if err := os.Chmod(bad, 0); err != nil {
					t.Fatal(err)
				}
			}
			removed, err := RemoveStaleTemps(dir, "out.json")
			if want := paths[1:]; !slices.Equal(removed, want) {
				t.Errorf("removed %q, want %q", removed, want)
			}
			if err == nil || !strings.Contains(err.Error(), bad) {
				t.Errorf("error %v, want one naming %s", err, bad)
			}
			if c == "lock" && !errors.Is(err, syscall.EIO) {
				t.Errorf("error %v does not wrap EIO", err)
			}
			if _, err := os.Lstat(bad); err != nil {
				t.Errorf("%s: %v; want it left", bad, err)
			}
		})
	}
}
