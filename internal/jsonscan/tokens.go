//go:build !goexperiment.jsonv2

package jsonscan

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"
)

// NewTokenizer returns a reader of the tokens of data, which may be any
// bytes, JSON or not (see Tokenizer).
func NewTokenizer(data []byte) Reader { return &Tokenizer{data: data} }

// Tokenizer reads the tokens of any data as the Token and More of an
// encoding/json Decoder of bytes.NewReader(data) with UseNumber would,
// error for error — the same messages, though not as *json.SyntaxError
// values, whose offsets are not kept — but returns every number, true,
// false and string value as Scalar, as a Scanner does. The structure
// (delimiters, ',' and ':') is checked by Decoder.Token's states; a
// scalar by the JSON grammar as Decoder.Decode's scanner reads one, and
// one that is not well formed is handed to a Decoder of the data from
// its first byte, whose error is returned. After an error, Token
// returns it again.
//
// Cost: O(len(data)) for all tokens; no allocation but one per distinct
// key, one per doubling of the nesting depth (a bit a level) and the
// error (a Decoder's, for a malformed scalar), where a Decoder allocates
// several times per token.
type Tokenizer struct {
	data  []byte
	pos   int
	state uint8
	depth int
	obj   []uint64 // bit i: the container at level i is an object
	keys  map[string]json.Token
	err   error
}

// The states of Decoder.Token (encoding/json's tokenState): what the
// next token may be.
const (
	topValue    uint8 = iota // a value at the top level
	arrayStart               // just after '['
	arrayValue               // just after an array's ','
	arrayComma               // after an array's element
	objectStart              // just after '{'
	objectKey                // just after an object's ','
	objectColon              // after a key
	objectValue              // just after ':'
	objectComma              // after an object's value
)

// syntaxError is a json.SyntaxError's message alone: encoding/json
// makes its field unexported.
type syntaxError string

func (e syntaxError) Error() string { return string(e) }

func (t *Tokenizer) valueAllowed() bool {
	switch t.state {
	case topValue, arrayStart, arrayValue, objectValue:
		return true
	}
	return false
}

// valueEnd is Decoder.tokenValueEnd: a value was read.
func (t *Tokenizer) valueEnd() {
	switch t.state {
	case arrayStart, arrayValue:
		t.state = arrayComma
	case objectValue:
		t.state = objectComma
	}
}

// push enters a container; the state it was read in (a state where a
// value may go) follows from the level's container, if any.
func (t *Tokenizer) push(isObj bool) {
	w := t.depth / 64
	if w == len(t.obj) {
		t.obj = append(t.obj, 0)
	}
	bit := uint64(1) << (t.depth % 64)
	if isObj {
		t.obj[w] |= bit
	} else {
		t.obj[w] &^= bit
	}
	t.depth++
	if isObj {
		t.state = objectStart
	} else {
		t.state = arrayStart
	}
}

// pop leaves a container, in the state after a value of the one around
// it (Decoder.tokenValueEnd after its stack's state).
func (t *Tokenizer) pop() {
	t.depth--
	switch {
	case t.depth == 0:
		t.state = topValue
	case t.obj[(t.depth-1)/64]&(uint64(1)<<((t.depth-1)%64)) != 0:
		t.state = objectComma
	default:
		t.state = arrayComma
	}
}

// fail is Decoder.tokenError: c may not come in this state.
func (t *Tokenizer) fail(c byte) (json.Token, error) {
	var context string
	switch t.state {
	case topValue, arrayStart, arrayValue, objectValue:
		context = " looking for beginning of value"
	case arrayComma:
		context = " after array element"
	case objectKey:
		context = " looking for beginning of object key string"
	case objectColon:
		context = " after object key"
	case objectComma:
		context = " after object key:value pair"
	}
	t.err = syntaxError("invalid character " + quoteChar(c) + context)
	return nil, t.err
}

// quoteChar quotes c as encoding/json's syntax errors do: 'x', or '\n' for a control character.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(c))
	return "'" + s[1:len(s)-1] + "'"
}

// peek skips space and returns the next byte, false at the end.
func (t *Tokenizer) peek() (byte, bool) {
	for ; t.pos < len(t.data); t.pos++ {
		if c := t.data[t.pos]; !isSpace(c) {
			return c, true
		}
	}
	return 0, false
}

// More reports whether the array or object being read has another
// element, as Decoder.More.
func (t *Tokenizer) More() bool {
	c, ok := t.peek()
	return ok && c != ']' && c != '}'
}

