package frontend

import "strings"

// packagePrefixes are the prefixes symbo's packages put on their errors.
var packagePrefixes = []string{"bo: ", "gp: ", "kernel: ", "orbit: ", "linalg: ", "problem: ", "frontend: ", "experiments: "}

// TrimPrefixes removes symbo's package prefixes ("bo: ", "frontend: ", …)
// and the given extra prefixes (each without its ": ") from the start of
// msg, as often as they occur there: they say where in symbo an error
// arose, which a user of a front end does not need ("invalid settings:
// …", not "frontend: invalid settings: …"). A message that is nothing
// but prefixes is returned whole.
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
			return msg
		}
		msg = t
	}
}
