package main

import (
	"bytes"
	"os"
	"testing"
)

// TestShippedLayout checks that both shipped copies of the default layout
// are exactly what the documented seed generates.
func TestShippedLayout(t *testing.T) {
	want := format(generate(defaultSeed, defaultUsers))
	for _, name := range []string{"../../users16.csv", "../../../../testdata/wlan/users16.csv"} {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from genusers -seed %d -n %d; run go generate ./bo/problem/", name, defaultSeed, defaultUsers)
		}
	}
}

func TestGenerateInArea(t *testing.T) {
	for _, seed := range []uint64{0, 1, defaultSeed} {
		for _, p := range generate(seed, 1000) {
			if !(p[0] >= -half && p[0] <= half && p[1] >= -half && p[1] <= half) {
				t.Fatalf("seed %d: user %v outside [−50, 50]²", seed, p)
			}
		}
	}
}
