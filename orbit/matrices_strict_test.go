package orbit_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// TestReadMatricesStrictJSON: what encoding/json alone reads silently
// wrongly is refused — a key given twice (the last would win: a second
// "generators": [] drops the generators, the group becoming the trivial
// one), a key spelled in another case (matched case-insensitively), and
// null where a number goes (read as 0: [[null,1],[1,null]] would be the
// swap). The same files without the fault are read.
func TestReadMatricesStrictJSON(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{`{"dim": 2, "generators": [[[0,1],[1,0]]], "generators": []}`, `"generators" given twice`},
		{`{"dim": 2, "generators": [[[0,1],[1,0]]], "Generators": []}`, `"Generators"`},
		{`{"DIM": 2, "generators": [[[0,1],[1,0]]]}`, `"DIM"`},
		{`{"dim": 2, "generators": [[[null,1],[1,null]]]}`, `null`},
		{`{"dim": 2, "elements": [[[0,1],[1,0]], [[1,0],[0,null]]]}`, `null`},
		{`{"dim": null, "generators": [[[0,1],[1,0]]]}`, `null`},
		{`{"dim": 2, "generators": [null]}`, `null`},
	} {
		g, err := orbit.ReadMatrices(strings.NewReader(c.in))
		if err == nil {
			n, _ := orbit.Size(g)
			t.Errorf("ReadMatrices(%s) read a group of order %d; want an error", c.in, n)
			continue
		}
		if !errors.Is(err, orbit.ErrInvalid) || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "orbit: ") {
			t.Errorf("ReadMatrices(%s) error %q; want ErrInvalid naming %s", c.in, err, c.msg)
		}
	}
	for _, in := range []string{
		`{"dim": 2, "generators": [[[0,1],[1,0]]]}`,
		`{"dim": 2, "generators": [[[0,1],[1,0]]], "elements": null}`,
		`{"generators": [[[0,1],[1,0]]], "elements": [[[-1,0],[0,-1]]]}`,
	} {
		if _, err := orbit.ReadMatrices(strings.NewReader(in)); err != nil {
			t.Errorf("ReadMatrices(%s): %v", in, err)
		}
	}
}

// TestReadMatricesBOM: a UTF-8 byte-order mark before the JSON (Windows
// editors write one), which point files may carry too, is skipped; it
// was refused as "invalid character 'ï' looking for beginning of value".
func TestReadMatricesBOM(t *testing.T) {
	g, err := orbit.ReadMatrices(strings.NewReader("\ufeff" + `{"dim": 2, "generators": [[[0,1],[1,0]]]}`))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := orbit.Size(g); err != nil || n != 2 {
		t.Fatalf("order %d, %v; want 2", n, err)
	}
}

// TestReadMatricesNilReader: a nil reader, or a nil pointer of a reader
// type, is ErrInvalid; io.ReadAll dereferenced it.
func TestReadMatricesNilReader(t *testing.T) {
	for _, r := range []io.Reader{nil, (*strings.Reader)(nil), (*bytes.Buffer)(nil)} {
		if _, err := orbit.ReadMatrices(r); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("ReadMatrices(%T): %v, want ErrInvalid", r, err)
		}
	}
}

// TestReadMatricesAllocs: ReadMatrices' allocations do not grow with the
// number of entries (its strictness check read every number through
// encoding/json's Decoder.Token, several allocations each: 42 million for
// 16 MiB of numbers, docs/performance.md, "Reading a matrix group's
// JSON"); encoding/json's buffer and the decoded slices grow by doubling.
func TestReadMatricesAllocs(t *testing.T) {
	row := func(n int) string { // one row of n entries: refused after the check
		return `{"generators": [[[` + strings.TrimSuffix(strings.Repeat("0,", n), ",") + `]]]}`
	}
	allocs := func(in string) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := orbit.ReadMatrices(strings.NewReader(in)); !errors.Is(err, orbit.ErrInvalid) || !strings.Contains(err.Error(), "entries, want 1") {
				t.Fatalf("error %v, want ErrInvalid for the row's length", err)
			}
		})
	}
	small, large := allocs(row(1000)), allocs(row(16000))
	t.Logf("a row of 1000 entries: %v allocations; 16000: %v", small, large)
	if large-small > 40 {
		t.Errorf("ReadMatrices of 16000 entries made %v allocations, %v more than of 1000: want fewer than 40 more", large, large-small)
	}
}
