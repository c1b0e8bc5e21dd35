package frontend

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

func TestDecodeStrict(t *testing.T) {
	var k KernelSpec
	for _, bad := range []string{`{"kernel":"plus","nope":1}`, `{"kernel":"plus"} x`, `[`, ``} {
		if err := Decode([]byte(bad), &k); !errors.Is(err, ErrInvalid) {
			t.Errorf("Decode(%q): %v", bad, err)
		}
	}
	if err := Decode([]byte(`{"group":"signflip","d":2,"base":"rbf","lengthscale":1,"kernel":"max"}`+"\n"), &k); err != nil {
		t.Fatal(err)
	}
}

func TestSuggestRowErrors(t *testing.T) {
	s := SuggestSettings{Group: Group{Group: "signflip", D: 2, Box: [][]float64{{-1}, {1}}}, Kernel: "plus"}
	opt, err := s.Optimizer(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Suggest(opt, mat.NewDense(2, 2, []float64{0, 0, 3, 0}), []float64{1, 2}, nil, nil, 1)
	var re *RowError
	if !errors.As(err, &re) || re.Input != "history" || re.Row != 1 {
		t.Fatalf("error %v, want a history row 1 error", err)
	}
	for _, bad := range []SuggestSettings{
		{Kernel: "plus"},
		{Problem: "Ackley2d", Group: Group{Group: "signflip"}, Kernel: "plus"},
		{Group: Group{Group: "signflip", D: 2}, Kernel: "plus"},
		{Problem: "WLAN4d", Kernel: "plus", Minimize: new(true)},
	} {
		if _, err := bad.Optimizer(nil, 0); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestSuggestLandmarks: "landmarks" reaches the optimizer — the design
// cap changes the suggestion once the history exceeds it, and a cap
// beyond bo.MaxEvaluations is refused.
func TestSuggestLandmarks(t *testing.T) {
	var s SuggestSettings
	if err := Decode([]byte(`{"group":"hyperoctahedral","d":3,"box":[[-2],[2]],"kernel":"plus","seed":4,"landmarks":3}`), &s); err != nil || s.Landmarks != 3 {
		t.Fatalf("decode: %+v, %v", s, err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	hx := mat.NewDense(9, 3, nil)
	hy := make([]float64, 9)
	for i := range 9 {
		for j := range 3 {
			hx.Set(i, j, 4*rng.Float64()-2)
		}
		hy[i] = hx.At(i, 0)*hx.At(i, 1) - hx.At(i, 2)*hx.At(i, 2)
	}
	suggest := func(lm int) []float64 {
		st := s
		st.Landmarks = lm
		opt, err := st.Optimizer(nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Suggest(opt, hx, hy, nil, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		return out.RawRowView(0)
	}
	a, b, c := suggest(3), suggest(3), suggest(-1)
	if !mat.Equal(mat.NewVecDense(3, a), mat.NewVecDense(3, b)) {
		t.Errorf("not deterministic: %v, %v", a, b)
	}
	if mat.Equal(mat.NewVecDense(3, a), mat.NewVecDense(3, c)) {
		t.Errorf("3 landmarks and the full design of 9 points suggest the same %v", a)
	}
	s.Landmarks = 2_000_000
	if _, err := s.Optimizer(nil, 0); err == nil {
		t.Error("landmarks beyond MaxEvaluations accepted")
	}
}

// BenchmarkCross times the Go side of symbo.gram (the Python package's
// overhead study compares the two in one run).
func BenchmarkCross(b *testing.B) {
	be, err := linalg.Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, kern := range []string{"max", "plus"} {
		for _, n := range []int{55, 1000} {
			rng := rand.New(rand.NewPCG(1, 2))
			x := mat.NewDense(n, 5, nil)
			for i := range x.RawMatrix().Data {
				x.RawMatrix().Data[i] = rng.Float64()*4 - 2
			}
			spec := KernelSpec{Group: Group{Group: "hyperoctahedral", D: 5}, Base: "rbf", Lengthscale: 1, Kernel: kern}
			b.Run(fmt.Sprintf("kernel=%s/n=%d", kern, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := Cross(spec, x, nil, nil, be, 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestDecodeKeys: settings keys are case-sensitive, given once, known —
// at every nesting level (encoding/json alone took "GROUP" for "group"
// and kept the last of two "group"s).
func TestDecodeKeys(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"case", `{"GROUP":"signflip","d":2,"box":[[-1],[1]],"kernel":"plus"}`, `unknown field "GROUP" (field names are case-sensitive: did you mean "group"?)`},
		{"case of a promoted field", `{"group":"signflip","D":2,"box":[[-1],[1]],"kernel":"plus"}`, `did you mean "d"?`},
		{"duplicate", `{"group":"signflip","group":"permutation","d":2,"box":[[-1],[1]],"kernel":"plus"}`, `duplicate field "group"`},
		{"duplicate promoted", `{"group":"signflip","d":2,"d":3,"box":[[-1],[1]],"kernel":"plus"}`, `duplicate field "d"`},
		{"unknown", `{"group":"signflip","d":2,"box":[[-1],[1]],"kernel":"plus","extra":{"a":[1,{"b":2}]}}`, `unknown field "extra"`},
		{"malformed", `{"group":"signflip",`, `malformed JSON`},
		{"trailing", `{"kernel":"plus"} {}`, `data after the JSON value`},
		{"type", `{"group":"signflip","d":"2","kernel":"plus"}`, `"d": got a JSON string`},
		{"too big for int", `{"group":"signflip","d":1e30,"kernel":"plus"}`, `"d": got the number 1e30`},
		{"not finite", `{"group":"scaling","d":1,"box":[[1e999],[2]],"kernel":"plus"}`, `"box": got the number 1e999, which is not a finite number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s SuggestSettings
			err := Decode([]byte(tc.in), &s)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Decode(%s): %v, want ErrInvalid with %q", tc.in, err, tc.want)
			}
		})
	}
	// Nested records: a history's observations.
	var h bo.History
	for in, want := range map[string]string{
		`{"version":2,"observations":[{"x":[1],"y":2},{"x":[1],"Y":2}]}`:           `unknown field "observations[1].Y" (field names are case-sensitive: did you mean "y"?)`,
		`{"version":2,"observations":[{"x":[1],"y":2,"y":3}]}`:                     `duplicate field "observations[0].y"`,
		`{"version":2,"observations":[{"x":[1],"y":2}],"pending":[[1]],"p":[[1]]}`: `unknown field "p"`,
	} {
		if err := Decode([]byte(in), &h); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%s): %v, want %q", in, err, want)
		}
	}
	// What is valid still decodes: promoted fields, nested records, null.
	var s SuggestSettings
	if err := Decode([]byte(`{"group":"signflip","d":2,"box":[[-1],[1]],"kernel":"plus","seed":7}`), &s); err != nil ||
		s.Group.Group != "signflip" || s.D != 2 || s.Seed != 7 || len(s.Box) != 2 {
		t.Errorf("valid settings: %+v, %v", s, err)
	}
	h = bo.History{}
	if err := Decode([]byte(`{"version":2,"seed":1,"kernel":"plus","dim":1,"minimize":true,"observations":[{"x":[0.5],"y":-1}],"failed":[[0.25]]}`), &h); err != nil ||
		len(h.Observations) != 1 || h.Observations[0].Y != -1 || len(h.Failed) != 1 {
		t.Errorf("valid history: %+v, %v", h, err)
	}
	if err := Decode([]byte(`null`), &s); err != nil {
		t.Errorf("null: %v", err)
	}
}

// TestAbsurdSizes: the repros. A dimension outside
// [1, orbit.MaxDim] is ErrInvalid before anything is sized by it (before,
// Group.box ran make([]float64, d) first: d = 2^31 and 2^40 died of "fatal
// error: out of memory", d = -5 panicked in makeslice).
func TestAbsurdSizes(t *testing.T) {
	for _, d := range []string{"2147483648", "1099511627776", "-5", "65537", "9223372036854775807", "0"} {
		for _, tc := range []struct{ what, spec string }{
			{"cross scaling", `{"group":"scaling","d":` + d + `,"box":[[0.1],[10]],"base":"rbf","lengthscale":1,"kernel":"max"}`},
			{"cross permutation", `{"group":"permutation","d":` + d + `,"base":"rbf","lengthscale":1,"kernel":"max"}`},
		} {
			if d == "0" && tc.what == "cross permutation" {
				continue // d = 0 is left to the group there (rotation2d's default); permutation refuses it itself
			}
			var ks KernelSpec
			if err := Decode([]byte(tc.spec), &ks); err != nil {
				t.Fatal(err)
			}
			_, err := Cross(ks, mat.NewDense(1, 1, []float64{1}), nil, nil, nil, 0)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "d = "+d) || errclass.Of(err) != errclass.Input {
				t.Errorf("%s d = %s: %v, want ErrInvalid naming d", tc.what, d, err)
			}
		}
		for _, g := range []string{"permutation", "scaling", "signflip", "blockperm"} {
			var st SuggestSettings
			if err := Decode([]byte(`{"group":"`+g+`","d":`+d+`,"box":[[-2],[2]],"kernel":"plus","block":1}`), &st); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Optimizer(nil, 0); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "d = "+d) {
				t.Errorf("suggest %s d = %s: %v, want ErrInvalid naming d", g, d, err)
			}
		}
	}
	// The largest dimension the optimizer takes is accepted (groups go to
	// orbit.MaxDim, the optimizer's quasi-random samples to bo.MaxDim),
	// one more is input, and the message names the optimizer's bound (it
	// named orbit.MaxDim's up to 65536, so a user who followed it got a
	// second refusal).
	st := SuggestSettings{Group: Group{Group: "permutation", D: bo.MaxDim, Box: [][]float64{{-2}, {2}}}, Kernel: "plus"}
	if opt, err := st.Optimizer(nil, 0); err != nil || opt.Dim() != bo.MaxDim {
		t.Errorf("d = bo.MaxDim: %v", err)
	}
	for _, d := range []int{bo.MaxDim + 1, 70000} {
		st.D = d
		want := fmt.Sprintf("≤ %d", bo.MaxDim)
		if _, err := st.Optimizer(nil, 0); errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), want) {
			t.Errorf("d = %d: %v, want input naming %q", d, err, want)
		}
	}
}

// TestVariance: an absent variance is 1; a given one must be positive
// ("variance": 0 was taken for 1).
func TestVariance(t *testing.T) {
	x := mat.NewDense(2, 2, []float64{0, 0, 1, 0.5})
	cross := func(spec string) (*mat.Dense, error) {
		var ks KernelSpec
		if err := Decode([]byte(spec), &ks); err != nil {
			return nil, err
		}
		return Cross(ks, x, nil, nil, nil, 0)
	}
	absent, err := cross(`{"group":"signflip","d":2,"base":"rbf","lengthscale":1,"kernel":"max"}`)
	if err != nil {
		t.Fatal(err)
	}
	one, err := cross(`{"group":"signflip","d":2,"base":"rbf","lengthscale":1,"variance":1,"kernel":"max"}`)
	if err != nil || !mat.Equal(absent, one) {
		t.Errorf("absent variance is not 1: %v", err)
	}
	for _, v := range []string{"0", "-1", "0.0"} {
		_, err := cross(`{"group":"signflip","d":2,"base":"rbf","lengthscale":1,"variance":` + v + `,"kernel":"max"}`)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "variance") {
			t.Errorf("variance %s: %v", v, err)
		}
	}
}

// TestSuggestFailed: failed rows are recorded after the history and the
// pending points: with no row both pending and failed (TestRecordState
// has one) the suggestion is the optimizer's after the same calls with
// Fail, off the failed point's orbit; a failed row outside the box is a
// RowError naming it.
func TestSuggestFailed(t *testing.T) {
	s := SuggestSettings{Group: Group{Group: "hyperoctahedral", D: 2, Box: [][]float64{{-2}, {2}}}, Kernel: "plus", Seed: 5, Init: new(3)}
	hx := mat.NewDense(4, 2, []float64{1, 0.5, -1.5, 0.25, 0.1, -1.9, 1.2, 1.3})
	hy := []float64{1, 2, 0.5, 3}
	pend := mat.NewDense(1, 2, []float64{-0.3, 0.7})
	failed := mat.NewDense(2, 2, []float64{1.9, 1.9, 0.4, -0.2})
	opt, _ := s.Optimizer(nil, 0)
	got, err := Suggest(opt, hx, hy, pend, failed, 2)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := s.Optimizer(nil, 0)
	for i := range 4 {
		_ = ref.Tell(hx.RawRowView(i), hy[i])
	}
	_ = ref.AddPending(pend.RawRowView(0))
	_ = ref.Fail(failed.RawRowView(0))
	_ = ref.Fail(failed.RawRowView(1))
	want, err := ref.AskBatch(2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if !slices.Equal(got.RawRowView(i), want[i]) {
			t.Errorf("point %d: %v, want %v", i, got.RawRowView(i), want[i])
		}
	}
	if f := opt.Failed(); len(f) != 2 || len(opt.Pending()) != 3 {
		t.Errorf("failed %v, pending %v", f, opt.Pending())
	}
	opt, _ = s.Optimizer(nil, 0)
	_, err = Suggest(opt, hx, hy, nil, mat.NewDense(2, 2, []float64{0, 0, 5, 0}), 1)
	var re *RowError
	if !errors.As(err, &re) || re.Input != "failed" || re.Row != 1 || errclass.Of(err) != errclass.Input {
		t.Errorf("failed row outside the box: %v", err)
	}
	if _, err := Suggest(opt, nil, []float64{1}, nil, nil, 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("values without points: %v", err)
	}
}

// TestTrimPrefixes: front ends show messages without symbo's package
// prefixes, however many lead and wherever a wrapped error puts them,
// but a user's quoted input is shown as it was.
func TestTrimPrefixes(t *testing.T) {
	for in, want := range map[string]string{
		"frontend: invalid settings: d = -5":                    "invalid settings: d = -5",
		"bo: invalid configuration: kernel plus: orbit: bad":    "invalid configuration: kernel plus: bad",
		"suggest: bo: orbit: x":                                 "x",
		"bo: ":                                                  "bo: ",
		"history row 1: bo: invalid point: x[0] = 5 is outside": "history row 1: invalid point: x[0] = 5 is outside",
		"kernel avg: gp: avg family: kernel: avg over G: orbit: group too large": "kernel avg: avg family: avg over G: group too large",
		`unknown kernel "x: bo: y": gp: no`:                                      `unknown kernel "x: bo: y": no`,
		"ends with: bo: ":                                                        "ends with: bo: ",
		"a lone \" quote: kernel: z":                                             "a lone \" quote: z",
		"robot: arm: x":                                                          "robot: arm: x",
	} {
		if got := TrimPrefixes(in, "suggest"); got != want {
			t.Errorf("TrimPrefixes(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestErrorClasses: frontend's own errors are input errors
// (internal/errclass), a RowError whatever its row ran into; the class
// goes by identity, not by message text. That every package-level
// sentinel has a class is errclass's TestSentinelsClassified.
func TestErrorClasses(t *testing.T) {
	for _, err := range []error{
		ErrInvalid,
		invalid("d = %d", -5),
		fmt.Errorf("x: %w", &RowError{Input: "history", Err: errors.New("?")}),
		&RowError{Input: "pending", Err: fmt.Errorf("%w", orbit.ErrOverBudget)},
	} {
		if c := errclass.Of(err); c != errclass.Input {
			t.Errorf("%v: class %v, want input", err, c)
		}
	}
	if c := errclass.Of(errors.New(ErrInvalid.Error())); c != errclass.Internal {
		t.Errorf("an error with ErrInvalid's text is %v", c)
	}
}

// TestCoords: "coords" makes the group act on some coordinates only, in
// the settings of suggest and in kernel specs (scaling takes the box of
// its coordinates); an empty or bad list is invalid input.
func TestCoords(t *testing.T) {
	var s SuggestSettings
	js := `{"group":"permutation","d":5,"coords":[3,0,1],"box":[[-1],[1]],"kernel":"avg","seed":2}`
	if err := Decode([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	opt, err := s.Optimizer(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := opt.Config().Kernel.Group()
	if e, ok := g.(orbit.Embedded); !ok || g.Dim() != 5 {
		t.Fatalf("group %v (%T)", g.Name(), g)
	} else if in, c := e.Inner(); in.Dim() != 3 || !slices.Equal(c, []int{3, 0, 1}) {
		t.Errorf("inner %s on %v", in.Name(), c)
	}
	var k KernelSpec
	js = `{"group":"scaling","d":3,"coords":[0,2],"box":[[0.5,-1,0.1],[2,1,10]],"base":"rbf","lengthscale":1,"kernel":"max"}`
	if err := Decode([]byte(js), &k); err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(2, 3, []float64{1, 0.3, 1, 1.5, -0.2, 0.5})
	K, err := Cross(k, x, nil, nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if K.At(0, 1) <= 0 || K.At(0, 1) > 1 {
		t.Errorf("k_max = %v", K.At(0, 1))
	}
	for _, bad := range []string{`[]`, `[0,0]`, `[0,9]`, `[-1]`, `[0,1,2,3,4,5]`} {
		var s SuggestSettings
		js := `{"group":"signflip","d":5,"box":[[-1],[1]],"kernel":"plus","coords":` + bad + `}`
		if err := Decode([]byte(js), &s); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Optimizer(nil, 0); errclass.Of(err) != errclass.Input {
			t.Errorf("coords %s: %v", bad, err)
		}
	}
}

// TestDefaults: settings that name nothing get bo.Recommended's
// configuration, field for field, and propose bit for bit what a Go
// program with bo.Recommended proposes for the same seed and history;
// settings that spell the recommended values out build the same
// optimizer.
func TestDefaults(t *testing.T) {
	var bare, named SuggestSettings
	if err := Decode([]byte(`{"group":"signflip","d":2,"box":[[-1],[1]],"seed":3}`), &bare); err != nil {
		t.Fatal(err)
	}
	spec := fmt.Sprintf(`{"group":"signflip","d":2,"box":[[-1],[1]],"seed":3,"kernel":%q,"prior":"botorch","mean":"constant","candidate_fit":"anchored","probe_window":%d,"hedge":%d,"beta_scale":%v}`,
		bo.RecommendedKernel, bo.DefaultProbeWindow, bo.DefaultHedgeStarts, bo.DefaultBetaScale)
	if err := Decode([]byte(spec), &named); err != nil {
		t.Fatal(err)
	}
	a, err := bare.Optimizer(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := named.Optimizer(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := orbit.SignFlip(2)
	rec, err := bo.Recommended(g, kernel.RBF)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []bo.Config{a.Config(), b.Config()} {
		if c.Kernel.Name() != rec.Kernel.Name() || c.Prior != rec.Prior || c.Mean != rec.Mean || c.Kernel.Options() != rec.Kernel.Options() ||
			c.ExcludeObserved != rec.ExcludeObserved || c.Liar != rec.Liar || c.Beta != rec.Beta || c.BetaScale != rec.BetaScale {
			t.Errorf("front end: kernel %s, prior %v, mean %v, candidate fit %v, probe window %d, exclude observed %v, beta scale %v; bo.Recommended: %s, %v, %v, %v, %d, %v, %v",
				c.Kernel.Name(), c.Prior, c.Mean, c.Kernel.Options().CandidateFit, c.Kernel.Options().ProbeWindow, c.ExcludeObserved, c.BetaScale,
				rec.Kernel.Name(), rec.Prior, rec.Mean, rec.Kernel.Options().CandidateFit, rec.Kernel.Options().ProbeWindow, rec.ExcludeObserved, rec.BetaScale)
		}
	}
	// The same proposals, bit for bit: the initial design and BO steps.
	goOpt, err := bo.New([]float64{-1, -1}, []float64{1, 1}, rec, 3)
	if err != nil {
		t.Fatal(err)
	}
	f := func(x []float64) float64 { return math.Cos(3*x[0]) + x[1]*x[1] }
	for i := range 8 {
		x, err := goOpt.Ask()
		if err != nil {
			t.Fatal(err)
		}
		y, err := a.Ask()
		if err != nil {
			t.Fatal(err)
		}
		if !check.SameBits(x, y) {
			t.Fatalf("ask %d: bo.Recommended proposes %v, the front end's defaults %v", i, x, y)
		}
		if err := goOpt.Tell(x, f(x)); err != nil {
			t.Fatal(err)
		}
		if err := a.Tell(y, f(y)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNamedKernelIsParseRecommended: a kernel the settings name is
// bo.ParseRecommended's (the recommended deciding options kept, not
// ParseKernel's paper protocol), and a Go program that sets it on
// bo.Recommended's Config proposes bit for bit what the front end does —
// with avg named, the probe's rule among them (ParseKernel's probe fires
// unconditionally and the two part within a few steps).
func TestNamedKernelIsParseRecommended(t *testing.T) {
	g, _ := orbit.SignFlip(2)
	for _, name := range []string{"portfolio:nystrom+avg:soft+plus", "auto", "portfolio:nystrom+plus", "plus"} {
		var s SuggestSettings
		if err := Decode([]byte(fmt.Sprintf(`{"group":"signflip","d":2,"box":[[-1],[1]],"seed":3,"kernel":%q}`, name)), &s); err != nil {
			t.Fatal(err)
		}
		fe, err := s.Optimizer(nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		k, err := bo.ParseRecommended(name, g, kernel.RBF)
		if err != nil {
			t.Fatal(err)
		}
		if c := fe.Config(); c.Kernel.Name() != k.Name() || c.Kernel.Options() != k.Options() {
			t.Fatalf("%s: front end kernel %s with %+v, ParseRecommended's %s with %+v", name, c.Kernel.Name(), c.Kernel.Options(), k.Name(), k.Options())
		}
		if name != "portfolio:nystrom+avg:soft+plus" {
			continue
		}
		cfg, err := bo.Recommended(g, kernel.RBF)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Kernel = k
		goOpt, err := bo.New([]float64{-1, -1}, []float64{1, 1}, cfg, 3)
		if err != nil {
			t.Fatal(err)
		}
		f := func(x []float64) float64 { return math.Cos(3*x[0]+1) + (x[1]-0.4)*(x[1]-0.4) }
		for i := range 10 {
			x, err := goOpt.Ask()
			if err != nil {
				t.Fatal(err)
			}
			y, err := fe.Ask()
			if err != nil {
				t.Fatal(err)
			}
			if !check.SameBits(x, y) {
				t.Fatalf("%s, ask %d: Go with ParseRecommended proposes %v, the front end %v", name, i, x, y)
			}
			if err := goOpt.Tell(x, f(x)); err != nil {
				t.Fatal(err)
			}
			if err := fe.Tell(y, f(y)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSuggestProbeWindow: "probe_window" sets the kernel's
// DecideOptions.ProbeWindow with bo's meaning — absent
// bo.DefaultProbeWindow (5), 0 no limit, a positive value itself — and a
// negative one or one above bo.MaxEvaluations is bad input.
func TestSuggestProbeWindow(t *testing.T) {
	for in, want := range map[string]int{"": 5, "0": 0, "3": 3} {
		var st SuggestSettings
		data := `{"problem": "Ackley2d"}`
		if in != "" {
			data = fmt.Sprintf(`{"problem": "Ackley2d", "probe_window": %s}`, in)
		}
		if err := Decode([]byte(data), &st); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		opt, err := st.Optimizer(nil, 0)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := opt.Config().Kernel.Options().ProbeWindow; got != want {
			t.Errorf("%q: ProbeWindow %d, want %d", in, got, want)
		}
	}
	for _, w := range []int{-1, bo.MaxEvaluations + 1} {
		st := SuggestSettings{Problem: "Ackley2d", ProbeWindow: &w}
		if _, err := st.Optimizer(nil, 0); err == nil || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), "probe_window") {
			t.Errorf("probe_window %d: %v", w, err)
		}
	}
}

// TestSuggestHedge: "hedge" sets the kernel's DecideOptions.Hedge and
// HedgeStarts — absent bo.Recommended's (hedged, bo.DefaultHedgeStarts),
// 0 no hedging, S hedged with S ascents — and a value below 0 or above
// bo.DefaultStarts is bad input. Without hedging a step's referee rates
// one proposal per candidate, with it two.
func TestSuggestHedge(t *testing.T) {
	type want struct {
		hedge  bool
		starts int
	}
	for in, w := range map[string]want{"": {true, bo.DefaultHedgeStarts}, "0": {false, 0}, "4": {true, 4}} {
		var st SuggestSettings
		data := `{"problem": "Ackley2d", "seed": 2}`
		if in != "" {
			data = fmt.Sprintf(`{"problem": "Ackley2d", "seed": 2, "hedge": %s}`, in)
		}
		if err := Decode([]byte(data), &st); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		opt, err := st.Optimizer(nil, 0)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		dec := opt.Config().Kernel.Options()
		if dec.Hedge != w.hedge || dec.Hedge && dec.HedgeStarts != w.starts {
			t.Errorf("%q: Hedge %v, HedgeStarts %d; want %v, %d", in, dec.Hedge, dec.HedgeStarts, w.hedge, w.starts)
		}
		p, err := problem.New("Ackley2d", 0)
		if err != nil {
			t.Fatal(err)
		}
		for range 6 {
			x, err := opt.Ask()
			if err != nil {
				t.Fatal(err)
			}
			y, err := p.Evaluate(x)
			if err != nil {
				t.Fatal(err)
			}
			if err := opt.Tell(x, y); err != nil {
				t.Fatal(err)
			}
		}
		perArm := 1
		if w.hedge {
			perArm = 2
		}
		if got := len(opt.Diagnostics().Means); got != 3*perArm {
			t.Errorf("%q: the referee rated %d proposals, want %d", in, got, 3*perArm)
		}
	}
	for _, h := range []int{-1, bo.DefaultStarts + 1} {
		st := SuggestSettings{Problem: "Ackley2d", Hedge: &h}
		if _, err := st.Optimizer(nil, 0); err == nil || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), "hedge") {
			t.Errorf("hedge %d: %v", h, err)
		}
	}
}

// TestSuggestBetaScale: "beta_scale" sets bo.Protocol.BetaScale — absent
// bo.DefaultBetaScale, a value itself — and UCB's β after the same
// history is that factor times the rule's own (the run with 1); 0, a
// negative value or ±Inf is bad input.
func TestSuggestBetaScale(t *testing.T) {
	p, err := problem.New("Ackley2d", 0)
	if err != nil {
		t.Fatal(err)
	}
	betas := map[string]float64{}
	for in, want := range map[string]float64{"": bo.DefaultBetaScale, "1": 1, "0.5": 0.5} {
		var st SuggestSettings
		data := `{"problem": "Ackley2d", "seed": 4, "kernel": "plus", "init": 3}`
		if in != "" {
			data = fmt.Sprintf(`{"problem": "Ackley2d", "seed": 4, "kernel": "plus", "init": 3, "beta_scale": %s}`, in)
		}
		if err := Decode([]byte(data), &st); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		opt, err := st.Optimizer(nil, 0)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := opt.Config().BetaScale; got != want {
			t.Errorf("%q: BetaScale %v, want %v", in, got, want)
		}
		// Every factor's run: the initial design's three points (which β
		// does not change), two BO steps, then the third BO step's β
		// (t = 3; the first step's t = 1 gives β = 0 for any factor).
		for range 5 {
			x, err := opt.Ask()
			if err != nil {
				t.Fatal(err)
			}
			y, _ := p.Evaluate(x)
			if err := opt.Tell(x, y); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := opt.Ask(); err != nil {
			t.Fatal(err)
		}
		betas[in] = opt.Diagnostics().Beta
	}
	// The rule's β_t depends on n, d and Init only, the same for every
	// run: 0.5·2·log 3.
	if d := math.Abs(betas["1"] - math.Log(3)); d > 1e-15 {
		t.Fatalf("β with factor 1 = %v, want log 3", betas["1"])
	}
	for in, f := range map[string]float64{"": bo.DefaultBetaScale, "0.5": 0.5} {
		if d := math.Abs(betas[in] - f*betas["1"]); d > 1e-15*betas["1"] {
			t.Errorf("%q: β %v, want %v × %v", in, betas[in], f, betas["1"])
		}
	}
	for _, b := range []float64{0, -1, math.Inf(1), math.NaN(), 1e308, 2 * bo.MaxBetaScale} {
		st := SuggestSettings{Problem: "Ackley2d", BetaScale: &b}
		if _, err := st.Optimizer(nil, 0); err == nil || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), "beta_scale") {
			t.Errorf("beta_scale %v: %v", b, err)
		}
	}
}

// TestSuggestCandidateFit: "candidate_fit" sets bo.DecideOptions.CandidateFit
// (absent: DefaultCandidateFit, anchored), and an unknown value is bad
// input.
func TestSuggestCandidateFit(t *testing.T) {
	for in, want := range map[string]bo.CandidateFit{"": bo.CandidateFitAnchored, "own": bo.CandidateFitOwn, "anchored": bo.CandidateFitAnchored, " Anchored ": bo.CandidateFitAnchored} {
		var st SuggestSettings
		data := `{"problem": "Ackley2d"}`
		if in != "" {
			data = fmt.Sprintf(`{"problem": "Ackley2d", "candidate_fit": %q}`, in)
		}
		if err := Decode([]byte(data), &st); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		opt, err := st.Optimizer(nil, 0)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := opt.Config().Kernel.Options().CandidateFit; got != want {
			t.Errorf("%q: CandidateFit %v, want %v", in, got, want)
		}
	}
	st := SuggestSettings{Problem: "Ackley2d", CandidateFit: "shared"}
	if _, err := st.Optimizer(nil, 0); err == nil || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), "anchored") {
		t.Errorf("candidate_fit shared: %v", err)
	}
}

// TestSuggestAfford: a candidate list the settings name is held to
// Recommended's DecideOptions.Afford: over a scaling group avg is left
// out (its quadrature per pair stepped up to 89× plus's), and over
// hyperoctahedral(3) with Matérn-5/2 (k_avg enumerated over 48
// elements, over AffordEnumerateLimit), and the optimizer says so; over
// permutation(3) (6 elements) the list keeps it.
func TestSuggestAfford(t *testing.T) {
	st := SuggestSettings{Group: Group{Group: "scaling", D: 2, Box: [][]float64{{0.1}, {10}}}, Kernel: "portfolio:nystrom+avg:soft+plus"}
	opt, err := st.Optimizer(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	k := opt.Config().Kernel
	if slices.Contains(k.Candidates(), bo.NameAvg) || len(k.LeftOut()) != 1 || !strings.Contains(k.LeftOut()[0], "quadrature") {
		t.Errorf("candidates %v, left out %q", k.Candidates(), k.LeftOut())
	}
	st.Kernel = "portfolio:avg+avgnorm"
	if _, err := st.Optimizer(nil, 0); err == nil || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), "no candidate") {
		t.Errorf("a list of avg and avgnorm alone: %v", err)
	}
	for _, c := range []struct {
		group string
		d     int
		keep  bool
	}{{"hyperoctahedral", 3, false}, {"permutation", 3, true}} {
		st := SuggestSettings{Group: Group{Group: c.group, D: c.d, Box: [][]float64{{-1}, {1}}}, Base: "matern52", Kernel: "portfolio:nystrom+avg:soft+plus"}
		opt, err := st.Optimizer(nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		k := opt.Config().Kernel
		if slices.Contains(k.Candidates(), bo.NameAvg) != c.keep || (len(k.LeftOut()) == 0) != c.keep {
			t.Errorf("%s(%d): candidates %v, left out %q", c.group, c.d, k.Candidates(), k.LeftOut())
		}
		if !c.keep && !strings.Contains(k.LeftOut()[0], "AffordEnumerateLimit") {
			t.Errorf("%s(%d): left out %q", c.group, c.d, k.LeftOut())
		}
	}
}

// TestDecodeNull: a null or missing number is bad input, named by its
// place. encoding/json reads null as 0, and a missing
// field as its zero: a history's "y": null or no "y" became y = 0,
// "x": [null, 0.2] became [0, 0.2], a failed [null, null] became [0, 0],
// and the settings' "box": [[null], [2]] became [0, 2].
func TestDecodeNull(t *testing.T) {
	const obs = `{"version":2,"seed":1,"kernel":"plus","dim":2,"minimize":true,"observations":[`
	for _, tc := range []struct{ name, in, want string }{
		{"y null", obs + `{"x":[0.1,0.2],"y":null}]}`, `observations[0].y is null`},
		{"y missing", obs + `{"x":[0.1,0.2],"y":1},{"x":[0.1,0.3]}]}`, `observations[1].y is missing`},
		{"x missing", obs + `{"y":1}]}`, `observations[0].x is missing`},
		{"x element null", obs + `{"x":[null,0.2],"y":1}]}`, `observations[0].x[0] is null`},
		{"failed null", obs + `{"x":[0.1,0.2],"y":1}],"failed":[[null,null]]}`, `failed[0][0] is null`},
		{"pending null", obs + `{"x":[0.1,0.2],"y":1}],"pending":[[0.5,null]]}`, `pending[0][1] is null`},
		{"dim null", `{"version":2,"dim":null,"observations":[]}`, `dim is null`},
		// A history without its observations restored as an empty study,
		// without its seed as one of seed 0.
		{"observations missing", `{"version":2,"seed":1,"kernel":"plus","dim":2,"minimize":true}`, `observations is missing`},
		{"seed missing", `{"version":2,"kernel":"plus","dim":2,"minimize":true,"observations":[]}`, `seed is missing: want a number`},
		{"minimize missing", `{"version":2,"seed":1,"kernel":"plus","dim":2,"observations":[]}`, `minimize is missing`},
		// null for a required field, or for a record that has some, is
		// as good as missing: "minimize": null matched an optimizer that
		// maximizes, "x": null or an observation null read as a point of
		// no coordinates ("x has length 0").
		{"minimize null", `{"version":2,"seed":1,"kernel":"plus","dim":2,"minimize":null,"observations":[]}`, `minimize is null: want true or false`},
		{"kernel null", `{"version":2,"seed":1,"kernel":null,"dim":2,"minimize":true,"observations":[]}`, `kernel is null: want a string`},
		{"observations null", `{"version":2,"seed":1,"kernel":"plus","dim":2,"minimize":true,"observations":null}`, `observations is null: want a list of objects`},
		{"x null", obs + `{"x":null,"y":1}]}`, `observations[0].x is null: want a list of numbers`},
		{"observation null", obs + `{"x":[0.1,0.2],"y":1},null]}`, `observations[1] is null: want an object`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h bo.History
			err := Decode([]byte(tc.in), &h)
			if !errors.Is(err, ErrInvalid) || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Decode(%s): %v (%+v), want an input error with %q", tc.in, err, h, tc.want)
			}
		})
	}
	for _, tc := range []struct{ name, in, want string }{
		{"box null", `{"group":"scaling","d":1,"box":[[null],[2]],"kernel":"plus"}`, `box[0][0] is null`},
		{"seed null", `{"group":"signflip","d":1,"box":[[-1],[1]],"kernel":"plus","seed":null}`, `seed is null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s SuggestSettings
			err := Decode([]byte(tc.in), &s)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Decode(%s): %v (%+v), want ErrInvalid with %q", tc.in, err, s, tc.want)
			}
		})
	}
	// null where it means absent still decodes: a pointer field, a list.
	var k KernelSpec
	if err := Decode([]byte(`{"group":"signflip","d":1,"base":"rbf","lengthscale":1,"kernel":"max","variance":null,"mem_budget":null,"coords":null}`), &k); err != nil || k.Variance != nil {
		t.Errorf("null for absent: %+v, %v", k, err)
	}
}

