package benchdata

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/linalg"
)

// RBFDim is the dimension of the points of the eigensolver benchmark.
const RBFDim = 10

// RBFSeed is the seed BenchmarkTopD draws its points with.
const RBFSeed = 1

// rbfStream is the PCG stream (second PCG word) of the point generator.
const rbfStream = 11

// SKLSeed is the seed of the labeled-row draw of BenchmarkSKL.
const SKLSeed = 1

// SKLLabeled is the number of labeled rows of BenchmarkSKL.
const SKLLabeled = 20

// SKLC is the decay factor of BenchmarkSKL.
const SKLC = 2

// ErrArgument reports an invalid argument.
var ErrArgument = errors.New("benchdata: invalid argument")

// RBFPoints returns n points in p dimensions whose coordinates are standard
// normal draws from rand.NewPCG(seed, 11), filled row by row. With p = RBFDim
// and seed = RBFSeed these are the points of BenchmarkTopD.
func RBFPoints(n, p int, seed uint64) (*mat.Dense, error) {
	if n < 1 || p < 1 {
		return nil, fmt.Errorf("%w: RBFPoints needs n >= 1 and p >= 1, got n = %d, p = %d", ErrArgument, n, p)
	}
	rng := rand.New(rand.NewPCG(seed, rbfStream))
	x := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	return x, nil
}

// RBFKernel returns the RBF kernel K_ij = exp(−γ‖x_i − x_j‖²) of the rows of x
// and γ = 1/m, where m is the element at index ⌊N/2⌋ of the N = n(n−1)/2
// sorted pairwise squared distances (the upper median); γ = 1 when m is zero
// or there is a single point. This is the construction of BenchmarkTopD.
func RBFKernel(x *mat.Dense) (*mat.SymDense, float64, error) {
	if x == nil || x.IsEmpty() {
		return nil, 0, fmt.Errorf("%w: RBFKernel of an empty point set", ErrArgument)
	}
	if err := checkFinite(x); err != nil {
		return nil, 0, err
	}
	k, gamma, _ := rbf(x)
	return k, gamma, nil
}

// rbf builds the kernel of RBFKernel on finite, non-empty x and also reports
// whether the median pairwise squared distance was positive (false means
// γ fell back to 1).
func rbf(x *mat.Dense) (k *mat.SymDense, gamma float64, ok bool) {
	n, _ := x.Dims()
	d2 := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d2 = append(d2, sqDist(x, i, j))
		}
	}
	sort.Float64s(d2)
	gamma = 1.0
	if len(d2) > 0 && d2[len(d2)/2] > 0 {
		gamma, ok = 1/d2[len(d2)/2], true
	}
	k = mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			k.SetSym(i, j, math.Exp(-gamma*sqDist(x, i, j)))
		}
	}
	return k, gamma, ok
}

// sqDist returns the squared Euclidean distance of rows i and j of x, summed
// over the coordinates in increasing order (the benchmarks' order).
func sqDist(x *mat.Dense, i, j int) float64 {
	_, p := x.Dims()
	var s float64
	for k := 0; k < p; k++ {
		t := x.At(i, k) - x.At(j, k)
		s += t * t
	}
	return s
}

func checkFinite(x *mat.Dense) error {
	n, p := x.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: point %d coordinate %d is %v", ErrArgument, i, j, v)
			}
		}
	}
	return nil
}

// ZScore returns a new matrix with the columns of x centred and divided by
// their population standard deviation (sum of squared deviations over n, not
// n−1); constant columns become zero. The mean is summed first, then the
// squared deviations, both in row order: the benchmarks' construction.
func ZScore(x *mat.Dense) *mat.Dense {
	n, p := x.Dims()
	z := mat.NewDense(n, p, nil)
	for j := 0; j < p; j++ {
		mean, sq := 0.0, 0.0
		for i := 0; i < n; i++ {
			mean += x.At(i, j)
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			d := x.At(i, j) - mean
			sq += d * d
		}
		sd := math.Sqrt(sq / float64(n))
		if sd > 0 {
			for i := 0; i < n; i++ {
				z.Set(i, j, (x.At(i, j)-mean)/sd)
			}
		}
	}
	return z
}

