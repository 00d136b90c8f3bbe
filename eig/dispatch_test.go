package eig_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/linalg"
)

// gonum-style operators of package linalg are Operators as they are.
var (
	_ eig.Operator = (*linalg.CSR)(nil)
	_ eig.Operator = (*linalg.LowRank)(nil)
)

// userBlock is a user's wrapper around a Dense that passes block products
// on; it has no Unwrap method, so only its own methods count.
type userBlock struct{ d *eig.Dense }

func (u userBlock) Dims() (r, c int)            { return u.d.Dims() }
func (u userBlock) MulVecTo(dst, x []float64)   { u.d.MulVecTo(dst, x) }
func (u userBlock) MulVecsTo(dst, x *mat.Dense) { u.d.MulVecsTo(dst, x) }

// userVector is a user's wrapper with vector products only.
type userVector struct{ a eig.Operator }

func (u userVector) Dims() (r, c int)          { return u.a.Dims() }
func (u userVector) MulVecTo(dst, x []float64) { u.a.MulVecTo(dst, x) }

// spectrumMatrix returns Q diag(values) Qᵀ for a seeded random orthogonal Q.
func spectrumMatrix(values []float64, seed uint64) *mat.SymDense {
	n := len(values)
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, math.Sin(float64(seed)*float64(i*n+j+1)))
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += q.At(i, k) * values[k] * q.At(j, k)
			}
			a.SetSym(i, j, s)
		}
	}
	return a
}

// TestTopDDispatch: TopD chooses the block method for every operator that
// implements BlockOperator (a user's wrapper included, judged like the Dense
// it wraps, down to the same results bit for bit) and thick-restart Lanczos
// for the others; wrappers with Unwrap are judged by what they wrap.
func TestTopDDispatch(t *testing.T) {
	ctx := context.Background()
	n := 400
	values := make([]float64, n)
	for i := range values {
		values[i] = math.Pow(0.97, float64(i))
	}
	a := spectrumMatrix(values, 3)
	dense, err := eig.NewDense(a)
	if err != nil {
		t.Fatal(err)
	}
	var ts []linalg.Triplet
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			ts = append(ts, linalg.Triplet{I: i, J: j, V: a.At(i, j)})
		}
	}
	raw, err := linalg.CSRFromTriplets(n, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	sparse, err := eig.NewCSR(raw)
	if err != nil {
		t.Fatal(err)
	}
	set := &eig.Settings{Seed: 7}
	const d = 10
	for _, tc := range []struct {
		name string
		op   eig.Operator
		want eig.Solver
	}{
		{"Dense", dense, eig.Block{}},
		{"user block wrapper of Dense", userBlock{dense}, eig.Block{}},
		{"Shift(Dense)", eig.Shift(dense, 0.25), eig.Block{}},
		{"Counter(Negate(Dense))", &eig.Counter{Op: eig.Negate(dense)}, eig.Block{}},
		{"user vector wrapper of Dense", userVector{dense}, eig.ThickRestart{}},
		{"Counter(user vector wrapper)", &eig.Counter{Op: userVector{dense}}, eig.ThickRestart{}},
		{"CSR", sparse, eig.ThickRestart{}},
		{"*linalg.CSR", raw, eig.ThickRestart{}},
		{"Shift(CSR)", eig.Shift(sparse, 0.25), eig.ThickRestart{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := eig.TopD(ctx, tc.op, d, set)
			if err != nil {
				t.Fatal(err)
			}
			want, err := tc.want.Solve(ctx, tc.op, d, set)
			if err != nil {
				t.Fatal(err)
			}
			if !sameResult(got, want) {
				t.Errorf("TopD: %d steps, %d vectors in %d products; %s: %d steps, %d vectors in %d products",
					got.Iterations, got.MatVecs, got.Products, tc.want.Name(), want.Iterations, want.MatVecs, want.Products)
			}
		})
	}
	// The cost model agrees: a user's block wrapper of a Dense is solved
	// exactly as the Dense itself, the checks of convergence falling on the
	// same steps. (With d = 3 here, pricing the wrapper's products as free
	// moves the checks and the solve ends at another step.)
	r1, err1 := eig.TopD(ctx, dense, 3, set)
	r2, err2 := eig.TopD(ctx, userBlock{dense}, 3, set)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !sameResult(r1, r2) {
		t.Errorf("Dense: %d steps, %d products; user wrapper: %d steps, %d products", r1.Iterations, r1.Products, r2.Iterations, r2.Products)
	}
}

