package linalg

import (
	"context"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// tiedReference is the definition of TiedNeighbors' lists by brute force:
// for each row, every other row within the tie bound of the k-th smallest
// squared distance, as a sorted set of indices.
func tiedReference(x *mat.Dense, k int) [][]int {
	n, _ := x.Dims()
	out := make([][]int, n)
	for i := 0; i < n; i++ {
		var d []float64
		for j := 0; j < n; j++ {
			if j != i {
				d = append(d, sqDist(x.RawRowView(i), x.RawRowView(j)))
			}
		}
		sorted := slices.Clone(d)
		sort.Float64s(sorted)
		bound := TieBound(sorted[k-1])
		for j := 0; j < n; j++ {
			if j != i && sqDist(x.RawRowView(i), x.RawRowView(j)) <= bound {
				out[i] = append(out[i], j)
			}
		}
	}
	return out
}

// TestTiedNeighbors: the lists are the reference's sets, sorted by
// distance; without ties they are NearestNeighbors' lists; permuting the
// rows permutes the lists (the graph does not depend on the row order);
// TrimTies of a larger k's lists gives the smaller k's.
func TestTiedNeighbors(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	continuous := mat.NewDense(60, 3, nil)
	for i := 0; i < 60; i++ {
		for d := 0; d < 3; d++ {
			continuous.Set(i, d, rng.NormFloat64())
		}
	}
	copies := mat.NewDense(60, 2, nil) // 6 rows, 10 copies each
	for i := 0; i < 60; i++ {
		copies.Set(i, 0, float64(i%6))
		copies.Set(i, 1, float64((i%6)*(i%6)))
	}
	categorical := mat.NewDense(80, 4, nil) // a few levels: many equal distances
	for i := 0; i < 80; i++ {
		for d := 0; d < 4; d++ {
			categorical.Set(i, d, (float64(rng.IntN(3))-1)/3) // not exact in binary
		}
	}
	for _, tc := range []struct {
		name   string
		x      *mat.Dense
		k      int
		method KNNMethod
		noTies bool
	}{
		{"continuous", continuous, 5, KNNAuto, true},
		{"continuous/brute", continuous, 5, KNNBrute, true},
		{"copies", copies, 3, KNNAuto, false},
		{"copies/k=n-1", copies, 59, KNNAuto, true}, // no room for more
		{"categorical/tree", categorical, 7, KNNTree, false},
		{"categorical/brute", categorical, 7, KNNBrute, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			ptr, idx, d2, err := TiedNeighbors(ctx, tc.x, tc.k, tc.method)
			if err != nil {
				t.Fatal(err)
			}
			n, p := tc.x.Dims()
			want := tiedReference(tc.x, tc.k)
			longer := 0
			for i := 0; i < n; i++ {
				l := idx[ptr[i]:ptr[i+1]]
				if len(l) > tc.k {
					longer++
				}
				if got := slices.Sorted(slices.Values(l)); !slices.Equal(got, want[i]) {
					t.Fatalf("row %d: neighbours %v, want %v", i, got, want[i])
				}
				if !slices.IsSorted(d2[ptr[i]:ptr[i+1]]) {
					t.Fatalf("row %d: distances not sorted", i)
				}
			}
			if tc.noTies {
				ni, nd, err := NearestNeighbors(ctx, tc.x, tc.k, tc.method)
				if err != nil || !slices.Equal(ni, idx) || !slices.Equal(nd, d2) {
					t.Fatalf("without ties the lists differ from NearestNeighbors' (%v)", err)
				}
			} else if longer == 0 {
				t.Fatalf("no list took a tie")
			}
			// The same points in another order give the same lists.
			perm := rand.New(rand.NewPCG(8, 9)).Perm(n)
			xp := mat.NewDense(n, p, nil)
			for a, i := range perm {
				xp.SetRow(a, tc.x.RawRowView(i))
			}
			pp, pidx, _, err := TiedNeighbors(ctx, xp, tc.k, tc.method)
			if err != nil {
				t.Fatal(err)
			}
			for a, i := range perm {
				var got []int
				for _, b := range pidx[pp[a]:pp[a+1]] {
					got = append(got, perm[b])
				}
				slices.Sort(got)
				if !slices.Equal(got, want[i]) {
					t.Fatalf("permuted row %d (row %d): neighbours %v, want %v", a, i, got, want[i])
				}
			}
			// Lists for a smaller k trimmed from these.
			if tc.k > 2 {
				tp, ti, td, err := TrimTies(ptr, idx, d2, tc.k-2)
				if err != nil {
					t.Fatal(err)
				}
				sp, si, sd, err := TiedNeighbors(ctx, tc.x, tc.k-2, tc.method)
				if err != nil || !slices.Equal(tp, sp) || !slices.Equal(td, sd) {
					t.Fatalf("TrimTies differs from TiedNeighbors at k = %d (%v)", tc.k-2, err)
				}
				for i := 0; i < n; i++ {
					a := slices.Sorted(slices.Values(ti[tp[i]:tp[i+1]]))
					b := slices.Sorted(slices.Values(si[sp[i]:sp[i+1]]))
					if !slices.Equal(a, b) {
						t.Fatalf("TrimTies row %d: %v, want %v", i, a, b)
					}
				}
			}
		})
	}
}