// Token returns the next token, or io.EOF at the end, or the error
// Decoder.Token would return (see Tokenizer).
func (t *Tokenizer) Token() (json.Token, error) {
	if t.err != nil {
		return nil, t.err
	}
	for {
		c, ok := t.peek()
		if !ok {
			return nil, io.EOF
		}
		switch c {
		case '[', '{':
			if !t.valueAllowed() {
				return t.fail(c)
			}
			t.pos++
			t.push(c == '{')
			return json.Delim(c), nil
		case ']':
			if t.state != arrayStart && t.state != arrayComma {
				return t.fail(c)
			}
			t.pos++
			t.pop()
			return json.Delim(c), nil
		case '}':
			if t.state != objectStart && t.state != objectComma {
				return t.fail(c)
			}
			t.pos++
			t.pop()
			return json.Delim(c), nil
		case ':':
			if t.state != objectColon {
				return t.fail(c)
			}
			t.pos++
			t.state = objectValue
			continue
		case ',':
			switch t.state {
			case arrayComma:
				t.state = arrayValue
			case objectComma:
				t.state = objectKey
			default:
				return t.fail(c)
			}
			t.pos++
			continue
		case '"':
			if t.state == objectStart || t.state == objectKey {
				tok, err := t.key()
				if err != nil {
					return nil, err
				}
				t.state = objectColon
				return tok, nil
			}
		}
		if !t.valueAllowed() {
			return t.fail(c)
		}
		tok, err := t.scalar()
		if err != nil {
			return nil, err
		}
		t.valueEnd()
		return tok, nil
	}
}

// key reads an object's key, a string, and returns it unquoted as
// Decoder.Token does (encoding/json unquotes one holding an escape or a
// byte past ASCII).
func (t *Tokenizer) key() (json.Token, error) {
	end, plain := stringEnd(t.data, t.pos)
	if end < 0 {
		var key string
		if err := t.decode(&key); err != nil {
			return nil, err
		}
		return key, nil
	}
	raw := t.data[t.pos:end]
	t.pos = end
	return keyOf(&t.keys, raw, plain), nil
}

// scalar reads a value that is no array or object: null as nil, any
// other as Scalar.
func (t *Tokenizer) scalar() (json.Token, error) {
	d, i, end := t.data, t.pos, -1
	switch c := d[i]; {
	case c == '"':
		end, _ = stringEnd(d, i)
	case c == '-' || '0' <= c && c <= '9':
		end = numberEnd(d, i)
	case c == 't' && bytes.HasPrefix(d[i:], []byte("true")):
		end = i + len("true")
	case c == 'f' && bytes.HasPrefix(d[i:], []byte("false")):
		end = i + len("false")
	case c == 'n' && bytes.HasPrefix(d[i:], []byte("null")):
		t.pos = i + len("null")
		return nil, nil
	}
	if end >= 0 {
		t.pos = end
		return Scalar, nil
	}
	var x any
	if err := t.decode(&x); err != nil {
		return nil, err
	}
	if x == nil {
		return nil, nil
	}
	return Scalar, nil
}

// decode reads the value at pos into v by a Decoder, as Decoder.Token
// reads a scalar (a new value, read by a scanner reset at its first
// byte), for its error: the grammar refused the value.
func (t *Tokenizer) decode(v any) error {
	dec := json.NewDecoder(bytes.NewReader(t.data[t.pos:]))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.err = err
		return err
	}
	t.pos += int(dec.InputOffset())
	return nil
}

// stringEnd returns the end of the well-formed JSON string at d[i] (its
// closing quote's index + 1) and whether it holds no escape and no byte
// past ASCII; -1 if it is not well formed (a control character, a bad
// escape, no closing quote), as encoding/json's scanner judges it: bytes
// past ASCII are not checked.
func stringEnd(d []byte, i int) (int, bool) {
	plain := true
	for i++; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			return i + 1, plain
		case c == '\\':
			plain = false
			if i++; i >= len(d) {
				return -1, false
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) {
					return -1, false
				}
				for _, h := range d[i+1 : i+5] {
					if !isHex(h) {
						return -1, false
					}
				}
				i += 4
			default:
				return -1, false
			}
		case c < 0x20:
			return -1, false
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	return -1, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// numberEnd returns the end of the JSON number at d[i] — the longest
// prefix the grammar reads, as encoding/json's scanner ends a number at
// the first byte that cannot continue it ("01" is 0, then 1) — or -1 if
// it stops where a digit must come ("-", "1.", "1e+").
func numberEnd(d []byte, i int) int {
	digits := func() int {
		j := i
		for i < len(d) && isDigit(d[i]) {
			i++
		}
		return i - j
	}
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case digits() == 0:
		return -1
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			return -1
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return -1
		}
	}
	return i
}
