package f64

import (
	"fmt"
	"os"
)

// features is the SIMD level in use, detected once at initialization.
type features struct {
	avx2   bool // AVX2 and FMA (the assembly needs AVX2 only)
	avx512 bool // AVX-512 F, DQ and VL
}

// EnvSIMD is the environment variable that caps the SIMD level.
const EnvSIMD = "SYMBO_SIMD"

var feat = capFeatures(detect(), os.Getenv(EnvSIMD))

// EnvErr reports a value of SYMBO_SIMD other than empty, "generic",
// "avx2" or "avx512", which capFeatures ignores (the detected path stays
// in use): a program that prints or records the path (perf) refuses it
// rather than time a path the user did not ask for. nil otherwise.
func EnvErr() error {
	return envErr(os.Getenv(EnvSIMD))
}

func envErr(env string) error {
	switch env {
	case "", "generic", "avx2", "avx512":
		return nil
	}
	return fmt.Errorf("%s=%q: want generic, avx2 or avx512 (or unset: the best path the CPU has)", EnvSIMD, env)
}

// capFeatures lowers f to the level named by env ("generic", "avx2",
// "avx512"); empty or unknown names leave f unchanged (EnvErr reports
// the unknown ones).
func capFeatures(f features, env string) features {
	switch env {
	case "generic":
		return features{}
	case "avx2":
		f.avx512 = false
	}
	return f
}

// Level names the path in use: "avx512", "avx2" or "generic".
func Level() string {
	switch {
	case feat.avx512:
		return "avx512"
	case feat.avx2:
		return "avx2"
	}
	return "generic"
}

// setFeatures forces a feature set (tests only; f must be supported by the
// CPU) and returns a function restoring the previous one.
func setFeatures(f features) (restore func()) {
	old := feat
	feat = f
	return func() { feat = old }
}
