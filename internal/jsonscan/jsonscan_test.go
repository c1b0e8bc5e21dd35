package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// describe is trace(r) for input json.Valid accepts: a failed test if
// anything but io.EOF ended the tokens. Its lines tell a Decoder's keys
// from its string values (a Scanner's keys are its only strings).
func describe(t *testing.T, r Reader) string {
	s := trace(r)
	if !strings.HasSuffix(s, "error \"EOF\"\n") {
		t.Fatalf("tokens of valid input ended other than by io.EOF:\n%s", s)
	}
	return s
}

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
				want := describe(t, dec)
				sc := New(data)
				got := describe(t, sc)
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
		want := describe(t, dec)
		sc := New(data)
		if got := describe(t, sc); got != want {
			t.Fatalf("%q:\nScanner:\n%s\nDecoder:\n%s", data, got, want)
		}
	})
}