// TestTopDSparseSwitch: on a sparse matrix TopD runs ThickRestart below 8
// wanted pairs, Chebyshev from 12, and in between Chebyshev from order
// 1,000 on; the results are those of the chosen solver bit for bit.
func TestTopDSparseSwitch(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{999, 1000} {
		a := knnOperator(t, n)
		var mid eig.Solver = eig.ThickRestart{}
		if n >= 1000 {
			mid = eig.Chebyshev{}
		}
		for _, tc := range []struct {
			d    int
			want eig.Solver
		}{
			{5, eig.ThickRestart{}},
			{7, eig.ThickRestart{}},
			{8, mid},
			{11, mid},
			{12, eig.Chebyshev{}},
		} {
			t.Run(fmt.Sprintf("n=%d/d=%d", n, tc.d), func(t *testing.T) {
				set := &eig.Settings{Seed: 3}
				got, err := eig.TopD(ctx, a, tc.d, set)
				if err != nil {
					t.Fatal(err)
				}
				want, err := tc.want.Solve(ctx, a, tc.d, set)
				if err != nil {
					t.Fatal(err)
				}
				if !sameResult(got, want) {
					t.Errorf("TopD: %d vectors in %d products; %s: %d vectors in %d products",
						got.MatVecs, got.Products, tc.want.Name(), want.MatVecs, want.Products)
				}
			})
		}
	}
}

// sameResult reports whether two results are equal bit for bit, with the
// same counts.
func sameResult(a, b *eig.Result) bool {
	if a.Iterations != b.Iterations || a.MatVecs != b.MatVecs || a.Products != b.Products || a.Restarts != b.Restarts {
		return false
	}
	if len(a.Values) != len(b.Values) || !mat.Equal(a.Vectors, b.Vectors) {
		return false
	}
	for i := range a.Values {
		if a.Values[i] != b.Values[i] {
			return false
		}
	}
	return true
}

// TestLowRankOperator solves a *linalg.LowRank as it is: V diag(Mu) Vᵀ with
// orthonormal V has the eigenvalues Mu and zeros.
func TestLowRankOperator(t *testing.T) {
	n := 200
	mu := []float64{5, 4, 3, 2, 1}
	g := mat.NewDense(n, len(mu), nil)
	for i := 0; i < n; i++ {
		for j := range mu {
			g.Set(i, j, math.Cos(float64(3*i+7*j+1)))
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var full mat.Dense
	qr.QTo(&full)
	v := mat.DenseCopyOf(full.Slice(0, n, 0, len(mu)))
	lr, err := linalg.NewLowRank(v, mu)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eig.TopD(context.Background(), lr, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != linalg.Converged {
		t.Fatalf("status %v", res.Status)
	}
	for j, want := range mu[:3] {
		if math.Abs(res.Values[j]-want) > 1e-13 {
			t.Errorf("value %d = %v, want %v", j, res.Values[j], want)
		}
	}
}

// TestNonSquareOperator: an operator that is not square is an input error
// of kind linalg.ErrShape for every solver.
func TestNonSquareOperator(t *testing.T) {
	rect, err := linalg.CSRFromTriplets(20, 21, []linalg.Triplet{{I: 0, J: 20, V: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []eig.Solver{eig.Reference{}, eig.Lanczos{}, eig.ThickRestart{}, eig.Block{}} {
		res, err := s.Solve(context.Background(), rect, 1, nil)
		if !errors.Is(err, linalg.ErrShape) || !errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("%s: error %v, want linalg.ErrShape", s.Name(), err)
		}
		if res == nil || res.Status != linalg.NotRun {
			t.Errorf("%s: result %+v, want status NotRun", s.Name(), res)
		}
	}
	if _, err := eig.TopD(context.Background(), eig.Shift(rect, 1), 1, nil); !errors.Is(err, linalg.ErrShape) {
		t.Errorf("TopD(Shift(non-square)): error %v, want linalg.ErrShape", err)
	}
}
