package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/atomicfile"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/linalg"
)

type rec struct {
	I int       `json:"i"`
	X []float64 `json:"x"`
	S string    `json:"s"`
}

func write(t *testing.T, n int) (string, []byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "j.jsonl")
	w, err := Create(p, "test", map[string]any{"seed": 3, "name": "a<b>&c"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := w.Append(rec{I: i, X: []float64{0.1 * float64(i), -1e-300}, S: "<&>\u2028"}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	b, _ := os.ReadFile(p)
	return p, b
}

func TestRoundTrip(t *testing.T) {
	p, b := write(t, 3)
	c, err := Read(bytes.NewReader(b), p, "test")
	if err != nil {
		t.Fatal(err)
	}
	if c.Torn || len(c.Records) != 3 || c.Valid != int64(len(b)) || c.Header.Kind != "test" {
		t.Fatalf("contents %+v", c)
	}
	var r rec
	if err := json.Unmarshal(c.Records[2], &r); err != nil || r.I != 2 || r.X[1] != -1e-300 || r.S != "<&>\u2028" {
		t.Fatalf("record 2: %+v %v", r, err)
	}
	if _, err := Read(bytes.NewReader(b), p, "other"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("wrong kind: %v", err)
	}
	// Open then append continues the sequence.
	c, w, err := Open(p, "test")
	if err != nil || len(c.Records) != 3 {
		t.Fatal(err)
	}
	if err := w.Append(rec{I: 3}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b, _ = os.ReadFile(p)
	if c, err := Read(bytes.NewReader(b), p, "test"); err != nil || len(c.Records) != 4 {
		t.Fatalf("after append: %v", err)
	}
	if _, err := Create(p, "test", nil); err == nil {
		t.Error("Create over an existing journal")
	}
}

// TestTornTail: every strict prefix of a journal that cuts its last line
// is read as the lines before it, with Torn set; Open truncates the torn
// line and appends cleanly after it.
func TestTornTail(t *testing.T) {
	p, b := write(t, 3)
	lines := bytes.SplitAfter(b, []byte("\n"))
	full := 0
	for i, l := range lines[:len(lines)-1] {
		for cut := 1; cut < len(l); cut++ {
			c, err := Read(bytes.NewReader(b[:full+cut]), p, "test")
			if i == 0 {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("torn header accepted: %v", err)
				}
				continue
			}
			if err != nil || !c.Torn || len(c.Records) != i-1 || c.Valid != int64(full) {
				t.Fatalf("cut in line %d at %d: %+v, %v", i+1, cut, c, err)
			}
		}
		full += len(l)
	}
	os.WriteFile(p, b[:len(b)-7], 0o644)
	c, w, err := Open(p, "test")
	if err != nil || !c.Torn || len(c.Records) != 2 {
		t.Fatalf("Open torn: %+v %v", c, err)
	}
	if err := w.Append(rec{I: 99}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b2, _ := os.ReadFile(p)
	c, err = Read(bytes.NewReader(b2), p, "test")
	if err != nil || c.Torn || len(c.Records) != 3 {
		t.Fatalf("after repair: %+v %v", c, err)
	}
}

// fullDisk is a journal file whose next write puts only half its bytes on
// disk and fails, as a full disk does; truncFails makes the cut fail too.
type fullDisk struct {
	*os.File
	fail, truncFails bool
}

func (f *fullDisk) Write(b []byte) (int, error) {
	if f.fail {
		f.fail = false
		n, _ := f.File.Write(b[:len(b)/2])
		return n, errors.New("no space left on device")
	}
	return f.File.Write(b)
}

func (f *fullDisk) Truncate(n int64) error {
	if f.truncFails {
		return errors.New("truncate refused")
	}
	return f.File.Truncate(n)
}

// TestFailedAppend: an append that fails half-written (a full disk) leaves
// no fragment for the next append to follow — once a full disk had a
// second worker's record spliced onto the torn line, and Open refused the
// whole journal. When the fragment cannot be cut, later appends fail and
// the fragment stays last, where Open drops it. Both for a created journal
// (O_APPEND) and an opened one (writes at its offset).
func TestFailedAppend(t *testing.T) {
	for _, opened := range []bool{false, true} {
		for _, truncFails := range []bool{false, true} {
			p := filepath.Join(t.TempDir(), "j.jsonl")
			w, err := Create(p, "test", map[string]any{"seed": 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Append(rec{I: 0}); err != nil {
				t.Fatal(err)
			}
			if opened {
				w.Close()
				if _, w, err = Open(p, "test"); err != nil {
					t.Fatal(err)
				}
			}
			disk := &fullDisk{File: w.f.(*os.File), fail: true, truncFails: truncFails}
			w.f = disk
			if err := w.Append(rec{I: 1, S: strings.Repeat("x", 100)}); err == nil {
				t.Fatal("a failed write: nil error")
			}
			errNext := w.Append(rec{I: 2})
			w.Close()
			c, _, err := Open(p, "test")
			if err != nil {
				t.Fatalf("opened=%v truncFails=%v: Open after a failed append: %v", opened, truncFails, err)
			}
			var got []int
			for _, r := range c.Records {
				var v rec
				json.Unmarshal(r, &v)
				got = append(got, v.I)
			}
			want, torn := []int{0, 2}, false
			if truncFails {
				want, torn = []int{0}, true
				if errNext == nil {
					t.Error("an append after an uncut fragment: nil error")
				}
			} else if errNext != nil {
				t.Errorf("the append after a cut fragment: %v", errNext)
			}
			if !slices.Equal(got, want) || c.Torn != torn {
				t.Errorf("opened=%v truncFails=%v: records %v torn %v, want %v torn %v", opened, truncFails, got, c.Torn, want, torn)
			}
		}
	}
}

// TestCorruption: a changed byte, a dropped, duplicated or swapped line in
// the middle is an error naming the line, never a silent skip.
func TestCorruption(t *testing.T) {
	p, b := write(t, 4)
	lines := bytes.SplitAfter(b, []byte("\n"))
	lines = lines[:len(lines)-1]
	join := func(ls ...[]byte) []byte { return bytes.Join(ls, nil) }
	cases := map[string][]byte{
		"dropped":    join(lines[0], lines[1], lines[3], lines[4]),
		"duplicated": join(lines[0], lines[1], lines[1], lines[2], lines[3], lines[4]),
		"swapped":    join(lines[0], lines[2], lines[1], lines[3], lines[4]),
		"no header":  join(lines[1], lines[2]),
		"torn mid":   join(lines[0], lines[1][:10], lines[2]),
		"blank":      join(lines[0], []byte("\n"), lines[1]),
		"garbage":    join(lines[0], []byte("hello\n")),
	}
	for i := range b {
		if b[i] == '\n' {
			continue
		}
		c := bytes.Clone(b)
		c[i] ^= 0x01
		cases["flip"+string(rune('0'+i%10))+":"+strings.Repeat("x", i%3)] = c
		if i > 300 {
			break
		}
	}
	for name, data := range cases {
		_, err := Read(bytes.NewReader(data), p, "test")
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
}

// FuzzRead: any input is either refused or read into records that a fresh
// journal reproduces byte for byte (a read is never a silent mis-read), and
// nothing is skipped: without Torn every byte was read, with Torn the
// bytes dropped are one final line without its "\n". Seeds: f.Add below
// and testdata/fuzz/FuzzRead (torn, truncated, bit-flipped, reordered,
// duplicated, non-canonical and foreign lines).
func FuzzRead(f *testing.F) {
	dir := f.TempDir()
	p := filepath.Join(dir, "seed.jsonl")
	w, _ := Create(p, "test", map[string]int{"a": 1})
	w.Append(rec{I: 1, X: []float64{1, 2}})
	w.Append(map[string]string{"k": "v"})
	w.Close()
	b, _ := os.ReadFile(p)
	f.Add(b)
	f.Add(b[:len(b)-3])
	f.Add([]byte(`{"seq":0,"crc32":0,"data":{}}` + "\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Read(bytes.NewReader(data), "fuzz", "")
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if c.Valid > int64(len(data)) || (c.Torn && c.Valid == int64(len(data))) {
			t.Fatalf("valid %d of %d, torn %v", c.Valid, len(data), c.Torn)
		}
		if !c.Torn && c.Valid != int64(len(data)) {
			t.Fatalf("read %d of %d bytes without reporting a torn line", c.Valid, len(data))
		}
		if c.Torn && bytes.IndexByte(data[c.Valid:], '\n') >= 0 {
			t.Fatalf("dropped %q as a torn line, but it holds a complete one", data[c.Valid:])
		}
		// Rewrite what was read: the same bytes as the valid prefix.
		q := filepath.Join(t.TempDir(), "r.jsonl")
		w, err := create(q, c.Header.Version, c.Header.Kind, c.Header.Settings, c.Header.Code, c.Header.Env)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range c.Records {
			if err := w.write(r); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		got, _ := os.ReadFile(q)
		if !bytes.Equal(got, data[:c.Valid]) {
			t.Fatalf("re-encoding differs:\n%q\n%q", got, data[:c.Valid])
		}
	})
}

// TestCreateWhole: Create leaves either no journal or one holding its whole
// header (it is linked into place after an fsync, never grown in place), no
// temporary file, and an existing file untouched.
func TestCreateWhole(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "j.jsonl")
	w, err := Create(p, "test", map[string]int{"a": 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	b, _ := os.ReadFile(p)
	if c, err := Read(bytes.NewReader(b), p, "test"); err != nil || len(c.Records) != 0 || c.Torn {
		t.Fatalf("fresh journal: %+v %v", c, err)
	}
	if _, err := Create(p, "test", nil); !errors.Is(err, os.ErrExist) {
		t.Errorf("Create over an existing journal: %v", err)
	}
	if b2, _ := os.ReadFile(p); !bytes.Equal(b, b2) {
		t.Error("a refused Create changed the existing journal")
	}
	if _, err := Create(filepath.Join(dir, "missing", "j.jsonl"), "test", nil); err == nil {
		t.Error("Create in a missing directory")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want the journal only", len(entries))
	}
}

// TestHeaderCode: a journal records the build that created it.
func TestHeaderCode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j")
	w, err := Create(p, "k", map[string]int{"a": 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	c, w2, err := Open(p, "k")
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
	if c.Header.Code != Code() || !strings.Contains(c.Header.Code, "github.com/symbo/symbo") && c.Header.Code != "unknown" {
		t.Errorf("header code %q, running build %q", c.Header.Code, Code())
	}
}

// journalOf writes a journal of kind "test" with the given settings and
// records 0…n−1 and returns its lines (each with its "\n").
func journalOf(t *testing.T, settings any, n int) [][]byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "j")
	w, err := Create(p, "test", settings)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := w.Append(rec{I: i, X: []float64{float64(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	b, _ := os.ReadFile(p)
	lines := bytes.SplitAfter(b, []byte("\n"))
	return lines[:len(lines)-1]
}

// TestSplicedRecords (issue 15, defect 8): every line carries its run's
// identity (the hash of the header's kind and settings) under its
// checksum, so records spliced from another run's journal — the same
// records at the same positions, each with a valid checksum of its own —
// are refused, naming the line and both runs; editing a line's run id to
// match breaks its checksum. Before, each line's CRC covered that line
// only, and a header of one run over another's records was read as one
// run. A torn last line is still dropped, not refused.
func TestSplicedRecords(t *testing.T) {
	plus := journalOf(t, map[string]any{"kernel": "plus", "seed": 1}, 4)
	avg := journalOf(t, map[string]any{"kernel": "avg", "seed": 1}, 4)
	seed2 := journalOf(t, map[string]any{"kernel": "plus", "seed": 2}, 4)
	join := func(ls ...[]byte) []byte { return bytes.Join(ls, nil) }
	runOf := func(l []byte) string {
		var v struct{ Run string }
		json.Unmarshal(l, &v)
		return v.Run
	}
	if runOf(plus[0]) == "" || runOf(plus[0]) == runOf(avg[0]) || runOf(plus[0]) == runOf(seed2[0]) || runOf(plus[1]) != runOf(plus[0]) {
		t.Fatalf("run ids %q %q %q %q", runOf(plus[0]), runOf(plus[1]), runOf(avg[0]), runOf(seed2[0]))
	}
	for _, tc := range []struct {
		name string
		data []byte
		line string
	}{
		{"all records of another kernel", join(plus[0], avg[1], avg[2], avg[3], avg[4]), "s.journal:2: "},
		{"one record of another kernel", join(plus[0], plus[1], avg[2], plus[3]), "s.journal:3: "},
		{"the last record of another seed", join(plus[0], plus[1], plus[2], seed2[3]), "s.journal:4: "},
		{"another header", join(avg[0], plus[1], plus[2]), "s.journal:2: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tc.data), "s.journal", "test")
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.line+"a record of another run") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want a one-line ErrCorrupt naming %s as a record of another run", err, tc.line)
			}
		})
	}
	// A record whose run id was edited to the header's: its checksum fails.
	forged := bytes.Replace(avg[2], []byte(runOf(avg[0])), []byte(runOf(plus[0])), 1)
	if _, err := Read(bytes.NewReader(join(plus[0], plus[1], forged)), "s.journal", "test"); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "s.journal:3: checksum") {
		t.Errorf("forged run id: %v", err)
	}
	// A header whose settings were edited: its checksum fails; with the
	// checksum redone, its run id is not its settings' any more.
	edited := bytes.Replace(plus[0], []byte(`"seed":1`), []byte(`"seed":2`), 1)
	if _, err := Read(bytes.NewReader(join(edited, plus[1])), "s.journal", "test"); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "s.journal:1: checksum") {
		t.Errorf("edited header: %v", err)
	}
	var hl line
	if err := json.Unmarshal(edited, &hl); err != nil {
		t.Fatal(err)
	}
	resummed := fmt.Appendf(nil, `{"seq":0,"run":%q,"crc32":%d,"data":%s}`+"\n", *hl.Run, checksum(2, 0, hl.Run, hl.Data), hl.Data)
	if _, err := Read(bytes.NewReader(join(resummed, plus[1])), "s.journal", "test"); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "s.journal:1: the header's run id") {
		t.Errorf("edited header, checksum redone: %v", err)
	}
	// The torn tail of one's own run is still dropped, not refused.
	c, err := Read(bytes.NewReader(join(plus[0], plus[1], plus[2][:9])), "s.journal", "test")
	if err != nil || !c.Torn || len(c.Records) != 1 || c.Run != runOf(plus[0]) {
		t.Errorf("torn tail: %+v, %v", c, err)
	}
}

// TestVersion1 (issue 15, defect 8): a journal written before records
// were bound to their run (testdata/v1.journal, by commit ff13601) is
// still read, its Run empty, and appended to in its own format, so a file
// never mixes versions; a version-2 line in it, or a version-1 line in a
// version-2 journal, is refused.
func TestVersion1(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "v1.journal"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "v1.journal")
	if err := os.WriteFile(p, old, 0o644); err != nil {
		t.Fatal(err)
	}
	c, w, err := Open(p, "test")
	if err != nil || c.Header.Version != 1 || c.Run != "" || len(c.Records) != 3 || c.Torn {
		t.Fatalf("Open: %+v, %v", c, err)
	}
	if err := w.Append(rec{I: 3, X: []float64{1.5, -2}, S: "r"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b, _ := os.ReadFile(p)
	want := string(old) + `{"seq":4,"crc32":` + fmt.Sprint(crc32.ChecksumIEEE([]byte(`{"i":3,"x":[1.5,-2],"s":"r"}`))) + `,"data":{"i":3,"x":[1.5,-2],"s":"r"}}` + "\n"
	if string(b) != want {
		t.Fatalf("appended to a version-1 journal:\n%s\nwant\n%s", b, want)
	}
	if c, err := Read(bytes.NewReader(b), p, "test"); err != nil || len(c.Records) != 4 {
		t.Fatalf("re-read: %+v %v", c, err)
	}
	v1 := bytes.SplitAfter(old, []byte("\n"))
	v2 := journalOf(t, map[string]any{"kernel": "plus", "seed": 3}, 2)
	if _, err := Read(bytes.NewReader(bytes.Join([][]byte{v1[0], v2[1]}, nil)), "m", "test"); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "m:2: a line with a run id in a version-1 journal") {
		t.Errorf("version-2 line in a version-1 journal: %v", err)
	}
	if _, err := Read(bytes.NewReader(bytes.Join([][]byte{v2[0], v1[1]}, nil)), "m", "test"); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "m:2: a line without a run id") {
		t.Errorf("version-1 line in a version-2 journal: %v", err)
	}
}

// TestFormatV2: the documented line format, byte for byte: the run id is
// RunID(kind, settings), the checksum covers the line without itself.
func TestFormatV2(t *testing.T) {
	lines := journalOf(t, map[string]int{"seed": 1}, 1)
	run := RunID("test", []byte(`{"seed":1}`))
	sum := sha256.Sum256([]byte("test\x00{\"seed\":1}"))
	if run != hex.EncodeToString(sum[:8]) {
		t.Fatalf("RunID %s", run)
	}
	data := `{"i":0,"x":[0],"s":""}`
	crc := crc32.ChecksumIEEE([]byte(`{"seq":1,"run":"` + run + `","data":` + data + `}`))
	if want := fmt.Sprintf(`{"seq":1,"run":"%s","crc32":%d,"data":%s}`+"\n", run, crc, data); string(lines[1]) != want {
		t.Errorf("record line\n%s\nwant\n%s", lines[1], want)
	}
}

// TestOneWriter: a journal has one Writer at a time.
// Two perf table --resume on one --out both appended, their lines
// interleaved, and every later resume refused the journal. flock locks
// belong to an open file description, so a second Open in this process
// conflicts as another process's does.
func TestOneWriter(t *testing.T) {
	p, _ := write(t, 2)
	dir, name := filepath.Split(p)
	_, w, err := Open(p, "test")
	if err != nil {
		t.Fatal(err)
	}
	for what, open := range map[string]func() error{
		"Open":   func() error { _, w, err := Open(p, "test"); closeIf(w); return err },
		"OpenIn": func() error { _, w, err := OpenIn(dir, name, "test"); closeIf(w); return err },
	} {
		if err := open(); !errors.Is(err, atomicfile.ErrLocked) || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), p) {
			t.Errorf("%s while another Writer appends: %v, want an input error wrapping ErrLocked naming %s", what, err, p)
		}
	}
	if err := w.Append(rec{I: 2}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	// Released by Close: the next writer appends after the first's lines.
	c, w, err := Open(p, "test")
	if err != nil || len(c.Records) != 3 {
		t.Fatalf("Open after Close: %v", err)
	}
	w.Close()
	// A new journal is locked from its creation.
	q := filepath.Join(t.TempDir(), "new.jsonl")
	w, err = Create(q, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, w2, err := Open(q, "test"); !errors.Is(err, atomicfile.ErrLocked) {
		closeIf(w2)
		t.Errorf("Open of a journal being created: %v, want ErrLocked", err)
	}
}

func closeIf(w *Writer) {
	if w != nil {
		w.Close()
	}
}

// TestEnv: the header records the environment variables that change
// results — linalg's names, set or not ("" for unset) — and Read returns
// them; a journal written before Env was recorded reads as nil.
func TestEnv(t *testing.T) {
	if !slices.Equal(resultEnv, []string{linalg.EnvBackend, linalg.EnvOpenBLASThreads}) {
		t.Fatalf("resultEnv = %v, want linalg's EnvBackend and EnvOpenBLASThreads", resultEnv)
	}
	t.Setenv(linalg.EnvBackend, "openblas")
	t.Setenv(linalg.EnvOpenBLASThreads, "")
	path := filepath.Join(t.TempDir(), "j.jsonl")
	w, err := Create(path, "k", map[string]int{"a": 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := Read(f, path, "k")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{linalg.EnvBackend: "openblas", linalg.EnvOpenBLASThreads: ""}
	if len(c.Header.Env) != len(want) || c.Header.Env[linalg.EnvBackend] != "openblas" {
		t.Fatalf("header env %v, want %v", c.Header.Env, want)
	}
	if v, ok := c.Header.Env[linalg.EnvOpenBLASThreads]; !ok || v != "" {
		t.Fatalf("header env %v: want %s recorded as unset", c.Header.Env, linalg.EnvOpenBLASThreads)
	}
	// Without env (an older journal): read, Env nil.
	q := filepath.Join(t.TempDir(), "old.jsonl")
	w, err = create(q, Version, "k", map[string]int{"a": 1}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	g, err := os.Open(q)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if c, err = Read(g, q, "k"); err != nil || c.Header.Env != nil {
		t.Fatalf("journal without env: %v, env %v", err, c.Header.Env)
	}
}

// TestCreateFailsWhole: a Create that fails after its header is linked
// into place (the open for appending fails) removes the header-only file
// it made, so that the run can be started again at the same path (once
// such a file was left, and the next Create failed with fs.ErrExist).
func TestCreateFailsWhole(t *testing.T) {
	defer func(f func(string) (*os.File, error)) { openAppend = f }(openAppend)
	openAppend = func(string) (*os.File, error) { return nil, errors.New("injected open failure") }
	dir := t.TempDir()
	p := filepath.Join(dir, "j.jsonl")
	if w, err := Create(p, "test", nil); err == nil || !strings.Contains(err.Error(), "injected") {
		closeIf(w)
		t.Fatalf("Create with a failing open: %v, want the open's error", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed Create left %d entries (%v), want none", len(entries), entries[0].Name())
	}
	openAppend = func(path string) (*os.File, error) { return os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0) }
	w, err := Create(p, "test", nil)
	if err != nil {
		t.Fatalf("Create after a failed one: %v", err)
	}
	w.Close()
}

// TestCreateDirSyncFails: a Create whose header is linked into place but
// whose directory flush then fails (atomicfile.ErrDirSync) removes the
// header-only file, as any failure after the link does, and says why; the
// next Create at the path succeeds. The header was left in place: the
// error did not say the file was there, and the next Create failed with
// fs.ErrExist.
func TestCreateDirSyncFails(t *testing.T) {
	defer func(f func(string, []byte, fs.FileMode) error) { createHeader = f }(createHeader)
	createHeader = func(path string, data []byte, perm fs.FileMode) error {
		if err := atomicfile.Create(path, data, perm); err != nil {
			return err
		}
		return fmt.Errorf("%w (%s): injected directory flush failure", atomicfile.ErrDirSync, path)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "j.jsonl")
	if w, err := Create(p, "test", nil); !errors.Is(err, atomicfile.ErrDirSync) {
		closeIf(w)
		t.Fatalf("Create with a failing directory flush: %v, want atomicfile.ErrDirSync", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed Create left %d entries (%v), want none", len(entries), entries[0].Name())
	}
	createHeader = atomicfile.Create
	w, err := Create(p, "test", nil)
	if err != nil {
		t.Fatalf("Create after a failed one: %v", err)
	}
	w.Close()
}

// TestUnterminatedTailNotTorn: a final line without its "\n" is dropped
// as a torn write only when it can be one — the beginning of the line the
// Writer appends next (its sequence number and run), or NUL bytes (a
// file system that kept the size of an interrupted write but not its
// data). Anything else — bytes appended to the file, a line of another
// run or a repeated line without its "\n" — is refused naming the line,
// as the same bytes with a "\n" are. Before, any unterminated tail was
// dropped with the note that the run was killed while writing it, and
// Open cut it off the file.
func TestUnterminatedTailNotTorn(t *testing.T) {
	p, b := write(t, 3)
	lines := bytes.SplitAfter(b, []byte("\n"))
	lines = lines[:len(lines)-1]
	other := journalOf(t, map[string]any{"seed": 4}, 4)
	nul := func(n int) []byte { return make([]byte, n) }
	var h struct{ Run string }
	if err := json.Unmarshal(lines[0], &h); err != nil || h.Run == "" {
		t.Fatalf("header %q: %v", lines[0], err)
	}
	next := fmt.Appendf(nil, `{"seq":4,"run":%q,"crc32":12`, h.Run)
	if c, err := Read(bytes.NewReader(append(bytes.Clone(b), next...)), p, "test"); err != nil || !c.Torn || len(c.Records) != 3 {
		t.Fatalf("the start of the next line: %+v, %v", c, err)
	}
	for name, tail := range map[string][]byte{
		"a prefix of the next line": next[:9],
		"the next line cut in data": append(bytes.Clone(next), `0,"data":{"i":3,"x":[0.`...),
		"NUL bytes":                 nul(4096),
		"a prefix, then NUL bytes":  append(bytes.Clone(next[:20]), nul(100)...),
	} {
		c, err := Read(bytes.NewReader(append(bytes.Clone(b), tail...)), p, "test")
		if err != nil || !c.Torn || len(c.Records) != 3 || c.Valid != int64(len(b)) {
			t.Errorf("%s: %+v, %v; want dropped as torn", name, c, err)
		}
	}
	for name, tail := range map[string][]byte{
		"garbage":                   []byte("garb"),
		"a repeated record":         bytes.TrimSuffix(lines[2], []byte("\n")),
		"a record of another run":   bytes.TrimSuffix(other[4], []byte("\n")),
		"another run's torn record": other[4][:40],
		"the header again":          bytes.TrimSuffix(lines[0], []byte("\n")),
		"NUL bytes, then garbage":   append(nul(8), "x"...),
		"another header, cut":       []byte(`{"seq":0,`),
	} {
		data := append(bytes.Clone(b), tail...)
		_, err := Read(bytes.NewReader(data), p, "test")
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), p+":5: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want a one-line ErrCorrupt naming %s:5", name, err, p)
			continue
		}
		// Open refuses it too, and leaves the file as it was.
		os.WriteFile(p, data, 0o644)
		if _, _, err := Open(p, "test"); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Open: %v", name, err)
		}
		if got, _ := os.ReadFile(p); !bytes.Equal(got, data) {
			t.Errorf("%s: Open changed the file", name)
		}
	}
}

// TestHeaderEnvOnlyResultVariables: a header's env may name only the
// variables that change results (resultEnv, any subset: an older build
// may have recorded fewer), with values a process environment can hold;
// one naming another variable — which perf would set on --resume
// (PERF_TEST_HOLD_AFTER=1 made the resumed run wait forever for a
// signal) — or a value with a NUL byte (os.Setenv refuses it: perf
// exited 1, with two lines on stderr) is refused as corrupt.
// Before, Read accepted any map.
func TestHeaderEnvOnlyResultVariables(t *testing.T) {
	read := func(env map[string]string) error {
		p := filepath.Join(t.TempDir(), "j.jsonl")
		w, err := create(p, Version, "k", map[string]int{"a": 1}, "", env)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Append(rec{I: 1}); err != nil {
			t.Fatal(err)
		}
		w.Close()
		b, _ := os.ReadFile(p)
		_, err = Read(bytes.NewReader(b), p, "k")
		if err != nil && (!errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), p+":1: ") || strings.Contains(err.Error(), "\n")) {
			t.Errorf("env %v: error %v is not a one-line ErrCorrupt naming %s:1", env, err, p)
		}
		return err
	}
	for _, env := range []map[string]string{
		nil,
		{linalg.EnvBackend: "gonum", linalg.EnvOpenBLASThreads: "4"},
		{linalg.EnvBackend: ""},
		{},
	} {
		if err := read(env); err != nil {
			t.Errorf("env %v refused: %v", env, err)
		}
	}
	for _, env := range []map[string]string{
		{linalg.EnvBackend: "", linalg.EnvOpenBLASThreads: "", "PERF_TEST_HOLD_AFTER": "1"},
		{"GODEBUG": "x=1"},
		{"": "1"},
		{"A=B": "1"},
		{linalg.EnvBackend: "go\x00num"},
	} {
		if err := read(env); err == nil {
			t.Errorf("env %q accepted", env)
		}
	}
}
