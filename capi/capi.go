//go:build cgo

// Command capi is symbo's C ABI: built with
//
//	go build -buildmode=c-shared -o libsymbo.so ./capi
//
// it exports the functions declared in symbo.h (this directory), the
// contract for C callers and the Python package: symbo_cross and
// symbo_suggest (stateless), and the optimizer handle (handle.go: a
// bo.Optimizer kept between calls, named by an integer id, one lock per
// handle). They are C functions (entry.c): each sets the default
// floating-point environment for its call, whatever the calling thread's,
// and runs its Go counterpart here, symbogo_<name> for symbo_<name>
// (exported for entry.c only). Every exported function recovers
// from panics (no Go panic crosses the boundary), copies its inputs out of
// C memory and writes its outputs into caller-owned buffers during the
// call (no Go pointer is kept by C, no C pointer by Go), and records
// failures per calling thread for symbo_last_error, so it may be called
// from several C threads at once.
//
// Errors carry their class (internal/errclass), which codeOf maps to a
// status in one place: errclass.Input to SYMBO_EINVAL, Size to
// SYMBO_ESIZE, Internal (anything unclassified, and a recovered panic) to
// SYMBO_EINTERNAL; messages lose symbo's package prefixes, and echoed
// input is bounded (frontend.Message), in fail. Settings and history JSON are
// read by frontend.Decode: strict keys, sizes checked before allocation.
//
// The memory budget of a call is a value: the settings' "mem_budget" key
// when given, else SYMBO_MEMORY_BUDGET as read once at load (envBudget),
// else 8 GiB. It bounds the call's input copies and is handed to the
// library (bo.Config.Budget, kernel.Options.Budget); an optimizer handle
// keeps the one it was created with. Nothing here changes it afterwards.
package main

