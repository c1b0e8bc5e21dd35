//go:build !unix

package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
)

// openNoFollow opens path with flag unless it is a symbolic link. Without
// O_NOFOLLOW the check precedes the open: a link planted between the two
// is followed.
func openNoFollow(path string, flag int) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s %w; it must be a regular file of the directory (remove the link)", path, ErrSymlink)
	}
	return os.OpenFile(path, flag, 0)
}

// oNonblock is 0 here: O_NONBLOCK is nofollow_unix.go's.
const oNonblock = 0
