package bo

import (
	"fmt"
	"strings"
)

// ctxError adds context to an error without repeating the package prefix
// ("bo: WLAN8d: k_max is not …", not "bo: WLAN8d: bo: k_max is not …");
// errors.Is and errors.As see the wrapped error.
type ctxError struct {
	ctx string
	err error
}

func (e *ctxError) Error() string {
	return "bo: " + e.ctx + ": " + strings.TrimPrefix(e.err.Error(), "bo: ")
}

func (e *ctxError) Unwrap() error { return e.err }

// wrapf returns err with the context format (no "bo: " prefix; it is
// added once).
func wrapf(err error, format string, a ...any) error {
	return &ctxError{ctx: fmt.Sprintf(format, a...), err: err}
}
