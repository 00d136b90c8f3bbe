package qp

import (
	"context"
	"fmt"

	"ukm/linalg"
)

// ErrDecayRange is returned by NewSKL, SKL.SetDecay and SKL.SetData when
// Decay^(2(d−1)) overflows float64, so that the reparametrised SKL problem
// cannot be represented; it wraps linalg.ErrSettings (and so ErrInvalid).
var ErrDecayRange = linalg.NewKind("qp: SKL decay factor out of range: Decay^(2(d-1)) overflows float64; lower the decay factor or d", linalg.ErrSettings)

// The operation names of the errors (linalg.Error.Op).
const (
	opActiveSet = "qp.ActiveSet.Solve"
	opGoldfarb  = "qp.GoldfarbIdnani.Solve"
	opADMM      = "qp.ADMM.Solve"
	opBounded   = "qp.Bounded.Solve"
	opResiduals = "qp.Residuals"
	opNewSKL    = "qp.NewSKL"
	opSKLSolve  = "qp.SKL.Solve"
)

// canceled ends a solve that op stopped because ctx ended: res (if not nil)
// gets status Canceled and the returned error wraps ctx.Err().
func canceled(ctx context.Context, op string, res *Result) error {
	if res != nil {
		res.Status = linalg.Canceled
	}
	return fmt.Errorf("%s: %w", op, ctx.Err())
}
