package svm

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/ova"
)

// Solver trains models with a reusable workspace. The zero value is ready.
// A Solver is not safe for concurrent use.
type Solver struct {
	// Settings used by the Solver's methods.
	Settings Settings

	k    []float64 // full l x l copy of the kernel
	diag []float64
	g    []float64 // gradient of 1/2 a^T Q a - sum a
	yb   []float64
}

// newSolver returns a Solver with the settings s (nil: the defaults).
func newSolver(s *Settings) *Solver {
	sv := &Solver{}
	if s != nil {
		sv.Settings = *s
	}
	return sv
}

// Train trains a binary C-SVM on the l x l kernel block k with labels y in
// {-1, +1} (both present). See Solver.Train; the model is nil on an input
// error.
func Train(ctx context.Context, k mat.Matrix, y []float64, s *Settings) (*Model, error) {
	m := &Model{}
	err := newSolver(s).train("svm.Train", ctx, m, k, y, false)
	if len(m.Alpha) == 0 {
		return nil, err
	}
	return m, err
}

// Train trains into m, reusing its storage.
//
// k must be symmetric (to a relative 1e-12) and finite; it is copied into the
// Solver's workspace. If warm is true and len(m.Alpha) == l, SMO makes a warm
// start from m.Alpha clipped to [0, C] (NaN read as 0); if the clipped start
// violates sum y alpha = 0 the alphas of the heavier class are scaled down to
// restore it. Otherwise it starts from alpha = 0.
//
// Stopping at the iteration limit is not an error: m holds the last
// (feasible) iterate with its bias and dual value, and m.Stats.Status is
// IterationLimit. Errors: invalid input (wrapping linalg.ErrInvalid: ErrEmpty,
// ErrShape, ErrNonFinite, ErrLabels, ErrSettings), with m unchanged; a
// cancelled context (the error wraps ctx.Err(), status Canceled), with m
// holding the last iterate. Memory O(l^2); one SMO iteration costs O(l).
func (sv *Solver) Train(ctx context.Context, m *Model, k mat.Matrix, y []float64, warm bool) error {
	return sv.train("svm.Solver.Train", ctx, m, k, y, warm)
}

func (sv *Solver) train(op string, ctx context.Context, m *Model, k mat.Matrix, y []float64, warm bool) error {
	s, err := sv.prepare(op, ctx, m == nil, k, len(y))
	if err != nil {
		return err
	}
	if err := ova.CheckBinary(op, y); err != nil {
		return err
	}
	return sv.solve(op, ctx, m, y, s, warm)
}

// prepare validates what every training call takes: the Solver, the
// context, the destination (missing when nilDst), the settings and the
// kernel block k against l labels, which it loads.
func (sv *Solver) prepare(op string, ctx context.Context, nilDst bool, k mat.Matrix, l int) (Settings, error) {
	if sv == nil {
		return Settings{}, linalg.Errorf(linalg.ErrSettings, op, "nil Solver")
	}
	if err := linalg.CheckContext(op, ctx); err != nil {
		return Settings{}, err
	}
	if nilDst {
		return Settings{}, linalg.Errorf(linalg.ErrEmpty, op, "nil model")
	}
	s, err := sv.Settings.resolve(op, l)
	if err != nil {
		return s, err
	}
	return s, sv.loadKernel(op, k, l)
}

// loadKernel validates k and copies it into sv.k (full, row-major).
func (sv *Solver) loadKernel(op string, k mat.Matrix, l int) error {
	if err := ova.CheckKernel(op, k, l); err != nil {
		return err
	}
	sv.k = grow(sv.k, l*l)
	kk := sv.k
	switch t := k.(type) {
	case *mat.SymDense:
		raw := t.RawSymmetric()
		for i := 0; i < l; i++ {
			for j := i; j < l; j++ {
				var v float64
				if raw.Uplo == blas.Upper {
					v = raw.Data[i*raw.Stride+j]
				} else {
					v = raw.Data[j*raw.Stride+i]
				}
				kk[i*l+j], kk[j*l+i] = v, v
			}
		}
	case *mat.Dense:
		raw := t.RawMatrix()
		for i := 0; i < l; i++ {
			copy(kk[i*l:i*l+l], raw.Data[i*raw.Stride:i*raw.Stride+l])
		}
	default:
		for i := 0; i < l; i++ {
			for j := 0; j < l; j++ {
				kk[i*l+j] = k.At(i, j)
			}
		}
	}
	for i := 0; i < l; i++ {
		for j := i; j < l; j++ {
			a, b := kk[i*l+j], kk[j*l+i]
			if math.IsNaN(a) || math.IsInf(a, 0) || math.IsNaN(b) || math.IsInf(b, 0) {
				return linalg.Errorf(linalg.ErrNonFinite, op, "kernel block entries (%d,%d), (%d,%d) are %v, %v", i, j, j, i, a, b)
			}
			if a != b {
				if math.Abs(a-b) > 1e-12*(math.Abs(a)+math.Abs(b)) {
					return linalg.Errorf(linalg.ErrShape, op, "kernel block is not symmetric: K[%d,%d]=%v, K[%d,%d]=%v", i, j, a, j, i, b)
				}
				v := (a + b) / 2
				kk[i*l+j], kk[j*l+i] = v, v
			}
		}
	}
	sv.diag = grow(sv.diag, l)
	for i := range sv.diag {
		sv.diag[i] = kk[i*l+i]
	}
	return nil
}