// TestMessage: what a front end shows of an error: prefixes trimmed, and
// a long quoted input (a 20 MB kernel name was echoed whole)
// cut to MaxEcho characters with its length; short messages unchanged.
func TestMessage(t *testing.T) {
	long := strings.Repeat("é", 100) + "\x00" + strings.Repeat("x", 20<<20)
	s := SuggestSettings{Group: Group{Group: "signflip", D: 1, Box: [][]float64{{-1}, {1}}}, Kernel: long}
	_, err := s.Optimizer(nil, 0)
	if err == nil {
		t.Fatal("a 20 MB kernel name accepted")
	}
	got := Message(err.Error())
	want := fmt.Sprintf("%q (%d bytes)", strings.Repeat("é", MaxEcho)+"…", len(long))
	if len(got) > 400 || !strings.Contains(got, want) || strings.HasPrefix(got, "bo: ") {
		t.Errorf("Message = %.400q, want it short, holding %q", got, want)
	}
	for _, msg := range []string{
		`frontend: invalid settings: unknown field "GROUP"`,
		`a lone " quote and "` + strings.Repeat("y", MaxEcho) + `" at the bound`,
	} {
		if got, want := Message(msg), TrimPrefixes(msg); got != want {
			t.Errorf("Message(%q) = %q, want %q", msg, got, want)
		}
	}
	// Unquoted input is bounded too, by cutting the middle of the message.
	if got := Message("x: " + strings.Repeat("z", 1<<20) + " end"); len(got) > maxMessage+100 || !strings.HasSuffix(got, " end") {
		t.Errorf("an unquoted megabyte: %d bytes, %.100q", len(got), got)
	}
}

