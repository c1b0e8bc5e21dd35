//go:build goexperiment.jsonv2

package jsonscan

import (
	"bytes"
	"encoding/json"
)

// NewTokenizer returns an encoding/json Decoder of data with UseNumber:
// built with GOEXPERIMENT=jsonv2, encoding/json's errors are v2's, which
// the Tokenizer of other builds does not reproduce, so the Decoder reads
// (its tokens are its own, not Scalar).
func NewTokenizer(data []byte) Reader {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec
}
