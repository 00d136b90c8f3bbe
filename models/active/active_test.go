package active

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestScores(t *testing.T) {
	for _, tc := range []struct {
		p            []float64
		entropy, mar float64
	}{
		{[]float64{0.5}, math.Ln2, 0},
		{[]float64{1}, 0, 1},
		{[]float64{0.5, 0.5}, math.Ln2, 0},
		{[]float64{1, 0, 0}, 0, 1},
		{[]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, math.Log(3), 0},
		{[]float64{0.7, 0.2, 0.1}, -(0.7*math.Log(0.7) + 0.2*math.Log(0.2) + 0.1*math.Log(0.1)), 0.5},
	} {
		if got, err := EntropyScore(tc.p); err != nil || math.Abs(got-tc.entropy) > 1e-15 {
			t.Errorf("entropy(%v) = %v, %v; want %v", tc.p, got, err, tc.entropy)
		}
		if got, err := MarginScore(tc.p); err != nil || math.Abs(got-tc.mar) > 1e-15 {
			t.Errorf("margin(%v) = %v, %v; want %v", tc.p, got, err, tc.mar)
		}
	}
}

func TestSelectors(t *testing.T) {
	// Rows: confident, uncertain, fairly uncertain, confident, exactly uncertain.
	probs := mat.NewDense(5, 2, []float64{0.95, 0.05, 0.55, 0.45, 0.7, 0.3, 0.01, 0.99, 0.5, 0.5})
	for _, tc := range []struct {
		name string
		s    Selector
		want []int
	}{
		{"entropy", Entropy{}, []int{4, 1, 2}},
		{"margin", Margin{}, []int{4, 1, 2}},
	} {
		got, err := tc.s.Select(nil, probs, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0] != tc.want[0] || got[1] != tc.want[1] || got[2] != tc.want[2] {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	// Binary single-column form gives the same entropy order.
	p1 := mat.NewDense(5, 1, []float64{0.95, 0.55, 0.7, 0.01, 0.5})
	got, _ := Entropy{}.Select(nil, p1, 2)
	if got[0] != 4 || got[1] != 1 {
		t.Errorf("single-column entropy: %v", got)
	}
	// Random: reproducible per (seed, round), distinct, k capped at m.
	a, _ := Random{Seed: 3, Round: 1}.Select(nil, probs, 10)
	b, _ := Random{Seed: 3, Round: 1}.Select(nil, probs, 10)
	c, _ := Random{Seed: 3, Round: 2}.Select(nil, probs, 10)
	if len(a) != 5 {
		t.Fatalf("random returned %d of 5", len(a))
	}
	same := true
	seen := map[int]bool{}
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("random selection not reproducible")
		}
		same = same && a[i] == c[i]
		seen[a[i]] = true
	}
	if len(seen) != 5 {
		t.Errorf("random repeated a candidate: %v", a)
	}
	if same {
		t.Errorf("round ignored: %v", a)
	}
}

func TestGroundTruth(t *testing.T) {
	g := GroundTruth{0, 1, 1, 0}
	got, err := g.Label(context.Background(), []int{3, 1})
	if err != nil || got[0] != 0 || got[1] != 1 {
		t.Fatalf("got %v %v", got, err)
	}
}

func ExampleEntropy() {
	probs := mat.NewDense(3, 2, []float64{0.9, 0.1, 0.5, 0.5, 0.3, 0.7})
	picked, _ := Entropy{}.Select(nil, probs, 2)
	fmt.Println(picked)
	// Output: [1 2]
}
