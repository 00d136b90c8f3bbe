package labelaware

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
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
	if err := linalg.CheckContext("labelaware.Design.Coefficients", ctx); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("labelaware.Design.Coefficients: %w", err)
	}
	if d.Weighting < WeightAlignf || d.Weighting > WeightIndependent {
		return nil, inputf(linalg.ErrSettings, "unknown weighting %v", d.Weighting)
	}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	n, r := b.Dims()
	vl, err := b.Rows(nil, labeled)
	if err != nil {
		return nil, inputf(linalg.ErrLabels, "%v", err)
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
