//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package atomicfile

import (
	"errors"
	"os"
)

// errWouldBlock is never returned here: without flock(2) nothing is
// locked (see LockDir).
var errWouldBlock = errors.New("atomicfile: locked")

func flock(*os.File) error { return nil }

// haveFlock: without flock(2) no temporary is locked, so none can be
// proved stale (RemoveStaleTemps removes nothing).
const haveFlock = false

// lockTemp locks nothing here: the writer holds no lock (nil).
func lockTemp(*os.File) (*os.File, error) { return nil, nil }

// flockTemp and cannotLock are lock_flock.go's; nothing locks here.
var flockTemp = flock

func cannotLock(error) bool { return false }

func openLockFile(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, &os.PathError{Op: "open", Path: path, Err: ErrSymlink}
	}
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}
