package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/linalg"
)

// Timing rule shared by Profile and Complexity (Ratios times a fixed
// number of interleaved rounds through the same helper, timeRounds).
const (
	// DefaultMinTime is how long a phase is repeated for at least.
	DefaultMinTime = 200 * time.Millisecond
	// DefaultMaxReps caps the repetitions of a phase.
	DefaultMaxReps = 200
	// minReps repetitions are made of phases faster than slowRep…
	minReps = 3
	// …unless a single run (the warm-up) takes slowRep or longer: then that
	// run is the one measurement.
	slowRep = time.Second
)

// timeMedian times f by the package's timing rule: one warm-up run (which
// allocates destinations and warms caches); if it took slowRep (1 s) or
// more it is the only measurement, otherwise f is repeated until at least
// minTime has been timed and at least minReps (3) runs made, at most
// maxReps runs. It returns the median time in seconds and the number of
// timed runs.
func timeMedian(minTime time.Duration, maxReps int, f func() error) (float64, int, error) {
	med, reps, err := timeRounds(timing{minTime: minTime, minReps: minReps, maxReps: maxReps, slow: slowRep}, f)
	if err != nil {
		return 0, 0, err
	}
	return med[0], reps, nil
}

// timing is a rule for timeRounds.
type timing struct {
	// Rounds are repeated until minTime has been timed and minReps rounds
	// made, at most maxReps rounds.
	minTime          time.Duration
	minReps, maxReps int
	// slow > 0: a warm-up round that took slow or longer is the only
	// measurement.
	slow time.Duration
	// now, if not nil, is the clock (time elapsed since any fixed
	// instant); nil is the real monotonic clock. Tests pass a clock that
	// the timed functions advance, to test what is done with the times
	// without timing anything.
	now func() time.Duration
}

// timeRounds is the package's one timing loop. A round runs fs in order,
// timing each call, so that the slow phases of a shared machine hit every
// f alike. One untimed warm-up round (allocating destinations, warming
// caches) comes first; then rounds are repeated by the rule r. It returns
// the median time of each f in seconds and the number of timed rounds.
func timeRounds(r timing, fs ...func() error) ([]float64, int, error) {
	now := r.now
	if now == nil {
		start := time.Now()
		now = func() time.Duration { return time.Since(start) }
	}
	times := make([][]float64, len(fs))
	round := func() (time.Duration, error) {
		var total time.Duration
		for i, f := range fs {
			t := now()
			if err := f(); err != nil {
				return 0, err
			}
			d := now() - t
			total += d
			times[i] = append(times[i], d.Seconds())
		}
		return total, nil
	}
	w, err := round()
	if err != nil {
		return nil, 0, err
	}
	reps := 1
	if r.slow <= 0 || w < r.slow {
		for i := range times {
			times[i] = times[i][:0]
		}
		var total time.Duration
		for reps = 0; reps < r.maxReps && (total < r.minTime || reps < r.minReps); reps++ {
			d, err := round()
			if err != nil {
				return nil, 0, err
			}
			total += d
		}
	}
	med := make([]float64, len(fs))
	for i, v := range times {
		med[i] = median(v)
	}
	return med, reps, nil
}

// median returns the median of v (the mean of the middle two for even
// lengths) without modifying v.
func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// ModulePath is the module whose version Environment records.
const ModulePath = "github.com/symbo/symbo"

