//go:build cgo

package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// TestCodeOf: codeOf maps every error class (errclass.Classes) and gives
// each error its class's status however it is wrapped — the sentinels
// an early hand list in capi missed included (bo.ErrHistory, gp.ErrNilArgument,
// problem.ErrLength, ErrNotFinite, ErrOutOfBounds, ErrUsers,
// linalg.ErrNotFinite), SYMBO_EINTERNAL then.
func TestCodeOf(t *testing.T) {
	want := map[errclass.Class]int{errclass.Internal: codeInternal, errclass.Input: codeInval, errclass.Size: codeSize}
	for _, c := range errclass.Classes() {
		w, ok := want[c]
		if got := int(codeOf(errclass.New(c, "x"))); !ok || got != w {
			t.Errorf("class %v: code %d, want %d (mapped: %t)", c, got, w, ok)
		}
	}
	for _, tc := range []struct {
		err  error
		want int
	}{
		{bo.ErrHistory, codeInval},
		{gp.ErrNilArgument, codeInval},
		{problem.ErrLength, codeInval},
		{problem.ErrNotFinite, codeInval},
		{problem.ErrOutOfBounds, codeInval},
		{problem.ErrUsers, codeInval},
		{linalg.ErrNotFinite, codeInval},
		{kernel.ErrBadPoints, codeInval},
		{frontend.ErrInvalid, codeInval},
		{&frontend.RowError{Input: "pending", Row: 0, Err: orbit.ErrOverBudget}, codeInval},
		{errInput, codeInval},
		{orbit.ErrOverBudget, codeSize},
		{errSize, codeSize},
		{linalg.ErrNotPositiveDefinite, codeInternal},
		{errors.New("bo: invalid point"), codeInternal}, // a text, not the sentinel
		{nil, codeInternal},
	} {
		for _, err := range []error{tc.err, fmt.Errorf("ctx: %w", tc.err), fmt.Errorf("a: %w", fmt.Errorf("b: %w", tc.err))} {
			if got := int(codeOf(err)); got != tc.want {
				t.Errorf("%v: code %d, want %d", err, got, tc.want)
			}
		}
	}
}
