package active

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/ova"
)

// Defaults of Fisher.
const (
	// DefaultFisherRank is the number s of top eigenpairs of the pool
	// Fisher matrix kept (the thesis keeps "a few"; 20 is the default d of
	// the spectral feature map, so the whole of a binary model's).
	DefaultFisherRank = 20
	// DefaultFisherTol is the relative duality gap at which the bound
	// optimisation stops: the objective is then within a factor 1 + Tol of
	// its minimum.
	DefaultFisherTol = 1e-3
	// DefaultFisherMaxIter bounds the steps of the optimisation. A step on
	// the working set costs O(s) per candidate in it, so the bound is
	// generous; it is reached only with a tolerance near rounding.
	DefaultFisherMaxIter = 10000
	// FisherSupportTol is the fraction of the largest q below which a
	// candidate counts as outside the optimal support when the batch is
	// chosen.
	FisherSupportTol = 1e-6
	// FisherRankRelTol drops the eigenpairs of a pool Fisher matrix whose
	// eigenvalue is at most this fraction of its largest: the directions in
	// which the pool carries no information (a singular I_p).
	FisherRankRelTol = 1e-10
)

var (
	_ FeatureSelector = Fisher{}
	_ FeatureSelector = KCenter{}
)

// FeatureSelector is a Selector that also reads the candidates' feature
// vectors. probs is as for Selector; features holds one row per candidate
// (the same rows as probs) in the space where the classifier is linear.
// models.Loop recognises it and passes the unlabeled points' rows of the
// feature map it trains on. Its plain Select uses features the value holds
// (or fails when it holds none).
type FeatureSelector interface {
	Selector
	SelectFeatures(dst []int, probs, features mat.Matrix, k int) ([]int, error)
}

