package eig_test

import (
	"context"
	"testing"

	"ukm/eig"
	"ukm/eig/eigtest"
)

// TestSolvers runs the conformance suite of package eigtest on every solver
// of the package and on the default choice (TopD), from outside the
// package, as the user of a solver of their own would.
func TestSolvers(t *testing.T) {
	for _, s := range []eig.Solver{eig.Reference{}, eig.Lanczos{}, eig.ThickRestart{}, eig.Block{}, eig.Chebyshev{}, topD{}} {
		t.Run("solver="+s.Name(), func(t *testing.T) {
			eigtest.TestSolver(t, s)
		})
	}
}

// topD is eig.TopD as a Solver.
type topD struct{}

func (topD) Name() string { return "topd" }

func (topD) Solve(ctx context.Context, a eig.Operator, d int, s *eig.Settings) (*eig.Result, error) {
	return eig.TopD(ctx, a, d, s)
}
