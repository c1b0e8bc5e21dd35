// Package journal keeps the finished units of a long run (evaluations of a
// BO run, runs of an experiment) in an append-only file of JSON lines, each
// flushed to disk (fsync) as it is written, so that an interrupted run —
// Ctrl-C, kill -9, a crash, a full disk — can resume from what it kept.
//
// # Format (version 2)
//
// Line 1 is the header, every later line a record; each line is
//
//	{"seq":N,"run":R,"crc32":C,"data":D}
//
// where N is 0 for the header and 1, 2, … for the records in order, D is
// any JSON value (the header's is {"format":"symbo-journal","version":2,
// "kind":K,"settings":S,"code":B,"env":E}, B the build that created it,
// see Code, and E the environment variables that change results, see Env),
// R is the run's identity, RunID(K, S): 16 hex digits of the SHA-256 of
// the kind and the settings as written, the same on every line, and C is
// the IEEE CRC-32 of the line without its checksum, the bytes
// {"seq":N,"run":R,"data":D}. Lines end in "\n".
//
// So every record is bound to its run: a record spliced from another
// journal — another kernel, seed, acquisition, any other setting — carries
// another R, and is refused even though its own checksum holds; editing R
// to match breaks the checksum. The build (B) and the environment (E) are
// not part of the identity: a run resumed by another build keeps it (perf
// warns), and perf resumes under the journal's environment.
//
// Version 1 (before records were bound) had no "run" field and C covered
// D only. Such journals are still read and appended to in their own
// format (a file never mixes versions); Contents.Run is empty for them,
// and callers should say that their records are not checked against the
// run (perf prints a warning on resume).
//
// # Invariants
//
//   - The journal comes into existence whole: Create writes the header to a
//     temporary file, fsyncs it and links it into place (internal/atomicfile),
//     so a crash at any moment leaves no journal or one with its header.
//   - A line is appended with one write and then fsync'd.
//   - Reading accepts only a well-formed file: every line parses with
//     exactly these fields, its checksum matches, its run is the header's
//     and its sequence number is the next one. A final line without its
//     "\n" is a torn write (the process died while appending) when it can
//     be one — the beginning of the next line, whose sequence number and
//     run it must carry, possibly followed by NUL bytes, or NUL bytes
//     alone (a file system's trace of data lost in a crash): Read drops
//     it and reports it, and Open truncates it away before appending
//     again. Other unterminated bytes at the end are refused.
//     Anything else — a corrupted, reordered, duplicated, missing or
//     foreign line anywhere, a torn line followed by others — is an error
//     naming file:line. Nothing is skipped silently.
//
// # Concurrency
//
// A Writer is not safe for concurrent use (callers serialize their
// appends). One Writer appends to a journal at a time: Create and Open take
// an exclusive advisory lock on the file (atomicfile.LockFile, flock(2))
// that lasts until Close or the process's end, and fail with an error
// wrapping atomicfile.ErrLocked while another Writer — in this process or
// another — holds it, so that two runs resumed at once cannot interleave
// their appends. Read keeps no state and may run concurrently on distinct
// readers; Code, Env and RunID are safe for concurrent use.
//
// # Errors
//
// A file that is not a well-formed journal of the expected kind (every
// case of the Invariants above, a header of another format, version or
// kind, a line longer than MaxLine, an Open of something other than a
// regular file) is an error wrapping ErrCorrupt, an input error
// (internal/errclass), naming file:line where there is one. A journal
// held by another Writer is an error wrapping atomicfile.ErrLocked; Create
// on an existing path wraps fs.ErrExist. Other I/O failures, and settings
// or records that do not encode as JSON, are returned wrapped with the
// "journal: " prefix and carry no class.
//
// # Cost
//
// Read (and Open) parses the whole file in one pass: O(B) time for a file
// of B bytes (a CRC-32 and a JSON decode per line) and O(B)
// memory, since Contents holds every record; one line is buffered at a
// time, at most MaxLine bytes. Nothing bounds B but the file system.
// Append costs one JSON encoding and CRC-32 of the record, one write and
// one fsync: O(record size) plus the fsync's latency. Create writes and
// fsyncs the header, the directory too (atomicfile.Create).
package journal

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/symbo/symbo/internal/atomicfile"
	"github.com/symbo/symbo/internal/errclass"
)

