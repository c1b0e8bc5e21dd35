package frontend

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// The fuzz targets drive the two paths the C ABI and Python expose, from
// the JSON a caller writes: settings → SuggestSettings.Optimizer → Suggest
// (symbo_suggest, the optimizer handle), and kernel spec → Cross
// (symbo_cross). Nothing in the harnesses caps a size: an absurd d, block,
// init or landmarks must be refused by the code under test, before it
// allocates, within a memory budget of fuzzBudget (orbit buffers,
// matrices and GP work are sized against it first). Settings refused are
// input or size errors (errclass.Input or Size: SYMBO_EINVAL or
// SYMBO_ESIZE), never internal ones; a panic or a crash fails the target.
//
// Three exclusions, none a refusal the code under test owes: the
// "matrices" group, which opens the file its settings name (a fuzzer could
// name a device that blocks, such as /dev/stdin); a "mem_budget" above
// fuzzBudget (raising the budget is the caller's right: one below it, or a
// malformed one, is fuzzed); and, for time, the work
// of valid settings whose one execution would take seconds to minutes.
// FuzzSuggest tells a history of a few points and asks two: the initial
// design runs for every accepted d, the acquisition — 512 raw samples and
// 10 ascents, each evaluation a kernel row whose cost grows with d and,
// for the averaging kernels without a closed form, with |G| (measured: an
// avg over the 46080 signed permutations of d = 6 with a Matérn base,
// 12 s; over blockperm(8,1), 10 s) — for d ≤ fuzzAcqDim and a continuous
// group or one of at most fuzzAcqOrder elements. FuzzCross evaluates
// kernels on at most 8 points of at most 8 coordinates (the data's shape,
// not the spec's d: a spec with another d is refused by Cross).
const (
	fuzzBudget   = 64 << 20
	fuzzAcqDim   = 8
	fuzzAcqOrder = 5040
)

// raisesBudget reports settings whose mem_budget raises the budget above
// fuzzBudget.
func raisesBudget(m Memory) bool {
	b, err := m.Budget(fuzzBudget)
	return err == nil && b > fuzzBudget
}

// fuzzSlow reports calls that took long: the fuzzer's executions must stay
// fast, and a slow one is worth a look (it is not a failure: the machine
// may be loaded).
const fuzzSlow = 20 * time.Second