// Spectrum is the eigendecomposition of the RBF kernel of a data set together
// with a labeled subset and its ±1 targets: everything an SKL instance needs
// except d and C.
type Spectrum struct {
	// Gamma is the RBF width 1/median pairwise squared distance.
	Gamma float64
	// Values holds the kernel eigenvalues in decreasing order.
	Values []float64
	// Vectors is n×n; column j is the eigenvector of Values[j].
	Vectors *mat.Dense
	// Labeled lists the labeled rows in draw order.
	Labeled []int
	// Y holds the targets of the labeled rows (l×1): +1 for class index 1,
	// −1 for class index 0.
	Y *mat.Dense
}

// Ionosphere loads the ionosphere data set through package dataset and builds
// its spectrum with l labeled rows drawn with seed (see NewSpectrum).
// BenchmarkSKL uses l = SKLLabeled and seed = SKLSeed.
func Ionosphere(l int, seed uint64) (*Spectrum, error) {
	set, err := dataset.Load("ionosphere")
	if err != nil {
		return nil, err
	}
	return NewSpectrum(set, l, seed)
}

// NewSpectrum builds the BenchmarkSKL construction on a binary data set:
// features z-scored by ZScore, RBF kernel as in RBFKernel (an error if the
// median pairwise squared distance is zero), full eigendecomposition by
// linalg.EigenSym (gonum's, checked) reordered to decreasing values, and
// the first l entries of rand.New(rand.NewPCG(seed, 0)).Perm(n), drawn
// again from the same generator until both classes are present.
func NewSpectrum(set *dataset.Set, l int, seed uint64) (*Spectrum, error) {
	if set == nil || set.X == nil || set.X.IsEmpty() {
		return nil, fmt.Errorf("%w: empty data set", ErrArgument)
	}
	n, _ := set.X.Dims()
	if len(set.Y) != n {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrArgument, len(set.Y), n)
	}
	if len(set.Classes) != 2 {
		return nil, fmt.Errorf("%w: the SKL instance needs 2 classes, the data set has %d", ErrArgument, len(set.Classes))
	}
	if l < 2 || l > n {
		return nil, fmt.Errorf("%w: %d labeled rows requested, want 2 <= l <= n = %d", ErrArgument, l, n)
	}
	if err := checkFinite(set.X); err != nil {
		return nil, err
	}
	var have [2]bool
	for _, c := range set.Y {
		if c < 0 || c > 1 {
			return nil, fmt.Errorf("%w: class index %d out of range", ErrArgument, c)
		}
		have[c] = true
	}
	if !have[0] || !have[1] {
		return nil, fmt.Errorf("%w: one class is empty", ErrArgument)
	}
	k, gamma, ok := rbf(ZScore(set.X))
	if !ok {
		return nil, fmt.Errorf("%w: median pairwise distance is zero", ErrArgument)
	}
	var es linalg.EigenSym
	if !es.Factorize(k, true) {
		return nil, errors.New("benchdata: eigendecomposition of the kernel failed")
	}
	var ev mat.Dense
	es.VectorsTo(&ev)
	asc := es.Values(nil)
	sp := &Spectrum{Gamma: gamma, Vectors: mat.NewDense(n, n, nil), Values: make([]float64, n)}
	for j := 0; j < n; j++ {
		sp.Values[j] = asc[n-1-j]
		for i := 0; i < n; i++ {
			sp.Vectors.Set(i, j, ev.At(i, n-1-j))
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	for {
		sp.Labeled = rng.Perm(n)[:l]
		c0 := 0
		for _, i := range sp.Labeled {
			if set.Y[i] == 0 {
				c0++
			}
		}
		if c0 > 0 && c0 < l {
			break
		}
	}
	sp.Y = mat.NewDense(l, 1, nil)
	for r, i := range sp.Labeled {
		sp.Y.Set(r, 0, float64(2*set.Y[i]-1))
	}
	return sp, nil
}

// LabeledVectors returns the l×d matrix of the top-d eigenvectors restricted
// to the labeled rows (row r is row Labeled[r] of the first d columns of
// Vectors): the V of the SKL instance qp.NewSKL(V, s.Y, C).
func (s *Spectrum) LabeledVectors(d int) (*mat.Dense, error) {
	n := len(s.Values)
	if d < 1 || d > n {
		return nil, fmt.Errorf("%w: d = %d, want 1 <= d <= %d", ErrArgument, d, n)
	}
	vl := mat.NewDense(len(s.Labeled), d, nil)
	for r, i := range s.Labeled {
		for j := 0; j < d; j++ {
			vl.Set(r, j, s.Vectors.At(i, j))
		}
	}
	return vl, nil
}
