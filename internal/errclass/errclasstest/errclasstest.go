// Package errclasstest holds the assertion the packages' bad-input tables
// share: a call returns an input-class error wrapping a given sentinel,
// and does not panic.
package errclasstest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
)

// InputError calls f, turning a panic into an error, and fails t unless
// the error wraps want (Fatal) and is of class errclass.Input (Error).
func InputError(t testing.TB, want error, f func() error) {
	t.Helper()
	err := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		return f()
	}()
	if !errors.Is(err, want) {
		t.Fatalf("err = %v, want one wrapping %v", err, want)
	}
	if c := errclass.Of(err); c != errclass.Input {
		t.Errorf("class of %v = %v, want input", err, c)
	}
}
