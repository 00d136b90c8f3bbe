package eig

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// TestChebyshevAgainstThickRestart compares the filtered solve with
// thick-restart Lanczos on A itself: the same values, residuals within the
// tolerance, at both ends, with the bounds given or estimated, with a Cut
// too high (fewer than d eigenvalues above it: the solve must notice and
// lower it) and with a Lower above the bottom of the spectrum; the order
// 25,000 case runs in the bandwidth-reducing order.
func TestChebyshevAgainstThickRestart(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{3000, 25000} {
		if testing.Short() && n > 3000 {
			continue
		}
		s := affinity(t, n, uint64(n))
		op, err := NewCSR(s)
		if err != nil {
			t.Fatal(err)
		}
		const d, tol = 12, 1e-10
		for _, which := range []Which{Largest, Smallest} {
			set := &Settings{Tol: tol, Which: which, Seed: 3}
			ref, err := ThickRestart{}.Solve(ctx, op, d, set)
			if err != nil || ref.Status != linalg.Converged {
				t.Fatalf("n=%d: reference %v %v", n, ref.Status, err)
			}
			for _, c := range []struct {
				name string
				ch   Chebyshev
			}{
				{"bounds", Chebyshev{Lower: -1, Upper: 1}},
				{"estimated", Chebyshev{}},
				{"cut-too-high", Chebyshev{Lower: -1, Upper: 1, Cut: 0.99999 * float64(1-2*int(which))}},
				{"lower-too-high", Chebyshev{Lower: -0.1, Upper: 1}},
				{"degree-4", Chebyshev{Lower: -1, Upper: 1, Degree: 4}},
			} {
				t0 := time.Now()
				res, err := c.ch.Solve(ctx, op, d, set)
				t.Logf("n=%d %v %s: %v, %d matvecs", n, which, c.name, time.Since(t0), res.MatVecs)
				if err != nil {
					t.Fatalf("n=%d %v %s: %v", n, which, c.name, err)
				}
				if res.Status != linalg.Converged || res.Converged != d {
					t.Errorf("n=%d %v %s: status %v, %d converged", n, which, c.name, res.Status, res.Converged)
				}
				for i, v := range res.Values {
					if math.Abs(v-ref.Values[i]) > 1e-9 {
						t.Errorf("n=%d %v %s: value %d = %.15g, thick restart %.15g", n, which, c.name, i, v, ref.Values[i])
					}
				}
				// Explicit residuals and orthonormality of the returned
				// vectors.
				y := make([]float64, n)
				for j := 0; j < d; j++ {
					v := mat.Col(nil, j, res.Vectors)
					op.MulVecTo(y, v)
					var r2 float64
					for i := range y {
						e := y[i] - res.Values[j]*v[i]
						r2 += e * e
					}
					if r := math.Sqrt(r2); r > 10*tol {
						t.Errorf("n=%d %v %s: residual %d = %.3g", n, which, c.name, j, r)
					}
				}
				var g mat.Dense
				g.Mul(res.Vectors.T(), res.Vectors)
				for i := 0; i < d; i++ {
					for j := 0; j < d; j++ {
						want := 0.0
						if i == j {
							want = 1
						}
						if math.Abs(g.At(i, j)-want) > 1e-10 {
							t.Fatalf("n=%d %v %s: VᵀV(%d,%d) = %g", n, which, c.name, i, j, g.At(i, j))
						}
					}
				}
			}
		}
	}
}

func TestChebyshevSettings(t *testing.T) {
	op, err := NewCSR(affinity(t, 300, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ch   Chebyshev
		kind error
	}{
		{"nan", Chebyshev{Lower: math.NaN()}, linalg.ErrNonFinite},
		{"inf", Chebyshev{Upper: math.Inf(1)}, linalg.ErrNonFinite},
		{"degree", Chebyshev{Degree: -1}, linalg.ErrSettings},
		{"order", Chebyshev{Lower: 1, Upper: -1}, linalg.ErrSettings},
	} {
		res, err := c.ch.Solve(context.Background(), op, 4, nil)
		if !errors.Is(err, c.kind) || res == nil {
			t.Errorf("%s: %v, want %v", c.name, err, c.kind)
		}
	}
}

// TestTridiagEnds checks the spectrum estimate's tridiagonal eigenproblem,
// solved on the first and last components only, against the full dense
// decomposition: the same eigenvalues and, up to sign, the same end
// components, including a matrix with a negligible coupling (two blocks)
// and one of order one.
func TestTridiagEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, m := range []int{1, 2, 5, 40} {
		for _, split := range []bool{false, true} {
			alpha, beta := make([]float64, m), make([]float64, m)
			for i := range alpha {
				alpha[i] = rng.NormFloat64()
				beta[i] = 0.1 + rng.Float64()
			}
			if split && m > 2 {
				beta[m/2] = 1e-300
			}
			vals, first, last, err := tridiagEnds(alpha, beta)
			if err != nil {
				t.Fatal(err)
			}
			tm := mat.NewSymDense(m, nil)
			for j := range m {
				tm.SetSym(j, j, alpha[j])
				if j+1 < m {
					tm.SetSym(j, j+1, beta[j])
				}
			}
			var es mat.EigenSym
			if !es.Factorize(tm, true) {
				t.Fatal("reference did not converge")
			}
			var z mat.Dense
			es.VectorsTo(&z)
			want := es.Values(nil)
			idx := make([]int, m)
			for i := range idx {
				idx[i] = i
			}
			sort.Slice(idx, func(a, b int) bool { return vals[idx[a]] < vals[idx[b]] })
			for k, i := range idx {
				if math.Abs(vals[i]-want[k]) > 1e-13*(1+math.Abs(want[k])) {
					t.Errorf("m=%d split=%v: value %d = %v, want %v", m, split, k, vals[i], want[k])
				}
				if math.Abs(math.Abs(first[i])-math.Abs(z.At(0, k))) > 1e-12 ||
					math.Abs(math.Abs(last[i])-math.Abs(z.At(m-1, k))) > 1e-12 {
					t.Errorf("m=%d split=%v: value %d: ends (%v, %v), want (%v, %v) up to sign",
						m, split, k, first[i], last[i], z.At(0, k), z.At(m-1, k))
				}
			}
		}
	}
}
