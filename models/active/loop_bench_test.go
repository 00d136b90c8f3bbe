package active_test

import (
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/models"
	"ukm/models/active"
)

// capture is a FeatureSelector that keeps the first round's inputs.
type capture struct {
	probs, features *mat.Dense
}

func (c *capture) Select(dst []int, probs mat.Matrix, k int) ([]int, error) {
	return active.Entropy{}.Select(dst, probs, k)
}

func (c *capture) SelectFeatures(dst []int, probs, features mat.Matrix, k int) ([]int, error) {
	if c.probs == nil {
		c.probs, c.features = mat.DenseCopyOf(probs), mat.DenseCopyOf(features)
	}
	return c.Select(dst, probs, k)
}

// roundInputs runs one round of models.Loop (the SKL design, d = 20) on
// dataset.Blobs with n points, p = 20 features and the given classes, 20
// labels, and returns what the loop hands a feature selector: the class
// probabilities and the feature map of the unlabeled points.
func roundInputs(b *testing.B, n, classes int, large models.LargeMode) (probs, features *mat.Dense) {
	s, err := dataset.Blobs(n, 20, classes, 1)
	if err != nil {
		b.Fatal(err)
	}
	var lab, ys []int
	seen := map[int]int{}
	for i, y := range s.Y {
		if seen[y] < 20/classes+1 && i%3 == 0 {
			seen[y]++
			lab, ys = append(lab, i), append(ys, y)
		}
	}
	c := &capture{}
	lo := models.UKLR(models.Options{Seed: 1, Large: large}, 10, 10)
	lo.Selector = c
	if _, _, err := models.Loop(context.Background(), s.X, lab, ys, active.GroundTruth(s.Y), lo); err != nil {
		b.Fatal(err)
	}
	return c.probs, c.features
}

var sink []int

// BenchmarkFisherRound times one Fisher selection of k = 10 on the inputs
// of a real round of the loop: the learned feature map of the unlabeled
// points (d = 20; Nyström landmarks on the large-n path) and the KLR
// probabilities. The setup (the loop's fit) is outside the timer.
func BenchmarkFisherRound(b *testing.B) {
	for _, tc := range []struct {
		n, classes int
		large      models.LargeMode
		path       string
	}{
		{1500, 2, models.LargeAuto, "exact"},
		{1500, 10, models.LargeAuto, "exact"},
		{70000, 2, models.LargeOn, "large"},
	} {
		b.Run(fmt.Sprintf("path=%s/n=%d/c=%d/d=20/k=10", tc.path, tc.n, tc.classes), func(b *testing.B) {
			if testing.Short() && tc.n > 10000 {
				b.Skip("skipped in -short mode")
			}
			probs, features := roundInputs(b, tc.n, tc.classes, tc.large)
			dst := make([]int, 0, 10)
			var err error
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if dst, err = (active.Fisher{}).SelectFeatures(dst, probs, features, 10); err != nil {
					b.Fatal(err)
				}
			}
			sink = dst
			res, _ := active.Fisher{}.Solve(probs, features)
			b.ReportMetric(float64(res.Iterations), "steps/op")
			b.ReportMetric(float64(res.Passes), "passes/op")
			b.ReportMetric(float64(res.Rank), "rank")
		})
	}
}
