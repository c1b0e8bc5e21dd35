//go:build unix

package orbit

import (
	"os"
	"syscall"
)

// openNoWait opens path for reading without waiting for a writer, should
// it be a FIFO (O_NONBLOCK; openMatrices then refuses anything but a
// regular file, which ignores the flag).
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
