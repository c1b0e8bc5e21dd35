package testdepth

import (
	"fmt"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want part
		bad  bool
	}{
		{"", part{0, 1}, false},
		{" ", part{0, 1}, false},
		{"0/1", part{0, 1}, false},
		{"1/4", part{1, 4}, false},
		{"3/4", part{3, 4}, false},
		{"4/4", part{}, true},
		{"-1/4", part{}, true},
		{"1/0", part{}, true},
		{"1", part{}, true},
		{"a/b", part{}, true},
	} {
		got, err := parse(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("parse(%q) = %v, %v", tc.in, got, err)
		}
	}
}

// TestSamplesCover: the samples 0/m … m−1/m of parse keep every index
// exactly once, and the full depth keeps all.
func TestSamplesCover(t *testing.T) {
	const m, n = 4, 37
	seen := make([]int, n)
	for k := range m {
		p, err := parse(fmt.Sprintf("%d/%d", k, m))
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if p.keep(i) {
				seen[i]++
			}
		}
	}
	full, _ := parse("")
	for i, c := range seen {
		if c != 1 || !full.keep(i) {
			t.Errorf("index %d kept %d times in the samples, %v at full depth", i, c, full.keep(i))
		}
	}
	for _, name := range []string{"TestA", "TestConformance", "TestFigureRender", ""} {
		n := 0
		for k := range m {
			p, _ := parse(fmt.Sprintf("%d/%d", k, m))
			if p.keepName(name) {
				n++
			}
		}
		if n != 1 || !full.keepName(name) {
			t.Errorf("%q kept by %d samples, %v at full depth", name, n, full.keepName(name))
		}
	}
}

// TestSkipSequential: Sequential skips only a sampled process built with
// -race; without -race, or at full depth, the test runs.
func TestSkipSequential(t *testing.T) {
	full, _ := parse("")
	for k := range 4 {
		p, _ := parse(fmt.Sprintf("%d/4", k))
		if !skipSequential(true, p) || skipSequential(false, p) {
			t.Errorf("sample %d/4: skipped with -race %v, without %v", k, skipSequential(true, p), skipSequential(false, p))
		}
	}
	if skipSequential(true, full) || skipSequential(false, full) {
		t.Error("a full-depth process skips a sequential test")
	}
}
