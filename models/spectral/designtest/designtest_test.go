package designtest_test

import (
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/models/spectral"
	"ukm/models/spectral/designtest"
)

// doubled is a design whose coefficients sum to 2n instead of n.
type doubled struct{ spectral.Design }

func (w doubled) Coefficients(ctx context.Context, dst []float64, b *spectral.Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	mu, err := w.Design.Coefficients(ctx, dst, b, labeled, target)
	for i := range mu {
		mu[i] *= 2
	}
	return mu, err
}

// deaf ignores the context it is given.
type deaf struct{ spectral.Design }

func (w deaf) Coefficients(_ context.Context, dst []float64, b *spectral.Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	return w.Design.Coefficients(context.Background(), dst, b, labeled, target)
}

// fresh never reuses dst.
type fresh struct{ spectral.Design }

func (w fresh) Coefficients(ctx context.Context, _ []float64, b *spectral.Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	return w.Design.Coefficients(ctx, nil, b, labeled, target)
}

// fragile panics on a nil basis.
type fragile struct{ spectral.Design }

func (w fragile) Coefficients(ctx context.Context, dst []float64, b *spectral.Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	_ = b.V // panics for a nil b
	return w.Design.Coefficients(ctx, dst, b, labeled, target)
}

func count(fails []string, prefix string) int {
	k := 0
	for _, f := range fails {
		if strings.HasPrefix(f, prefix) {
			k++
		}
	}
	return k
}

// TestCheckPasses: correct designs pass the suite.
func TestCheckPasses(t *testing.T) {
	for _, d := range []spectral.Design{spectral.Cluster{}, spectral.NewSKL(2)} {
		if fails := designtest.Check(d); len(fails) != 0 {
			t.Errorf("%s fails the suite:\n%s", d.Name(), strings.Join(fails, "\n"))
		}
	}
}

// TestCheckFailsWrongDesigns: the suite catches designs that break the
// contract, in the checks the fault concerns.
func TestCheckFailsWrongDesigns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		d      spectral.Design
		prefix string
	}{
		{"sums to 2n", doubled{spectral.Cluster{}}, "Coefficients: coefficients sum to 80"},
		{"sums to 2n (SKL)", doubled{spectral.NewSKL(2)}, "Coefficients: coefficients sum to 80"},
		{"ignores cancellation", deaf{spectral.Cluster{}}, "Canceled"},
		{"does not reuse dst", fresh{spectral.Truncated{}}, "Coefficients/dst"},
		{"panics", fragile{spectral.Cluster{}}, "Invalid/nil basis: Coefficients panicked"},
	} {
		fails := designtest.Check(tc.d)
		if count(fails, tc.prefix) == 0 {
			t.Errorf("%s: no failure %q; all failures:\n%s", tc.name, tc.prefix, strings.Join(fails, "\n"))
		}
	}
}
