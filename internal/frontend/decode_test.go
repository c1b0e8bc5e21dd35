package frontend

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/jsonscan"
)

// TestDecodeAllocs: Decode's allocations do not grow with the number of
// elements in a list (the key check made a path string per element and
// read each number through encoding/json's tokenizer, some ten
// allocations per number: 44 MiB for a 1 MiB string, docs/performance.md,
// "Settings strings past capi's bound"). What grows is encoding/json's
// buffer and the decoded slices, by doubling.
func TestDecodeAllocs(t *testing.T) {
	box := func(n int) []byte {
		xs := strings.TrimSuffix(strings.Repeat("0.25,", n), ",")
		return []byte(`{"group":"scaling","box":[[` + xs + `],[` + xs + `]]}`)
	}
	hist := func(n int) []byte {
		obs := strings.TrimSuffix(strings.Repeat(`{"x":[0.5,0.25],"y":1},`, n), ",")
		return []byte(`{"version":2,"seed":1,"kernel":"plus","dim":2,"minimize":true,"observations":[` + obs + `]}`)
	}
	allocs := func(data []byte, v func() any) float64 {
		return testing.AllocsPerRun(5, func() {
			if err := Decode(data, v()); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(box(1000), func() any { return new(SuggestSettings) }), allocs(box(16000), func() any { return new(SuggestSettings) })
	t.Logf("box of 2×1000 numbers: %v allocations; 2×16000: %v", small, large)
	if large-small > 40 {
		t.Errorf("Decode of 2×16000 numbers made %v allocations, %v more than of 2×1000: want fewer than 40 more", large, large-small)
	}
	// A history's observations: encoding/json allocates each x; the key
	// check a map of seen keys per object, no more.
	small, large = allocs(hist(100), func() any { return new(bo.History) }), allocs(hist(1600), func() any { return new(bo.History) })
	t.Logf("history of 100 observations: %v allocations; 1600: %v", small, large)
	if per := (large - small) / 1500; per > 2.5 {
		t.Errorf("Decode of a history made %.1f allocations per observation: want at most 2.5", per)
	}
}

// TestDecodeTokenPaths: on valid JSON the key check reads the same
// through a jsonscan.Scanner as through encoding/json's tokenizer (which Decode
// uses for the rest), error for error: the fuzz seeds, with null, keys
// and values inserted at every position where the result is valid JSON.
func TestDecodeTokenPaths(t *testing.T) {
	seeds := append(append([]string{}, fuzzSettings...), fuzzSpecs...)
	seeds = append(seeds,
		`{"version":2,"seed":1,"kernel":"plus","dim":1,"minimize":true,"observations":[{"x":[0.5],"y":-1}],"failed":[[0.25]],"pending":[[1,2]]}`,
		"{\"gr\\u006fup\" : \"signflip\",\n\t\"d\":2,\r\"box\":[[-1 , 1] ,[1]],\"k\\\"\":\"a\\\"\"}",
		"{\"group\":\"sign\xffflip\",\"gr\xc3\xa9\":[{\"\":{}}],\"box\":[[true],[false,\"x\",{\"a\":[]}]]}",
	)
	inserts := []string{"null", "1", `"x"`, `{}`, `[]`, `{"y":1}`, `[null]`, `"box":null,`, `"d":null,`, `"x":1,`, `"":1,`, `"Y":2,`, `"y":2,`, `"observations":[{"x":[1]}],`, `"Box":[[1]],`, `"group":"a",`}
	checked := 0
	for _, s := range seeds {
		for i := 0; i <= len(s); i++ {
			for _, ins := range inserts {
				data := []byte(s[:i] + ins + s[i:])
				if !json.Valid(data) {
					continue
				}
				for _, v := range []any{new(SuggestSettings), new(KernelSpec), new(bo.History)} {
					typ := reflect.TypeOf(v).Elem()
					ck := keyChecker{fields: map[reflect.Type]map[string]reflect.Type{}}
					fast := ck.check(jsonscan.New(data), typ)
					ck = keyChecker{fields: map[reflect.Type]map[string]reflect.Type{}}
					slow := ck.checkTokens(data, typ)
					if fmt.Sprint(fast) != fmt.Sprint(slow) {
						t.Fatalf("%s into %v: jsonscan %v; encoding/json's tokenizer %v", data, typ, fast, slow)
					}
					checked++
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("%d cases checked: the seeds or inserts lost their valid cases", checked)
	}
	t.Logf("%d cases", checked)
}

// TestDecodeMalformedMessages: on malformed data the key check through a
// jsonscan.Tokenizer — Decode's first pass for data json.Valid refuses —
// gives the errors it gave through encoding/json's tokenizer, message
// for message: the fuzz seeds and a history, each truncated at every
// byte and with every byte deleted, replaced or preceded by a byte of
// JSON's syntax or a malformed token, decoded as settings, kernel spec
// and history.
func TestDecodeMalformedMessages(t *testing.T) {
	seeds := append(append([]string{}, fuzzSettings...), fuzzSpecs...)
	seeds = append(seeds,
		`{"version":2,"seed":1,"kernel":"plus","dim":1,"minimize":true,"observations":[{"x":[0.5],"y":-1}],"failed":[[0.25]],"pending":[[1,2]]}`,
		"{\"gr\\u006fup\" : \"signflip\",\n\t\"d\":2,\r\"box\":[[-1 , 1] ,[1]],\"k\\\"\":\"a\\\"\"}",
	)
	replace, insert := []string{"", "]", `"`, "x"}, []string{",", "}", "\\q", "1."}
	types := []reflect.Type{reflect.TypeFor[SuggestSettings](), reflect.TypeFor[KernelSpec](), reflect.TypeFor[bo.History]()}
	checked, malformed := 0, 0
	check := func(data []byte) {
		if json.Valid(data) {
			return // TestDecodeTokenPaths
		}
		malformed++
		for _, typ := range types {
			ck := keyChecker{fields: map[reflect.Type]map[string]reflect.Type{}}
			got := ck.checkTokens(data, typ)
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			ck = keyChecker{fields: map[reflect.Type]map[string]reflect.Type{}}
			want := ck.checkTokensOf(dec, data, typ)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%q into %v: through the Tokenizer %v; through encoding/json's tokenizer %v", data, typ, got, want)
			}
			checked++
		}
	}
	for _, s := range seeds {
		for i := 0; i <= len(s); i++ {
			check([]byte(s[:i]))
			for k := range replace {
				if i < len(s) {
					check([]byte(s[:i] + replace[k] + s[i+1:]))
				}
				check([]byte(s[:i] + insert[k] + s[i:]))
			}
		}
	}
	if malformed < 20000 {
		t.Fatalf("%d malformed cases: the seeds or edits lost them", malformed)
	}
	t.Logf("%d cases, %d documents malformed", checked, malformed)
}

// TestDecodeMalformedAllocs: Decode refuses a malformed 1 MiB settings
// string — a long valid list, then a byte out of place — with a bounded
// number of allocations, as many as for a short one. Through
// encoding/json's tokenizer it made 1.5 million (24 MiB, some 24 bytes
// per input byte).
func TestDecodeMalformedAllocs(t *testing.T) {
	if _, ok := jsonscan.NewTokenizer(nil).(*json.Decoder); ok {
		t.Skip("GOEXPERIMENT=jsonv2: the key check reads through encoding/json's Decoder")
	}
	box := func(size int) []byte {
		xs := strings.TrimSuffix(strings.Repeat("0.25,", size/10), ",")
		return []byte(`{"group":"scaling","box":[[` + xs + `],[` + xs + `]x}`)
	}
	allocs := func(data []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			var st SuggestSettings
			if err := Decode(data, &st); err == nil || !strings.Contains(err.Error(), "invalid character 'x' after array element") {
				t.Fatalf("Decode: %v", err)
			}
		})
	}
	small, large := allocs(box(1<<10)), allocs(box(1<<20))
	t.Logf("%v allocations for 1 KiB, %v for 1 MiB", small, large)
	// A few allocations of slack: the race detector's build makes 45 and
	// 48 (the old tokenizer 1.5 million).
	if large > small+8 || large > 100 {
		t.Errorf("Decode of 1 MiB of malformed settings made %v allocations, of 1 KiB %v: want as many, at most 100", large, small)
	}
}

// TestDecodeBOM: settings saved by a Windows editor, a UTF-8 byte order
// mark first, decode as the same settings without it; the message of
// anything malformed after it is as without it; a second mark, or one
// after space, is refused as before. The mark alone was refused as
// "malformed JSON: invalid character 'ï' looking for beginning of value".
func TestDecodeBOM(t *testing.T) {
	const bom = "\ufeff"
	settings := `{"group":"signflip","d":2,"box":[[-1],[1]],"kernel":"plus","seed":3}` + "\r\n"
	var want, got SuggestSettings
	if err := Decode([]byte(settings), &want); err != nil {
		t.Fatal(err)
	}
	if err := Decode([]byte(bom+settings), &got); err != nil {
		t.Fatalf("with a BOM: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with a BOM: %+v; without: %+v", got, want)
	}
	var h bo.History
	if err := Decode([]byte(bom+`{"version":2,"seed":1,"kernel":"plus","dim":1,"minimize":true,"observations":[{"x":[0.5],"y":-1}]}`), &h); err != nil || len(h.Observations) != 1 {
		t.Errorf("a history with a BOM: %v", err)
	}
	for _, s := range []string{``, ` `, `{"group":"signflip",}`, `{"Group":"signflip"}`, `{"box":[[1]] x`, `[1] 2`, `{"d":null}`} {
		for _, v := range []any{new(SuggestSettings), new(KernelSpec), new(bo.History)} {
			plain, marked := Decode([]byte(s), v), Decode([]byte(bom+s), v)
			if fmt.Sprint(marked) != fmt.Sprint(plain) {
				t.Errorf("%q into %T: with a BOM %v; without %v", s, v, marked, plain)
			}
		}
	}
	for _, s := range []string{bom + bom + "{}", " " + bom + "{}", `{"group":` + bom + `"signflip"}`} {
		if err := Decode([]byte(s), new(SuggestSettings)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "malformed JSON") {
			t.Errorf("%q: %v; want malformed JSON", s, err)
		}
	}
}
