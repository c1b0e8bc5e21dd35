package f64

import (
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// CPU describes the processor, detected once: its brand name and the
// widest x86 vector extension it supports ("avx512", "avx2", "avx", "sse";
// "" on other architectures), whatever Level this build and SYMBO_SIMD
// allow. Records of measurements carry it (lab/experiments).
func CPU() (brand, vector string) {
	c := cpuid.CPU
	brand = strings.TrimSpace(c.BrandName)
	switch {
	case c.VendorID == cpuid.VendorUnknown && !c.Supports(cpuid.SSE2):
		vector = ""
	case c.Supports(cpuid.AVX512F, cpuid.AVX512DQ, cpuid.AVX512VL):
		vector = "avx512"
	case c.Supports(cpuid.AVX2, cpuid.FMA3):
		vector = "avx2"
	case c.Supports(cpuid.AVX):
		vector = "avx"
	case c.Supports(cpuid.SSE2):
		vector = "sse"
	}
	return brand, vector
}
