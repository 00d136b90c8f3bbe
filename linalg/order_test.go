package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// shuffledPath returns the path graph 0-1-...-(n-1) with its nodes
// renumbered at random, as a symmetric CSR with weights i+j+1 (in the
// original numbering) so that entries can be traced.
func shuffledPath(t *testing.T, n int, seed uint64) (*CSR, []int) {
	t.Helper()
	label := rand.New(rand.NewPCG(seed, 1)).Perm(n) // original -> stored
	var ts []Triplet
	for i := 0; i+1 < n; i++ {
		w := float64(2*i + 2)
		ts = append(ts, Triplet{I: label[i], J: label[i+1], V: w}, Triplet{I: label[i+1], J: label[i], V: w})
	}
	a, err := CSRFromTriplets(n, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	return a, label
}

// bandwidth returns max |i - j| over the stored entries.
func bandwidth(a *CSR) int {
	b := 0
	for i := 0; i < a.Rows; i++ {
		for _, j := range a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]] {
			b = max(b, i-j, j-i)
		}
	}
	return b
}

func TestBandwidthOrder(t *testing.T) {
	for _, n := range []int{1, 2, 7, 500} {
		a, _ := shuffledPath(t, n, uint64(n))
		perm := BandwidthOrder(a)
		sorted := slices.Clone(perm)
		slices.Sort(sorted)
		for i, v := range sorted {
			if v != i {
				t.Fatalf("n=%d: order is not a permutation: %v", n, perm)
			}
		}
		b := PermuteSym(a, perm)
		if err := b.Validate(); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if n > 1 && bandwidth(b) != 1 {
			t.Errorf("n=%d: bandwidth %d after the order (from %d), want 1 for a path", n, bandwidth(b), bandwidth(a))
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if b.At(i, j) != a.At(perm[i], perm[j]) {
					t.Fatalf("n=%d: (PAPᵀ)(%d,%d) = %g, want a(%d,%d) = %g", n, i, j, b.At(i, j), perm[i], perm[j], a.At(perm[i], perm[j]))
				}
			}
			if n > 50 {
				break // the entries of a few rows suffice at this size
			}
		}
	}
	// Two components and an isolated node: every node ordered once.
	a, err := CSRFromTriplets(5, 5, []Triplet{{0, 3, 1}, {3, 0, 1}, {1, 4, 2}, {4, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	perm := BandwidthOrder(a)
	if s := slices.Sorted(slices.Values(perm)); !slices.Equal(s, []int{0, 1, 2, 3, 4}) {
		t.Errorf("order %v is not a permutation of 0..4", perm)
	}
}

func TestMulBlockTo(t *testing.T) {
	a, _ := shuffledPath(t, 300, 3)
	n := a.Rows
	rng := rand.New(rand.NewPCG(4, 5))
	for _, b := range []int{1, 3, 4, 8} {
		x := make([]float64, n*b)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		dst := make([]float64, n*b)
		for i := range dst {
			dst[i] = math.NaN() // overwritten, never accumulated
		}
		a.MulBlockTo(dst, x, b)
		col, y := make([]float64, n), make([]float64, n)
		for k := 0; k < b; k++ {
			for j := range col {
				col[j] = x[j*b+k]
			}
			a.MulVecTo(y, col)
			for i := range y {
				if math.Abs(y[i]-dst[i*b+k]) > 1e-12*(1+math.Abs(y[i])) {
					t.Fatalf("b=%d: entry (%d,%d) = %g, MulVecTo gives %g", b, i, k, dst[i*b+k], y[i])
				}
			}
		}
	}
}
