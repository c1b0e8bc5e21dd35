package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
)

// describe reads all tokens, calling more before each, and writes them
// one per line: delimiters, null, keys by their value, every other
// scalar as "scalar". A frame per open container says whether it is an
// object expecting a key, which tells a Decoder's keys from its string
// values (a Scanner's keys are its only strings).
func describe(t *testing.T, tok func() (json.Token, error), more func() bool) string {
	type frame struct{ obj, wantKey bool }
	var b bytes.Buffer
	var stack []frame
	valueDone := func() { // a value ended: an object wants its next key
		if n := len(stack); n > 0 && stack[n-1].obj {
			stack[n-1].wantKey = true
		}
	}
	for {
		fmt.Fprintf(&b, "more=%v ", more())
		v, err := tok()
		if err == io.EOF {
			return b.String()
		}
		if err != nil {
			t.Fatalf("token: %v", err)
		}
		switch v := v.(type) {
		case json.Delim:
			b.WriteString(v.String())
			switch v {
			case '{', '[':
				stack = append(stack, frame{obj: v == '{', wantKey: v == '{'})
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case nil:
			b.WriteString("null")
			valueDone()
		case string:
			if n := len(stack); n > 0 && stack[n-1].wantKey {
				fmt.Fprintf(&b, "key %q", v)
				stack[n-1].wantKey = false
				break
			}
			b.WriteString("scalar")
			valueDone()
		default:
			b.WriteString("scalar")
			valueDone()
		}
		b.WriteByte('\n')
	}
}

// TestScanner: on valid JSON a Scanner returns encoding/json's Decoder's
// tokens — delimiters, nulls and keys equal, other scalars as Scalar —
// and its More agrees, on documents with escapes, non-ASCII and invalid
// UTF-8 in keys, strings holding ':' and '"', numbers of every form and
// every kind of space, with values inserted at every position.
func TestScanner(t *testing.T) {
	seeds := []string{
		`{"a":1,"b":[1,-2.5e+3,0.1E-2,true,false,null,"x:\"y\"",{"c":{}}],"d":{"e":[[],[null]]}}`,
		"{\"k\\u0065y\" :\t\"v\" ,\n\"\xc3\xa9\":\r[ 1 , 2 ],\"b\xffad\":{\"\":null},\"q\\\"\":\"a\\\\\"}",
		`[{"x":[0.5],"y":-1},{"x":[null],"y":"s"}]`, `"lone"`, `-0`, `null`, `{}`, `[]`,
	}
	inserts := []string{"null", "1", `"s"`, `{}`, `[]`, `{"k":null}`, `"k":1,`, `"z":"w",`, ` `, `[1,{"a":[]}],`}
	checked := 0
	for _, s := range seeds {
		for i := 0; i <= len(s); i++ {
			for _, ins := range inserts {
				data := []byte(s[:i] + ins + s[i:])
				if !json.Valid(data) {
					continue
				}
				dec := json.NewDecoder(bytes.NewReader(data))
				want := describe(t, dec.Token, dec.More)
				sc := New(data)
				got := describe(t, sc.Token, sc.More)
				if got != want {
					t.Fatalf("%s:\nScanner:\n%s\nDecoder:\n%s", data, got, want)
				}
				checked++
			}
		}
	}
	if checked < 400 {
		t.Fatalf("%d documents checked: the seeds lost their valid variants", checked)
	}
	t.Logf("%d documents", checked)
}

// FuzzScanner: on any input json.Valid accepts, a Scanner's tokens and
// More agree with encoding/json's Decoder's (as describe writes them);
// invalid inputs are never given to a Scanner (its contract).
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[1,-2.5e+3,0.1E-2,true,false,null,"x:\"y\"",{"c":{}}],"d":{"e":[[],[null]]}}`,
		"{\"k\\u0065y\" :\t\"v\" ,\n\"\xc3\xa9\":\r[ 1 , 2 ],\"b\xffad\":{\"\":null},\"q\\\"\":\"a\\\\\"}",
		`[{"x":[0.5],"y":-1},{"x":[null],"y":"s"}]`, `"lone"`, `-0`, `null`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber() // as its users' Decoders: a number beyond float64 is a scalar, not an error
		want := describe(t, dec.Token, dec.More)
		sc := New(data)
		if got := describe(t, sc.Token, sc.More); got != want {
			t.Fatalf("%q:\nScanner:\n%s\nDecoder:\n%s", data, got, want)
		}
	})
}
