package budget

import "testing"

func TestParse(t *testing.T) {
	for s, want := range map[string]int64{"16GiB": 16 << 30, "512 MiB": 512 << 20, "2e9": 2e9, "1024kib": 1 << 20, "3G": 3 << 30, "7": 7, "1.5KiB": 1536, "10B": 10} {
		if got, err := Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "-1", "0", "abc", "1e30GiB", "NaN", "Inf", "12XB"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
}

func TestSetLimit(t *testing.T) {
	restore := SetLimit(1000)
	if Limit() != 1000 || !Fits(1000) || Fits(1001) {
		t.Fatal("limit not applied")
	}
	restore()
	if Limit() != Default && EnvError() == nil {
		t.Logf("limit %d (from %s)", Limit(), EnvVar)
	}
}
