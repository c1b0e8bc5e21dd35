package errclass

import "strconv"

// Class is what kind of failure an error is; the zero value is Internal.
type Class uint8

const (
	// Internal: not the input's fault (the zero value: unclassified).
	Internal Class = iota
	// Input: bad input the caller can fix.
	Input
	// Size: over the memory budget, or an output buffer too small.
	Size
)

var names = [...]string{Internal: "internal", Input: "input", Size: "size"}

// Classes returns every Class, Internal first, for a front end's test that
// its mapping covers each.
func Classes() []Class { return []Class{Internal, Input, Size} }

// String returns "internal", "input" or "size" ("Class(n)" for another
// value).
func (c Class) String() string {
	if int(c) < len(names) {
		return names[c]
	}
	return "Class(" + strconv.Itoa(int(c)) + ")"
}

// Classifier is an error that states its class. New's sentinels are
// Classifiers; an error type implements it to classify its values (a
// wrapper's class then counts whatever it wraps).
type Classifier interface {
	ErrClass() Class
}

// sentinel is New's error: a message and a class. Its identity is its
// pointer, so errors.Is compares sentinels as it does errors.New's.
type sentinel struct {
	msg   string
	class Class
}

func (e *sentinel) Error() string   { return e.msg }
func (e *sentinel) ErrClass() Class { return e.class }

// New returns a distinct error with message msg and class c: a sentinel
// declared with its class, used as errors.New is
// (ErrX = errclass.New(errclass.Input, "pkg: …"); errors.Is(err, ErrX)).
func New(c Class, msg string) error { return &sentinel{msg: msg, class: c} }

// Of returns the class of err: Input if any error in err's tree (err and
// everything it wraps, through Unwrap() error and Unwrap() []error) is a
// Classifier of class Input, else Size if any is Size, else Internal.
// Of(nil) is Internal.
func Of(err error) Class {
	c := Internal
	walk(err, func(e error) bool {
		k, ok := e.(Classifier)
		if !ok {
			return true
		}
		switch k.ErrClass() {
		case Input:
			c = Input
			return false
		case Size:
			c = Size
		}
		return true
	})
	return c
}

// walk calls f on err and every error it wraps, depth first, until f
// returns false; it reports whether the walk ran to the end.
func walk(err error, f func(error) bool) bool {
	for err != nil {
		if !f(err) {
			return false
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if !walk(e, f) {
					return false
				}
			}
			return true
		default:
			return true
		}
	}
	return true
}