// TestGraphFromNeighborLists: fixed-length lists give GraphFromNeighbors'
// graph; lists shorter than k, unsorted or with bad offsets are errors.
func TestGraphFromNeighborLists(t *testing.T) {
	ctx := context.Background()
	x := mat.NewDense(40, 2, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 40; i++ {
		x.Set(i, 0, rng.NormFloat64())
		x.Set(i, 1, rng.NormFloat64())
	}
	const k = 4
	idx, d2, err := NearestNeighbors(ctx, x, k, KNNAuto)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []GraphWeight{Binary, Heat, LocalHeat} {
		o := &GraphOptions{Weight: w}
		a, err1 := GraphFromNeighbors(40, k, idx, d2, o)
		b, err2 := GraphFromNeighborLists(40, k, fixedPtr(40, k), idx, d2, o)
		if err1 != nil || err2 != nil || !slices.Equal(a.RowPtr, b.RowPtr) || !slices.Equal(a.ColIdx, b.ColIdx) || !slices.Equal(a.Val, b.Val) {
			t.Fatalf("weight %v: lists and fixed lists differ (%v, %v)", w, err1, err2)
		}
	}
	short := fixedPtr(40, k)
	short[1]-- // row 0 has k-1, row 1 k+1
	for _, tc := range []struct {
		name string
		ptr  []int
		d2   []float64
	}{
		{"short list", short, d2},
		{"bad offsets", fixedPtr(39, k), d2},
		{"unsorted", fixedPtr(40, k), append([]float64{d2[1], d2[0]}, d2[2:]...)},
	} {
		if _, err := GraphFromNeighborLists(40, k, tc.ptr, idx, tc.d2, nil); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// BenchmarkTiedNeighbors compares the tie-inclusive lists with
// NearestNeighbors' on data without ties (the price of the k+1 search) and
// on data in copies (each row 20 times: every list is scanned).
func BenchmarkTiedNeighbors(b *testing.B) {
	const n, p, k = 2000, 20, 10
	plain := randNormal(1, n, p)
	copies := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		copies.SetRow(i, plain.RawRowView(i/20))
	}
	for _, data := range []struct {
		name string
		x    *mat.Dense
	}{{"plain", plain}, {"copies", copies}} {
		b.Run("data="+data.name+"/search=nearest", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := NearestNeighbors(context.Background(), data.x, k, KNNAuto); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("data="+data.name+"/search=tied", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, _, err := TiedNeighbors(context.Background(), data.x, k, KNNAuto); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestTiedNeighborsCap: a row with more copies than k + MaxTies keeps the
// k + MaxTies of lowest index.
func TestTiedNeighborsCap(t *testing.T) {
	n := MaxTies + 40
	x := mat.NewDense(n, 2, nil) // all copies of the origin but the last row
	x.Set(n-1, 0, 1)
	const k = 3
	ptr, idx, _, err := TiedNeighbors(context.Background(), x, k, KNNAuto)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, n / 2, n - 2} {
		l := idx[ptr[i]:ptr[i+1]]
		want := make([]int, 0, k+MaxTies)
		for j := 0; len(want) < k+MaxTies; j++ {
			if j != i {
				want = append(want, j)
			}
		}
		if !slices.Equal(l, want) {
			t.Fatalf("row %d: %d neighbours %v..., want the %d of lowest index", i, len(l), l[:min(5, len(l))], k+MaxTies)
		}
	}
}
