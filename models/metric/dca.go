package metric

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Metric is a learned linear metric: a point x maps to y = Aᵀx, and the
// distance of two points is ||Aᵀ(x - z)||, the Mahalanobis distance with M
// = A Aᵀ (the thesis writes the transformation as the rows of A, so its M =
// AᵀA is this M). A Metric is not modified by its methods and may be used
// by several goroutines at once.
type Metric struct {
	// A is p x r: the learned directions, one per column, in order of
	// decreasing between-to-within ratio for DCA. RCA's A is the symmetric
	// p x p matrix Ĉ_w^(-1/2).
	A *mat.Dense
	// Ratios holds, for DCA, the between-to-within variance ratio of every
	// column of A (the diagonal of Aᵀ Ĉ_b A, since Aᵀ Ĉ_w A = I, without a
	// ridge), in decreasing order; nil for RCA.
	Ratios []float64
}

// Dims returns the input dimension p and the output dimension r.
func (m *Metric) Dims() (p, r int) { return m.A.Dims() }

// Mahalanobis returns the p x p matrix M = A Aᵀ of the metric. Cost: O(p² r).
func (m *Metric) Mahalanobis() *mat.SymDense {
	p, _ := m.A.Dims()
	out := mat.NewSymDense(p, nil)
	out.SymOuterK(1, m.A)
	return out
}

// Transform returns the points in the learned space, X A (n x r), in
// which the learned metric is the Euclidean distance. Errors wrap
// linalg.ErrEmpty, ErrNonFinite or ErrShape (x without p columns). Cost:
// O(n p r).
func (m *Metric) Transform(x *mat.Dense) (*mat.Dense, error) {
	const op = "metric.Metric.Transform"
	_, p, err := checkData(op, x)
	if err != nil {
		return nil, err
	}
	if q, _ := m.A.Dims(); p != q {
		return nil, linalg.Errorf(linalg.ErrShape, op, "x has %d columns, the metric %d", p, q)
	}
	var y mat.Dense
	y.Mul(x, m.A)
	return &y, nil
}

// Distance returns ||Aᵀ(a - b)||. Vectors of a length other than p are an
// error wrapping linalg.ErrShape. Cost: O(p r).
func (m *Metric) Distance(a, b []float64) (float64, error) {
	p, r := m.A.Dims()
	if len(a) != p || len(b) != p {
		return 0, linalg.Errorf(linalg.ErrShape, "metric.Metric.Distance", "vectors of lengths %d and %d, want %d", len(a), len(b), p)
	}
	d := make([]float64, p)
	for i := range d {
		d[i] = a[i] - b[i]
	}
	var s float64
	for j := 0; j < r; j++ {
		var t float64
		for i, v := range d {
			t += v * m.A.At(i, j)
		}
		s += t * t
	}
	return math.Sqrt(s), nil
}

