package frontend

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/jsonscan"
)

// Decode parses JSON data into v, a pointer to a settings record (a struct,
// possibly holding slices, maps and structs), strictly — every failure
// wraps ErrInvalid:
//
//   - object keys must equal a field's JSON name exactly (encoding/json
//     alone matches them case-insensitively: "GROUP" would set group);
//   - a key given twice in one object is refused (encoding/json keeps the
//     last);
//   - unknown keys are refused, at every nesting level;
//   - data after the JSON value is refused;
//   - null where a number goes (a field or an element of a non-pointer
//     number type) is refused, naming the place: encoding/json would read
//     it as 0 (a history's "y": null as y = 0). A pointer (*float64) is
//     where null means absent;
//   - a field of requiredFields missing from its object is refused (a
//     history's observation without "y" would be y = 0; a history without
//     "observations" an empty one), and so is one that is null, or null
//     where a record with required fields goes (an observation null).
//
// A UTF-8 byte order mark (EF BB BF) at the start of data, which Windows
// editors such as Notepad write, is skipped, as orbit.ReadMatrices and
// perf's CSV point files skip it (RFC 8259 §8.1 lets a parser ignore
// one): the rest decodes, or fails with the same error, as without it.
// One anywhere else is malformed JSON, as any byte outside a string.
//
// The keys are checked by a first pass over the tokens against v's type,
// before encoding/json decodes the value (which then reports type errors).
// Data json.Valid accepts is read by a jsonscan.Scanner, which allocates
// nothing per number or element; other data by a jsonscan.Tokenizer,
// which does not either and whose errors are those of encoding/json's
// tokenizer (Decoder.Token), which the messages quote (the Decoder
// allocated several times per token: docs/performance.md, "Settings
// strings past capi's bound"). On valid data the two give the same
// errors (TestDecodeTokenPaths); on malformed data the Tokenizer gives
// the Decoder's (TestDecodeMalformedMessages), at the cost of a few
// allocations in all.
func Decode(data []byte, v any) error {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		panic("frontend: Decode needs a pointer")
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	ck := keyChecker{fields: map[reflect.Type]map[string]reflect.Type{}}
	if json.Valid(data) {
		// One value, nothing after it, no tokenizer error to quote.
		if err := ck.check(jsonscan.New(data), t.Elem()); err != nil {
			if ck.missing == "" {
				return err
			}
			// A field found missing at its object's end may follow a
			// value of the wrong type ({"x": "0.1,0.2"} without "y"),
			// which the key check does not look at: that is named too,
			// first, rather than "y is missing" alone.
			if msg, ok := decodeValue(data, reflect.New(t.Elem()).Interface()); ok {
				return invalid("%s; and %s", msg, ck.missing)
			}
			return err
		}
	} else if err := ck.checkTokens(data, t.Elem()); err != nil {
		return err
	}
	if msg, _ := decodeValue(data, v); msg != "" {
		return invalid("%s", msg)
	}
	return nil
}

// decodeValue decodes data, valid JSON whose keys were checked, into v
// with encoding/json: "" if it succeeds, else what failed, with ok true
// when it is a value of the wrong type (typeMismatch, at its place).
func decodeValue(data []byte, v any) (msg string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return "", false
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// The offset is just past a refused scalar, or a refused
		// array's or object's opening bracket: the bracket's place.
		off := te.Offset
		if te.Value == "array" || te.Value == "object" {
			off--
		}
		return typeMismatch(te, pathAt(data, off)), true
	}
	return err.Error(), false
}

// utf8BOM is the UTF-8 byte order mark, U+FEFF encoded, which Decode
// skips at the start of data.
var utf8BOM = []byte("\ufeff")

// checkTokens runs the key check over data through a jsonscan.Tokenizer,
// which says what is malformed in encoding/json's tokenizer's words, and
// refuses data after the value.
func (ck *keyChecker) checkTokens(data []byte, t reflect.Type) error {
	return ck.checkTokensOf(jsonscan.NewTokenizer(data), data, t)
}

// checkTokensOf is checkTokens reading data's tokens from dec.
func (ck *keyChecker) checkTokensOf(dec tokenReader, data []byte, t reflect.Type) error {
	if err := ck.check(dec, t); err != nil {
		if errors.Is(err, ErrInvalid) {
			return err
		}
		if err == io.EOF {
			if len(bytes.TrimSpace(data)) == 0 {
				return invalid("malformed JSON: no value")
			}
			return invalid("malformed JSON: unexpected end of input")
		}
		return invalid("malformed JSON: %v", err) // the tokenizer's errors
	}
	if _, err := dec.Token(); err != io.EOF {
		return invalid("data after the JSON value")
	}
	return nil
}

