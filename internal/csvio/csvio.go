package csvio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/errclass"
)

// Error is a syntax or content error in a point file. Line and Col are
// 1-based; 0 means "not applicable" (Col is 0 for whole-row errors, both are
// 0 for whole-file errors).
type Error struct {
	File  string // the file's name as the caller spelled it
	Line  int    // 1-based line, 0 for a whole-file error
	Col   int    // 1-based field index, 0 for a whole-row error
	Msg   string // what is wrong, without the place
	empty bool
	err   error // what Msg says, when it is a sentinel (ErrNotFinite)
}

// Unwrap returns the sentinel the error stands for, if any.
func (e *Error) Unwrap() error { return e.err }

// ErrClass classifies every *Error as bad input (errclass.Input): a point
// file that cannot be read as one is the user's to fix.
func (e *Error) ErrClass() errclass.Class { return errclass.Input }

var _ errclass.Classifier = (*Error)(nil)

// ErrNotFinite is a field that parses as NaN or ±Inf: a point file holds
// finite numbers only (a *Error wraps it, naming the place).
var ErrNotFinite = errclass.New(errclass.Input, "not a finite number")

// IsEmpty reports whether err says a point file holds no rows (nothing but
// blank lines): an error where points are needed, zero rows for callers
// that accept none (perf suggest's history of a study that has not
// started).
func IsEmpty(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.empty
}

func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Col == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	default:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
}

// MaxLine caps the length in bytes of one line of a point file, whatever
// the memory budget: 64 MiB, far above the longest honest row (orbit.MaxDim
// = 65536 coordinates of at most 24 characters each), so that a stream
// without line ends (/dev/zero, a binary file) is refused after reading a
// bounded amount.
const MaxLine = 64 << 20

// Options select a variant of the dialect; the zero value is the strict
// one (no header), which ReadPoints and ParsePoints read.
type Options struct {
	// Header accepts a header row, as schedulers and spreadsheets write
	// one: the first non-blank line is skipped when none of its fields
	// looks like a number (each is non-empty, does not parse as a number
	// and does not start with a digit, a sign or a dot, also inside
	// double quotes: e.g. x1,x2,y or "x1","x2","y", but not "0.1","0.2",
	// a data row, which the dialect refuses),
	// and it must then have as many fields as the rows below it. A first
	// line with any numeric field is a data row, read and checked as
	// usual; a header-like row anywhere else is an error naming its line.
	// Line numbers in errors stay those of the file.
	Header bool
	// Budget is the memory budget in bytes that bounds reading (see
	// Parse); 0 means budget.Default (8 GiB), never the environment: perf
	// passes its --mem-budget.
	Budget int64
	// MaxRows, when positive, is the most data rows the file may hold:
	// the row after it is an error naming its line, before it is parsed,
	// so a file far longer than its reader can use is refused after
	// MaxRows rows, not read whole first.
	MaxRows int
}

// ReadPoints reads the point file at path in the strict dialect under the
// default budget; see ParsePoints and Options.Read.
func ReadPoints(path string) (*mat.Dense, error) { return Options{}.Read(path) }

// ParsePoints reads a point file in the strict dialect from r; see
// Options.Parse.
func ParsePoints(r io.Reader, name string) (*mat.Dense, error) { return Options{}.Parse(r, name) }

// Read reads the point file at path (a regular file, a pipe, a FIFO or a
// device such as /dev/stdin); see Parse. Errors name the file as path.
// A regular file is refused up front when its size alone exceeds what
// Parse would read.
func (o Options) Read(path string) (*mat.Dense, error) {
	m, _, err := o.ReadSkipped(path)
	return m, err
}