// Fisher is batch-mode active learning by Fisher information (Hoi's thesis,
// chapter 4; Hoi, Jin, Zhu and Lyu, ICML 2006). For a logistic model on
// features x it finds the distribution q over the pool that minimises
//
//	L(q) = Σ_k λ_k / Σ_i q_i π_i(1 − π_i)(x_iᵀv_k)²        (eq. 4.15)
//
// over the simplex, where (λ_k, v_k) are the top Rank eigenpairs of the
// pool's Fisher matrix I_p = (1/n) Σ_i π_i(1 − π_i) x_i x_iᵀ (eq. 4.6),
// and queries the k candidates of largest q. The objective rewards
// uncertainty (π(1 − π)) and coverage of the principal directions of I_p,
// and penalises redundancy: once a direction is covered, more mass on it
// gains little, so near-copies share one point's weight.
//
// # Algorithm
//
// Eq. 4.16 bounds L from above by a separable function of q; minimising
// the bound over the simplex gives the multiplicative update
//
//	q_i ← q_i √a_i / Σ_j q_j √a_j,   a_i = π_i(1 − π_i) Σ_k λ_k (x_iᵀv_k)² / S_k²
//
// with S_k = Σ_j q_j π_j(1 − π_j)(x_jᵀv_k)², which never increases L. (The
// extraction of the thesis prints eq. 4.17 without the square root; the
// square root is what minimises the bound of eq. 4.16, and so what carries
// its guarantee of descent.) Since
// a_i = −∂L/∂q_i and Σ_i q_i a_i = L, the duality gap max_i a_i − L bounds
// L(q) − min L; the optimisation stops when it is at most Tol·L over the
// whole pool (status linalg.Converged) or after MaxIter steps (status
// linalg.IterationLimit, with the last iterate, a valid distribution).
//
// The updates alone converge slowly: the optimum depends on q only through
// the s sums S_k, so it needs at most s + 1 candidates, and the updates
// shrink the mass of the others only geometrically. They therefore run on a
// working set of candidates (q is zero outside it), started uniform on the
// candidates of largest gain at the uniform distribution, and each update
// is followed by an exact line search along its direction (which can only
// do better than the update); every few updates an exact line search moves
// mass toward the candidate of largest gain and away from those whose gain
// is below L. A pass over the pool then computes every a_i: when the gap
// is not yet within the tolerance, the candidates outside the set whose
// gain exceeds L join it, by one more line search. Every step lowers L or
// leaves it, and the tolerance is checked over the whole pool, so the
// result is the optimum of the whole pool's problem. With at most 64
// candidates (or 2s) the working set is the pool and the start is the
// uniform distribution, as in the thesis.
//
// # Batch
//
// The batch is the k candidates of largest q, largest first. The optimum
// has at most s + 1 candidates of positive mass, often fewer than k; a q
// below FisherSupportTol of the largest counts as zero (it is what the
// optimisation had not yet drained), and candidates of equal q — those
// outside the support, or with no Fisher information, whose gain is zero —
// follow in decreasing gain a_i (their value at the optimum, "uncertainty
// times representativeness"), then by position. A candidate whose feature
// row and probability row equal those of a candidate already in the batch
// (an exact duplicate, which would add no information) is passed over while
// a distinct candidate remains; duplicates fill the batch, in the same
// order, only when fewer than k distinct candidates exist. A k above the
// number of candidates selects them all. The pool is the candidates given:
// points already labeled are not part of it and do not enter I_p or L.
//
// # Shortlist
//
// The thesis's q weighs uncertainty π(1 − π) against the term
// Σ_k λ_k (x_iᵀv_k)²/S_k², which is largest for the candidates far out along
// the directions of I_p, and on kernel feature maps those are often
// outliers: on the data sets of the thesis-bmal table the whole-pool batch
// is below top-k entropy (see REPRODUCTION.md). Shortlist keeps the
// thesis's objective, with I_p over the whole pool, but lets only the
// Shortlist·k most uncertain candidates (by entropy, as KCenter) into the
// batch: the Fisher criterion then decides which of the uncertain points
// together inform the model most, instead of trading uncertainty away for
// leverage. The directions in which no shortlisted candidate carries
// information are dropped from L (no such batch could inform them). With
// ShortlistPool the shortlist is the pool as well: I_p is then the
// uncertain candidates' own, so its principal directions are those of the
// region the batch is drawn from rather than of the whole pool.
//
// # Multi-class
//
// With one or two probability columns the model is binary and π is the last
// column. With c ≥ 3 columns every class m is a one-versus-all logistic
// model with π_im = probs(i, m). The Fisher matrix of the c models is block
// diagonal (the block-diagonal part of the multinomial model's), so
// tr(I_q⁻¹ I_p) is the sum of the c models' traces: L sums the terms of
// all models, and the top Rank eigenpairs are those of the block-diagonal
// matrix, the largest eigenvalues across the models. A candidate is
// valuable when it informs the model of any class.
//
// # Cost
//
// Forming the c Fisher matrices costs O(c n d²) and their eigenpairs
// O(c d³); projecting the pool on the s = min(Rank, c d) kept eigenvectors
// O(n d s); each update then costs O(n s), so O(t s n) for t updates (the
// thesis's count). The updates run on a working set (see below), which
// brings the cost to O(p s n + t s w) for p passes over the pool and a
// working set of w candidates (w is a small multiple of s, p usually 2).
// A shortlist adds O(n c) for the entropies and runs the updates on its
// Shortlist·k candidates alone; with ShortlistPool the Fisher matrices and
// projections are those of the m = Shortlist·k candidates too, O(c m d²),
// so the round costs O(n c) beyond a problem of size m. Memory is
// O(n (d + s)).
//
// # Errors
//
// Select fails like the package's other selectors on the probabilities and
// on k; the features must be present (ErrEmpty), as many rows as probs
// (ErrShape) and finite (ErrNonFinite); Rank, Tol, MaxIter and Shortlist
// must be non-negative (ErrSettings). A pool without Fisher information —
// every π_i(1 − π_i) zero (probabilities at exactly 0 or 1) or every
// feature vector zero — has no informative batch and is an error of kind
// linalg.ErrDegenerate rather than an arbitrary choice; so is a shortlist
// none of whose candidates carries information. A singular I_p is
// not an error: its null directions are dropped (FisherRankRelTol), so s
// never exceeds the rank.
//
// The value holds no mutable state; it is safe for concurrent use when
// Progress is.
type Fisher struct {
	// Rank is the number s of top eigenpairs kept (of the block-diagonal
	// matrix of all models); zero means DefaultFisherRank. It is capped by
	// the numerical rank of I_p.
	Rank int
	// Tol is the relative duality gap that ends the optimisation; zero
	// means DefaultFisherTol.
	Tol float64
	// MaxIter bounds the steps (updates and line searches); zero means
	// DefaultFisherMaxIter.
	MaxIter int
	// Shortlist, if positive, chooses the batch among the Shortlist·k
	// candidates of largest entropy (KCenter's shortlist) rather than the
	// whole pool. I_p stays the whole pool's, so the objective still
	// measures what the batch tells about every candidate. Zero means the
	// whole pool, as in the thesis. Solve, which has no k, ignores it.
	Shortlist int
	// ShortlistPool, with Shortlist, makes the shortlist the pool too:
	// I_p, its eigenpairs and L are the shortlisted candidates' own, so
	// the thesis's criterion runs on the most uncertain candidates as if
	// they were the whole pool (uncertainty first, then the Fisher
	// criterion among them). Without it I_p is the whole pool's. It has no
	// effect without Shortlist.
	ShortlistPool bool
	// Features, if not nil, holds the candidates' feature vectors for
	// Select. SelectFeatures takes them as an argument instead.
	Features mat.Matrix
	// Progress, if not nil, is called once per iterate with the number of
	// steps taken so far and the iterate's objective L.
	Progress func(iteration int, objective float64)
}

