package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randCSR(seed uint64, r, c, nnz int) (*CSR, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 1))
	ts := make([]Triplet, nnz)
	ref := mat.NewDense(max(r, 1), max(c, 1), nil)
	for k := range ts {
		ts[k] = Triplet{rng.IntN(r), rng.IntN(c), rng.NormFloat64()}
		ref.Set(ts[k].I, ts[k].J, ref.At(ts[k].I, ts[k].J)+ts[k].V) // duplicates sum
	}
	a, err := CSRFromTriplets(r, c, ts)
	if err != nil {
		panic(err)
	}
	return a, ref
}

func TestCSR(t *testing.T) {
	cases := []struct{ r, c, nnz int }{
		{1, 1, 1}, {5, 3, 0}, {7, 9, 20}, {50, 40, 300}, // duplicates likely
		{3000, 3000, 400000}, // above the parallel threshold of MulVecTo
	}
	for _, tc := range cases {
		a, ref := randCSR(uint64(tc.r), tc.r, tc.c, tc.nnz)
		if err := a.Validate(); err != nil {
			t.Fatal(err)
		}
		if r, c := a.Dims(); r != tc.r || c != tc.c {
			t.Fatalf("dims %d %d", r, c)
		}
		if tc.r <= 50 {
			for i := 0; i < tc.r; i++ {
				for j := 0; j < tc.c; j++ {
					// At and ToDense return the summed value exactly?
					// Summation order of duplicates may differ: 1e-14.
					if math.Abs(a.At(i, j)-ref.At(i, j)) > 1e-14 || math.Abs(a.ToDense().At(i, j)-ref.At(i, j)) > 1e-14 {
						t.Fatalf("entry (%d,%d)", i, j)
					}
					if a.T().At(j, i) != a.At(i, j) {
						t.Fatal("transpose")
					}
				}
			}
		}
		x := make([]float64, tc.c)
		for i := range x {
			x[i] = math.Sin(float64(i))
		}
		dst := make([]float64, tc.r)
		for i := range dst {
			dst[i] = math.NaN() // overwrite semantics: must not leak
		}
		a.MulVecTo(dst, x)
		want := mat.NewVecDense(max(tc.r, 1), nil)
		want.MulVec(ref, mat.NewVecDense(max(tc.c, 1), append(x, make([]float64, max(tc.c, 1)-tc.c)...)))
		for i := range dst {
			// Row sums of up to ~150 O(1) products: 1e-12 absolute.
			if math.Abs(dst[i]-want.AtVec(i)) > 1e-12 {
				t.Fatalf("%dx%d: MulVecTo row %d: %v vs %v", tc.r, tc.c, i, dst[i], want.AtVec(i))
			}
		}
	}
	sym, _ := CSRFromTriplets(2, 2, []Triplet{{0, 1, 2}, {1, 0, 2}, {1, 1, 1}})
	asym, _ := CSRFromTriplets(2, 2, []Triplet{{0, 1, 2}, {1, 0, 3}})
	rect, _ := CSRFromTriplets(2, 3, nil)
	if !sym.IsSymmetric() || asym.IsSymmetric() || rect.IsSymmetric() {
		t.Fatal("IsSymmetric")
	}
	if rect.NNZ() != 0 || !rect.ToDense().IsEmpty() == (rect.Rows == 0) {
		t.Fatal("empty pattern")
	}
}

func TestCSRBadInput(t *testing.T) {
	cases := []struct {
		name     string
		r, c     int
		ptr, col []int
		val      []float64
	}{
		{"negative", -1, 2, []int{0}, nil, nil},
		{"ptr length", 2, 2, []int{0, 1}, []int{0}, []float64{1}},
		{"ptr start", 1, 2, []int{1, 1}, nil, nil},
		{"nnz mismatch", 1, 2, []int{0, 2}, []int{0}, []float64{1}},
		{"decreasing", 2, 2, []int{0, 1, 0}, nil, nil},
		{"col range", 1, 2, []int{0, 1}, []int{2}, []float64{1}},
		{"col order", 1, 3, []int{0, 2}, []int{1, 0}, []float64{1, 1}},
		{"col dup", 1, 3, []int{0, 2}, []int{1, 1}, []float64{1, 1}},
		{"nan", 1, 3, []int{0, 1}, []int{1}, []float64{math.NaN()}},
	}
	for _, c := range cases {
		if a, err := NewCSR(c.r, c.c, c.ptr, c.col, c.val); err == nil || a != nil {
			t.Errorf("%s: want error", c.name)
		}
	}
	bad := [][]Triplet{{{2, 0, 1}}, {{0, -1, 1}}, {{0, 0, math.Inf(1)}}}
	for _, ts := range bad {
		if _, err := CSRFromTriplets(2, 2, ts); err == nil {
			t.Errorf("%v: want error", ts)
		}
	}
	if _, err := CSRFromTriplets(-1, 2, nil); err == nil {
		t.Error("negative dims: want error")
	}
	ok, err := NewCSR(2, 2, []int{0, 1, 2}, []int{1, 0}, []float64{1, 1})
	if err != nil || ok.At(0, 1) != 1 {
		t.Fatal(err)
	}
	_ = errors.New
}

