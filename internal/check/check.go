// Package check holds the small predicates that symbo's library packages
// apply to their arguments, written once: whether an interface holds nil
// (IsNil) and whether two float slices are the same bits (SameBits). It
// imports nothing of symbo's, so any layer may use it.
package check

import (
	"math"
	"reflect"
)

// IsNil reports whether v is a nil interface or holds a nil pointer (a
// typed nil, which v == nil misses).
func IsNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

// SameBits reports whether a and b have one length and bit-identical
// elements (so NaNs with one payload are equal, and 0 and −0 are not).
func SameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, v := range a {
		if math.Float64bits(v) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