// ReadSkipped is Read that also returns the number of lines before the
// first data row: 1 when a header row was skipped (Options.Header), else
// 0. Blank lines may only trail, so row i of the matrix is line
// i + 1 + skipped of the file: what a caller that refuses a row after
// reading names it by.
//
// A regular file that changes while it is read (another process appending
// to it or rewriting it: its size or modification time differs after the
// read from before it, or the bytes read are not its size) is read again
// unless what was read ends in "\n" and the file still holds as many
// bytes (whole lines: rows appended meanwhile are left for the next
// read), up to ReadAttempts times in all, then refused (with the last
// read's error, if it had one): what was read may end in a line half
// written ("0.3,0.4,2" of "0.3,0.4,25"), which would parse.
func (o Options) ReadSkipped(path string) (*mat.Dense, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err // *fs.PathError: "open x.csv: no such file or directory"
	}
	defer f.Close()
	for attempt := 1; ; attempt++ {
		before, err := f.Stat()
		if err != nil || !before.Mode().IsRegular() {
			return o.parse(f, path)
		}
		if l := budget.Limit(o.Budget); !l.Fits(valueBytesPerTextByte * float64(before.Size())) {
			need := valueBytesPerTextByte * float64(before.Size())
			return nil, 0, &Error{File: path, Msg: fmt.Sprintf("a file of %s may hold %s of values, over the memory budget of %s (raise it with %s or --mem-budget)",
				budget.Format(float64(before.Size())), budget.Format(need), budget.Format(float64(l.Bytes())), budget.EnvVar)}
		}
		cr := &countingReader{r: f}
		m, skipped, perr := o.parse(cr, path)
		if testHookAfterRead != nil {
			testHookAfterRead(path)
		}
		after, err := f.Stat()
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", path, err)
		}
		// A parse error stops reading early: the bytes read then say
		// nothing; nor do they for a file of size 0 that is not empty
		// (those of /proc).
		if after.Size() == before.Size() && after.ModTime().Equal(before.ModTime()) && (perr != nil || before.Size() == 0 || cr.n == before.Size()) {
			return m, skipped, perr
		}
		// Changed, but what was read ends at a line's end and the file
		// still holds it: whole lines, rows appended while they were
		// read are the next reader's.
		if perr == nil && cr.last == '\n' && after.Size() >= cr.n {
			return m, skipped, nil
		}
		if attempt == ReadAttempts {
			if perr != nil {
				return nil, 0, perr
			}
			return nil, 0, &Error{File: path, Msg: fmt.Sprintf("the file changed while being read, %d times, its last line unfinished (another process writing it?): append whole lines in one write, or write the file elsewhere and rename it into place", ReadAttempts)}
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", path, err)
		}
	}
}

// ReadAttempts is how many times Read and ReadSkipped read a regular file
// that changes while it is read before they refuse it.
const ReadAttempts = 3

// testHookAfterRead, when set (by tests only), is called after each read
// of a regular file and before it is checked for a change.
var testHookAfterRead func(path string)

// countingReader counts the bytes read from r and keeps the last.
type countingReader struct {
	r    io.Reader
	n    int64
	last byte
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if n > 0 {
		c.last = p[n-1]
	}
	return n, err
}

// valueBytesPerTextByte bounds the memory a point file's text turns into:
// parsed, it holds at most one float64 (8 bytes) per 2 bytes of text
// ("0,"). Parse reads at most budget/4 bytes of any input, so a stream is
// held to the rule a regular file's size is checked against up front.
const valueBytesPerTextByte = 4

