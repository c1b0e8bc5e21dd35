//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"os"
	"syscall"
)

// appendMode reports whether f was opened for appending (a shell's '>>'),
// and whether that is known.
func appendMode(f *os.File) (appending, known bool) {
	fl, _, errno := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_GETFL, 0)
	if errno != 0 {
		return false, false
	}
	return fl&syscall.O_APPEND != 0, true
}
