package active_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/models"
	"ukm/models/active"
)

// recorder is a FeatureSelector that keeps what the loop hands it.
type recorder struct {
	active.FeatureSelector
	calls    *int
	rows     *[]int // candidates per call
	dims     *[]int // feature columns per call
	features **mat.Dense
}

func (r recorder) SelectFeatures(dst []int, probs, features mat.Matrix, k int) ([]int, error) {
	*r.calls++
	m, _ := probs.Dims()
	fr, fc := features.Dims()
	if fr != m {
		fc = -1 // reported as a wrong column count
	}
	*r.rows = append(*r.rows, m)
	*r.dims = append(*r.dims, fc)
	*r.features = mat.DenseCopyOf(features)
	return r.FeatureSelector.SelectFeatures(dst, probs, features, k)
}

// TestLoopFeatureSelectors: models.Loop hands a FeatureSelector the
// unlabeled points' features — the learned feature map, or the initial
// kernel's columns of the labeled points for Design Standard — and UKLR
// with the Fisher selector learns the kernel and queries whole batches of
// distinct new points.
func TestLoopFeatureSelectors(t *testing.T) {
	moons, err := dataset.TwoMoons(60, 0.15, 3)
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := dataset.Blobs(150, 4, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		set   *dataset.Set
		opt   func(models.Options) *models.LoopOptions
		sel   active.FeatureSelector
		fixed bool // the feature map does not change between rounds
		std   bool // Design Standard: features are kernel columns
	}{
		{"UKLR/Fisher", moons, func(o models.Options) *models.LoopOptions { return models.UKLR(o, 30, 10) }, active.Fisher{}, false, false},
		{"UKLR/Fisher/three classes", blobs, func(o models.Options) *models.LoopOptions { return models.UKLR(o, 30, 10) }, active.Fisher{}, false, false},
		{"UKLR/KCenter", moons, func(o models.Options) *models.LoopOptions { return models.UKLR(o, 30, 10) }, active.KCenter{}, false, false},
		{"fixed SKL kernel/Fisher", moons, func(o models.Options) *models.LoopOptions {
			return &models.LoopOptions{Options: o, Budget: 30, Batch: 10}
		}, active.Fisher{}, true, false},
		{"KLRActive/Fisher", moons, func(o models.Options) *models.LoopOptions { return models.KLRActive(o, 30, 10) }, active.Fisher{}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.set.Y)
			lab := []int{}
			seen := map[int]bool{}
			for i, y := range tc.set.Y {
				if !seen[y] || len(lab) < 6 && i%7 == 0 {
					seen[y] = true
					lab = append(lab, i)
				}
			}
			ys := make([]int, len(lab))
			for a, i := range lab {
				ys[a] = tc.set.Y[i]
			}
			var calls int
			var rows, dims []int
			var last *mat.Dense
			lo := tc.opt(models.Options{Seed: 1})
			lo.Selector = recorder{tc.sel, &calls, &rows, &dims, &last}
			lo.Truth = tc.set.Y
			m, rounds, err := models.Loop(context.Background(), tc.set.X, lab, ys, active.GroundTruth(tc.set.Y), lo)
			if err != nil {
				t.Fatal(err)
			}
			if len(rounds) != 4 || calls != 3 {
				t.Fatalf("%d rounds and %d selections, want 4 and 3", len(rounds), calls)
			}
			labeled := slices.Clone(lab)
			for r, rd := range rounds[:3] {
				if rd.Labeled != len(lab)+10*r || len(rd.Queried) != 10 {
					t.Errorf("round %d: %d labeled, %d queried", r, rd.Labeled, len(rd.Queried))
				}
				for _, i := range rd.Queried {
					if slices.Contains(labeled, i) {
						t.Errorf("round %d queried %d twice", r, i)
					}
					labeled = append(labeled, i)
				}
				if rows[r] != n-rd.Labeled {
					t.Errorf("round %d: %d candidates, want %d", r, rows[r], n-rd.Labeled)
				}
				want := dims[0]
				if tc.std {
					want = rd.Labeled // one kernel column per labeled point
				}
				if dims[r] != want || dims[r] < 1 {
					t.Errorf("round %d: %d feature columns, want %d", r, dims[r], want)
				}
			}
			if !tc.fixed && !tc.std && rounds[0].Alignment == rounds[3].Alignment {
				t.Errorf("the kernel was not re-learned: alignment %v in rounds 0 and 3", rounds[0].Alignment)
			}
			if !tc.fixed {
				return
			}
			// The features are the rows of Phi = V diag(sqrt(mu)) of the
			// unlabeled points, in ascending order.
			v, mu := m.Kernel()
			var unl []int
			for i := range n {
				if !slices.Contains(labeled[:len(labeled)-10], i) {
					unl = append(unl, i)
				}
			}
			for a, i := range unl {
				for j := range mu {
					if want := v.At(i, j) * math.Sqrt(mu[j]); math.Abs(last.At(a, j)-want) > 1e-12 {
						t.Fatalf("feature (%d,%d) = %v, want %v", a, j, last.At(a, j), want)
					}
				}
			}
		})
	}
}
