package orbit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/jsonscan"
)

var _ Finite = (*Matrices)(nil)

const (
	// MaxMatrixOrder caps the closure computed by ReadMatrices.
	MaxMatrixOrder = 1 << 16
	// MaxMatrixEntries caps |G|·d², the stored matrix entries (128 MiB).
	MaxMatrixEntries = 1 << 24
	// MaxMatrixDim caps d for matrix groups.
	MaxMatrixDim = 256
	// MaxMatrixWork caps the worst-case multiply-adds of the closure,
	// G·k·max(d³, matrixProductFloor) for k given matrices of dimension
	// d, where G = min(MaxMatrixOrder, MaxMatrixEntries/d²) is the
	// largest closure allowed: the bound is checked before any O(d³)
	// work, so a request whose closure could run for minutes is refused
	// at once (d = 256 allows one matrix, d = 128 two, d = 64 four,
	// d = 16 sixteen, d ≤ 5 512). What it accepts can still run for
	// seconds to tens of seconds: the closures at the cap are timed in
	// docs/performance.md, "The matrix closure's products"
	// (BenchmarkMatrixWorkCap). 2³² is the least that keeps
	// BenchmarkMatrixClosure's closures, the record behind
	// matrixProductFloor, accepted.
	MaxMatrixWork = 1 << 32
	// MaxMatrixBytes caps the JSON ReadMatrices reads: 16 MiB, eight
	// times the largest input the other caps allow (65 536 numbers, one
	// generator of dimension 256, at ~30 bytes each pretty-printed), so
	// that a huge or endless input is refused before its decoding can
	// take more than a few hundred MiB.
	MaxMatrixBytes = 16 << 20
	// matrixProductFloor is the least work counted for one product of
	// the closure, in multiply-adds: beside its d³ multiply-adds a
	// product is keyed (d²) and looked up in three hash buckets, a fixed
	// cost that dominates for small d and that the floor stands for
	// (BenchmarkMatrixClosure: docs/performance.md, "The matrix
	// closure's products"). Counting d³ alone let a closure of tens of
	// thousands of rotations of the plane (32 768, a few MB of JSON) run
	// for minutes before it failed.
	matrixProductFloor = 128
	// OrthoTol is the tolerance on max |MᵀM − I| for input matrices.
	OrthoTol = 1e-12
	// matchTol is the max-abs tolerance under which two computed group
	// elements are taken as equal during the closure.
	matchTol = 1e-9
)

// Matrices is a finite group of explicit d×d orthogonal matrices, element
// 0 the identity. Build one with ReadMatrices.
type Matrices struct {
	d    int
	elem []float64 // |G|·d·d, element i row-major at [i·d², (i+1)·d²)
	inv  []int
}

// matricesJSON is the input format.
type matricesJSON struct {
	Dim        int           `json:"dim"`
	Generators [][][]float64 `json:"generators"`
	Elements   [][][]float64 `json:"elements"`
}

// ReadMatrices reads a group from JSON
//
//	{"dim": d, "generators": [M1, M2, …]}   or   {"dim": d, "elements": [...]}
//
// where each matrix is an array of d rows of d numbers; "dim" may be
// omitted when a matrix is given. The keys are spelled exactly so, each
// at most once, and no null stands for a number, a row or a matrix
// (encoding/json alone would keep the last of a repeated key, match keys
// in any case and read null as 0). A UTF-8 byte-order mark before the
// JSON is skipped. Every matrix must be orthogonal within
// OrthoTol (max |MᵀM − I|). The result is the group they generate (both
// lists are used as generators; the identity is always element 0),
// computed by breadth-first closure; matrices within 1e-9 (max abs) of each
// other are identified. It fails with ErrTooLarge beyond MaxMatrixOrder
// elements or MaxMatrixEntries stored entries (e.g. a rotation by an
// irrational angle generates an infinite group). A nil r (or a nil
// pointer in it) is ErrInvalid.
func ReadMatrices(r io.Reader) (*Matrices, error) {
	if check.IsNil(r) {
		return nil, invalid("matrices: ReadMatrices needs a reader, got a nil one")
	}
	return readMatrices(r, "")
}

