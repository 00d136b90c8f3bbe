package labelaware

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// LowRank returns the kernel as a linalg.LowRank (V and Weights are shared,
// not copied), for the alignment functions of package linalg and for
// blocks of the kernel matrix.
func (k *Kernel) LowRank() (*linalg.LowRank, error) {
	if k == nil || k.V == nil {
		return nil, inputf(linalg.ErrShape, "empty kernel")
	}
	return linalg.NewLowRank(k.V, k.Weights)
}

// Block returns the sub-matrix K[rows, cols] of the learned kernel in
// O(len(rows) len(cols) (c+k)) time, for example the labeled block to train
// an SVM and the unlabeled-by-labeled block to predict. When rows and cols
// hold the same indices the block is computed as Phi_r Phi_rᵀ and is
// exactly symmetric, as kernel machines require.
func (k *Kernel) Block(rowIdx, colIdx []int) (*mat.Dense, error) {
	lr, err := k.LowRank()
	if err != nil {
		return nil, err
	}
	if !slices.Equal(rowIdx, colIdx) {
		b, err := lr.Block(rowIdx, colIdx)
		if err != nil {
			return nil, inputf(linalg.ErrLabels, "%v", err)
		}
		return b, nil
	}
	n, r := k.V.Dims()
	if len(rowIdx) == 0 {
		return nil, inputf(linalg.ErrLabels, "no indices")
	}
	phi := mat.NewDense(len(rowIdx), r, nil)
	for i, j := range rowIdx {
		if j < 0 || j >= n {
			return nil, inputf(linalg.ErrLabels, "index %d outside [0,%d)", j, n)
		}
		for c, v := range k.V.RawRowView(j) {
			if k.Weights[c] < 0 {
				return nil, inputf(linalg.ErrSettings, "negative weight %v", k.Weights[c])
			}
			phi.Set(i, c, v*math.Sqrt(k.Weights[c]))
		}
	}
	var s mat.SymDense
	s.SymOuterK(1, phi)
	return mat.DenseCopyOf(&s), nil
}

// Features returns Phi = V diag(sqrt(Weights)) (n x (c+k)), so that the
// kernel is Phi Phiᵀ; linear models on the rows of Phi use the kernel
// without forming it.
func (k *Kernel) Features() (*mat.Dense, error) {
	lr, err := k.LowRank()
	if err != nil {
		return nil, err
	}
	return lr.Features()
}
