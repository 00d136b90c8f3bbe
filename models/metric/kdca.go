package metric

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// KernelMetric is a metric learned by Kernel DCA: a point z maps to
//
//	y(z) = Coefᵀ [k(x_s, z)]_{s ∈ Support}
//
// (r coordinates), and the learned distance of two points is the Euclidean
// distance of their images. It is not modified by its methods and may be
// used by several goroutines at once.
type KernelMetric struct {
	// Support holds, in increasing order, the training points the map
	// expands on: the points named by some constraint.
	Support []int
	// Coef is len(Support) x r.
	Coef *mat.Dense
	// Ratios holds the between-to-within variance ratio of every output
	// coordinate in feature space, in decreasing order.
	Ratios []float64

	n    int           // training points
	kern linalg.Kernel // nil when learned from a kernel matrix
	xs   *mat.Dense    // the support points, with kern
	f    factors       // Coef = D β in factored form
}

// Dims returns the number of training points and of output coordinates.
func (m *KernelMetric) Dims() (n, r int) {
	_, r = m.Coef.Dims()
	return m.n, r
}

// KernelDCA learns Kernel DCA (thesis section 5.4, Fig. 5.4) with the kernel
// kern on the rows of x (n x p). DCA runs in the kernel's feature space:
// every learned direction is a combination of the chunklet means there,
// w = Σ_j β_j φ(m_j), which is where the range of the between-chunklet
// covariance lies, and the whole algorithm needs only the kernel among the
// constrained points. With the linear kernel it gives the DCA metric (the
// same distances: the directions agree up to the signs and the rotations
// within a repeated ratio that DCA leaves free).
//
// (Fig. 5.4 read literally diagonalises the matrices K_b and K_w of eq.
// 5.10 in the Euclidean metric of the expansion coefficients: that is DCA
// on the empirical kernel map x ↦ [k(x_1, x) ... k(x_n, x)], available as
// DCA applied to the rows of the kernel matrix. It does not reduce to DCA
// for the linear kernel, because the range of Ĉ_b then depends on the
// coordinates.)
//
// Settings act as for DCA, with Ĉ_b and Ĉ_w in feature space. Errors are
// those of DCA, plus linalg.ErrSettings for a nil or invalid kernel and
// linalg.ErrNonFinite for a kernel value that is NaN or Inf, and
// linalg.ErrNotPSD when the kernel is not positive semidefinite on the
// chunklet means. Cost: O(N² p) kernel work and O(N² + N u² + u³) for N
// constrained points and u distinct pairs of chunklets (a Cholesky
// factorisation and one eigendecomposition of u x u matrices); memory
// O(N (N + u) + u²). The result keeps a copy of the support points, for
// Transform.
func KernelDCA(ctx context.Context, kern linalg.Kernel, x *mat.Dense, c Constraints, s *Settings) (*KernelMetric, error) {
	const op = "metric.KernelDCA"
	if err := checkKernel(op, kern); err != nil {
		return nil, err
	}
	st, ch, err := prepare(op, ctx, x, c, s)
	if err != nil {
		return nil, err
	}
	n, p := x.Dims()
	sup := support(ch)
	xs := mat.NewDense(max(len(sup), 1), p, nil)
	for r, i := range sup {
		copy(xs.RawRowView(r), x.RawRowView(i))
	}
	var kss *mat.SymDense
	if len(sup) > 0 {
		if kss, err = linalg.Gram(ctx, kern, xs); err != nil {
			return nil, relabel(op, err)
		}
	}
	m, err := kdca(op, ctx, kss, sup, ch, len(c.Dissimilar), st)
	if err != nil {
		return nil, err
	}
	m.n, m.kern, m.xs = n, kern, xs
	return m, nil
}

