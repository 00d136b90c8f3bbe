package labelaware

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/models/spectral"
)

// Design adapts a Weighting to spectral.Design: it weights the columns of
// any spectral.Basis as rank-one base kernels on the labeled block (the
// basis eigenvalues are ignored) and normalises the coefficients to sum to
// n. With WeightAlignf on the plain eigenvector basis it is the "maximal alignment
// kernel" baseline of the paper's experiments.
type Design struct {
	Weighting Weighting
}

var _ spectral.Design = Design{}

// Name implements spectral.Design: "Label-" followed by the weighting.
func (d Design) Name() string { return "Label-" + d.Weighting.String() }

// Coefficients implements spectral.Design. target is the l x t factor of the
// target kernel (spectral.Target) for the rows labeled of b.V.
func (d Design) Coefficients(ctx context.Context, dst []float64, b *spectral.Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	if ctx == nil {
		return nil, inputf(ErrParam, "nil context")
	}
	if d.Weighting < WeightAlignf || d.Weighting > WeightIndependent {
		return nil, inputf(ErrParam, "unknown weighting %v", d.Weighting)
	}
	n, r := b.Dims()
	if n == 0 {
		return nil, inputf(ErrShape, "empty basis")
	}
	vl, err := b.Rows(nil, labeled)
	if err != nil {
		return nil, inputf(ErrIndex, "%v", err)
	}
	w, _, err := weights(ctx, d.Weighting, vl, target)
	if err != nil {
		return nil, err
	}
	if err := normaliseSum(w, n); err != nil {
		return nil, err
	}
	if cap(dst) < r {
		dst = make([]float64, r)
	}
	dst = dst[:r]
	copy(dst, w)
	return dst, nil
}

// String implements fmt.Stringer.
func (d Design) String() string { return fmt.Sprintf("labelaware.Design{%v}", d.Weighting) }