// DCA learns the metric of Discriminative Component Analysis (thesis
// Algorithm 1, Fig. 5.2) from the rows of x (n x p) and the constraints:
//
//  1. Ĉ_b and Ĉ_w of eq. 5.3 (see Scatter);
//  2. Ĉ_b = U Λ_b Uᵀ; Û keeps the k eigenvectors whose eigenvalues are
//     not zero (above RankTol times the largest), D_b their eigenvalues,
//     Z = Û D_b^(-1/2), and C_z = Zᵀ Ĉ_w Z (k x k);
//  3. C_z = V Λ_w Vᵀ; V̂ keeps the r eigenvectors of smallest eigenvalue
//     (all k unless Settings.Dims is set), D_w their eigenvalues;
//  4. A = Z V̂ D_w^(-1/2).
//
// Then Aᵀ Ĉ_w A = I and Aᵀ Ĉ_b A = D_w^(-1) (the Ratios) on the retained
// subspace: A maximises |Aᵀ Ĉ_b A| / |Aᵀ Ĉ_w A| (eq. 5.4) among
// transformations into the range of Ĉ_b.
//
// Errors wrap linalg.ErrInvalid: linalg.ErrSettings (a nil context, bad
// settings), linalg.ErrEmpty, ErrNonFinite, ErrLabels and ErrContradictory
// for bad data or constraints, and linalg.ErrDegenerate when the metric is
// undefined: no dissimilar pairs (Ĉ_b = 0: use RCA), no similar pairs
// (Ĉ_w = 0), chunklets with equal means, a C_z that is singular (a
// discriminative direction along which no chunklet has spread: set
// Settings.Ridge), or covariances beyond the float64 range. A cancelled
// context gives an error wrapping the context's. Cost: O((N + u) p² + p³)
// for N constrained points and u distinct pairs of chunklets; n enters only
// through the check of x.
func DCA(ctx context.Context, x *mat.Dense, c Constraints, s *Settings) (*Metric, error) {
	const op = "metric.DCA"
	st, ch, err := prepare(op, ctx, x, c, s)
	if err != nil {
		return nil, err
	}
	if len(c.Dissimilar) == 0 {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "no dissimilar pairs, so Ĉ_b = 0: DCA needs negative constraints (RCA uses the similar pairs alone)")
	}
	cb, cw, _, within, err := scatter(ctx, x, ch, st.PointWeighted)
	if err != nil {
		return nil, ctxErr(op, err)
	}
	if within == 0 {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "no similar pairs, so Ĉ_w = 0: DCA needs positive constraints")
	}
	if !finiteSym(cb) || !finiteSym(cw) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "covariances beyond the float64 range: scale the data")
	}
	var eb linalg.EigenSym
	if !eb.Factorize(cb, true) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "eigendecomposition of Ĉ_b failed")
	}
	lb := eb.Values(nil)
	var ub mat.Dense
	eb.VectorsTo(&ub)
	p := len(lb)
	top := lb[p-1]
	if !(top > 0) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "Ĉ_b = 0: the chunklets that dissimilar pairs separate have equal means")
	}
	var keep []int
	for i, v := range lb {
		if v > st.RankTol*top {
			keep = append(keep, i)
		}
	}
	z := mat.NewDense(p, len(keep), nil)
	for j, i := range keep {
		f := 1 / math.Sqrt(lb[i])
		for r := 0; r < p; r++ {
			z.Set(r, j, ub.At(r, i)*f)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxErr(op, err)
	}
	cz := congruence(z, cw)
	b, ratios, err := whiten(op, cz, st)
	if err != nil {
		return nil, err
	}
	var a mat.Dense
	a.Mul(z, b)
	return &Metric{A: &a, Ratios: ratios}, nil
}

// RCA learns the metric of Relevant Component Analysis (Bar-Hillel et al.),
// the special case of DCA without negative constraints: A = Ĉ_w^(-1/2),
// the symmetric inverse square root of the within-chunklet covariance (of
// Ĉ_w + Ridge (tr Ĉ_w / p) I with Settings.Ridge), so that Aᵀ Ĉ_w A = I.
// Dissimilar pairs are checked but not used.
//
// Errors are those of DCA, except that no dissimilar pairs are needed;
// linalg.ErrDegenerate reports no similar pairs, and a singular Ĉ_w (an
// eigenvalue at most RankTol times the largest: fewer constrained points
// than dimensions, or a direction without spread), which Settings.Ridge
// resolves. Cost: O(N p² + p³).
func RCA(ctx context.Context, x *mat.Dense, c Constraints, s *Settings) (*Metric, error) {
	const op = "metric.RCA"
	st, ch, err := prepare(op, ctx, x, c, s)
	if err != nil {
		return nil, err
	}
	_, cw, _, within, err := scatter(ctx, x, ch, st.PointWeighted)
	if err != nil {
		return nil, ctxErr(op, err)
	}
	if within == 0 {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "no similar pairs, so Ĉ_w = 0: RCA needs positive constraints")
	}
	if !finiteSym(cw) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "covariance beyond the float64 range: scale the data")
	}
	p := cw.SymmetricDim()
	addRidge(cw, st.Ridge)
	var e linalg.EigenSym
	if !e.Factorize(cw, true) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "eigendecomposition of Ĉ_w failed")
	}
	lw := e.Values(nil)
	if !(lw[0] > st.RankTol*lw[p-1]) {
		rank := 0
		for _, v := range lw {
			if v > st.RankTol*lw[p-1] {
				rank++
			}
		}
		return nil, linalg.Errorf(linalg.ErrDegenerate, op,
			"Ĉ_w is singular (rank %d of %d): give more similar pairs, reduce the dimension, or set Settings.Ridge", rank, p)
	}
	var u mat.Dense
	e.VectorsTo(&u)
	scaled := mat.DenseCopyOf(&u)
	for j, v := range lw {
		f := 1 / math.Sqrt(v)
		for i := 0; i < p; i++ {
			scaled.Set(i, j, scaled.At(i, j)*f)
		}
	}
	var a mat.Dense
	a.Mul(scaled, u.T())
	// Exactly symmetric.
	for i := 0; i < p; i++ {
		for j := i + 1; j < p; j++ {
			v := (a.At(i, j) + a.At(j, i)) / 2
			a.Set(i, j, v)
			a.Set(j, i, v)
		}
	}
	return &Metric{A: &a}, nil
}

