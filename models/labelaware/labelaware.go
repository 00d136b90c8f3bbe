package labelaware

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/linalg"
	"ukm/models/spectral"
)

// Weighting selects how the base kernels are combined (step 4 of
// Algorithm 1).
type Weighting int

const (
	// WeightAlignf maximises the centred alignment with the target on the labeled
	// block (Cortes, Mohri and Rostamizadeh 2010); the paper's choice.
	WeightAlignf Weighting = iota
	// WeightUniform gives every (unit-norm) base vector the same weight.
	WeightUniform
	// WeightIndependent weights each base kernel by its own centred alignment with
	// the target on the labeled block (Cristianini et al. 2002).
	WeightIndependent
)

// String returns "alignf", "uniform" or "independent".
func (w Weighting) String() string {
	switch w {
	case WeightAlignf:
		return "alignf"
	case WeightUniform:
		return "uniform"
	case WeightIndependent:
		return "independent"
	}
	return fmt.Sprintf("Weighting(%d)", int(w))
}

// Eigen selects the eigenvectors v_j of step 3.
type Eigen int

const (
	// KernelTop uses the top-K eigenvectors of the kernel matrix K.
	KernelTop Eigen = iota
	// LaplacianBottom uses the bottom-K eigenvectors of the normalised
	// graph Laplacian I - D^-1/2 K D^-1/2, D = diag(K 1), of the kernel
	// (the top of D^-1/2 K D^-1/2); on the Nystrom path D is the degree of
	// the approximation C W^+ Cᵀ.
	LaplacianBottom
)

// String returns "kernel-top" or "laplacian-bottom".
func (e Eigen) String() string {
	switch e {
	case KernelTop:
		return "kernel-top"
	case LaplacianBottom:
		return "laplacian-bottom"
	}
	return fmt.Sprintf("Eigen(%d)", int(e))
}

const (
	// ExactMaxN is the largest n for which Landmarks = 0 selects exact
	// eigenvectors (the n x n kernel matrix and eig.TopD: 8 n² bytes,
	// 32 MB at n = 2000). Larger sets use the Nystrom method.
	ExactMaxN = 2000
	// DefaultLandmarks is the number of landmarks used when Landmarks = 0
	// and n > ExactMaxN (raised to 2K if that is larger).
	DefaultLandmarks = 500
	// MaxDefaultK caps the default number of kernel eigenvectors.
	MaxDefaultK = 100
	// BandwidthPairs is the number of point pairs from which the default
	// RBF width is estimated (the median of their squared distances): the
	// quantile error is about 1/sqrt(BandwidthPairs) ~ 0.4%, irrelevant
	// for a width heuristic, and the cost O(BandwidthPairs p) stays below
	// that of the kernel blocks.
	BandwidthPairs = 1 << 16
)

// Settings configures Build. The zero value (or nil) selects every default.
type Settings struct {
	// Kernel is the base kernel. Nil means the paper's Gaussian kernel,
	// linalg.RBF with the median heuristic width (linalg.MedianGamma over
	// BandwidthPairs pairs drawn with Seed, or all pairs if fewer).
	Kernel linalg.Kernel
	// K is the number of kernel eigenvectors v_j (step 3). Zero means
	// min(ceil(n/10), MaxDefaultK, m): the paper uses 10% of n; the cap
	// keeps the weighting QP small. Negative is an error, and so is K > m.
	K int
	// Landmarks is the number m of Nystrom landmarks. Zero means exact
	// eigenvectors (eig.TopD on the formed kernel matrix) when n <=
	// ExactMaxN, else m = min(n, max(DefaultLandmarks, 2K)). A positive m
	// (at most n) always selects the Nystrom method, which never forms an
	// n x n matrix.
	Landmarks int
	// Weighting selects the combination of the base kernels.
	Weighting Weighting
	// Eigen selects kernel or normalised Laplacian eigenvectors.
	Eigen Eigen
	// Seed seeds the landmark sample, the eigensolver's start vectors and
	// the bandwidth heuristic's pair sample.
	Seed uint64
}