// CountRows returns the number of non-blank lines of the file at path,
// reading it in constant memory: an upper bound on the rows ReadPoints
// returns, so that callers can size what they will build from the points
// before parsing them. A file that cannot be read is an error; its
// content is not checked (ReadPoints does that). For a file that is not a
// regular one (a pipe, a FIFO, a device such as /dev/stdin) it returns
// -1 without opening it: counting would consume the stream that ReadPoints
// must read, or never end (/dev/zero); such input is bounded by
// ReadPoints itself.
func CountRows(path string) (int, error) {
	// Stat, not open: opening a FIFO takes its writer's data away.
	if st, err := os.Stat(path); err != nil {
		return 0, err
	} else if !st.Mode().IsRegular() {
		return -1, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	rows, blank := 0, true
	for {
		b, err := br.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		switch b {
		case '\n':
			if !blank {
				rows++
			}
			blank = true
		case ' ', '\t', '\r':
		default:
			blank = false
		}
	}
	if !blank {
		rows++
	}
	return rows, nil
}

// Parse reads a point file from r and returns it as an n×d matrix, one
// point per row. name is used in error messages only. Memory is bounded
// by the memory budget (o.Budget) whatever r is — a regular file,
// a pipe, a device that never ends: it reads at most budget/4 bytes (the
// values of a text hold at most 4 bytes per byte of it), buffers at most
// one line of at most MaxLine bytes, and stops with an error naming the
// line as soon as the line being read and the values so far (16 bytes a
// value, counting the slice's growth) would exceed the budget.
func (o Options) Parse(r io.Reader, name string) (*mat.Dense, error) {
	m, _, err := o.parse(r, name)
	return m, err
}

// parse is Parse that also returns the number of lines before the first
// data row (1 after a header row, else 0; see ReadSkipped).
func (o Options) parse(r io.Reader, name string) (*mat.Dense, int, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var (
		data      []float64
		cols      int
		rows      int
		lineNo    int
		blankLine int  // first blank line seen so far, 0 if none
		header    int  // the header's line, 0 if none
		seen      bool // a non-blank line was read
		read      int64
		buf       []byte // the line being read, reused
	)
	limit := budget.Limit(o.Budget).Bytes()
	overBudget := func(line int, what string, need float64) error {
		return &Error{File: name, Line: line, Msg: fmt.Sprintf("%s need %s, over the memory budget of %s (raise it with %s or --mem-budget)",
			what, budget.Format(need), budget.Format(float64(limit)), budget.EnvVar)}
	}
	// next reads one line into buf (without its "\n"); eof reports the
	// end of the input (buf may then hold a last line without "\n").
	next := func() (eof bool, err error) {
		buf = buf[:0]
		for {
			chunk, rerr := br.ReadSlice('\n')
			read += int64(len(chunk))
			if need := valueBytesPerTextByte * float64(read); need > float64(limit) {
				return false, overBudget(lineNo+1, fmt.Sprintf("the %s of text read up to this line may hold values that", budget.Format(float64(read))), need)
			}
			if len(buf)+len(chunk) > MaxLine+1 {
				return false, &Error{File: name, Line: lineNo + 1, Msg: fmt.Sprintf("line longer than %s (csvio.MaxLine; is this a point file?)", budget.Format(MaxLine))}
			}
			// The line buffer may double as it grows, and the line is
			// copied once into a string: count both with the values held
			// so far.
			if need := 16*float64(len(data)) + 3*float64(len(buf)+len(chunk)); need > float64(limit) {
				return false, overBudget(lineNo+1, "this line and the values before it", need)
			}
			buf = append(buf, chunk...)
			switch {
			case rerr == nil:
				buf = buf[:len(buf)-1]
				return false, nil
			case rerr == bufio.ErrBufferFull:
				continue
			case rerr == io.EOF:
				return true, nil
			default:
				return false, fmt.Errorf("%s: %w", name, rerr)
			}
		}
	}
	for {
		eof, err := next()
		if err != nil {
			return nil, 0, err
		}
		if eof && len(buf) == 0 {
			break
		}
		lineNo++
		line := buf
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			if blankLine == 0 {
				blankLine = lineNo
			}
		} else {
			if blankLine != 0 {
				return nil, 0, &Error{File: name, Line: blankLine, Msg: "blank line (allowed only at the end of the file)"}
			}
			// Blank lines may only trail, so the first data line is line 1
			// (line 2 after a header).
			nf := bytes.Count(line, []byte(",")) + 1
			switch {
			case !seen && o.Header && isHeader(line):
				header, cols = lineNo, nf
			case rows == 0 && header == 0:
				cols = nf
			case nf != cols:
				as := "as in line 1"
				if header != 0 {
					as = fmt.Sprintf("as in the header, line %d", header)
				}
				return nil, 0, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("row has %d fields, want %d (%s)", nf, cols, as) + dialectHint(line, false)}
			}
			first := !seen
			seen = true
			if header != lineNo && o.MaxRows > 0 && rows >= o.MaxRows {
				return nil, 0, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("more than %d rows", o.MaxRows)}
			}
			if header != lineNo {
				rest := string(line) // one copy; the fields are slices of it
				for j := range nf {
					var f string
					f, rest, _ = strings.Cut(rest, ",")
					v, err := parseField(f)
					if err != nil {
						return nil, 0, &Error{File: name, Line: lineNo, Col: j + 1, Msg: err.Error() + dialectHint(line, first && o.Header), err: errors.Unwrap(err)}
					}
					data = append(data, v)
				}
				rows++
			}
			// A stream (a pipe, stdin) has no size to check up front:
			// stop as soon as its values outgrow the memory budget.
			if need := 16 * float64(len(data)); need > float64(limit) {
				return nil, 0, overBudget(lineNo, "the values up to this line", need)
			}
		}
		if eof {
			break
		}
	}
	if rows == 0 {
		return nil, 0, &Error{File: name, Msg: "empty file", empty: true}
	}
	// Blank lines only trail, so a header is line 1: header counts the
	// lines before the first data row.
	return mat.NewDense(rows, cols, data), header, nil
}

