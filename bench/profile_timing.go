package bench

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/klauspost/cpuid/v2"

	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/linalg"
)

// Timing rule shared by Profile and Complexity.
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
	t := time.Now()
	if err := f(); err != nil {
		return 0, 0, err
	}
	if w := time.Since(t); w >= slowRep {
		return w.Seconds(), 1, nil
	}
	var times []float64
	var total time.Duration
	for len(times) < maxReps && (total < minTime || len(times) < minReps) {
		t := time.Now()
		if err := f(); err != nil {
			return 0, 0, err
		}
		d := time.Since(t)
		total += d
		times = append(times, d.Seconds())
	}
	return median(times), len(times), nil
}

// Environment describes the process a measurement ran in: what reproduces
// it.
type Environment struct {
	// Module is the main module's path and version ("(devel)" for go run
	// and go build from a checkout), with the VCS revision when the build
	// recorded one.
	Module    string `json:"module"`
	GoVersion string `json:"go_version"`
	// Backend is the linear-algebra backend the phases used; SIMD the
	// enumeration path (internal/f64 Level: generic, avx2, avx512).
	Backend    string `json:"backend"`
	SIMD       string `json:"simd"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	CPU        string `json:"cpu"`
	// CPUVector is the widest vector extension of the CPU that OpenBLAS
	// has kernels for: "avx512", "avx2", "avx" or "sse".
	CPUVector string `json:"cpu_vector"`
	// OpenBLASCore is the core type OpenBLAS dispatched to
	// (openblas_get_corename), OpenBLASThreads its thread count; "" and 0
	// in builds without openblas. OpenBLASCoreType is $OPENBLAS_CORETYPE.
	OpenBLASCore     string `json:"openblas_core,omitempty"`
	OpenBLASThreads  int    `json:"openblas_threads,omitempty"`
	OpenBLASCoreType string `json:"openblas_coretype_env,omitempty"`
	// Warnings, e.g. an OpenBLAS core below what the CPU supports.
	Warnings []string `json:"warnings,omitempty"`
}

// environment fills an Environment for backend be. getenv reads the
// environment (os.Getenv; a parameter for tests).
func environment(be linalg.Backend, getenv func(string) string) Environment {
	env := Environment{
		Module:     moduleVersion(),
		GoVersion:  runtime.Version(),
		SIMD:       f64.Level(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		CPU:        strings.TrimSpace(cpuid.CPU.BrandName),
		CPUVector:  cpuVector(),
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

func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	s := bi.Main.Path + " " + bi.Main.Version
	for _, kv := range bi.Settings {
		if kv.Key == "vcs.revision" && kv.Value != "" {
			s += " " + kv.Value
		}
		if kv.Key == "vcs.modified" && kv.Value == "true" {
			s += "+dirty"
		}
	}
	return s
}

// Vector levels, in increasing order.
var vectorLevels = []string{"sse", "avx", "avx2", "avx512"}

func cpuVector() string {
	switch {
	case cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512DQ, cpuid.AVX512VL):
		return "avx512"
	case cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3):
		return "avx2"
	case cpuid.CPU.Supports(cpuid.AVX):
		return "avx"
	}
	return "sse"
}

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
		return 0, 0, 0, fmt.Errorf("bench: fit: %d x values, %d y values", len(x), len(y))
	}
	if len(x) < 2 {
		return 0, 0, 0, errors.New("bench: fit: need at least two points")
	}
	lx, ly := make([]float64, len(x)), make([]float64, len(y))
	for i := range x {
		if !(x[i] > 0) || !(y[i] > 0) || math.IsInf(x[i], 0) || math.IsInf(y[i], 0) {
			return 0, 0, 0, fmt.Errorf("bench: fit: point (%v, %v) is not positive and finite", x[i], y[i])
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
		return 0, 0, 0, errors.New("bench: fit: all x are equal")
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