// readMatrices reads matrices from r; src names the source in errors.
func readMatrices(r io.Reader, src string) (*Matrices, error) {
	where := "matrices: "
	if src != "" {
		where = "matrices " + src + ": "
	}
	var in matricesJSON
	lr := &io.LimitedReader{R: r, N: MaxMatrixBytes + 1}
	tooLarge := func() error {
		return fmt.Errorf("%w: %smore than MaxMatrixBytes = %d bytes of JSON", ErrTooLarge, where, MaxMatrixBytes)
	}
	data, err := io.ReadAll(lr)
	if lr.N <= 0 {
		return nil, tooLarge()
	}
	if err != nil {
		return nil, invalid("%s%v", where, err)
	}
	// A UTF-8 byte-order mark, which Windows editors write, is skipped
	// (as in point files).
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, invalid("%s%v", where, err)
	}
	tok, err := dec.Token()
	if err != io.EOF {
		if err != nil {
			return nil, invalid("%safter the JSON value: %v", where, err)
		}
		return nil, invalid("%sunexpected %v after the JSON value", where, tok)
	}
	if err := checkMatricesJSON(data, where); err != nil {
		return nil, err
	}
	gens := append(append([][][]float64(nil), in.Generators...), in.Elements...)
	d := in.Dim
	if d == 0 && len(gens) > 0 {
		d = len(gens[0])
	}
	if d < 1 {
		return nil, invalid("%sneed \"dim\" ≥ 1 or at least one matrix, got dim %d", where, in.Dim)
	}
	if err := checkMatrixSizes(where, d, len(gens)); err != nil {
		return nil, err
	}
	flat := make([][]float64, len(gens))
	for n, M := range gens {
		if len(M) != d {
			return nil, invalid("%smatrix %d has %d rows, want %d", where, n, len(M), d)
		}
		f := make([]float64, 0, d*d)
		for r, row := range M {
			if len(row) != d {
				return nil, invalid("%smatrix %d row %d has %d entries, want %d", where, n, r, len(row), d)
			}
			for _, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, invalid("%smatrix %d has a non-finite entry", where, n)
				}
			}
			f = append(f, row...)
		}
		if e := orthoErr(f, d); e > OrthoTol {
			return nil, invalid("%smatrix %d is not orthogonal: max |MᵀM − I| = %.3g > %g", where, n, e, OrthoTol)
		}
		flat[n] = f
	}
	return closure(d, flat, where)
}

// checkMatricesJSON refuses, in data that decoded as matricesJSON, what
// encoding/json reads silently wrongly: a key given twice (the last one
// wins, so a second "generators": [] would drop the generators), a key
// that is not exactly "dim", "generators" or "elements" (encoding/json
// matches them case-insensitively), and null where a number, a row or a
// matrix goes (read as 0, or as an empty list). null as the whole
// "generators" or "elements" list means none, as its absence does.
//
// data has decoded as one value with nothing after it, so it is valid
// JSON, read by a jsonscan.Scanner: encoding/json's Decoder.Token,
// which read it before, allocated several times per number
// (docs/performance.md, "Reading a matrix group's JSON").
func checkMatricesJSON(data []byte, where string) error {
	var dec interface{ Token() (json.Token, error) } = jsonscan.New(data)
	if !json.Valid(data) { // not reached (see above); the Decoder checks the syntax
		dec = json.NewDecoder(bytes.NewReader(data))
	}
	seen := map[string]bool{}
	depth, key, wantKey := 0, "", false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return invalid("%s%v", where, err)
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			wantKey = depth == 1 && tok == json.Delim('{')
			continue
		case json.Delim('}'), json.Delim(']'):
			depth--
			wantKey = depth == 1 // a value of the top object ended
			continue
		}
		if depth == 1 && wantKey {
			k, _ := tok.(string)
			switch {
			case k != "dim" && k != "generators" && k != "elements":
				return invalid("%skey %q: want \"dim\", \"generators\" or \"elements\", spelled exactly so", where, k)
			case seen[k]:
				return invalid("%s%q given twice", where, k)
			}
			seen[k], key, wantKey = true, k, false
			continue
		}
		if tok == nil && (depth > 1 || key == "dim") {
			return invalid("%snull in %q where a number, a row or a matrix goes (null is not 0)", where, key)
		}
		wantKey = depth == 1
	}
}

