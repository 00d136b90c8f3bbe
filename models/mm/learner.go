package mm

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/ova"
	"ukm/models/spectral"
	"ukm/models/svm"
)

// Learner runs Learn with a reusable workspace: after the first call with a
// given shape, Learn does not allocate. A Learner is not safe for
// concurrent use.
type Learner struct {
	// Settings used by Learn.
	Settings Settings

	op     string // the exported operation running, for errors
	s      Settings
	n, q   int
	np     int       // number of problems P
	y      []float64 // P x l labels
	vl     mat.Dense // l x q labeled rows of the basis
	vs     mat.Dense // l x q rows scaled by sqrt(mu)
	kern   mat.Dense // l x l kernel block
	t      []float64 // column norms ||phi_i||²
	c      []float64 // q x q ray coefficients, row k = mu of ray k
	seen   []bool
	p0, p1 point
	dir    []float64
	tmp    []float64 // projection input and sort scratch (2q)
	coef   []float64 // P x q
	solver svm.Solver
}

// Learn learns the max-margin spectral coefficients with a new Learner;
// see Learner.Learn. On an input error the Result is nil; otherwise it
// holds the best point found and its Status.
func Learn(ctx context.Context, b *spectral.Basis, labeled []int, y []float64, s *Settings) (*Result, error) {
	return learnSum("mm.Learn", ctx, b, labeled, [][]float64{y}, s)
}

// LearnSum learns one mu shared by several binary problems on the same
// labeled points with a new Learner; see Learner.LearnSum.
func LearnSum(ctx context.Context, b *spectral.Basis, labeled []int, ys [][]float64, s *Settings) (*Result, error) {
	return learnSum("mm.LearnSum", ctx, b, labeled, ys, s)
}

func learnSum(op string, ctx context.Context, b *spectral.Basis, labeled []int, ys [][]float64, s *Settings) (*Result, error) {
	var lr Learner
	if s != nil {
		lr.Settings = *s
	}
	res := &Result{}
	err := lr.learnSum(op, ctx, res, b, labeled, ys)
	if res.Status == linalg.NotRun {
		return nil, err
	}
	return res, err
}

// Learn minimises J(mu), the SVM dual optimum on the labeled block, over the
// fast-decay cone with fixed trace, and writes the outcome into res (reusing
// its slices). labeled indexes the rows of b.V with labels y (-1 or +1, both
// present).
//
// Stopping early is not an error: res holds the best point found and
// res.Status says how the run ended (see Result.Status). Errors: invalid
// input (wrapping linalg.ErrInvalid), with res left unchanged; a cancelled
// context (the error wraps ctx.Err(), status Canceled), with res holding the
// best point found once the first point was evaluated.
func (lr *Learner) Learn(ctx context.Context, res *Result, b *spectral.Basis, labeled []int, y []float64) error {
	var one [1][]float64
	one[0] = y
	return lr.learnSum("mm.Learner.Learn", ctx, res, b, labeled, one[:])
}

// LearnSum is Learn for P binary problems on the same labeled points (for
// example the one-versus-all problems of OneVsAll): it minimises the sum of
// their SVM dual optima J_1(mu) + ... + J_P(mu), still a convex function of
// mu, so that one kernel serves all of them. Each ys[p] holds the labels
// (-1 or +1, both present) of the labeled points.
func (lr *Learner) LearnSum(ctx context.Context, res *Result, b *spectral.Basis, labeled []int, ys [][]float64) error {
	return lr.learnSum("mm.Learner.LearnSum", ctx, res, b, labeled, ys)
}

func (lr *Learner) learnSum(op string, ctx context.Context, res *Result, b *spectral.Basis, labeled []int, ys [][]float64) error {
	if lr == nil {
		return linalg.Errorf(linalg.ErrSettings, op, "nil Learner")
	}
	if res == nil {
		return linalg.Errorf(linalg.ErrEmpty, op, "nil Result")
	}
	if err := linalg.CheckContext(op, ctx); err != nil {
		return err
	}
	if err := lr.setup(op, b, labeled, ys); err != nil {
		return err
	}
	return lr.run(ctx, res)
}

// setup validates the input and loads the labeled rows, the labels and the
// ray coefficients into the workspace.
func (lr *Learner) setup(op string, b *spectral.Basis, labeled []int, ys [][]float64) error {
	n, q, err := lr.loadBasis(op, b)
	if err != nil {
		return err
	}
	s, err := lr.Settings.resolve(op, n)
	if err != nil {
		return err
	}
	if err := lr.checkLabels(op, n, labeled, ys); err != nil {
		return err
	}
	l := len(labeled)
	reshape(&lr.vl, l, q)
	reshape(&lr.vs, l, q)
	reshape(&lr.kern, l, l)
	for r, j := range labeled {
		lr.vl.SetRow(r, b.V.RawRowView(j))
	}
	lr.y = lr.y[:0]
	for _, y := range ys {
		lr.y = append(lr.y, y...)
	}
	np := len(ys)
	lr.op, lr.s, lr.n, lr.q, lr.np = op, s, n, q, np
	lr.rays()
	lr.p0.resize(q, np)
	lr.p1.resize(q, np)
	lr.dir = grow(lr.dir, q)
	lr.tmp = grow(lr.tmp, 2*q)
	lr.coef = grow(lr.coef, q*np)
	lr.solver.Settings = svm.Settings{C: s.C, Tol: s.InnerTol, MaxIter: s.InnerMaxIter}
	return nil
}

