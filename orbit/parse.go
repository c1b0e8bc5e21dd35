package orbit

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/symbo/symbo/internal/atomicfile"
)

// names lists the group names Parse accepts.
var names = []string{"none", "signflip", "permutation", "hyperoctahedral", "blockperm",
	"pairedperm", "cyclic", "rotation2d", "scaling", "scalingdir", "matrices"}

// Names returns the group names Parse accepts (a new slice each call).
func Names() []string { return append([]string(nil), names...) }

// TakesBox reports whether the group named name (case-insensitive, as
// Parse reads it) is built on a box, Spec.Lo and Spec.Hi: scaling and
// scalingdir.
func TakesBox(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "scaling", "scalingdir":
		return true
	}
	return false
}

// Spec names a group as the command line spells it.
type Spec struct {
	Name  string // one of Names() (case-insensitive)
	D     int    // dimension d
	Block int    // block size b for blockperm (d = m·b)
	// Lo and Hi are the box for scaling: length 1 (broadcast to D) or D.
	Lo, Hi []float64
	// Matrices is the path of a JSON file for matrices (see ReadMatrices):
	// a regular file (a FIFO, device or directory is ErrInvalid).
	Matrices string
	// Coords, when not nil, embeds the group (OnCoords): the group Name
	// with dimension len(Coords) (and Block, Lo, Hi, Matrices as above,
	// for that dimension) acts on the coordinates Coords of R^D, in that
	// order, and as the identity on the others; D is then required. An
	// empty non-nil Coords is an error.
	Coords []int
}

// Parse builds the group s names:
//
//	none, signflip, permutation, hyperoctahedral, cyclic   act on R^D
//	blockperm      m = D/Block blocks of Block coordinates
//	pairedperm     D = 2m coordinates x1..xm, y1..ym
//	rotation2d     D = 2 (0 is taken as 2)
//	scaling        box [Lo, Hi]; D = 0 takes the length of Lo
//	scalingdir     as scaling, with the chord orbit distance (ScalingDir)
//	matrices       read from the file s.Matrices; D = 0 takes its dimension
//
// With s.Coords the group above is built for dimension len(s.Coords)
// (rotation2d needs two coordinates, a matrices file of that dimension)
// and embedded by OnCoords(g, s.D, s.Coords); D and the number of
// coordinates are checked against MaxDim before the group is built.
//
// A parameter the named group does not use — Block but for blockperm,
// Lo or Hi but for scaling and scalingdir, Matrices but for matrices — is
// ErrInvalid, not ignored.
//
// Errors wrap ErrUnknown or ErrInvalid and say what is wrong; with an
// error the Group is nil.
func Parse(s Spec) (Group, error) {
	if s.Coords == nil {
		g, err := parse(s)
		if err != nil {
			// The constructors return a typed nil with their error: the
			// caller gets a nil Group.
			return nil, err
		}
		return g, nil
	}
	if len(s.Coords) == 0 {
		return nil, invalid("%s on coordinates: the list of coordinates is empty", s.Name)
	}
	if err := checkAmbient(s.Name, s.D); err != nil {
		return nil, err
	}
	if len(s.Coords) > s.D {
		return nil, invalid("%s on coordinates of R^%d: %d coordinates listed", s.Name, s.D, len(s.Coords))
	}
	in := s
	in.D, in.Coords = len(s.Coords), nil
	g, err := parse(in)
	if err != nil {
		return nil, err
	}
	og, err := OnCoords(g, s.D, s.Coords)
	if err != nil {
		return nil, err
	}
	return og, nil
}

