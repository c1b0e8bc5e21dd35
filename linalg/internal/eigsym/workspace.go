package eigsym

// workspace holds the scratch of one decomposition. Buffers grow as needed
// and are reused.
type workspace struct {
	d, e, tau               []float64
	vw, t1, v, y, symv, dcf []float64 // sytrd, stedc
	ovt, ot                 []float64 // ormtr
	proj                    []float64 // ValuesProject
	order, dci, ooff        []int     // stedc, ormtr
}

// floats returns (*p)[:n], reallocating *p when it is too short.
func (ws *workspace) floats(p *[]float64, n int) []float64 {
	if cap(*p) < n {
		*p = make([]float64, n)
	}
	*p = (*p)[:n]
	return *p
}

// ints is floats for int slices.
func (ws *workspace) ints(p *[]int, n int) []int {
	if cap(*p) < n {
		*p = make([]int, n)
	}
	*p = (*p)[:n]
	return *p
}
