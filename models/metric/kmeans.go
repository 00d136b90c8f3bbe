package metric

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Defaults of KMeansSettings.
const (
	// DefaultKMeansMaxIter is the default limit on assignment/update
	// rounds of one start.
	DefaultKMeansMaxIter = 100
	// DefaultRestarts is the default number of starts; the best is kept.
	DefaultRestarts = 10
)

// KMeansSettings configures KMeans, MahalanobisKMeans and KernelKMeans. The
// zero value (or nil) selects every default.
type KMeansSettings struct {
	// Seed seeds the k-means++ starts and the order in which chunklets
	// that tie are assigned.
	Seed uint64
	// MaxIter limits the rounds of one start, at least 0; zero means
	// DefaultKMeansMaxIter.
	MaxIter int
	// Restarts is the number of starts, at least 0; zero means
	// DefaultRestarts.
	Restarts int
}

// Clustering is the result of a (constrained) k-means run.
type Clustering struct {
	// Labels gives the cluster, 0..k-1, of every point.
	Labels []int
	// Objective is the sum of squared distances of the points to the
	// centres of their clusters.
	Objective float64
	// Violated lists the indices, into Constraints.Dissimilar, of the
	// dissimilar pairs whose points share a cluster; every other pair,
	// similar or dissimilar, is satisfied by Labels. It is empty unless
	// Status is linalg.Infeasible.
	Violated []int
	// Iterations counts the rounds of the start kept.
	Iterations int
	// Status is linalg.Converged when the assignment stopped changing,
	// linalg.IterationLimit when MaxIter rounds ran first, and
	// linalg.Infeasible when the final assignment breaks some dissimilar
	// pair (see the package doc); linalg.Canceled with the context's error.
	Status linalg.Status
}

// KMeans clusters the rows of x (n x p) into k clusters by constrained
// k-means in the Euclidean metric (COP-KMeans of Wagstaff et al., with the
// assignment order described in the package doc): the points of every
// chunklet share a cluster, and the points of every dissimilar pair are put
// in different clusters whenever the greedy assignment finds a way. Empty
// constraints give plain k-means. Each of Restarts starts (k-means++ seeding
// from the seed) alternates assignment and centre updates until the
// assignment repeats or MaxIter rounds ran; the start with the fewest
// violated pairs, then the smallest objective, is kept.
//
// Errors wrap linalg.ErrInvalid: linalg.ErrSettings (a nil context, k
// outside [1, n], bad settings), linalg.ErrEmpty and ErrNonFinite for bad
// data, linalg.ErrLabels and ErrContradictory for bad constraints (with a
// nil result). A cancelled context gives an error wrapping the context's and
// a result with Status linalg.Canceled holding the best complete start, if
// any.
// Cost: O(Restarts · rounds · (n k p + c² + c k)) for c constrained
// chunklets.
func KMeans(ctx context.Context, x *mat.Dense, k int, c Constraints, s *KMeansSettings) (*Clustering, error) {
	const op = "metric.KMeans"
	if _, _, err := checkData(op, x); err != nil {
		return nil, err
	}
	return cluster(op, ctx, newFeatureSpace(x), k, c, s)
}

// MahalanobisKMeans is KMeans in the metric ||L ᵀ(x - z)||² = (x - z)ᵀ M (x
// - z) of the p x p positive semidefinite matrix m (such as
// Metric.Mahalanobis): it factors M = L Lᵀ by an eigendecomposition and
// clusters the rows of x L. A matrix with an eigenvalue below -1e-10 times
// its largest is an error wrapping linalg.ErrNotPSD; one of the wrong size
// wraps linalg.ErrShape. Other errors and costs are those of KMeans, plus
// O(p³ + n p²).
func MahalanobisKMeans(ctx context.Context, x *mat.Dense, m mat.Symmetric, k int, c Constraints, s *KMeansSettings) (*Clustering, error) {
	const op = "metric.MahalanobisKMeans"
	_, p, err := checkData(op, x)
	if err != nil {
		return nil, err
	}
	if m == nil || isNilSym(m) {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "metric matrix is nil")
	}
	if m.SymmetricDim() != p {
		return nil, linalg.Errorf(linalg.ErrShape, op, "metric matrix is %d x %d, data have %d columns", m.SymmetricDim(), m.SymmetricDim(), p)
	}
	for i := 0; i < p; i++ {
		for j := i; j < p; j++ {
			if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, linalg.Errorf(linalg.ErrNonFinite, op, "m[%d][%d] = %v", i, j, v)
			}
		}
	}
	var e linalg.EigenSym
	if !e.Factorize(m, true) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "eigendecomposition of the metric failed")
	}
	vals := e.Values(nil)
	top := math.Max(math.Abs(vals[0]), math.Abs(vals[p-1]))
	if vals[0] < -1e-10*top {
		return nil, linalg.Errorf(linalg.ErrNotPSD, op, "metric has eigenvalue %.3g (largest magnitude %.3g)", vals[0], top)
	}
	var v mat.Dense
	e.VectorsTo(&v)
	for j, l := range vals {
		f := math.Sqrt(math.Max(l, 0))
		for i := 0; i < p; i++ {
			v.Set(i, j, v.At(i, j)*f)
		}
	}
	var y mat.Dense
	y.Mul(x, &v)
	return cluster(op, ctx, newFeatureSpace(&y), k, c, s)
}

