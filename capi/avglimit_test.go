//go:build cgo

package main

import (
	"strings"
	"testing"
)

// TestAvgEnumerateLimitCode: an optimizer handle for avg over
// permutation(10) with Matérn-5/2 (k_avg enumerated over 3628800
// elements, over bo.AvgEnumerateLimit) is refused with SYMBO_EINVAL and
// a message naming the limit — symbo_optimizer_new used to accept it, and
// its first step would take tens of minutes (extrapolated); Python raises
// InvalidInput for that code — while signflip(13) (8192 elements, at the
// limit) makes a handle.
func TestAvgEnumerateLimitCode(t *testing.T) {
	const over = `{"group":"permutation","d":10,"box":[[-1],[1]],"base":"matern52","kernel":"avg"}`
	id, err := newHandle(over)
	if err == nil {
		freeHandle(id)
		t.Fatalf("%s: a handle, want SYMBO_EINVAL", over)
	}
	if codeOf(err) != codeInval || !strings.Contains(err.Error(), "AvgEnumerateLimit") || strings.Contains(err.Error(), "\n") {
		t.Errorf("%s: code %d, %v; want SYMBO_EINVAL (%d) naming AvgEnumerateLimit", over, codeOf(err), err, codeInval)
	}
	const at = `{"group":"signflip","d":13,"box":[[-1],[1]],"base":"matern52","kernel":"avg"}`
	id, err = newHandle(at)
	if err != nil {
		t.Fatalf("%s: %v", at, err)
	}
	if err := freeHandle(id); err != nil {
		t.Error(err)
	}
}
