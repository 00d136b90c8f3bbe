package bench

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/models"
	"ukm/models/spectral"
)

// TestStagesMatchFit checks that the stages BenchmarkScaling times compute
// what models.Fit computes on the same input: the eigenvalues of the kernel
// stage's operator, the SKL coefficients and the learned kernel's entries
// through the feature map. A mismatch would mean the benchmark times a
// different path from the pipeline's.
func TestStagesMatchFit(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ n, d int }{{120, 10}, {300, 20}} {
		data, err := newScalingData(tc.n)
		if err != nil {
			t.Fatal(err)
		}
		m, err := models.Fit(ctx, data.x, data.labeled, data.labels, &models.Options{D: tc.d, Lambda: scalingLambda})
		if err != nil {
			t.Fatal(err)
		}
		_, op, err := kernelStage(ctx, data.x)
		if err != nil {
			t.Fatal(err)
		}
		res, err := eig.TopD(ctx, op, tc.d, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Same operator, solver and seed: the values agree to rounding.
		// 1e-12 relative to the largest eigenvalue (of order n / a few for
		// this kernel) is far below the solver's tolerance and far above
		// the rounding of n-term sums.
		want := m.EigenValues()
		for i, v := range res.Values {
			if math.Abs(v-want[i]) > 1e-12*want[0] {
				t.Errorf("n=%d: eigenvalue %d = %v, Fit %v", tc.n, i, v, want[i])
			}
		}
		target, err := spectral.Target(data.labels, 2)
		if err != nil {
			t.Fatal(err)
		}
		basis := &spectral.Basis{Values: res.Values, V: res.Vectors}
		mu, err := spectral.NewSKL(scalingC).Coefficients(ctx, nil, basis, data.labeled, target)
		if err != nil {
			t.Fatal(err)
		}
		v, fitMu := m.Kernel()
		for i := range mu {
			// the coefficients sum to n; 1e-9 relative absorbs the QP's
			// KKT tolerance
			if math.Abs(mu[i]-fitMu[i]) > 1e-9*float64(tc.n) {
				t.Errorf("n=%d: mu[%d] = %v, Fit %v", tc.n, i, mu[i], fitMu[i])
			}
		}
		// Phi Phiᵀ on the labeled rows equals V diag(mu) Vᵀ computed
		// entry by entry from Fit's factors.
		phi, err := features(basis, mu, data.labeled)
		if err != nil {
			t.Fatal(err)
		}
		var k mat.Dense
		k.Mul(phi, phi.T())
		for a, i := range data.labeled {
			for b, j := range data.labeled {
				var ref float64
				for c := range fitMu {
					ref += v.At(i, c) * fitMu[c] * v.At(j, c)
				}
				// entries are O(1) (the mean diagonal is 1); 1e-8 covers
				// the eigenvector agreement of two solves to rounding
				if math.Abs(k.At(a, b)-ref) > 1e-8 {
					t.Fatalf("n=%d: learned kernel (%d,%d) = %v, Fit %v", tc.n, i, j, k.At(a, b), ref)
				}
			}
		}
	}
}
