package linalg

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fuzzData turns bytes into a small data matrix: the first byte picks the
// number of columns (1..4), then every 2 bytes give one coordinate on a
// coarse grid (many duplicates and ties) or, if the high bit is set, a
// wide-range value.
func fuzzData(b []byte) *mat.Dense {
	if len(b) < 3 {
		return nil
	}
	p := int(b[0]%4) + 1
	b = b[1:]
	vals := make([]float64, 0, len(b)/2)
	for len(b) >= 2 {
		u := binary.LittleEndian.Uint16(b)
		b = b[2:]
		if u&0x8000 != 0 {
			vals = append(vals, math.Ldexp(float64(int16(u<<1)), int(u%40)-20))
		} else {
			vals = append(vals, float64(u%7))
		}
	}
	n := len(vals) / p
	if n == 0 || n > 64 {
		return nil
	}
	return mat.NewDense(n, p, vals[:n*p])
}

func FuzzGram(f *testing.F) {
	f.Add([]byte{2, 1, 0, 2, 0, 3, 0, 1, 0, 5, 0})
	f.Add([]byte{0, 0xff, 0xff, 0x01, 0x80, 0x10, 0x00})
	f.Add([]byte{3, 9, 0x81, 9, 0x81, 9, 0x81, 9, 0x81, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, b []byte) {
		x := fuzzData(b)
		if x == nil {
			return
		}
		ctx := context.Background()
		n, _ := x.Dims()
		for _, k := range []Kernel{Linear{}, Quadratic(), RBF{Gamma: 0.5}} {
			g, err := Gram(ctx, k, x)
			if err != nil {
				t.Fatalf("%v: %v", k, err)
			}
			raw := g.RawSymmetric()
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					v := raw.Data[i*raw.Stride+j]
					if v != raw.Data[j*raw.Stride+i] {
						t.Fatalf("%v: not symmetric", k)
					}
					if _, ok := k.(RBF); ok && !(v >= 0 && v <= 1) {
						t.Fatalf("RBF entry %v outside [0,1]", v)
					}
				}
			}
			// Normalisation and alignment must not panic either.
			_ = CosineNormalize(&mat.SymDense{}, g)
			_, _ = CenteredAlignment(g, g)
		}
		// The Cosine kernels: an error (a point with k(x, x) = 0, or an
		// overflow), or a symmetric matrix of values in [-1, 1] with a
		// unit diagonal that agrees with normalising the inner Gram matrix.
		for _, inner := range []Kernel{Linear{}, Quadratic()} {
			k := Cosine{inner}
			g, err := Gram(ctx, k, x)
			if err != nil {
				if !errors.Is(err, ErrDegenerate) {
					t.Fatalf("%v: %v", k, err)
				}
				continue
			}
			gi, err := Gram(ctx, inner, x)
			if err != nil {
				t.Fatalf("%v: the Cosine succeeded, the inner kernel failed: %v", k, err)
			}
			var ref mat.SymDense
			refErr := CosineNormalize(&ref, gi)
			for i := 0; i < n; i++ {
				if g.At(i, i) != 1 {
					t.Fatalf("%v: diagonal %v", k, g.At(i, i))
				}
				for j := 0; j < n; j++ {
					v := g.At(i, j)
					if v != g.At(j, i) || !(math.Abs(v) <= 1+1e-12) {
						t.Fatalf("%v: entry (%d,%d) = %v", k, i, j, v)
					}
					if refErr == nil && math.Abs(v-ref.At(i, j)) > 1e-10 {
						t.Fatalf("%v: entry (%d,%d) = %v, normalising the Gram matrix gives %v", k, i, j, v, ref.At(i, j))
					}
				}
			}
		}
	})
}

