package inputs

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/dataset/benchdata"
	"ukm/qp"
)

// RBFDim is the dimension of the points of the eigensolver benchmark.
const RBFDim = benchdata.RBFDim

// RBFSeed is the seed BenchmarkTopD draws its points with.
const RBFSeed = benchdata.RBFSeed

// SKLSeed is the seed of the labeled-row draw of BenchmarkSKL.
const SKLSeed = benchdata.SKLSeed

// SKLLabeled is the number of labeled rows of BenchmarkSKL.
const SKLLabeled = benchdata.SKLLabeled

// SKLC is the decay factor of BenchmarkSKL.
const SKLC = benchdata.SKLC

// ErrArgument reports an invalid argument. It is the sentinel of the
// underlying builders, so errors.Is works with either name.
var ErrArgument = benchdata.ErrArgument

// RBFPoints returns n points in p dimensions whose coordinates are standard
// normal draws from rand.NewPCG(seed, 11), filled row by row. With p = RBFDim
// and seed = RBFSeed these are the points of BenchmarkTopD.
func RBFPoints(n, p int, seed uint64) (*mat.Dense, error) {
	return benchdata.RBFPoints(n, p, seed)
}

// RBFKernel returns the RBF kernel K_ij = exp(−γ‖x_i − x_j‖²) of the rows of x
// and γ = 1/m, where m is the element at index ⌊N/2⌋ of the N = n(n−1)/2
// sorted pairwise squared distances (the upper median); γ = 1 when m is zero
// or there is a single point. This is the construction of BenchmarkTopD.
func RBFKernel(x *mat.Dense) (*mat.SymDense, float64, error) {
	return benchdata.RBFKernel(x)
}

// Spectrum is the eigendecomposition of the RBF kernel of a data set together
// with a labeled subset and its ±1 targets: everything an SKL instance needs
// except d and C. Its fields are those of the benchmarks' own type:
//
//	Gamma   float64    // RBF width 1/median pairwise squared distance
//	Values  []float64  // kernel eigenvalues, decreasing
//	Vectors *mat.Dense // n×n; column j is the eigenvector of Values[j]
//	Labeled []int      // labeled rows in draw order
//	Y       *mat.Dense // l×1 targets: +1 for class index 1, −1 for class index 0
type Spectrum benchdata.Spectrum

// Ionosphere loads the ionosphere data set through package dataset and builds
// the spectrum of BenchmarkSKL (see NewSpectrum).
func Ionosphere() (*Spectrum, error) {
	sp, err := benchdata.Ionosphere(SKLLabeled, SKLSeed)
	return (*Spectrum)(sp), err
}

// NewSpectrum builds the BenchmarkSKL construction on a binary data set:
// features z-scored with the population standard deviation (constant columns
// left at 0), RBF kernel with γ = 1/(upper) median pairwise squared distance,
// full eigendecomposition by linalg.EigenSym reordered to decreasing values, and
// the first l entries of rand.New(rand.NewPCG(seed, 0)).Perm(n), drawn again
// from the same generator until both classes are present.
func NewSpectrum(set *dataset.Set, l int, seed uint64) (*Spectrum, error) {
	sp, err := benchdata.NewSpectrum(set, l, seed)
	return (*Spectrum)(sp), err
}

// SKL returns the SKL instance on the top-d eigenvectors restricted to the
// labeled rows, with decay factor c (BenchmarkSKL uses c = SKLC).
func (s *Spectrum) SKL(d int, c float64) (*qp.SKL, error) {
	v, err := (*benchdata.Spectrum)(s).LabeledVectors(d)
	if err != nil {
		return nil, err
	}
	return qp.NewSKL(v, s.Y, c)
}

// ParseSizes parses a comma-separated list of positive integers (the
// size lists of the generator commands); empty fields are skipped.
func ParseSizes(s string) ([]int, error) {
	var v []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 {
			return nil, fmt.Errorf("bad size %q in list %q", f, s)
		}
		v = append(v, k)
	}
	return v, nil
}

// OutputDir returns the output directory of a generator command: out,
// created if missing, or a new temporary directory named after prefix when
// out is empty.
func OutputDir(out, prefix string) (string, error) {
	if out == "" {
		return os.MkdirTemp("", prefix)
	}
	return out, os.MkdirAll(out, 0o755)
}