// NewMatrices returns the group generated by the given d×d orthogonal
// matrices (each row-major, length d²), as ReadMatrices does. Errors:
// ErrInvalid for d < 1, a matrix of the wrong length, a non-finite or
// non-orthogonal one; ErrTooLarge as ReadMatrices.
func NewMatrices(d int, gens [][]float64) (*Matrices, error) {
	if d < 1 {
		return nil, invalid("matrices need d ≥ 1, got %d", d)
	}
	if err := checkMatrixSizes("matrices: ", d, len(gens)); err != nil {
		return nil, err
	}
	for n, f := range gens {
		if len(f) != d*d {
			return nil, invalid("matrix %d has %d entries, want %d", n, len(f), d*d)
		}
		if e := orthoErr(f, d); e > OrthoTol || math.IsNaN(e) {
			return nil, invalid("matrix %d is not orthogonal: max |MᵀM − I| = %.3g > %g", n, e, OrthoTol)
		}
	}
	return closure(d, gens, "matrices: ")
}

// checkMatrixSizes bounds d and the closure's worst-case work before any
// O(d³) computation (see MaxMatrixDim and MaxMatrixWork).
func checkMatrixSizes(where string, d, ngens int) error {
	if d > MaxMatrixDim {
		return fmt.Errorf("%w: %sdimension %d exceeds MaxMatrixDim = %d", ErrTooLarge, where, d, MaxMatrixDim)
	}
	G := min(MaxMatrixOrder, MaxMatrixEntries/(d*d))
	if work := float64(G) * float64(ngens) * max(float64(d*d*d), matrixProductFloor); work > MaxMatrixWork {
		return fmt.Errorf("%w: %s%d matrices of dimension %d: the closure could need %.2g multiply-adds, over MaxMatrixWork = %d",
			ErrTooLarge, where, ngens, d, work, MaxMatrixWork)
	}
	return nil
}

// orthoErr returns max |MᵀM − I|.
func orthoErr(M []float64, d int) float64 {
	var e float64
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			var s float64
			for k := 0; k < d; k++ {
				s += M[k*d+i] * M[k*d+j]
			}
			if i == j {
				s--
			}
			e = math.Max(e, math.Abs(s))
		}
	}
	return e
}

// elemIndex finds elements by a random linear projection bucketed at a
// width far above rounding error, looking in the neighbouring buckets too.
type elemIndex struct {
	d       int
	w       []float64
	buckets map[int64][]int
	elem    *[]float64
}

const bucketWidth = 1e-6

func newElemIndex(d int, elem *[]float64) *elemIndex {
	rng := rand.New(rand.NewPCG(1, 2))
	w := make([]float64, d*d)
	for k := range w {
		w[k] = rng.Float64()
	}
	return &elemIndex{d: d, w: w, buckets: map[int64][]int{}, elem: elem}
}

func (ix *elemIndex) key(M []float64) int64 {
	var s float64
	for k, v := range M {
		s += ix.w[k] * v
	}
	return int64(math.Floor(s / bucketWidth))
}

func (ix *elemIndex) find(M []float64) int {
	k := ix.key(M)
	dd := ix.d * ix.d
	for b := k - 1; b <= k+1; b++ {
		for _, i := range ix.buckets[b] {
			if closeTo(M, (*ix.elem)[i*dd:(i+1)*dd]) {
				return i
			}
		}
	}
	return -1
}