var fuzzSettings = []string{
	// Valid.
	`{"group":"hyperoctahedral","d":3,"box":[[-2],[2]],"kernel":"plus","seed":1,"init":2}`,
	`{"group":"permutation","d":4,"box":[[-1,-1,-1,-1],[1,1,1,1]],"kernel":"max","acq":"ei","init":2}`,
	`{"group":"signflip","d":2,"box":[[-1],[1]],"kernel":"avg","base":"matern52","beta":"authors","fit":"base","prior":"botorch","init":1}`,
	`{"group":"blockperm","d":4,"block":2,"box":[[0],[1]],"kernel":"plus","landmarks":2,"init":2}`,
	`{"group":"pairedperm","d":4,"box":[[0],[1]],"kernel":"nystrom","init":3}`,
	`{"group":"rotation2d","d":2,"box":[[-1],[1]],"kernel":"avgnorm","init":2}`,
	`{"group":"scaling","d":2,"box":[[0.1],[10]],"kernel":"plus","init":2}`,
	`{"group":"cyclic","d":3,"box":[[-1],[1]],"kernel":"base","minimize":true,"init":2}`,
	`{"group":"none","d":1,"box":[[-1e308],[1e308]],"kernel":"plus","init":2}`,
	`{"problem":"Ackley2d","kernel":"plus","seed":3,"init":3}`,
	`{"problem":"WLAN4d","kernel":"plus","init":2}`,
	`{"problem":"shiftedrastrigin","d":3,"kernel":"max","init":2}`,
	`{"group":"hyperoctahedral","d":3,"box":[[-2],[2]],"kernel":"plus","init":2,"mem_budget":"4KiB"}`,
	// Hostile: the repros and their kin.
	`{"group":"permutation","d":1099511627776,"box":[[-2],[2]],"kernel":"plus"}`,
	`{"group":"permutation","d":2147483648,"box":[[-2],[2]],"kernel":"plus"}`,
	`{"group":"permutation","d":-5,"box":[[-2],[2]],"kernel":"plus"}`,
	`{"group":"scaling","d":9223372036854775807,"box":[[0.1],[10]],"kernel":"plus"}`,
	`{"group":"permutation","d":65536,"box":[[-2],[2]],"kernel":"plus","init":1}`,
	`{"group":"blockperm","d":65536,"block":1,"box":[[-2],[2]],"kernel":"avg","init":1}`,
	`{"group":"hyperoctahedral","d":12,"box":[[-2],[2]],"kernel":"avg","method":"enumerate","init":1}`,
	`{"problem":"ackley","d":1099511627776,"kernel":"plus"}`,
	`{"problem":"wlan","d":-2,"kernel":"plus"}`,
	`{"GROUP":"permutation","d":2,"box":[[-2],[2]],"kernel":"plus"}`,
	`{"group":"permutation","group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus"}`,
	`{"group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus","init":1000001}`,
	`{"group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus","landmarks":-9223372036854775808}`,
	`{"group":"signflip","d":2,"box":[[2],[-2]],"kernel":"plus"}`,
	`{"group":"signflip","d":2,"box":[[-2]],"kernel":"plus"}`,
	`{"group":"signflip","d":2,"box":[[-1e999],[2]],"kernel":"plus"}`,
	`{"group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus","seed":-1}`,
	`{"group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus","mem_budget":"lots"}`,
	`{"group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus","mem_budget":""}`,
	`{"group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus","mem_budget":1024}`,
	`{"group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus","mem_budget":"1e30TiB"}`,
	`{"group":"matrices","matrices":"/dev/stdin","d":2,"box":[[-2],[2]],"kernel":"plus"}`,
	`{"group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus"}{}`,
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	`{"box":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	`null`, ``, `{}`, `{"group":"signflip","d":2,"box":null,"kernel":"plus"}`,
}

var fuzzSpecs = []string{
	`{"group":"hyperoctahedral","d":3,"base":"matern52","lengthscale":1.3,"variance":2,"kernel":"plus"}`,
	`{"group":"permutation","d":3,"base":"rbf","lengthscale":1,"kernel":"avg","method":"closed"}`,
	`{"group":"permutation","d":3,"base":"rbf","lengthscale":1,"kernel":"avg","mem_budget":"64B"}`,
	`{"group":"permutation","d":3,"base":"rbf","lengthscale":1,"kernel":"base","mem_budget":"-1"}`,
	`{"group":"signflip","d":2,"base":"matern12","lengthscale":0.5,"kernel":"max","method":"enumerate"}`,
	`{"group":"scaling","d":2,"box":[[0.1],[10]],"base":"rbf","lengthscale":1,"kernel":"avg"}`,
	`{"group":"rotation2d","base":"matern32","lengthscale":1,"kernel":"avgnorm"}`,
	`{"group":"blockperm","d":4,"block":2,"base":"rbf","lengthscale":1,"kernel":"nystrom"}`,
	`{"group":"none","d":1,"base":"rbf","lengthscale":1,"kernel":"base"}`,
	// Hostile.
	`{"group":"scaling","d":2147483648,"box":[[0.1],[10]],"base":"rbf","lengthscale":1,"kernel":"max"}`,
	`{"group":"scaling","d":-5,"box":[[0.1],[10]],"base":"rbf","lengthscale":1,"kernel":"max"}`,
	`{"group":"permutation","d":1099511627776,"base":"rbf","lengthscale":1,"kernel":"plus"}`,
	`{"group":"hyperoctahedral","d":20,"base":"rbf","lengthscale":1,"kernel":"max","method":"enumerate"}`,
	`{"group":"permutation","d":40,"base":"rbf","lengthscale":1,"kernel":"avg"}`,
	`{"group":"signflip","d":2,"base":"rbf","lengthscale":1,"variance":0,"kernel":"max"}`,
	`{"group":"signflip","d":2,"base":"rbf","lengthscale":1e-300,"variance":1e308,"kernel":"max"}`,
	`{"Group":"signflip","d":2,"base":"rbf","lengthscale":1,"kernel":"max"}`,
	`{"group":"signflip","d":2,"base":"rbf","base":"rbf","lengthscale":1,"kernel":"max"}`,
}

// checkClass fails unless err, from settings or a spec, is an input or
// size error.
func checkClass(t *testing.T, stage string, err error) {
	t.Helper()
	if errclass.Of(err) == errclass.Internal {
		t.Fatalf("%s: %v is neither an input nor a size error (SYMBO_EINTERNAL)", stage, err)
	}
}

func timed(t *testing.T, what string) func() {
	t0 := time.Now()
	return func() {
		if d := time.Since(t0); d > fuzzSlow {
			t.Logf("slow %s: %v", what, d)
		}
	}
}

// fuzzCheap reports whether an acquisition of opt is cheap enough for a
// fuzz execution (see the note above).
func fuzzCheap(opt *bo.Optimizer) bool {
	if opt.Dim() > fuzzAcqDim {
		return false
	}
	g := opt.Config().Kernel.Group()
	if g == nil {
		return true
	}
	n, err := orbit.Size(g)
	return errors.Is(err, orbit.ErrInfinite) || (err == nil && n <= fuzzAcqOrder)
}

// FuzzSuggest: settings JSON → Optimizer → Suggest with a small history
// (points the optimizer asked, told a value; one pending, one failed).
func FuzzSuggest(f *testing.F) {
	for _, s := range fuzzSettings {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer timed(t, "suggest")()
		var st SuggestSettings
		if err := Decode(data, &st); err != nil {
			checkClass(t, "decode", err)
			return
		}
		if st.Matrices != "" || strings.EqualFold(strings.TrimSpace(st.Group.Group), "matrices") {
			return // opens a file: see the note above
		}
		if raisesBudget(st.Memory) {
			return // the caller's to allow: see the note above
		}
		opt, err := st.Optimizer(nil, fuzzBudget)
		if err != nil {
			checkClass(t, "settings", err)
			return
		}
		d := opt.Dim()
		if d < 1 || d > 1<<16 {
			t.Fatalf("an optimizer of dimension %d", d)
		}
		// The history: the initial design's first points (cheap for any
		// d), told values that vary.
		pts, err := opt.AskBatch(4)
		if err != nil {
			return
		}
		hx := mat.NewDense(2, d, nil)
		hy := []float64{1, -2.5}
		hx.SetRow(0, pts[0])
		hx.SetRow(1, pts[1])
		pend := mat.NewDense(1, d, pts[2])
		failed := mat.NewDense(1, d, pts[3])
		fresh, err := st.Optimizer(nil, fuzzBudget)
		if err != nil {
			t.Fatalf("settings accepted once, then refused: %v", err)
		}
		if err := Record(fresh, hx, hy, pend, failed); err != nil {
			t.Fatalf("recording the optimizer's own points: %v", err)
		}
		// The second of the two points asked is an acquisition unless the
		// initial design has more than the 2 + 2 + 1 points handed out by
		// then.
		if fresh.Config().Init <= 5 && !fuzzCheap(fresh) {
			return // the acquisition's cost: see the note above
		}
		fresh, _ = st.Optimizer(nil, fuzzBudget)
		out, err := Suggest(fresh, hx, hy, pend, failed, 2)
		if err != nil {
			return // a fit may fail on hostile magnitudes; it must not panic
		}
		if r, c := out.Dims(); r != 2 || c != d {
			t.Fatalf("Suggest gave %d×%d, want 2×%d", r, c, d)
		}
	})
}

// FuzzCross: kernel spec JSON → Cross on n points of cols coordinates
// (n, cols from the fuzzer: the spec's d need not match).
func FuzzCross(f *testing.F) {
	for i, s := range fuzzSpecs {
		f.Add([]byte(s), uint8(3+i%5), uint8(1+i%4), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, data []byte, n, cols uint8, withY bool) {
		defer timed(t, "cross")()
		var ks KernelSpec
		if err := Decode(data, &ks); err != nil {
			checkClass(t, "decode", err)
			return
		}
		if ks.Matrices != "" || strings.EqualFold(strings.TrimSpace(ks.Group.Group), "matrices") {
			return // opens a file: see the note above
		}
		if raisesBudget(ks.Memory) {
			return // the caller's to allow: see the note above
		}
		rows, c := 1+int(n%8), 1+int(cols%8)
		x := mat.NewDense(rows, c, nil)
		for i := range x.RawMatrix().Data {
			x.RawMatrix().Data[i] = float64((i*37)%23-11) / 8
		}
		var y *mat.Dense
		if withY {
			y = mat.NewDense(2, c, nil)
			y.Set(1, 0, 0.75)
		}
		k, err := Cross(ks, x, y, nil, nil, fuzzBudget)
		if err != nil {
			checkClass(t, "cross", err) // a dimension mismatch, a group without the kernel's method, …
			return
		}
		m := rows
		if withY {
			m = 2
		}
		if r, cc := k.Dims(); r != rows || cc != m {
			t.Fatalf("Cross gave %d×%d, want %d×%d", r, cc, rows, m)
		}
	})
}
