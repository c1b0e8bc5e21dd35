package f64

import "os"

// features is the SIMD level in use, detected once at initialization.
type features struct {
	avx2   bool // AVX2 and FMA (the assembly needs AVX2 only)
	avx512 bool // AVX-512 F, DQ and VL
}

var feat = capFeatures(detect(), os.Getenv("SYMBO_SIMD"))

// capFeatures lowers f to the level named by env ("generic", "avx2",
// "avx512"); empty or unknown names leave f unchanged.
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
