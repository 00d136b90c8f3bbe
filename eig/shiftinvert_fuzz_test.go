package eig

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// FuzzShiftInvert builds a small sparse symmetric matrix (n <= 24, entries
// on a grid of 1/8, a diagonal shifted to make it definite, indefinite or
// singular as the bytes say) and a shift, and runs the sparse Cholesky
// factorization and the shift-and-invert mode on it. Every claim is checked
// against the dense reference spectrum: a factorization must solve the
// shifted system to a small backward error, ErrNotPSD only when A − σI
// has an eigenvalue at or below round-off (for the mode: when σ is not
// beyond either end of the spectrum), and Converged pairs must be the d
// eigenvalues nearest σ on its side, with their residuals. Nothing may
// panic.
func FuzzShiftInvert(f *testing.F) {
	f.Add([]byte{10, 3, 128, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{20, 5, 0, 9, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{6, 6, 255, 2, 64, 64, 64})
	f.Add([]byte{24, 1, 100, 7, 129, 127, 130, 126})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		n := 2 + int(data[0])%23
		d := 1 + int(data[1])%n
		sb := data[2]
		density := 1 + int(data[3])%4
		vals := data[4:]
		var ts []linalg.Triplet
		k := 0
		next := func() float64 {
			b := vals[k%len(vals)]
			k++
			return float64(int(b)%33-16) / 8
		}
		diag := make([]float64, n)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if (i*7+j*3+k)%(density+1) != 0 {
					continue
				}
				v := next()
				if v == 0 {
					continue
				}
				ts = append(ts, linalg.Triplet{I: i, J: j, V: v}, linalg.Triplet{I: j, J: i, V: v})
				diag[i] += math.Abs(v)
				diag[j] += math.Abs(v)
			}
		}
		for i := 0; i < n; i++ {
			// a diagonal near the Gershgorin bound: definite, nearly
			// singular or indefinite
			ts = append(ts, linalg.Triplet{I: i, J: i, V: diag[i] + next()})
		}
		a, err := linalg.CSRFromTriplets(n, n, ts)
		if err != nil {
			t.Fatal(err)
		}
		dense := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				dense.SetSym(i, j, a.At(i, j))
			}
		}
		all := referenceValues(dense) // ascending
		normA := math.Max(1, math.Max(math.Abs(all[0]), math.Abs(all[n-1])))
		// σ: below, inside or above the spectrum, or on an eigenvalue
		var sigma float64
		switch sb % 4 {
		case 0:
			sigma = all[0] - float64(sb)/64
		case 1:
			sigma = all[n-1] + float64(sb)/64
		case 2:
			sigma = all[int(sb)%n]
		default:
			sigma = float64(int(sb)-128) / 16
		}
		round := 1e3 * float64(n) * eps * normA
		gap := math.Inf(1) // distance from σ to the spectrum
		for _, v := range all {
			gap = math.Min(gap, math.Abs(v-sigma))
		}
		falseDegenerate := func(what string, err error) {
			if errors.Is(err, linalg.ErrDegenerate) && gap > 1e3*float64(n)*eps*(normA+math.Abs(sigma)) {
				t.Errorf("%s(σ = %v): %v, but σ is %.3g from the nearest eigenvalue", what, sigma, err, gap)
			}
		}

		// The factorization.
		f, err := NewSparseCholesky(a, sigma)
		if err != nil {
			if errors.Is(err, linalg.ErrNotPSD) || errors.Is(err, linalg.ErrDegenerate) {
				falseDegenerate("NewSparseCholesky", err)
				if all[0]-sigma > round {
					t.Errorf("NewSparseCholesky(σ = %v): %v, but the smallest eigenvalue of A − σI is %v", sigma, err, all[0]-sigma)
				}
				return
			}
			t.Fatalf("NewSparseCholesky: %v", err)
		}
		if all[0]-sigma < -round {
			t.Errorf("NewSparseCholesky(σ = %v) factorized A − σI whose smallest eigenvalue is %v", sigma, all[0]-sigma)
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = next()
		}
		x := make([]float64, n)
		f.SolveTo(x, b)
		var r, xn, bn float64
		for i := 0; i < n; i++ {
			s := -b[i] - sigma*x[i]
			for j := 0; j < n; j++ {
				s += dense.At(i, j) * x[j]
			}
			r = math.Max(r, math.Abs(s))
			xn = math.Max(xn, math.Abs(x[i]))
			bn = math.Max(bn, math.Abs(b[i]))
		}
		if bn == 0 {
			if xn != 0 {
				t.Errorf("SolveTo: a zero right-hand side gave ‖x‖ = %v", xn)
			}
		} else if be := r / ((normA+math.Abs(sigma))*xn + bn); be > 1e3*float64(n)*eps || math.IsNaN(be) {
			t.Errorf("SolveTo: backward error %.3g", be)
		}

		// The mode.
		res, err := ShiftInvert{Sigma: sigma}.Solve(context.Background(), a, d, nil)
		below, above := sigma < all[0]-round, sigma > all[n-1]+round
		if err != nil {
			falseDegenerate("ShiftInvert", err)
			if below || above {
				if errors.Is(err, linalg.ErrNotPSD) {
					t.Errorf("ShiftInvert(σ = %v) outside the spectrum [%v, %v]: %v", sigma, all[0], all[n-1], err)
				}
			}
			return
		}
		if res.Status != linalg.Converged {
			checkReported(t, dense, res)
			return
		}
		want := all[:d]
		if sigma > all[n-1] {
			want = make([]float64, d)
			for j := range want {
				want[j] = all[n-1-j]
			}
		}
		for j, v := range res.Values {
			if math.Abs(v-want[j]) > 60*float64(n)*eps*normA*math.Max(1, normA/math.Max(math.Abs(all[0]-sigma), math.Abs(all[n-1]-sigma))) && math.Abs(v-want[j]) > 1e-8*normA {
				t.Errorf("σ = %v: value %d = %.17g, want %.17g (spectrum %v)", sigma, j, v, want[j], all)
			}
		}
		checkReported(t, dense, res)
		for j, rj := range res.Residuals {
			if rj > 1e-8*normA {
				t.Errorf("σ = %v: Converged with residual %d = %.3g", sigma, j, rj)
			}
		}
	})
}
