//go:build unix

package atomicfile

import (
	"errors"
	"io"
	"io/fs"
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

// TestInDirNeverFollowsLinks (issue 15, defect 9): the In functions, for
// files inside an output directory, replace a symbolic link planted at
// dir/name by the new file and leave its target — outside dir — as it
// was; a dangling link is replaced too (not created through); with
// exclusive a link exists; CheckWritableIn checks dir, not the link's
// target; OpenIn refuses a link; a directory, a FIFO and a name with a
// separator are refused.
func TestInDirNeverFollowsLinks(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(root, "victim.txt")
	if err := os.WriteFile(victim, []byte("victim"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "table.md")
	if err := os.Symlink("../victim.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := CheckWritableIn(dir, "table.md", true); err != nil {
		t.Fatal(err)
	}
	if err := CheckWritableIn(dir, "table.md", false); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CheckWritableIn over a link without overwrite: %v", err)
	}
	if err := WriteFuncIn(dir, "table.md", 0o644, true, func(io.Writer) error { return nil }); !errors.Is(err, fs.ErrExist) {
		t.Errorf("exclusive WriteFuncIn over a link: %v", err)
	}
	if err := WriteIn(dir, "table.md", []byte("table"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "victim" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("table.md is %v (%v), want a regular file", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(link); string(b) != "table" {
		t.Errorf("table.md holds %q", b)
	}
	dangling := filepath.Join(dir, "results.json")
	if err := os.Symlink("../created-through-link", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteIn(dir, "results.json", []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, "created-through-link")); err == nil {
		t.Error("a file was created through a dangling link")
	}
	// OpenIn: a link is refused with ErrSymlink, a regular file opened.
	j := filepath.Join(dir, "runs.journal")
	if err := os.Symlink("../victim.txt", j); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenIn(dir, "runs.journal", os.O_RDWR); !errors.Is(err, ErrSymlink) {
		if f != nil {
			f.Close()
		}
		t.Errorf("OpenIn on a link: %v", err)
	}
	f, err := OpenIn(dir, "table.md", os.O_RDWR)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err == nil {
		if err := WriteIn(dir, "fifo", nil, 0o644); err == nil {
			t.Error("WriteIn replaced a FIFO")
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sub", "sub/x", "../x", "..", ".", ""} {
		if err := WriteIn(dir, name, nil, 0o644); err == nil {
			t.Errorf("WriteIn(%q) accepted", name)
		}
	}
}

// TestUmask: a file written gets perm less the process's umask, as
// os.WriteFile's and a shell redirection's do; Commit set perm itself
// (chmod is not masked), so under umask 077 perf's outputs and journals
// came out readable by everyone (0644).
func TestUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		write func(p string) error
	}{
		{"write", func(p string) error { return Write(p, []byte("a"), 0o644) }},
		{"create", func(p string) error { return Create(p, []byte("a"), 0o644) }},
		{"in", func(p string) error { return WriteIn(filepath.Dir(p), filepath.Base(p), []byte("a"), 0o644) }},
	} {
		p := filepath.Join(dir, c.name)
		if err := c.write(p); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v (%v) under umask 077, want -rw-------", c.name, st.Mode(), err)
		}
	}
}

// TestCommitAfterFailedWrite: a File whose writer ignored a failed write
// (runtime/pprof's CPU profile does: a full disk, a file size limit) is
// not shown: Commit fails with the write's error and path keeps its
// previous content. Commit showed the truncated file as whole.
func TestCommitAfterFailedWrite(t *testing.T) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skip("no RLIMIT_FSIZE:", err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "cpu.pprof")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := New(p, 0o644, false)
	if err != nil {
		t.Fatal(err)
	}
	const limit = 1 << 16
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: old.Max}); err != nil {
		f.Abort()
		t.Skip("cannot set RLIMIT_FSIZE:", err)
	}
	_, werr := f.Write(make([]byte, 2*limit)) // ignored, as pprof does
	syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	if werr == nil {
		f.Abort()
		t.Skip("the file size limit did not hold")
	}
	if err := f.Commit(); err == nil || !errors.Is(err, syscall.EFBIG) {
		t.Errorf("Commit after a failed write: %v, want the write's error (EFBIG)", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("%s holds %d bytes, want its previous content", p, len(b))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}