/*
// entry.c's fegetenv and fesetenv, off x86-64, are libm's.
#cgo !amd64 LDFLAGS: -lm
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The calling thread's last error message, in a pthread key whose
// destructor frees it when the thread exits: each C thread sees its own
// (Go code called from C runs on the caller's thread), and a thread's
// message ends with the thread. (A __thread pointer was never freed at
// thread exit: a pool of short-lived threads leaked one message each.)
typedef struct {
	size_t len;
	char msg[];
} symbo_err_t;

static pthread_key_t symbo_err_key;
static pthread_once_t symbo_err_once = PTHREAD_ONCE_INIT;
static int symbo_err_ok;

static void symbo_err_init(void) { symbo_err_ok = pthread_key_create(&symbo_err_key, free) == 0; }

static symbo_err_t *symbo_err_get(void) {
	pthread_once(&symbo_err_once, symbo_err_init);
	return symbo_err_ok ? pthread_getspecific(symbo_err_key) : NULL;
}

static void symbo_set_err(const char *msg, size_t len) {
	symbo_err_t *e = symbo_err_get();
	if (!symbo_err_ok) return;
	free(e);
	pthread_setspecific(symbo_err_key, NULL);
	if (msg == NULL) return;
	e = malloc(sizeof *e + len + 1);
	if (e == NULL) return;
	e->len = len;
	memcpy(e->msg, msg, len);
	e->msg[len] = 0;
	if (pthread_setspecific(symbo_err_key, e) != 0) free(e);
}

static size_t symbo_get_err(char *buf, size_t n) {
	symbo_err_t *e = symbo_err_get();
	size_t len = e != NULL ? e->len : 0;
	if (buf != NULL && n > 0) {
		size_t k = len < n - 1 ? len : n - 1;
		if (k > 0) memcpy(buf, e->msg, k);
		buf[k] = 0;
	}
	return len;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// abiVersion is SYMBO_ABI_VERSION of symbo.h. Version 2 added the
// optimizer handle (handle.go); version 3 gave "probe_window" bo's
// meaning (0 no limit, negative refused); version 4 added
// symbo_optimizer_near and refuses settings a group does not use;
// version 5 added symbo_optimizer_info (the kernel's candidates and those
// it left out); version 6 refuses a deciding kernel's setting given with
// a kernel it cannot act on (frontend's refuseInert); version 7 refuses
// "landmarks" above 0 with kernel soft, which has no landmark form.
const abiVersion = 7

// Error codes of symbo.h.
const (
	codeOK       = 0
	codeInval    = -1
	codeSize     = -2
	codeInternal = -3
)

func main() {}

// fail records err's message for the calling thread — shaped by
// frontend.Message (symbo's package prefixes removed, echoed input
// bounded), the one place the C ABI and through it Python shape messages
// — and returns its code.
func fail(code C.int, err error) C.int {
	// A C string ends at its first NUL: one echoed from the input (a
	// "\u0000" in a settings string, say) is written \x00.
	msg := strings.ReplaceAll(frontend.Message(err.Error()), "\x00", `\x00`)
	cs := C.CString(msg)
	C.symbo_set_err(cs, C.size_t(len(msg)))
	C.free(unsafe.Pointer(cs))
	return code
}

// envBudget is SYMBO_MEMORY_BUDGET read once, at load: the default memory
// budget of every call (0: 8 GiB), or envBudgetErr when the variable is
// malformed. Immutable after init, so threads share it without a race.
var envBudget, envBudgetErr = budget.FromEnv()

// callBudget returns the memory budget of a call whose settings hold m:
// their mem_budget, else envBudget. A malformed mem_budget, or a
// malformed SYMBO_MEMORY_BUDGET when the settings give none, is bad input.
func callBudget(m frontend.Memory) (int64, error) {
	if m.MemBudget == nil && envBudgetErr != nil {
		return 0, fmt.Errorf("%w: %v", errInput, envBudgetErr)
	}
	return m.Budget(int64(envBudget))
}

// testPanic makes every exported function panic inside its guard: a test
// hook (SYMBO_CAPI_TEST_PANIC=1) that proves no panic crosses the boundary.
var testPanic = os.Getenv("SYMBO_CAPI_TEST_PANIC") == "1"

// codeOf maps err's class (errclass.Of) to its status code, the one place
// the C ABI does (perf's exit status is the same classes' other mapping).
func codeOf(err error) C.int {
	switch errclass.Of(err) {
	case errclass.Input:
		return codeInval
	case errclass.Size:
		return codeSize
	case errclass.Internal:
		return codeInternal
	}
	return codeInternal // a class codeOf does not know: TestCodeOf fails
}

// The C ABI's own sentinels: a bad argument (a NULL pointer, a negative
// size), and an output buffer smaller than the result.
var (
	errInput = errclass.New(errclass.Input, "invalid argument")
	errSize  = errclass.New(errclass.Size, "output buffer too small")
)

// guard runs f, turning a panic into SYMBO_EINTERNAL and an error into its
// code; on success it clears the thread's last error.
func guard(f func() error) (code C.int) {
	defer func() {
		if r := recover(); r != nil {
			code = fail(codeInternal, fmt.Errorf("internal error (a bug in symbo): %v\n%s", r, debug.Stack()))
		}
	}()
	if testPanic {
		panic("SYMBO_CAPI_TEST_PANIC is set")
	}
	if err := f(); err != nil {
		return fail(codeOf(err), err)
	}
	C.symbo_set_err(nil, 0)
	return codeOK
}

// matrix copies a rows×cols row-major C array into a Go matrix (nil for a
// NULL pointer with rows = 0 allowed by the caller), within the call's
// memory budget b.
func matrix(p *C.double, rows, cols C.int64_t, name string, b int64) (*mat.Dense, error) {
	if rows < 0 || cols < 1 || rows > 1<<40 || cols > 1<<20 {
		return nil, fmt.Errorf("%w: %s is %d×%d", errInput, name, rows, cols)
	}
	if rows == 0 {
		return nil, nil
	}
	if p == nil {
		return nil, fmt.Errorf("%w: %s is NULL with %d rows", errInput, name, rows)
	}
	n := int(rows) * int(cols)
	if err := budget.Limit(b).Check(name, 8*float64(n)); err != nil {
		return nil, err
	}
	src := unsafe.Slice((*float64)(unsafe.Pointer(p)), n)
	return mat.NewDense(int(rows), int(cols), append([]float64(nil), src...)), nil
}

// checkOutBuf refuses a NULL out and a negative out_len, the first checks
// of every output buffer (its size is checked by the caller, which knows
// what the result holds).
func checkOutBuf(out *C.double, outLen C.int64_t) error {
	if out == nil {
		return fmt.Errorf("%w: out is NULL", errInput)
	}
	if outLen < 0 {
		return fmt.Errorf("%w: out_len is %d", errInput, int64(outLen))
	}
	return nil
}

// store writes m into out (out_len doubles).
func store(m *mat.Dense, out *C.double, outLen C.int64_t) error {
	r, c := m.Dims()
	if err := checkOutBuf(out, outLen); err != nil {
		return err
	}
	if outLen < C.int64_t(r*c) {
		return fmt.Errorf("%w: the result has %d×%d = %d values, out holds %d", errSize, r, c, r*c, outLen)
	}
	dst := unsafe.Slice((*float64)(unsafe.Pointer(out)), r*c)
	for i := range r {
		copy(dst[i*c:(i+1)*c], m.RawRowView(i))
	}
	return nil
}

func goString(s *C.char, name string) (string, error) {
	if s == nil {
		return "", fmt.Errorf("%w: %s is NULL", errInput, name)
	}
	// Measured up to the bound only, before anything is copied: the
	// largest settings (a box of MaxDim values twice, coords) are some
	// 50 KB, so a longer string is refused, not decoded (decoding one of
	// megabytes takes tenths of a second and many times its size in
	// memory just to refuse it, whatever the memory budget:
	// docs/performance.md, "Settings strings past capi's bound").
	if n := C.strnlen(s, maxSettingsBytes+1); n > maxSettingsBytes {
		return "", fmt.Errorf("%w: %s is longer than %d bytes", errInput, name, maxSettingsBytes)
	}
	str := C.GoString(s)
	if err := checkUTF8(str, name); err != nil {
		return "", err
	}
	return str, nil
}

// checkUTF8 refuses a settings, spec or history string that is not valid
// UTF-8 (symbo.h: settings are UTF-8). encoding/json would read each bad
// byte inside a JSON string as U+FFFD: a "matrices" file name of Latin-1
// bytes named another file, and messages echoed a name the caller never
// gave.
func checkUTF8(s, name string) error {
	if utf8.ValidString(s) {
		return nil
	}
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		i += n
	}
	return fmt.Errorf("%w: %s is not valid UTF-8 (byte 0x%02x at offset %d)", errInput, name, s[i], i)
}

// maxSettingsBytes bounds the length of a settings or kernel-spec string
// (symbo.h: 1 MiB).
const maxSettingsBytes = 1 << 20

//export symbogo_abi_version
func symbogo_abi_version() C.int { return abiVersion }

var versionString = sync.OnceValue(func() *C.char {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return C.CString(fmt.Sprintf("symbo %s, abi %d", v, abiVersion)) // static: freed never
})

//export symbogo_version
func symbogo_version() *C.char { return versionString() }

//export symbogo_last_error
func symbogo_last_error(buf *C.char, n C.size_t) C.size_t { return C.symbo_get_err(buf, n) }

//export symbogo_cross
func symbogo_cross(spec *C.char, x *C.double, n C.int64_t, y *C.double, m C.int64_t, d C.int64_t,
	design *C.double, nd C.int64_t, out *C.double, outLen C.int64_t) C.int {
	return guard(func() error {
		s, err := goString(spec, "spec")
		if err != nil {
			return err
		}
		var ks frontend.KernelSpec
		if err := frontend.Decode([]byte(s), &ks); err != nil {
			return err
		}
		lim, err := callBudget(ks.Memory)
		if err != nil {
			return err
		}
		if n < 1 {
			return fmt.Errorf("%w: x has %d rows", errInput, n)
		}
		// The call's d against the spec's, before x, y and the design
		// (n·d, m·d and nd·d doubles) are read: a d the spec does not
		// have was refused only after copying them all (gigabytes, up to
		// the budget, for nothing). A spec without d (0: rotation2d, a
		// matrices file) leaves it to the group, after the copy, and one
		// outside [1, orbit.MaxDim] is refused with its own message.
		if ks.Group.D >= 1 && ks.Group.D <= orbit.MaxDim && int64(d) != int64(ks.Group.D) {
			return fmt.Errorf("%w: d = %d, but the spec's d is %d", errInput, int64(d), ks.Group.D)
		}
		if y != nil && m < 1 {
			return fmt.Errorf("%w: y has %d rows", errInput, m)
		}
		if y == nil {
			m = n
		}
		// The output is checked before the inputs are copied: an n×m
		// result out or over the budget was refused after copying x, y
		// and the design (gigabytes, for nothing).
		if err := checkOutBuf(out, outLen); err != nil {
			return err
		}
		if vals := float64(n) * float64(m); float64(outLen) < vals {
			return fmt.Errorf("%w: the result has %d×%d = %.0f values, out holds %d", errSize, n, m, vals, outLen)
		}
		if err := budget.Limit(lim).Check(fmt.Sprintf("a %d×%d kernel matrix", n, m), 8*float64(n)*float64(m)); err != nil {
			return err
		}
		xm, err := matrix(x, n, d, "x", lim)
		if err != nil {
			return err
		}
		var ym, dm *mat.Dense
		if y != nil {
			if ym, err = matrix(y, m, d, "y", lim); err != nil {
				return err
			}
		}
		if design != nil || nd != 0 {
			if !frontend.NeedsDesign(ks.Kernel) {
				return fmt.Errorf("%w: a design set is used by kernels plus and nystrom only, not %q", errInput, ks.Kernel)
			}
			if nd < 1 || design == nil {
				return fmt.Errorf("%w: design is %p with %d rows", errInput, design, nd)
			}
			if dm, err = matrix(design, nd, d, "design", lim); err != nil {
				return err
			}
		}
		be, err := linalg.Default()
		if err != nil {
			return err
		}
		k, err := frontend.Cross(ks, xm, ym, dm, be, lim)
		if err != nil {
			return err
		}
		return store(k, out, outLen)
	})
}

//export symbogo_suggest
func symbogo_suggest(settings *C.char, histX *C.double, histY *C.double, n C.int64_t, pending *C.double, np C.int64_t,
	d C.int64_t, q C.int64_t, out *C.double, outLen C.int64_t) C.int {
	return guard(func() error {
		s, err := goString(settings, "settings")
		if err != nil {
			return err
		}
		var st frontend.SuggestSettings
		if err := frontend.Decode([]byte(s), &st); err != nil {
			return err
		}
		lim, err := callBudget(st.Memory)
		if err != nil {
			return err
		}
		if q < 1 || q > bo.MaxBatch {
			return fmt.Errorf("%w: q = %d outside [1, %d]", errInput, q, bo.MaxBatch)
		}
		be, err := linalg.Default()
		if err != nil {
			return err
		}
		opt, err := st.Optimizer(be, lim)
		if err != nil {
			return err
		}
		if int(d) != opt.Dim() {
			return fmt.Errorf("%w: d = %d, the settings' box has %d dimensions", errInput, d, opt.Dim())
		}
		// Counted, and the output checked, before anything is copied: a
		// history of 2²⁷ rows (1 GiB, under the default budget) was
		// copied and then told one by one, past 14 GiB, before
		// MaxEvaluations refused it.
		if n >= 0 && np >= 0 && (n > bo.MaxEvaluations || np > bo.MaxEvaluations-n) {
			return fmt.Errorf("%w: %d history points and %d pending points exceed MaxEvaluations = %d", errInput, n, np, bo.MaxEvaluations)
		}
		if err := checkOutBuf(out, outLen); err != nil {
			return err
		}
		if outLen < q*d {
			return fmt.Errorf("%w: %d points of %d coordinates, out holds %d", errSize, q, d, outLen)
		}
		hx, err := matrix(histX, n, d, "hist_x", lim)
		if err != nil {
			return err
		}
		var hy []float64
		if n > 0 {
			if histY == nil {
				return fmt.Errorf("%w: hist_y is NULL with %d rows", errInput, n)
			}
			hy = append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(histY)), int(n))...)
		}
		pm, err := matrix(pending, np, d, "pending", lim)
		if err != nil {
			return err
		}
		pts, err := frontend.Suggest(opt, hx, hy, pm, nil, int(q))
		var re *frontend.RowError
		if errors.As(err, &re) && re.Input == "history" && errors.Is(re.Err, bo.ErrBadValue) {
			// bo's message sends the caller to Fail or perf suggest's
			// --failed, neither of which this call has.
			return &frontend.RowError{Input: "history", Row: re.Row, Err: fmt.Errorf("%w: hist_y[%d] = %v is not finite; symbo_suggest takes no failed points: give the x of an evaluation that failed among the pending points, which it passes over with their orbits as it would failed ones (an optimizer handle has symbo_optimizer_fail)", bo.ErrBadValue, re.Row, hy[re.Row])}
		}
		if err != nil {
			return err
		}
		return store(pts, out, outLen)
	})
}