// Kernel is the learned label-aware kernel sum_i Weights_i V_i V_iᵀ
// (eq. 6) over all n points, kept in low-rank form.
type Kernel struct {
	// V is n x (c + k) with unit-norm columns: first the c label-aware
	// vectors u_1..u_c of eq. 5 (normalised), then the k kernel
	// eigenvectors v_1..v_k.
	V *mat.Dense
	// Weights holds the c + k non-negative weights, summing to n (so that
	// the trace of the kernel is n, like a unit-diagonal kernel's).
	Weights []float64
	// Values holds the k eigenvalues (exact, or Nystrom estimates) of the
	// eigenvectors: the kernel's (descending) for KernelTop, the normalised
	// Laplacian's (ascending) for LaplacianBottom.
	Values []float64
	// Classes is c.
	Classes int
	// Landmarks holds the Nystrom landmark indices (nil on the exact path).
	Landmarks []int
	// Alignment is the centred alignment of the kernel with the target on
	// the labeled block.
	Alignment float64
	// Stats describes the computation.
	Stats Stats
}

// Stats describes a Build.
type Stats struct {
	// Gamma is the RBF width used when Settings.Kernel is nil (else 0).
	Gamma float64
	// Exact reports whether the eigenvectors are exact (eig.TopD).
	Exact bool
	// M is the number of landmarks (0 on the exact path); K the number of
	// kernel eigenvectors.
	M, K int
	// ZeroDegree counts points whose degree sum_j K(x_i, x_j) over the
	// labeled points is not positive; their label-aware entries are 1/c.
	ZeroDegree int
	// Constant counts base vectors constant on the labeled block (weight 0).
	Constant int
	// QPIterations and KKT report the alignf QP (zero for the other
	// weightings).
	QPIterations int
	KKT          float64
	// Times of the stages: label-aware vectors, eigenvectors, weights.
	LabelTime, EigenTime, WeightTime time.Duration
}

