package errclass_test

import (
	"errors"
	"fmt"

	"github.com/symbo/symbo/internal/errclass"
)

// A package declares its sentinels with their class; a front end reads the
// class of whatever error reaches it.
func Example() {
	errUnknown := errclass.New(errclass.Input, "pkg: unknown name")

	err := fmt.Errorf("settings: %w", errUnknown)
	fmt.Println(errors.Is(err, errUnknown), errclass.Of(err))
	fmt.Println(errclass.Of(errors.New("disk full")))
	// Output:
	// true input
	// internal
}
