package eig

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
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
	// A graded matrix like those the Krylov iteration meets on a low-rank
	// kernel: a block of size 100 coupled by 1e-10 to a block at the
	// round-off level (TestLowRankKernel has the solver-level case).
	{
		n := 40
		r := randSlice(n*n, 16)
		a := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				switch {
				case j < 6:
					a.SetSym(i, j, 100*r[i*n+j])
				case i >= 6:
					a.SetSym(i, j, 1e-15*r[i*n+j])
				}
			}
		}
		a.SetSym(5, 6, 1.2e-10)
		cases["graded/n=40"] = a
	}
	// Extreme scales exercise the scaled branch of hypot. Their spectra
	// are known (gonum's EigenSym fails on the tiny one, a Dlascl bug), so
	// the reference values are the scaled prescribed ones.
	known := map[string][]float64{}
	for _, sc := range []float64{1e200, 1e-200} {
		a := withSpectrum(linspace(30, -1, 1), 15)
		a.ScaleSym(sc, a)
		name := fmt.Sprintf("scaled=%g/n=30", sc)
		cases[name] = a
		l := linspace(30, -1, 1)
		for i := range l {
			l[i] *= sc
		}
		known[name] = l
	}
	for name, a := range cases {
		for _, fb := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/fallback=%v", name, fb), func(t *testing.T) {
				n := a.SymmetricDim()
				s := newSymEig(n + 3) // workspace larger than needed
				buf := make([]float64, n*n)
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						buf[i*n+j] = a.At(i, j)
					}
				}
				w := make([]float64, n)
				if n >= 2 {
					// The fast path itself must converge on every case (the
					// fallback to Dsyev is only a safety net).
					cp := append([]float64(nil), buf...)
					d, e, zt := make([]float64, n), make([]float64, n), make([]float64, n*n)
					s.tridiagonalize(n, cp, d, e, zt)
					if !tridiagQL(n, d, e, zt) {
						t.Fatal("QL iteration did not converge")
					}
				}
				if !fb && n >= 3 {
					// valuesLast: the same eigenvalues bit for bit, and the
					// last components of the eigenvectors of factorize.
					for _, p := range []int{1, 2, min(8, n-1)} {
						cp := append([]float64(nil), buf...)
						full := append([]float64(nil), buf...)
						wl, wf := make([]float64, n), make([]float64, n)
						last := make([]float64, n*p)
						if !s.valuesLast(n, p, cp, wl, last) || !s.factorize(n, full, wf) {
							t.Fatalf("p=%d: no convergence", p)
						}
						for j := 0; j < n; j++ {
							if wl[j] != wf[j] {
								t.Fatalf("p=%d: value %d is %v, factorize gives %v", p, j, wl[j], wf[j])
							}
							for q := 0; q < p; q++ {
								if d := math.Abs(last[j*p+q] - full[(n-p+q)*n+j]); d > 1e-12 {
									t.Fatalf("p=%d: component %d of vector %d off by %.3g", p, n-p+q, j, d)
								}
							}
						}
					}
				}
				if fb {
					if !s.fallback(n, buf, w) {
						t.Fatal("fallback did not converge")
					}
				} else if !s.factorize(n, buf, w) {
					t.Fatal("no convergence")
				}
				want, ok := known[name]
				if !ok {
					want = referenceValues(a)
				}
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
	}
}

// TestLowRankKernel runs TopD on linear kernels X Xᵀ of rank 3 to 10 with d
// up to 20, so that most wanted eigenvalues are zero and the projected
// matrices are graded (a block of size ||A|| next to one at round-off
// level). The projected eigensolver once stalled there, which broke the
// restart. Pairs are checked as in TestConformance.
func TestLowRankKernel(t *testing.T) {
	for _, n := range []int{100, 200} {
		for _, rank := range []int{3, 5, 10} {
			for _, d := range []int{5, 10, 20} {
				t.Run(fmt.Sprintf("n=%d/rank=%d/d=%d", n, rank, d), func(t *testing.T) {
					var k mat.SymDense
					k.SymOuterK(1, gaussPoints(n, rank, 5))
					op, err := NewDense(&k)
					if err != nil {
						t.Fatal(err)
					}
					res, err := TopD(context.Background(), op, d, &Settings{Seed: 1})
					if err != nil {
						t.Fatalf("TopD: %v", err)
					}
					bound := math.Max(60, 2*math.Sqrt(float64(d))*acceptTol(DefaultTol, n)/(float64(n)*eps))
					checkPairs(t, &k, res, d, Largest, bound)
				})
			}
		}
	}
}

// TestDenseFallback: on a 24 x 24 matrix whose only nonzero entries are a
// rank-one block of 4s on rows 3, 4, 5, 13, 14, 15 and 23 (eigenvalues 28
// and 0), gonum's Dsyev returns values up to 5.6e124 with residuals as
// large, which the dense path reported Converged. Its check against ||A||_F
// now rejects them and the Jacobi fallback of linalg.EigenSym answers.
func TestDenseFallback(t *testing.T) {
	n := 24
	a := mat.NewSymDense(n, nil)
	blk := []int{3, 4, 5, 13, 14, 15, 23}
	for _, i := range blk {
		for _, j := range blk {
			a.SetSym(i, j, 4)
		}
	}
	op, err := NewDense(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, which := range []Which{Largest, Smallest} {
		res, err := Reference{}.Solve(context.Background(), op, 3, &Settings{Which: which})
		if err != nil || res.Status != linalg.Converged {
			t.Fatalf("which=%v: %v, %v", which, res.Status, err)
		}
		want := []float64{28, 0, 0}
		if which == Smallest {
			want = []float64{0, 0, 0}
		}
		for i, v := range res.Values {
			if math.Abs(v-want[i]) > 1e-13*28 {
				t.Errorf("which=%v: value %d = %v, want %v", which, i, v, want[i])
			}
			if res.Residuals[i] > 1e-13*28 {
				t.Errorf("which=%v: residual %d = %v", which, i, res.Residuals[i])
			}
		}
	}
}
