package linalg_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"ukm/dataset/datatest"
	"ukm/linalg"
)

// TestRealData runs the graph and kernel builders on data sets with
// duplicate rows and constant columns.
func TestRealData(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"ionosphere", "flare-solar", "heart"} {
		set := datatest.Load(t, name)
		x, _, err := linalg.FitTransform(set.X, linalg.ZScore)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := x.Dims()
		for _, r := range x.RawMatrix().Data {
			if math.IsNaN(r) {
				t.Fatalf("%s: NaN after scaling", name)
			}
		}
		gamma, err := linalg.MedianGamma(ctx, x, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		k, err := linalg.Gram(ctx, linalg.RBF{Gamma: gamma}, x)
		if err != nil {
			t.Fatal(err)
		}
		labels := make([]float64, n)
		for i, c := range set.Y {
			labels[i] = 2*float64(c) - 1
		}
		a, err := linalg.TargetAlignment(k, labels)
		if err != nil || a <= 0 || a > 1 {
			t.Fatalf("%s: alignment %v (%v)", name, a, err)
		}
		for _, m := range []linalg.KNNMethod{linalg.KNNTree, linalg.KNNBrute} {
			ti, td, err := linalg.NearestNeighbors(ctx, x, 10, m)
			if err != nil {
				t.Fatal(err)
			}
			wi, wd := linalg.RefKNN(x, 10)
			if !slices.Equal(ti, wi) || !slices.Equal(td, wd) {
				t.Fatalf("%s method %d: kNN differs from reference", name, m)
			}
		}
		w, err := linalg.KNNGraph(ctx, x, 10, &linalg.GraphOptions{Weight: linalg.Heat})
		if err != nil || !w.IsSymmetric() {
			t.Fatalf("%s: graph %v", name, err)
		}
	}
}
