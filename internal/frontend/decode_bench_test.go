package frontend

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkDecodeLong times Decode of SuggestSettings holding a box of
// about size bytes (two lists of numbers, far more coordinates than any
// group allows): the decoding a C caller's long string would cost
// without capi's bound on its length, which refuses the string before
// anything is copied (docs/performance.md, "Settings strings past
// capi's bound").
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
		b.Run(fmt.Sprintf("bytes=%d", len(data)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var st SuggestSettings
				_ = Decode(data, &st)
			}
		})
	}
}
