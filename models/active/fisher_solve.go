package active

import (
	"errors"
	"math"

	"ukm/linalg"

	"gonum.org/v1/gonum/mat"
)

// The problem of eq. 4.15 and its bound optimisation (eq. 4.16-4.17).

// fisherProblem is eq. 4.15 for n candidates: g holds, row by row, the
// n x s weights g_ik = π_i(1 − π_i)(x_iᵀv_k)² of the s kept eigenpairs of
// all models, lam their eigenvalues λ_k. The objective is
// L(q) = Σ_k lam_k / (gᵀq)_k.
type fisherProblem struct {
	x      *mat.Dense // n x d features (for the duplicate test)
	probs  mat.Matrix // n x c probabilities (for the duplicate test)
	n, s   int
	g      []float64
	lam    []float64
	models int
	// orig maps the rows to the caller's candidates when the problem was
	// restricted to a shortlist; nil otherwise.
	orig []int

	tol      float64
	maxIter  int
	progress func(int, float64)
	// plain runs the updates of eq. 4.17 alone, without the line searches
	// that speed them up (for the tests).
	plain bool
}

// fisherBlock is one model's curvature weights and the eigenpairs of its
// pool Fisher matrix, largest first.
type fisherBlock struct {
	w    []float64  // π_i(1 − π_i), n
	vecs *mat.Dense // d x d eigenvectors, largest first
	vals []float64  // d eigenvalues, descending
	keep int        // leading eigenpairs kept
}

// errNoInformation is reported (as linalg.ErrDegenerate) when no candidate
// carries Fisher information.
var errNoInformation = errors.New("the pool has no Fisher information: every candidate has a probability of exactly 0 or 1, or a zero feature vector")

// newFisherProblem forms each model's pool Fisher matrix
// I_p = (1/n) Σ_i π_i(1 − π_i) x_i x_iᵀ, keeps the top rank eigenpairs of
// the block-diagonal matrix of all models (the largest eigenvalues across
// the blocks) above FisherRankRelTol of the largest, and projects the
// candidates on them.
func newFisherProblem(probs mat.Matrix, x *mat.Dense, rank int) (*fisherProblem, error) {
	n, d := x.Dims()
	_, c := probs.Dims()
	cols := []int{c - 1}
	if c >= 3 {
		cols = make([]int, c)
		for m := range cols {
			cols[m] = m
		}
	}
	xw := mat.NewDense(n, d, nil)
	var info mat.SymDense
	var es linalg.EigenSym
	var blocks []*fisherBlock
	top := 0.0
	for _, m := range cols {
		w := make([]float64, n)
		informative := false
		for i := range n {
			p := probs.At(i, m)
			w[i] = p * (1 - p)
			sw := math.Sqrt(w[i])
			row, xi := xw.RawRowView(i), x.RawRowView(i)
			for j, v := range xi {
				row[j] = sw * v
				informative = informative || row[j] != 0
			}
		}
		if !informative {
			continue
		}
		info.Reset()
		info.SymOuterK(1/float64(n), xw.T())
		if !es.Factorize(&info, true) {
			return nil, errors.New("the eigendecomposition of a pool Fisher matrix failed")
		}
		asc := es.Values(nil)
		var vecs mat.Dense
		es.VectorsTo(&vecs)
		b := &fisherBlock{w: w, vecs: mat.NewDense(d, d, nil), vals: make([]float64, d)}
		for k := range d {
			j := d - 1 - k
			b.vals[k] = asc[j]
			for r := range d {
				b.vecs.Set(r, k, vecs.At(r, j))
			}
		}
		top = math.Max(top, b.vals[0])
		blocks = append(blocks, b)
	}
	if !(top > 0) {
		return nil, errNoInformation
	}
	// The top rank eigenvalues of the block-diagonal matrix: merge the
	// blocks' descending lists.
	s := 0
	for s < rank {
		var best *fisherBlock
		for _, b := range blocks {
			if b.keep < d && b.vals[b.keep] > FisherRankRelTol*top && (best == nil || b.vals[b.keep] > best.vals[best.keep]) {
				best = b
			}
		}
		if best == nil {
			break
		}
		best.keep++
		s++
	}
	pb := &fisherProblem{x: x, probs: probs, n: n, s: s, g: make([]float64, n*s), lam: make([]float64, 0, s), models: len(cols)}
	// Project into g's columns, then square and weight in place.
	g := mat.NewDense(n, s, pb.g)
	off := 0
	for _, b := range blocks {
		sm := b.keep
		if sm == 0 {
			continue
		}
		g.Slice(0, n, off, off+sm).(*mat.Dense).Mul(x, b.vecs.Slice(0, d, 0, sm))
		for i := range n {
			gi := pb.g[i*s+off : i*s+off+sm]
			for k, p := range gi {
				gi[k] = b.w[i] * p * p
			}
		}
		pb.lam = append(pb.lam, b.vals[:sm]...)
		off += sm
	}
	return pb, nil
}

// errShortlistEmpty is reported (as linalg.ErrDegenerate) when no
// shortlisted candidate carries Fisher information.
var errShortlistEmpty = errors.New("no shortlisted candidate carries Fisher information (every one has a probability of exactly 0 or 1, or a zero feature vector)")

// restrict keeps the candidates idx (the eigenpairs, those of the whole
// pool, stay) and drops the directions in which none of them carries
// information: no batch from the shortlist could inform those, and their
// terms would make L infinite.
func (pb *fisherProblem) restrict(idx []int) error {
	if len(idx) >= pb.n {
		return nil
	}
	m, s := len(idx), pb.s
	keep := make([]int, 0, s)
	for k := range s {
		for _, i := range idx {
			if pb.g[i*s+k] > 0 {
				keep = append(keep, k)
				break
			}
		}
	}
	if len(keep) == 0 {
		return errShortlistEmpty
	}
	g := make([]float64, m*len(keep))
	for a, i := range idx {
		for t, k := range keep {
			g[a*len(keep)+t] = pb.g[i*s+k]
		}
	}
	x, probs := rowsOf(pb.x, idx), rowsOf(pb.probs, idx)
	lam := make([]float64, len(keep))
	for t, k := range keep {
		lam[t] = pb.lam[k]
	}
	pb.g, pb.lam, pb.x, pb.probs, pb.n, pb.s, pb.orig = g, lam, x, probs, m, len(keep), idx
	return nil
}
