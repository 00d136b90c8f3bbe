package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestEigenSym: on a matrix where gonum's Dsyev returns values up to
// 5.6e124 (a rank-one block of 4s on seven of 24 rows, eigenvalues 28 and
// 0), the checked factorization falls back and is right; on an ordinary
// matrix it is gonum's, bit for bit.
func TestEigenSym(t *testing.T) {
	n := 24
	a := mat.NewSymDense(n, nil)
	blk := []int{3, 4, 5, 13, 14, 15, 23}
	for _, i := range blk {
		for _, j := range blk {
			a.SetSym(i, j, 4)
		}
	}
	var e EigenSym
	if !e.Factorize(a, true) {
		t.Fatal("Factorize failed")
	}
	vals := e.Values(nil)
	var v mat.Dense
	e.VectorsTo(&v)
	for k, x := range vals {
		want := 0.0
		if k == n-1 {
			want = 28
		}
		if math.Abs(x-want) > 1e-13*28 {
			t.Errorf("value %d = %v, want %v", k, x, want)
		}
	}
	var av mat.Dense
	av.Mul(a, &v)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			if r := av.At(i, j) - vals[j]*v.At(i, j); math.Abs(r) > 1e-13*28 {
				t.Fatalf("residual (%d,%d) = %v", i, j, r)
			}
		}
	}

	rng := rand.New(rand.NewPCG(3, 4))
	b := mat.NewSymDense(30, nil)
	for i := 0; i < 30; i++ {
		for j := i; j < 30; j++ {
			b.SetSym(i, j, rng.NormFloat64())
		}
	}
	var ref mat.EigenSym
	ref.Factorize(b, true)
	if !e.Factorize(b, true) {
		t.Fatal("Factorize failed on a random matrix")
	}
	var rv, ev mat.Dense
	ref.VectorsTo(&rv)
	e.VectorsTo(&ev)
	for k, x := range e.Values(nil) {
		if x != ref.Values(nil)[k] {
			t.Fatalf("value %d = %v, gonum %v", k, x, ref.Values(nil)[k])
		}
	}
	if !mat.Equal(&rv, &ev) {
		t.Fatal("vectors differ from gonum's")
	}
	// Values only.
	if !e.Factorize(a, false) || math.Abs(e.Values(nil)[n-1]-28) > 1e-12 {
		t.Fatalf("values only: %v", e.Values(nil))
	}
}
