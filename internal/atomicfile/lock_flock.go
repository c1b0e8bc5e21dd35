//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package atomicfile

import (
	"os"
	"syscall"
)

var errWouldBlock error = syscall.EWOULDBLOCK

// flock takes an exclusive flock(2) on f without waiting (EWOULDBLOCK
// when another open file description holds one), retrying on EINTR.
func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			return err
		}
	}
}

// openLockFile opens (creating) the lock file path, refusing a symbolic
// link there (O_NOFOLLOW).
func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
}
