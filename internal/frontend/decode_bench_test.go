package frontend

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkDecodeLong times Decode of SuggestSettings holding a box of
// about size bytes (two lists of numbers, far more coordinates than any
// group allows): the decoding a C caller's long string would cost
// without capi's bound on its length, which refuses the string before
// anything is copied (docs/performance.md, "Settings strings past
// capi's bound"). decoder=encoding-json times json.Unmarshal of the
// same data, the floor Decode's second pass stands on, for a ratio
// within one run; input=trailing-byte, Decode of the data with one byte
// after it, which json.Valid refuses: the key check reads it through
// encoding/json's tokenizer, to quote its error.
func BenchmarkDecodeLong(b *testing.B) {
	for _, size := range []int{1 << 20, 4 << 20} {
		var buf bytes.Buffer
		buf.WriteString(`{"group":"scaling","box":[[`)
		half := size / 2
		for i := 0; buf.Len() < half; i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString("0.25")
		}
		buf.WriteString(`],[`)
		for i := 0; buf.Len() < size-2; i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString("0.75")
		}
		buf.WriteString(`]]}`)
		data := buf.Bytes()
		bad := append(bytes.Clone(data), 'x')
		for _, c := range []struct {
			name   string
			data   []byte
			decode func([]byte, any) error
		}{
			{"input=valid/decoder=frontend", data, Decode},
			{"input=valid/decoder=encoding-json", data, json.Unmarshal},
			{"input=trailing-byte/decoder=frontend", bad, Decode},
		} {
			b.Run(fmt.Sprintf("bytes=%d/%s", len(data), c.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					var st SuggestSettings
					_ = c.decode(c.data, &st)
				}
			})
		}
	}
}