// loadBasis checks the basis b — not empty (linalg.ErrEmpty), one value per
// vector (linalg.ErrShape), finite (linalg.ErrNonFinite), no zero column
// (linalg.ErrDegenerate) — and sets lr.t to its squared column norms.
func (lr *Learner) loadBasis(op string, b *spectral.Basis) (n, q int, err error) {
	n, q = b.Dims()
	if n == 0 || q == 0 {
		return 0, 0, linalg.Errorf(linalg.ErrEmpty, op, "empty basis")
	}
	if len(b.Values) != q {
		return 0, 0, linalg.Errorf(linalg.ErrShape, op, "basis has %d values for %d vectors", len(b.Values), q)
	}
	for i, v := range b.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, linalg.Errorf(linalg.ErrNonFinite, op, "eigenvalue %d is %v", i, v)
		}
	}
	// Column norms (the trace of each rank-one kernel) and finiteness.
	lr.t = grow(lr.t, q)
	clear(lr.t)
	raw := b.V.RawMatrix()
	for r := 0; r < n; r++ {
		row := raw.Data[r*raw.Stride : r*raw.Stride+q]
		for i, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, 0, linalg.Errorf(linalg.ErrNonFinite, op, "basis entry (%d,%d) is %v", r, i, v)
			}
			lr.t[i] += v * v
		}
	}
	for i, v := range lr.t {
		if !(v > 0) || math.IsInf(v, 0) {
			return 0, 0, linalg.Errorf(linalg.ErrDegenerate, op, "basis column %d has squared norm %v", i, v)
		}
	}
	return n, q, nil
}

// checkLabels checks the labeled indices into n rows (present, in range, not
// repeated) and the label vectors (one label per labeled point, each -1 or
// +1, both classes present): errors of kind linalg.ErrLabels, or
// linalg.ErrEmpty (no label vectors) and linalg.ErrShape (a vector of
// another length).
func (lr *Learner) checkLabels(op string, n int, labeled []int, ys [][]float64) error {
	if len(labeled) == 0 {
		return linalg.Errorf(linalg.ErrLabels, op, "no labeled points")
	}
	if len(ys) == 0 {
		return linalg.Errorf(linalg.ErrEmpty, op, "no label vectors")
	}
	for p, y := range ys {
		if len(y) != len(labeled) {
			return linalg.Errorf(linalg.ErrShape, op, "problem %d: %d labels for %d labeled points", p, len(y), len(labeled))
		}
		if err := ova.CheckBinary(op, y); err != nil {
			if e := new(linalg.Error); errors.As(err, &e) && len(ys) > 1 {
				e.Msg = fmt.Sprintf("problem %d: %s", p, e.Msg)
			}
			return err
		}
	}
	if cap(lr.seen) < n {
		lr.seen = make([]bool, n)
	}
	seen := lr.seen[:n]
	clear(seen)
	for _, j := range labeled {
		if j < 0 || j >= n {
			return linalg.Errorf(linalg.ErrLabels, op, "labeled index %d outside [0,%d)", j, n)
		}
		if seen[j] {
			return linalg.Errorf(linalg.ErrLabels, op, "labeled index %d repeated", j)
		}
		seen[j] = true
	}
	return nil
}

// rays fills lr.c: row k holds the coefficients of the k-th extreme ray of
// the cone with trace delta, c_{k,i} = delta w^{k-i} / s_k for i <= k
// (zero above), s_k = sum_{m<=k} w^{k-m} t_m. They are computed through the
// probabilities p_{k,i} = w^{k-i} t_i / s_k by a recursion that neither
// overflows nor underflows for large w or q.
func (lr *Learner) rays() {
	q, w, delta, t := lr.q, lr.s.Decay, lr.s.Trace, lr.t
	lr.c = grow(lr.c, q*q)
	c := lr.c
	clear(c)
	c[0] = 1 // p_{0,0}
	for k := 1; k < q; k++ {
		prev := c[(k-1)*q : k*q]
		row := c[k*q : (k+1)*q]
		// x = t_k / (w s_{k-1}) with s_{k-1} = t_{k-1} / p_{k-1,k-1}.
		x := t[k] * prev[k-1] / (w * t[k-1])
		rho := 1 / (1 + x)
		for i := 0; i < k; i++ {
			row[i] = prev[i] * rho
		}
		row[k] = x / (1 + x)
	}
	for k := 0; k < q; k++ {
		row := c[k*q : (k+1)*q]
		for i := 0; i <= k; i++ {
			row[i] *= delta / t[i]
		}
	}
}

// OneVsAll returns the one-versus-all label vectors of class labels in
// 0..classes-1 (every class present): for classes > 2, vector c is +1 where
// the label is c and -1 elsewhere; for two classes a single vector, +1 for
// class 1 (as spectral.Target). Errors are of kind linalg.ErrLabels.
func OneVsAll(labels []int, classes int) ([][]float64, error) {
	if err := ova.CheckLabels("mm.OneVsAll", labels, classes); err != nil {
		return nil, err
	}
	first := 0
	if classes == 2 {
		first = 1
	}
	ys := make([][]float64, 0, classes-first)
	for c := first; c < classes; c++ {
		y := make([]float64, len(labels))
		for i, v := range labels {
			y[i] = -1
			if v == c {
				y[i] = 1
			}
		}
		ys = append(ys, y)
	}
	return ys, nil
}
