package atomicfile

import (
	"errors"
	"fmt"
	"os"

	"github.com/symbo/symbo/internal/errclass"
)

// LockName is the file in a directory that LockDir locks. It exists only
// while a process holds the lock (and after a process holding it was
// killed: it is harmless then, and a caller that wants an empty directory
// ignores it, see IsTemp).
const LockName = ".symbo.lock"

// ErrLocked reports a directory or file that another holder has locked
// (LockDir, LockFile): an input error — the user started two runs on one
// output, and the second is refused. The other run may be in this
// process: flock locks belong to an open file description, so two
// holders in one process conflict as two processes' do, and the messages
// say "another run (in this process or another)".
var ErrLocked = errclass.New(errclass.Input, "locked by another run")

// Lock is an exclusive advisory lock that LockDir took on a directory.
type Lock struct {
	f    *os.File
	path string
}

// LockDir takes an exclusive advisory lock (flock(2), LOCK_EX|LOCK_NB) on
// the directory dir, which must exist, through its lock file LockName, so
// that two processes writing one output directory — two runs of perf
// table on one --out — never run at once: the second gets an error
// wrapping ErrLocked at once, without waiting. The lock lasts until
// Release, or until the process ends (the kernel releases it on kill -9
// too). flock locks belong to an open file description, so two LockDir
// calls in one process conflict as two processes' do.
//
// A symbolic link at the lock file is refused, never followed. Where
// flock(2) does not exist (not Linux or a BSD), the lock file is made but
// nothing is locked.
func LockDir(dir string) (*Lock, error) {
	path, err := inDir(dir, LockName)
	if err != nil {
		return nil, err
	}
	// The holder removes the file as it releases the lock: a process that
	// opened it before then locks a file no longer in dir, so it checks,
	// once it holds the lock, that dir still names the file it holds.
	for range 100 {
		f, err := openLockFile(path)
		if err != nil {
			return nil, err
		}
		if err := flock(f); err != nil {
			f.Close()
			if errors.Is(err, errWouldBlock) {
				return nil, fmt.Errorf("directory %s is %w (in this process or another) writing it", dir, ErrLocked)
			}
			return nil, fmt.Errorf("atomicfile: locking %s: %w", path, err)
		}
		held, err1 := f.Stat()
		named, err2 := os.Lstat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			return &Lock{f: f, path: path}, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("directory %s is %w (its lock file keeps being replaced)", dir, ErrLocked)
}

// Release removes the lock file and releases the lock (in that order, see
// LockDir). It may be called on a nil Lock.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
	l.f = nil
}

// LockFile takes an exclusive advisory lock (as LockDir's) on the open
// file f, named path in errors, for as long as f stays open: a journal a
// process appends to. Another LockFile on the same file, through another
// open of it in this process or another, fails with an error wrapping
// ErrLocked.
func LockFile(f *os.File, path string) error {
	if err := flock(f); err != nil {
		if errors.Is(err, errWouldBlock) {
			return fmt.Errorf("%s is %w (in this process or another) appending to it", path, ErrLocked)
		}
		return fmt.Errorf("atomicfile: locking %s: %w", path, err)
	}
	return nil
}
