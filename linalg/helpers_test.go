package linalg

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// randNormal returns an n x p matrix of seeded standard-normal entries.
func randNormal(seed uint64, n, p int) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	x := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	return x
}

// randGrid returns points with small integer coordinates: many exact
// duplicates and many tied distances.
func randGrid(seed uint64, n, p, levels int) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 0x9e1d))
	x := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, float64(rng.IntN(levels)))
		}
	}
	return x
}

// withDuplicates copies some rows of x onto others.
func withDuplicates(x *mat.Dense, seed uint64, count int) *mat.Dense {
	n, _ := x.Dims()
	y := mat.DenseCopyOf(x)
	rng := rand.New(rand.NewPCG(seed, 7))
	for c := 0; c < count; c++ {
		y.SetRow(rng.IntN(n), x.RawRowView(rng.IntN(n)))
	}
	return y
}

// naiveDist2 is an independent squared distance for reference values.
func naiveDist2(x, z []float64) float64 {
	var s float64
	for i := range x {
		s += (x[i] - z[i]) * (x[i] - z[i])
	}
	return s
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}
