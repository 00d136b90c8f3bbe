package eig_test

import (
	"context"
	"fmt"
	"testing"

	"ukm/dataset/benchdata"
	"ukm/dataset/datatest"
	"ukm/eig"
	"ukm/linalg"
)

// BenchmarkSparseDispatch times the two solvers TopD chooses between on a
// sparse matrix, ThickRestart and Chebyshev, at the numbers of wanted pairs
// around the switch: on the 10-NN graph Laplacians of BenchmarkVsEigsh
// (family=knn, largest d) and on the normalised affinities D^-1/2 W D^-1/2
// of the 10-NN graphs of the reference data sets, z-scored (family=affinity,
// the matrix a kNN basis of the models package decomposes; largest d). Data
// sets must all be found (see datatest.Load), or the benchmark is skipped.
func BenchmarkSparseDispatch(b *testing.B) {
	ctx := context.Background()
	type matrix struct {
		name string
		a    *eig.CSR
	}
	var ms []matrix
	for _, n := range []int{500, 1000, 2000, 4000} {
		ms = append(ms, matrix{fmt.Sprintf("family=knn/n=%d", n), knnOperator(b, n)})
	}
	for _, name := range []string{"heart", "ionosphere", "ssl_bci", "flare-solar", "ssl_usps", "ssl_digit1",
		"ssl_coil2", "ssl_g241n", "banana", "usps"} {
		s := datatest.Load(b, name)
		w, err := linalg.KNNGraph(ctx, benchdata.ZScore(s.X), 10, nil)
		if err != nil {
			b.Fatal(err)
		}
		aff, _, err := linalg.NormalizedAffinity(w)
		if err != nil {
			b.Fatal(err)
		}
		a, err := eig.NewCSR(aff)
		if err != nil {
			b.Fatal(err)
		}
		ms = append(ms, matrix{fmt.Sprintf("family=affinity/set=%s/n=%d", name, aff.Rows), a})
	}
	for _, m := range ms {
		for _, d := range []int{5, 8, 10, 12} {
			for _, sv := range []eig.Solver{eig.ThickRestart{}, eig.Chebyshev{}} {
				b.Run(fmt.Sprintf("%s/d=%d/solver=%s", m.name, d, sv.Name()), func(b *testing.B) {
					benchSolve(b, func() (*eig.Result, error) { return sv.Solve(ctx, m.a, d, nil) })
				})
			}
		}
	}
}
