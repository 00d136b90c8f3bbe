package models

import (
	"context"
	"errors"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

func TestEncodeLabels(t *testing.T) {
	for _, tc := range []struct {
		name    string
		y       []string
		names   []string
		labeled []int
		classes []int
	}{
		{"numeric order", []string{"10", "", "-1", "2", "10"}, []string{"-1", "2", "10"}, []int{0, 2, 3, 4}, []int{2, 0, 1, 2}},
		{"words", []string{"dog", "cat", "", "cat"}, []string{"cat", "dog"}, []int{0, 1, 3}, []int{1, 0, 0}},
		{"mixed is lexicographic", []string{"b", "1", "a"}, []string{"1", "a", "b"}, []int{0, 1, 2}, []int{2, 0, 1}},
		{"none", []string{"", ""}, nil, nil, nil},
	} {
		names, lab, cls := encodeLabels(tc.y)
		if !slices.Equal(names, tc.names) || !slices.Equal(lab, tc.labeled) || !slices.Equal(cls, tc.classes) {
			t.Errorf("%s: got %q %v %v, want %q %v %v", tc.name, names, lab, cls, tc.names, tc.labeled, tc.classes)
		}
	}
}

// FitLabels with string labels agrees with Fit on the encoded classes, and
// predictions come back as the user's labels.
func TestFitLabels(t *testing.T) {
	s := circles(t, 60, 0.1, 3)
	lab, ys, unl := pickLabeled(s.Y, 8, 1)
	names := []string{"inner", "outer"}
	y := make([]string, len(s.Y))
	for a, i := range lab {
		y[i] = names[ys[a]]
	}
	ctx := context.Background()
	opt := &Options{Decay: 1, Lambda: 0.1}
	m, err := FitLabels(ctx, s.X, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := Fit(ctx, s.X, lab, ys, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.ClassNames(); !slices.Equal(got, names) {
		t.Fatalf("ClassNames = %q, want %q", got, names)
	}
	if got := ref.ClassNames(); !slices.Equal(got, []string{"0", "1"}) {
		t.Errorf("index-fitted ClassNames = %q", got)
	}
	xu := mat.NewDense(len(unl), 2, nil)
	truth := make([]int, len(unl))
	for a, i := range unl {
		xu.SetRow(a, s.X.RawRowView(i))
		truth[a] = s.Y[i]
	}
	p1, err := m.Predict(nil, xu)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := ref.Predict(nil, xu)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p1, p2) {
		t.Errorf("FitLabels and Fit predict differently")
	}
	words, err := m.PredictLabels(xu)
	if err != nil {
		t.Fatal(err)
	}
	for a, c := range p1 {
		if words[a] != names[c] {
			t.Fatalf("PredictLabels[%d] = %q, want %q", a, words[a], names[c])
		}
	}
	// Score on new data, ScoreRows on the training rows: same points, same
	// accuracy up to the Nyström extension's rounding.
	acc, err := m.Score(xu, truth)
	if err != nil {
		t.Fatal(err)
	}
	accRows, err := m.ScoreRows(unl, truth)
	if err != nil {
		t.Fatal(err)
	}
	if acc < 0.8 || acc != accRows {
		t.Errorf("Score = %.3f, ScoreRows = %.3f (want equal and >= 0.8)", acc, accRows)
	}
}

func TestFitLabelsErrors(t *testing.T) {
	s := circles(t, 10, 0.1, 3)
	ctx := context.Background()
	one := make([]string, 20)
	one[0], one[1] = "a", "a"
	for _, tc := range []struct {
		name string
		y    []string
		kind error
	}{
		{"short", make([]string, 5), linalg.ErrShape},
		{"no labels", make([]string, 20), linalg.ErrLabels},
		{"one class", one, linalg.ErrLabels},
	} {
		_, err := FitLabels(ctx, s.X, tc.y, nil)
		if !errors.Is(err, tc.kind) || !errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.kind)
		}
	}
	var m *Model
	if _, err := m.PredictLabels(s.X); !errors.Is(err, ErrNotFitted) {
		t.Errorf("unfitted PredictLabels: %v", err)
	}
	if errors.Is(ErrNotFitted, linalg.ErrInvalid) {
		t.Error("ErrNotFitted is an input error; it should be distinct")
	}
}
