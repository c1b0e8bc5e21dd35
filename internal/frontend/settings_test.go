package frontend

import (
	"os"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// tableKeys returns the keys of Settings whose field f (a Setting's
// Python, Sampler, …) is set, mapped from that field's name.
func tableKeys(f func(Setting) string) map[string]string {
	m := map[string]string{}
	for _, s := range Settings {
		if v := f(s); v != "" {
			m[v] = s.Key
		}
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// jsonKeys lists the JSON keys of struct type t, its embedded structs'
// included.
func jsonKeys(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, jsonKeys(f.Type)...)
			continue
		}
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	return out
}

// TestSettingsTableJSON: SuggestSettings has a JSON field for every row
// of the settings table and no other; no key, flag or keyword is defined
// twice.
func TestSettingsTableJSON(t *testing.T) {
	got := jsonKeys(reflect.TypeFor[SuggestSettings]())
	slices.Sort(got)
	want := sortedKeys(tableKeys(func(s Setting) string { return s.Key }))
	if !slices.Equal(got, want) {
		t.Errorf("SuggestSettings' JSON keys %v, the table's %v", got, want)
	}
	for name, f := range map[string]func(Setting) string{
		"key": func(s Setting) string { return s.Key }, "flag": func(s Setting) string { return s.Flag },
		"python": func(s Setting) string { return s.Python }, "sampler": func(s Setting) string { return s.Sampler },
	} {
		seen := map[string]bool{}
		for _, s := range Settings {
			if v := f(s); v != "" && seen[v] {
				t.Errorf("%s %q defined twice", name, v)
			} else {
				seen[v] = true
			}
			if s.Values == "" || s.Absent == "" || s.Doc == "" {
				t.Errorf("%s: values, absent and doc must all be given", s.Key)
			}
		}
	}
}

// TestSettingsTableFiles: symbo.h's settings of symbo_suggest name every
// key of the table and no other, and Python's symbo.Optimizer and
// SymboSampler take exactly the table's keywords.
func TestSettingsTableFiles(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	keyRE := regexp.MustCompile(`"([a-z_]+)":`)
	h := read("../../capi/symbo.h")
	i, j := strings.Index(h, " * settings: {"), strings.Index(h, " * hist_x:")
	if i < 0 || j < i {
		t.Fatal("symbo.h: no settings block before hist_x in symbo_suggest's comment")
	}
	got := map[string]bool{}
	for _, m := range keyRE.FindAllStringSubmatch(h[i:j], -1) {
		got[m[1]] = true
	}
	if g, w := sortedKeys(got), sortedKeys(tableKeys(func(s Setting) string { return s.Key })); !slices.Equal(g, w) {
		t.Errorf("symbo.h's settings name %v, the table %v", g, w)
	}

	// Python: the keyword-only arguments of a def whose header starts
	// with start, up to "):".
	params := func(src, start string) map[string]bool {
		i := strings.Index(src, start)
		if i < 0 {
			t.Fatalf("no %q", start)
		}
		sig := src[i+len(start):]
		sig = sig[:strings.Index(sig, "):")]
		out := map[string]bool{}
		for _, p := range strings.Split(sig, ",") {
			name, _, _ := strings.Cut(strings.TrimSpace(p), "=")
			if name = strings.TrimSpace(name); name != "" && name != "*" && !strings.HasPrefix(name, "**") {
				out[name] = true
			}
		}
		return out
	}
	py := read("../../python/symbo/__init__.py")
	opt := params(py, "    def __init__(self, lo, hi, *,")
	if g, w := sortedKeys(opt), sortedKeys(tableKeys(func(s Setting) string { return s.Python })); !slices.Equal(g, w) {
		t.Errorf("symbo.Optimizer's keywords %v, the table's %v", g, w)
	}
	sampler := read("../../python/symbo/optuna.py")
	kw := params(sampler, "    def __init__(self, *, group,")
	kw["group"] = true
	i = strings.Index(sampler, "_OPTIONS = frozenset({")
	if i < 0 {
		t.Fatal("optuna.py: no _OPTIONS")
	}
	opts := sampler[i:]
	for _, m := range regexp.MustCompile(`"([a-z_]+)"`).FindAllStringSubmatch(opts[:strings.Index(opts, "})")], -1) {
		kw[m[1]] = true
	}
	// The sampler's own keywords that are not settings of the optimizer.
	for _, k := range []string{"params", "independent_sampler", "init"} {
		delete(kw, k)
	}
	if g, w := sortedKeys(kw), sortedKeys(tableKeys(func(s Setting) string { return s.Sampler })); !slices.Equal(g, w) {
		t.Errorf("SymboSampler's keywords and options %v, the table's %v", g, w)
	}
}

// TestDecodeTypeMismatchSaysWhatToWrite: a value of the wrong JSON type
// is refused with one sentence naming the key, what the JSON holds there
// and what it takes (the settings table's values), not encoding/json's
// Go type names — a newcomer's flat "box": [-2, 2] answered "cannot
// unmarshal number into Go struct field SuggestSettings.Group.box of
// type []float64".
func TestDecodeTypeMismatchSaysWhatToWrite(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"group":"signflip","d":2,"box":[-2,2]}`, `"box": got a JSON number; want [[lo…], [hi…]]`},
		{`{"group":"signflip","d":"2"}`, `"d": got a JSON string; want 1 to 1000`},
		{`{"group":"signflip","d":2,"box":[[-2],[2]],"seed":-1}`, `"seed": got the number -1; want an integer ≥ 0`},
		// An integer of the wanted sign that the setting's type cannot
		// hold says so: "want an integer ≥ 0" alone contradicts 2⁶⁴.
		{`{"group":"signflip","d":2,"box":[[-2],[2]],"seed":18446744073709551616}`, `"seed": got the number 18446744073709551616, above the largest it can hold (18446744073709551615); want an integer ≥ 0`},
		{`{"group":"signflip","d":2,"box":[[-2],[2]],"init":9223372036854775808}`, `"init": got the number 9223372036854775808, above the largest it can hold (9223372036854775807); want an integer ≥ 1`},
		{`{"group":"signflip","d":2,"box":[[-2],[2]],"probe_window":-1e19}`, `"probe_window": got the number -1e19, below the smallest it can hold (-9223372036854775808)`},
		{`{"group":"signflip","d":2,"box":[[-2],[1e999]]}`, `"box": got the number 1e999, which is not a finite number`},
		{`{"group":"signflip","d":2,"box":[[-2],[2]],"allow_repeats":"yes"}`, `"allow_repeats": got a JSON string; want true or false`},
	} {
		var st SuggestSettings
		err := Decode([]byte(tc.in), &st)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "Go struct") {
			t.Errorf("%s: %v, want %q", tc.in, err, tc.want)
		}
	}
	// An integer of a huge exponent is answered without building it: as a
	// big.Int, 1e600000000 is 250 MB.
	in := []byte(`{"group":"signflip","d":2,"box":[[-2],[2]],"seed":1e600000000}`)
	var st SuggestSettings
	var err error
	if a := testing.AllocsPerRun(1, func() { err = Decode(in, &st) }); err == nil || !strings.Contains(err.Error(), "above the largest it can hold") {
		t.Errorf("seed 1e600000000: %v", err)
	} else {
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		_ = Decode(in, &st)
		runtime.ReadMemStats(&ms1)
		if b := ms1.TotalAlloc - ms0.TotalAlloc; b > 16<<20 {
			t.Errorf("seed 1e600000000: the refusal allocated %d bytes (%v allocations)", b, a)
		}
	}
}
