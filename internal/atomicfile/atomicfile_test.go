package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestWriteReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	if err := Write(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A writer that fails mid-way (a full disk) leaves the old file whole.
	boom := errors.New("no space left on device")
	err := WriteFunc(p, 0o644, false, func(w io.Writer) error {
		if _, err := w.Write([]byte("new partial")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old\n" {
		t.Fatalf("file after failed write: %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("temporary files left: %v", ents)
	}
	if err := Write(p, []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Fatalf("file: %q", b)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
}

func TestCreateExclusive(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x")
	if err := Create(p, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Create(p, []byte("b"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second Create: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "a" {
		t.Fatalf("file %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("temporary files left: %v", ents)
	}
}

// TestCommitDirSyncFails: a directory flush that fails after the new
// file is in place — Create's link, Write's rename — is an error wrapping
// ErrDirSync and the flush's error, with the new data at path and no
// temporary file left; an error before that step does not wrap it. The
// flush's error was returned bare, so a caller of Create could not tell
// that the file it failed to create was there, and its own.
func TestCommitDirSyncFails(t *testing.T) {
	defer func(f func(string) error) { syncDir = f }(syncDir)
	boom := errors.New("injected directory flush failure")
	syncDir = func(string) error { return boom }
	dir := t.TempDir()
	p := filepath.Join(dir, "x")
	for _, c := range []struct {
		name  string
		write func() error
		want  string
	}{
		{"Create", func() error { return Create(p, []byte("a"), 0o644) }, "a"},
		{"Write", func() error { return Write(p, []byte("b"), 0o644) }, "b"},
	} {
		err := c.write()
		if !errors.Is(err, ErrDirSync) || !errors.Is(err, boom) {
			t.Errorf("%s with a failing directory flush: %v, want ErrDirSync and the flush's error", c.name, err)
		}
		if b, _ := os.ReadFile(p); string(b) != c.want {
			t.Errorf("%s: the file holds %q, want %q", c.name, b, c.want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("%s: entries %v, want the file alone", c.name, ents)
		}
	}
	// Before the link: fs.ErrExist, not ErrDirSync.
	if err := Create(p, []byte("c"), 0o644); !errors.Is(err, fs.ErrExist) || errors.Is(err, ErrDirSync) {
		t.Errorf("Create on an existing path: %v, want fs.ErrExist alone", err)
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new.json")
	if err := CheckWritable(p, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("CheckWritable created the file")
	}
	os.WriteFile(p, []byte("x"), 0o644)
	if err := CheckWritable(p, false); !errors.Is(err, fs.ErrExist) {
		t.Errorf("existing file: %v", err)
	}
	if err := CheckWritable(p, true); err != nil {
		t.Errorf("existing file, overwrite: %v", err)
	}
	for _, bad := range []string{dir, filepath.Join(dir, "missing", "x.json"), "/proc/no/such/x.json"} {
		if err := CheckWritable(bad, true); err == nil {
			t.Errorf("CheckWritable(%s) accepted", bad)
		}
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		if err := CheckWritable(filepath.Join(ro, "x"), false); err == nil {
			t.Error("read-only directory accepted")
		}
	}
	if err := CheckWritable("/sys/x.json", false); err == nil {
		t.Error("/sys accepted")
	}
}

// TestFileStream: a File written in pieces shows nothing at its path until
// Commit, and Abort leaves the previous file and no temporary one.
func TestFileStream(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cpu.pprof")
	if err := Write(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := New(p, 0o644, false)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := f.Write([]byte("new")); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != "old" {
			t.Fatalf("before Commit the path holds %q", b)
		}
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "newnewnew" {
		t.Fatalf("after Commit: %q", b)
	}
	if err := f.Commit(); err == nil {
		t.Error("second Commit accepted")
	}
	g, err := New(p, 0o644, false)
	if err != nil {
		t.Fatal(err)
	}
	g.Write([]byte("partial"))
	g.Abort()
	g.Abort()
	if b, _ := os.ReadFile(p); string(b) != "newnewnew" {
		t.Fatalf("after Abort: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}

// TestIsTemp: the temporaries this package creates are recognized, and
// nothing else is.
func TestIsTemp(t *testing.T) {
	dir := t.TempDir()
	f, err := New(filepath.Join(dir, "runs.journal"), 0o644, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || !IsTemp(ents[0].Name()) {
		t.Fatalf("entries %v: the temporary file is not recognized", ents)
	}
	for _, n := range []string{"runs.journal", ".hidden", ".x.tmp-", ".x.tmp-12a", "x.tmp-123", ".tmp-123", ".x.probe-", "table.md"} {
		if IsTemp(n) {
			t.Errorf("IsTemp(%q) = true", n)
		}
	}
	for _, n := range []string{".x.tmp-123", ".results.json.tmp-4242", ".a.b.probe-7"} {
		if !IsTemp(n) {
			t.Errorf("IsTemp(%q) = false", n)
		}
	}
}

// TestRemoveStaleTemps: RemoveStaleTemps removes the temporaries of the
// named files whose writer is gone — one whose lock was released (a
// killed writer: the kernel releases it), one never locked (an older
// version's) — and leaves a live writer's, whose Commit then succeeds;
// a live writer's probe (CheckWritable) is left alone too. RemoveTemps
// removed the live writer's, whose rename then failed.
func TestRemoveStaleTemps(t *testing.T) {
	if !haveFlock {
		t.Skip("no flock(2): RemoveStaleTemps removes nothing")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "trace.json")
	live, err := New(target, 0o644, false)
	if err != nil {
		t.Fatal(err)
	}
	dead, err := New(target, 0o644, false)
	if err != nil {
		t.Fatal(err)
	}
	dead.tmp.Close()
	dead.lock.Close() // killed: its lock is released, its temporary stays
	old := filepath.Join(dir, ".trace.json.tmp-5")
	if err := os.WriteFile(old, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, ".other.json.tmp-6")
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	removed, err := RemoveStaleTemps(dir, "trace.json")
	slices.Sort(removed)
	want := []string{old, dead.tmp.Name()}
	slices.Sort(want)
	if err != nil || !slices.Equal(removed, want) {
		t.Errorf("RemoveStaleTemps = %q, %v; want %q", removed, err, want)
	}
	for _, p := range []string{live.tmp.Name(), other} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	if _, err := live.Write([]byte("live")); err != nil {
		t.Fatal(err)
	}
	if err := live.Commit(); err != nil {
		t.Fatalf("the live writer's Commit: %v", err)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "live" {
		t.Errorf("target = %q, %v; want the live writer's data", b, err)
	}
	// A probe (CheckWritable's) is locked from its creation to its
	// removal: a RemoveStaleTemps in between finds it locked.
	tmp, lock, err := createTemp(dir, ".trace.json"+probeInfix, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if removed, err := RemoveStaleTemps(dir, "trace.json"); err != nil || len(removed) != 0 {
		t.Errorf("with a live probe: RemoveStaleTemps = %q, %v; want nothing removed", removed, err)
	}
	tmp.Close()
	if err := os.Remove(tmp.Name()); err != nil {
		t.Errorf("the probe's removal: %v", err)
	}
	lock.Close()
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("left %v, want trace.json and %s", ents, filepath.Base(other))
	}
}

// TestRemoveTemps: the temporaries of the named files — a New's not
// committed, a probe's — are recognized (IsTempOf) and removed; those of
// other names, look-alikes, and a directory with a temporary's name stay.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	f, err := New(filepath.Join(dir, "runs.journal"), 0o644, false)
	if err != nil {
		t.Fatal(err)
	}
	f.tmp.Close() // killed before its rename: the temporary stays
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || !IsTempOf("runs.journal", ents[0].Name()) || IsTempOf("runs", ents[0].Name()) {
		t.Fatalf("entries %v: the temporary of runs.journal is not recognized as its alone", ents)
	}
	keep := []string{".other.md.tmp-1", ".runs.journal.tmp-", ".runs.journal.tmp-1a", "runs.journal.tmp-2", ".runs.journal.bak", "runs.journal"}
	for _, n := range append(keep, ".table.md.tmp-3", ".table.md.probe-4") {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".table.md.tmp-5"), 0o755); err != nil {
		t.Fatal(err)
	}
	keep = append(keep, ".table.md.tmp-5")
	removed, err := RemoveTemps(dir, "runs.journal", "table.md")
	if err != nil || len(removed) != 3 {
		t.Fatalf("RemoveTemps = %v, %v; want the 3 temporaries", removed, err)
	}
	ents, _ = os.ReadDir(dir)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if len(left) != len(keep) {
		t.Errorf("left %q, want %q", left, keep)
	}
}
