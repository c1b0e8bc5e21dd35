package csvio

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/budget"
)

func TestParsePointsValid(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want [][]float64
	}{
		{"single value no newline", "1.5", [][]float64{{1.5}}},
		{"single value newline", "1.5\n", [][]float64{{1.5}}},
		{"two rows", "1,2,3\n4,5,6\n", [][]float64{{1, 2, 3}, {4, 5, 6}}},
		{"spaces and tabs", " 1 ,\t2\t\n  -3,  4e-2  \n", [][]float64{{1, 2}, {-3, 0.04}}},
		{"crlf", "1,2\r\n3,4\r\n", [][]float64{{1, 2}, {3, 4}}},
		{"trailing blank lines", "1,2\n3,4\n\n \n\t\n", [][]float64{{1, 2}, {3, 4}}},
		{"bom", "\ufeff7,8\n", [][]float64{{7, 8}}},
		{"signs exponents", "+1,-0,1E3,-2.5e-3\n", [][]float64{{1, math.Copysign(0, -1), 1000, -0.0025}}},
		{"hex float", "0x1p-2\n", [][]float64{{0.25}}},
		{"subnormal", "5e-324\n", [][]float64{{5e-324}}},
		{"max float", "1.7976931348623157e308\n", [][]float64{{math.MaxFloat64}}},
		{"leading dot", ".5,-.25\n", [][]float64{{0.5, -0.25}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParsePoints(strings.NewReader(tc.in), "pts.csv")
			if err != nil {
				t.Fatalf("ParsePoints(%q): %v", tc.in, err)
			}
			r, c := got.Dims()
			if r != len(tc.want) || c != len(tc.want[0]) {
				t.Fatalf("dims %d×%d, want %d×%d", r, c, len(tc.want), len(tc.want[0]))
			}
			for i, row := range tc.want {
				for j, w := range row {
					if g := got.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
						t.Errorf("(%d,%d) = %v, want %v", i, j, g, w)
					}
				}
			}
		})
	}
}

func TestParsePointsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want string // the full error text
	}{
		{"empty", "", "pts.csv: empty file"},
		{"only newline", "\n", "pts.csv: empty file"},
		{"only blanks", " \n\t\r\n\n", "pts.csv: empty file"},
		{"not a number", "1,2\n3,4\n5,abc\n", `pts.csv:3:2: "abc" is not a number`},
		{"not a number first", "x\n", `pts.csv:1:1: "x" is not a number`},
		{"trimmed in message", "1, 2 x ,3\n", `pts.csv:1:2: "2 x" is not a number`},
		{"ragged longer", "1,2\n3,4,5\n", "pts.csv:2: row has 3 fields, want 2 (as in line 1)"},
		{"ragged shorter", "1,2,3\n4,5,6\n7,8\n", "pts.csv:3: row has 2 fields, want 3 (as in line 1)"},
		{"trailing comma", "1,2,\n", "pts.csv:1:3: empty field"},
		{"empty middle field", "1,,2\n", "pts.csv:1:2: empty field"},
		{"blank field only spaces", "1,  \n", "pts.csv:1:2: empty field"},
		{"nan", "1,NaN\n", `pts.csv:1:2: "NaN" is not a finite number`},
		{"nan lower", "nan,1\n", `pts.csv:1:1: "nan" is not a finite number`},
		{"inf", "1\n+Inf\n", `pts.csv:2:1: "+Inf" is not a finite number`},
		{"infinity", "-infinity\n", `pts.csv:1:1: "-infinity" is not a finite number`},
		{"overflow", "1e400\n", `pts.csv:1:1: "1e400" is out of the float64 range`},
		{"underscore", "1_000\n", `pts.csv:1:1: "1_000" is not a number`},
		{"blank line in middle", "1\n\n2\n", "pts.csv:2: blank line (allowed only at the end of the file)"},
		{"blank line at start", "\n1\n", "pts.csv:1: blank line (allowed only at the end of the file)"},
		{"semicolon separated", "1;2\n", `pts.csv:1:1: "1;2" is not a number; fields are separated by commas, not semicolons (export with ',' between fields and '.' before decimals)`},
		{"semicolons decimal commas", "1\n1,5;2\n", `pts.csv:2: row has 2 fields, want 1 (as in line 1); fields are separated by commas, not semicolons (export with ',' between fields and '.' before decimals)`},
		{"quoted", "\"0.5\",1\n", `pts.csv:1:1: "\"0.5\"" is not a number; fields are numbers without quotes`},
		{"quoted decimal comma", "\"0,5\",1\n", `pts.csv:1:1: "\"0" is not a number; fields are numbers without quotes`},
		{"spreadsheet empty rows", "1,2,3\r\n,,\r\n,,\r\n", "pts.csv:2:1: empty field; every field of the row is empty (a spreadsheet's empty row?): delete the line"},
		{"spreadsheet empty row wider", "1,2\n, ,,\n", "pts.csv:2: row has 4 fields, want 2 (as in line 1); every field of the row is empty (a spreadsheet's empty row?): delete the line"},
		{"tab separated", "1\t2\n", `pts.csv:1:1: "1\t2" is not a number; fields are separated by commas, not tabs`},
		{"utf-16", "\xff\xfe1\x00,\x002\x00\n\x00", `pts.csv:1:1: "\xff\xfe1\x00" is not a number; the line holds NUL bytes: is the file UTF-16? save it as UTF-8`},
		{"lone CRs", "1,2\r3,4\r", `pts.csv:1:2: "2\r3" is not a number; lines end in a lone CR (old Mac line ends): use LF or CRLF`},
		{"header", "x,y\n1,2\n", `pts.csv:1:1: "x" is not a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParsePoints(strings.NewReader(tc.in), "pts.csv")
			if err == nil {
				t.Fatalf("ParsePoints(%q) = %v, want error %q", tc.in, got, tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("ParsePoints(%q) error\n got %q\nwant %q", tc.in, err, tc.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %T is not *Error", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q spans several lines", err)
			}
		})
	}
}

type failingReader struct{ n int }

var errBroken = errors.New("broken pipe")

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		r.n++
		return copy(p, "1,2\n"), nil
	}
	return 0, errBroken
}

func TestParsePointsReadError(t *testing.T) {
	_, err := ParsePoints(&failingReader{}, "in.csv")
	if !errors.Is(err, errBroken) {
		t.Fatalf("err = %v, want wrapping %v", err, errBroken)
	}
	if !strings.HasPrefix(err.Error(), "in.csv: ") {
		t.Errorf("err = %q, want the file name first", err)
	}
}

func TestParsePointsLongLine(t *testing.T) {
	// Far beyond bufio.Scanner's default 64 KiB token limit.
	const d = 20000
	fields := make([]string, d)
	for j := range fields {
		fields[j] = "0.123456789"
	}
	in := strings.Join(fields, ",") + "\n"
	x, err := ParsePoints(strings.NewReader(in), "wide.csv")
	if err != nil {
		t.Fatal(err)
	}
	if r, c := x.Dims(); r != 1 || c != d {
		t.Fatalf("dims %d×%d, want 1×%d", r, c, d)
	}
}

func TestReadPoints(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	if err := os.WriteFile(good, []byte("1,2\n3,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := ReadPoints(good)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(x, mat.NewDense(2, 2, []float64{1, 2, 3, 4})) {
		t.Errorf("got %v", mat.Formatted(x))
	}

	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("1,2\n3,abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadPoints(bad)
	if want := bad + `:2:2: "abc" is not a number`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}

	_, err = ReadPoints(filepath.Join(dir, "missing.csv"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want fs.ErrNotExist", err)
	}

	empty := filepath.Join(dir, "x.csv")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadPoints(empty)
	if want := empty + ": empty file"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestWritePointsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 0))
	special := []float64{0, math.Copysign(0, -1), 5e-324, math.SmallestNonzeroFloat64 * 3,
		math.MaxFloat64, -math.MaxFloat64, 0.1, 1.0 / 3, 1e21, 1e-7, 123456789012345678}
	for _, shape := range [][2]int{{1, 1}, {1, 8}, {7, 3}, {65, 5}} {
		n, d := shape[0], shape[1]
		x := mat.NewDense(n, d, nil)
		for i := range n {
			for j := range d {
				k := i*d + j
				if k < len(special) {
					x.Set(i, j, special[k])
				} else {
					// Random bit patterns cover every exponent.
					for {
						v := math.Float64frombits(rng.Uint64())
						if !math.IsNaN(v) && !math.IsInf(v, 0) {
							x.Set(i, j, v)
							break
						}
					}
				}
			}
		}
		var buf bytes.Buffer
		if err := WritePoints(&buf, x); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(buf.String(), "\n"); got != n {
			t.Errorf("%d×%d: %d lines, want %d", n, d, got, n)
		}
		y, err := ParsePoints(&buf, "rt.csv")
		if err != nil {
			t.Fatalf("%d×%d: %v", n, d, err)
		}
		for i := range n {
			for j := range d {
				if a, b := x.At(i, j), y.At(i, j); math.Float64bits(a) != math.Float64bits(b) {
					t.Errorf("%d×%d: (%d,%d) %v read back as %v", n, d, i, j, a, b)
				}
			}
		}
	}
}

func TestWritePointsFormat(t *testing.T) {
	var buf bytes.Buffer
	x := mat.NewDense(2, 3, []float64{0.1, -2, 1e-7, 1e21, 0.5, 3})
	if err := WritePoints(&buf, x); err != nil {
		t.Fatal(err)
	}
	if want := "0.1,-2,1e-07\n1e+21,0.5,3\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

func TestWritePointsRejectsNonFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		var buf bytes.Buffer
		x := mat.NewDense(2, 1, []float64{1, v})
		if err := WritePoints(&buf, x); err == nil {
			t.Errorf("WritePoints with %v: no error", v)
		}
		if buf.Len() != 0 {
			t.Errorf("WritePoints with %v wrote %q", v, buf.String())
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errBroken }

func TestWritePointsWriteError(t *testing.T) {
	x := mat.NewDense(1, 1, []float64{1})
	if err := WritePoints(failingWriter{}, x); !errors.Is(err, errBroken) {
		t.Errorf("err = %v, want wrapping %v", err, errBroken)
	}
}

// TestParsePointsBudget: a stream (no file size to check up front) is
// refused once its values outgrow the memory budget (Options.Budget),
// instead of being read to the end; a regular file whose size alone
// exceeds it is refused before reading. The default budget (0) reads both,
// whatever SYMBO_MEMORY_BUDGET says.
func TestParsePointsBudget(t *testing.T) {
	t.Setenv(budget.EnvVar, "1KiB")
	small := Options{Budget: 1 << 16}
	text := strings.Repeat("1,2,3,4\n", 1<<12)
	r := io.MultiReader(strings.NewReader(text), strings.NewReader("oops\n"))
	_, err := small.Parse(r, "pipe")
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "memory budget") || e.Line >= 1<<12 {
		t.Fatalf("error %v, want a memory-budget error before the end", err)
	}
	if _, err := small.Parse(strings.NewReader(strings.Repeat("1,2,3,4\n", 100)), "small"); err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePoints(strings.NewReader(text), "default"); err != nil {
		t.Errorf("default budget: %v", err)
	}
	p := filepath.Join(t.TempDir(), "big.csv") // 32 KiB of text, 128 KiB of values at most
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := small.Read(p); !errors.As(err, &e) || e.Line != 0 || !strings.Contains(err.Error(), "a file of 32 KiB may hold 128 KiB of values, over the memory budget of 64 KiB") {
		t.Errorf("regular file over the budget: %v", err)
	}
	if _, err := ReadPoints(p); err != nil {
		t.Errorf("regular file, default budget: %v", err)
	}
}

func TestCountRows(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0}, {"\n\n", 0}, {"1,2\n3,4\n", 2}, {"1,2\r\n3,4", 2}, {"1,2\n\n \t\n3,4\n\n", 2}, {"x", 1},
	} {
		p := filepath.Join(t.TempDir(), "c.csv")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if n, err := CountRows(p); err != nil || n != c.want {
			t.Errorf("CountRows(%q) = %d, %v, want %d", c.text, n, err, c.want)
		}
	}
	if _, err := CountRows(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing file: no error")
	}
}

// endless is a stream that never ends (/dev/zero, `yes`): it repeats
// pattern and counts the bytes read; past max it fails, so that a reader
// that does not bound what it reads fails the test instead of hanging.
type endless struct {
	pattern []byte
	read    int
	max     int
	block   []byte // the pattern repeated, and once more
}

var errExhausted = errors.New("test stream exhausted: the reader did not stop")

func (e *endless) Read(p []byte) (int, error) {
	if e.read >= e.max {
		return 0, errExhausted
	}
	if e.block == nil {
		e.block = bytes.Repeat(e.pattern, (1<<16)/len(e.pattern)+1)
	}
	off := e.read % len(e.pattern)
	n := copy(p[:min(len(p), e.max-e.read)], e.block[off:off+(1<<16)/len(e.pattern)*len(e.pattern)])
	e.read += n
	return n, nil
}

// TestParseBoundedStream: a stream without a size — a pipe, a FIFO, a
// device such as /dev/zero — is refused with a budget error naming the
// line after reading at most budget/4 bytes (the rule a regular file's
// size is held to), whatever its lines look like: one endless line of
// NULs or of values, endless blank lines, endless short rows. With the
// default budget a line without end stops at MaxLine. Memory stays
// within the budget. Before, a line was buffered whole (ReadString):
// `head -c 400000000 /dev/zero | perf suggest --history /dev/stdin
// --mem-budget 50MiB` reached 3.6 GB.
func TestParseBoundedStream(t *testing.T) {
	const limit = 4 << 20
	for _, tc := range []struct {
		name    string
		pattern string
		want    string
	}{
		{"zeros", "\x00", "pipe:1: the 1.06 MiB of text read up to this line may hold values that need 4.25 MiB, over the memory budget of 4 MiB"},
		{"one long row", "1,", ":1: "},
		{"blank lines", "\n", "memory budget of 4 MiB"},
		{"short rows", "1,2\n", "memory budget of 4 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &endless{pattern: []byte(tc.pattern), max: 64 * limit}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Options{Budget: limit}.Parse(s, "pipe")
			runtime.ReadMemStats(&after)
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), "memory budget") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a memory-budget error containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q spans several lines", err)
			}
			if s.read > limit/4+1<<16 {
				t.Errorf("read %d bytes, want at most budget/4 = %d (and one buffer)", s.read, limit/4)
			}
			// Garbage included (the values' slice grows by doubling).
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*limit {
				t.Errorf("allocated %d bytes in all, over 4 times the budget of %d", alloc, limit)
			}
		})
	}
	t.Run("MaxLine", func(t *testing.T) {
		s := &endless{pattern: []byte("\x00"), max: 2 * MaxLine}
		_, err := ParsePoints(s, "dev")
		if err == nil || !strings.Contains(err.Error(), "dev:1: line longer than 64 MiB") {
			t.Fatalf("error %v, want a MaxLine error", err)
		}
		if s.read > MaxLine+1<<17 {
			t.Errorf("read %d bytes, want at most MaxLine = %d", s.read, MaxLine)
		}
	})
}

