//go:build amd64 && !noasm

package f64

import "github.com/klauspost/cpuid/v2"

func detect() features {
	c := cpuid.CPU
	return features{
		avx2:   c.Supports(cpuid.AVX, cpuid.AVX2, cpuid.FMA3),
		avx512: c.Supports(cpuid.AVX, cpuid.AVX2, cpuid.FMA3, cpuid.AVX512F, cpuid.AVX512DQ, cpuid.AVX512VL),
	}
}