// Build computes the label-aware kernel of Algorithm 1 (Wang, Zhang, Jiang
// and Marsic, AAAI 2014) for the n points x, of which labeled (distinct
// indices) carry the classes y (0..classes-1, every class present):
//
//  1. K_nl = K(X, X_l) and the degrees D = diag(K_nl 1);
//  2. the label-aware vectors [u_1..u_c] = D^-1 K_nl Y (eq. 5 normalised by
//     the degree, as the paper suggests), Y the l x c class indicator;
//  3. the top-K eigenvectors of K, or the bottom-K of its normalised
//     Laplacian (Settings.Eigen), exact or Nystrom (Settings.Landmarks);
//  4. weights of the rank-one base kernels by the chosen Weighting on the
//     labeled block, with the target of spectral.Target;
//  5. the kernel sum_i alpha_i u_i u_iᵀ + sum_j beta_j v_j v_jᵀ (eq. 6),
//     returned in low-rank form.
//
// Base vectors are scaled to unit norm before weighting. The time is
// O(n l p + n m p + n m² + m³) for p features and memory O(n (l + m + K)) on
// the Nystrom path; the exact path costs O(n² p) time and O(n²) memory.
// Bad input returns an error wrapping linalg.ErrInvalid and one of the kind
// sentinels; a cancelled context returns its error, wrapped.
func Build(ctx context.Context, x *mat.Dense, labeled, y []int, classes int, s *Settings) (*Kernel, error) {
	if ctx == nil {
		return nil, inputf(linalg.ErrSettings, "nil context")
	}
	var set Settings
	if s != nil {
		set = *s
	}
	if err := checkProblem(x, labeled, y, classes); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	exact, m, k, err := plan(n, &set)
	if err != nil {
		return nil, err
	}
	out := &Kernel{Classes: classes}
	out.Stats.Exact, out.Stats.M, out.Stats.K = exact, m, k
	kern := set.Kernel
	if kern == nil {
		g, err := linalg.MedianGamma(ctx, x, &linalg.BandwidthOptions{Seed: set.Seed, MaxPairs: BandwidthPairs})
		if err != nil {
			return nil, wrapDep(ctx, "median bandwidth", err)
		}
		kern = linalg.RBF{Gamma: g}
		out.Stats.Gamma = g
	} else if v, ok := kern.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, inputf(linalg.ErrSettings, "kernel: %w", err)
		}
	}

	t0 := time.Now()
	u, zero, err := labelVectors(ctx, kern, x, labeled, y, classes)
	if err != nil {
		return nil, err
	}
	out.Stats.ZeroDegree = zero
	out.Stats.LabelTime = time.Since(t0)

	t0 = time.Now()
	var vecs *mat.Dense
	if exact {
		g, err := linalg.Gram(ctx, kern, x)
		if err != nil {
			return nil, wrapDep(ctx, "kernel matrix", err)
		}
		if set.Eigen == LaplacianBottom {
			if err := NormalizeKernel(g); err != nil {
				return nil, err
			}
		}
		op, err := eig.NewDense(g)
		if err != nil {
			return nil, wrapDep(ctx, "kernel matrix", err)
		}
		g = nil // let the n x n copy go before the solve
		r, err := eig.TopD(ctx, op, k, &eig.Settings{Seed: set.Seed})
		if err != nil {
			return nil, wrapDep(ctx, "eigenvectors", err)
		}
		vecs, out.Values = r.Vectors, r.Values
	} else {
		r, err := eig.Nystrom(ctx, kern, x, m, k, &eig.NystromSettings{Seed: set.Seed, Normalized: set.Eigen == LaplacianBottom})
		if err != nil {
			return nil, wrapDep(ctx, "Nystrom eigenvectors", err)
		}
		vecs, out.Values, out.Landmarks = r.Vectors, r.Values, r.Landmarks
	}
	if set.Eigen == LaplacianBottom {
		for i, v := range out.Values {
			out.Values[i] = 1 - v
		}
	}
	out.Stats.EigenTime = time.Since(t0)

	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("labelaware: %w", err)
	}
	comb, err := Combine(ctx, u, vecs, labeled, y, classes, set.Weighting)
	if comb != nil {
		out.V, out.Weights, out.Alignment = comb.V, comb.Weights, comb.Alignment
		out.Stats.Constant, out.Stats.QPIterations, out.Stats.KKT = comb.Stats.Constant, comb.Stats.QPIterations, comb.Stats.KKT
		out.Stats.WeightTime = comb.Stats.WeightTime
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Combine is steps 4 and 5 of Algorithm 1 for vectors computed elsewhere
// (for example eigenvectors shared by several labelings): the base vectors
// [u/||u|| | v] (the label-aware vectors u, n x c, scaled to unit norm, then
// the eigenvectors v, n x k) weighted by the scheme on the labeled block,
// with weights summing to n. It fills V, Weights, Alignment and the weight
// statistics of the returned Kernel; Values and the eigenvector statistics
// are left to the caller. A NaN or Inf anywhere in u or v, and labeled
// indices that repeat or are out of range, are input errors, as for Build.
func Combine(ctx context.Context, u, v *mat.Dense, labeled, y []int, classes int, scheme Weighting) (*Kernel, error) {
	if ctx == nil {
		return nil, inputf(linalg.ErrSettings, "nil context")
	}
	if u == nil || v == nil || u.IsEmpty() || v.IsEmpty() {
		return nil, inputf(linalg.ErrShape, "empty label-aware or eigenvector block")
	}
	n, cu := u.Dims()
	nv, k := v.Dims()
	if nv != n || cu != classes {
		return nil, inputf(linalg.ErrShape, "label-aware block is %dx%d and eigenvectors %dx%d for %d classes", n, cu, nv, k, classes)
	}
	// Every row goes into the kernel, not only the labeled ones that the
	// weighting checks.
	if err := finite(u, "label-aware vector"); err != nil {
		return nil, err
	}
	if err := finite(v, "eigenvector"); err != nil {
		return nil, err
	}
	t0 := time.Now()
	out := &Kernel{Classes: classes}
	out.V = mat.NewDense(n, classes+k, nil)
	out.V.Slice(0, n, 0, classes).(*mat.Dense).Copy(u)
	out.V.Slice(0, n, classes, classes+k).(*mat.Dense).Copy(v)
	for j := 0; j < classes; j++ {
		col := out.V.ColView(j)
		if nrm := mat.Norm(col, 2); nrm > 0 {
			c := out.V.Slice(0, n, j, j+1).(*mat.Dense)
			c.Scale(1/nrm, c)
		}
	}
	target, err := spectral.Target(y, classes)
	if err != nil {
		return nil, inputf(linalg.ErrLabels, "%v", err)
	}
	seen := make(map[int]bool, len(labeled))
	for _, i := range labeled {
		if i < 0 || i >= n {
			return nil, inputf(linalg.ErrLabels, "labeled index %d outside [0,%d)", i, n)
		}
		if seen[i] {
			return nil, inputf(linalg.ErrLabels, "labeled index %d repeated", i)
		}
		seen[i] = true
	}
	if len(labeled) != len(y) {
		return nil, inputf(linalg.ErrLabels, "%d labeled indices but %d labels", len(labeled), len(y))
	}
	vl := rows(out.V, labeled)
	w, st, err := weights(ctx, scheme, vl, target)
	out.Stats.Constant, out.Stats.QPIterations, out.Stats.KKT = st.constant, st.iter, st.kkt
	if err != nil {
		return out, err
	}
	if err := normaliseSum(w, n); err != nil {
		return out, err
	}
	out.Weights = w
	out.Alignment, err = BlockAlignment(vl, target, w)
	if err != nil {
		return out, err
	}
	out.Stats.WeightTime = time.Since(t0)
	return out, nil
}

// NormalizeKernel replaces K by the normalised affinity D^-1/2 K D^-1/2,
// D = diag(K 1), whose top eigenvectors are the bottom ones of the
// normalised Laplacian I - D^-1/2 K D^-1/2. A degree that is not positive
// and finite is an ErrDegenerate error (K is then unchanged); a nil or empty
// K is an ErrShape error.
func NormalizeKernel(g *mat.SymDense) error {
	if g == nil || g.IsEmpty() {
		return inputf(linalg.ErrShape, "no kernel matrix")
	}
	n := g.SymmetricDim()
	d := make([]float64, n)
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < n; j++ {
			s += g.At(i, j)
		}
		if !(s > 0) || math.IsInf(s, 0) {
			return inputf(linalg.ErrDegenerate, "degree %g of point %d is not positive", s, i)
		}
		d[i] = 1 / math.Sqrt(s)
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			g.SetSym(i, j, g.At(i, j)*d[i]*d[j])
		}
	}
	return nil
}

