package kerneltest

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
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
