// Package jsonscan reads the tokens of JSON as encoding/json's
// Decoder.Token would for a check of its keys and nulls, without the
// Decoder's cost per token (a json.Number, its boxing and a delayed
// syntax error per number or literal: docs/performance.md, "Settings
// strings past capi's bound"): a Scanner reads data that json.Valid has
// accepted; a Tokenizer reads any data, with the Decoder's errors.
//
// # Invariants
//
// A Scanner is given only data for which json.Valid holds; it does not
// check the syntax and may panic on other data. It reads every number,
// true, false and string value as Scalar, null as nil, delimiters as
// json.Delim, and an object key (a string followed by ':') as a string
// equal to the one Decoder.Token returns (encoding/json unquotes a key
// holding an escape or a byte past ASCII). A Tokenizer takes any data
// and returns the same tokens, and where a Decoder with UseNumber would
// fail, an error with the Decoder's message (see Tokenizer; built with
// GOEXPERIMENT=jsonv2, NewTokenizer returns such a Decoder).
//
// # Cost
//
// O(len(data)) for all tokens. A Scanner allocates nothing but one
// string per distinct key; a Tokenizer besides one word per 64 levels
// of nesting and its error (a Decoder's, for a malformed scalar).
//
// # Concurrency
//
// Neither a Scanner nor a Tokenizer is safe for concurrent use.
//
// # Errors
//
// A Scanner's Token returns io.EOF after the last token, and no other
// error. A Tokenizer's returns io.EOF at the end of the data, and for
// malformed data the error a Decoder's would.
package jsonscan

import (
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"
)

// Reader is what a Scanner, a Tokenizer and encoding/json's Decoder
// have in common: a reader of tokens.
type Reader interface {
	Token() (json.Token, error)
	More() bool
}

// Scalar stands for every number, true, false and string value a Scanner
// reads: a check of keys and nulls needs only to tell them from null and
// delimiters.
var Scalar json.Token = json.Number("0")

// Scanner reads the tokens of valid JSON (see the package doc).
// Separators (',' ':') are skipped as space. keys holds the keys read,
// by their quoted bytes: a history's thousand observations make two
// keys, not two thousand.
type Scanner struct {
	data []byte
	pos  int
	keys map[string]json.Token
}

// New returns a Scanner of data, for which json.Valid must hold.
func New(data []byte) *Scanner { return &Scanner{data: data} }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *Scanner) skip() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r', ',', ':':
			s.pos++
		default:
			return
		}
	}
}

// More reports whether the array or object being read has another
// element, as Decoder.More.
func (s *Scanner) More() bool {
	s.skip()
	return s.pos < len(s.data) && s.data[s.pos] != ']' && s.data[s.pos] != '}'
}

// Offset returns the byte offset in data of the next token (after
// space), or len(data) at the end.
func (s *Scanner) Offset() int {
	s.skip()
	return s.pos
}

// Token returns the next token (see the package doc), or io.EOF.
func (s *Scanner) Token() (json.Token, error) {
	s.skip()
	if s.pos >= len(s.data) {
		return nil, io.EOF
	}
	switch c := s.data[s.pos]; c {
	case '{', '}', '[', ']':
		s.pos++
		return json.Delim(c), nil
	case 'n':
		s.pos += len("null")
		return nil, nil
	case 't':
		s.pos += len("true")
		return Scalar, nil
	case 'f':
		s.pos += len("false")
		return Scalar, nil
	case '"':
		start := s.pos
		plain := true // no escape, nothing past ASCII
		for s.pos++; s.data[s.pos] != '"'; s.pos++ {
			if c := s.data[s.pos]; c == '\\' {
				plain = false
				s.pos++ // the escaped byte, which may be '"'
			} else if c >= utf8.RuneSelf {
				plain = false
			}
		}
		s.pos++
		raw := s.data[start:s.pos]
		next := s.pos // a key is followed by ':', after space
		for next < len(s.data) && isSpace(s.data[next]) {
			next++
		}
		if next == len(s.data) || s.data[next] != ':' {
			return Scalar, nil
		}
		return keyOf(&s.keys, raw, plain), nil
	}
	for s.pos < len(s.data) && strings.IndexByte("+-0123456789.eE", s.data[s.pos]) >= 0 {
		s.pos++
	}
	return Scalar, nil
}

// keyOf returns the key of raw, a quoted string the grammar accepted
// (plain: no escape and no byte past ASCII, so that its bytes between the
// quotes are the key), interned in *keys: one string per distinct key,
// allocated on its first reading.
func keyOf(keys *map[string]json.Token, raw []byte, plain bool) json.Token {
	if tok, ok := (*keys)[string(raw)]; ok {
		return tok
	}
	var key string
	if plain {
		key = string(raw[1 : len(raw)-1])
	} else if err := json.Unmarshal(raw, &key); err != nil {
		panic("jsonscan: a key the grammar accepts: " + err.Error())
	}
	if *keys == nil {
		*keys = map[string]json.Token{}
	}
	(*keys)[string(raw)] = key
	return key
}