// Format and Version identify the file format; Create writes Version,
// Read reads it and version 1.
const (
	Format  = "symbo-journal"
	Version = 2
)

// RunID is the identity of a run that every line of its journal carries:
// the first 16 hex digits of the SHA-256 of kind, a NUL byte and settings
// (the compact JSON the header holds).
func RunID(kind string, settings []byte) string {
	h := sha256.New()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write(settings)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// MaxLine caps the length of one line (a record), so that reading a damaged
// file cannot exhaust memory.
const MaxLine = 64 << 20

// ErrCorrupt reports a journal that is not a well-formed journal of the
// expected kind: damaged, edited, or holding lines of another run — the
// user's file, so an input error.
var ErrCorrupt = errclass.New(errclass.Input, "journal: corrupt")

// Header is the first line's data.
type Header struct {
	Format   string          `json:"format"`   // always Format
	Version  int             `json:"version"`  // 1 or 2 (Version)
	Kind     string          `json:"kind"`     // what the records are, as the caller names it
	Settings json.RawMessage `json:"settings"` // the caller's settings, as written
	// Code identifies the build that created the journal (see Code);
	// empty in journals written before it was recorded.
	Code string `json:"code,omitempty"`
	// Env holds the environment variables that change a run's results
	// (see Env) as the creating process saw them, "" for unset; nil in
	// journals written before it was recorded. Read refuses (ErrCorrupt)
	// a header whose Env names any other variable, or holds a value with
	// a NUL byte: a resume sets them.
	Env map[string]string `json:"env,omitempty"`
}

// resultEnv names the environment variables that change results without
// being a setting: the linear-algebra backend linalg.Default picks
// (linalg.EnvBackend) and OpenBLAS's thread count
// (linalg.EnvOpenBLASThreads); the journal's test checks the names
// against linalg's. (SYMBO_SIMD does not change bits.)
var resultEnv = []string{"SYMBO_BACKEND", "SYMBO_OPENBLAS_THREADS"}

// Env returns the values of the environment variables that change a
// run's results, "" for unset: what Create records, so that a resume can
// run under the environment the run started in.
func Env() map[string]string {
	m := make(map[string]string, len(resultEnv))
	for _, k := range resultEnv {
		m[k] = os.Getenv(k)
	}
	return m
}

// Code identifies the running build: the main module's path and version,
// and the VCS revision Go recorded ("+modified" for a tree with
// uncommitted changes), e.g. "github.com/symbo/symbo (devel) 8e1fa39…".
// A run resumed by another build may differ from an uninterrupted one.
func Code() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	s := bi.Main.Path + " " + bi.Main.Version
	var rev, mod string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				mod = "+modified"
			}
		}
	}
	if rev != "" {
		s += " " + rev + mod
	}
	return s
}

type line struct {
	Seq   int             `json:"seq"`
	Run   *string         `json:"run"`
	CRC32 uint32          `json:"crc32"`
	Data  json.RawMessage `json:"data"`
}

// Contents is what Read found.
type Contents struct {
	Header  Header            // the first line's data
	Records []json.RawMessage // the records' data, in order (seq 1, 2, …)
	// Run is the run's identity that every line carries (RunID of the
	// header's kind and settings); empty for a version-1 journal, whose
	// records are not bound to their run.
	Run string
	// Torn reports a final line cut short by an interrupted write, which
	// was dropped; Valid is the length in bytes of the well-formed prefix.
	Torn  bool
	Valid int64
}

