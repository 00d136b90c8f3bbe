package dataset

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// The artificial sets of the distance-metric experiments in Hoi's thesis
// (chapter 5, section 5.5.1 and Fig. 5.5). Each takes the number of points
// per class and an explicit seed; the same arguments always give the same
// set, classes "0" and "1" with the rows of class 0 first. Cost: O(perClass
// p) time and memory; the functions are safe for concurrent use.

// Norm returns the "Norm" set: two classes of perClass points; the first
// feature is drawn from N(3, 1) in class 0 and from N(-3, 1) in class 1,
// and each of the extra further features from N(0, 25) (standard deviation
// 5) in both classes, all independently. The thesis's text has ten extra
// features (its Table 5.1 lists two features in all, which is extra = 1).
// The classes differ in one coordinate only, and the noise of the others
// hides it from the Euclidean metric. Errors, wrapping linalg.ErrSettings:
// perClass < 1 or extra < 0.
func Norm(perClass, extra int, seed uint64) (*Set, error) {
	const op = "dataset.Norm"
	if err := checkSynth(op, perClass, 0); err != nil {
		return nil, err
	}
	if extra < 0 || extra > 1<<20 {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "%d extra features, want 0 to %d", extra, 1<<20)
	}
	if float64(perClass)*float64(1+extra) > 1<<33 {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "%d points per class with %d features is too many", perClass, 1+extra)
	}
	rng := rand.New(rand.NewPCG(seed, 0x4e0))
	x := mat.NewDense(2*perClass, 1+extra, nil)
	y := make([]int, 2*perClass)
	for c := 0; c < 2; c++ {
		mean := 3.0
		if c == 1 {
			mean = -3
		}
		for i := 0; i < perClass; i++ {
			row := c*perClass + i
			r := x.RawRowView(row)
			r[0] = mean + rng.NormFloat64()
			for j := 1; j <= extra; j++ {
				r[j] = 5 * rng.NormFloat64()
			}
			y[row] = c
		}
	}
	return newSynth("norm", x, y), nil
}

// Chessboard returns the "Chessboard" set: points in the square [0,
// cells)² of a cells x cells board, class 0 on the squares where ⌊x⌋ +
// ⌊y⌋ is even and class 1 on the others; the perClass points of a class are
// uniform over its squares. The thesis samples its points from a drawing
// (Fig. 5.5) whose number of squares it does not give; its experiment is
// reproduced here with cells = 4. No linear function of the coordinates
// separates the classes, and the nearest points across a square's edge
// belong to the other class. Errors, wrapping linalg.ErrSettings: perClass <
// 1, cells < 2 or cells > 1024.
func Chessboard(perClass, cells int, seed uint64) (*Set, error) {
	const op = "dataset.Chessboard"
	if err := checkSynth(op, perClass, 0); err != nil {
		return nil, err
	}
	if cells < 2 || cells > 1024 {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "%d cells per side, want 2 to 1024", cells)
	}
	rng := rand.New(rand.NewPCG(seed, 0xc4e55))
	x := mat.NewDense(2*perClass, 2, nil)
	y := make([]int, 2*perClass)
	for c := 0; c < 2; c++ {
		for i := 0; i < perClass; i++ {
			row := c*perClass + i
			// A uniform point of a uniform square of colour c: the squares
			// of one colour are equally many in every row when cells is
			// even, and the count differs by one between rows otherwise,
			// so the square is drawn from the whole list.
			var sq int
			for {
				sq = rng.IntN(cells * cells)
				if (sq/cells+sq%cells)%2 == c {
					break
				}
			}
			x.Set(row, 0, float64(sq%cells)+rng.Float64())
			x.Set(row, 1, float64(sq/cells)+rng.Float64())
			y[row] = c
		}
	}
	return newSynth("chessboard", x, y), nil
}

// DoubleSpiral returns the "Double-Spiral" set: two interleaved conical
// spirals in three dimensions, perClass points each. A point of class c
// has a position t uniform in [0, 1] along its arm, angle φ = π/2 + 3πt
// (one and a half turns) and radius r = φ/(2π), and lies at (r cos(φ + cπ),
// r sin(φ + cπ), r) plus isotropic Gaussian noise of standard deviation
// noise in each coordinate: class 1 is class 0 turned by half a turn about
// the vertical axis, the arms are half a unit apart along any direction in
// the plane, and the height is the radius, the same for both classes. The
// thesis gives three features and a drawing (Fig. 5.5); the shape's
// parameters are ours. Errors, wrapping linalg.ErrSettings: perClass < 1 or
// a negative or non-finite noise.
func DoubleSpiral(perClass int, noise float64, seed uint64) (*Set, error) {
	if err := checkSynth("dataset.DoubleSpiral", perClass, noise); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0xd5b1))
	x := mat.NewDense(2*perClass, 3, nil)
	y := make([]int, 2*perClass)
	for c := 0; c < 2; c++ {
		for i := 0; i < perClass; i++ {
			row := c*perClass + i
			phi := math.Pi/2 + 3*math.Pi*rng.Float64()
			r := phi / (2 * math.Pi)
			a := phi + float64(c)*math.Pi
			x.Set(row, 0, r*math.Cos(a)+noise*rng.NormFloat64())
			x.Set(row, 1, r*math.Sin(a)+noise*rng.NormFloat64())
			x.Set(row, 2, r+noise*rng.NormFloat64())
			y[row] = c
		}
	}
	return newSynth("double-spiral", x, y), nil
}