// KernelDCAMatrix learns Kernel DCA, as KernelDCA does, from the n x n
// kernel matrix k of the training points; only its entries among the
// constrained points are read. A *linalg.LowRank kernel (the top
// eigenpairs from eig.TopD, or a Nyström approximation from eig.Nystrom,
// with its eigenvalues as weights) is read through its factor, in O(N² d),
// without forming the n x n matrix: Kernel DCA on V diag(mu) Vᵀ is DCA on
// the features V diag(sqrt(mu)).
//
// The result maps points through TransformKernel, given their kernel
// values against the n training points. Errors are those of KernelDCA, with
// linalg.ErrEmpty for a nil or empty matrix; the entries read must be
// finite.
func KernelDCAMatrix(ctx context.Context, k mat.Symmetric, c Constraints, s *Settings) (*KernelMetric, error) {
	const op = "metric.KernelDCAMatrix"
	if err := checkCtx(op, ctx); err != nil {
		return nil, err
	}
	if k == nil || isNilSym(k) || k.SymmetricDim() == 0 {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "kernel matrix is empty")
	}
	st, err := s.resolve(op)
	if err != nil {
		return nil, err
	}
	n := k.SymmetricDim()
	ch, err := newChunklets(op, n, c)
	if err != nil {
		return nil, err
	}
	sup := support(ch)
	var kss *mat.SymDense
	if len(sup) > 0 {
		blk, err := block(k, sup, sup)
		if err != nil {
			return nil, relabel(op, err)
		}
		kss = mat.NewSymDense(len(sup), nil)
		for i := range sup {
			for j := i; j < len(sup); j++ {
				v := (blk.At(i, j) + blk.At(j, i)) / 2
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, linalg.Errorf(linalg.ErrNonFinite, op, "k[%d][%d] = %v", sup[i], sup[j], v)
				}
				kss.SetSym(i, j, v)
			}
		}
	}
	m, err := kdca(op, ctx, kss, sup, ch, len(c.Dissimilar), st)
	if err != nil {
		return nil, err
	}
	m.n = n
	return m, nil
}

// Transform maps the rows of z (with the p features of the training data)
// into the learned space (len(z) x r), computing their kernel values against
// the support points. It needs a metric from KernelDCA: one learned from a
// matrix gives an error wrapping linalg.ErrSettings (use TransformKernel).
// Other errors wrap linalg.ErrEmpty, ErrNonFinite, ErrShape or the
// context's. Cost: O(m N p + m N r) for m points.
func (m *KernelMetric) Transform(ctx context.Context, z *mat.Dense) (*mat.Dense, error) {
	const op = "metric.KernelMetric.Transform"
	if err := checkCtx(op, ctx); err != nil {
		return nil, err
	}
	if m.kern == nil {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "the metric was learned from a kernel matrix: use TransformKernel")
	}
	_, p, err := checkData(op, z)
	if err != nil {
		return nil, err
	}
	if _, q := m.xs.Dims(); p != q {
		return nil, linalg.Errorf(linalg.ErrShape, op, "z has %d columns, the training data %d", p, q)
	}
	kzs, err := linalg.Cross(ctx, m.kern, z, m.xs)
	if err != nil {
		return nil, relabel(op, err)
	}
	return m.apply(kzs), nil
}

// TransformKernel maps points into the learned space given their kernel
// values kz (m x n) against all n training points, in training order;
// only the Support columns are read. Passing the training kernel matrix
// itself embeds the training points. A *linalg.LowRank is read through its
// factor. Errors wrap linalg.ErrEmpty, ErrShape (not n columns) or
// ErrNonFinite. Cost: O(m N r).
func (m *KernelMetric) TransformKernel(kz mat.Matrix) (*mat.Dense, error) {
	const op = "metric.KernelMetric.TransformKernel"
	if kz == nil || isNilMat(kz) {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "kernel matrix is empty")
	}
	rows, cols := kz.Dims()
	if rows == 0 {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "kernel matrix is empty")
	}
	if cols != m.n {
		return nil, linalg.Errorf(linalg.ErrShape, op, "kernel matrix has %d columns, want the %d training points", cols, m.n)
	}
	all := make([]int, rows)
	for i := range all {
		all[i] = i
	}
	blk, err := block(kz, all, m.Support)
	if err != nil {
		return nil, relabel(op, err)
	}
	for i := 0; i < rows; i++ {
		for j, v := range blk.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, linalg.Errorf(linalg.ErrNonFinite, op, "kz[%d][%d] = %v", i, m.Support[j], v)
			}
		}
	}
	return m.apply(blk), nil
}