// prepare validates the common arguments and groups the chunklets.
func prepare(op string, ctx context.Context, x *mat.Dense, c Constraints, s *Settings) (Settings, *Chunklets, error) {
	if err := checkCtx(op, ctx); err != nil {
		return Settings{}, nil, err
	}
	st, err := s.resolve(op)
	if err != nil {
		return st, nil, err
	}
	n, _, err := checkData(op, x)
	if err != nil {
		return st, nil, err
	}
	ch, err := newChunklets(op, n, c)
	return st, ch, err
}

// congruence returns the symmetric k x k matrix Zᵀ C Z.
func congruence(z *mat.Dense, c mat.Symmetric) *mat.SymDense {
	var t, m mat.Dense
	// gonum multiplies two general matrices in parallel, a symmetric and
	// a general one serially: copy C.
	t.Mul(mat.DenseCopyOf(c), z)
	m.Mul(z.T(), &t)
	_, k := z.Dims()
	out := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			out.SetSym(i, j, (m.At(i, j)+m.At(j, i))/2)
		}
	}
	return out
}

// whiten carries out steps 3 and 4 of Algorithm 1 on C_z: it returns
// V̂ D_w^(-1/2) (k x r), the columns in order of increasing eigenvalue of
// C_z (decreasing ratio), and the ratios 1/λ_w.
func whiten(op string, cz *mat.SymDense, st Settings) (*mat.Dense, []float64, error) {
	k := cz.SymmetricDim()
	addRidge(cz, st.Ridge)
	var e linalg.EigenSym
	if !e.Factorize(cz, true) {
		return nil, nil, linalg.Errorf(linalg.ErrDegenerate, op, "eigendecomposition of C_z failed")
	}
	lw := e.Values(nil)
	if !(lw[0] > st.RankTol*lw[k-1]) {
		return nil, nil, linalg.Errorf(linalg.ErrDegenerate, op,
			"Ĉ_w is singular on the discriminative subspace (C_z has eigenvalue %.3g, largest %.3g): "+
				"some direction separates chunklets that have no spread along it; set Settings.Ridge", lw[0], lw[k-1])
	}
	r := k
	if st.Dims > 0 && st.Dims < k {
		r = st.Dims
	}
	var v mat.Dense
	e.VectorsTo(&v)
	b := mat.NewDense(k, r, nil)
	ratios := make([]float64, r)
	for j := 0; j < r; j++ {
		f := 1 / math.Sqrt(lw[j])
		ratios[j] = 1 / lw[j]
		for i := 0; i < k; i++ {
			b.Set(i, j, v.At(i, j)*f)
		}
	}
	return b, ratios, nil
}

// addRidge adds ridge times the mean diagonal entry of a to its diagonal
// (nothing for ridge = 0): a regularisation relative to the matrix's scale.
func addRidge(a *mat.SymDense, ridge float64) {
	if ridge <= 0 {
		return
	}
	p := a.SymmetricDim()
	add := ridge * mat.Trace(a) / float64(p)
	for i := 0; i < p; i++ {
		a.SetSym(i, i, a.At(i, i)+add)
	}
}

func finiteSym(a *mat.SymDense) bool {
	n := a.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}
