//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
)

// checkHolderWording: the holder of a lock err refuses, here this process
// (or this test), is not called another process. The message said
// "locked by another process" whoever held the lock.
func checkHolderWording(t *testing.T, what string, err error) {
	t.Helper()
	if msg := err.Error(); strings.Contains(msg, "another process") || !strings.Contains(msg, "locked by another run (in this process or another)") {
		t.Errorf("%s: %q, want it to say \"locked by another run (in this process or another)\"", what, msg)
	}
}

// TestLockDir: one holder of a directory at a time.
// flock locks belong to an open file description, so a second LockDir in
// this process conflicts as another process's does; the lock file goes
// with the lock, and a symbolic link in its place is refused.
func TestLockDir(t *testing.T) {
	dir := t.TempDir()
	l, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = LockDir(dir)
	if !errors.Is(err, ErrLocked) || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), dir) {
		t.Fatalf("second LockDir: %v, want an input error wrapping ErrLocked naming %s", err, dir)
	}
	checkHolderWording(t, "second LockDir", err)
	l.Release()
	if _, err := os.Lstat(filepath.Join(dir, LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after Release: %v", err)
	}
	l, err = LockDir(dir)
	if err != nil {
		t.Fatalf("LockDir after Release: %v", err)
	}
	l.Release()
	l.Release() // idempotent

	// A lock file a killed holder left is taken over.
	if err := os.WriteFile(filepath.Join(dir, LockName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !IsTemp(LockName) {
		t.Errorf("IsTemp(%q) = false", LockName)
	}
	l, err = LockDir(dir)
	if err != nil {
		t.Fatalf("LockDir over a stale lock file: %v", err)
	}
	l.Release()

	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Symlink(target, filepath.Join(dir, LockName)); err != nil {
		t.Fatal(err)
	}
	if _, err := LockDir(dir); err == nil {
		t.Error("LockDir through a symbolic link")
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the link's target was created: %v", err)
	}
	if _, err := LockDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("LockDir of a missing directory")
	}
}

// TestLockFile: one holder of a file at a time, through any open of it
// (here two opens in this process), until the holder's open is closed.
func TestLockFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f := open()
	if err := LockFile(f, path); err != nil {
		t.Fatal(err)
	}
	g := open()
	defer g.Close()
	err := LockFile(g, path)
	if !errors.Is(err, ErrLocked) || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), path) {
		t.Fatalf("second LockFile: %v, want an input error wrapping ErrLocked naming %s", err, path)
	}
	checkHolderWording(t, "second LockFile", err)
	f.Close()
	if err := LockFile(g, path); err != nil {
		t.Errorf("LockFile once the holder closed the file: %v", err)
	}
}
