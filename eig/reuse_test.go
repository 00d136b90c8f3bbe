package eig

import (
	"context"
	"math"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// sameResult reports whether two results hold bit-identical pairs.
func sameResult(a, b *Result) bool {
	if a == nil || b == nil || len(a.Values) != len(b.Values) {
		return false
	}
	for i := range a.Values {
		if a.Values[i] != b.Values[i] || a.Residuals[i] != b.Residuals[i] {
			return false
		}
	}
	return mat.Equal(a.Vectors, b.Vectors)
}

// TestReuseAcrossSizes solves n = 50, then n = 10, then n = 50 again with
// the same solver values and operators: the third solve must equal the
// first and a solve by a fresh solver value.
func TestReuseAcrossSizes(t *testing.T) {
	ctx := context.Background()
	op50, _ := NewDense(withSpectrum(linspace(50, 0, 1), 11))
	op10, _ := NewDense(withSpectrum(linspace(10, 0, 1), 12))
	for _, s := range allSolvers {
		for _, which := range []Which{Largest, Smallest} {
			set := &Settings{Seed: 5, Which: which}
			first, err := s.Solve(ctx, op50, 4, set)
			if err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
			if _, err := s.Solve(ctx, op10, 3, set); err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
			again, err := s.Solve(ctx, op50, 4, set)
			if err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
			var fresh Solver
			switch s.(type) {
			case Reference:
				fresh = Reference{}
			case Lanczos:
				fresh = Lanczos{}
			case ThickRestart:
				fresh = ThickRestart{}
			case Block:
				fresh = Block{}
			}
			op50b, _ := NewDense(withSpectrum(linspace(50, 0, 1), 11))
			ref, err := fresh.Solve(ctx, op50b, 4, set)
			if err != nil {
				t.Fatal(err)
			}
			if !sameResult(first, again) || !sameResult(first, ref) {
				t.Errorf("%s/%v: results differ after a solve of another size", s.Name(), which)
			}
		}
	}
}

// sparseTest returns a symmetric tridiagonal CSR matrix of order n whose
// three largest eigenvalues are well separated, large enough (nnz >= 2^17)
// that CSR products run on several goroutines.
func sparseTest(n int) *linalg.CSR {
	var ts []linalg.Triplet
	for i := 0; i < n; i++ {
		v := 1 + float64(i%7)*0.01
		switch i {
		case 0:
			v = 100
		case 1:
			v = 90
		case 2:
			v = 80
		}
		ts = append(ts, linalg.Triplet{I: i, J: i, V: v})
		if i+1 < n {
			ts = append(ts, linalg.Triplet{I: i, J: i + 1, V: 0.1}, linalg.Triplet{I: i + 1, J: i, V: 0.1})
		}
	}
	c, err := linalg.CSRFromTriplets(n, n, ts)
	if err != nil {
		panic(err)
	}
	return c
}

// TestConcurrentSharedOperators shares Dense (large enough for parallel
// products), CSR (large enough for parallel products) and Counter operators
// between concurrent solves, as the package documentation allows. Run with
// -race; every result must equal the sequential one.
func TestConcurrentSharedOperators(t *testing.T) {
	ctx := context.Background()
	// n^2 >= parallelMin: the products use several goroutines. A smooth
	// 1-D RBF kernel has fast-decaying, well-separated top eigenvalues.
	const dn = 1030
	k := mat.NewSymDense(dn, nil)
	for i := 0; i < dn; i++ {
		for j := i; j < dn; j++ {
			u := float64(i-j) / 200
			k.SetSym(i, j, math.Exp(-u*u))
		}
	}
	dop, err := NewDense(k)
	if err != nil {
		t.Fatal(err)
	}
	sop, err := NewCSR(sparseTest(44000))
	if err != nil {
		t.Fatal(err)
	}
	cnt := &Counter{Op: sop}
	type job struct {
		name string
		s    Solver
		a    Operator
	}
	jobs := []job{
		{"block/dense", Block{}, dop},
		{"thick/dense", ThickRestart{}, dop},
		{"thick/csr", ThickRestart{}, sop},
		{"thick/counter", ThickRestart{}, cnt},
	}
	set := &Settings{Seed: 9, NoMultiplicityCheck: true, Tol: 1e-10}
	want := make([]*Result, len(jobs))
	for i, j := range jobs {
		r, err := j.s.Solve(ctx, j.a, 2, set)
		if err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		want[i] = r
	}
	before := cnt.Vectors()
	var wg sync.WaitGroup
	got := make([][2]*Result, len(jobs))
	for i, j := range jobs {
		for g := 0; g < 2; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := j.s.Solve(ctx, j.a, 2, set)
				if err != nil {
					t.Errorf("%s: %v", j.name, err)
				}
				got[i][g] = r
			}()
		}
	}
	wg.Wait()
	for i, j := range jobs {
		for g := 0; g < 2; g++ {
			if !sameResult(got[i][g], want[i]) {
				t.Errorf("%s: concurrent result %d differs from the sequential one", j.name, g)
			}
		}
	}
	if d := cnt.Vectors() - before; d != 2*int64(want[3].MatVecs) {
		t.Errorf("Counter counted %d vectors in two solves of %d products each", d, want[3].MatVecs)
	}
}

