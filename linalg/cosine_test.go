package linalg

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestCosineKernel: GramTo and CrossTo compute the Cosine kernel of the
// built-in kernels by matrix products, equal to its entry-by-entry
// definition, with an exact unit diagonal; a point with k(x, x) = 0 is an
// error, not a NaN.
func TestCosineKernel(t *testing.T) {
	ctx := context.Background()
	inners := []Kernel{Linear{}, Quadratic(), Polynomial{Degree: 3, Scale: 0.5, Offset: 2}, RBF{Gamma: 0.3}, customKernel{}}
	for _, x := range []*mat.Dense{randNormal(1, 1, 3), randNormal(2, 300, 10), withDuplicates(randNormal(4, 140, 5), 1, 40)} {
		n, p := x.Dims()
		z := randNormal(99, 130, p)
		for _, inner := range inners {
			k := Cosine{inner}
			if pl := planFor(k); (inner == Linear{} || inner == Quadratic()) && (!pl.cosine || pl.kind == kindGeneric) {
				t.Fatalf("%v: planned entry by entry", k)
			}
			g, err := Gram(ctx, k, x)
			if err != nil {
				t.Fatalf("%v: %v", k, err)
			}
			for i := 0; i < n; i++ {
				if g.At(i, i) != 1 {
					t.Fatalf("%v: K(%d,%d) = %v, want exactly 1", k, i, i, g.At(i, i))
				}
				for j := 0; j < n; j++ {
					want := k.Eval(x.RawRowView(i), x.RawRowView(j))
					if got := g.At(i, j); math.Abs(got-want) > 1e-13*float64(p) {
						t.Fatalf("%v: K(%d,%d) = %v, want %v", k, i, j, got, want)
					}
				}
			}
			c, err := Cross(ctx, k, x, z)
			if err != nil {
				t.Fatalf("%v: cross: %v", k, err)
			}
			m, _ := z.Dims()
			for i := 0; i < n; i++ {
				for j := 0; j < m; j++ {
					want := k.Eval(x.RawRowView(i), z.RawRowView(j))
					if got := c.At(i, j); math.Abs(got-want) > 1e-13*float64(p) {
						t.Fatalf("%v: cross K(%d,%d) = %v, want %v", k, i, j, got, want)
					}
				}
			}
		}
	}
	// A zero row has k(x, x) = 0 under the linear kernel, and a positive
	// value under a polynomial with an offset.
	x := randNormal(5, 70, 4)
	for j := 0; j < 4; j++ {
		x.Set(67, j, 0)
	}
	for _, tc := range []struct {
		k   Kernel
		err error
	}{
		{Cosine{Linear{}}, ErrDegenerate},
		{Cosine{Quadratic()}, nil},
		{Cosine{}, ErrSettings},
		{Cosine{RBF{Gamma: -1}}, ErrSettings},
	} {
		_, err := Gram(ctx, tc.k, x)
		if !errors.Is(err, tc.err) {
			t.Errorf("Gram %v: %v, want %v", tc.k, err, tc.err)
		}
		_, err = Cross(ctx, tc.k, randNormal(6, 9, 4), x)
		if !errors.Is(err, tc.err) {
			t.Errorf("Cross %v: %v, want %v", tc.k, err, tc.err)
		}
	}
}
