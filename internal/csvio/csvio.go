package csvio

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/symbo/symbo/internal/budget"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Error is a syntax or content error in a point file. Line and Col are
// 1-based; 0 means "not applicable" (Col is 0 for whole-row errors, both are
// 0 for whole-file errors).
type Error struct {
	File  string
	Line  int
	Col   int
	Msg   string
	empty bool
}

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

// ReadPoints reads the point file at path; see ParsePoints. Errors name the
// file as path.
func ReadPoints(path string) (*mat.Dense, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // *fs.PathError: "open x.csv: no such file or directory"
	}
	defer f.Close()
	// Parsed, a file holds at most one float64 (8 bytes) per 2 bytes of
	// text ("0,"): refuse up front a file whose values may not fit the
	// memory budget.
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if need := 4 * float64(st.Size()); !budget.Fits(need) {
			return nil, &Error{File: path, Msg: fmt.Sprintf("a file of %s may hold %s of values, over the memory budget of %s (raise it with %s or --mem-budget)",
				budget.Format(float64(st.Size())), budget.Format(need), budget.Format(float64(budget.Limit())), budget.EnvVar)}
		}
	}
	return ParsePoints(f, path)
}

// CountRows returns the number of non-blank lines of the file at path,
// reading it in constant memory: an upper bound on the rows ReadPoints
// returns, so that callers can size what they will build from the points
// before parsing them. A file that cannot be read is an error; its
// content is not checked (ReadPoints does that).
func CountRows(path string) (int, error) {
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

// ParsePoints reads a point file from r and returns it as an n×d matrix, one
// point per row. name is used in error messages only. It stops with an
// error once the values read need more than the memory budget
// (internal/budget; 16 bytes per value, counting the slice's growth).
func ParsePoints(r io.Reader, name string) (*mat.Dense, error) {
	br := bufio.NewReader(r)
	var (
		data      []float64
		cols      int
		rows      int
		lineNo    int
		blankLine int // first blank line seen so far, 0 if none
	)
	for {
		line, readErr := br.ReadString('\n')
		if readErr != nil && readErr != io.EOF {
			return nil, fmt.Errorf("%s: %w", name, readErr)
		}
		if line == "" && readErr == io.EOF {
			break
		}
		lineNo++
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) == "" {
			if blankLine == 0 {
				blankLine = lineNo
			}
		} else {
			if blankLine != 0 {
				return nil, &Error{File: name, Line: blankLine, Msg: "blank line (allowed only at the end of the file)"}
			}
			// Blank lines may only trail, so the first data line is line 1.
			fields := strings.Split(line, ",")
			if rows == 0 {
				cols = len(fields)
			} else if len(fields) != cols {
				return nil, &Error{File: name, Line: lineNo,
					Msg: fmt.Sprintf("row has %d fields, want %d (as in line 1)", len(fields), cols)}
			}
			for j, f := range fields {
				v, err := parseField(f)
				if err != nil {
					return nil, &Error{File: name, Line: lineNo, Col: j + 1, Msg: err.Error()}
				}
				data = append(data, v)
			}
			rows++
			// A stream (a pipe, stdin) has no size to check up front:
			// stop as soon as its values outgrow the memory budget.
			if need := 16 * float64(len(data)); !budget.Fits(need) {
				return nil, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("the values up to this line need %s (with room to grow), over the memory budget of %s (raise it with %s or --mem-budget)",
					budget.Format(need), budget.Format(float64(budget.Limit())), budget.EnvVar)}
			}
		}
		if readErr == io.EOF {
			break
		}
	}
	if rows == 0 {
		return nil, &Error{File: name, Msg: "empty file", empty: true}
	}
	return mat.NewDense(rows, cols, data), nil
}

var errEmptyField = errors.New("empty field")

func parseField(f string) (float64, error) {
	s := strings.TrimSpace(f)
	if s == "" {
		return 0, errEmptyField
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
		return 0, fmt.Errorf("%q is not a finite number", s)
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
