package eig

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// randomSymmetricCSR returns an n x n symmetric matrix with about perRow
// stored entries in each row, some rows empty.
func randomSymmetricCSR(t *testing.T, n, perRow int, seed uint64) *linalg.CSR {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var tr []linalg.Triplet
	for i := 0; i < n; i++ {
		if i%17 == 3 {
			continue // an empty row (and column)
		}
		for range perRow / 2 {
			j := rng.IntN(n)
			if j%17 == 3 {
				continue
			}
			v := rng.NormFloat64()
			tr = append(tr, linalg.Triplet{I: i, J: j, V: v}, linalg.Triplet{I: j, J: i, V: v})
		}
	}
	a, err := linalg.CSRFromTriplets(n, n, tr)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestCSRProduct checks that the operator's product (32-bit indices, no
// bounds checks) is bit for bit linalg's, serial and split over goroutines,
// and that changing the wrapped matrix's slices afterwards cannot take it
// out of bounds.
func TestCSRProduct(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n, perRow int
		procs     int
	}{
		{"small", 50, 6, 1},
		{"one row", 1, 2, 1},
		{"serial", 3000, 20, 1},
		{"parallel", 20000, 20, 2}, // 400,000 entries: split in two
		{"parallel three", 20000, 20, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tc.procs))
			a := randomSymmetricCSR(t, tc.n, tc.perRow, uint64(tc.n))
			op, err := NewCSR(a)
			if err != nil {
				t.Fatal(err)
			}
			if op.ptr == nil {
				t.Fatal("no compact copy")
			}
			rng := rand.New(rand.NewPCG(7, 7))
			x := make([]float64, tc.n)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			want := make([]float64, tc.n)
			got := make([]float64, tc.n)
			a.MulVecTo(want, x)
			op.MulVecTo(got, x)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("row %d: %v, linalg %v", i, got[i], want[i])
				}
			}
			for _, b := range []int{4, 3} { // the compact kernel, linalg's
				xb := make([]float64, b*tc.n)
				for i := range xb {
					xb[i] = rng.NormFloat64()
				}
				wantB := make([]float64, b*tc.n)
				gotB := make([]float64, b*tc.n)
				a.MulBlockTo(wantB, xb, b)
				op.mulBlock(gotB, xb, b)
				for i := range wantB {
					if gotB[i] != wantB[i] {
						t.Fatalf("block of %d, entry %d: %v, linalg %v", b, i, gotB[i], wantB[i])
					}
				}
			}
			// The caller breaks the wrapped matrix (against the
			// documentation): the product keeps to its own copy.
			a.ColIdx = a.ColIdx[:0]
			a.Val = nil
			op.MulVecTo(got, x)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("after the change, row %d: %v, want %v", i, got[i], want[i])
				}
			}
			// A malformed matrix passed as a raw *linalg.CSR gets no
			// compact copy (the product is then linalg's, which fails as
			// it always did), never a kernel out of bounds.
			c := &CSR{a: a, n: a.Rows}
			if c.compact(); c.ptr != nil {
				t.Error("compact copy of a malformed matrix")
			}
		})
	}
}

// TestCSRRows checks that the rows of a block applied to a CSR (mulVecs
// takes them four at a time through the compact kernel) are bit for bit
// the vector products, and the operator calls that calls reports.
func TestCSRRows(t *testing.T) {
	a := randomSymmetricCSR(t, 300, 8, 3)
	op, err := NewCSR(a)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for _, tc := range []struct{ rows, calls int }{{1, 1}, {3, 3}, {4, 1}, {7, 4}, {8, 2}, {21, 6}} {
		x := mat.NewDense(tc.rows, 300, nil)
		for i := range x.RawMatrix().Data {
			x.RawMatrix().Data[i] = rng.NormFloat64()
		}
		got := mat.NewDense(tc.rows, 300, nil)
		mulVecs(op, got, x)
		want := make([]float64, 300)
		for r := 0; r < tc.rows; r++ {
			a.MulVecTo(want, x.RawRowView(r))
			for i, w := range want {
				if g := got.At(r, i); g != w {
					t.Fatalf("%d rows: row %d, entry %d: %v, vector product %v", tc.rows, r, i, g, w)
				}
			}
		}
		if c := calls(op, tc.rows); c != tc.calls {
			t.Errorf("%d rows: calls %d, want %d", tc.rows, c, tc.calls)
		}
		if c := calls(a, tc.rows); c != tc.rows {
			t.Errorf("%d rows of a *linalg.CSR: calls %d, want %d", tc.rows, c, tc.rows)
		}
	}
}

// BenchmarkCSRProduct compares the operator's products on 32-bit indices
// with linalg.CSR's on the same matrices (10-NN graph Laplacians of
// Gaussian points in 10 dimensions, as in BenchmarkVsEigsh): one vector (b=1, MulVecTo) and the Chebyshev
// filter's blocks of four interleaved vectors (b=4).
func BenchmarkCSRProduct(b *testing.B) {
	for _, n := range []int{2000, 4000, 20000} {
		pts := mat.NewDense(n, 10, nil)
		rng := rand.New(rand.NewPCG(1, 0))
		for i := range pts.RawMatrix().Data {
			pts.RawMatrix().Data[i] = rng.NormFloat64()
		}
		w, err := linalg.KNNGraph(context.Background(), pts, 10, nil)
		if err != nil {
			b.Fatal(err)
		}
		a, err := linalg.Laplacian(w, linalg.Combinatorial)
		if err != nil {
			b.Fatal(err)
		}
		op, err := NewCSR(a)
		if err != nil {
			b.Fatal(err)
		}
		x := make([]float64, 4*n)
		for i := range x {
			x[i] = float64(i%7) - 3
		}
		dst := make([]float64, 4*n)
		for _, bs := range []int{1, 4} {
			for _, impl := range []string{"linalg", "eig"} {
				b.Run(fmt.Sprintf("n=%d/b=%d/impl=%s", n, bs, impl), func(b *testing.B) {
					for b.Loop() {
						switch {
						case bs == 1 && impl == "linalg":
							a.MulVecTo(dst[:n], x[:n])
						case bs == 1:
							op.MulVecTo(dst[:n], x[:n])
						case impl == "linalg":
							a.MulBlockTo(dst, x, bs)
						default:
							op.mulBlock(dst, x, bs)
						}
					}
				})
			}
		}
	}
}
