package frontend

import (
	"errors"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestMemBudget: the memory budget of Cross and Optimizer is the settings'
// "mem_budget" when given, else the front end's default (def; 0 means
// 8 GiB, never SYMBO_MEMORY_BUDGET, which only the edges read). Two calls
// with different budgets side by side each keep their own; a malformed
// key is bad input.
func TestMemBudget(t *testing.T) {
	t.Setenv("SYMBO_MEMORY_BUDGET", "1KiB")
	x := mat.NewDense(20, 2, nil) // a 20×20 output: 3.1 KiB
	for i := range 20 {
		x.Set(i, 0, float64(i)/10)
	}
	const spec = `{"group":"signflip","d":2,"base":"rbf","lengthscale":1,"kernel":"%s"%s}`
	cross := func(kern, extra string, def int64) error {
		var ks KernelSpec
		if err := Decode([]byte(strings.Replace(strings.Replace(spec, "%s", kern, 1), "%s", extra, 1)), &ks); err != nil {
			return err
		}
		_, err := Cross(ks, x, nil, nil, nil, def)
		return err
	}
	for _, kern := range KernelNames() {
		for _, tc := range []struct {
			extra string
			def   int64
			size  bool
		}{
			{"", 0, false},
			{"", 2 << 10, true},
			{"", 4 << 10, false},
			{`,"mem_budget":"2KiB"`, 0, true},
			{`,"mem_budget":"1MiB"`, 2 << 10, false},
			{`,"mem_budget":"2048"`, 1 << 20, true},
		} {
			err := cross(kern, tc.extra, tc.def)
			if tc.size != errors.Is(err, orbit.ErrOverBudget) || (!tc.size && err != nil) || (tc.size && errclass.Of(err) != errclass.Size) {
				t.Errorf("%s%s, default %d: %v (want over budget: %v)", kern, tc.extra, tc.def, err, tc.size)
			}
		}
		for _, bad := range []string{`""`, `"0"`, `"lots"`, `"-1MiB"`, `1024`, `"1e30TiB"`} {
			if err := cross(kern, `,"mem_budget":`+bad, 0); !errors.Is(err, ErrInvalid) || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), "mem_budget") {
				t.Errorf("%s, mem_budget %s: %v, want ErrInvalid naming mem_budget", kern, bad, err)
			}
		}
	}
	// Optimizer: the budget reaches the GP of the history.
	hx := mat.NewDense(4, 2, []float64{0.1, 0.2, -0.5, 0.3, 0.7, -0.9, 0.2, 0.8})
	hy := []float64{1, 2, -1, 0.5}
	suggest := func(extra string, def int64) error {
		var st SuggestSettings
		if err := Decode([]byte(`{"group":"signflip","d":2,"box":[[-1],[1]],"kernel":"plus","init":2`+extra+`}`), &st); err != nil {
			return err
		}
		opt, err := st.Optimizer(nil, def)
		if err != nil {
			return err
		}
		if opt.Config().Budget != map[bool]int64{true: 256, false: def}[extra != ""] {
			t.Errorf("settings %q, default %d: Config.Budget %d", extra, def, opt.Config().Budget)
		}
		_, err = Suggest(opt, hx, hy, nil, nil, 1)
		return err
	}
	if err := suggest(`,"mem_budget":"256B"`, 0); errclass.Of(err) != errclass.Size {
		t.Errorf("mem_budget 256B: %v, want over budget", err)
	}
	if err := suggest("", 256); errclass.Of(err) != errclass.Size {
		t.Errorf("default 256 B: %v, want over budget", err)
	}
	if err := suggest("", 0); err != nil {
		t.Errorf("default budget: %v", err)
	}
	if err := suggest(`,"mem_budget":"MiB"`, 0); errclass.Of(err) != errclass.Input {
		t.Errorf("mem_budget MiB: %v, want bad input", err)
	}
}
