//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// openNoFollow opens path with flag unless it is a symbolic link
// (O_NOFOLLOW: atomically, the link is never followed).
func openNoFollow(path string, flag int) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NOFOLLOW, 0)
}

// oNonblock is O_NONBLOCK: an open for reading that must not wait for a
// writer, should the path be a FIFO (removeIfUnlocked).
const oNonblock = syscall.O_NONBLOCK