// FisherResult is the outcome of Fisher.Solve.
type FisherResult struct {
	// Q is the distribution over the candidates (sums to 1).
	Q []float64
	// Gain holds a_i = −∂L/∂q_i at Q, each candidate's marginal reduction
	// of the objective; at the optimum it equals L wherever Q is positive.
	Gain []float64
	// Objective is L(Q) (eq. 4.15).
	Objective float64
	// Gap is max_i Gain_i − Objective, an upper bound on Objective − min L.
	Gap float64
	// Iterations counts the steps taken: updates and line searches.
	Iterations int
	// Passes counts the passes over the whole pool (each O(n s)).
	Passes int
	// Status is linalg.Converged; or linalg.IterationLimit; or
	// linalg.Stalled when no step could lower L any more before the gap met
	// the tolerance (a tolerance below rounding); or linalg.NumericalFailure
	// when an update would have lost a direction's whole mass to underflow.
	// In every case Q is the last iterate, a valid distribution.
	Status linalg.Status
	// Rank is the number s of eigenpairs used (of the block-diagonal
	// matrix of all models).
	Rank int
	// Models is the number of logistic models (1, or c for c ≥ 3 classes).
	Models int
}

// Select implements Selector with the features held in f.Features.
func (f Fisher) Select(dst []int, probs mat.Matrix, k int) ([]int, error) {
	const op = "active.Fisher.Select"
	if ova.IsNil(f.Features) {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "no features: set Fisher.Features or call SelectFeatures")
	}
	return f.selectBatch(op, dst, probs, f.Features, k)
}

// SelectFeatures implements FeatureSelector: it solves eq. 4.15 for the
// candidates (rows of probs and features) and returns the batch.
func (f Fisher) SelectFeatures(dst []int, probs, features mat.Matrix, k int) ([]int, error) {
	return f.selectBatch("active.Fisher.SelectFeatures", dst, probs, features, k)
}

// Solve returns the optimal distribution q of eq. 4.15 over the candidates,
// without choosing a batch. Errors as for Select (without k).
func (f Fisher) Solve(probs, features mat.Matrix) (*FisherResult, error) {
	const op = "active.Fisher.Solve"
	pb, err := f.problem(op, probs, features, 1, false)
	if err != nil {
		return nil, err
	}
	return pb.optimise(), nil
}

