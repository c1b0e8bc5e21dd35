package frontend

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// packagePrefixes are the prefixes symbo's packages put on their errors.
var packagePrefixes = []string{"bo: ", "gp: ", "kernel: ", "orbit: ", "linalg: ", "problem: ", "frontend: ", "experiments: "}

// TrimPrefixes removes symbo's package prefixes ("bo: ", "frontend: ", …)
// and the given extra prefixes (each without its ": ") from the start of
// msg, as often as they occur there, and the package prefixes that follow
// a ": " inside it, outside quoted strings (wrapped errors: "kernel avg:
// gp: avg family: …" becomes "kernel avg: avg family: …"): they say
// where in symbo an error arose, which a user of a front end does not
// need ("invalid settings: …", not "frontend: invalid settings: …"). A
// message that is nothing but prefixes is returned whole, and so is a
// prefix that ends the message.
func TrimPrefixes(msg string, extra ...string) string {
	for {
		t := msg
		for _, p := range extra {
			t = strings.TrimPrefix(t, p+": ")
		}
		for _, p := range packagePrefixes {
			t = strings.TrimPrefix(t, p)
		}
		if t == msg || t == "" {
			break
		}
		msg = t
	}
	return trimInner(msg)
}

// trimInner drops each package prefix that follows ": " in msg outside a
// quoted string (Go syntax, as %q writes the user's input), unless
// nothing would follow it.
func trimInner(msg string) string {
	if !strings.Contains(msg, ": ") {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		switch {
		case msg[i] == '"':
			if q, err := strconv.QuotedPrefix(msg[i:]); err == nil {
				b.WriteString(q)
				i += len(q)
				continue
			}
			b.WriteByte('"')
			i++
		case strings.HasPrefix(msg[i:], ": "):
			b.WriteString(": ")
			i += 2
			for dropped := true; dropped; {
				dropped = false
				for _, p := range packagePrefixes {
					if strings.HasPrefix(msg[i:], p) && len(msg) > i+len(p) {
						i += len(p)
						dropped = true
					}
				}
			}
		default:
			b.WriteByte(msg[i])
			i++
		}
	}
	return b.String()
}

// MaxEcho bounds what an error message shows of one quoted input: a
// longer string (a 20 MB kernel name) is cut to its first MaxEcho
// characters, "…" and its length (Message).
const MaxEcho = 80

// maxMessage bounds a whole message (Message): past it, the middle is cut.
const maxMessage = 2048

// Message is the text a front end shows for an error message msg — perf
// on stderr, the C ABI's symbo_last_error and so Python's exceptions: its
// package and extra prefixes trimmed (TrimPrefixes), each quoted string
// (Go syntax, as %q writes the user's names and values) longer than
// MaxEcho characters shortened, and what is still longer than maxMessage
// bytes cut in the middle. It is the one place where echoed input is
// bounded, so that no call site has to remember to.
func Message(msg string, extra ...string) string {
	msg = TrimPrefixes(msg, extra...)
	if len(msg) <= MaxEcho+2 {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		j := strings.IndexByte(msg[i:], '"')
		if j < 0 {
			b.WriteString(msg[i:])
			break
		}
		b.WriteString(msg[i : i+j])
		i += j
		q, err := strconv.QuotedPrefix(msg[i:])
		if err != nil { // a lone quote
			b.WriteByte('"')
			i++
			continue
		}
		i += len(q)
		s, _ := strconv.Unquote(q)
		if utf8.RuneCountInString(s) <= MaxEcho {
			b.WriteString(q)
			continue
		}
		end, n := 0, 0
		for k := range s { // k: the byte offset of rune n
			if n == MaxEcho {
				end = k
				break
			}
			n++
		}
		q = strconv.Quote(s[:end])
		fmt.Fprintf(&b, "%s…\" (%d bytes)", q[:len(q)-1], len(s))
	}
	msg = b.String()
	if len(msg) > maxMessage {
		head, tail := msg[:maxMessage*3/4], msg[len(msg)-maxMessage/4:]
		for len(head) > 0 && !utf8.ValidString(head) {
			head = head[:len(head)-1]
		}
		for len(tail) > 0 && !utf8.ValidString(tail) {
			tail = tail[1:]
		}
		msg = fmt.Sprintf("%s … (%d bytes cut) … %s", head, len(msg)-len(head)-len(tail), tail)
	}
	return msg
}
