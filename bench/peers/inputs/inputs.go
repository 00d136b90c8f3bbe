package inputs

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/dataset"
	"ukm/qp"
)

// RBFDim is the dimension of the points of the eigensolver benchmark.
const RBFDim = 10

// RBFSeed is the seed BenchmarkTopD draws its points with.
const RBFSeed = 1

// rbfStream is the PCG stream (second PCG word) of the eigensolver benchmark's
// point generator.
const rbfStream = 11

// SKLSeed is the seed of the labeled-row draw of BenchmarkSKL.
const SKLSeed = 1

// SKLLabeled is the number of labeled rows of BenchmarkSKL.
const SKLLabeled = 20

// SKLC is the decay factor of BenchmarkSKL.
const SKLC = 2

// ErrArgument reports an invalid argument.
var ErrArgument = errors.New("inputs: invalid argument")

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
	n, _ := x.Dims()
	d2 := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d2 = append(d2, sqDist(x, i, j))
		}
	}
	sort.Float64s(d2)
	gamma := 1.0
	if len(d2) > 0 && d2[len(d2)/2] > 0 {
		gamma = 1 / d2[len(d2)/2]
	}
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			k.SetSym(i, j, math.Exp(-gamma*sqDist(x, i, j)))
		}
	}
	return k, gamma, nil
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
	// Y holds the targets of the labeled rows: +1 for class index 1, −1 for
	// class index 0.
	Y *mat.Dense
}

// Ionosphere loads the ionosphere data set through package dataset and builds
// the spectrum of BenchmarkSKL (see NewSpectrum).
func Ionosphere() (*Spectrum, error) {
	set, err := dataset.Load("ionosphere")
	if err != nil {
		return nil, err
	}
	return NewSpectrum(set, SKLLabeled, SKLSeed)
}

// NewSpectrum builds the BenchmarkSKL construction on a binary data set:
// features z-scored with the population standard deviation (constant columns
// left at 0), RBF kernel with γ = 1/(upper) median pairwise squared distance,
// full eigendecomposition by mat.EigenSym reordered to decreasing values, and
// the first l entries of rand.New(rand.NewPCG(seed, 0)).Perm(n), drawn again
// from the same generator until both classes are present.
func NewSpectrum(set *dataset.Set, l int, seed uint64) (*Spectrum, error) {
	if set == nil || set.X == nil || set.X.IsEmpty() {
		return nil, fmt.Errorf("%w: empty data set", ErrArgument)
	}
	n, p := set.X.Dims()
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
	x := mat.DenseCopyOf(set.X)
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
		for i := 0; i < n; i++ {
			v := 0.0
			if sd > 0 {
				v = (x.At(i, j) - mean) / sd
			}
			x.Set(i, j, v)
		}
	}
	d2 := mat.NewSymDense(n, nil)
	all := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for k := i + 1; k < n; k++ {
			s := sqDist(x, i, k)
			d2.SetSym(i, k, s)
			all = append(all, s)
		}
	}
	sort.Float64s(all)
	if len(all) == 0 || all[len(all)/2] == 0 {
		return nil, fmt.Errorf("%w: median pairwise distance is zero", ErrArgument)
	}
	sp := &Spectrum{Gamma: 1 / all[len(all)/2]}
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			k.SetSym(i, j, math.Exp(-sp.Gamma*d2.At(i, j)))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(k, true) {
		return nil, errors.New("inputs: eigendecomposition of the kernel failed")
	}
	var ev mat.Dense
	es.VectorsTo(&ev)
	asc := es.Values(nil)
	sp.Vectors = mat.NewDense(n, n, nil)
	sp.Values = make([]float64, n)
	for j := 0; j < n; j++ {
		sp.Values[j] = asc[n-1-j]
		for i := 0; i < n; i++ {
			sp.Vectors.Set(i, j, ev.At(i, n-1-j))
		}
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

// SKL returns the SKL instance on the top-d eigenvectors restricted to the
// labeled rows, with decay factor c (BenchmarkSKL uses c = SKLC).
func (s *Spectrum) SKL(d int, c float64) (*qp.SKL, error) {
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
	return qp.NewSKL(vl, s.Y, c)
}
