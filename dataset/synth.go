package dataset

import (
	"math"
	"math/rand/v2"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// The synthetic sets below are generated in code, so the demo and the tests
// need no files. Each takes the number of points per class, a noise level and
// an explicit seed; the same arguments always give the same set. A count
// below 1 or a negative or non-finite noise is an error wrapping
// linalg.ErrSettings. Cost: O(perClass) time and memory; the functions are
// safe for concurrent use.

// TwoCircles returns two concentric rings of radius 1 (class 0) and 2
// (class 1) in the plane, perClass points each, with Gaussian radial noise of
// standard deviation noise. It is the "Twocircles" set of the max-margin
// spectral kernel paper (Fig. 1): a cluster structure that no linear
// boundary and no RBF kernel fitted on a few labels separates well.
func TwoCircles(perClass int, noise float64, seed uint64) (*Set, error) {
	if err := checkSynth("dataset.TwoCircles", perClass, noise); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x7c1))
	x := mat.NewDense(2*perClass, 2, nil)
	y := make([]int, 2*perClass)
	for c := 0; c < 2; c++ {
		r0 := float64(c + 1)
		for i := 0; i < perClass; i++ {
			row := c*perClass + i
			t := 2 * math.Pi * rng.Float64()
			r := r0 + noise*rng.NormFloat64()
			x.Set(row, 0, r*math.Cos(t))
			x.Set(row, 1, r*math.Sin(t))
			y[row] = c
		}
	}
	return newSynth("twocircles", x, y), nil
}

// Relevance returns a two-dimensional set in which only the first coordinate
// separates the classes: class c is centred at ((2c-1)·1, 0) with standard
// deviation noise in the first coordinate and 3 in the second (irrelevant)
// coordinate. It follows the description of "Relevance" in the max-margin
// spectral kernel paper (Fig. 1); the paper gives no exact parameters, so
// these are ours.
func Relevance(perClass int, noise float64, seed uint64) (*Set, error) {
	if err := checkSynth("dataset.Relevance", perClass, noise); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x5e1))
	x := mat.NewDense(2*perClass, 2, nil)
	y := make([]int, 2*perClass)
	for c := 0; c < 2; c++ {
		for i := 0; i < perClass; i++ {
			row := c*perClass + i
			x.Set(row, 0, float64(2*c-1)+noise*rng.NormFloat64())
			x.Set(row, 1, 3*rng.NormFloat64())
			y[row] = c
		}
	}
	return newSynth("relevance", x, y), nil
}

// TwoMoons returns the two interleaving half circles of the usual
// semi-supervised benchmark, with isotropic Gaussian noise.
func TwoMoons(perClass int, noise float64, seed uint64) (*Set, error) {
	if err := checkSynth("dataset.TwoMoons", perClass, noise); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x30a))
	x := mat.NewDense(2*perClass, 2, nil)
	y := make([]int, 2*perClass)
	for c := 0; c < 2; c++ {
		for i := 0; i < perClass; i++ {
			row := c*perClass + i
			t := math.Pi * rng.Float64()
			px, py := math.Cos(t), math.Sin(t)
			if c == 1 {
				px, py = 1-px, 0.5-py
			}
			x.Set(row, 0, px+noise*rng.NormFloat64())
			x.Set(row, 1, py+noise*rng.NormFloat64())
			y[row] = c
		}
	}
	return newSynth("twomoons", x, y), nil
}

func checkSynth(op string, perClass int, noise float64) error {
	if perClass < 1 {
		return linalg.Errorf(linalg.ErrSettings, op, "%d points per class, want at least 1", perClass)
	}
	if perClass > math.MaxInt/32 {
		return linalg.Errorf(linalg.ErrSettings, op, "%d points per class is too many", perClass)
	}
	if !(noise >= 0) || math.IsInf(noise, 0) {
		return linalg.Errorf(linalg.ErrSettings, op, "noise %v must be finite and non-negative", noise)
	}
	return nil
}

func newSynth(name string, x *mat.Dense, y []int) *Set {
	labels := make([]string, len(y))
	for i, c := range y {
		labels[i] = strconv.Itoa(c)
	}
	return &Set{Name: name, X: x, Labels: labels, Y: y, Classes: []string{"0", "1"}}
}
