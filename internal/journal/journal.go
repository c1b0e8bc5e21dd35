// Package journal keeps the finished units of a long run (evaluations of a
// BO run, runs of an experiment) in an append-only file of JSON lines, each
// flushed to disk (fsync) as it is written, so that an interrupted run —
// Ctrl-C, kill -9, a crash, a full disk — can resume from what it kept.
//
// # Format (version 1)
//
// Line 1 is the header, every later line a record; each line is
//
//	{"seq":N,"crc32":C,"data":D}
//
// where N is 0 for the header and 1, 2, … for the records in order, D is
// any JSON value (the header's is {"format":"symbo-journal","version":1,
// "kind":K,"settings":S,"code":B}, B the build that created it, see Code),
// and C is the IEEE CRC-32 of the bytes of D as written. Lines end in "\n".
//
// # Invariants
//
//   - The journal comes into existence whole: Create writes the header to a
//     temporary file, fsyncs it and links it into place (internal/atomicfile),
//     so a crash at any moment leaves no journal or one with its header.
//   - A line is appended with one write and then fsync'd.
//   - Reading accepts only a well-formed file: every line parses with
//     exactly these fields, its checksum matches and its sequence number is
//     the next one. A final line without its "\n" is a torn write (the
//     process died while appending): Read drops it and reports it, and Open
//     truncates it away before appending again. Anything else — a
//     corrupted, reordered, duplicated or missing line anywhere, a torn
//     line followed by others — is an error naming file:line. Nothing is
//     skipped silently.
//
// # Concurrency
//
// A Writer is not safe for concurrent use; one process appends to a journal
// at a time (callers serialize their appends).
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime/debug"

	"github.com/symbo/symbo/internal/atomicfile"
)

// Format and Version identify the file format.
const (
	Format  = "symbo-journal"
	Version = 1
)

// MaxLine caps the length of one line (a record), so that reading a damaged
// file cannot exhaust memory.
const MaxLine = 64 << 20

// ErrCorrupt reports a journal that is not a well-formed version-1 journal
// of the expected kind.
var ErrCorrupt = errors.New("journal: corrupt")

// Header is the first line's data.
type Header struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Kind     string          `json:"kind"`
	Settings json.RawMessage `json:"settings"`
	// Code identifies the build that created the journal (see Code);
	// empty in journals written before it was recorded.
	Code string `json:"code,omitempty"`
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
	CRC32 uint32          `json:"crc32"`
	Data  json.RawMessage `json:"data"`
}

// Contents is what Read found.
type Contents struct {
	Header  Header
	Records []json.RawMessage
	// Torn reports a final line cut short by an interrupted write, which
	// was dropped; Valid is the length in bytes of the well-formed prefix.
	Torn  bool
	Valid int64
}

// Read parses a journal; name labels errors. It fails (ErrCorrupt) unless
// the header's format, version and kind match (kind "" accepts any).
func Read(r io.Reader, name, kind string) (*Contents, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	c := &Contents{}
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
			c.Torn = true
			break
		}
		data, perr := parseLine(raw[:len(raw)-1], n-1)
		if perr != nil {
			return nil, fmt.Errorf("%w: %s:%d: %v", ErrCorrupt, name, n, perr)
		}
		if n == 1 {
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&c.Header); err != nil {
				return nil, fmt.Errorf("%w: %s:1: header: %v", ErrCorrupt, name, err)
			}
			if canon, err := json.Marshal(c.Header); err != nil || !bytes.Equal(canon, data) {
				return nil, fmt.Errorf("%w: %s:1: header not in the canonical form this package writes", ErrCorrupt, name)
			}
			switch h := c.Header; {
			case h.Format != Format:
				return nil, fmt.Errorf("%w: %s: not a symbo journal (format %q)", ErrCorrupt, name, h.Format)
			case h.Version != Version:
				return nil, fmt.Errorf("%w: %s: journal version %d, this build reads %d", ErrCorrupt, name, h.Version, Version)
			case kind != "" && h.Kind != kind:
				return nil, fmt.Errorf("%w: %s: a journal of %q, not %q", ErrCorrupt, name, h.Kind, kind)
			}
		} else {
			c.Records = append(c.Records, data)
		}
		c.Valid += int64(len(raw))
	}
	if c.Valid == 0 {
		return nil, fmt.Errorf("%w: %s: empty file", ErrCorrupt, name)
	}
	return c, nil
}

var errLong = errors.New("line too long")

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

// parseLine checks one line (without its "\n") and returns its data.
func parseLine(b []byte, seq int) (json.RawMessage, error) {
	var l line
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("not a journal line: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the line's JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the line's JSON object")
	}
	if l.Data == nil {
		return nil, fmt.Errorf("no data")
	}
	if l.Seq != seq {
		return nil, fmt.Errorf("sequence number %d, want %d (a line is missing, repeated or out of order)", l.Seq, seq)
	}
	if got := crc32.ChecksumIEEE(l.Data); got != l.CRC32 {
		return nil, fmt.Errorf("checksum %08x, the data's is %08x", l.CRC32, got)
	}
	if !bytes.Equal(b, frame(seq, l.Data)) {
		return nil, fmt.Errorf("not in the canonical form this package writes")
	}
	return l.Data, nil
}

// frame is the line (without "\n") holding data as record seq.
func frame(seq int, data []byte) []byte {
	b := fmt.Appendf(nil, `{"seq":%d,"crc32":%d,"data":`, seq, crc32.ChecksumIEEE(data))
	return append(append(b, data...), '}')
}

// Writer appends records to a journal.
type Writer struct {
	f    *os.File
	seq  int
	path string
}

// Create starts a new journal at path (which must not exist) with the
// given kind and settings (any JSON-encodable value); its header records
// the running build (Code).
func Create(path, kind string, settings any) (*Writer, error) {
	return create(path, kind, settings, Code())
}

func create(path, kind string, settings any, code string) (*Writer, error) {
	s, err := json.Marshal(settings)
	if err != nil {
		return nil, fmt.Errorf("journal: settings: %w", err)
	}
	h, err := json.Marshal(Header{Format: Format, Version: Version, Kind: kind, Settings: s, Code: code})
	if err != nil {
		return nil, fmt.Errorf("journal: header: %w", err)
	}
	line := append(frame(0, h), '\n')
	if len(line) > MaxLine {
		return nil, fmt.Errorf("journal: header of %d bytes exceeds %d", len(line), MaxLine)
	}
	if err := atomicfile.Create(path, line, 0o644); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Writer{f: f, seq: 1, path: path}, nil
}

// Open reads the journal at path (of the given kind), truncates a torn
// final line, and returns its contents and a Writer appending after them.
func Open(path, kind string) (*Contents, *Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
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
	return c, &Writer{f: f, seq: len(c.Records) + 1, path: path}, nil
}

// Append writes v (JSON-encodable) as the next record and flushes it to
// disk before returning.
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
	b := frame(w.seq, data)
	if len(b)+1 > MaxLine {
		return fmt.Errorf("journal: record of %d bytes exceeds %d", len(b), MaxLine)
	}
	if _, err := w.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("journal: %s: %w", w.path, err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("journal: %s: %w", w.path, err)
	}
	w.seq++
	return nil
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }
