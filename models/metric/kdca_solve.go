package metric

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// factors holds the map of a KernelMetric in factored form: Coef = D β,
// where column q of D (N x u) holds su/n_a on the points of chunklet a and
// -su/n_b on those of chunklet b for the q-th pair (a, b).
type factors struct {
	groups [][]int  // chunklets, as positions in Support
	pairs  [][2]int // the u distinct pairs of chunklets
	su     float64  // 1/sqrt(u)
	beta   *mat.Dense
}

// apply returns kz Coef for kz = K(points, support) (m x N), through the
// factors when u < N: kz E (chunklet means of the columns), then the pair
// differences, then β.
func (m *KernelMetric) apply(kz *mat.Dense) *mat.Dense {
	rows, ns := kz.Dims()
	u := len(m.f.pairs)
	var y mat.Dense
	if u >= ns {
		y.Mul(kz, m.Coef)
		return &y
	}
	kd := mat.NewDense(rows, u, nil)
	kze := make([]float64, len(m.f.groups))
	for i := 0; i < rows; i++ {
		row := kz.RawRowView(i)
		for j, g := range m.f.groups {
			var s float64
			for _, l := range g {
				s += row[l]
			}
			kze[j] = s / float64(len(g))
		}
		dst := kd.RawRowView(i)
		for q, ab := range m.f.pairs {
			dst[q] = (kze[ab[0]] - kze[ab[1]]) * m.f.su
		}
	}
	y.Mul(kd, m.f.beta)
	return &y
}

// kdca runs DCA in feature space on the kernel kss among the support
// points sup.
//
// With D (N x u) the coefficients of the u chunklet-mean differences
// Δ_q = (φ(m_a) - φ(m_b)) / sqrt(u), Ĉ_b = Δ Δᵀ, and with T = K D,
// Δᵀ Δ = Dᵀ T and Δᵀ Ĉ_w Δ = Σ_j w_j (T_j - T̄_j)ᵀ (T_j - T̄_j) over the
// rows of each chunklet. The eigenpairs (λ, g) of Δᵀ Δ give Z = Δ g
// λ^(-1), so C_z = Zᵀ Ĉ_w Z needs only these u x u matrices. D is applied
// through the chunklet means of K's columns (K E, O(N²)), never formed.
func kdca(op string, ctx context.Context, kss *mat.SymDense, sup []int, ch *Chunklets, dissimilar int, st Settings) (*KernelMetric, error) {
	if dissimilar == 0 {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "no dissimilar pairs, so Ĉ_b = 0: Kernel DCA needs negative constraints")
	}
	pos := make(map[int]int, len(sup))
	for r, i := range sup {
		pos[i] = r
	}
	groups := make([][]int, len(ch.Groups))
	for j, g := range ch.Groups {
		groups[j] = make([]int, len(g))
		for k, i := range g {
			groups[j][k] = pos[i]
		}
	}
	pp := ch.pairs()
	u := len(pp)
	ns := len(sup)
	c := len(groups)
	su := 1 / math.Sqrt(float64(u))
	// KE (N x c): the kernel against every chunklet mean.
	ke := mat.NewDense(ns, c, nil)
	row := kss.RawSymmetric()
	for i := 0; i < ns; i++ {
		dst := ke.RawRowView(i)
		for j, g := range groups {
			var s float64
			for _, l := range g {
				// K is stored in the upper triangle.
				if i <= l {
					s += row.Data[i*row.Stride+l]
				} else {
					s += row.Data[l*row.Stride+i]
				}
			}
			dst[j] = s / float64(len(g))
		}
	}
	// T = K D and Gb = Dᵀ T = Bᵀ (Eᵀ T) su.
	t := mat.NewDense(ns, u, nil)
	for i := 0; i < ns; i++ {
		src, dst := ke.RawRowView(i), t.RawRowView(i)
		for q, ab := range pp {
			dst[q] = (src[ab[0]] - src[ab[1]]) * su
		}
	}
	et := mat.NewDense(c, u, nil)
	for j, g := range groups {
		dst := et.RawRowView(j)
		for _, l := range g {
			for q, v := range t.RawRowView(l) {
				dst[q] += v
			}
		}
		for q := range dst {
			dst[q] /= float64(len(g))
		}
	}
	gb := mat.NewSymDense(u, nil)
	for q, ab := range pp {
		ra, rb := et.RawRowView(ab[0]), et.RawRowView(ab[1])
		for q2 := q; q2 < u; q2++ {
			gb.SetSym(q, q2, (ra[q2]-rb[q2])*su)
		}
	}
	// Symmetrise against rounding: Gb[q][q2] and Gb[q2][q] are computed
	// by different sums.
	for q, ab := range pp {
		ra, rb := et.RawRowView(ab[0]), et.RawRowView(ab[1])
		for q2 := 0; q2 < q; q2++ {
			gb.SetSym(q2, q, (gb.At(q2, q)+(ra[q2]-rb[q2])*su)/2)
		}
	}
	within, npts := 0, 0
	for _, g := range groups {
		if len(g) >= 2 {
			within++
			npts += len(g)
		}
	}
	if within == 0 {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "no similar pairs, so Ĉ_w = 0: Kernel DCA needs positive constraints")
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxErr(op, err)
	}
	r := mat.NewDense(npts, u, nil)
	k := 0
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		w := 1 / math.Sqrt(float64(within)*float64(len(g)))
		if st.PointWeighted {
			w = 1 / math.Sqrt(float64(npts))
		}
		mean := make([]float64, u)
		for _, i := range g {
			for q, v := range t.RawRowView(i) {
				mean[q] += v
			}
		}
		for q := range mean {
			mean[q] /= float64(len(g))
		}
		for _, i := range g {
			dst := r.RawRowView(k)
			for q, v := range t.RawRowView(i) {
				dst[q] = w * (v - mean[q])
			}
			k++
		}
	}
	hw := mat.NewSymDense(u, nil)
	hw.SymOuterK(1, r.T())
	if !finiteSym(gb) || !finiteSym(hw) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "covariances beyond the float64 range: scale the kernel")
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxErr(op, err)
	}
	gamma, err := betweenWhitening(op, gb, st)
	if err != nil {
		return nil, err
	}
	cz := congruence(gamma, hw)
	b, ratios, err := whiten(op, cz, st)
	if err != nil {
		return nil, err
	}
	var beta mat.Dense
	beta.Mul(gamma, b)
	// Coef = D β: every point of chunklet j gets (su/n_j) (Σ_{q: a=j} β_q
	// - Σ_{q: b=j} β_q).
	_, rr := beta.Dims()
	per := mat.NewDense(c, rr, nil)
	for q, ab := range pp {
		src := beta.RawRowView(q)
		pa, pb := per.RawRowView(ab[0]), per.RawRowView(ab[1])
		for l, v := range src {
			pa[l] += v
			pb[l] -= v
		}
	}
	coef := mat.NewDense(ns, rr, nil)
	for j, g := range groups {
		f := su / float64(len(g))
		src := per.RawRowView(j)
		for _, i := range g {
			dst := coef.RawRowView(i)
			for l, v := range src {
				dst[l] = f * v
			}
		}
	}
	return &KernelMetric{Support: sup, Coef: coef, Ratios: ratios,
		f: factors{groups: groups, pairs: pp, su: su, beta: &beta}}, nil
}

// support lists the points that belong to a chunklet, in increasing order.
func support(ch *Chunklets) []int {
	var s []int
	for i, j := range ch.Of {
		if j >= 0 {
			s = append(s, i)
		}
	}
	return s
}

// block returns the submatrix a[rows, cols], through the matrix's own Block
// method when it has one (a *linalg.LowRank).
func block(a mat.Matrix, rows, cols []int) (*mat.Dense, error) {
	if b, ok := a.(interface {
		Block(rows, cols []int) (*mat.Dense, error)
	}); ok {
		return b.Block(rows, cols)
	}
	out := mat.NewDense(len(rows), len(cols), nil)
	for r, i := range rows {
		dst := out.RawRowView(r)
		for c, j := range cols {
			dst[c] = a.At(i, j)
		}
	}
	return out, nil
}

func symOf(a *mat.Dense) *mat.SymDense {
	n, _ := a.Dims()
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, (a.At(i, j)+a.At(j, i))/2)
		}
	}
	return s
}

// betweenWhitening returns Γ (u x k) with Γᵀ Gb² Γ = I whose columns span
// the range of Gb (step 2 of Algorithm 1 in the coordinates of Δ: Z = Δ Γ).
// A well-conditioned Gb (an estimated condition number below 1/(u RankTol),
// so that no eigenvalue is near the cut-off) takes Γ = Gb^-1 from a
// Cholesky factorisation, a third of the work of an eigendecomposition;
// otherwise the eigenpairs (λ, g) of Gb above the cut-off give Γ = g λ^-1.
// Both give the same metric.
func betweenWhitening(op string, gb *mat.SymDense, st Settings) (*mat.Dense, error) {
	u := gb.SymmetricDim()
	if !st.noCholesky {
		var ch mat.Cholesky
		if ch.Factorize(gb) && ch.Cond() < 1/(float64(u)*st.RankTol) {
			var inv mat.SymDense
			if err := ch.InverseTo(&inv); err == nil {
				return mat.DenseCopyOf(&inv), nil
			}
		}
	}
	var eb linalg.EigenSym
	if !eb.Factorize(gb, true) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "eigendecomposition of the between-chunklet Gram matrix failed")
	}
	lb := eb.Values(nil)
	top := lb[u-1]
	// Rounding leaves eigenvalues of a PSD Gram matrix at most a few
	// units of round-off below zero; anything far below is the kernel's.
	if lb[0] < -1e-8*math.Max(top, -lb[0]) {
		return nil, linalg.Errorf(linalg.ErrNotPSD, op, "the kernel is not positive semidefinite on the chunklet means (eigenvalue %.3g, largest %.3g)", lb[0], top)
	}
	if !(top > 0) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "Ĉ_b = 0: the chunklets that dissimilar pairs separate have equal means in feature space")
	}
	var gv mat.Dense
	eb.VectorsTo(&gv)
	var keep []int
	for i, v := range lb {
		if v > st.RankTol*top {
			keep = append(keep, i)
		}
	}
	gamma := mat.NewDense(u, len(keep), nil)
	for j, i := range keep {
		for q := 0; q < u; q++ {
			gamma.Set(q, j, gv.At(q, i)/lb[i])
		}
	}
	return gamma, nil
}
