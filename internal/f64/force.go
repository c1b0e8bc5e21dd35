package f64

// ForceLevel switches the package to the SIMD path named level
// ("generic", "avx2" or "avx512") and returns a function restoring the
// previous path; ok is false, and nothing changes, when this CPU or build
// lacks the level. It exists for tests of packages built on these kernels
// that hold their results equal across paths, and must not be called
// while anything else uses the package.
func ForceLevel(level string) (restore func(), ok bool) {
	hw := detect()
	var f features
	switch level {
	case "generic":
	case "avx2":
		if !hw.avx2 {
			return func() {}, false
		}
		f.avx2 = true
	case "avx512":
		if !hw.avx512 {
			return func() {}, false
		}
		f.avx2, f.avx512 = true, true
	default:
		return func() {}, false
	}
	return setFeatures(f), true
}