// Read parses a journal; name labels errors. It fails (ErrCorrupt) unless
// the header's format, version and kind match (kind "" accepts any) and
// every record belongs to the header's run.
func Read(r io.Reader, name, kind string) (*Contents, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	c := &Contents{}
	version := 0
	for n := 1; ; n++ {
		raw, err := readLine(br)
		if err == io.EOF && len(raw) == 0 {
			break
		}
		if err != nil && err != io.EOF {
			if errors.Is(err, errLong) {
				return nil, fmt.Errorf("%w: %s:%d: line longer than %d bytes", ErrCorrupt, name, n, MaxLine)
			}
			return nil, fmt.Errorf("journal: %s:%d: %w", name, n, err)
		}
		if err == io.EOF {
			// No final "\n": the last write was cut short.
			if n == 1 {
				return nil, fmt.Errorf("%w: %s:1: torn header (the journal was never completely created)", ErrCorrupt, name)
			}
			// Only the beginning of the line the Writer appends next
			// (or NUL bytes, see tornTail) can be a write cut short;
			// anything else was put there, and is refused as the same
			// bytes with their "\n" would be.
			if !tornTail(raw, n-1, version, c.Run) {
				return nil, fmt.Errorf("%w: %s:%d: an unterminated last line that is not the beginning of record %d of this journal (a write cut short leaves one): bytes appended to the journal, or a line of another journal", ErrCorrupt, name, n, n-1)
			}
			c.Torn = true
			break
		}
		b := raw[:len(raw)-1]
		l, perr := decodeLine(b)
		if perr == nil && n == 1 {
			version, perr = c.readHeader(l.Data, kind, name)
			if perr != nil {
				return nil, perr
			}
		}
		if perr == nil {
			perr = checkLine(b, l, n-1, version, c.Run)
		}
		if perr != nil {
			return nil, fmt.Errorf("%w: %s:%d: %v", ErrCorrupt, name, n, perr)
		}
		if n > 1 {
			c.Records = append(c.Records, l.Data)
		}
		c.Valid += int64(len(raw))
	}
	if c.Valid == 0 {
		return nil, fmt.Errorf("%w: %s: empty file", ErrCorrupt, name)
	}
	return c, nil
}

// readHeader decodes and checks the header's data, sets c.Header and c.Run,
// and returns the journal's version. Errors are complete (ErrCorrupt).
func (c *Contents) readHeader(data []byte, kind, name string) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.Header); err != nil {
		return 0, fmt.Errorf("%w: %s:1: header: %v", ErrCorrupt, name, err)
	}
	if canon, err := json.Marshal(c.Header); err != nil || !bytes.Equal(canon, data) {
		return 0, fmt.Errorf("%w: %s:1: header not in the canonical form this package writes", ErrCorrupt, name)
	}
	switch h := c.Header; {
	case h.Format != Format:
		return 0, fmt.Errorf("%w: %s: not a symbo journal (format %q)", ErrCorrupt, name, h.Format)
	case h.Version != 1 && h.Version != Version:
		return 0, fmt.Errorf("%w: %s: journal version %d, this build reads 1 and %d", ErrCorrupt, name, h.Version, Version)
	case kind != "" && h.Kind != kind:
		return 0, fmt.Errorf("%w: %s: a journal of %q, not %q", ErrCorrupt, name, h.Kind, kind)
	}
	// Env holds only variables that change results (a resume sets them):
	// any other, which Create never records, would be set too.
	for _, k := range slices.Sorted(maps.Keys(c.Header.Env)) {
		if !slices.Contains(resultEnv, k) {
			return 0, fmt.Errorf("%w: %s:1: the header's env names %q, not one of the variables that change results (%s)", ErrCorrupt, name, k, strings.Join(resultEnv, ", "))
		}
		if strings.IndexByte(c.Header.Env[k], 0) >= 0 {
			return 0, fmt.Errorf("%w: %s:1: the header's env value of %s holds a NUL byte", ErrCorrupt, name, k)
		}
	}
	if c.Header.Version >= 2 {
		c.Run = RunID(c.Header.Kind, c.Header.Settings)
	}
	return c.Header.Version, nil
}

