package eigtest

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/linalg"
)

// eps is the unit round-off of float64 (LAPACK's dlamch('E')), the unit of
// the scaled errors.
const eps = 0x1p-53

// checkPairs solves the case and returns the failed checks.
func checkPairs(s eig.Solver, sp *spectrum, d int, which eig.Which, ok operatorKind) []string {
	op, sigma, err := ok.build(sp)
	if err != nil {
		return []string{fmt.Sprintf("building the operator: %v", err)}
	}
	res, err := s.Solve(context.Background(), op, d, &eig.Settings{Which: which, Seed: 1})
	if err != nil {
		st := "nil Result"
		if res != nil {
			st = "status " + res.Status.String()
		}
		return []string{fmt.Sprintf("Solve: %v (%s)", err, st)}
	}
	if res == nil {
		return []string{"Solve returned a nil Result and no error"}
	}
	n := sp.a.SymmetricDim()
	var msgs []string
	fail := func(format string, args ...any) { msgs = append(msgs, fmt.Sprintf(format, args...)) }
	if res.Status != linalg.Converged {
		fail("status %v, want Converged", res.Status)
	}
	if res.Converged != d {
		fail("%d pairs counted as converged, want %d", res.Converged, d)
	}
	if len(res.Values) != d || len(res.Residuals) != d || res.Vectors == nil {
		fail("%d values, %d residuals, vectors %v; want %d of each", len(res.Values), len(res.Residuals), res.Vectors != nil, d)
		return msgs
	}
	if r, c := res.Vectors.Dims(); r != n || c != d {
		fail("vectors are %dx%d, want %dx%d", r, c, n, d)
		return msgs
	}
	if !finite(res.Values) || !finiteMatrix(res.Vectors) {
		fail("values or vectors not finite")
		return msgs
	}

	// The operator's known spectrum, most wanted first.
	want := make([]float64, d)
	for j := range want {
		if which == eig.Largest {
			want[j] = sp.values[n-1-j] - sigma
		} else {
			want[j] = sp.values[j] - sigma
		}
	}
	normA := 0.0
	for _, v := range sp.values {
		normA = math.Max(normA, math.Abs(v-sigma))
	}
	if normA == 0 {
		normA = 1 // the zero matrix: absolute errors
	}
	unit := float64(n) * eps

	worst, at := 0.0, 0
	for j, v := range res.Values {
		if e := math.Abs(v-want[j]) / (normA * unit); e > worst {
			worst, at = e, j
		}
	}
	if worst > Threshold {
		fail("eigenvalue %d = %.17g, want %.17g: |θ - λ|/(‖A‖ n ε) = %.3g > %d", at, res.Values[at], want[at], worst, Threshold)
	}

	// R = (A - sigma I) V - V Θ.
	v := res.Vectors
	r := mat.NewDense(n, d, nil)
	r.Mul(sp.a, v)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			r.Set(i, j, r.At(i, j)-(sigma+res.Values[j])*v.At(i, j))
		}
	}
	if e := mat.Norm(r, 2) / (normA * unit); e > Threshold {
		fail("residual ‖AV - VΘ‖/(‖A‖ n ε) = %.3g > %d", e, Threshold)
	}
	for j := 0; j < d; j++ {
		tr := mat.Norm(r.ColView(j), 2)
		if math.Abs(tr-res.Residuals[j]) > Threshold*unit*normA {
			fail("pair %d: reported residual %.3g, true %.3g", j, res.Residuals[j], tr)
			break
		}
	}

	g := mat.NewDense(d, d, nil)
	g.Mul(v.T(), v)
	for j := 0; j < d; j++ {
		g.Set(j, j, g.At(j, j)-1)
	}
	if e := mat.Norm(g, 2) / unit; e > Threshold {
		fail("orthogonality ‖I - VᵀV‖/(n ε) = %.3g > %d", e, Threshold)
	}
	return msgs
}

func finiteMatrix(a mat.Matrix) bool {
	r, c := a.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}

func finite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