// Environment is what, besides the seed and the settings, reproduces a
// record: the code (module version and VCS revision), the Go toolchain,
// the SIMD path of internal/f64, GOMAXPROCS, the machine and, for timings,
// the linear-algebra backend. Every record perf writes (tables, traces,
// profiles, complexity studies) carries one.
type Environment struct {
	// Module is path@version ("(devel)" for a source build); Revision the
	// commit the binary was built from (from the build's VCS stamp, else
	// `git rev-parse HEAD` in the working directory), Modified whether the
	// working tree had uncommitted changes to tracked files outside docs/,
	// lab/results/ and Markdown (the code, not the results written there).
	Module     string `json:"module"`
	Revision   string `json:"revision,omitempty"`
	Modified   bool   `json:"modified,omitempty"`
	GoVersion  string `json:"go_version"`
	SIMD       string `json:"simd"` // internal/f64.Level(): the path in use
	GOMAXPROCS int    `json:"gomaxprocs"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPU        string `json:"cpu"` // brand name
	NumCPU     int    `json:"num_cpu"`
	// CPUVector is the widest vector extension of the CPU (f64.CPU).
	CPUVector string `json:"cpu_vector,omitempty"`
	// Backend is the linear-algebra backend timed (profiles); traces
	// record theirs with the settings.
	Backend string `json:"backend,omitempty"`
	// OpenBLASCore is the core type OpenBLAS dispatched to
	// (openblas_get_corename), OpenBLASThreads its thread count; "" and 0
	// in builds without openblas. OpenBLASCoreType is $OPENBLAS_CORETYPE.
	OpenBLASCore     string `json:"openblas_core,omitempty"`
	OpenBLASThreads  int    `json:"openblas_threads,omitempty"`
	OpenBLASCoreType string `json:"openblas_coretype_env,omitempty"`
	// Warnings, e.g. an OpenBLAS core below what the CPU supports.
	Warnings []string `json:"warnings,omitempty"`
}

// Env returns the Environment of this process; be, if not nil, is the
// backend of the timings.
func Env(be linalg.Backend) Environment { return environment(be, os.Getenv) }

// environment is Env with the environment reader a parameter (tests).
func environment(be linalg.Backend, getenv func(string) string) Environment {
	brand, vec := f64.CPU()
	env := Environment{
		Module: ModulePath + "@(devel)", GoVersion: runtime.Version(), SIMD: f64.Level(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		CPU: brand, NumCPU: runtime.NumCPU(), CPUVector: vec,
	}
	env.Revision, env.Modified = revision()
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == ModulePath && bi.Main.Version != "" {
		env.Module = ModulePath + "@" + bi.Main.Version
	}
	if be != nil {
		env.Backend = be.Name()
	}
	if core := linalg.OpenBLASCoreName(); core != "" {
		env.OpenBLASCore = core
		env.OpenBLASThreads = linalg.OpenBLASThreads()
		env.OpenBLASCoreType = getenv("OPENBLAS_CORETYPE")
		if w := coreWarning(core, env.CPUVector, env.OpenBLASCoreType); w != "" {
			env.Warnings = append(env.Warnings, w)
		}
	}
	return env
}

// revision returns the commit the code came from: the build's VCS stamp
// (go build in a checkout), else the working directory's git HEAD (go run,
// go test), and whether the tree was modified.
var revision = sync.OnceValues(func() (string, bool) {
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev string
		var mod bool
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				rev = kv.Value
			case "vcs.modified":
				mod = kv.Value == "true"
			}
		}
		if rev != "" {
			return rev, mod
		}
	}
	return gitState("")
})

// gitState is the git HEAD of dir ("" for the working directory) and
// whether the tree has uncommitted changes to tracked files outside docs/,
// lab/results/ and Markdown: results and prose that one experiment writes
// there do not taint the next one's record.
func gitState(dir string) (string, bool) {
	git := func(args ...string) ([]byte, error) {
		c := exec.Command("git", args...)
		c.Dir = dir
		return c.Output()
	}
	out, err := git("rev-parse", "HEAD")
	if err != nil {
		return "", false
	}
	st, err := git("status", "--porcelain", "--untracked-files=no", "--", ":/", ":(top,exclude)docs", ":(top,exclude)lab/results", ":(top,exclude)*.md")
	return strings.TrimSpace(string(out)), err == nil && len(bytes.TrimSpace(st)) > 0
}

// Vector levels, in increasing order.
var vectorLevels = []string{"sse", "avx", "avx2", "avx512"}

// coreVector maps an OpenBLAS x86-64 core name (openblas_get_corename) to
// the vector extension of its kernels; "" for names it does not know.
func coreVector(core string) string {
	switch strings.ToLower(core) {
	case "skylakex", "cooperlake", "sapphirerapids":
		return "avx512"
	case "haswell", "zen", "excavator":
		return "avx2"
	case "sandybridge", "bulldozer", "piledriver", "steamroller":
		return "avx"
	case "prescott", "core2", "penryn", "dunnington", "nehalem", "atom",
		"barcelona", "opteron", "opteron_sse3", "nano", "katmai", "coppermine",
		"northwood", "banias", "athlon", "bobcat":
		return "sse"
	}
	return ""
}

// coreWarning returns a warning when OpenBLAS's core uses narrower vectors
// than the CPU has, "" otherwise (or when the core name is unknown).
func coreWarning(core, cpu, coretypeEnv string) string {
	cv := coreVector(core)
	if cv == "" {
		return ""
	}
	ci, cc := levelIndex(cpu), levelIndex(cv)
	if cc >= ci {
		return ""
	}
	w := fmt.Sprintf("OpenBLAS runs its %s kernels (core %s) but the CPU supports %s", cv, core, cpu)
	if coretypeEnv != "" {
		w += fmt.Sprintf("; OPENBLAS_CORETYPE=%s forces this", coretypeEnv)
	}
	if cpu == "avx512" {
		w += " (DGEMM measured ~1.7× slower than with the AVX-512 kernels)"
	}
	return w
}

func levelIndex(v string) int {
	for i, l := range vectorLevels {
		if l == v {
			return i
		}
	}
	return -1
}

// FitPowerLaw fits log y = log c + slope·log x by least squares and
// returns the slope, c and the coefficient of determination R² of the
// fit in log-log space (1 when the points are collinear; NaN when all y
// are equal, where R² is undefined). It needs at least two distinct
// positive x and positive y.
func FitPowerLaw(x, y []float64) (slope, c, r2 float64, err error) {
	if len(x) != len(y) {
		return 0, 0, 0, fmt.Errorf("experiments: fit: %d x values, %d y values", len(x), len(y))
	}
	if len(x) < 2 {
		return 0, 0, 0, errors.New("experiments: fit: need at least two points")
	}
	lx, ly := make([]float64, len(x)), make([]float64, len(y))
	for i := range x {
		if !(x[i] > 0) || !(y[i] > 0) || math.IsInf(x[i], 0) || math.IsInf(y[i], 0) {
			return 0, 0, 0, fmt.Errorf("experiments: fit: point (%v, %v) is not positive and finite", x[i], y[i])
		}
		lx[i], ly[i] = math.Log(x[i]), math.Log(y[i])
	}
	var mx, my float64
	for i := range lx {
		mx += lx[i]
		my += ly[i]
	}
	mx /= float64(len(lx))
	my /= float64(len(ly))
	var sxx, sxy, syy float64
	for i := range lx {
		dx, dy := lx[i]-mx, ly[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return 0, 0, 0, errors.New("experiments: fit: all x are equal")
	}
	slope = sxy / sxx
	c = math.Exp(my - slope*mx)
	if syy == 0 {
		return slope, c, math.NaN(), nil
	}
	var ssr float64
	for i := range lx {
		r := ly[i] - (my + slope*(lx[i]-mx))
		ssr += r * r
	}
	return slope, c, 1 - ssr/syy, nil
}
