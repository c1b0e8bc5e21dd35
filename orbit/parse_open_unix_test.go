//go:build unix

package orbit_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/orbit"
)

// TestParseMatricesNotRegular: a matrices file that is a FIFO with no
// writer made Parse wait in open for good (a library call: Python's
// Ctrl-C never reached it); a directory or a device was opened too. Each
// is refused now, at once, as bad input naming what it is.
func TestParseMatricesNotRegular(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{dir: "a directory", os.DevNull: "a character device"}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		cases[fifo] = "a FIFO or pipe"
	} else {
		t.Logf("mkfifo: %v (the FIFO case skipped)", err)
	}
	for path, kind := range cases {
		done := make(chan error, 1)
		go func() {
			_, err := orbit.Parse(orbit.Spec{Name: "matrices", Matrices: path})
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, orbit.ErrInvalid) || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), "not a regular file ("+kind+")") {
				t.Errorf("Parse of %s: %v, want ErrInvalid saying it is not a regular file (%s)", path, err, kind)
			}
		case <-time.After(10 * time.Second):
			// Release the waiting open with a writer that leaves at once.
			if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			<-done
			t.Errorf("Parse of %s (%s) waited 10 s", path, kind)
		}
	}
}
