package eig

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// randomSparseSPD returns a random sparse symmetric matrix of order n with
// about deg off-diagonal entries per row, made diagonally dominant (so
// positive definite) by margin.
func randomSparseSPD(n, deg int, margin float64, seed uint64) *linalg.CSR {
	rng := rand.New(rand.NewPCG(seed, 0xc401))
	var ts []linalg.Triplet
	rowSum := make([]float64, n)
	for i := 0; i < n; i++ {
		for k := 0; k < deg/2; k++ {
			j := rng.IntN(n)
			if j == i {
				continue
			}
			v := rng.NormFloat64()
			ts = append(ts, linalg.Triplet{I: i, J: j, V: v}, linalg.Triplet{I: j, J: i, V: v})
			rowSum[i] += math.Abs(v)
			rowSum[j] += math.Abs(v)
		}
	}
	for i := 0; i < n; i++ {
		ts = append(ts, linalg.Triplet{I: i, J: i, V: rowSum[i] + margin})
	}
	a, err := linalg.CSRFromTriplets(n, n, ts)
	if err != nil {
		panic(err)
	}
	return a
}

// grid2D returns the five-point Laplacian of an nx x ny grid plus shift I.
func grid2D(nx, ny int, shift float64) *linalg.CSR {
	var ts []linalg.Triplet
	for y := 0; y < ny; y++ {
		for x := 0; x < nx; x++ {
			i := y*nx + x
			deg := 0.0
			for _, nb := range [][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if nb[0] < 0 || nb[0] >= nx || nb[1] < 0 || nb[1] >= ny {
					continue
				}
				ts = append(ts, linalg.Triplet{I: i, J: nb[1]*nx + nb[0], V: -1})
				deg++
			}
			ts = append(ts, linalg.Triplet{I: i, J: i, V: deg + shift})
		}
	}
	a, err := linalg.CSRFromTriplets(nx*ny, nx*ny, ts)
	if err != nil {
		panic(err)
	}
	return a
}

// TestSparseCholeskySolve checks the solves against the matrix: the
// relative residual ||b - (A - sigma I) x|| / (||A - sigma I|| ||x||)
// must be a small multiple of n eps, on random sparse matrices, grids
// and the edge cases n = 1 and a diagonal matrix.
func TestSparseCholeskySolve(t *testing.T) {
	for _, c := range []struct {
		name  string
		a     *linalg.CSR
		sigma float64
	}{
		{"random/n=300", randomSparseSPD(300, 8, 0.1, 1), 0},
		{"random/n=2000/shift", randomSparseSPD(2000, 6, 1, 2), 0.5},
		{"grid/30x40", grid2D(30, 40, 1e-3), 0},
		{"grid/30x40/negative-shift", grid2D(30, 40, 0), -1e-6},
		{"n=1", mustTriplets(1, []linalg.Triplet{{I: 0, J: 0, V: 4}}), 1},
		{"diagonal", mustTriplets(3, []linalg.Triplet{{I: 0, J: 0, V: 1}, {I: 1, J: 1, V: 2}, {I: 2, J: 2, V: 3}}), 0},
		{"missing-diagonal", mustTriplets(2, []linalg.Triplet{{I: 0, J: 1, V: 1}, {I: 1, J: 0, V: 1}}), -2},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := NewSparseCholesky(c.a, c.sigma)
			if err != nil {
				t.Fatal(err)
			}
			n := c.a.Rows
			if r, cc := f.Dims(); r != n || cc != n || f.Sigma() != c.sigma {
				t.Fatalf("Dims %d x %d, Sigma %g", r, cc, f.Sigma())
			}
			rng := rand.New(rand.NewPCG(3, 3))
			b := make([]float64, n)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			x := make([]float64, n)
			f.SolveTo(x, b)
			ax := make([]float64, n)
			c.a.MulVecTo(ax, x)
			var rr, xx float64
			for i := range ax {
				r := b[i] - (ax[i] - c.sigma*x[i])
				rr += r * r
				xx += x[i] * x[i]
			}
			norm := GershgorinBound(c.a) + math.Abs(c.sigma)
			if e := math.Sqrt(rr) / (norm * math.Sqrt(xx) * float64(n) * dlamchE); e > 60 {
				t.Errorf("scaled residual %.3g > 60", e)
			}
			// The solve in place gives the same answer.
			f.SolveTo(b, b)
			for i := range b {
				if b[i] != x[i] {
					t.Fatalf("in-place solve differs at %d", i)
				}
			}
		})
	}
}

