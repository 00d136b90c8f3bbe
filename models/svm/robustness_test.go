package svm

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/kerneltest"
)

// TestBadInput: each row gives Train, TrainMulti or a model method one bad
// argument and names the error kind it must return (see
// kerneltest.CheckErrors).
func TestBadInput(t *testing.T) {
	fx := kerneltest.Small()
	ctx, cancelled := fx.Ctx, fx.Cancelled
	k, y, labels := fx.K, fx.Y, fx.Labels
	var nilDense *mat.Dense
	var nilSym *mat.SymDense
	var nilCtx context.Context
	nanK := mat.DenseCopyOf(k)
	nanK.Set(1, 1, math.NaN())
	infK := mat.DenseCopyOf(k)
	infK.Set(3, 0, math.Inf(1))
	asym := mat.DenseCopyOf(k)
	asym.Set(0, 1, 3)
	trained := &Model{Alpha: []float64{1, 0, 1, 0}, Y: y}
	train := func(k mat.Matrix, y []float64, s *Settings) func() error {
		return func() error { _, err := Train(ctx, k, y, s); return err }
	}
	multi := func(k mat.Matrix, labels []int, classes int) func() error {
		return func() error { _, err := TrainMulti(ctx, k, labels, classes, nil); return err }
	}
	two := &Multi{Classes: 2, Models: []Model{*trained}}
	kerneltest.CheckErrors(t, "svm.", []kerneltest.Case{
		{"Train/nil k", train(nil, y, nil), linalg.ErrEmpty},
		{"Train/typed nil k", train(nilDense, y, nil), linalg.ErrEmpty},
		{"Train/typed nil sym", train(nilSym, y, nil), linalg.ErrEmpty},
		{"Train/empty k", train(&mat.Dense{}, y, nil), linalg.ErrEmpty},
		{"Train/not square", train(mat.NewDense(4, 3, nil), y, nil), linalg.ErrShape},
		{"Train/nil y", train(k, nil, nil), linalg.ErrShape},
		{"Train/short y", train(k, y[:3], nil), linalg.ErrShape},
		{"Train/NaN k", train(nanK, y, nil), linalg.ErrNonFinite},
		{"Train/Inf k", train(infK, y, nil), linalg.ErrNonFinite},
		{"Train/asymmetric", train(asym, y, nil), linalg.ErrShape},
		{"Train/NaN y", train(k, []float64{1, math.NaN(), -1, -1}, nil), linalg.ErrLabels},
		{"Train/label 2", train(k, []float64{1, -1, 2, 1}, nil), linalg.ErrLabels},
		{"Train/one class", train(k, []float64{1, 1, 1, 1}, nil), linalg.ErrLabels},
		{"Train/C<0", train(k, y, &Settings{C: -1}), linalg.ErrSettings},
		{"Train/C NaN", train(k, y, &Settings{C: math.NaN()}), linalg.ErrSettings},
		{"Train/C Inf", train(k, y, &Settings{C: math.Inf(1)}), linalg.ErrSettings},
		{"Train/Tol<0", train(k, y, &Settings{Tol: -1e-3}), linalg.ErrSettings},
		{"Train/MaxIter<0", train(k, y, &Settings{MaxIter: -1}), linalg.ErrSettings},
		{"Train/nil ctx", func() error { _, err := Train(nilCtx, k, y, nil); return err }, linalg.ErrSettings},
		{"Train/cancelled", func() error { _, err := Train(cancelled, k, y, nil); return err }, context.Canceled},
		{"TrainMulti/nil k", multi(nil, labels, 2), linalg.ErrEmpty},
		{"TrainMulti/typed nil k", multi(nilDense, labels, 2), linalg.ErrEmpty},
		{"TrainMulti/nil labels", multi(k, nil, 2), linalg.ErrShape},
		{"TrainMulti/short labels", multi(k, labels[:3], 2), linalg.ErrShape},
		{"TrainMulti/huge classes", multi(k, labels, 1<<50), linalg.ErrLabels},
		{"TrainMulti/negative classes", multi(k, labels, -1), linalg.ErrLabels},
		{"TrainMulti/classes=1", multi(k, []int{0, 0, 0, 0}, 1), linalg.ErrLabels},
		{"TrainMulti/label out of range", multi(k, []int{0, 0, 1, 5}, 2), linalg.ErrLabels},
		{"TrainMulti/missing class", multi(k, []int{0, 1, 0, 1}, 3), linalg.ErrLabels},
		{"TrainMulti/nil ctx", func() error { _, err := TrainMulti(nilCtx, k, labels, 2, nil); return err }, linalg.ErrSettings},
		{"TrainMulti/cancelled", func() error { _, err := TrainMulti(cancelled, k, labels, 2, nil); return err }, context.Canceled},
		{"Solver.Train/nil Solver", func() error { var s *Solver; return s.Train(ctx, &Model{}, k, y, false) }, linalg.ErrSettings},
		{"Solver.Train/nil model", func() error { var s Solver; return s.Train(ctx, nil, k, y, false) }, linalg.ErrEmpty},
		{"Solver.Train/bad settings", func() error {
			s := Solver{Settings: Settings{Tol: math.Inf(1)}}
			return s.Train(ctx, &Model{}, k, y, false)
		}, linalg.ErrSettings},
		{"Solver.TrainMulti/nil Solver", func() error { var s *Solver; return s.TrainMulti(ctx, &Multi{}, k, labels, 2, false) }, linalg.ErrSettings},
		{"Solver.TrainMulti/nil model", func() error { var s Solver; return s.TrainMulti(ctx, nil, k, labels, 2, false) }, linalg.ErrEmpty},
		{"Model.Decision/nil model", func() error { var m *Model; _, err := m.Decision(nil, k); return err }, linalg.ErrEmpty},
		{"Model.Decision/zero model", func() error { _, err := (&Model{}).Decision(nil, k); return err }, linalg.ErrEmpty},
		{"Model.Decision/short Y", func() error { _, err := (&Model{Alpha: []float64{1, 1, 1, 1}}).Decision(nil, k); return err }, linalg.ErrShape},
		{"Model.Decision/nil x", func() error { _, err := trained.Decision(nil, nil); return err }, linalg.ErrEmpty},
		{"Model.Decision/typed nil", func() error { _, err := trained.Decision(nil, nilDense); return err }, linalg.ErrEmpty},
		{"Model.Decision/columns", func() error { _, err := trained.Decision(nil, fx.Phi); return err }, linalg.ErrShape},
		{"Model.Decision/Inf row", func() error { _, err := trained.Decision(nil, infK); return err }, linalg.ErrNonFinite},
		{"Model.Predict/nil model", func() error { var m *Model; _, err := m.Predict(nil, k); return err }, linalg.ErrEmpty},
		{"Multi.Decision/nil", func() error { var mm *Multi; _, err := mm.Decision(nil, k); return err }, linalg.ErrEmpty},
		{"Multi.Decision/zero", func() error { _, err := (&Multi{}).Decision(nil, k); return err }, linalg.ErrEmpty},
		{"Multi.Decision/bad dst", func() error { _, err := two.Decision(mat.NewDense(7, 7, nil), k); return err }, linalg.ErrShape},
		{"Multi.Decision/typed nil", func() error { _, err := two.Decision(nil, nilDense); return err }, linalg.ErrEmpty},
		{"Multi.Decision/classes≠models", func() error {
			_, err := (&Multi{Classes: 3, Models: two.Models}).Decision(nil, k)
			return err
		}, linalg.ErrShape},
		{"Multi.Predict/nil", func() error { var mm *Multi; _, err := mm.Predict(nil, k); return err }, linalg.ErrEmpty},
		{"Multi.Predict/columns", func() error { _, err := two.Predict(nil, fx.Phi); return err }, linalg.ErrShape},
	})
}

