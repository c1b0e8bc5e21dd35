//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package atomicfile

import (
	"errors"
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

// haveFlock: flock(2) locks here, so a temporary's lock (lockTemp) tells
// a live writer's from a dead one's (RemoveStaleTemps).
const haveFlock = true

// flockTemp is flock for the temporaries' locks (lockTemp,
// removeIfUnlocked); a test substitutes one that fails as a file system
// without flock support does.
var flockTemp = flock

// cannotLock reports whether err, from flock(2), says that the file
// system does not lock at all — ENOSYS (Lustre mounted without -o flock),
// EOPNOTSUPP/ENOTSUP, ENOLCK, EINVAL (some network and FUSE file systems)
// — rather than that another holder has the lock (EWOULDBLOCK).
func cannotLock(err error) bool {
	for _, e := range []syscall.Errno{syscall.ENOSYS, syscall.EOPNOTSUPP, syscall.ENOTSUP, syscall.ENOLCK, syscall.EINVAL} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// lockTemp takes an exclusive flock(2) on the open file description of
// f, the temporary file just created, through a duplicate descriptor
// (close-on-exec), which holds it after f is closed until it is closed
// itself. EWOULDBLOCK: another process (a RemoveStaleTemps) holds it.
func lockTemp(f *os.File) (*os.File, error) {
	syscall.ForkLock.RLock()
	fd, err := syscall.Dup(int(f.Fd()))
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, err
	}
	lk := os.NewFile(uintptr(fd), f.Name())
	if err := flockTemp(lk); err != nil {
		lk.Close()
		return nil, err
	}
	return lk, nil
}

// openLockFile opens (creating) the lock file path, refusing a symbolic
// link there (O_NOFOLLOW).
func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
}