// parse builds the group s names on all of R^D (s.Coords is ignored).
func parse(s Spec) (Group, error) {
	name := strings.ToLower(strings.TrimSpace(s.Name))
	if slices.Contains(names, name) {
		switch {
		case s.Block != 0 && name != "blockperm":
			return nil, invalid("a block size is used only by blockperm, not %s (block = %d)", name, s.Block)
		case (s.Lo != nil || s.Hi != nil) && !TakesBox(name):
			return nil, invalid("a box is used only by scaling and scalingdir, not %s", name)
		case s.Matrices != "" && name != "matrices":
			return nil, invalid("a matrices file is used only by the group matrices, not %s (matrices = %q)", name, s.Matrices)
		}
	}
	switch name {
	case "none":
		return Trivial(s.D)
	case "signflip":
		return SignFlip(s.D)
	case "permutation":
		return Permutation(s.D)
	case "hyperoctahedral":
		return Hyperoctahedral(s.D)
	case "cyclic":
		return Cyclic(s.D)
	case "blockperm":
		if err := checkDim("blockperm", s.D); err != nil {
			return nil, err
		}
		if s.Block < 1 {
			return nil, invalid("blockperm needs a block size ≥ 1, got %d", s.Block)
		}
		if s.D%s.Block != 0 {
			return nil, invalid("blockperm needs d a multiple of the block size, got d = %d, block = %d", s.D, s.Block)
		}
		return BlockPerm(s.D/s.Block, s.Block)
	case "pairedperm":
		if err := checkDim("pairedperm", s.D); err != nil {
			return nil, err
		}
		if s.D%2 != 0 {
			return nil, invalid("pairedperm needs an even d = 2m (x1..xm, y1..ym), got %d", s.D)
		}
		return PairedPerm(s.D / 2)
	case "rotation2d":
		if s.D != 2 && s.D != 0 {
			return nil, invalid("rotation2d acts on d = 2, got %d", s.D)
		}
		return Rotation2D()
	case "scaling", "scalingdir":
		d := s.D
		if d == 0 {
			d = len(s.Lo)
		}
		if err := checkDim(name, d); err != nil {
			return nil, err
		}
		lo, err := broadcast(name, "lo", s.Lo, d)
		if err != nil {
			return nil, err
		}
		hi, err := broadcast(name, "hi", s.Hi, d)
		if err != nil {
			return nil, err
		}
		if name == "scalingdir" {
			return ScalingDir(lo, hi)
		}
		return Scaling(lo, hi)
	case "matrices":
		if s.Matrices == "" {
			return nil, invalid("matrices needs the path of a JSON file")
		}
		f, err := openMatrices(s.Matrices)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		g, err := readMatrices(f, s.Matrices)
		if err != nil {
			return nil, err
		}
		if s.D != 0 && s.D != g.Dim() {
			return nil, invalid("%s holds %d×%d matrices, but d = %d", s.Matrices, g.Dim(), g.Dim(), s.D)
		}
		return g, nil
	}
	return nil, fmt.Errorf("%w %q (want one of %s)", ErrUnknown, s.Name, strings.Join(names, ", "))
}

// openMatrices opens the matrices file path for reading: a regular file
// (after symbolic links), else ErrInvalid. A FIFO without a writer made
// the open wait for one for good — in a library call no Ctrl-C reaches —
// and a device such as /dev/stdin read whatever the process's input
// held; both are refused, the FIFO without waiting (openNoWait). The
// caller named the file: one that cannot be opened is bad input
// (ErrInvalid), as one that cannot be read or parsed is;
// errors.Is(err, fs.ErrNotExist) still works.
func openMatrices(path string) (*os.File, error) {
	f, err := openNoWait(path)
	if err != nil {
		return nil, fmt.Errorf("%w: matrices: %w", ErrInvalid, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: matrices: %w", ErrInvalid, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, invalid("matrices %s is not a regular file (%s): the matrices must be a JSON file; copy them to one", path, atomicfile.Kind(fi.Mode()))
	}
	return f, nil
}

func broadcast(name, what string, v []float64, d int) ([]float64, error) {
	switch len(v) {
	case 1:
		out := make([]float64, d)
		for k := range out {
			out[k] = v[0]
		}
		return out, nil
	case d:
		return append([]float64(nil), v...), nil
	}
	return nil, invalid("%s needs %s of length 1 or d = %d, got %d", name, what, d, len(v))
}
