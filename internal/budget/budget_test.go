package budget

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for s, want := range map[string]int64{"16GiB": 16 << 30, "512 MiB": 512 << 20, "2e9": 2e9, "1024kib": 1 << 20, "3gib": 3 << 30, "7": 7, "1.5KiB": 1536, "10B": 10, "1TiB": 1 << 40, "0.5KiB": 512, "16\t": 16, ".5KiB": 512, "2E9": 2e9, "16 B": 16} {
		if got, err := Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	// "0.5" was 1 byte (while "0" was refused), and the decimal
	// spellings were read as binary units though only those are
	// documented.
	for _, s := range []string{"", "-1", "0", "abc", "1e30GiB", "NaN", "Inf", "12XB",
		"0.5", "1.5", "1e-9", "0.1GiB", "1.0000001KiB", "1GB", "1G", "3K", "2MB", "1TB", "GiB", "1 GiBs",
		// What strconv.ParseFloat also reads, and the header's decimal
		// spelling does not: digit separators, hexadecimal floats, a
		// sign, other spaces than ASCII's (a red team's list).
		"1_6", "0x1p4", "0x10p0", "+16", "\u00a016", "16\u00a0", ".", "1e", "e5", "1e+", "16e3x", "1..5"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
}

// TestParseTooLarge: a size of 2⁶³ bytes or more says so — it named no
// reason — and the largest that fits is read.
func TestParseTooLarge(t *testing.T) {
	for _, s := range []string{"9223372036854775807", "9223372036854775808", "8388608TiB", "1e30GiB"} {
		if _, err := Parse(s); err == nil || !strings.Contains(err.Error(), "2^63 bytes") {
			t.Errorf("Parse(%q): %v, want an error naming 2^63 bytes", s, err)
		}
	}
	if got, err := Parse("8388607TiB"); err != nil || got != 8388607<<40 {
		t.Errorf("Parse(8388607TiB) = %d, %v", got, err)
	}
}

// TestLimit: a Limit is a value — two of them side by side each refuse by
// their own bytes — and 0 means Default whatever the environment says.
func TestLimit(t *testing.T) {
	t.Setenv(EnvVar, "1KiB")
	small, zero := Limit(1000), Limit(0)
	if small.Bytes() != 1000 || !small.Fits(1000) || small.Fits(1001) {
		t.Fatal("limit not applied")
	}
	if zero.Bytes() != Default || !zero.Fits(float64(Default)) || zero.Fits(float64(Default)+1) || Limit(-5).Bytes() != Default {
		t.Fatalf("zero limit is %d, want Default %d", zero.Bytes(), Default)
	}
	if err := small.Check("a test request", 500); err != nil {
		t.Fatal(err)
	}
	err := small.Check("a test request", 2048)
	if !errors.Is(err, ErrOverBudget) {
		t.Fatalf("Check over the limit: %v", err)
	}
	for _, want := range []string{"a test request needs 2 KiB", "over the budget of 1000 B", EnvVar, "--mem-budget", "mem_budget", "Budget option"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want Limit
		bad  bool
	}{{"", 0, false}, {"  ", 0, false}, {"512MiB", 512 << 20, false}, {"lots", 0, true}, {"0", 0, true}} {
		t.Setenv(EnvVar, tc.env)
		got, err := FromEnv()
		if got != tc.want || (err != nil) != tc.bad {
			t.Errorf("%s=%q: %d, %v", EnvVar, tc.env, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), EnvVar) {
			t.Errorf("%q does not name %s", err, EnvVar)
		}
	}
}
