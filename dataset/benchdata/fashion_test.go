package benchdata

import (
	"slices"
	"testing"
)

// TestFashionDraws checks that the labeled sets hold the asked number of
// rows per class, that labeled and unlabeled rows partition the data, that
// a seed gives the same draw and another seed another one, and pins the
// first rows of draw 1 (a change of the generator would move the
// benchmark's labels and its peers' apart).
func TestFashionDraws(t *testing.T) {
	y := make([]int, 700)
	for i := range y {
		y[i] = (i * 13) % 10
	}
	check := func(name string, lab, ys, unl []int, per int) {
		t.Helper()
		count := map[int]int{}
		seen := make([]bool, len(y))
		for a, i := range lab {
			if ys[a] != y[i] {
				t.Fatalf("%s: label of row %d is %d, want %d", name, i, ys[a], y[i])
			}
			count[y[i]]++
			seen[i] = true
		}
		for _, i := range unl {
			if seen[i] {
				t.Fatalf("%s: row %d both labeled and unlabeled", name, i)
			}
			seen[i] = true
		}
		if slices.Contains(seen, false) || len(lab)+len(unl) != len(y) {
			t.Fatalf("%s: rows lost", name)
		}
		for c := 0; c < 10; c++ {
			if count[c] != per {
				t.Fatalf("%s: class %d has %d labeled rows, want %d", name, c, count[c], per)
			}
		}
	}
	lab, ys, unl := FashionRule(y)
	check("rule", lab, ys, unl, 10)
	for _, i := range lab {
		if i%7 != 3 {
			t.Fatalf("rule took row %d", i)
		}
	}
	a, ya, ua := PerClass(y, 10, 1)
	check("draw 1", a, ya, ua, 10)
	b, _, _ := PerClass(y, 10, 1)
	c, _, _ := PerClass(y, 10, 2)
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Fatal("a seed must give one draw, another seed another")
	}
	if want := []int{5, 12, 18, 25, 34}; !slices.Equal(a[:5], want) {
		t.Errorf("draw 1 starts %v, want %v", a[:5], want)
	}
}