// TestInitExplicit: "init" absent means bo.DefaultInit, an explicit value
// is used as given, and an explicit 0 or a negative value is refused, not
// read as the default (the settings table: an integer ≥ 1).
func TestInitExplicit(t *testing.T) {
	base := `{"group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus"`
	for _, tc := range []struct {
		extra string
		want  int // 0: refused
	}{
		{``, bo.DefaultInit},
		{`,"init":1`, 1},
		{`,"init":7`, 7},
		{`,"init":0`, 0},
		{`,"init":-3`, 0},
	} {
		var st SuggestSettings
		if err := Decode([]byte(base+tc.extra+"}"), &st); err != nil {
			t.Fatalf("%s: %v", tc.extra, err)
		}
		o, err := st.Optimizer(nil, 0)
		switch {
		case tc.want == 0 && (err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "init = ")):
			t.Errorf("%s: %v, want ErrInvalid naming init", tc.extra, err)
		case tc.want != 0 && err != nil:
			t.Errorf("%s: %v", tc.extra, err)
		case tc.want != 0 && o.Config().Init != tc.want:
			t.Errorf("%s: Init %d, want %d", tc.extra, o.Config().Init, tc.want)
		}
	}
}

// TestProblemRefusesItsGroupSettings: with "problem", the settings that
// describe a group of one's own (box, block, matrices, coords) are
// refused, not ignored (coords were: [0, 7, 99] on Ackley2d was accepted
// and proposed the problem's own points), as perf suggest refuses them.
func TestProblemRefusesItsGroupSettings(t *testing.T) {
	for _, extra := range []string{`"box":[[-1],[1]]`, `"block":2`, `"matrices":"g.json"`, `"coords":[0]`, `"coords":[0,7,99]`, `"coords":[]`} {
		var s SuggestSettings
		if err := Decode([]byte(`{"problem":"Ackley2d","seed":1,`+extra+`}`), &s); err != nil {
			t.Fatal(err)
		}
		_, err := s.Optimizer(nil, 0)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "not used with problem") {
			t.Errorf("problem with %s: err = %v, want ErrInvalid naming problem", extra, err)
		}
	}
}

