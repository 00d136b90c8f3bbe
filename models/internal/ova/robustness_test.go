package ova

import (
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestCheckHelpers: a huge class count is an error before anything is
// allocated (it was an out-of-memory crash), a typed nil matrix counts as nil
// (its Dims would panic), and a model with the wrong number of binary
// problems is reported.
func TestCheckHelpers(t *testing.T) {
	errL, errS := errors.New("labels"), errors.New("shape")
	if err := CheckLabels([]int{0, 1}, 1<<50, errL); !errors.Is(err, errL) {
		t.Errorf("CheckLabels(huge classes) = %v", err)
	}
	if err := CheckLabels([]int{0, 1, 2}, 3, errL); err != nil {
		t.Errorf("CheckLabels(valid) = %v", err)
	}
	var nilDense *mat.Dense
	if !IsNil(nil) || !IsNil(nilDense) || IsNil(mat.NewDense(1, 1, nil)) {
		t.Error("IsNil wrong")
	}
	if err := CheckKernel(nilDense, 1, errS); !errors.Is(err, errS) {
		t.Errorf("CheckKernel(typed nil) = %v", err)
	}
	for _, c := range []struct{ classes, models int }{{2, 0}, {2, 2}, {3, 1}, {1, 1}, {0, 0}, {-1, 1}} {
		if err := CheckModels(c.classes, c.models, errS); !errors.Is(err, errS) {
			t.Errorf("CheckModels(%d, %d) = %v", c.classes, c.models, err)
		}
	}
	if CheckModels(2, 1, errS) != nil || CheckModels(4, 4, errS) != nil {
		t.Error("CheckModels rejects a consistent model")
	}
}
