package errclass_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
)

var (
	errIn   = errclass.New(errclass.Input, "pkg: bad input")
	errBig  = errclass.New(errclass.Size, "pkg: over budget")
	errBug  = errclass.New(errclass.Internal, "pkg: internal")
	errSame = errclass.New(errclass.Input, "pkg: bad input") // errIn's text, another identity
)

// rowError is an error type that classifies itself, as frontend.RowError
// and csvio.Error do.
type rowError struct{ err error }

func (e *rowError) Error() string            { return "row 1: " + e.err.Error() }
func (e *rowError) Unwrap() error            { return e.err }
func (e *rowError) ErrClass() errclass.Class { return errclass.Input }

// multi wraps several errors through Unwrap() []error.
type multi []error

func (m multi) Error() string   { return "multi" }
func (m multi) Unwrap() []error { return m }

// TestOf: the class survives wrapping of every kind; an unclassified
// error, nil included, is Internal; Input wins over Size, Size over
// Internal, wherever they sit in the tree.
func TestOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want errclass.Class
	}{
		{"nil", nil, errclass.Internal},
		{"plain", errors.New("pkg: bad input"), errclass.Internal},
		{"plain wrapped", fmt.Errorf("x: %w", errors.New("y")), errclass.Internal},
		{"input", errIn, errclass.Input},
		{"size", errBig, errclass.Size},
		{"internal", errBug, errclass.Internal},
		{"wrapped", fmt.Errorf("ctx: %w", errIn), errclass.Input},
		{"wrapped twice", fmt.Errorf("a: %w", fmt.Errorf("b %d: %w", 3, errBig)), errclass.Size},
		{"%v loses it", fmt.Errorf("ctx: %v", errIn), errclass.Internal},
		{"two %w", fmt.Errorf("%w: %w", errBug, errIn), errclass.Input},
		{"two %w, size", fmt.Errorf("%w: %w", errors.New("z"), errBig), errclass.Size},
		{"join", errors.Join(errBig, errIn), errclass.Input},
		{"join internal", errors.Join(errBug, errors.New("z")), errclass.Internal},
		{"Unwrap []error deep", multi{errors.New("a"), fmt.Errorf("b: %w", multi{errBug, errBig})}, errclass.Size},
		{"type", &rowError{errors.New("bad")}, errclass.Input},
		{"type over internal", &rowError{errBug}, errclass.Input},
		{"type wrapped", fmt.Errorf("history: %w", &rowError{errBig}), errclass.Input},
		{"internal over input", fmt.Errorf("%w: %w", errBug, fmt.Errorf("%w", errIn)), errclass.Input},
		{"size over input", fmt.Errorf("%w: %w", errBig, errIn), errclass.Input},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := errclass.Of(tc.err); got != tc.want {
				t.Errorf("Of(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

// TestIdentity: New's errors are sentinels as errors.New's are — Is by
// identity through wrapping, never by text — and keep their message.
func TestIdentity(t *testing.T) {
	err := fmt.Errorf("ctx: %w", errIn)
	if !errors.Is(err, errIn) || errors.Is(err, errSame) || errIn == errSame {
		t.Error("identity lost")
	}
	if errIn.Error() != "pkg: bad input" || err.Error() != "ctx: pkg: bad input" {
		t.Errorf("message %q, %q", errIn, err)
	}
	var c errclass.Classifier
	if !errors.As(err, &c) || c.ErrClass() != errclass.Input {
		t.Error("errors.As finds no Classifier")
	}
}

func TestString(t *testing.T) {
	want := []string{"internal", "input", "size"}
	cs := errclass.Classes()
	if len(cs) != len(want) || cs[0] != errclass.Internal {
		t.Fatalf("Classes() = %v", cs)
	}
	var zero errclass.Class
	if zero != errclass.Internal {
		t.Error("the zero Class is not Internal")
	}
	for i, c := range cs {
		if c.String() != want[i] {
			t.Errorf("%d: %q, want %q", i, c, want[i])
		}
	}
	if s := errclass.Class(7).String(); s != "Class(7)" {
		t.Errorf("Class(7) = %q", s)
	}
}