// TestUnusedGroupParametersRefused: a block size, a matrices file (not
// opened) or — in a kernel matrix — a box that the named group does not
// use is refused, where it was ignored (perf gram refused them already).
func TestUnusedGroupParametersRefused(t *testing.T) {
	for _, js := range []string{
		`{"group":"signflip","d":2,"box":[[-2],[2]],"block":2}`,
		`{"group":"signflip","d":2,"box":[[-2],[2]],"matrices":"/nonexistent.json"}`,
		`{"group":"hyperoctahedral","d":4,"box":[[-2],[2]],"block":2,"coords":[0,1]}`,
	} {
		var s SuggestSettings
		if err := Decode([]byte(js), &s); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Optimizer(nil, 0); errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), "used only by") {
			t.Errorf("%s: err = %v, want bad input saying what uses it", js, err)
		}
	}
	x := mat.NewDense(2, 2, []float64{0.5, 0.7, 1, 2})
	for _, js := range []string{
		`{"group":"signflip","d":2,"base":"rbf","lengthscale":1,"kernel":"avg","block":2}`,
		`{"group":"signflip","d":2,"base":"rbf","lengthscale":1,"kernel":"avg","box":[[0.5],[3]]}`,
		`{"group":"signflip","d":2,"base":"rbf","lengthscale":1,"kernel":"avg","matrices":"/nonexistent.json"}`,
	} {
		var k KernelSpec
		if err := Decode([]byte(js), &k); err != nil {
			t.Fatal(err)
		}
		if _, err := Cross(k, x, nil, nil, nil, 0); errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), "used only by") {
			t.Errorf("%s: err = %v, want bad input saying what uses it", js, err)
		}
	}
}

