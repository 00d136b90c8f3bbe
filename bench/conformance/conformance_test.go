// Package conformance runs the module's three exported conformance suites
// (eig/eigtest, qp/qptest, models/spectral/designtest) the way a user's
// program outside the packages would: on in-tree solvers and designs wrapped
// in types of this package, which must pass, and on deliberately wrong ones,
// which must fail.
package conformance

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/eig/eigtest"
	"ukm/models/labelaware"
	"ukm/models/spectral"
	"ukm/models/spectral/designtest"
	"ukm/qp"
	"ukm/qp/qptest"
)

// eigWrap is a user's solver that delegates to an in-tree one, perturbing
// the eigenvalues by a relative amount (zero: a faithful wrapper).
type eigWrap struct {
	eig.Solver
	perturb float64
}

func (w eigWrap) Solve(ctx context.Context, a eig.Operator, d int, s *eig.Settings) (*eig.Result, error) {
	res, err := w.Solver.Solve(ctx, a, d, s)
	if res != nil {
		for i := range res.Values {
			res.Values[i] *= 1 + w.perturb
		}
	}
	return res, err
}

// qpWrap is a user's QP solver that delegates to an in-tree one and moves
// the solution by shift in every coordinate (zero: a faithful wrapper).
type qpWrap struct {
	qp.Solver
	shift float64
}

func (w qpWrap) Solve(ctx context.Context, p *qp.Problem, start *qp.Start, res *qp.Result) error {
	err := w.Solver.Solve(ctx, p, start, res)
	if err == nil {
		for i := range res.X {
			res.X[i] += w.shift
		}
	}
	return err
}

// designWrap is a user's design that delegates to an in-tree one and scales
// its coefficients by scale (one: a faithful wrapper).
type designWrap struct {
	spectral.Design
	scale float64
}

func (w designWrap) Coefficients(ctx context.Context, dst []float64, b *spectral.Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	mu, err := w.Design.Coefficients(ctx, dst, b, labeled, target)
	for i := range mu {
		mu[i] *= w.scale
	}
	return mu, err
}

func TestEigSuite(t *testing.T) {
	eigtest.TestSolver(t, eigWrap{Solver: eig.ThickRestart{}})
	if f := eigtest.Check(eigWrap{Solver: eig.ThickRestart{}, perturb: 1e-6}, &eigtest.Options{Short: true}); len(f) == 0 {
		t.Error("eigtest passed a solver whose eigenvalues are off by one part in a million")
	}
}

func TestQPSuite(t *testing.T) {
	qptest.TestSolver(t, qpWrap{Solver: &qp.ActiveSet{}}, qptest.Capabilities{})
	if f := qptest.Check(qpWrap{Solver: &qp.ActiveSet{}, shift: 1e-4}, qptest.Capabilities{}); len(f) == 0 {
		t.Error("qptest passed a solver whose solution is 1e-4 off the optimum")
	}
}

func TestDesignSuite(t *testing.T) {
	designtest.TestDesign(t, designWrap{Design: labelaware.Design{}, scale: 1})
	if f := designtest.Check(designWrap{Design: spectral.Cluster{}, scale: 2}); len(f) == 0 {
		t.Error("designtest passed a design whose coefficients sum to 2n")
	}
}
