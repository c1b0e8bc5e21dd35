//go:build !unix

package orbit

import "os"

// openNoWait opens path for reading (a system without FIFOs of unix's
// kind: nothing to wait for at open).
func openNoWait(path string) (*os.File, error) {
	return os.Open(path)
}
