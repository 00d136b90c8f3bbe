package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/qp"
)

// DefaultDecay is the decay factor SKL uses when its Decay is zero: the value
// of KDD'06 Figs. 2-5 (the same as qp.DefaultDecay).
const DefaultDecay = qp.DefaultDecay

// SKL is spectral kernel learning (KDD'06 section 4.2): the coefficients
// maximise the alignment of the labeled block with the target under mu >= 0
// and mu_i >= Decay·mu_{i+1}. Decay must be at least 1 (1 is the order
// constraint); zero means DefaultDecay. The QP is solved by qp.SKL in
// O(l·d² + d³) at most (O(l·d²) to form it).
//
// An SKL keeps its QP workspace and warm-starts each solve from the previous
// solution, so re-learning after a few labels arrive or for a new decay factor
// is cheap; it is therefore not safe for concurrent use (make one per
// goroutine). One SKL may be used for bases and labeled sets of any size; the
// answers are those of a fresh SKL.
//
// Besides the errors of every design (see Design), a QP that does not end
// Optimal is an error wrapping its status's error (Status.Err), never a
// silently wrong mu: linalg.ErrInfeasible when the target is orthogonal to
// every eigenvector on the labeled rows (the QP has no feasible point; the
// data are valid, so this is not an input error), linalg.ErrIterationLimit or
// linalg.ErrNumerical otherwise. Result then holds the QP's outcome.
type SKL struct {
	// Decay is the decay factor δ >= 1 of mu_i >= δ·mu_{i+1}; zero means
	// DefaultDecay.
	Decay float64
	// Solver solves the QP; nil means the bound-constrained solver of the
	// reparametrised problem (the fast path of qp.SKL.Solve).
	Solver qp.Solver

	prob  *qp.SKL
	vl    mat.Dense
	seen  []bool // scratch for the duplicate check of labeled indices
	res   qp.Result
	start qp.Start
	warm  []float64
}

var _ Design = (*SKL)(nil)

// NewSKL returns an SKL design with the given decay factor (zero means
// DefaultDecay).
func NewSKL(decay float64) *SKL { return &SKL{Decay: decay} }

// Name implements Design.
func (s *SKL) Name() string { return "SKL" }

// Result returns the QP outcome of the last Coefficients call: status,
// iterations, multipliers and KKT residuals (μ in the QP's own scale, before
// normalisation).
func (s *SKL) Result() *qp.Result { return &s.res }

// Problem returns the QP of the last Coefficients call (nil before the first).
func (s *SKL) Problem() *qp.SKL { return s.prob }

// Coefficients implements Design.
func (s *SKL) Coefficients(ctx context.Context, dst []float64, b *Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	const op = "spectral.SKL.Coefficients"
	if s == nil {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "nil SKL design")
	}
	if err := begin(ctx, op, b); err != nil {
		return nil, err
	}
	decay := s.Decay
	if decay == 0 {
		decay = DefaultDecay
	}
	if err := linalg.CheckIn(op, "Decay", decay, 1, math.Inf(1)); err != nil {
		return nil, err
	}
	if err := checkTarget(op, labeled, target); err != nil {
		return nil, err
	}
	n, d := b.Dims()
	if len(s.seen) < n {
		s.seen = make([]bool, n)
	}
	if _, err := b.rows(op, &s.vl, labeled, s.seen[:n]); err != nil {
		return nil, err
	}
	var err error
	if s.prob == nil || s.prob.D() != d {
		s.prob, err = qp.NewSKL(&s.vl, target, decay)
		s.warm = s.warm[:0]
	} else {
		if err = s.prob.SetData(&s.vl, target); err == nil {
			err = s.prob.SetDecay(decay)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	var start *qp.Start
	if len(s.warm) == d {
		s.start.X = s.warm
		start = &s.start
	}
	if err := s.prob.Solve(ctx, s.Solver, start, &s.res); err != nil {
		return nil, solveError(op, s.Solver == nil, err)
	}
	if start != nil && (s.res.Status != linalg.Optimal || s.res.PolishIterations > 0) && ctx.Err() == nil {
		// The warm start led the solver astray: near the decay range limit
		// a repeated call from the last optimum can end NumericalFailure
		// where a fresh solve ends Optimal, and a start from the answer for
		// another decay factor can need the μ-space polish, whose KKT test,
		// relative to the largest μ, passes a μ whose small tail (all that
		// the objective sees when a_1 = ... = a_j = 0) is not optimal.
		// Solve again from the solver's own start, so that the answer is
		// that of a fresh SKL.
		if err := s.prob.Solve(ctx, s.Solver, nil, &s.res); err != nil {
			return nil, solveError(op, s.Solver == nil, err)
		}
	}
	if err := qpOutcome(op, &s.res); err != nil {
		return nil, err
	}
	s.warm = append(s.warm[:0], s.res.X...)
	dst = resize(dst, d)
	for i, v := range s.res.X {
		dst[i] = math.Max(v, 0) // the QP's μ ≥ 0 holds to rounding
	}
	return dst, normalise(op, dst, n)
}

// checkTarget validates a target factor for the labeled points.
func checkTarget(op string, labeled []int, target *mat.Dense) error {
	if target == nil || target.IsEmpty() {
		return linalg.Errorf(linalg.ErrEmpty, op, "nil or empty target")
	}
	if r, _ := target.Dims(); r != len(labeled) {
		return linalg.Errorf(linalg.ErrShape, op, "target has %d rows for %d labeled points", r, len(labeled))
	}
	if len(labeled) == 0 {
		return linalg.Errorf(linalg.ErrEmpty, op, "no labeled points")
	}
	return nil
}

// solveError wraps an error of the QP solve. With the package's own solver
// (own) the data were validated before, so an error wrapping
// linalg.ErrInvalid is not the caller's: it is the solver's breakdown on
// valid data (for example a minimal feasible mu that overflows, when a is
// of the order of rounding and the decay factor large), an error wrapping
// linalg.ErrNumerical.
func solveError(op string, own bool, err error) error {
	if own && errors.Is(err, linalg.ErrInvalid) {
		return fmt.Errorf("%s: the QP solver failed on valid data (%v): %w", op, err, linalg.ErrNumerical)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// qpOutcome returns nil for an Optimal QP and otherwise an error wrapping the
// error of its status.
func qpOutcome(op string, res *qp.Result) error {
	switch res.Status {
	case linalg.Optimal:
		return nil
	case linalg.Infeasible:
		return fmt.Errorf("%s: the QP is infeasible (the target is orthogonal to every eigenvector on the labeled rows): %w", op, linalg.ErrInfeasible)
	}
	return fmt.Errorf("%s: the QP ended with status %v (KKT residual %.2g): %w", op, res.Status, res.KKT.Max(), res.Status.Err())
}
