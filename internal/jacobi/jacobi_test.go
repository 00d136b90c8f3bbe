package jacobi

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestEigen: on random
// symmetric matrices it must give small residuals and orthonormal vectors
// (bounds of 10 m eps, a few times what Jacobi reaches); on a graded
// matrix with tiny off-diagonal entries, the case it is there for, the
// eigenvector entries must match first-order perturbation theory,
// z_ij = h_ij / (h_jj - h_ii), to 1e-6 relative, which a Householder-based
// solver (absolute errors of eps ||H||) cannot do for entries of 1e-16.
func TestEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range []int{1, 2, 3, 10, 40} {
		h := make([]float64, m*m)
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				v := rng.NormFloat64()
				h[i*m+j], h[j*m+i] = v, v
			}
		}
		orig := append([]float64(nil), h...)
		z := make([]float64, m*m)
		if !Eigen(m, h, z) {
			t.Fatalf("m=%d: no convergence", m)
		}
		hn := 0.0
		for _, v := range orig {
			hn = math.Max(hn, math.Abs(v))
		}
		for j := 0; j < m; j++ {
			for i := 0; i < m; i++ {
				var r float64
				for k := 0; k < m; k++ {
					r += orig[i*m+k] * z[k*m+j]
				}
				r -= h[j*m+j] * z[i*m+j]
				if math.Abs(r) > 10*float64(m)*eps*hn*float64(m) {
					t.Errorf("m=%d: residual (%d,%d) = %.3g", m, i, j, r)
				}
			}
			for l := 0; l < m; l++ {
				var g float64
				for k := 0; k < m; k++ {
					g += z[k*m+j] * z[k*m+l]
				}
				if j == l {
					g--
				}
				if math.Abs(g) > 10*float64(m)*eps {
					t.Errorf("m=%d: orthogonality (%d,%d) = %.3g", m, j, l, g)
				}
			}
		}
	}
	// Graded: diagonal 1, 1/2, ..., off-diagonal 1e-16 scale.
	const m = 12
	h := make([]float64, m*m)
	for i := 0; i < m; i++ {
		h[i*m+i] = math.Pow(0.5, float64(i))
		for j := i + 1; j < m; j++ {
			v := 1e-16 * rng.NormFloat64() * math.Sqrt(h[i*m+i])
			h[i*m+j], h[j*m+i] = v, v
		}
	}
	for i := 0; i < m; i++ {
		for j := i + 1; j < m; j++ {
			h[j*m+i] = h[i*m+j]
		}
	}
	orig := append([]float64(nil), h...)
	z := make([]float64, m*m)
	if !Eigen(m, h, z) {
		t.Fatal("graded: no convergence")
	}
	for j := 0; j < m; j++ {
		for i := 0; i < m; i++ {
			if i == j {
				continue
			}
			want := orig[i*m+j] / (orig[j*m+j] - orig[i*m+i])
			if got := z[i*m+j]; math.Abs(got-want) > 1e-6*math.Abs(want) {
				t.Errorf("graded: z[%d][%d] = %.6g, first-order %.6g", i, j, got, want)
			}
		}
	}
}
