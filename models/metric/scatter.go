package metric

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Scatter returns the between-chunklet and within-chunklet covariance
// matrices Ĉ_b and Ĉ_w of eq. 5.3 for the rows of x (n x p) under the
// constraints:
//
//	Ĉ_b = 1/n_b Σ_j Σ_{i ∈ D_j} (m_j - m_i)(m_j - m_i)ᵀ
//	Ĉ_w = 1/n_w Σ_j 1/n_j Σ_{x ∈ chunklet j} (x - m_j)(x - m_j)ᵀ
//
// with m_j the mean of chunklet j, n_j its size and n_b = Σ_j |D_j|. A
// chunklet of one point has no spread: it adds nothing to Ĉ_w, and n_w
// counts the chunklets of two or more points (counting the others too would
// only scale Ĉ_w, and the metric, by a constant); it still enters Ĉ_b
// through its dissimilar pairs. With s.PointWeighted every chunklet is
// weighted by its size instead (1/N Σ_j Σ_x, N the points in chunklets of
// two or more), as Bar-Hillel et al. define RCA's covariance. Either matrix
// is zero when there are no pairs of its kind.
//
// Errors are those of DCA for bad data and constraints. Cost: O((N + u) p²)
// for N constrained points and u distinct pairs of chunklets.
func Scatter(x *mat.Dense, c Constraints, s *Settings) (cb, cw *mat.SymDense, err error) {
	const op = "metric.Scatter"
	st, err := s.resolve(op)
	if err != nil {
		return nil, nil, err
	}
	n, _, err := checkData(op, x)
	if err != nil {
		return nil, nil, err
	}
	ch, err := newChunklets(op, n, c)
	if err != nil {
		return nil, nil, err
	}
	cb, cw, _, _, err = scatter(context.Background(), x, ch, st.PointWeighted)
	return cb, cw, err
}

// scatter computes Ĉ_b and Ĉ_w and returns the number of distinct chunklet
// pairs and of chunklets with two or more points.
func scatter(ctx context.Context, x *mat.Dense, ch *Chunklets, pointWeighted bool) (cb, cw *mat.SymDense, pairs, within int, err error) {
	_, p := x.Dims()
	means := mat.NewDense(max(len(ch.Groups), 1), p, nil)
	for j, g := range ch.Groups {
		m := means.RawRowView(j)
		for _, i := range g {
			for k, v := range x.RawRowView(i) {
				m[k] += v
			}
		}
		inv := 1 / float64(len(g))
		for k := range m {
			m[k] *= inv
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, 0, err
	}
	// Ĉ_w = Rᵀ R with the centred rows of R scaled by the square root of
	// their weight.
	npts := 0
	for _, g := range ch.Groups {
		if len(g) >= 2 {
			within++
			npts += len(g)
		}
	}
	cw = mat.NewSymDense(p, nil)
	if within > 0 {
		r := mat.NewDense(npts, p, nil)
		k := 0
		for j, g := range ch.Groups {
			if len(g) < 2 {
				continue
			}
			w := 1 / math.Sqrt(float64(within)*float64(len(g)))
			if pointWeighted {
				w = 1 / math.Sqrt(float64(npts))
			}
			m := means.RawRowView(j)
			for _, i := range g {
				dst := r.RawRowView(k)
				for l, v := range x.RawRowView(i) {
					dst[l] = w * (v - m[l])
				}
				k++
			}
		}
		cw.SymOuterK(1, r.T())
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, 0, err
	}
	// Ĉ_b = Δᵀ Δ / u over the u distinct chunklet pairs: each pair appears
	// twice in Σ_j Σ_{i ∈ D_j}, and n_b = 2u.
	pp := ch.pairs()
	pairs = len(pp)
	cb = mat.NewSymDense(p, nil)
	if pairs > 0 {
		d := mat.NewDense(pairs, p, nil)
		for k, ab := range pp {
			dst := d.RawRowView(k)
			ma, mb := means.RawRowView(ab[0]), means.RawRowView(ab[1])
			for l := range dst {
				dst[l] = ma[l] - mb[l]
			}
		}
		cb.SymOuterK(1/float64(pairs), d.T())
	}
	return cb, cw, pairs, within, nil
}

// checkData validates a data matrix and returns its dimensions.
func checkData(op string, x *mat.Dense) (n, p int, err error) {
	if x == nil || x.IsEmpty() {
		return 0, 0, linalg.Errorf(linalg.ErrEmpty, op, "data matrix is empty")
	}
	n, p = x.Dims()
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, 0, linalg.Errorf(linalg.ErrNonFinite, op, "x[%d][%d] = %v", i, j, v)
			}
		}
	}
	return n, p, nil
}