// TestSparseCholeskyFill checks that the ordering keeps the factor of a
// grid sparse: nested dissection gives O(n log n) entries; the bound below
// (12 n log2 n) is generous, and a band ordering of a 60 x 60 grid would
// need about 60 n entries.
func TestSparseCholeskyFill(t *testing.T) {
	a := grid2D(60, 60, 1)
	f, err := NewSparseCholesky(a, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(a.Rows)
	if bound := 12 * n * math.Log2(n); float64(f.NNZ()) > bound {
		t.Errorf("nnz(L) = %d > %.0f", f.NNZ(), bound)
	}
	perm := amdOrder(a)
	seen := make([]bool, a.Rows)
	for _, p := range perm {
		if p < 0 || p >= a.Rows || seen[p] {
			t.Fatalf("ordering is not a permutation (row %d)", p)
		}
		seen[p] = true
	}
}

// TestSparseCholeskyDense compares the factorization with gonum's dense
// Cholesky on a small matrix: the same solve to rounding.
func TestSparseCholeskyDense(t *testing.T) {
	a := randomSparseSPD(60, 10, 0.5, 4)
	f, err := NewSparseCholesky(a, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := mat.NewSymDense(60, nil)
	for i := 0; i < 60; i++ {
		for j := i; j < 60; j++ {
			d.SetSym(i, j, a.At(i, j))
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(d) {
		t.Fatal("dense Cholesky failed")
	}
	b := make([]float64, 60)
	for i := range b {
		b[i] = float64(i%7) - 3
	}
	x := make([]float64, 60)
	f.SolveTo(x, b)
	var xd mat.VecDense
	if err := ch.SolveVecTo(&xd, mat.NewVecDense(60, b)); err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if math.Abs(x[i]-xd.AtVec(i)) > 1e-12*(1+math.Abs(x[i])) {
			t.Fatalf("x[%d] = %v, dense %v", i, x[i], xd.AtVec(i))
		}
	}
}

// TestSparseCholeskyErrors walks the error contract: bad input, and a
// shifted matrix that is singular or indefinite.
func TestSparseCholeskyErrors(t *testing.T) {
	lap := grid2D(10, 10, 0) // a Laplacian: singular, eigenvalues in [0, 8)
	asym := mustTriplets(2, []linalg.Triplet{{I: 0, J: 1, V: 1}, {I: 0, J: 0, V: 1}, {I: 1, J: 1, V: 1}})
	rect, _ := linalg.CSRFromTriplets(2, 3, []linalg.Triplet{{I: 0, J: 0, V: 1}})
	for _, c := range []struct {
		name  string
		a     *linalg.CSR
		sigma float64
		want  error
	}{
		{"nil", nil, 0, linalg.ErrEmpty},
		{"not square", rect, 0, linalg.ErrShape},
		{"not symmetric", asym, 0, ErrNotSymmetric},
		{"sigma NaN", grid2D(3, 3, 1), math.NaN(), linalg.ErrNonFinite},
		{"singular", lap, 0, linalg.ErrDegenerate},
		{"indefinite", lap, 1, linalg.ErrNotPSD},
		{"negative definite", grid2D(5, 5, 1), 100, linalg.ErrNotPSD},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewSparseCholesky(c.a, c.sigma)
			if !errors.Is(err, c.want) || !errors.Is(err, linalg.ErrInvalid) {
				t.Errorf("error %v, want one wrapping %v and linalg.ErrInvalid", err, c.want)
			}
		})
	}
}

func mustTriplets(n int, ts []linalg.Triplet) *linalg.CSR {
	a, err := linalg.CSRFromTriplets(n, n, ts)
	if err != nil {
		panic(err)
	}
	return a
}
