package linalg

import (
	"context"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// PCA is a fitted projection onto principal directions:
// Transform(x) = (x - Mean) Components.
type PCA struct {
	// Mean holds the column means of the training data (length p).
	Mean []float64
	// Components is p x q with orthonormal columns, the leading
	// eigenvectors of the covariance, most variance first.
	Components *mat.Dense
	// Variances holds the covariance eigenvalues of the columns of
	// Components.
	Variances []float64
}

// DefaultPCASample is the number of rows FitPCA estimates the covariance
// from when sample is zero: the directions of the leading components are
// stable long before all rows of a large set are seen.
const DefaultPCASample = 5000

// FitPCA fits the q leading principal directions of the rows of x. The
// mean uses every row; the covariance uses a sample of rows drawn without
// replacement with the seed (all rows when sample is negative or at least
// n; zero means DefaultPCASample). Cost O(n p + s p^2 + p^3) for s sampled
// rows, memory O(s p + p^2).
//
// Errors wrap ErrInvalid: an empty or non-finite x (ErrEmpty, ErrNonFinite),
// q outside [1, p] (ErrSettings); a cancelled context returns its error.
func FitPCA(ctx context.Context, x *mat.Dense, q, sample int, seed uint64) (*PCA, error) {
	const op = "FitPCA"
	if err := checkCtx(op, ctx); err != nil {
		return nil, err
	}
	n, p, err := checkData(op, x)
	if err != nil {
		return nil, err
	}
	if q < 1 || q > p {
		return nil, newErr(ErrSettings, op, "q = %d components, want 1 <= q <= p = %d", q, p)
	}
	mean := make([]float64, p)
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i)[:p] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	if sample == 0 {
		sample = DefaultPCASample
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	if sample > 0 && sample < n {
		rng := rand.New(rand.NewPCG(seed, 0x5ca1ab1e))
		for i := 0; i < sample; i++ { // partial Fisher-Yates
			j := i + rng.IntN(n-i)
			rows[i], rows[j] = rows[j], rows[i]
		}
		rows = rows[:sample]
		slices.Sort(rows) // read the rows in memory order
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The centred sample, and its transpose stored as such: gonum's
	// product of two untransposed matrices is its fastest (and parallel).
	s := mat.NewDense(len(rows), p, nil)
	st := mat.NewDense(p, len(rows), nil)
	for a, i := range rows {
		dst := s.RawRowView(a)
		for j, v := range x.RawRowView(i)[:p] {
			dst[j] = v - mean[j]
			st.Set(j, a, dst[j])
		}
	}
	var c mat.Dense
	c.Mul(st, s)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cov := mat.NewSymDense(p, nil)
	inv := 1 / float64(len(rows))
	for i := 0; i < p; i++ {
		for j := i; j < p; j++ {
			cov.SetSym(i, j, (c.At(i, j)+c.At(j, i))/2*inv)
		}
	}
	var es EigenSym
	if !es.Factorize(cov, true) {
		return nil, newErr(ErrNumerical, op, "the covariance eigenproblem did not converge")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	out := &PCA{Mean: mean, Components: mat.NewDense(p, q, nil), Variances: make([]float64, q)}
	for k := 0; k < q; k++ { // EigenSym is ascending
		src := p - 1 - k
		out.Variances[k] = max(vals[src], 0)
		for i := 0; i < p; i++ {
			out.Components.Set(i, k, vecs.At(i, src))
		}
	}
	return out, nil
}

// Transform returns (x - Mean) Components, n x q, without forming the
// centred copy of x. x must have len(Mean) finite columns (else an error
// wrapping ErrShape or ErrNonFinite).
func (pc *PCA) Transform(x *mat.Dense) (*mat.Dense, error) {
	const op = "PCA.Transform"
	if pc == nil || pc.Components == nil {
		return nil, newErr(ErrEmpty, op, "the projection is not fitted")
	}
	n, p, err := checkData(op, x)
	if err != nil {
		return nil, err
	}
	pp, q := pc.Components.Dims()
	if p != pp || len(pc.Mean) != pp {
		return nil, newErr(ErrShape, op, "data have %d columns, the projection was fitted on %d", p, pp)
	}
	out := mat.NewDense(n, q, nil)
	out.Mul(x, pc.Components)
	shift := make([]float64, q)
	for k := range shift {
		for i, m := range pc.Mean {
			shift[k] += m * pc.Components.At(i, k)
		}
	}
	for i := 0; i < n; i++ {
		row := out.RawRowView(i)
		for k, v := range shift {
			row[k] -= v
		}
	}
	return out, nil
}
