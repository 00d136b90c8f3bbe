package klr

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPredictPrior: decision values equal to within TieTol of their size
// are tied and go to the tied class with the most labels; clear decisions
// are untouched; a row of rounding size is tied only under a floor on the
// row norm.
func TestPredictPrior(t *testing.T) {
	binary := &Multi{Classes: 2, Models: []Model{{Form: FeatureForm, Coef: []float64{1, -1}}}}
	three := &Multi{Classes: 3, Models: []Model{
		{Form: FeatureForm, Coef: []float64{1, 0}},
		{Form: FeatureForm, Coef: []float64{0, 1}},
		{Form: FeatureForm, Coef: []float64{-1, -1}},
	}}
	for _, tc := range []struct {
		name    string
		mm      *Multi
		x       []float64 // one row
		labels  []int
		floor   float64
		predict int // Predict: ties to the lower index
		want    int // PredictPrior
	}{
		{"binary clear", binary, []float64{1, 0.5}, []int{0, 0, 1}, 0, 1, 1},
		{"binary exact tie", binary, []float64{0.5, 0.5}, []int{1, 1, 0}, 0, 0, 1},
		{"binary rounding tie", binary, []float64{0.1 + 0.2, 0.3}, []int{0, 1, 1}, 0, 0, 1},
		{"binary tie, equal counts", binary, []float64{0.3, 0.3}, []int{1, 0}, 0, 0, 0},
		{"binary tie, no labels", binary, []float64{2, 2}, nil, 0, 0, 0},
		{"binary margin 1e-6", binary, []float64{1 + 1e-6, 1}, []int{0, 0, 0}, 0, 1, 1},
		{"binary tiny row", binary, []float64{3e-17, 1e-17}, []int{0, 0, 0}, 0, 1, 1},
		{"binary tiny row, floored", binary, []float64{3e-17, 1e-17}, []int{0, 0, 0}, 1, 0, 0},
		{"three clear", three, []float64{2, 1}, []int{1, 1, 2}, 0, 0, 0},
		{"three tie of two", three, []float64{1, 1}, []int{0, 1, 1, 2, 2, 2}, 0, 0, 1},
		{"three tie of three", three, []float64{0, 0}, []int{0, 1, 2, 2}, 0, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := mat.NewDense(1, 2, tc.x)
			got, err := tc.mm.Predict(nil, x)
			if err != nil || !slices.Equal(got, []int{tc.predict}) {
				if tc.floor == 0 {
					t.Errorf("Predict = %v (%v), want [%d]", got, err, tc.predict)
				}
			}
			got, err = tc.mm.PredictPrior(nil, x, tc.labels, tc.floor)
			if err != nil || !slices.Equal(got, []int{tc.want}) {
				t.Errorf("PredictPrior = %v (%v), want [%d]", got, err, tc.want)
			}
		})
	}
}
