package metric

import (
	"math"
	"reflect"
	"testing"
)

func TestNewChunklets(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		c      Constraints
		groups [][]int
		of     []int
		disc   [][]int
	}{
		{
			name: "chains, a singleton and an unconstrained point",
			n:    7,
			c: Constraints{
				Similar:    []Pair{{1, 2}, {0, 1}, {5, 4}},
				Dissimilar: []Pair{{0, 4}, {2, 5}, {3, 0}},
			},
			groups: [][]int{{0, 1, 2}, {3}, {4, 5}},
			of:     []int{0, 0, 0, 1, 2, 2, -1},
			disc:   [][]int{{1, 2}, {0}, {0}},
		},
		{
			name:   "no constraints",
			n:      3,
			of:     []int{-1, -1, -1},
			groups: nil,
			disc:   [][]int{},
		},
		{
			name:   "repeated pairs count once",
			n:      4,
			c:      Constraints{Similar: []Pair{{0, 1}, {1, 0}}, Dissimilar: []Pair{{0, 2}, {2, 1}, {3, 2}}},
			groups: [][]int{{0, 1}, {2}, {3}},
			of:     []int{0, 0, 1, 2},
			disc:   [][]int{{1}, {0, 2}, {1}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch, err := NewChunklets(tc.n, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ch.Groups, tc.groups) {
				t.Errorf("groups %v, want %v", ch.Groups, tc.groups)
			}
			if !reflect.DeepEqual(ch.Of, tc.of) {
				t.Errorf("of %v, want %v", ch.Of, tc.of)
			}
			if !reflect.DeepEqual(ch.Discriminative, tc.disc) {
				t.Errorf("discriminative %v, want %v", ch.Discriminative, tc.disc)
			}
		})
	}
}

func TestSampleConstraints(t *testing.T) {
	for _, tc := range []struct {
		name     string
		y        []int
		sim, dis int
	}{
		{"balanced", []int{0, 1, 0, 1, 0, 1, 2, 2, 2, 0}, 5, 7},
		{"every pair", []int{0, 0, 1, 1, 1}, 4, 6},
		{"unbalanced", append(make([]int, 40), 1, 1), 30, 20},
		{"none", []int{3, 5}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := SampleConstraints(tc.y, tc.sim, tc.dis, 42)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Similar) != tc.sim || len(c.Dissimilar) != tc.dis {
				t.Fatalf("got %d/%d pairs, want %d/%d", len(c.Similar), len(c.Dissimilar), tc.sim, tc.dis)
			}
			seen := map[Pair]bool{}
			for _, p := range c.Similar {
				if p.I >= p.J || tc.y[p.I] != tc.y[p.J] || seen[p] {
					t.Errorf("bad similar pair %v", p)
				}
				seen[p] = true
			}
			for _, p := range c.Dissimilar {
				if p.I >= p.J || tc.y[p.I] == tc.y[p.J] || seen[p] {
					t.Errorf("bad dissimilar pair %v", p)
				}
				seen[p] = true
			}
			again, _ := SampleConstraints(tc.y, tc.sim, tc.dis, 42)
			if !reflect.DeepEqual(c, again) {
				t.Error("same seed, different pairs")
			}
		})
	}
}

// Every pair is equally likely: over many draws of one pair each, the
// counts of the 6 dissimilar pairs of y = {0,0,1,1,1} stay within 5
// standard deviations of their mean.
func TestSampleConstraintsUniform(t *testing.T) {
	y := []int{0, 0, 1, 1, 1}
	count := map[Pair]int{}
	const draws = 6000
	for s := uint64(0); s < draws; s++ {
		c, err := SampleConstraints(y, 0, 1, s)
		if err != nil {
			t.Fatal(err)
		}
		count[c.Dissimilar[0]]++
	}
	if len(count) != 6 {
		t.Fatalf("%d distinct pairs drawn, want 6", len(count))
	}
	mean := float64(draws) / 6
	sd := math.Sqrt(draws * (1.0 / 6) * (5.0 / 6))
	for p, k := range count {
		if math.Abs(float64(k)-mean) > 5*sd {
			t.Errorf("pair %v drawn %d times, expected %.0f ± %.0f", p, k, mean, sd)
		}
	}
}

func TestPairwiseAccuracy(t *testing.T) {
	for _, tc := range []struct {
		name        string
		truth, pred []int
		want        float64
	}{
		{"identical up to names", []int{0, 0, 1, 1}, []int{5, 5, 2, 2}, 1},
		{"all together", []int{0, 0, 1, 1}, []int{0, 0, 0, 0}, 2.0 / 6},
		{"all apart", []int{0, 0, 1, 1}, []int{0, 1, 2, 3}, 4.0 / 6},
		// Points 1 and 3 swapped: only the pairs (0,2) and (1,3) agree.
		{"one point moved", []int{0, 0, 1, 1}, []int{0, 1, 1, 0}, 2.0 / 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PairwiseAccuracy(tc.truth, tc.pred)
			if err != nil {
				t.Fatal(err)
			}
			// Brute force over the pairs, eq. 5.12 as written.
			agree := 0
			n := len(tc.truth)
			for i := 0; i < n; i++ {
				for j := 0; j < i; j++ {
					if (tc.truth[i] == tc.truth[j]) == (tc.pred[i] == tc.pred[j]) {
						agree++
					}
				}
			}
			brute := float64(agree) / float64(n*(n-1)/2)
			if math.Abs(got-brute) > 1e-15 || math.Abs(got-tc.want) > 1e-15 {
				t.Errorf("got %v, brute force %v, want %v", got, brute, tc.want)
			}
		})
	}
}
