package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// trace reads all tokens of r, calling More before each, and writes them
// one per line — delimiters, null, keys by their value, every other
// scalar as "scalar" (a frame per open container says whether it is an
// object expecting a key) — then the error that ended them: io.EOF or a
// message.
func trace(r Reader) string {
	type frame struct{ obj, wantKey bool }
	var b strings.Builder
	var stack []frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].obj {
			stack[n-1].wantKey = true
		}
	}
	for {
		fmt.Fprintf(&b, "more=%v ", r.More())
		v, err := r.Token()
		if err != nil {
			fmt.Fprintf(&b, "error %q\n", err.Error())
			// A second call returns the error again.
			if _, err2 := r.Token(); err2 == nil || err2.Error() != err.Error() {
				fmt.Fprintf(&b, "then %v\n", err2)
			}
			return b.String()
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
		if b.Len() > 1<<20 {
			return b.String() + "(cut)"
		}
	}
}

// decoderTrace is trace of encoding/json's Decoder of data, with UseNumber.
func decoderTrace(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return trace(dec)
}

// tokenizerSeeds hold every kind of token, escape and space, and the
// malformations a user's settings file has: a missing or extra comma,
// colon or quote, a bad literal, number or escape, a control character,
// a bracket of the wrong kind, a BOM, truncation.
var tokenizerSeeds = []string{
	`{"a":1,"b":[1,-2.5e+3,0.1E-2,true,false,null,"x:\"y\"",{"c":{}}],"d":{"e":[[],[null]]}}`,
	"{\"k\\u0065y\" :\t\"v\" ,\n\"\xc3\xa9\":\r[ 1 , 2 ],\"b\xffad\":{\"\":null},\"q\\\"\":\"a\\\\\"}",
	`[{"x":[0.5],"y":-1},{"x":[null],"y":"s"}]`, `"lone"`, `-0`, `null`, `{}`, `[]`, ``, ` `,
	`{"a" 1}`, `{"a":1 "b":2}`, `[1 2]`, `[1,]`, `{"a":1,}`, `{,}`, `[,]`, `{1:2}`, `{"a"::1}`, `[1:2]`,
	`{"a":tru}`, `[nul]`, `[fals`, `[01]`, `[-]`, `[1.]`, `[1.e3]`, `[1e]`, `[1e+]`, `[.5]`, `[+1]`, `[0x1]`,
	`["a\qb"]`, `["\u12g4"]`, "[\"a\tb\"]", `["abc`, `{"abc`, `{"a\`, `["\u12`, `[1]]`, `{"a":1}}`, `[}`, `{]`,
	`{"a":[1}`, `{"a":{]}`, `[1] x`, `1 2`, `{} {}`, "\xef\xbb\xbf{}", `'a'`, `{'a':1}`, `[NaN]`, `[Infinity]`,
	`{"a":1}/`, `[1,,2]`, `{"a":1,,"b":2}`, `[1;2]`, "[1,\x00]", `{"a":"b"c}`, `["a"b]`, `[truex]`, `[1-2]`,
	`[-01]`, `[1e5.5]`, `[1E-]`, `{"a":-}`, `"\ud800"`, `"\/\b\f\n\r\t"`, "\v1", `[[[[[[[[[[1]]]]]]]]]`,
}

// TestTokenizer: a Tokenizer reads what encoding/json's Decoder (with
// UseNumber) reads — the same tokens, More, and the same error message
// where it fails — on the seeds, each truncated at every byte and with
// every byte deleted or replaced, and with bytes inserted at every
// position.
func TestTokenizer(t *testing.T) {
	inserts := []string{"", " ", ",", ":", "[", "]", "{", "}", `"`, `\`, "x", "1", "-", ".", "e", "null", `"k":`, "\x01", "\xff"}
	checked := 0
	check := func(data []byte) {
		want := decoderTrace(data)
		if got := trace(NewTokenizer(data)); got != want {
			t.Fatalf("%q:\nTokenizer:\n%s\nDecoder:\n%s", data, got, want)
		}
		checked++
	}
	for _, s := range tokenizerSeeds {
		for i := 0; i <= len(s); i++ {
			check([]byte(s[:i]))
			for _, ins := range inserts {
				check([]byte(s[:i] + ins + s[i:]))
				if i < len(s) {
					check([]byte(s[:i] + ins + s[i+1:]))
				}
			}
		}
	}
	// Nesting past a word of the Tokenizer's stack, closed right or wrong.
	for _, n := range []int{63, 64, 65, 130} {
		for _, open := range []string{"[", "{\"a\":", "[{\"a\":"} {
			for _, tail := range []string{"", "]", "}", "]}", "}]", "1", "1]", "1}", "1]}", "1}]", "1,"} {
				in := strings.Repeat(open, n) + tail + strings.Repeat(tail, n)
				check([]byte(in))
				close := strings.NewReplacer("[", "]", "{\"a\":", "}", "[{\"a\":", "}]").Replace(open)
				check([]byte(strings.Repeat(open, n) + "1" + strings.Repeat(close, n) + tail))
			}
		}
	}
	t.Logf("%d documents", checked)
}

// FuzzTokenizer: on any data a Tokenizer reads what encoding/json's
// Decoder reads (see TestTokenizer).
func FuzzTokenizer(f *testing.F) {
	for _, s := range tokenizerSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want := decoderTrace(data)
		if got := trace(NewTokenizer(data)); got != want {
			t.Fatalf("%q:\nTokenizer:\n%s\nDecoder:\n%s", data, got, want)
		}
	})
}

// TestTokenizerAllocs: a Tokenizer reads a long malformed document —
// numbers, strings, objects with a plain and an escaped key, then a byte
// out of place — with as many allocations for 100000 elements as for
// 1000 (a Decoder makes several per token).
func TestTokenizerAllocs(t *testing.T) {
	if _, ok := NewTokenizer(nil).(*json.Decoder); ok {
		t.Skip("GOEXPERIMENT=jsonv2: NewTokenizer returns a Decoder")
	}
	doc := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString(`{"a":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `%d.5e-3,"s\n%d",{"k":true,"\u006b2":null}`, i, i)
		}
		b.WriteString(`],]`)
		return b.Bytes()
	}
	allocs := func(data []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			r := NewTokenizer(data)
			for {
				_, err := r.Token()
				if err == io.EOF {
					t.Fatal("no error")
				}
				if err != nil {
					break
				}
			}
		})
	}
	small, large := allocs(doc(1000)), allocs(doc(100000))
	t.Logf("%v allocations for 1000 elements, %v for 100000", small, large)
	// A few allocations of slack, as the race detector's build may make
	// (a Decoder made several per element).
	if large > small+8 || large > 40 {
		t.Errorf("%v allocations for 100000 elements, %v for 1000: want about as many, at most 40", large, small)
	}
}