var errLong = errclass.New(errclass.Input, "line too long")

// readLine returns one line with its "\n", or the final bytes without one
// and io.EOF.
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		out = append(out, chunk...)
		if len(out) > MaxLine {
			return nil, errLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return out, err
	}
}

// decodeLine parses one line (without its "\n") into its fields.
func decodeLine(b []byte) (line, error) {
	var l line
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return l, fmt.Errorf("not a journal line: %v", err)
	}
	if dec.More() {
		return l, fmt.Errorf("data after the line's JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return l, fmt.Errorf("data after the line's JSON object")
	}
	if l.Data == nil {
		return l, fmt.Errorf("no data")
	}
	return l, nil
}

// checkLine checks a decoded line b as line seq of a journal of the given
// version whose run is run ("" for version 1).
func checkLine(b []byte, l line, seq, version int, run string) error {
	if version == 1 {
		if l.Run != nil {
			return fmt.Errorf("a line with a run id in a version-1 journal (a line of a newer journal spliced in?)")
		}
	} else {
		if l.Run == nil {
			return fmt.Errorf("a line without a run id in a version-%d journal (a line of an older journal spliced in?)", version)
		}
	}
	if got := checksum(version, l.Seq, l.Run, l.Data); got != l.CRC32 {
		return fmt.Errorf("checksum %08x, the line's is %08x", l.CRC32, got)
	}
	if l.Run != nil && *l.Run != run {
		if seq == 0 {
			return fmt.Errorf("the header's run id %q is not that of its kind and settings (%s)", *l.Run, run)
		}
		return fmt.Errorf("a record of another run (run %s; this journal's header is run %s): records spliced from another journal are refused", *l.Run, run)
	}
	if l.Seq != seq {
		return fmt.Errorf("sequence number %d, want %d (a line is missing, repeated or out of order)", l.Seq, seq)
	}
	if !bytes.Equal(b, frame(version, seq, run, l.Data)) {
		return fmt.Errorf("not in the canonical form this package writes")
	}
	return nil
}

// tornTail reports whether b, the bytes after a journal's last "\n", can
// be what an interrupted Append of line seq (of the given version and
// run) left: a prefix of that line, which begins with its sequence number
// and run, possibly followed by NUL bytes — or NUL bytes alone, which a
// file system may show in place of data that did not reach the disk
// before a crash. Only the line's beginning is checked: the rest depends
// on the data that were being written.
func tornTail(b []byte, seq, version int, run string) bool {
	b = bytes.TrimRight(b, "\x00")
	head := fmt.Appendf(nil, `{"seq":%d,"run":%q,"crc32":`, seq, run)
	if version == 1 {
		head = fmt.Appendf(nil, `{"seq":%d,"crc32":`, seq)
	}
	if len(b) <= len(head) {
		return bytes.HasPrefix(head, b)
	}
	return bytes.HasPrefix(b, head)
}

// checksum is a line's CRC-32: of the data alone in version 1, of the line
// without its crc32 field in version 2.
func checksum(version, seq int, run *string, data []byte) uint32 {
	if version == 1 || run == nil {
		return crc32.ChecksumIEEE(data)
	}
	c := crc32.ChecksumIEEE(fmt.Appendf(nil, `{"seq":%d,"run":%q,"data":`, seq, *run))
	c = crc32.Update(c, crc32.IEEETable, data)
	return crc32.Update(c, crc32.IEEETable, []byte{'}'})
}