// TestReadPointsDevice: ReadPoints bounds what it reads from a device
// that never ends, as from a stream, and CountRows does not read (nor
// consume) a file that is not regular.
func TestReadPointsDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := Options{Budget: 1 << 20}.Read("/dev/zero")
	if err == nil || !strings.Contains(err.Error(), "/dev/zero:1: ") || !strings.Contains(err.Error(), "memory budget") {
		t.Fatalf("error %v, want a budget error naming /dev/zero:1", err)
	}
	if n, err := CountRows("/dev/zero"); n != -1 || err != nil {
		t.Errorf("CountRows(/dev/zero) = %d, %v, want -1 (not counted)", n, err)
	}
}

// TestParseHeader: with Options.Header a first row none of whose fields
// looks like a number is skipped (line numbers stay the file's); a row
// with any numeric field is data, and its errors name the row; a header
// elsewhere, or one whose width differs from the rows', is an error; the
// strict dialect refuses every header.
func TestParseHeader(t *testing.T) {
	h := Options{Header: true}
	for _, tc := range []struct {
		name string
		in   string
		want [][]float64
		err  string
	}{
		{"header", "x1,x2,y\n1,2,3\n4,5,6\n", [][]float64{{1, 2, 3}, {4, 5, 6}}, ""},
		{"header bom crlf spaces", "\ufeff x1 , x2 \r\n1,2\r\n", [][]float64{{1, 2}}, ""},
		{"quoted names", "\"x\",\"y\"\n1,2\n", [][]float64{{1, 2}}, ""},
		// Quoted numbers, which the dialect does not read, are data (its
		// error says so), not a header skipped without a word.
		{"quoted numbers are data", "\"0.1\",\"0.2\"\n", nil, `h.csv:1:1: "\"0.1\"" is not a number; fields are numbers without quotes`},
		{"quoted numbers then rows", "\"1\",\"2\"\n3,4\n", nil, `h.csv:1:1: "\"1\"" is not a number; fields are numbers without quotes`},
		{"quoted nan is data", "\"x\",\" nan \"\n3,4\n", nil, `h.csv:1:1: "\"x\"" is not a number; fields are numbers without quotes`},
		{"no header", "1,2\n3,4\n", [][]float64{{1, 2}, {3, 4}}, ""},
		{"header only", "x,y\n", nil, "h.csv: empty file"},
		{"header then blank", "x,y\n\n", nil, "h.csv: empty file"},
		{"mixed first row is data", "x1,2,y\n1,2,3\n", nil, `h.csv:1:1: "x1" is not a number; line 1 is not read as a header row, whose fields must all be names: field 2, "2", looks like a number`},
		{"pandas index column", ",x1,y\n0,1,2\n", nil, `h.csv:1:1: empty field; line 1 is not read as a header row, whose fields must all be names: field 1 is empty`},
		{"name like a number", "x1,x2,2y\n1,2,3\n", nil, `h.csv:1:1: "x1" is not a number; line 1 is not read as a header row, whose fields must all be names: field 3, "2y", looks like a number`},
		{"typo in a first data row", "1,abc,3\n1,2,3\n", nil, `h.csv:1:2: "abc" is not a number`},
		{"semicolon header", "x;y\n1,5;2\n", nil, `h.csv:2: row has 2 fields, want 1 (as in the header, line 1); fields are separated by commas, not semicolons (export with ',' between fields and '.' before decimals)`},
		{"nan first row is data", "nan,inf\n1,2\n", nil, `h.csv:1:1: "nan" is not a finite number`},
		{"underscored numbers are data", "1_0,2_0\n", nil, `h.csv:1:1: "1_0" is not a number`},
		{"signed names are data", "-x,+y\n1,2\n", nil, `h.csv:1:1: "-x" is not a number`},
		{"empty name is data", "x,,y\n1,2,3\n", nil, `h.csv:1:1: "x" is not a number; line 1 is not read as a header row, whose fields must all be names: field 2 is empty`},
		{"second header", "x,y\n1,2\nx,y\n", nil, `h.csv:3:1: "x" is not a number`},
		{"bad row after header", "x,y\n1,2\n3,abc\n", nil, `h.csv:3:2: "abc" is not a number`},
		{"header wider", "x,y,z\n1,2\n", nil, "h.csv:2: row has 2 fields, want 3 (as in the header, line 1)"},
		{"blank before header", "\nx,y\n1,2\n", nil, "h.csv:1: blank line (allowed only at the end of the file)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := h.Parse(strings.NewReader(tc.in), "h.csv")
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				if tc.err == "h.csv: empty file" && !IsEmpty(err) {
					t.Errorf("IsEmpty(%v) = false", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(got, mat.NewDense(len(tc.want), len(tc.want[0]), slices.Concat(tc.want...))) {
				t.Errorf("got %v, want %v", mat.Formatted(got), tc.want)
			}
			if _, err := ParsePoints(strings.NewReader(tc.in), "h.csv"); tc.in[0] != '1' && err == nil {
				t.Errorf("strict dialect accepted %q", tc.in)
			}
		})
	}
}

// TestMaxRows: a file with more data rows than MaxRows is refused at the
// first row past it (a header does not count), and one with exactly
// MaxRows is read whole.
func TestMaxRows(t *testing.T) {
	o := Options{Header: true, MaxRows: 2}
	m, err := o.Parse(strings.NewReader("x,y\n1,2\n3,4\n"), "ok.csv")
	if err != nil || m.RawMatrix().Rows != 2 {
		t.Fatalf("two rows: %v", err)
	}
	_, err = o.Parse(strings.NewReader("x,y\n1,2\n3,4\n5,6\n7,8\n"), "long.csv")
	var e *Error
	if !errors.As(err, &e) || e.Line != 4 || !strings.Contains(e.Msg, "more than 2 rows") {
		t.Fatalf("three rows: %v, want line 4: more than 2 rows", err)
	}
}

// TestReadChangingFile: a file another process writes while it is read
// is read again when what was read ends in a line unfinished, once it
// holds still, and refused when it never does: the read that ended in
// the half of a line ("0.3,0.4,2" of "0.3,0.4,25") is not returned. Rows
// appended whole while the file is read are left for the next read.
func TestReadChangingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.csv")
	if err := os.WriteFile(path, []byte("x,y,z\n0.1,0.2,1\n0.3,0.4,2"), 0o644); err != nil {
		t.Fatal(err)
	}
	appendTo := func(s string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	reads := 0
	testHookAfterRead = func(string) {
		if reads++; reads == 1 {
			appendTo("5\n") // the writer finishes its line
		}
	}
	defer func() { testHookAfterRead = nil }()
	m, skipped, err := Options{Header: true}.ReadSkipped(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.At(1, 2); got != 25 || skipped != 1 || reads != 2 {
		t.Errorf("y = %v, skipped %d, after %d reads; want 25, 1, 2", got, skipped, reads)
	}

	// Whole rows appended during each read: the rows read are kept.
	reads = 0
	testHookAfterRead = func(string) { reads++; appendTo("0.5,0.6,3\n") }
	m, _, err = Options{Header: true}.ReadSkipped(path)
	if r, _ := m.Dims(); err != nil || r != 2 || reads != 1 {
		t.Errorf("rows appended whole: %d rows, err %v, after %d reads; want 2, nil, 1", r, err, reads)
	}

	// A line still being written at every read: refused.
	appendTo("0.7,0.8,1")
	reads = 0
	testHookAfterRead = func(string) { reads++; appendTo("1") }
	_, _, err = Options{Header: true}.ReadSkipped(path)
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "changed while being read") || reads != ReadAttempts {
		t.Errorf("a file that never holds still: err = %v after %d reads, want an *Error after %d", err, reads, ReadAttempts)
	}
}