// typeMismatch says in the user's words what encoding/json's type error
// says in Go's ("cannot unmarshal number into Go struct field
// SuggestSettings.Group.box of type []float64"): the key, what the JSON
// holds there, and what it takes — a setting's values from the settings
// table, else the shape of the Go type.
//
// place, when not empty, is where in the JSON the value is
// ("observations[3].y", pathAt): the message names it rather than the
// key alone ("y" of which of a thousand observations?), but for a
// setting of the table, whose values it quotes.
func typeMismatch(te *json.UnmarshalTypeError, place string) string {
	key := te.Field
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		key = key[i+1:]
	}

	got := "a JSON " + te.Value
	if num, ok := strings.CutPrefix(te.Value, "number "); ok {
		got = "the number " + num
		if k := te.Type.Kind(); k == reflect.Float64 || k == reflect.Float32 {
			got += ", which is not a finite number"
		}
		got += beyondRange(num, te.Type)
	}
	want := ""
	for _, s := range Settings {
		if s.Key == key {
			want = s.Values
		}
	}
	name := key
	if want == "" {
		want = jsonShape(te.Type)
		// The place is taken when it ends with the key, or an element
		// of it (a type's own UnmarshalJSON may give an offset of its
		// own input); a setting's values describe the whole of it, so
		// it keeps its key.
		if k := strings.TrimRight(place, "0123456789[]"); key != "" && (k == key || strings.HasSuffix(k, "."+key)) {
			name = place
		}
	}
	if key == "" {
		return fmt.Sprintf("got %s where %s goes", got, want)
	}
	return fmt.Sprintf("%q: got %s; want %s", name, got, want)
}

// pathAt returns the place ("observations[3].x[1]", as the key check
// names it) of the last value of data, valid JSON, that starts at or
// before byte off: encoding/json's type errors give the offset just past
// the value they refuse, and the field's key path without the indices.
// "" when there is none (off before the first value). It reads only up
// to off, on the error path alone.
func pathAt(data []byte, off int64) string {
	type frame struct {
		obj bool
		idx int
		key string
	}
	var st []frame
	var path []byte
	last := ""
	s := jsonscan.New(bytes.TrimPrefix(data, utf8BOM))
	skipped := int64(len(data) - len(bytes.TrimPrefix(data, utf8BOM)))
	for int64(s.Offset())+skipped <= off {
		tok, err := s.Token()
		if err != nil {
			break
		}
		switch tok := tok.(type) {
		case string: // a key
			if n := len(st); n > 0 {
				st[n-1].key = tok
			}
			continue
		case json.Delim:
			if tok == '}' || tok == ']' {
				if len(st) > 0 {
					st = st[:len(st)-1]
				}
				if n := len(st); n > 0 && !st[n-1].obj {
					st[n-1].idx++
				}
				continue
			}
		}
		path = path[:0]
		for _, f := range st {
			if f.obj {
				if len(path) > 0 {
					path = append(path, '.')
				}
				path = append(path, f.key...)
			} else {
				path = append(path, '[')
				path = strconv.AppendInt(path, int64(f.idx), 10)
				path = append(path, ']')
			}
		}
		last = string(path)
		if d, ok := tok.(json.Delim); ok {
			st = append(st, frame{obj: d == '{'})
		} else if n := len(st); n > 0 && !st[n-1].obj {
			st[n-1].idx++
		}
	}
	return last
}

// beyondRange says why an integer num did not fit the integer type t,
// when it has the sign t wants but not its size (", above the largest it
// can hold (18446744073709551615)"): the settings table's "an integer
// ≥ 0" alone would contradict a seed of 2⁶⁴. Empty otherwise (a fraction,
// a negative number for an unsigned type: the wanted values say it).
func beyondRange(num string, t reflect.Type) string {
	// Compared as floats of 256 bits, exact for these bounds: converting
	// a number such as 1e600000000 to a big.Int would allocate 250 MB.
	v, ok := new(big.Float).SetPrec(256).SetString(num)
	if !ok || !v.IsInt() {
		return ""
	}
	var lo, hi *big.Int
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		hi = new(big.Int).Lsh(big.NewInt(1), uint(t.Bits()-1))
		lo = new(big.Int).Neg(hi)
		hi.Sub(hi, big.NewInt(1))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		hi = new(big.Int).Lsh(big.NewInt(1), uint(t.Bits()))
		hi.Sub(hi, big.NewInt(1))
	default:
		return ""
	}
	switch {
	case v.Cmp(new(big.Float).SetInt(hi)) > 0:
		return fmt.Sprintf(", above the largest it can hold (%s)", hi)
	case lo != nil && v.Cmp(new(big.Float).SetInt(lo)) < 0:
		return fmt.Sprintf(", below the smallest it can hold (%s)", lo)
	}
	return ""
}