func (ix *elemIndex) add(M []float64, i int) {
	k := ix.key(M)
	ix.buckets[k] = append(ix.buckets[k], i)
}

func closure(d int, gens [][]float64, where string) (*Matrices, error) {
	dd := d * d
	g := &Matrices{d: d}
	ix := newElemIndex(d, &g.elem)
	id := make([]float64, dd)
	for k := 0; k < d; k++ {
		id[k*d+k] = 1
	}
	g.elem = append(g.elem, id...)
	ix.add(id, 0)
	var uniq [][]float64
	for _, G := range gens {
		if ix.find(G) < 0 && !containsClose(uniq, G) {
			uniq = append(uniq, G)
		}
	}
	prod := make([]float64, dd)
	for e := 0; e*dd < len(g.elem); e++ {
		for _, G := range uniq {
			E := g.elem[e*dd : (e+1)*dd]
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					var s float64
					for k := 0; k < d; k++ {
						s += G[i*d+k] * E[k*d+j]
					}
					prod[i*d+j] = s
				}
			}
			if ix.find(prod) >= 0 {
				continue
			}
			n := len(g.elem) / dd
			if n+1 > MaxMatrixOrder || (n+1)*dd > MaxMatrixEntries {
				return nil, fmt.Errorf("%w: %sgenerate more than %d elements of dimension %d (caps: %d elements, %d entries); is the group finite?",
					ErrTooLarge, where, n, d, MaxMatrixOrder, MaxMatrixEntries)
			}
			g.elem = append(g.elem, prod...)
			ix.add(prod, n)
		}
	}
	n := len(g.elem) / dd
	g.inv = make([]int, n)
	T := make([]float64, dd)
	for e := 0; e < n; e++ {
		E := g.elem[e*dd : (e+1)*dd]
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				T[i*d+j] = E[j*d+i]
			}
		}
		g.inv[e] = ix.find(T)
		if g.inv[e] < 0 {
			return nil, invalid("%sthe inverse of element %d was not found in the closure (rounding drift)", where, e)
		}
	}
	return g, nil
}

func containsClose(list [][]float64, M []float64) bool {
	for _, E := range list {
		if closeTo(M, E) {
			return true
		}
	}
	return false
}

// closeTo reports whether the computed matrices M and E (d·d entries) are
// the same group element: every entry within matchTol.
func closeTo(M, E []float64) bool {
	for t := range M {
		if math.Abs(M[t]-E[t]) > matchTol {
			return false
		}
	}
	return true
}

// Name is "matrices(dim=d,order=n)".
func (g *Matrices) Name() string {
	return fmt.Sprintf("matrices(dim=%d,order=%d)", g.d, len(g.inv))
}
func (g *Matrices) Dim() int        { return g.d }
func (g *Matrices) Order() *big.Int { return big.NewInt(int64(len(g.inv))) }

// Matrix returns a copy of element i (row-major d×d).
func (g *Matrices) Matrix(i int) []float64 {
	checkIndex("matrices", i, len(g.inv))
	dd := g.d * g.d
	return append([]float64(nil), g.elem[i*dd:(i+1)*dd]...)
}

func (g *Matrices) Inverse(i int) int {
	checkIndex("matrices", i, len(g.inv))
	return g.inv[i]
}

// ActTo writes M_i·x into dst (O(d²)).
func (g *Matrices) ActTo(dst, x []float64, i int) {
	checkLen("matrices", dst, x, g.d)
	checkIndex("matrices", i, len(g.inv))
	d := g.d
	M := g.elem[i*d*d : (i+1)*d*d]
	for r := 0; r < d; r++ {
		row := M[r*d : (r+1)*d]
		var s float64
		for k, v := range row {
			s += v * x[k]
		}
		dst[r] = s
	}
}