// dialectHint returns advice, "; …", for a line that cannot be read
// when it looks written in another dialect, else "": semicolons between
// fields (a spreadsheet in a locale with decimal commas), quotes, tabs,
// NUL bytes (UTF-16), lone CRs between lines (old Mac line ends), a row
// of empty fields (a spreadsheet's empty row), or, when first says it is
// the first line of a file that may start with a header row, a line of
// names that isHeader refuses (a field empty or numeric: pandas' unnamed
// index column, a name such as "2y").
func dialectHint(line []byte, first bool) string {
	switch {
	case bytes.IndexByte(line, 0) >= 0:
		return "; the line holds NUL bytes: is the file UTF-16? save it as UTF-8"
	case bytes.IndexByte(line, ';') >= 0:
		return "; fields are separated by commas, not semicolons (export with ',' between fields and '.' before decimals)"
	case bytes.IndexByte(line, '"') >= 0:
		return "; fields are numbers without quotes"
	case tabInside(line):
		return "; fields are separated by commas, not tabs"
	case bytes.IndexByte(line, '\r') >= 0:
		return "; lines end in a lone CR (old Mac line ends): use LF or CRLF"
	case len(bytes.Trim(line, ", \t")) == 0:
		return "; every field of the row is empty (a spreadsheet's empty row?): delete the line"
	case !first:
		return ""
	}
	fields := bytes.Split(line, []byte(","))
	names, why := 0, ""
	for j, f := range fields {
		switch s := strings.TrimSpace(string(f)); {
		case s == "":
			if why == "" {
				why = fmt.Sprintf("field %d is empty", j+1)
			}
		case !isHeader([]byte(s)):
			if why == "" {
				why = fmt.Sprintf("field %d, %q, looks like a number", j+1, s)
			}
		default:
			names++
		}
	}
	if 2*names <= len(fields) {
		return "" // a data row with a typo, not a header
	}
	return "; line 1 is not read as a header row, whose fields must all be names: " + why
}

// tabInside reports whether a field of line holds a tab between other
// characters (tabs around a field are allowed).
func tabInside(line []byte) bool {
	for f := range bytes.SplitSeq(line, []byte(",")) {
		if bytes.IndexByte(bytes.TrimSpace(f), '\t') >= 0 {
			return true
		}
	}
	return false
}

// isHeader reports whether a line looks like a header row: every field is
// non-empty, does not start like a number (a digit, a sign, a dot) and
// does not parse as one ("nan" and "inf" do) — also inside double quotes,
// so that a row of quoted numbers ("0.1","0.2"), which the dialect does
// not read, is refused as data, not skipped as a header without a word.
func isHeader(line []byte) bool {
	for f := range bytes.SplitSeq(line, []byte(",")) {
		s := strings.TrimSpace(string(f))
		if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
			s = strings.TrimSpace(s[1 : len(s)-1])
		}
		if s == "" || strings.ContainsRune("0123456789+-.", rune(s[0])) {
			return false
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
			return false
		}
	}
	return true
}

// ErrEmptyField is a field with nothing but spaces in it (a *Error wraps
// it, naming the place): a spreadsheet's blank cell.
var ErrEmptyField = errclass.New(errclass.Input, "empty field")

func parseField(f string) (float64, error) {
	s := strings.TrimSpace(f)
	if s == "" {
		return 0, fmt.Errorf("%w", ErrEmptyField)
	}
	if strings.ContainsRune(s, '_') {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q is out of the float64 range", s)
		}
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is %w", s, ErrNotFinite)
	}
	return v, nil
}

// WritePoints writes x as a point file: one row per line, fields separated
// by commas, every float in shortest round-trip form
// (strconv.FormatFloat(v, 'g', -1, 64)). It returns an error for a
// non-finite entry (which ParsePoints would reject) before writing anything,
// or the first write error.
func WritePoints(w io.Writer, x mat.Matrix) error {
	r, c := x.Dims()
	for i := range r {
		for j := range c {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("csvio: entry (%d,%d) is %v, not finite", i, j, v)
			}
		}
	}
	bw := bufio.NewWriter(w)
	var buf []byte
	for i := range r {
		buf = buf[:0]
		for j := range c {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, x.At(i, j), 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("csvio: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("csvio: %w", err)
	}
	return nil
}
