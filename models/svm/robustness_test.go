package svm

import (
	"context"
	"fmt"
	"math"
	"testing"
	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"
)

// TestNoPanicOnBadInput: invalid input to every exported function and
// method is an error, never a panic.
func TestNoPanicOnBadInput(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	k := mat.NewDense(4, 4, []float64{2, 1, 0, 0, 1, 2, 0, 0, 0, 0, 2, 1, 0, 0, 1, 2})
	y := []float64{1, 1, -1, -1}
	labels := []int{0, 0, 1, 1}
	var nilDense *mat.Dense
	nanK := mat.DenseCopyOf(k)
	nanK.Set(1, 1, math.NaN())
	cases := map[string]func() error{
		"Train nil k":        func() error { _, err := Train(ctx, nil, y, nil); return err },
		"Train typed nil k":  func() error { _, err := Train(ctx, nilDense, y, nil); return err },
		"Train empty k":      func() error { _, err := Train(ctx, &mat.Dense{}, y, nil); return err },
		"Train nil y":        func() error { _, err := Train(ctx, k, nil, nil); return err },
		"Train short y":      func() error { _, err := Train(ctx, k, y[:3], nil); return err },
		"Train NaN y":        func() error { _, err := Train(ctx, k, []float64{1, math.NaN(), -1, -1}, nil); return err },
		"Train NaN k":        func() error { _, err := Train(ctx, nanK, y, nil); return err },
		"Train non-square":   func() error { _, err := Train(ctx, mat.NewDense(4, 3, nil), y, nil); return err },
		"Train neg C":        func() error { _, err := Train(ctx, k, y, &Settings{C: -1}); return err },
		"Train Inf C":        func() error { _, err := Train(ctx, k, y, &Settings{C: math.Inf(1)}); return err },
		"Train neg tol":      func() error { _, err := Train(ctx, k, y, &Settings{Tol: -1}); return err },
		"Train neg iter":     func() error { _, err := Train(ctx, k, y, &Settings{MaxIter: -1}); return err },
		"Train cancelled":    func() error { _, err := Train(cancelled, k, y, nil); return err },
		"Train one class":    func() error { _, err := Train(ctx, k, []float64{1, 1, 1, 1}, nil); return err },
		"Multi nil k":        func() error { _, err := TrainMulti(ctx, nil, labels, 2, nil); return err },
		"Multi typed nil k":  func() error { _, err := TrainMulti(ctx, nilDense, labels, 2, nil); return err },
		"Multi huge classes": func() error { _, err := TrainMulti(ctx, k, labels, 1<<50, nil); return err },
		"Multi neg classes":  func() error { _, err := TrainMulti(ctx, k, labels, -1, nil); return err },
		"Multi bad label":    func() error { _, err := TrainMulti(ctx, k, []int{0, 0, 1, 5}, 2, nil); return err },
		"Multi nil labels":   func() error { _, err := TrainMulti(ctx, k, nil, 2, nil); return err },
		"Multi cancelled":    func() error { _, err := TrainMulti(cancelled, k, labels, 2, nil); return err },
		"Solver nil model":   func() error { var s Solver; return s.Train(ctx, nil, k, y, false) },
		"nil Solver":         func() error { var s *Solver; return s.Train(ctx, &Model{}, k, y, false) },
		"nil Solver multi":   func() error { var s *Solver; return s.TrainMulti(ctx, &Multi{}, k, labels, 2, false) },
		"nil ctx":            func() error { _, err := Train(nil, k, y, nil); return err },              //nolint:staticcheck
		"nil ctx multi":      func() error { _, err := TrainMulti(nil, k, labels, 2, nil); return err }, //nolint:staticcheck
		"Solver nil multi":   func() error { var s Solver; return s.TrainMulti(ctx, nil, k, labels, 2, false) },
		"Solver warm NaN": func() error {
			var s Solver
			m := &Model{Alpha: []float64{math.NaN(), 1, math.Inf(1), -1}}
			if err := s.Train(ctx, m, k, y, true); err != nil {
				return err
			}
			for _, a := range m.Alpha {
				if math.IsNaN(a) {
					return nil // reported below as "no error"
				}
			}
			return fmt.Errorf("ok")
		},
		"Decision nil model":  func() error { var m *Model; _, err := m.Decision(nil, k); return err },
		"Decision zero model": func() error { _, err := (&Model{}).Decision(nil, k); return err },
		"Decision short Y":    func() error { _, err := (&Model{Alpha: []float64{1, 1, 1, 1}}).Decision(nil, k); return err },
		"Decision nil x":      func() error { _, err := (&Model{Alpha: []float64{1}, Y: []float64{1}}).Decision(nil, nil); return err },
		"Decision typed nil": func() error {
			_, err := (&Model{Alpha: []float64{1}, Y: []float64{1}}).Decision(nil, nilDense)
			return err
		},
		"Predict nil model":   func() error { var m *Model; _, err := m.Predict(nil, k); return err },
		"DualCoef nil model":  func() error { var m *Model; m.DualCoef(nil); return fmt.Errorf("ok") },
		"DualCoef short Y":    func() error { (&Model{Alpha: []float64{1, 1}}).DualCoef(nil); return fmt.Errorf("ok") },
		"Multi Decision nil":  func() error { var mm *Multi; _, err := mm.Decision(nil, k); return err },
		"Multi Decision zero": func() error { _, err := (&Multi{}).Decision(nil, k); return err },
		"Multi Predict nil":   func() error { var mm *Multi; _, err := mm.Predict(nil, k); return err },
		"Multi Decision bad dst": func() error {
			mm, err := TrainMulti(ctx, k, labels, 2, nil)
			if err != nil {
				return nil
			}
			_, err = mm.Decision(mat.NewDense(7, 7, nil), k)
			return err
		},
		"Multi Decision typed nil": func() error {
			mm, err := TrainMulti(ctx, k, labels, 2, nil)
			if err != nil {
				return nil
			}
			_, err = mm.Decision(nil, nilDense)
			return err
		},
	}
	for name, f := range cases {
		if err := robust.Call(t, name, f); err == nil {
			t.Errorf("%s: no error", name)
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
