package orbit_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/orbit"
)

// TestParseMatricesMissingFile: Parse's errors wrap ErrUnknown or
// ErrInvalid, an input error; a matrices file that cannot be opened was
// an unclassified (internal) *fs.PathError.
func TestParseMatricesMissingFile(t *testing.T) {
	_, err := orbit.Parse(orbit.Spec{Name: "matrices", Matrices: filepath.Join(t.TempDir(), "missing.json")})
	if !errors.Is(err, orbit.ErrInvalid) || errclass.Of(err) != errclass.Input {
		t.Fatalf("Parse of a missing matrices file: %v (class %v), want ErrInvalid (input)", err, errclass.Of(err))
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Parse of a missing matrices file: %v, want it to wrap fs.ErrNotExist", err)
	}
}