// TestOddModels: DualCoef on a nil or inconsistent model, and a warm start
// from non-finite alphas, neither panic nor give NaN.
func TestOddModels(t *testing.T) {
	fx := kerneltest.Small()
	var nilModel *Model
	if d := nilModel.DualCoef(nil); len(d) != 0 {
		t.Errorf("nil model: DualCoef %v", d)
	}
	if d := (&Model{Alpha: []float64{1, 1}}).DualCoef(nil); len(d) != 0 {
		t.Errorf("short Y: DualCoef %v", d)
	}
	var s Solver
	m := &Model{Alpha: []float64{math.NaN(), 1, math.Inf(1), -1}}
	if err := s.Train(fx.Ctx, m, fx.K, fx.Y, true); err != nil {
		t.Fatal(err)
	}
	for _, a := range m.Alpha {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			t.Fatalf("warm start from NaN: alpha %v", m.Alpha)
		}
	}
}

// TestMultiInconsistent: a Multi whose Classes does not match its models is
// an error, not a silently wrong prediction (it used to take the argmax over
// one column, always class 0).
func TestMultiInconsistent(t *testing.T) {
	k := mat.NewDense(4, 4, []float64{2, 1, 0, 0, 1, 2, 0, 0, 0, 0, 2, 1, 0, 0, 1, 2})
	mm, err := TrainMulti(context.Background(), k, []int{0, 0, 1, 1}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []int{0, 1, 3, 5} {
		bad := &Multi{Classes: c, Models: mm.Models}
		if p, err := bad.Predict(nil, k); err == nil {
			t.Errorf("Classes = %d with %d model: Predict = %v, want an error", c, len(mm.Models), p)
		}
	}
}

// TestSolverReuseAcrossSizes: a Solver used on l = 50, then 10, then 50
// gives the models of fresh Solvers.
func TestSolverReuseAcrossSizes(t *testing.T) {
	ctx := context.Background()
	var sv Solver
	var m Model
	for k, l := range []int{50, 10, 50, 3, 40} {
		x, y := points(l, 0.8, uint64(k+1))
		if l == 3 {
			y = []float64{1, -1, 1}
		}
		kk := mat.NewDense(l, l, nil)
		kk.Mul(x, x.T())
		sv.Settings = Settings{C: 2}
		if err := sv.Train(ctx, &m, kk, y, false); err != nil {
			t.Fatal(err)
		}
		want, err := Train(ctx, kk, y, &Settings{C: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Alpha) != l || m.Bias != want.Bias || m.Dual != want.Dual {
			t.Fatalf("step %d: reused bias %v dual %v, fresh %v %v", k, m.Bias, m.Dual, want.Bias, want.Dual)
		}
		for i := range want.Alpha {
			if m.Alpha[i] != want.Alpha[i] {
				t.Fatalf("step %d: reused alpha %v, fresh %v", k, m.Alpha, want.Alpha)
			}
		}
	}
}
