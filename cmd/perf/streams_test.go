package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// zeroFIFO makes a named pipe and feeds it NUL bytes, as
// `head -c 256000000 /dev/zero > fifo` would, counting what the reader
// took; stop ends the feeder (it unblocks a feeder whose reader never
// came) and returns the count.
func zeroFIFO(t *testing.T) (path string, stop func() int64) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var written atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		buf := make([]byte, 1<<16)
		for written.Load() < 256<<20 {
			n, err := f.Write(buf)
			written.Add(int64(n))
			if err != nil {
				return // EPIPE: the reader closed it
			}
		}
	}()
	return path, func() int64 {
		// A feeder still waiting for a reader is released by one.
		if r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
		<-done
		return written.Load()
	}
}

// textFIFO makes a named pipe that one writer feeds text and closes;
// release unblocks a writer whose reader never came.
func textFIFO(t *testing.T, text string) (path string, release func()) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString(text)
		f.Close()
	}()
	return path, func() {
		if r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
	}
}

// runCLIOnFIFO runs perf like runCLI, but fails the test instead of
// hanging when perf blocks on the FIFO at path (e.g. opening it a second
// time after its writer left): after the deadline it releases it with a
// writer that closes at once.
func runCLIOnFIFO(t *testing.T, path string, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	ch := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		ch <- result{code, stdout.String(), stderr.String()}
	}()
	select {
	case r := <-ch:
		return r.code, r.stdout, r.stderr
	case <-time.After(30 * time.Second):
	}
	for {
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		select {
		case r := <-ch:
			t.Errorf("perf %s blocked on the FIFO for 30 s", args[0])
			return r.code, r.stdout, r.stderr
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestCSVStreamsBounded (issue 15, defect 4): every CSV input of perf —
// suggest --history and --pending, gram --x, --y and --design, eval --x
// and --users — read from a device that never ends (/dev/zero) or a FIFO
// fed from it, is refused with exit 2 and one line naming the flag and the
// memory budget, after reading at most budget/4 bytes. Before, a line was
// read whole whatever its length: `perf suggest --mem-budget 50MiB
// --history /dev/zero` grew to 3.6 GB and died; gram did not even stop
// (it counted the rows of /dev/zero first, in constant memory, forever).
func TestCSVStreamsBounded(t *testing.T) {
	const mem = 8 << 20
	p2 := writeFile(t, "p2.csv", "1,2\n-1,0.5\n")
	suggest := []string{"suggest", "--group", "hyperoctahedral", "--d", "3", "--box", "-2:2", "--kernel", "plus", "--mem-budget", "8MiB"}
	gram := []string{"gram", "--group", "permutation", "--d", "2", "--base", "rbf", "--lengthscale", "1", "--kernel", "plus", "--mem-budget", "8MiB"}
	eval := []string{"eval", "--mem-budget", "8MiB", "--problem"}
	for _, tc := range []struct {
		name string
		args []string // the input file is appended last
	}{
		{"suggest history", append(suggest[:len(suggest):len(suggest)], "--history")},
		{"suggest pending", append(suggest[:len(suggest):len(suggest)], "--pending")},
		{"gram x", append(gram[:len(gram):len(gram)], "--x")},
		{"gram y", append(gram[:len(gram):len(gram)], "--x", p2, "--y")},
		{"gram design", append(gram[:len(gram):len(gram)], "--x", p2, "--design")},
		{"eval x", append(eval[:len(eval):len(eval)], "ackley", "--d", "2", "--x")},
		{"eval users", append(eval[:len(eval):len(eval)], "wlan", "--d", "2", "--x", p2, "--users")},
	} {
		flag := tc.args[len(tc.args)-1]
		t.Run(tc.name+"/dev/zero", func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append(tc.args, "/dev/zero")...)
			checkOneLineError(t, code, stdout, stderr, "perf "+tc.args[0]+": ", flag, "/dev/zero:1:", "memory budget of 8 MiB")
		})
		t.Run(tc.name+"/fifo", func(t *testing.T) {
			fifo, stop := zeroFIFO(t)
			code, stdout, stderr := runCLIOnFIFO(t, fifo, append(tc.args, fifo)...)
			n := stop()
			checkOneLineError(t, code, stdout, stderr, "perf "+tc.args[0]+": ", flag, "fifo:1:", "memory budget of 8 MiB")
			// budget/4, one 64 KiB read buffer, the pipe's own buffer.
			if n > mem/4+(1<<18) {
				t.Errorf("the reader took %d bytes from the FIFO, want at most budget/4 = %d", n, mem/4)
			}
		})
	}
}

// TestCSVFromPipe: a point file may be a FIFO (a pipe, /dev/stdin): perf
// gram reads it once. Before, gram counted the rows of --x first to size
// its result, which consumed the pipe, and then reported it empty.
func TestCSVFromPipe(t *testing.T) {
	path, release := textFIFO(t, "1,2\n-1,0.5\n")
	args := []string{"gram", "--group", "permutation", "--d", "2", "--base", "rbf", "--lengthscale", "1", "--kernel", "max"}
	code, out, stderr := runCLIOnFIFO(t, path, append(args, "--x", path)...)
	release() // the writer, if gram never opened the FIFO
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, want, _ := runCLI(t, append(args, "--x", writeFile(t, "p.csv", "1,2\n-1,0.5\n"))...)
	if out != want {
		t.Errorf("from a FIFO:\n%s\nfrom a file:\n%s", out, want)
	}
	if !strings.Contains(out, `"rows": 2`) {
		t.Errorf("output %q", out)
	}
}

// TestSuggestStreamTwice: two of perf suggest's input flags naming one
// FIFO (a pipe) are refused (exit 2, one line naming both) before it is opened: a
// stream is read once, so the second flag's rows would be missing without
// a word, or — a named pipe whose writer has left — the second open would
// wait for another writer for ever. Before, --pending F --failed F with
// F fed one row hung after reading it into --pending.
func TestSuggestStreamTwice(t *testing.T) {
	path, release := textFIFO(t, "0.1,0.2\n")
	code, stdout, stderr := runCLIOnFIFO(t, path, "suggest", "--group", "signflip", "--d", "2", "--box", "-1:1", "--pending", path, "--failed", path)
	release() // the writer, if perf never opened the FIFO
	checkOneLineError(t, code, stdout, stderr, "perf suggest: ", "--pending and --failed both name "+path+", a pipe", "read once")
	// A device each read of which sees all there is, /dev/null (no rows),
	// may stand for two inputs, as a regular file may.
	if _, err := os.Stat(os.DevNull); err == nil {
		if code, _, stderr := runCLI(t, "suggest", "--group", "signflip", "--d", "2", "--box", "-1:1", "--pending", os.DevNull, "--failed", os.DevNull); code != exitOK {
			t.Errorf("--pending and --failed both %s: exit %d, %s", os.DevNull, code, stderr)
		}
	}
}
