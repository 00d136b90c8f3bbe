package spectral

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Design chooses spectral coefficients for a basis.
//
// Coefficients writes d coefficients mu, one per eigenpair of b, to dst[:0]
// (reusing dst's storage when its capacity allows, else allocating) and
// returns them. They are finite and non-negative, so that V diag(mu) Vᵀ is a
// kernel, and normalised to sum to n, the number of points of b. labeled
// indexes the rows of the basis whose labels define target (a factor of T,
// see Target); designs that do not use labels ignore both.
//
// Invalid input (an empty or malformed basis, bad labeled indices or target
// for a design that uses them, settings out of range, a nil context) is an
// error wrapping linalg.ErrInvalid; a context that has ended is an error
// wrapping ctx.Err(). Package designtest checks this contract.
type Design interface {
	Name() string
	Coefficients(ctx context.Context, dst []float64, b *Basis, labeled []int, target *mat.Dense) ([]float64, error)
}

// begin makes the checks every design starts with, for the operation op: a
// context that is not nil and has not ended, and a valid basis.
func begin(ctx context.Context, op string, b *Basis) error {
	if err := linalg.CheckContext(op, ctx); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return b.check(op)
}

// normalise scales mu to sum n. A non-finite entry is an error wrapping
// linalg.ErrNonFinite, a negative one or a zero sum linalg.ErrDegenerate.
func normalise(op string, mu []float64, n int) error {
	var s float64
	for i, v := range mu {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return linalg.Errorf(linalg.ErrNonFinite, op, "coefficient %d is %v", i, v)
		}
		if v < 0 {
			return linalg.Errorf(linalg.ErrDegenerate, op, "coefficient %d is %v < 0", i, v)
		}
		s += v
	}
	if !(s > 0) {
		return linalg.Errorf(linalg.ErrDegenerate, op, "all coefficients are zero")
	}
	f := float64(n) / s
	if math.IsInf(s, 0) || math.IsInf(f, 0) {
		// The sum overflows (entries near MaxFloat64) or n/s does (a
		// subnormal sum): divide by the largest entry first, which leaves
		// entries in [0, 1] and a sum in [1, len(mu)].
		m := 0.0
		for _, v := range mu {
			m = math.Max(m, v)
		}
		s = 0
		for i := range mu {
			mu[i] /= m
			s += mu[i]
		}
		f = float64(n) / s
	}
	for i := range mu {
		mu[i] *= f
	}
	return nil
}

func resize(dst []float64, d int) []float64 {
	if cap(dst) < d {
		return make([]float64, d)
	}
	return dst[:d]
}

// Cluster is the kernel of spectral clustering (KDD'06 eq. 15): every one of
// the d leading eigenvectors gets the same weight. O(d).
type Cluster struct{}

var _ Design = Cluster{}

// Name implements Design.
func (Cluster) Name() string { return "Cluster" }

// Coefficients implements Design.
func (Cluster) Coefficients(ctx context.Context, dst []float64, b *Basis, _ []int, _ *mat.Dense) ([]float64, error) {
	const op = "spectral.Cluster.Coefficients"
	if err := begin(ctx, op, b); err != nil {
		return nil, err
	}
	n, d := b.Dims()
	dst = resize(dst, d)
	for i := range dst {
		dst[i] = 1
	}
	return dst, normalise(op, dst, n)
}

// Truncated keeps the initial kernel's own top-d spectrum (KDD'06 eq. 16,
// kernel PCA). Negative eigenvalues (an indefinite initial kernel) are set to
// zero; a basis without a positive eigenvalue is an error wrapping
// linalg.ErrDegenerate. O(d).
type Truncated struct{}

var _ Design = Truncated{}

// Name implements Design.
func (Truncated) Name() string { return "Truncated" }

// Coefficients implements Design.
func (Truncated) Coefficients(ctx context.Context, dst []float64, b *Basis, _ []int, _ *mat.Dense) ([]float64, error) {
	const op = "spectral.Truncated.Coefficients"
	if err := begin(ctx, op, b); err != nil {
		return nil, err
	}
	n, d := b.Dims()
	dst = resize(dst, d)
	for i, v := range b.Values {
		dst[i] = math.Max(v, 0)
	}
	return dst, normalise(op, dst, n)
}

// Diffusion is the diffusion kernel transform exp(-Sigma2·lambda/2) of a
// Laplacian basis (max-margin paper, Table I). Sigma2 must be positive and
// finite (there is no default: zero is an error wrapping linalg.ErrSettings).
// O(d).
type Diffusion struct{ Sigma2 float64 }

var _ Design = Diffusion{}

// Name implements Design.
func (Diffusion) Name() string { return "Diffusion" }

// Coefficients implements Design.
func (t Diffusion) Coefficients(ctx context.Context, dst []float64, b *Basis, _ []int, _ *mat.Dense) ([]float64, error) {
	const op = "spectral.Diffusion.Coefficients"
	if err := begin(ctx, op, b); err != nil {
		return nil, err
	}
	if !(t.Sigma2 > 0) || math.IsInf(t.Sigma2, 0) {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "Sigma2 = %v, want a positive finite value", t.Sigma2)
	}
	n, d := b.Dims()
	dst = resize(dst, d)
	lmin := minOf(b.Values)
	for i, v := range b.Values {
		// Shifting by the smallest eigenvalue leaves the normalised kernel
		// unchanged and keeps exp from underflowing to all zeros.
		dst[i] = math.Exp(-t.Sigma2 * (v - lmin) / 2)
	}
	return dst, normalise(op, dst, n)
}

// GaussianField is the Gaussian field (harmonic) transform 1/(lambda + Eps)
// of a Laplacian basis (max-margin paper, Table I). Eps must be positive and
// finite (zero is an error wrapping linalg.ErrSettings); Laplacian
// eigenvalues below zero (rounding) count as zero. O(d).
type GaussianField struct{ Eps float64 }

var _ Design = GaussianField{}

// Name implements Design.
func (GaussianField) Name() string { return "GaussianField" }

// Coefficients implements Design.
func (t GaussianField) Coefficients(ctx context.Context, dst []float64, b *Basis, _ []int, _ *mat.Dense) ([]float64, error) {
	const op = "spectral.GaussianField.Coefficients"
	if err := begin(ctx, op, b); err != nil {
		return nil, err
	}
	if !(t.Eps > 0) || math.IsInf(t.Eps, 0) {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "Eps = %v, want a positive finite value", t.Eps)
	}
	n, d := b.Dims()
	dst = resize(dst, d)
	for i, v := range b.Values {
		// Laplacian eigenvalues are >= 0; clamp rounding below zero.
		dst[i] = 1 / (math.Max(v, 0) + t.Eps)
	}
	return dst, normalise(op, dst, n)
}

func minOf(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		m = math.Min(m, x)
	}
	return m
}