// jsonShape names the JSON that decodes into t: "a number", "a list of
// numbers", "a string", …
func jsonShape(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonShape(t.Elem())
	case reflect.Slice, reflect.Array:
		return "a list of " + strings.TrimPrefix(strings.TrimPrefix(jsonShape(t.Elem()), "a "), "an ") + "s"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer ≥ 0"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

// tokenReader is what the key check reads: encoding/json's Decoder, or
// a jsonscan.Scanner.
type tokenReader interface {
	Token() (json.Token, error)
	More() bool
}

// keyChecker checks the keys of one JSON value (Decode). path is the
// place being read ("observations[3].x"), built in place and made a string
// only for an error (a string per element made the check's allocations
// grow with every number). fields caches jsonFields per struct type, for
// the call: a history holds many observations.
type keyChecker struct {
	path   []byte
	fields map[reflect.Type]map[string]reflect.Type
	// required: the value check reads next is a field of
	// requiredFields (check clears it).
	required bool
	// missing: the message of a required field found missing, the
	// check's error (Decode then looks for a value of the wrong type).
	missing string
}

// at returns the path with name appended as a key ("name" alone at the
// top level).
func (ck *keyChecker) at(name string) string {
	if len(ck.path) == 0 {
		return name
	}
	return string(ck.path) + "." + name
}

// check reads one JSON value from dec and checks the keys of every
// object in it against the type t it decodes into (see Decode). Values
// of another shape than t's are skipped: encoding/json reports them.
// The recursion follows t, whose nesting is fixed, never the data's.
func (ck *keyChecker) check(dec tokenReader, t reflect.Type) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	required := ck.required
	ck.required = false
	if tok == nil && isNumber(t) {
		if len(ck.path) == 0 {
			return invalid("null where a number goes")
		}
		return invalid("%s is null: want a number (a missing number is not 0)", ck.path)
	}
	if tok == nil && len(ck.path) > 0 && (required || requiredFields[t] != nil) {
		// A required field null, or null where a record with required
		// fields goes, is as good as missing: encoding/json left its zero
		// (a history's "minimize": null matched an optimizer that
		// maximizes, an observation null or "x": null read as a point of
		// no coordinates).
		return invalid("%s is null: want %s", ck.path, jsonShape(t))
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch tok {
	case json.Delim('{'):
		var fields map[string]reflect.Type
		switch t.Kind() {
		case reflect.Struct:
			if fields = ck.fields[t]; fields == nil {
				fields = jsonFields(t)
				ck.fields[t] = fields
			}
		case reflect.Map:
		default:
			return skipValue(dec, 1)
		}
		seen := map[string]bool{}
		n := len(ck.path)
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			key := kt.(string)
			if seen[key] {
				return invalid("duplicate field %q", ck.at(key))
			}
			seen[key] = true
			var ft reflect.Type
			if fields == nil {
				ft = t.Elem() // a map's values
			} else {
				var ok bool
				if ft, ok = fields[key]; !ok {
					return unknownField(ck.at(key), key, fields)
				}
			}
			if n > 0 {
				ck.path = append(ck.path, '.')
			}
			ck.path = append(ck.path, key...)
			ck.required = fields != nil && slices.Contains(requiredFields[t], key)
			if err := ck.check(dec, ft); err != nil {
				return err
			}
			ck.path = ck.path[:n]
		}
		for _, name := range requiredFields[t] {
			if !seen[name] {
				ck.missing = ck.at(name) + " is missing"
				if fields == nil || isNumber(fields[name]) {
					ck.missing += ": want a number (a missing number is not 0)"
				}
				return invalid("%s", ck.missing)
			}
		}
		_, err = dec.Token() // '}'
		return err
	case json.Delim('['):
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return skipValue(dec, 1)
		}
		n := len(ck.path)
		for i := 0; dec.More(); i++ {
			ck.path = append(ck.path, '[')
			ck.path = strconv.AppendInt(ck.path, int64(i), 10)
			ck.path = append(ck.path, ']')
			if err := ck.check(dec, t.Elem()); err != nil {
				return err
			}
			ck.path = ck.path[:n]
		}
		_, err = dec.Token() // ']'
		return err
	}
	return nil
}

// requiredFields lists, for the records whose numbers have no default,
// the fields that must be given (Decode): one row per record type. A
// history without "observations" restored as an empty study, and one
// without "seed" or "minimize" matched an optimizer of seed 0 or one that
// maximizes.
var requiredFields = map[reflect.Type][]string{
	reflect.TypeFor[bo.Observation](): {"x", "y"},
	reflect.TypeFor[bo.History]():     {"version", "seed", "kernel", "dim", "minimize", "observations"},
}

// isNumber reports whether t is a number type (not a pointer to one, where
// null means absent, nor one with its own UnmarshalJSON, which decides
// what null means).
func isNumber(t reflect.Type) bool {
	if reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		return false
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// skipValue reads the rest of a value whose depth opening delimiters have
// been read.
func skipValue(dec tokenReader, depth int) error {
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

func unknownField(at, key string, fields map[string]reflect.Type) error {
	for name := range fields {
		if strings.EqualFold(name, key) {
			return invalid("unknown field %q (field names are case-sensitive: did you mean %q?)", at, name)
		}
	}
	return invalid("unknown field %q", at)
}

// jsonFields returns the JSON names of struct t's fields and their types,
// as encoding/json names them: the json tag's name, else the Go name;
// "-" skipped; the fields of an embedded struct without a tag promoted.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && f.Tag.Get("json") == "-" {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for k, v := range jsonFields(ft) {
				if _, dup := out[k]; !dup {
					out[k] = v
				}
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
