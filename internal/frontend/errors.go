package frontend

import (
	"errors"
	"strings"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// inputSentinels are the library errors only the caller's input can cause
// (settings, names, sizes, points, values, magnitudes). Every front end
// maps them through IsInput: perf to exit status 2, the C ABI to
// SYMBO_EINVAL, Python to InvalidInput. Over-budget requests are IsSize.
//
// This is a hand list until errors carry their class: a sentinel added to
// a library package must be added here.
var inputSentinels = []error{
	ErrInvalid,
	orbit.ErrInvalid, orbit.ErrUnknown, orbit.ErrTooLarge, orbit.ErrInfinite,
	kernel.ErrNoClosedForm, kernel.ErrBadPoints, kernel.ErrBadOptions, kernel.ErrSpectrum,
	gp.ErrOverflow, gp.ErrNilArgument,
	bo.ErrUnknownKernel, bo.ErrMaxNotPSD, bo.ErrBadConfig, bo.ErrBadPoint, bo.ErrBadValue, bo.ErrHistory,
	problem.ErrUnknown, problem.ErrDim, problem.ErrLength, problem.ErrNotFinite, problem.ErrOutOfBounds, problem.ErrUsers,
	linalg.ErrUnavailable, linalg.ErrNotFinite,
}

// IsInput reports whether err was caused by the caller's input: it wraps
// one of the library's input sentinels, or is a RowError.
func IsInput(err error) bool {
	if err == nil {
		return false
	}
	var re *RowError
	if errors.As(err, &re) {
		return true
	}
	for _, s := range inputSentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// IsSize reports whether err is a request over the memory budget
// (orbit.ErrOverBudget).
func IsSize(err error) bool { return errors.Is(err, orbit.ErrOverBudget) }

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