// TestPooledWorkspace: a solve that takes a workspace from the pool, left
// by a solve of another matrix of the same size (the other end, another
// seed, or one cancelled half-way), returns bit for bit what the first
// solve of its matrix returned.
func TestPooledWorkspace(t *testing.T) {
	ctx := context.Background()
	a, _ := NewDense(withSpectrum(linspace(300, 0, 1), 21))
	b, _ := NewDense(withSpectrum(linspace(300, -1, 3), 22))
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, s := range []Solver{Lanczos{}, ThickRestart{}, Block{}, Chebyshev{}} {
		set := &Settings{Seed: 5}
		first, err := s.Solve(ctx, a, 6, set)
		if err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		for _, between := range []struct {
			ctx context.Context
			set *Settings
		}{
			{ctx, &Settings{Seed: 9, Which: Smallest}},
			{ctx, &Settings{Seed: 11}},
			{cancelled, &Settings{Seed: 5}},
		} {
			_, _ = s.Solve(between.ctx, b, 6, between.set)
			again, err := s.Solve(ctx, a, 6, set)
			if err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
			if !sameResult(first, again) || first.Products != again.Products || first.Iterations != again.Iterations {
				t.Errorf("%s: a solve after %+v differs from the first", s.Name(), *between.set)
			}
		}
	}
}

// TestPooledSparseWorkspace: Chebyshev's and the Krylov engine's buffers
// for the Rayleigh-Ritz, polish and refinement steps (chebWork,
// krylov.fin) are pooled across solves; solves of sparse matrices of other
// orders and other d in between must not change a result.
func TestPooledSparseWorkspace(t *testing.T) {
	ctx := context.Background()
	ops := map[int]*CSR{}
	for _, n := range []int{600, 900} {
		c, err := NewCSR(randomSymmetricCSR(t, n, 10, uint64(n)))
		if err != nil {
			t.Fatal(err)
		}
		ops[n] = c
	}
	for _, s := range []Solver{Chebyshev{}, ThickRestart{}, Block{}} {
		set := &Settings{Seed: 3}
		first, err := s.Solve(ctx, ops[600], 20, set)
		if err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		for _, between := range []struct{ n, d int }{{900, 20}, {600, 12}, {900, 30}} {
			if _, err := s.Solve(ctx, ops[between.n], between.d, set); err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
			again, err := s.Solve(ctx, ops[600], 20, set)
			if err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
			if !sameResult(first, again) || first.Products != again.Products {
				t.Errorf("%s: a solve after n = %d, d = %d differs from the first", s.Name(), between.n, between.d)
			}
		}
	}
}
