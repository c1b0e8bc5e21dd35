package problem

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzReadUsers: any input is refused with an error wrapping ErrUsers, or
// gives at most MaxUsers finite 2-d points.
func FuzzReadUsers(f *testing.F) {
	for _, s := range []string{"1,2\n-3.5,40\n", "\ufeff1, 2\r\n", "1,2,3\n", "x,y\n", "", "1e999,2\n", "1,2\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		u, err := ReadUsers(strings.NewReader(in), "u.csv")
		if err != nil {
			if !errors.Is(err, ErrUsers) {
				t.Fatalf("error %v does not wrap ErrUsers", err)
			}
			return
		}
		if len(u) < 1 || len(u) > MaxUsers {
			t.Fatalf("%d users", len(u))
		}
		for _, p := range u {
			for _, v := range p {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("non-finite user %v", p)
				}
			}
		}
	})
}
