//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSpecialFiles: a symbolic link is followed (its target is replaced,
// the link kept); a FIFO (like a device such as /dev/null or /dev/stdout)
// is refused, not renamed over — as root, the rename replaced the special
// file itself with a regular one.
func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	if err := CheckWritable(link, true); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target holds %q", b)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := CheckWritable(fifo, true); err == nil {
		t.Error("CheckWritable accepted a FIFO")
	}
	if err := Write(fifo, []byte("x"), 0o644); err == nil {
		t.Error("Write replaced a FIFO")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is gone: %v %v", fi.Mode(), err)
	}
	if err := os.Symlink("missing", filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(dir, "dangling"), []byte("x"), 0o644); err == nil {
		t.Error("Write through a dangling link")
	}
}