// frame is the line (without "\n") holding data as line seq of a journal
// of the given version and run.
func frame(version, seq int, run string, data []byte) []byte {
	if version == 1 {
		b := fmt.Appendf(nil, `{"seq":%d,"crc32":%d,"data":`, seq, crc32.ChecksumIEEE(data))
		return append(append(b, data...), '}')
	}
	b := fmt.Appendf(nil, `{"seq":%d,"run":%q,"crc32":%d,"data":`, seq, run, checksum(version, seq, &run, data))
	return append(append(b, data...), '}')
}

// Writer appends records to a journal.
type Writer struct {
	f       file
	seq     int
	version int
	run     string
	path    string
	// size is the length of the journal's valid lines: a failed append
	// truncates the file back to it. err is set when that truncation
	// fails too; every later append then fails with it, so that no record
	// follows what it left (a torn line, which Open drops only at the end
	// of a file).
	size int64
	err  error
}

// file is what a Writer needs of its *os.File (a test substitutes a
// failing one).
type file interface {
	Write([]byte) (int, error)
	Sync() error
	Truncate(int64) error
	Seek(int64, int) (int64, error)
	Close() error
}

// Create starts a new journal at path (which must not exist) with the
// given kind and settings (any JSON-encodable value); its header records
// the running build (Code) and the environment that changes results
// (Env), and every line the run's identity
// (RunID(kind, settings)). A Create that fails after linking the header
// into place — flushing its directory (atomicfile.ErrDirSync: the header
// is in place, but may not survive a crash), opening or locking it for
// appending — removes it again, unless another Writer has opened it
// meanwhile (atomicfile.ErrLocked).
func Create(path, kind string, settings any) (*Writer, error) {
	return create(path, Version, kind, settings, Code(), Env())
}

func create(path string, version int, kind string, settings any, code string, env map[string]string) (*Writer, error) {
	s, err := json.Marshal(settings)
	if err != nil {
		return nil, fmt.Errorf("journal: settings: %w", err)
	}
	h, err := json.Marshal(Header{Format: Format, Version: version, Kind: kind, Settings: s, Code: code, Env: env})
	if err != nil {
		return nil, fmt.Errorf("journal: header: %w", err)
	}
	run := ""
	if version >= 2 {
		run = RunID(kind, s)
	}
	line := append(frame(version, 0, run, h), '\n')
	if len(line) > MaxLine {
		return nil, fmt.Errorf("journal: header of %d bytes exceeds %d", len(line), MaxLine)
	}
	// An error wrapping atomicfile.ErrDirSync comes after the header is
	// linked into place: the file is this Create's (the link was
	// exclusive), but a crash may lose it, and with it every record
	// appended. It is removed as on any failure below — once locked, so
	// that a Writer that opened it meanwhile keeps it. (It was returned
	// as any error, and the header left in place made the next Create
	// fail with fs.ErrExist.)
	cerr := createHeader(path, line, 0o644)
	placed := errors.Is(cerr, atomicfile.ErrDirSync)
	if cerr != nil && !placed {
		return nil, fmt.Errorf("journal: %w", cerr)
	}
	f, err := openAppend(path)
	if err != nil {
		if placed {
			err = fmt.Errorf("%w; opening it: %w", cerr, err)
		}
		return nil, removeCreated(path, err)
	}
	if err := atomicfile.LockFile(f, path); err != nil {
		f.Close()
		if errors.Is(err, atomicfile.ErrLocked) {
			// Another Writer opened the new journal first: it is
			// that Writer's now.
			return nil, fmt.Errorf("journal: %w", err)
		}
		return nil, removeCreated(path, err)
	}
	if placed {
		err := removeCreated(path, cerr)
		f.Close()
		return nil, err
	}
	return &Writer{f: f, seq: 1, version: version, run: run, path: path, size: int64(len(line))}, nil
}

// removeCreated removes the header-only journal at path that create
// linked into place before failing with err, so that a failed Create
// leaves no file that would make the next one fail (fs.ErrExist), and
// returns err.
func removeCreated(path string, err error) error {
	if rerr := os.Remove(path); rerr != nil {
		return fmt.Errorf("journal: %w (and removing the header-only %s: %v)", err, path, rerr)
	}
	return fmt.Errorf("journal: %w", err)
}

