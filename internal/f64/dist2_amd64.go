//go:build amd64 && !noasm

package f64

// dist2 runs the assembly on the whole blocks of the packed orbit that
// lie within dst when the CPU has AVX-512 and returns how many elements
// it did (a prefix of dst).
func dist2(dst, x, orb []float64) int {
	if !feat.avx512 || len(dst) == 0 {
		return 0
	}
	d := len(x)
	gp := len(orb) / d
	nw := min(gp/Wide, len(dst)/Wide)
	nt := 0
	if nw == gp/Wide {
		nt = (len(dst) - nw*Wide) / Narrow
	}
	if nw+nt == 0 {
		return 0
	}
	dist2AVX512(&dst[0], &x[0], d, &orb[0], nw, nt)
	return nw*Wide + nt*Narrow
}

// dist2AVX512 writes the squared distances of the nw wide blocks and then
// nt narrow blocks at the start of orb to dst (32·nw + 8·nt floats):
// per block and coordinate, t = x_k − o (VSUBPD), t·t (VMULPD), added to
// the lane's sum (VADDPD), as dist2Generic.
//
//go:noescape
func dist2AVX512(dst, x *float64, d int, orb *float64, nw, nt int)
