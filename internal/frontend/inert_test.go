package frontend

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
)

// TestSuggestRefusesInertDecidingSettings: a deciding kernel's setting
// given explicitly with a kernel it cannot act on — hedge, probe earned
// and probe_window above 0 with anything but a portfolio, candidate_fit
// anchored with a single kernel — is ErrInvalid (an input error) naming
// the setting, its value and the kernel. Before, each was dropped
// without a word: the optimizer ran as if it had not been given.
func TestSuggestRefusesInertDecidingSettings(t *testing.T) {
	const box = `"group":"hyperoctahedral","d":3,"box":[[-1],[1]]`
	singles := []string{"plus", "nystrom", "base", "avg", "avgnorm", "soft", "max"}
	type refusal struct{ setting, want string }
	portfolioOnly := []refusal{
		{`"hedge":3`, "hedge 3 acts only on a portfolio kernel"},
		{`"hedge":1`, "hedge 1 acts only on a portfolio kernel"},
		{`"probe":"earned"`, "probe earned acts only on a portfolio kernel"},
		{`"probe_window":5`, "probe_window 5 acts only on a portfolio kernel"},
	}
	for _, k := range append(singles, "auto", "Auto:nystrom+plus") {
		cases := portfolioOnly
		if !strings.HasPrefix(strings.ToLower(k), "auto") {
			cases = append(cases, refusal{`"candidate_fit":"anchored"`, "candidate_fit anchored acts only on a deciding kernel"})
		}
		for _, c := range cases {
			in := fmt.Sprintf(`{%s,"kernel":%q,%s}`, box, k, c.setting)
			var st SuggestSettings
			if err := Decode([]byte(in), &st); err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			_, err := st.Optimizer(nil, 0)
			name := fmt.Sprintf("kernel %q", strings.ToLower(k))
			if err == nil || !errors.Is(err, ErrInvalid) || errclass.Of(err) != errclass.Input ||
				!strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), name) {
				t.Errorf("%s: %v, want ErrInvalid with %q and %s", in, err, c.want, name)
			}
		}
	}
	// Taken: every value with a portfolio (the default names no avg, and
	// takes the probe's settings all the same, as its doc says); with
	// any kernel the values that ask for nothing it lacks (perf bo's, the
	// recipe of perf suggest -h: hedge 0, probe always, probe_window 0,
	// candidate_fit own; and probe off); candidate_fit anchored with
	// auto; and, with any kernel, nothing given (bo.Recommended's values
	// are not the caller's).
	every := `"hedge":3,"probe":"earned","probe_window":5,"candidate_fit":"anchored"`
	ok := []string{
		fmt.Sprintf(`{%s,%s}`, box, every),
		fmt.Sprintf(`{%s,"kernel":"portfolio",%s}`, box, every),
		fmt.Sprintf(`{%s,"kernel":"portfolio:nystrom+avg:soft+plus",%s}`, box, every),
		fmt.Sprintf(`{%s,"kernel":"auto","candidate_fit":"anchored"}`, box),
	}
	for _, k := range append(singles, "auto") {
		ok = append(ok,
			fmt.Sprintf(`{%s,"kernel":%q}`, box, k),
			fmt.Sprintf(`{%s,"kernel":%q,"hedge":0,"probe":"always","probe_window":0,"candidate_fit":"own"}`, box, k),
			fmt.Sprintf(`{%s,"kernel":%q,"probe":"off"}`, box, k))
	}
	for _, in := range ok {
		var st SuggestSettings
		if err := Decode([]byte(in), &st); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if _, err := st.Optimizer(nil, 0); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// TestSuggestRefusesLandmarksWithSoft: soft has no landmark form (alone
// it is exact at any n; bo.Config.Landmarks), so a cap above 0 given with
// kernel soft is ErrInvalid naming the setting, its value and the kernel;
// before, it was dropped without a word. Taken: -1 (never: exact, as soft
// is) with soft, a cap with every other kernel, and with a deciding
// kernel naming soft (the default: soft sits out above the cap, the
// others take it).
func TestSuggestRefusesLandmarksWithSoft(t *testing.T) {
	const box = `"group":"hyperoctahedral","d":3,"box":[[-1],[1]]`
	optimizer := func(in string) error {
		var st SuggestSettings
		if err := Decode([]byte(in), &st); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		_, err := st.Optimizer(nil, 0)
		return err
	}
	for _, k := range []string{"soft", " Soft "} {
		in := fmt.Sprintf(`{%s,"kernel":%q,"landmarks":16}`, box, k)
		err := optimizer(in)
		want := `landmarks 16 acts only on a kernel with a landmark form (every kernel but soft); kernel "soft" has none`
		if err == nil || !errors.Is(err, ErrInvalid) || errclass.Of(err) != errclass.Input || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want ErrInvalid with %q", in, err, want)
		}
	}
	ok := []string{
		fmt.Sprintf(`{%s,"kernel":"soft","landmarks":-1}`, box),
		fmt.Sprintf(`{%s,"kernel":"soft"}`, box),
		fmt.Sprintf(`{%s,"landmarks":16}`, box),
		fmt.Sprintf(`{%s,"kernel":"auto:soft+plus","landmarks":16}`, box),
	}
	for _, k := range []string{"plus", "nystrom", "base", "avg", "avgnorm", "max", "auto", "portfolio"} {
		ok = append(ok, fmt.Sprintf(`{%s,"kernel":%q,"landmarks":16}`, box, k))
	}
	for _, in := range ok {
		if err := optimizer(in); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}