func (f Fisher) selectBatch(op string, dst []int, probs, features mat.Matrix, k int) ([]int, error) {
	pb, err := f.problem(op, probs, features, k, f.Shortlist > 0)
	if err != nil {
		return nil, err
	}
	res := pb.optimise()
	dst = pb.batch(dst, res, k)
	if pb.orig != nil {
		for a, i := range dst {
			dst[a] = pb.orig[i]
		}
	}
	return dst, nil
}

// resolved returns the settings with defaults filled in, or an error.
func (f Fisher) resolved(op string) (Fisher, error) {
	if err := linalg.CheckCount(op, "Rank", f.Rank); err != nil {
		return f, err
	}
	if err := linalg.CheckTol(op, "Tol", f.Tol); err != nil {
		return f, err
	}
	if err := linalg.CheckCount(op, "MaxIter", f.MaxIter); err != nil {
		return f, err
	}
	if err := linalg.CheckCount(op, "Shortlist", f.Shortlist); err != nil {
		return f, err
	}
	if f.Rank == 0 {
		f.Rank = DefaultFisherRank
	}
	if f.Tol == 0 {
		f.Tol = DefaultFisherTol
	}
	if f.MaxIter == 0 {
		f.MaxIter = DefaultFisherMaxIter
	}
	return f, nil
}

// problem validates the input and builds the problem of eq. 4.15, over
// the shortlist of k when short is set.
func (f Fisher) problem(op string, probs, features mat.Matrix, k int, short bool) (*fisherProblem, error) {
	r, err := f.resolved(op)
	if err != nil {
		return nil, err
	}
	m, err := checkProbs(op, probs, k)
	if err != nil {
		return nil, err
	}
	x, err := checkFeatures(op, features, m)
	if err != nil {
		return nil, err
	}
	var idx []int
	if short {
		// probs was checked above.
		idx = ranked(nil, probs, shortlistSize(k, r.Shortlist), entropy)
	}
	pool := short && r.ShortlistPool && len(idx) < m
	if pool {
		probs, x = rowsOf(probs, idx), rowsOf(x, idx)
	}
	pb, err := newFisherProblem(probs, x, r.Rank)
	if err != nil {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "%v", err)
	}
	pb.tol, pb.maxIter, pb.progress = r.Tol, r.MaxIter, r.Progress
	switch {
	case pool:
		pb.orig = idx
	case short && !r.ShortlistPool:
		if err := pb.restrict(idx); err != nil {
			return nil, linalg.Errorf(linalg.ErrDegenerate, op, "%v", err)
		}
	}
	return pb, nil
}

// rowsOf returns the rows idx of a as a new matrix.
func rowsOf(a mat.Matrix, idx []int) *mat.Dense {
	_, c := a.Dims()
	out := mat.NewDense(len(idx), c, nil)
	d, dense := a.(*mat.Dense)
	for r, i := range idx {
		if dense {
			out.SetRow(r, d.RawRowView(i))
			continue
		}
		for j := range c {
			out.Set(r, j, a.At(i, j))
		}
	}
	return out
}

// checkFeatures validates the feature matrix of m candidates and returns it
// as a *mat.Dense (a copy when it is of another type).
func checkFeatures(op string, features mat.Matrix, m int) (*mat.Dense, error) {
	if ova.IsNil(features) {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "nil feature matrix")
	}
	r, c := features.Dims()
	if r == 0 || c == 0 {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "feature matrix is %d x %d", r, c)
	}
	if r != m {
		return nil, linalg.Errorf(linalg.ErrShape, op, "%d feature rows for %d candidates", r, m)
	}
	x, ok := features.(*mat.Dense)
	if !ok {
		x = mat.DenseCopyOf(features)
	}
	for i := range r {
		for j, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, linalg.Errorf(linalg.ErrNonFinite, op, "feature (%d,%d) is %v", i, j, v)
			}
		}
	}
	return x, nil
}
