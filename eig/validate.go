package eig

import (
	"context"
	"fmt"
	"math"

	"ukm/linalg"
)

// checked holds validated settings with defaults filled in.
type checked struct {
	op      string // the caller, for error messages ("eig.Block.Solve")
	n, d    int
	tol     float64
	maxIter int
	basis   int
	block   int
	seed    uint64
	start   []float64
	which   Which
	verify  bool
	refine  bool
	// relTol makes the tolerance relative to each Ritz value instead of
	// ||A|| (the shift-and-invert mode: the operator is an inverse, whose
	// wanted values differ by orders of magnitude).
	relTol bool
}

// validate checks the arguments of a solve for the function op and fills
// in the defaults. On error it also returns the status the Result reports:
// NotRun for bad input, Canceled for a context that has ended.
func validate(ctx context.Context, op string, a Operator, d int, s *Settings) (*checked, linalg.Status, error) {
	if err := linalg.CheckContext(op, ctx); err != nil {
		return nil, linalg.NotRun, err
	}
	if isNilOrEmpty(a) {
		return nil, linalg.NotRun, linalg.Errorf(linalg.ErrEmpty, op, "operator is nil or empty")
	}
	n, cols := a.Dims()
	if n != cols {
		return nil, linalg.NotRun, linalg.Errorf(linalg.ErrShape, op, "operator is %dx%d, not square", n, cols)
	}
	if n <= 0 {
		return nil, linalg.NotRun, linalg.Errorf(linalg.ErrEmpty, op, "operator dimension %d is not positive", n)
	}
	if d <= 0 || d > n {
		return nil, linalg.NotRun, linalg.Errorf(linalg.ErrSettings, op, "d = %d, want 1 <= d <= n = %d", d, n)
	}
	if s == nil {
		s = &Settings{}
	}
	c := &checked{op: op, n: n, d: d, seed: s.Seed, which: s.Which, verify: !s.NoMultiplicityCheck}
	if err := linalg.CheckTol(op, "Tol", s.Tol); err != nil {
		return nil, linalg.NotRun, err
	}
	c.tol = s.Tol
	if c.tol == 0 {
		c.tol = DefaultTol
	}
	c.refine = !s.NoRefine && c.tol <= RefineTol
	for _, v := range []struct {
		name string
		v    int
	}{{"MaxIter", s.MaxIter}, {"BasisSize", s.BasisSize}, {"BlockSize", s.BlockSize}} {
		if err := linalg.CheckCount(op, v.name, v.v); err != nil {
			return nil, linalg.NotRun, err
		}
	}
	c.maxIter = s.MaxIter
	if c.maxIter == 0 {
		c.maxIter = DefaultMaxIter
	}
	c.basis = s.BasisSize
	c.block = s.BlockSize
	if s.Which != Largest && s.Which != Smallest {
		return nil, linalg.NotRun, linalg.Errorf(linalg.ErrSettings, op, "unknown Which = %d, want Largest or Smallest", int(s.Which))
	}
	if s.Start != nil {
		if len(s.Start) != n {
			return nil, linalg.NotRun, linalg.Errorf(linalg.ErrShape, op, "start vector has length %d, want n = %d", len(s.Start), n)
		}
		var nrm float64
		for i, v := range s.Start {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, linalg.NotRun, linalg.Errorf(linalg.ErrNonFinite, op, "start vector entry %d = %v is not finite", i, v)
			}
			nrm = math.Max(nrm, math.Abs(v))
		}
		if nrm == 0 {
			return nil, linalg.NotRun, linalg.Errorf(linalg.ErrSettings, op, "start vector is zero")
		}
		c.start = s.Start
	}
	if err := ctx.Err(); err != nil {
		return nil, linalg.Canceled, canceled(op, err)
	}
	return c, linalg.NotRun, nil
}

// canceled wraps the error of a context that has ended.
func canceled(op string, err error) error {
	return fmt.Errorf("%s: %w", op, err)
}
