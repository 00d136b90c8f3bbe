package eig

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSymEig checks the projected-problem eigensolver against gonum's
// EigenSym on matrices with known difficulties: scaled residual
// ||A Z - Z W|| / (||A|| n eps) and orthogonality ||I - ZᵀZ|| / (n eps)
// below LAPACK's 60, eigenvalues to the same bound.
func TestSymEig(t *testing.T) {
	cases := map[string]*mat.SymDense{
		"n=1":         mat.NewSymDense(1, []float64{-3}),
		"n=2":         mat.NewSymDense(2, []float64{1, 2, 2, -1}),
		"zero/n=7":    mat.NewSymDense(7, nil),
		"random/n=50": withSpectrum(linspace(50, -1, 1), 11),
		"geometric/n=90": func() *mat.SymDense {
			g := make([]float64, 90)
			for i := range g {
				g[i] = math.Pow(0.7, float64(i))
			}
			return withSpectrum(g, 12)
		}(),
		"repeated/n=40": func() *mat.SymDense {
			l := linspace(40, 0, 1)
			for i := 0; i < 8; i++ {
				l[i] = 0.5
			}
			return withSpectrum(l, 13)
		}(),
		"diagonal/n=9": func() *mat.SymDense {
			a := mat.NewSymDense(9, nil)
			for i := 0; i < 9; i++ {
				a.SetSym(i, i, float64((i*5)%9)-4)
			}
			return a
		}(),
		"rbf/n=120": rbfKernel(gaussPoints(120, 4, 14)),
	}
	for name, a := range cases {
		t.Run(name, func(t *testing.T) {
			n := a.SymmetricDim()
			s := newSymEig(n + 3) // workspace larger than needed
			buf := make([]float64, n*n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					buf[i*n+j] = a.At(i, j)
				}
			}
			w := make([]float64, n)
			if !s.factorize(n, buf, w) {
				t.Fatal("no convergence")
			}
			want := referenceValues(a)
			normA := math.Max(math.Abs(want[0]), math.Abs(want[n-1]))
			if normA == 0 {
				normA = 1
			}
			z := mat.NewDense(n, n, buf)
			var r mat.Dense
			r.Mul(a, z)
			for j := 0; j < n; j++ {
				if j > 0 && w[j] < w[j-1] {
					t.Fatalf("eigenvalues not ascending at %d", j)
				}
				if d := math.Abs(w[j] - want[j]); d > 60*float64(n)*eps*normA {
					t.Errorf("w[%d] = %v, want %v", j, w[j], want[j])
				}
				for i := 0; i < n; i++ {
					r.Set(i, j, r.At(i, j)-w[j]*z.At(i, j))
				}
			}
			if s := mat.Norm(&r, 2) / (normA * float64(n) * eps); s > 60 {
				t.Errorf("scaled residual %.3g > 60", s)
			}
			var ztz mat.Dense
			ztz.Mul(z.T(), z)
			for i := 0; i < n; i++ {
				ztz.Set(i, i, ztz.At(i, i)-1)
			}
			if s := mat.Norm(&ztz, 2) / (float64(n) * eps); s > 60 {
				t.Errorf("orthogonality %.3g > 60", s)
			}
		})
	}
	_ = fmt.Sprint()
}
