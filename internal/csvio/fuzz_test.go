package csvio

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzParsePoints: any input is refused with a *Error naming the source,
// or gives an n×d matrix of finite values that WritePoints writes back in
// a form that parses to the same bits.
func FuzzParsePoints(f *testing.F) {
	for _, s := range []string{
		"0.5,-1.25,3\n2,0,1e-3\n", "\ufeff1, 2\r\n3,4\r\n", "1,2\n\n\n", "1,2\n\n3,4\n", "",
		"1,2\n3\n", "NaN,1\n", "1e400,2\n", "0x1p-3,-0\n", "  1 ,\t2 \n", "1_0,2\n", "1,,2\n",
	} {
		f.Add(s)
	}
	f.Add("x1,x2,y\n1,2,3\n")
	f.Fuzz(func(t *testing.T, in string) {
		x, err := ParsePoints(strings.NewReader(in), "fuzz.csv")
		// The header dialect reads what the strict one reads, the same
		// bits; it may accept more (a header row), never less.
		xh, errh := Options{Header: true}.Parse(strings.NewReader(in), "fuzz.csv")
		if err == nil && (errh != nil || !mat.Equal(x, xh)) {
			t.Fatalf("header dialect: %v, strict read %v", errh, x)
		}
		if errh == nil && err != nil {
			x, err = xh, nil
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "fuzz.csv" || !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error %v is not a csvio error naming the file", err)
			}
			return
		}
		n, d := x.Dims()
		if n < 1 || d < 1 {
			t.Fatalf("%d×%d matrix", n, d)
		}
		for _, v := range x.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("non-finite value %v accepted", v)
			}
		}
		var b bytes.Buffer
		if err := WritePoints(&b, x); err != nil {
			t.Fatal(err)
		}
		y, err := ParsePoints(&b, "again")
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		xr, yr := x.RawMatrix(), y.RawMatrix()
		for i := range n {
			for j := range d {
				if math.Float64bits(xr.Data[i*xr.Stride+j]) != math.Float64bits(yr.Data[i*yr.Stride+j]) {
					t.Fatalf("(%d,%d): %v then %v", i, j, xr.Data[i*xr.Stride+j], yr.Data[i*yr.Stride+j])
				}
			}
		}
	})
}