// TestSuggestProblemDirection: with a problem, an explicit "minimize":
// false for a minimized problem was read as absent and overruled by the
// problem's direction, without a word (perf suggest refused
// --minimize=false; the C ABI took it). It is refused now; absent means
// the problem's direction, and one that agrees is taken.
func TestSuggestProblemDirection(t *testing.T) {
	for _, c := range []struct {
		js       string
		want     string // the error's text, "" for none
		minimize bool
	}{
		{`{"problem":"Ackley2d","kernel":"plus"}`, "", true},
		{`{"problem":"Ackley2d","kernel":"plus","minimize":true}`, "", true},
		{`{"problem":"Ackley2d","kernel":"plus","minimize":false}`, "Ackley2d is minimized; minimize must be true", false},
		{`{"problem":"WLAN4d","kernel":"plus"}`, "", false},
		{`{"problem":"WLAN4d","kernel":"plus","minimize":false}`, "", false},
		{`{"problem":"WLAN4d","kernel":"plus","minimize":true}`, "WLAN4d is maximized; minimize must be false", false},
		{`{"group":"signflip","d":2,"box":[[-1],[1]],"kernel":"plus","minimize":false}`, "", false},
		{`{"group":"signflip","d":2,"box":[[-1],[1]],"kernel":"plus","minimize":true}`, "", true},
	} {
		var s SuggestSettings
		if err := Decode([]byte(c.js), &s); err != nil {
			t.Fatalf("%s: %v", c.js, err)
		}
		opt, err := s.Optimizer(nil, 0)
		if c.want != "" {
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v, want ErrInvalid saying %q", c.js, err, c.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.js, err)
		}
		if got := opt.Config().Minimize; got != c.minimize {
			t.Errorf("%s: minimize %v, want %v", c.js, got, c.minimize)
		}
	}
}

