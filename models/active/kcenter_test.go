package active

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestKCenter: the most uncertain candidate first, then farthest-first
// among the shortlist; duplicates and points outside the shortlist wait.
func TestKCenter(t *testing.T) {
	// Points on a line; p(y = 1) per point. Rows 1 and 2 are copies.
	x := mat.NewDense(6, 1, []float64{0, 1, 1, 5, 9, 20})
	p := mat.NewDense(6, 1, []float64{0.5, 0.45, 0.45, 0.4, 0.35, 0.01})
	for _, tc := range []struct {
		name   string
		factor int
		k      int
		want   []int
	}{
		// The default shortlist of 15 holds every point: 0 first, then
		// the farthest, 5 (at 20), then 4 (min distance 9).
		{"default", 0, 3, []int{0, 5, 4}},
		// Shortlist {0,1,2,3}: 0, then the farthest of them, 3.
		{"factor 2", 2, 2, []int{0, 3}},
		// Shortlist of 2 (rows 0 and 1): 0, then 1.
		{"factor 1", 1, 2, []int{0, 1}},
		// A shortlist of everything: 20 is farthest after 0.
		{"factor 3", 3, 2, []int{0, 5}},
		// The copy 2 comes only when nothing else is left.
		{"all", 0, 6, []int{0, 5, 4, 3, 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := KCenter{Factor: tc.factor}.SelectFeatures(nil, p, x, tc.k)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v (%v), want %v", got, err, tc.want)
			}
		})
	}
}
