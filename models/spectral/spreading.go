package spectral

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// DefaultAlpha is the label-spreading parameter used when Spreading.Alpha is
// zero: the value of Zhou et al. (2004), which keeps most of the weight on
// the smoothest eigenvectors.
const DefaultAlpha = 0.99

// Spreading is the kernel of label spreading (Zhou, Bousquet, Lal, Weston
// and Schölkopf, "Learning with local and global consistency", 2004):
// spreading the labels with F = (I - alpha S)^-1 Y on the normalised
// affinity S = D^-1/2 W D^-1/2 of a graph is the kernel machine of
// (I - alpha S)^-1 = sum_i v_i v_iᵀ / (1 - alpha theta_i) over the
// eigenpairs of S. On a basis of the top d eigenpairs it gives
// mu_i = 1 / (1 - alpha theta_i / theta_1): exactly Zhou's transform when
// the basis is that of a connected graph's normalised affinity
// (theta_1 = 1); for another kernel basis the eigenvalues are first divided
// by the largest. Eigenvalues at or below zero get weight zero. Alpha must
// lie in (0, 1) (else an error wrapping linalg.ErrSettings); zero means
// DefaultAlpha. A basis without a positive eigenvalue is an error wrapping
// linalg.ErrDegenerate. O(d).
type Spreading struct{ Alpha float64 }

var _ Design = Spreading{}

// Name implements Design.
func (Spreading) Name() string { return "Spreading" }

// Coefficients implements Design.
func (t Spreading) Coefficients(ctx context.Context, dst []float64, b *Basis, _ []int, _ *mat.Dense) ([]float64, error) {
	const op = "spectral.Spreading.Coefficients"
	if err := begin(ctx, op, b); err != nil {
		return nil, err
	}
	a := t.Alpha
	if a == 0 {
		a = DefaultAlpha
	}
	if !(a > 0 && a < 1) {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "Alpha = %v, want a value in (0, 1) (0 = default)", t.Alpha)
	}
	top := math.Inf(-1)
	for _, v := range b.Values {
		top = math.Max(top, v)
	}
	if !(top > 0) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "label spreading needs a positive eigenvalue; the largest is %v", top)
	}
	n, d := b.Dims()
	dst = resize(dst, d)
	for i, v := range b.Values {
		dst[i] = 0
		if v > 0 {
			q := a * v / top
			if a*v < 0x1p-1022 {
				// a·v is subnormal and rounded to a few bits (for v = top
				// = 5e-324 it is v itself and q = 1): scale v first
				q = a * (v / top)
			}
			dst[i] = 1 / (1 - q)
		}
	}
	return dst, normalise(op, dst, n)
}
