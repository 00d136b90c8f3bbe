package models

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset/datatest"
	"ukm/linalg"
)

// TestFitBadInput: every invalid argument is an error wrapping linalg.ErrInvalid
// whose text names the problem; nothing panics.
func TestFitBadInput(t *testing.T) {
	s := circles(t, 10, 0.1, 1)
	x := s.X
	nan := mat.DenseCopyOf(x)
	nan.Set(3, 1, math.NaN())
	inf := mat.DenseCopyOf(x)
	inf.Set(0, 0, math.Inf(1))
	lab := []int{0, 1, 10, 11}
	ys := []int{0, 0, 1, 1}
	for _, tc := range []struct {
		name string
		x    *mat.Dense
		lab  []int
		ys   []int
		opt  *Options
	}{
		{"nil x", nil, lab, ys, nil},
		{"empty x", &mat.Dense{}, lab, ys, nil},
		{"NaN", nan, lab, ys, nil},
		{"Inf", inf, lab, ys, nil},
		{"no labels", x, nil, nil, nil},
		{"length mismatch", x, lab, ys[:3], nil},
		{"one class", x, lab, []int{0, 0, 0, 0}, nil},
		{"one class 1", x, lab, []int{1, 1, 1, 1}, nil},
		{"missing class", x, lab, []int{0, 2, 0, 2}, nil},
		{"negative label", x, lab, []int{0, -1, 1, 1}, nil},
		{"duplicate index", x, []int{0, 1, 1, 11}, ys, nil},
		{"index too large", x, []int{0, 1, 20, 11}, ys, nil},
		{"negative index", x, []int{0, -1, 10, 11}, ys, nil},
		{"d > n", x, lab, ys, &Options{D: 21}},
		{"negative d", x, lab, ys, &Options{D: -1}},
		{"C < 1", x, lab, ys, &Options{Decay: 0.9}},
		{"C NaN", x, lab, ys, &Options{Decay: math.NaN()}},
		{"unknown design", x, lab, ys, &Options{Design: DesignKind(42)}},
		{"unknown kernel", x, lab, ys, &Options{Kernel: KernelSpec{Kind: 9}}},
		{"negative gamma", x, lab, ys, &Options{Kernel: KernelSpec{Gamma: -1}}},
		{"unknown scaling", x, lab, ys, &Options{Scale: 7}},
		{"unknown classifier", x, lab, ys, &Options{Classifier: 3}},
		{"negative lambda", x, lab, ys, &Options{Lambda: -1}},
		{"one fold", x, lab, ys, &Options{Folds: 1}},
		{"energy > 1", x, lab, ys, &Options{EnergyFraction: 1.5}},
		{"energy with graph", x, lab, ys, &Options{EnergyFraction: 0.5, Design: Order}},
		{"graph k >= n", x, lab, ys, &Options{Design: Order, GraphK: 20}},
		{"negative SVM C", x, lab, ys, &Options{C: -1}},
		// A linear kernel cannot be cosine-normalised at a point that z-scores
		// to the origin; x2 has such a point (the mean of the other two).
		{"normalise origin", mat.NewDense(3, 1, []float64{-1, 0, 1}), []int{0, 2}, []int{0, 1}, &Options{Kernel: KernelSpec{Kind: Linear}, D: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Fit(context.Background(), tc.x, tc.lab, tc.ys, tc.opt)
			if !errors.Is(err, linalg.ErrInvalid) || m != nil {
				t.Fatalf("model %v, error %v; want nil and linalg.ErrInvalid", m != nil, err)
			}
			t.Log(err)
		})
	}
}

// TestPredictBadInput: prediction arguments are validated too.
func TestPredictBadInput(t *testing.T) {
	s := circles(t, 10, 0.1, 1)
	m, err := Fit(context.Background(), s.X, []int{0, 10}, []int{0, 1}, &Options{Lambda: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.PredictRows(nil, []int{0, 20}); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("out-of-range index: %v", err)
	}
	if _, err := m.PredictRows(nil, nil); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("no index: %v", err)
	}
	if _, err := m.ProbaRows(mat.NewDense(1, 3, nil), []int{0}); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("wrong dst shape: %v", err)
	}
	if _, err := m.Predict(nil, mat.NewDense(2, 3, nil)); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("wrong feature count: %v", err)
	}
	if _, err := m.Predict(nil, mat.NewDense(1, 2, []float64{math.NaN(), 0})); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("NaN new point: %v", err)
	}
	if _, err := m.Predict(nil, nil); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("nil new points: %v", err)
	}
}

// TestFitCancel: a cancelled context stops Fit with an error wrapping
// context.Canceled, promptly even on the largest core data set.
func TestFitCancel(t *testing.T) {
	s := datatest.Load(t, "ionosphere")
	lab, ys, _ := pickLabeled(s.Y, 20, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, des := range []DesignKind{SKL, Standard, Order} {
		start := time.Now()
		_, err := Fit(ctx, s.X, lab, ys, &Options{Design: des})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%v: error %v, want context.Canceled", des, err)
		}
		// A fit takes tens of milliseconds; an immediate return is far
		// below 10 ms even on a loaded machine.
		if d := time.Since(start); d > 10*time.Millisecond {
			t.Errorf("%v: cancelled Fit took %v", des, d)
		}
	}
	_, _, err := Loop(ctx, s.X, lab, ys, nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Loop: error %v, want context.Canceled", err)
	}
}

// TestFitDeadline: a deadline that expires inside the kernel or eigenvalue
// stage stops Fit there. Two circles of 1500 points need an n x n Gram
// matrix and 20 eigenpairs, about 0.1-0.5 s here; the deadline of 5 ms falls
// inside, and Fit must return within 100 ms of it (the stages check the
// context between tiles and restarts).
func TestFitDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1500 x 1500 kernel")
	}
	s := circles(t, 750, 0.1, 1)
	lab, ys, _ := pickLabeled(s.Y, 10, 1)
	for _, des := range []DesignKind{SKL, Order} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		start := time.Now()
		_, err := Fit(ctx, s.X, lab, ys, &Options{Design: des, Lambda: 0.1})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%v: error %v, want context.DeadlineExceeded", des, err)
		}
		if d := time.Since(start); d > 105*time.Millisecond {
			t.Errorf("%v: Fit returned %v after the start, deadline 5 ms", des, d)
		}
	}
}
