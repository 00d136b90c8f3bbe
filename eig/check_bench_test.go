package eig_test

import (
	"context"
	"fmt"
	"testing"

	"ukm/eig"
	"ukm/eig/eigtest"
)

// BenchmarkMultiplicityCheck prices the multiplicity check of the
// single-vector method: ThickRestart with the check (check=on, the
// default) and without it (check=off, Settings.NoMultiplicityCheck) on the
// 10-NN graph Laplacians of BenchmarkVsEigsh (family=knn, largest d).
// Their ratio is the check's share of a solve.
func BenchmarkMultiplicityCheck(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{500, 1000, 2000, 4000} {
		a := knnOperator(b, n)
		for _, d := range []int{5, 10, 20} {
			for _, check := range []string{"on", "off"} {
				set := &eig.Settings{NoMultiplicityCheck: check == "off"}
				b.Run(fmt.Sprintf("family=knn/n=%d/d=%d/check=%s", n, d, check), func(b *testing.B) {
					benchSolve(b, func() (*eig.Result, error) { return eig.ThickRestart{}.Solve(ctx, a, d, set) })
				})
			}
		}
	}
}

// knnOperator returns the 10-NN graph Laplacian of eigtest.KNNLaplacian
// (seed 1) on n points as a CSR operator: the sparse family of
// BenchmarkVsEigsh.
func knnOperator(tb testing.TB, n int) *eig.CSR {
	tb.Helper()
	p, err := eigtest.KNNLaplacian(n, 10, 1)
	if err != nil {
		tb.Fatal(err)
	}
	a, err := eig.NewCSR(p.A)
	if err != nil {
		tb.Fatal(err)
	}
	return a
}