func FuzzKNNGraph(f *testing.F) {
	f.Add([]byte{1, 1, 0, 1, 0, 1, 0, 2, 0, 3, 0, 4, 0}, uint8(2), false, uint8(0))
	f.Add([]byte{0, 1, 0, 1, 0, 1, 0, 1, 0}, uint8(1), true, uint8(1))
	f.Add([]byte{3, 0xff, 0x80, 0x01, 0x80, 5, 0, 6, 0, 0x81, 0x81, 2, 0, 3, 3, 9, 9}, uint8(3), false, uint8(2))
	f.Fuzz(func(t *testing.T, b []byte, kb uint8, mutual bool, method uint8) {
		x := fuzzData(b)
		if x == nil {
			return
		}
		n, _ := x.Dims()
		k := int(kb)
		opt := &GraphOptions{Mutual: mutual, Method: KNNMethod(method % 3), Weight: GraphWeight(kb % 2)}
		w, err := KNNGraph(context.Background(), x, k, opt)
		if k < 1 || k >= n {
			if err == nil {
				t.Fatalf("k=%d n=%d: want error", k, n)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Validate(); err != nil || !w.IsSymmetric() {
			t.Fatalf("invalid or asymmetric graph: %v", err)
		}
		for i := 0; i < n; i++ {
			if w.At(i, i) != 0 {
				t.Fatal("self loop")
			}
			if !mutual && w.RowPtr[i+1]-w.RowPtr[i] < k {
				t.Fatalf("vertex %d has fewer than k=%d neighbours", i, k)
			}
		}
		for _, kind := range []LaplacianKind{Combinatorial, Normalized} {
			if _, err := Laplacian(w, kind); err != nil {
				t.Fatal(err)
			}
		}
		Components(w)
	})
}

// FuzzTiedNeighbors: on small data with many copies and ties, the lists
// are valid, at least k long, sorted, build a graph, and (when the data
// need no scaling) are the brute-force definition's sets, in either row
// order.
func FuzzTiedNeighbors(f *testing.F) {
	f.Add([]byte{1, 1, 0, 1, 0, 1, 0, 2, 0, 3, 0, 4, 0}, uint8(2), uint8(0))
	f.Add([]byte{0, 1, 0, 1, 0, 1, 0, 1, 0, 2, 0}, uint8(1), uint8(1))
	f.Add([]byte{3, 0xff, 0x80, 0x01, 0x80, 5, 0, 6, 0, 0x81, 0x81, 2, 0, 3, 3, 9, 9}, uint8(3), uint8(2))
	f.Fuzz(func(t *testing.T, b []byte, kb uint8, method uint8) {
		x := fuzzData(b)
		if x == nil {
			return
		}
		n, p := x.Dims()
		k := int(kb)
		ptr, idx, d2, err := TiedNeighbors(context.Background(), x, k, KNNMethod(method%3))
		if k < 1 || k >= n {
			if err == nil {
				t.Fatalf("k=%d n=%d: want error", k, n)
			}
			return
		}
		if err != nil {
			if errors.Is(err, ErrDegenerate) {
				return // distances beyond float64
			}
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			l := idx[ptr[i]:ptr[i+1]]
			if len(l) < k || len(l) > k+MaxTies || slices.Contains(l, i) || !slices.IsSorted(d2[ptr[i]:ptr[i+1]]) {
				t.Fatalf("row %d: list %v, distances %v", i, l, d2[ptr[i]:ptr[i+1]])
			}
		}
		if _, err := GraphFromNeighborLists(n, k, ptr, idx, d2, nil); err != nil {
			t.Fatal(err)
		}
		_, _, maxAbs, _ := checkDataMax("fuzz", x)
		if rangeScale(maxAbs, 4*p) != 0 {
			return
		}
		want := tiedReference(x, k)
		rev := mat.NewDense(n, p, nil)
		for i := 0; i < n; i++ {
			rev.SetRow(n-1-i, x.RawRowView(i))
		}
		rp, ridx, _, err := TiedNeighbors(context.Background(), rev, k, KNNMethod(method%3))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			got := slices.Sorted(slices.Values(idx[ptr[i]:ptr[i+1]]))
			var back []int
			for _, j := range ridx[rp[n-1-i]:rp[n-i]] {
				back = append(back, n-1-j)
			}
			slices.Sort(back)
			if len(want[i]) <= k+MaxTies && (!slices.Equal(got, want[i]) || !slices.Equal(back, want[i])) {
				t.Fatalf("row %d: %v, reversed %v, want %v", i, got, back, want[i])
			}
		}
	})
}