// KernelKMeans is KMeans in the feature space of the n x n kernel matrix
// kmat: the squared distance of point i to the mean of cluster C is K_ii -
// 2/|C| Σ_{j ∈ C} K_ij + 1/|C|² Σ_{j,l ∈ C} K_jl. A *linalg.LowRank kernel is
// clustered through its features V diag(sqrt(mu)) (the same distances);
// any other matrix is copied. Errors are those of KMeans, with
// linalg.ErrEmpty for a nil or empty matrix, linalg.ErrNonFinite for a NaN
// or Inf entry and linalg.ErrNotPSD for a LowRank with negative weights.
// Cost: O(n²) memory and O(n² k) per round (O(n d k) for a LowRank).
func KernelKMeans(ctx context.Context, kmat mat.Symmetric, k int, c Constraints, s *KMeansSettings) (*Clustering, error) {
	const op = "metric.KernelKMeans"
	if kmat == nil || isNilSym(kmat) || kmat.SymmetricDim() == 0 {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "kernel matrix is empty")
	}
	if lr, ok := kmat.(*linalg.LowRank); ok {
		if err := lr.Validate(); err != nil {
			return nil, relabel(op, err)
		}
		f, err := lr.Features()
		if err != nil {
			return nil, linalg.Errorf(linalg.ErrNotPSD, op, "%w", err)
		}
		return cluster(op, ctx, newFeatureSpace(f), k, c, s)
	}
	sp, err := newKernelSpace(op, kmat)
	if err != nil {
		return nil, err
	}
	return cluster(op, ctx, sp, k, c, s)
}

// resolve validates the settings and fills in the defaults.
func (s *KMeansSettings) resolve(op string) (KMeansSettings, error) {
	var r KMeansSettings
	if s != nil {
		r = *s
	}
	if err := linalg.CheckCount(op, "MaxIter", r.MaxIter); err != nil {
		return r, err
	}
	if err := linalg.CheckCount(op, "Restarts", r.Restarts); err != nil {
		return r, err
	}
	if r.MaxIter == 0 {
		r.MaxIter = DefaultKMeansMaxIter
	}
	if r.Restarts == 0 {
		r.Restarts = DefaultRestarts
	}
	return r, nil
}

// PairwiseAccuracy returns the clustering accuracy of eq. 5.12: the
// fraction of the n(n-1)/2 pairs of points on which pred and truth agree
// about being together or apart (the Rand index). Labels are arbitrary
// non-negative integers; only their equality matters. Errors wrap
// linalg.ErrShape (different lengths), linalg.ErrEmpty (fewer than two
// points) or linalg.ErrLabels (a negative label). Cost: O(n) time and
// memory (a contingency table, not the pairs).
func PairwiseAccuracy(truth, pred []int) (float64, error) {
	const op = "metric.PairwiseAccuracy"
	if len(truth) != len(pred) {
		return 0, linalg.Errorf(linalg.ErrShape, op, "%d true labels, %d predicted", len(truth), len(pred))
	}
	n := len(truth)
	if n < 2 {
		return 0, linalg.Errorf(linalg.ErrEmpty, op, "%d points, want at least 2", n)
	}
	type cell struct{ a, b int }
	ct, ca, cb := map[cell]int{}, map[int]int{}, map[int]int{}
	for i := range truth {
		if truth[i] < 0 || pred[i] < 0 {
			return 0, linalg.Errorf(linalg.ErrLabels, op, "negative label at point %d", i)
		}
		ct[cell{truth[i], pred[i]}]++
		ca[truth[i]]++
		cb[pred[i]]++
	}
	pairs := func(m int) float64 { return float64(m) * float64(m-1) / 2 }
	var both, sameA, sameB float64
	for _, v := range ct {
		both += pairs(v)
	}
	for _, v := range ca {
		sameA += pairs(v)
	}
	for _, v := range cb {
		sameB += pairs(v)
	}
	total := pairs(n)
	return (total - sameA - sameB + 2*both) / total, nil
}