// plan applies the defaults of Settings and checks them.
func plan(n int, s *Settings) (exact bool, m, k int, err error) {
	if s.K < 0 {
		return false, 0, 0, inputf(linalg.ErrSettings, "K = %d eigenvectors, want K >= 0 (0 for the default)", s.K)
	}
	if s.Landmarks < 0 || s.Landmarks > n {
		return false, 0, 0, inputf(linalg.ErrSettings, "%d landmarks for %d points, want 0 <= m <= n", s.Landmarks, n)
	}
	if s.Weighting < WeightAlignf || s.Weighting > WeightIndependent {
		return false, 0, 0, inputf(linalg.ErrSettings, "unknown weighting %v", s.Weighting)
	}
	if s.Eigen < KernelTop || s.Eigen > LaplacianBottom {
		return false, 0, 0, inputf(linalg.ErrSettings, "unknown eigenvector choice %v", s.Eigen)
	}
	m = s.Landmarks
	if m == 0 {
		if n <= ExactMaxN {
			exact, m = true, n
		} else {
			m = min(n, max(DefaultLandmarks, 2*s.K))
		}
	}
	k = s.K
	if k == 0 {
		k = min((n+9)/10, MaxDefaultK, m)
	}
	if k > m {
		return false, 0, 0, inputf(linalg.ErrSettings, "K = %d eigenvectors from %d landmarks, want K <= m", k, m)
	}
	if exact {
		m = 0
	}
	return exact, m, k, nil
}

// checkProblem validates the data, the labeled indices and the labels.
func checkProblem(x *mat.Dense, labeled, y []int, classes int) error {
	if x == nil || x.IsEmpty() {
		return inputf(linalg.ErrShape, "no data")
	}
	if err := finite(x, "x"); err != nil {
		return err
	}
	n, _ := x.Dims()
	if classes < 2 {
		return inputf(linalg.ErrLabels, "%d classes, want at least 2", classes)
	}
	if len(labeled) == 0 {
		return inputf(linalg.ErrLabels, "no labeled points")
	}
	if len(y) != len(labeled) {
		return inputf(linalg.ErrShape, "%d labels for %d labeled points", len(y), len(labeled))
	}
	seen := make(map[int]bool, len(labeled))
	for _, i := range labeled {
		if i < 0 || i >= n {
			return inputf(linalg.ErrLabels, "labeled index %d outside [0,%d)", i, n)
		}
		if seen[i] {
			return inputf(linalg.ErrLabels, "labeled index %d repeated", i)
		}
		seen[i] = true
	}
	count := make([]int, classes)
	for i, c := range y {
		if c < 0 || c >= classes {
			return inputf(linalg.ErrLabels, "label %d of labeled point %d outside [0,%d)", c, i, classes)
		}
		count[c]++
	}
	for c, k := range count {
		if k == 0 {
			return inputf(linalg.ErrLabels, "class %d has no labeled point", c)
		}
	}
	return nil
}
