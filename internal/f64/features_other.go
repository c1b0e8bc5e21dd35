//go:build !amd64 || noasm

package f64

func detect() features { return features{} }
