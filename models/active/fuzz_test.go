package active

import (
	"errors"
	"math"
	"testing"

	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// FuzzSelectors hands every selector a pool built from the bytes: class
// probabilities with ties, rows at exactly 0 and 1, a NaN now and then, two
// or three classes, feature rows with exact duplicates, and k from 0 to
// past the pool. Each must return an error of the vocabulary or min(k, n)
// distinct candidates in range; Fisher's batch must not take two exact
// copies while a distinct candidate is left out (its documented rule).
func FuzzSelectors(f *testing.F) {
	f.Add([]byte{10, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{30, 10, 3, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{4, 9, 2, 64, 64, 64})
	f.Add([]byte{20, 5, 3, 128, 128, 0, 255, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		n := 1 + int(data[0])%40
		k := int(data[1]) % (n + 3)
		c := 2 + int(data[2])%2
		d := 1 + int(data[2]/2)%4
		next := robust.NewBytes(data[3:]).Next
		probs := mat.NewDense(n, c, nil)
		feats := mat.NewDense(n, d, nil)
		hasNaN := false
		for i := 0; i < n; i++ {
			if i > 0 && next()%4 == 0 {
				// an exact copy of the previous candidate
				copy(probs.RawRowView(i), probs.RawRowView(i-1))
				copy(feats.RawRowView(i), feats.RawRowView(i-1))
				continue
			}
			row := probs.RawRowView(i)
			var s float64
			for j := range row {
				row[j] = float64(next() % 5)
				s += row[j]
			}
			if s == 0 {
				row[0], s = 1, 1 // a probability of exactly 1
			}
			for j := range row {
				row[j] /= s
			}
			if next() == 255 {
				row[0], hasNaN = math.NaN(), true
			}
			for j := range feats.RawRowView(i) {
				feats.Set(i, j, float64(int(next())%9-4)/2)
			}
		}
		for _, s := range []struct {
			name string
			sel  Selector
		}{
			{"entropy", Entropy{}},
			{"margin", Margin{}},
			{"random", Random{Seed: uint64(len(data))}},
			{"kcenter", KCenter{Features: feats}},
			{"fisher", Fisher{Features: feats}},
			{"fisher-shortlist", Fisher{Features: feats, Shortlist: 2}},
		} {
			got, err := s.sel.Select(nil, probs, k)
			if err != nil {
				if !errors.Is(err, linalg.ErrInvalid) {
					t.Fatalf("%s: an error of no kind of the vocabulary: %v", s.name, err)
				}
				continue
			}
			if hasNaN {
				t.Fatalf("%s: accepted probabilities with a NaN", s.name)
			}
			if want := min(k, n); len(got) != want {
				t.Fatalf("%s: %d candidates for k = %d and a pool of %d", s.name, len(got), k, n)
			}
			seen := make([]bool, n)
			for _, i := range got {
				if i < 0 || i >= n || seen[i] {
					t.Fatalf("%s: candidate %d out of range or twice in %v", s.name, i, got)
				}
				seen[i] = true
			}
			if s.name != "fisher" {
				continue
			}
			// no two exact copies while a distinct candidate is left out
			same := func(a, b int) bool {
				for j := 0; j < c; j++ {
					if probs.At(a, j) != probs.At(b, j) {
						return false
					}
				}
				for j := 0; j < d; j++ {
					if feats.At(a, j) != feats.At(b, j) {
						return false
					}
				}
				return true
			}
			dup := false
			for x := 0; x < len(got); x++ {
				for y := 0; y < x; y++ {
					dup = dup || same(got[x], got[y])
				}
			}
			if !dup {
				continue
			}
			for i := 0; i < n; i++ {
				if seen[i] {
					continue
				}
				distinct := true
				for _, g := range got {
					distinct = distinct && !same(i, g)
				}
				if distinct {
					t.Fatalf("fisher: batch %v takes two copies while candidate %d, distinct from all, is left out", got, i)
				}
			}
		}
	})
}
