//go:build cgo

package main

/*
#include <stddef.h>
#include <stdint.h>
#include <string.h>
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/linalg"
)

// An optimizer handle is a bo.Optimizer owned by the library and named, on
// the C side, by an integer id — never by a Go pointer (cgo's rules): ids
// index a table here, start at 1 and are never reused, so a freed id stays
// unknown (a call with it, a double free included, is SYMBO_EINVAL) and 0
// is never an optimizer. Each handle has a mutex held for the whole of
// every call on it, so calls on one handle from several threads run one at
// a time, each seeing the optimizer as the last left it: an ask records
// its points as pending before the next call starts, so concurrent asks
// never share an orbit, and no tell is lost.
type handle struct {
	mu  sync.Mutex
	opt *bo.Optimizer // nil once freed
}

var handles = struct {
	sync.Mutex
	m    map[int64]*handle
	last int64
}{m: map[int64]*handle{}}

// onHandle runs f on the optimizer of handle id under the handle's lock,
// inside guard.
func onHandle(id C.int64_t, f func(o *bo.Optimizer) error) C.int {
	return guard(func() error { return withOptimizer(int64(id), f) })
}

// The Go side of the handles, in Go types (the exports below convert):
// newHandle, freeHandle and withOptimizer.

// newHandle builds the optimizer of settings (JSON) and returns its id.
func newHandle(settings string) (int64, error) {
	var st frontend.SuggestSettings
	if err := frontend.Decode([]byte(settings), &st); err != nil {
		return 0, err
	}
	lim, err := callBudget(st.Memory)
	if err != nil {
		return 0, err
	}
	be, err := linalg.Default()
	if err != nil {
		return 0, err
	}
	// The handle's budget for good: in its optimizer's Config.Budget.
	opt, err := st.Optimizer(be, lim)
	if err != nil {
		return 0, err
	}
	handles.Lock()
	defer handles.Unlock()
	handles.last++
	handles.m[handles.last] = &handle{opt: opt}
	return handles.last, nil
}

// freeHandle forgets handle id, after a call on it in progress.
func freeHandle(id int64) error {
	handles.Lock()
	h := handles.m[id]
	delete(handles.m, id)
	handles.Unlock()
	if h == nil {
		return errNoHandle(id)
	}
	h.mu.Lock()
	h.opt = nil
	h.mu.Unlock()
	return nil
}

// withOptimizer runs f on the optimizer of handle id under the handle's
// lock.
func withOptimizer(id int64, f func(o *bo.Optimizer) error) error {
	handles.Lock()
	h := handles.m[id]
	handles.Unlock()
	if h == nil {
		return errNoHandle(id)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.opt == nil { // freed while this call waited for the lock
		return errNoHandle(id)
	}
	return f(h.opt)
}

// checkQ refuses a batch size outside [1, bo.MaxBatch].
func checkQ(q int64) error {
	if q < 1 || q > bo.MaxBatch {
		return fmt.Errorf("%w: q = %d outside [1, %d]", errInput, q, bo.MaxBatch)
	}
	return nil
}

// askPoints asks q points (checkQ first) with frontend.AskBatch: on an
// error it cancels those already asked, so that the optimizer is
// unchanged (bo's AskBatch leaves them pending), and a batch the search
// space runs out of midway says how many of its points could be proposed
// (as perf suggest's does). With keep false it cancels them all the same:
// the points the optimizer would hand out next, without recording them.
func askPoints(o *bo.Optimizer, q int64, keep bool) ([][]float64, error) {
	if err := checkQ(q); err != nil {
		return nil, err
	}
	pts, err := frontend.AskBatch(o, int(q), "q =")
	if err != nil {
		return nil, err
	}
	if !keep {
		for _, x := range pts {
			o.Cancel(x)
		}
	}
	return pts, nil
}

func errNoHandle(id int64) error {
	return fmt.Errorf("%w: optimizer handle %d is not open (never created, or freed)", errInput, id)
}

// point copies the d-vector x of a call after checking its length against
// the optimizer's dimension (before reading any of it).
func point(o *bo.Optimizer, x *C.double, d C.int64_t, name string) ([]float64, error) {
	if int64(d) != int64(o.Dim()) {
		return nil, fmt.Errorf("%w: %s has %d coordinates, the optimizer's dimension is %d", errInput, name, int64(d), o.Dim())
	}
	if x == nil {
		return nil, fmt.Errorf("%w: %s is NULL", errInput, name)
	}
	return append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(x)), int(d))...), nil
}

// outRows checks that out holds rows points of dimension d.
func outRows(out *C.double, outLen C.int64_t, rows, d int) error {
	if err := checkOutBuf(out, outLen); err != nil {
		return err
	}
	if int64(outLen) < int64(rows)*int64(d) {
		return fmt.Errorf("%w: %d points of %d coordinates, out holds %d doubles", errSize, rows, d, int64(outLen))
	}
	return nil
}

func storePoints(out *C.double, pts [][]float64, d int) {
	dst := unsafe.Slice((*float64)(unsafe.Pointer(out)), len(pts)*d)
	for i, p := range pts {
		copy(dst[i*d:(i+1)*d], p)
	}
}

//export symbogo_optimizer_new
func symbogo_optimizer_new(settings *C.char, out *C.int64_t) C.int {
	return guard(func() error {
		if out == nil {
			return fmt.Errorf("%w: handle is NULL", errInput)
		}
		s, err := goString(settings, "settings")
		if err != nil {
			return err
		}
		id, err := newHandle(s)
		if err != nil {
			return err
		}
		*out = C.int64_t(id)
		return nil
	})
}

//export symbogo_optimizer_free
func symbogo_optimizer_free(id C.int64_t) C.int {
	return guard(func() error { return freeHandle(int64(id)) })
}

//export symbogo_optimizer_dim
func symbogo_optimizer_dim(id C.int64_t, d *C.int64_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		if d == nil {
			return fmt.Errorf("%w: d is NULL", errInput)
		}
		*d = C.int64_t(o.Dim())
		return nil
	})
}

// askBatch asks q points into out (askPoints), after checking q and then
// out: a refused call records nothing.
func askBatch(o *bo.Optimizer, q C.int64_t, out *C.double, outLen C.int64_t, keep bool) error {
	if err := checkQ(int64(q)); err != nil {
		return err
	}
	if err := outRows(out, outLen, int(q), o.Dim()); err != nil {
		return err
	}
	pts, err := askPoints(o, int64(q), keep)
	if err != nil {
		return err
	}
	storePoints(out, pts, o.Dim())
	return nil
}

//export symbogo_optimizer_ask
func symbogo_optimizer_ask(id C.int64_t, x *C.double, d C.int64_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		if int64(d) != int64(o.Dim()) {
			return fmt.Errorf("%w: x has %d coordinates, the optimizer's dimension is %d", errInput, int64(d), o.Dim())
		}
		if x == nil { // askBatch would name it out
			return fmt.Errorf("%w: x is NULL", errInput)
		}
		return askBatch(o, 1, x, d, true)
	})
}

//export symbogo_optimizer_ask_batch
func symbogo_optimizer_ask_batch(id C.int64_t, q C.int64_t, out *C.double, outLen C.int64_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error { return askBatch(o, q, out, outLen, true) })
}

//export symbogo_optimizer_suggest
func symbogo_optimizer_suggest(id C.int64_t, q C.int64_t, out *C.double, outLen C.int64_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error { return askBatch(o, q, out, outLen, false) })
}

//export symbogo_optimizer_tell
func symbogo_optimizer_tell(id C.int64_t, x *C.double, d C.int64_t, y C.double) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		p, err := point(o, x, d, "x")
		if err != nil {
			return err
		}
		return o.Tell(p, float64(y))
	})
}

//export symbogo_optimizer_fail
func symbogo_optimizer_fail(id C.int64_t, x *C.double, d C.int64_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		p, err := point(o, x, d, "x")
		if err != nil {
			return err
		}
		return o.Fail(p)
	})
}

//export symbogo_optimizer_add_pending
func symbogo_optimizer_add_pending(id C.int64_t, x *C.double, d C.int64_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		p, err := point(o, x, d, "x")
		if err != nil {
			return err
		}
		return o.AddPending(p)
	})
}

//export symbogo_optimizer_cancel
func symbogo_optimizer_cancel(id C.int64_t, x *C.double, d C.int64_t, wasPending *C.int) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		p, err := point(o, x, d, "x")
		if err != nil {
			return err
		}
		ok := o.Cancel(p)
		if wasPending != nil {
			*wasPending = 0
			if ok {
				*wasPending = 1
			}
		}
		return nil
	})
}

//export symbogo_optimizer_near
func symbogo_optimizer_near(id C.int64_t, x *C.double, d C.int64_t, pts *C.double, rows C.int64_t, near *C.int) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		p, err := point(o, x, d, "x")
		if err != nil {
			return err
		}
		if rows < 0 || int64(rows) > bo.MaxEvaluations {
			return fmt.Errorf("%w: rows = %d outside [0, %d]", errInput, int64(rows), bo.MaxEvaluations)
		}
		if rows == 0 {
			_, err := o.Near(p, nil) // x is checked all the same
			return err
		}
		if pts == nil || near == nil {
			return fmt.Errorf("%w: points or near is NULL with rows = %d", errInput, int64(rows))
		}
		dim := o.Dim()
		// The points are read in place, through a slice header a row
		// (sized against the handle's budget first; bo's Near sizes its
		// own copies of them).
		if err := budget.Limit(o.Config().Budget).Check(fmt.Sprintf("near's %d points", int64(rows)), float64(rows)*24); err != nil {
			return err
		}
		flat := unsafe.Slice((*float64)(unsafe.Pointer(pts)), int(rows)*dim)
		ps := make([][]float64, rows)
		for i := range ps {
			ps[i] = flat[i*dim : (i+1)*dim : (i+1)*dim]
		}
		got, err := o.Near(p, ps)
		if err != nil {
			return err
		}
		dst := unsafe.Slice((*C.int)(unsafe.Pointer(near)), int(rows))
		for i, v := range got {
			dst[i] = 0
			if v {
				dst[i] = 1
			}
		}
		return nil
	})
}

//export symbogo_optimizer_counts
func symbogo_optimizer_counts(id C.int64_t, observed, pending, failed *C.int64_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		for _, c := range []struct {
			p *C.int64_t
			n int
		}{{observed, o.N()}, {pending, len(o.Pending())}, {failed, len(o.Failed())}} {
			if c.p != nil {
				*c.p = C.int64_t(c.n)
			}
		}
		return nil
	})
}

// points writes pts (rows×d) into out, and rows into *rows: out NULL with
// outLen 0 only asks for the count.
func points(o *bo.Optimizer, pts [][]float64, out *C.double, outLen C.int64_t, rows *C.int64_t) error {
	if rows == nil {
		return fmt.Errorf("%w: rows is NULL", errInput)
	}
	*rows = C.int64_t(len(pts))
	if out == nil && outLen == 0 {
		return nil
	}
	if out == nil {
		return fmt.Errorf("%w: out is NULL with out_len %d", errInput, int64(outLen))
	}
	if err := outRows(out, outLen, len(pts), o.Dim()); err != nil {
		return err
	}
	storePoints(out, pts, o.Dim())
	return nil
}

//export symbogo_optimizer_pending
func symbogo_optimizer_pending(id C.int64_t, out *C.double, outLen C.int64_t, rows *C.int64_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error { return points(o, o.Pending(), out, outLen, rows) })
}

//export symbogo_optimizer_failed
func symbogo_optimizer_failed(id C.int64_t, out *C.double, outLen C.int64_t, rows *C.int64_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error { return points(o, o.Failed(), out, outLen, rows) })
}

//export symbogo_optimizer_best
func symbogo_optimizer_best(id C.int64_t, x *C.double, d C.int64_t, y *C.double, found *C.int) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		if int64(d) != int64(o.Dim()) {
			return fmt.Errorf("%w: x has %d coordinates, the optimizer's dimension is %d", errInput, int64(d), o.Dim())
		}
		if x == nil || y == nil || found == nil {
			return fmt.Errorf("%w: x, y and found must not be NULL", errInput)
		}
		bx, by, ok := o.Best()
		*found = 0
		if ok {
			storePoints(x, [][]float64{bx}, o.Dim())
			*y = C.double(by)
			*found = 1
		}
		return nil
	})
}

//export symbogo_optimizer_history
func symbogo_optimizer_history(id C.int64_t, buf *C.char, n C.size_t, needed *C.size_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		if needed == nil {
			return fmt.Errorf("%w: needed is NULL", errInput)
		}
		h := o.History()
		// The JSON is a few dozen bytes per coordinate: sized before it
		// is built.
		size := 64 + 32*float64(h.Dim+1)*float64(len(h.Observations)+len(h.Pending)+len(h.Failed))
		if err := budget.Limit(o.Config().Budget).Check("history JSON", size); err != nil {
			return err
		}
		js, err := json.Marshal(h)
		if err != nil {
			return err
		}
		return storeJSON("the history", js, buf, n, needed)
	})
}

// storeJSON writes js and a NUL into buf (n bytes) and its length without
// the NUL into *needed (not NULL: the caller checks): buf NULL with n 0
// asks for the length only, a smaller buf is SYMBO_ESIZE with nothing
// written. what names the JSON in the message ("the history").
func storeJSON(what string, js []byte, buf *C.char, n C.size_t, needed *C.size_t) error {
	*needed = C.size_t(len(js))
	if buf == nil && n == 0 {
		return nil
	}
	if buf == nil {
		return fmt.Errorf("%w: buf is NULL with len %d", errInput, uint64(n))
	}
	if uint64(n) < uint64(len(js))+1 {
		return fmt.Errorf("%w: %s is %d bytes and its NUL, buf holds %d", errSize, what, len(js), uint64(n))
	}
	dst := unsafe.Slice((*byte)(unsafe.Pointer(buf)), len(js)+1)
	copy(dst, js)
	dst[len(js)] = 0
	return nil
}

// optimizerInfo is symbo_optimizer_info's JSON: the kernel's name, the
// kernels that model the objective — a deciding kernel's candidates as
// kept (bo.Kernel.Candidates), a single kernel alone ([name], where
// Candidates is nil) — and the reasons of the candidates left out as too
// costly over the group (bo.Kernel.LeftOut; [] when none).
type optimizerInfo struct {
	Kernel     string   `json:"kernel"`
	Candidates []string `json:"candidates"`
	LeftOut    []string `json:"left_out"`
}

func infoOf(o *bo.Optimizer) optimizerInfo {
	k := o.Config().Kernel
	info := optimizerInfo{Kernel: k.Name(), Candidates: k.Candidates(), LeftOut: k.LeftOut()}
	if info.Candidates == nil {
		info.Candidates = []string{k.Name()}
	}
	if info.LeftOut == nil {
		info.LeftOut = []string{}
	}
	return info
}

//export symbogo_optimizer_info
func symbogo_optimizer_info(id C.int64_t, buf *C.char, n C.size_t, needed *C.size_t) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		if needed == nil {
			return fmt.Errorf("%w: needed is NULL", errInput)
		}
		js, err := json.Marshal(infoOf(o))
		if err != nil {
			return err
		}
		return storeJSON("the info", js, buf, n, needed)
	})
}

//export symbogo_optimizer_restore
func symbogo_optimizer_restore(id C.int64_t, history *C.char) C.int {
	return onHandle(id, func(o *bo.Optimizer) error {
		if history == nil {
			return fmt.Errorf("%w: history is NULL", errInput)
		}
		// Decoded, a history keeps up to about 8 bytes per byte of JSON
		// ("[0]," is 4 bytes, a one-coordinate row of 32), and its
		// decoding's garbage about as much again before a collection:
		// 16 bytes per byte are sized against the budget before it is
		// read, and it is read in place, not copied.
		n := int(C.strlen(history))
		if err := budget.Limit(o.Config().Budget).Check("decoding the history JSON", 16*float64(n)); err != nil {
			return err
		}
		// Read in place (the error copies no more than a byte of it).
		if err := checkUTF8(unsafe.String((*byte)(unsafe.Pointer(history)), n), "history"); err != nil {
			return err
		}
		var h bo.History
		if err := frontend.Decode(unsafe.Slice((*byte)(unsafe.Pointer(history)), n), &h); err != nil {
			// Decode speaks of settings: "history JSON: unknown field …".
			msg := strings.TrimPrefix(frontend.TrimPrefixes(err.Error()), "invalid settings: ")
			return fmt.Errorf("%w: history JSON: %s", errInput, msg)
		}
		return o.Restore(h)
	})
}