// TestCSRScaled: alpha A has its own values and shares the pattern; a is
// unchanged.
func TestCSRScaled(t *testing.T) {
	a := &CSR{Rows: 2, Cols: 2, RowPtr: []int{0, 2, 3}, ColIdx: []int{0, 1, 1}, Val: []float64{1, -2, 3}}
	b := a.Scaled(-2)
	if !slices.Equal(b.Val, []float64{-2, 4, -6}) || !slices.Equal(a.Val, []float64{1, -2, 3}) {
		t.Fatalf("Scaled(-2) = %v, a = %v", b.Val, a.Val)
	}
	if &b.RowPtr[0] != &a.RowPtr[0] || &b.ColIdx[0] != &a.ColIdx[0] || b.Rows != 2 || b.Cols != 2 {
		t.Fatal("the pattern is not shared")
	}
}

// TestForRows checks that ForRows covers every row exactly once, in
// disjoint ranges, and splits a large matrix among the goroutines.
func TestForRows(t *testing.T) {
	for _, tc := range []struct {
		rows, nnz, procs, wantCalls int
	}{
		{7, 20, 2, 1},        // small: one call
		{5000, 400000, 1, 1}, // one processor
		{5000, 400000, 2, 2}, // two ranges
		{5000, 400000, 3, 3}, // three
		{5000, 100000, 4, 1}, // under two goroutines' worth of entries
	} {
		a, _ := randCSR(uint64(tc.rows+tc.procs), tc.rows, tc.rows, tc.nnz)
		prev := runtime.GOMAXPROCS(tc.procs)
		seen := make([]atomic.Int32, tc.rows)
		var calls atomic.Int32
		a.ForRows(func(lo, hi int) {
			calls.Add(1)
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		runtime.GOMAXPROCS(prev)
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("rows=%d procs=%d: row %d covered %d times", tc.rows, tc.procs, i, c)
			}
		}
		if c := int(calls.Load()); c != tc.wantCalls {
			t.Errorf("rows=%d nnz=%d procs=%d: %d calls, want %d", tc.rows, tc.nnz, tc.procs, c, tc.wantCalls)
		}
	}
}

// TestIsSymmetric: the cursor check against the dense definition on random
// patterns, symmetric ones and each with one entry changed, dropped or
// added (at the end of a row too, where no cursor reaches it).
func TestIsSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(7)
		var tr []Triplet
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				if rng.IntN(3) == 0 {
					v := float64(1 + rng.IntN(3))
					tr = append(tr, Triplet{i, j, v})
					if i != j {
						tr = append(tr, Triplet{j, i, v})
					}
				}
			}
		}
		switch trial % 4 {
		case 1:
			if len(tr) > 0 {
				tr[rng.IntN(len(tr))].V += 1
			}
		case 2:
			if len(tr) > 0 {
				k := rng.IntN(len(tr))
				tr = append(tr[:k], tr[k+1:]...)
			}
		case 3:
			i, j := rng.IntN(n), rng.IntN(n)
			tr = append(tr, Triplet{i, j, 5}) // summed with an entry already there, or new
		}
		a, err := CSRFromTriplets(n, n, tr)
		if err != nil {
			t.Fatal(err)
		}
		d := a.ToDense()
		want := true
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if d.At(i, j) != d.At(j, i) {
					want = false
				}
			}
		}
		if got := a.IsSymmetric(); got != want {
			t.Fatalf("trial %d: IsSymmetric %v, want %v\n%v", trial, got, want, mat.Formatted(d))
		}
	}
}
