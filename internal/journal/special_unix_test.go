//go:build unix

package journal

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/symbo/symbo/internal/errclass"
)

// TestOpenNotRegular: a journal to resume that is a FIFO (or any file but
// a regular one) is refused at once, as an input error. Open opens it
// read-write, so for a FIFO the process was its own writer and the read
// waited for an end of file that never came: perf bo --resume FIFO hung.
func TestOpenNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "j.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, p := range []string{fifo, os.DevNull} {
		done := make(chan error, 1)
		go func() {
			_, w, err := Open(p, "test")
			if w != nil {
				w.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !errors.Is(err, ErrCorrupt) || errclass.Of(err) != errclass.Input {
				t.Errorf("Open(%s) error %v; want an input error (ErrCorrupt)", p, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Open(%s) still running after 5 s", p)
		}
	}
}