// TestDecodeTypeMismatchPlace: a value of the wrong type in a history was
// named by its key alone — `"y": got a JSON string`, of which of a
// thousand observations?, and `"x": got a JSON string; want a number`
// for an element of x — as encoding/json's error gives it. The message
// names its place now, as the null and missing checks do.
func TestDecodeTypeMismatchPlace(t *testing.T) {
	const obs = `{"version":2,"seed":1,"kernel":"plus","dim":2,"minimize":true,"observations":[{"x":[0.1,0.2],"y":1},`
	for _, tc := range []struct{ in, want string }{
		{obs + `{"x":[0.1,0.2],"y":"1.0"}]}`, `"observations[1].y": got a JSON string; want a number`},
		{obs + `{"x":[0.1,"a"],"y":1}]}`, `"observations[1].x[1]": got a JSON string; want a number`},
		{obs + `{"x":"0.1,0.2","y":1}]}`, `"observations[1].x": got a JSON string; want a list of numbers`},
		{obs + `{"x":{"a":1},"y":1}]}`, `"observations[1].x": got a JSON object; want a list of numbers`},
		{obs + `{"x":[0.1,0.2],"y": [ [1]]}]}`, `"observations[1].y": got a JSON array; want a number`},
		{obs + `[0.1,0.2]]}`, `"observations[1]": got a JSON array; want an object`},
		{obs + `{"x":[0.1,0.2],"y":1e999}]}`, `"observations[1].y": got the number 1e999, which is not a finite number`},
		{"\ufeff" + obs + `{"x":[0.1,0.2],"y":true}]}`, `"observations[1].y": got a JSON bool; want a number`},
		{obs + `{"x":[0.1,0.2],"y":2}],"failed":[[1,2],[3,false]]}`, `"failed[1][1]": got a JSON bool; want a number`},
		{`{"version":"2","seed":1,"kernel":"plus","dim":2,"minimize":true,"observations":[]}`, `"version": got a JSON string; want an integer`},
		// A value of the wrong type before a missing field: both named
		// (the missing one alone was "y is missing").
		{obs + `{"x":"0.1,0.2"}]}`, `"observations[1].x": got a JSON string; want a list of numbers; and observations[1].y is missing: want a number`},
		{obs + `{"x":[0.1,0.2]}]}`, `invalid settings: observations[1].y is missing: want a number`},
	} {
		var h bo.History
		err := Decode([]byte(tc.in), &h)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%s): %v, want ErrInvalid with %q", tc.in, err, tc.want)
		}
	}
}