// createHeader is atomicfile.Create, which links create's header into
// place (a test substitutes one whose directory flush fails).
var createHeader = atomicfile.Create

// openAppend opens the journal create has just linked into place, for
// appending (a test substitutes a failing one).
var openAppend = func(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
}

// Open reads the journal at path (of the given kind), truncates a torn
// final line, and returns its contents and a Writer appending after them
// in the journal's own version. A path that is not a regular file (a
// FIFO, a device) is refused (ErrCorrupt).
func Open(path, kind string) (*Contents, *Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	return open(f, path, kind)
}

// OpenIn is Open for the journal name inside an output directory dir that
// the caller owns (perf table --out): a symbolic link there is refused,
// never followed (atomicfile.OpenIn), so that resuming cannot append to a
// file outside dir.
func OpenIn(dir, name, kind string) (*Contents, *Writer, error) {
	f, err := atomicfile.OpenIn(dir, name, os.O_RDWR)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	return open(f, filepath.Join(dir, name), kind)
}

func open(f *os.File, path, kind string) (*Contents, *Writer, error) {
	// A journal is a regular file: a FIFO, opened read-write, would have
	// this process as its writer, and reading it would wait forever for
	// an end of file; a device holds no journal.
	if st, err := f.Stat(); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("journal: %w", err)
	} else if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%w: %s is %s, not a regular file", ErrCorrupt, path, atomicfile.Kind(st.Mode()))
	}
	// Locked before it is read: another Writer's appends would race the
	// read and the truncation of a torn line.
	if err := atomicfile.LockFile(f, path); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	c, err := Read(f, path, kind)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if c.Torn {
		if err := f.Truncate(c.Valid); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("journal: dropping the torn line of %s: %w", path, err)
		}
	}
	if _, err := f.Seek(c.Valid, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	return c, &Writer{f: f, seq: len(c.Records) + 1, version: c.Header.Version, run: c.Run, path: path, size: c.Valid}, nil
}

// Append writes v (JSON-encodable) as the next record and flushes it to
// disk before returning. When the write or the flush fails (a full disk),
// the record is not journaled: Append cuts what it wrote and returns the
// error, and the Writer stays usable; if the cut fails too, this and every
// later Append return an error, and what was written stays last: a torn
// line, which Open drops, or (a failed flush of a whole line) a record
// that Open keeps.
func (w *Writer) Append(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("journal: record: %w", err)
	}
	return w.write(b)
}

func (w *Writer) write(data []byte) error {
	if !json.Valid(data) {
		return fmt.Errorf("journal: record is not valid JSON")
	}
	// The line is assembled by hand so that its data are exactly the bytes
	// the checksum covers (json.Marshal would re-compact a RawMessage).
	b := frame(w.version, w.seq, w.run, data)
	if len(b)+1 > MaxLine {
		return fmt.Errorf("journal: record of %d bytes exceeds %d", len(b), MaxLine)
	}
	if w.err != nil {
		return fmt.Errorf("journal: %s: not appending after a failed append that could not be cut: %w", w.path, w.err)
	}
	line := append(b, '\n')
	_, err := w.f.Write(line)
	if err == nil {
		err = w.f.Sync()
	}
	if err != nil {
		// A part of the line may be on disk (a full disk): cut it, so that
		// the next append (once there is room) starts a line of its own.
		// The caller takes the record as not journaled (the error).
		if terr := w.f.Truncate(w.size); terr != nil {
			w.err = err
		} else if _, serr := w.f.Seek(w.size, io.SeekStart); serr != nil {
			w.err = err
		}
		return fmt.Errorf("journal: %s: %w", w.path, err)
	}
	w.size += int64(len(line))
	w.seq++
	return nil
}

// Close closes the file, releasing its lock.
func (w *Writer) Close() error { return w.f.Close() }
