package kerneltest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// TestKernels checks both kernels on hand-computed entries.
func TestKernels(t *testing.T) {
	x := mat.NewDense(2, 2, []float64{0, 0, 1, 2})
	z := mat.NewDense(1, 2, []float64{1, 0})
	k := RBF(x, z, 2)
	// ‖(0,0)−(1,0)‖² = 1 and ‖(1,2)−(1,0)‖² = 4, with 2σ² = 8
	for i, want := range []float64{math.Exp(-1.0 / 8), math.Exp(-4.0 / 8)} {
		if got := k.At(i, 0); math.Abs(got-want) > 1e-15 {
			t.Errorf("RBF[%d,0] = %v, want %v", i, got, want)
		}
	}
	l := Linear(x, z)
	if l.At(0, 0) != 0 || l.At(1, 0) != 1 {
		t.Errorf("Linear = %v, want [0 1]ᵀ", mat.Formatted(l))
	}
}

// TestSmall: the fixture is consistent and its kernel positive definite.
func TestSmall(t *testing.T) {
	f := Small()
	var ch mat.Cholesky
	if !ch.Factorize(mat.NewSymDense(4, f.K.RawMatrix().Data)) {
		t.Error("K is not positive definite")
	}
	if r, _ := f.Phi.Dims(); r != len(f.Y) || len(f.Labels) != len(f.Y) {
		t.Error("fixture sizes differ")
	}
	if f.Ctx.Err() != nil || !errors.Is(f.Cancelled.Err(), context.Canceled) {
		t.Error("contexts wrong")
	}
}

// TestCheckErrors runs the driver on cases that meet their contract.
func TestCheckErrors(t *testing.T) {
	CheckErrors(t, "test.", []Case{
		{"input kind", func() error { return linalg.Errorf(linalg.ErrShape, "test.F", "bad") }, linalg.ErrShape},
		{"umbrella", func() error { return linalg.Errorf(nil, "test.F", "bad") }, linalg.ErrInvalid},
		{"cancelled", func() error { return fmt.Errorf("test.F: %w", context.Canceled) }, context.Canceled},
	})
}
