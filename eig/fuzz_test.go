package eig

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// FuzzTopD builds a small symmetric matrix, d and settings from bytes and
// runs every solver: each must return an error or pairs that pass the
// residual check; none may panic.
func FuzzTopD(f *testing.F) {
	f.Add([]byte{5, 2, 0, 1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150})
	f.Add([]byte{20, 3, 1, 2, 255, 0, 128, 7, 7, 7, 7, 7, 7, 7, 7, 7})
	f.Add([]byte{1, 1, 0, 0, 3})
	f.Add([]byte{30, 29, 0, 3, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		n := int(data[0])%40 + 1
		d := int(data[1]) % (n + 2) // includes the invalid 0 and n+1
		which := Which(data[2] % 2)
		block := int(data[3] % 6)
		basis := int(data[3]/6%4) * 8 // 0 (default), 8, 16 or 24: small bases exercise the Krylov code on small n
		vals := data[4:]
		a := mat.NewSymDense(n, nil)
		k := 0
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				var v float64
				if len(vals) > 0 {
					b := vals[k%len(vals)]
					switch b {
					case 255:
						v = math.NaN()
					case 254:
						v = math.Inf(1)
					default:
						v = float64(int(b)-128) / 16
					}
				}
				k++
				a.SetSym(i, j, v)
			}
		}
		op, err := NewDense(a)
		if err != nil {
			return // NaN or Inf rejected up front
		}
		for _, s := range solvers {
			res, err := s.Solve(context.Background(), op, d, &Settings{Which: which, BlockSize: block, BasisSize: basis, Seed: uint64(len(data))})
			if err != nil {
				t.Logf("solver %s: %v", s.Name(), err)
				if d >= 1 && d <= n {
					if res == nil || res.Status == linalg.Converged {
						t.Fatalf("%s: error %v with status %v", s.Name(), err, res.Status)
					}
				}
				continue
			}
			if d < 1 || d > n {
				t.Fatalf("%s: accepted d = %d for n = %d", s.Name(), d, n)
			}
			if res.Status != linalg.Converged {
				// Stopping early is an outcome (a basis too small for the
				// plain Lanczos method, or a multiplicity check that ran out
				// of steps with every pair converged): the residuals it
				// reports must be true.
				t.Logf("solver %s, n = %d, d = %d, basis %d: %v with %d of %d converged", s.Name(), n, d, basis, res.Status, res.Converged, d)
				checkReported(t, a, res)
				continue
			}
			bound := 60.0
			if _, ok := s.(Reference); !ok {
				bound = math.Max(60, 2*math.Sqrt(float64(d))*acceptTol(DefaultTol, n)/(float64(n)*eps))
			}
			t.Logf("solver %s, n = %d, d = %d, %v, block %d, basis %d: %d products, %d restarts", s.Name(), n, d, which, block, basis, res.MatVecs, res.Restarts)
			checkPairs(t, a, res, d, which, bound)
		}
	})
}

// checkReported compares the residuals a result reports with the true ones
// ‖Av − θv‖, to round-off.
func checkReported(t *testing.T, a *mat.SymDense, res *Result) {
	t.Helper()
	if res.Vectors == nil {
		t.Fatalf("%d values without vectors", len(res.Values))
	}
	checkResiduals(t, residualMatrix(a, res), res, spectrumNorm(referenceValues(a)))
}
