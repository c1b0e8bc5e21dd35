package main

import (
	"encoding/json"
	"math"
	"testing"
)

func evalValues(t *testing.T, args ...string) []float64 {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"eval"}, args...)...)
	if code != exitOK {
		t.Fatalf("perf eval %v: exit %d, stderr %q", args, code, stderr)
	}
	var out struct {
		Values []json.Number `json:"values"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("output %q: %v", stdout, err)
	}
	v := make([]float64, len(out.Values))
	for i, n := range out.Values {
		v[i] = shortest(t, n)
	}
	return v
}

// TestEvalMatchesDefinitions checks perf eval against the paper's formulas
// written out here, independently of bo/problem.
func TestEvalMatchesDefinitions(t *testing.T) {
	rastrigin := func(x []float64) float64 {
		s := 10 * float64(len(x))
		for _, v := range x {
			s += v*v - 10*math.Cos(2*math.Pi*v)
		}
		return s
	}
	ackley := func(x []float64) float64 {
		var sq, cs float64
		for _, v := range x {
			sq += v * v
			cs += math.Cos(2 * math.Pi * v)
		}
		d := float64(len(x))
		return -20*math.Exp(-0.2*math.Sqrt(sq/d)) - math.Exp(cs/d) + 20 + math.E
	}
	pts := [][]float64{{0.5, -1.25, 3, 0, 5.12}, {1, 1, 1, 1, 1}, {-5.12, 2.5, -0.1, 4, 0.3}}
	path := writeFile(t, "p.csv", "0.5,-1.25,3,0,5.12\n1,1,1,1,1\n-5.12,2.5,-0.1,4,0.3\n")
	got := evalValues(t, "--problem", "rastrigin", "--d", "5", "--x", path)
	for i, x := range pts {
		checkClose(t, "rastrigin", got[i], rastrigin(x), 1e-12)
	}
	got = evalValues(t, "--problem", "Ackley5d", "--x", path)
	for i, x := range pts {
		checkClose(t, "ackley", got[i], ackley(x), 1e-12)
	}
}

// TestEvalWLANUsers checks one AP and one user 10 m apart, computed by
// hand: P = 10^(−4.667)·10^(−3) mW, N = 10^(−8.5) mW, C = log2(1 + P/N).
func TestEvalWLANUsers(t *testing.T) {
	users := writeFile(t, "u.csv", "6,8\n")
	x := writeFile(t, "x.csv", "0,0\n")
	got := evalValues(t, "--problem", "wlan", "--d", "2", "--x", x, "--users", users)
	want := math.Log2(1 + math.Pow(10, -4.667)*1e-3/math.Pow(10, -8.5))
	checkClose(t, "wlan", got[0], want, 1e-12)
	// The shipped layout is the default.
	x8 := writeFile(t, "x8.csv", "-20,10,30,0,5,-25,15,40\n")
	if v := evalValues(t, "--problem", "wlan", "--x", x8); len(v) != 1 || !(v[0] > 0) {
		t.Errorf("wlan default layout: %v", v)
	}
}

func TestEvalBadInput(t *testing.T) {
	ok2 := writeFile(t, "ok2.csv", "1,2\n")
	ok8 := writeFile(t, "ok8.csv", "1,2,3,4,5,6,7,8\n")
	out := writeFile(t, "out.csv", "100,0\n")
	users := writeFile(t, "u.csv", "0,0\n")
	badUsers := writeFile(t, "bu.csv", "0,zz\n")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"no problem", []string{"--x", ok2}, []string{"--problem"}},
		{"no x", []string{"--problem", "ackley"}, []string{"--x"}},
		{"unknown", []string{"--problem", "bogus", "--x", ok2}, []string{"bogus"}},
		{"d out of range", []string{"--problem", "ackley", "--d", "99", "--x", ok2}, []string{"99"}},
		{"negative d", []string{"--problem", "ackley", "--d", "-1", "--x", ok2}, []string{"--d"}},
		{"radial d", []string{"--problem", "radial", "--d", "3", "--x", ok2}, []string{"3"}},
		{"columns", []string{"--problem", "ackley", "--d", "3", "--x", ok2}, []string{"columns"}},
		{"outside box", []string{"--problem", "ackley", "--d", "2", "--x", out}, []string{"line 1"}},
		{"missing file", []string{"--problem", "ackley", "--x", "/nonexistent.csv"}, []string{"nonexistent"}},
		{"users not wlan", []string{"--problem", "ackley", "--x", ok2, "--users", users}, []string{"--users"}},
		// WLANOther8d's users are its definition: --users would silently
		// turn it into WLAN8d with other users.
		{"users wlanother", []string{"--problem", "wlanother8d", "--x", ok8, "--users", users}, []string{"--users", "WLANOther8d"}},
		{"bad users", []string{"--problem", "wlan", "--d", "2", "--x", ok2, "--users", badUsers}, []string{"bu.csv"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"eval"}, tc.args...)...)
			checkOneLineError(t, code, stdout, stderr, "perf eval: ", tc.want...)
		})
	}
}
