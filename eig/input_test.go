package eig

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// funcOp is an Operator defined by a function, for tests.
type funcOp struct {
	n int
	f func(dst, x []float64)
}

func (o funcOp) Dims() (r, c int)          { return o.n, o.n }
func (o funcOp) MulVecTo(dst, x []float64) { o.f(dst, x) }

func denseOf(a *mat.Dense) funcOp {
	n, _ := a.Dims()
	return funcOp{n: n, f: func(dst, x []float64) {
		mat.NewVecDense(n, dst).MulVec(a, mat.NewVecDense(n, x))
	}}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	good, _ := NewDense(withSpectrum(linspace(30, 0, 1), 1))
	nan := funcOp{n: 30, f: func(dst, x []float64) {
		good.MulVecTo(dst, x)
		dst[3] = math.NaN()
	}}
	asym := mat.NewDense(30, 30, nil)
	for i := 0; i < 30; i++ {
		for j := 0; j < 30; j++ {
			asym.Set(i, j, good.At(i, j))
		}
	}
	asym.Set(0, 5, asym.At(0, 5)+1) // makes A(0,5) != A(5,0)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	rectCSR, err := linalg.CSRFromTriplets(30, 31, []linalg.Triplet{{I: 0, J: 30, V: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var rect Operator = rectCSR // a *linalg.CSR is an Operator as it is
	cases := []struct {
		name   string
		ctx    context.Context
		a      Operator
		d      int
		s      *Settings
		want   error
		status linalg.Status
	}{
		{"d=0", ctx, good, 0, nil, linalg.ErrSettings, linalg.NotRun},
		{"d>n", ctx, good, 31, nil, linalg.ErrSettings, linalg.NotRun},
		{"nil operator", ctx, nil, 1, nil, linalg.ErrEmpty, linalg.NotRun},
		{"empty operator", ctx, funcOp{n: 0}, 1, nil, linalg.ErrEmpty, linalg.NotRun},
		{"non-square operator", ctx, rect, 1, nil, linalg.ErrShape, linalg.NotRun},
		{"nil context", nil, good, 2, nil, linalg.ErrSettings, linalg.NotRun},
		{"negative tol", ctx, good, 2, &Settings{Tol: -1}, linalg.ErrSettings, linalg.NotRun},
		{"NaN tol", ctx, good, 2, &Settings{Tol: math.NaN()}, linalg.ErrSettings, linalg.NotRun},
		{"negative maxiter", ctx, good, 2, &Settings{MaxIter: -1}, linalg.ErrSettings, linalg.NotRun},
		{"bad which", ctx, good, 2, &Settings{Which: 7}, linalg.ErrSettings, linalg.NotRun},
		{"zero start", ctx, good, 2, &Settings{Start: make([]float64, 30)}, linalg.ErrSettings, linalg.NotRun},
		{"short start", ctx, good, 2, &Settings{Start: make([]float64, 3)}, linalg.ErrShape, linalg.NotRun},
		{"NaN start", ctx, good, 2, &Settings{Start: append([]float64{math.NaN()}, make([]float64, 29)...)}, linalg.ErrNonFinite, linalg.NotRun},
		{"NaN operator", ctx, nan, 2, nil, linalg.ErrNonFinite, linalg.NumericalFailure},
		{"asymmetric operator", ctx, denseOf(asym), 2, nil, ErrNotSymmetric, linalg.NumericalFailure},
		{"cancelled", cancelled, good, 2, nil, context.Canceled, linalg.Canceled},
	}
	for _, tc := range cases {
		for _, s := range solvers {
			t.Run(tc.name+"/solver="+s.Name(), func(t *testing.T) {
				res, err := s.Solve(tc.ctx, tc.a, tc.d, tc.s)
				if !errors.Is(err, tc.want) {
					t.Fatalf("error %v, want %v", err, tc.want)
				}
				if tc.want != context.Canceled && !errors.Is(err, linalg.ErrInvalid) {
					t.Errorf("error %v does not wrap linalg.ErrInvalid", err)
				}
				var le *linalg.Error
				if errors.As(err, &le) && !strings.HasPrefix(le.Op, "eig.") {
					t.Errorf("error %q: Op %q lacks the package prefix", err, le.Op)
				}
				if !strings.HasPrefix(err.Error(), "eig.") {
					t.Errorf("error %q lacks the package prefix", err)
				}
				if res == nil || res.Status != tc.status {
					t.Errorf("result %+v on error, want status %v", res, tc.status)
				}
			})
		}
	}
}

// TestAdaptersReject walks the bad-input cases of the constructors and of
// DForEnergy: each error must wrap linalg.ErrInvalid and the kind named.
func TestAdaptersReject(t *testing.T) {
	rect, _ := linalg.CSRFromTriplets(2, 3, []linalg.Triplet{{I: 0, J: 1, V: 1}})
	asym, _ := linalg.CSRFromTriplets(2, 2, []linalg.Triplet{{I: 0, J: 1, V: 1}})
	empty, _ := linalg.CSRFromTriplets(0, 0, nil)
	nanCSR := &linalg.CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 1}, ColIdx: []int{0}, Val: []float64{math.NaN()}}
	broken := &linalg.CSR{Rows: 2, Cols: 2, RowPtr: []int{0}}
	for _, tc := range []struct {
		name string
		err  func() error
		want error
	}{
		{"NewDense nil", func() error { _, err := NewDense(nil); return err }, linalg.ErrEmpty},
		{"NewDense empty", func() error { _, err := NewDense(&mat.SymDense{}); return err }, linalg.ErrEmpty},
		{"NewDense Inf", func() error {
			_, err := NewDense(mat.NewSymDense(2, []float64{1, math.Inf(1), math.Inf(1), 1}))
			return err
		}, linalg.ErrNonFinite},
		{"NewDenseFull nil", func() error { _, err := NewDenseFull(nil); return err }, linalg.ErrEmpty},
		{"NewDenseFull non-square", func() error { _, err := NewDenseFull(mat.NewDense(2, 3, nil)); return err }, linalg.ErrShape},
		{"NewDenseFull asymmetric", func() error {
			_, err := NewDenseFull(mat.NewDense(2, 2, []float64{1, 2, 3, 4}))
			return err
		}, ErrNotSymmetric},
		{"NewDenseFull NaN", func() error { _, err := NewDenseFull(mat.NewDense(1, 1, []float64{math.NaN()})); return err }, linalg.ErrNonFinite},
		{"NewCSR nil", func() error { _, err := NewCSR(nil); return err }, linalg.ErrEmpty},
		{"NewCSR non-square", func() error { _, err := NewCSR(rect); return err }, linalg.ErrShape},
		{"NewCSR empty", func() error { _, err := NewCSR(empty); return err }, linalg.ErrEmpty},
		{"NewCSR asymmetric", func() error { _, err := NewCSR(asym); return err }, ErrNotSymmetric},
		{"NewCSR NaN", func() error { _, err := NewCSR(nanCSR); return err }, linalg.ErrNonFinite},
		{"NewCSR inconsistent", func() error { _, err := NewCSR(broken); return err }, linalg.ErrInvalid},
		{"DForEnergy frac 0", func() error { _, err := DForEnergy([]float64{1}, 1, 0); return err }, linalg.ErrSettings},
		{"DForEnergy frac NaN", func() error { _, err := DForEnergy([]float64{1}, 1, math.NaN()); return err }, linalg.ErrSettings},
		{"DForEnergy total 0", func() error { _, err := DForEnergy([]float64{1}, 0, 0.5); return err }, linalg.ErrSettings},
		{"DForEnergy total Inf", func() error { _, err := DForEnergy([]float64{1}, math.Inf(1), 0.5); return err }, linalg.ErrNonFinite},
		{"TopD nil", func() error { _, err := TopD(context.Background(), nil, 1, nil); return err }, linalg.ErrEmpty},
		{"TopD Block too large", func() error {
			op, _ := NewDense(withSpectrum(linspace(30, 0, 1), 1))
			_, err := Block{}.Solve(context.Background(), op, 2, &Settings{BlockSize: 65})
			return err
		}, linalg.ErrSettings},
	} {
		err := tc.err()
		if !errors.Is(err, tc.want) || !errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("%s: error %v, want %v (and linalg.ErrInvalid)", tc.name, err, tc.want)
		}
		var le *linalg.Error
		if !errors.As(err, &le) || !strings.HasPrefix(le.Op, "eig.") {
			t.Errorf("%s: error %v is not a *linalg.Error naming an eig function", tc.name, err)
		}
	}
}

// TestOperators checks every adapter against a dense product.
func TestOperators(t *testing.T) {
	a := withSpectrum(linspace(300, -1, 2), 9) // 300^2 entries: the parallel path
	op, err := NewDense(a)
	if err != nil {
		t.Fatal(err)
	}
	var ts []linalg.Triplet
	for i := 0; i < 300; i++ {
		for j := 0; j < 300; j++ {
			ts = append(ts, linalg.Triplet{I: i, J: j, V: a.At(i, j)})
		}
	}
	csr, _ := linalg.CSRFromTriplets(300, 300, ts)
	cop, err := NewCSR(csr)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, 300)
	for i := range x {
		x[i] = math.Sin(float64(i))
	}
	want := mat.NewVecDense(300, nil)
	want.MulVec(a, mat.NewVecDense(300, x))
	cnt := &Counter{Op: op}
	cases := []struct {
		name  string
		op    Operator
		scale float64
		shift float64
	}{
		{"dense", op, 1, 0},
		{"csr", cop, 1, 0},
		{"shift", Shift(op, 0.5), 1, 0.5},
		{"negate", Negate(cop), -1, 0},
		{"counter", cnt, 1, 0},
	}
	for _, tc := range cases {
		got := make([]float64, 300)
		tc.op.MulVecTo(got, x)
		blk := mat.NewDense(2, 300, nil)
		xs := mat.NewDense(2, 300, nil)
		copy(xs.RawRowView(0), x)
		copy(xs.RawRowView(1), x)
		mulVecs(tc.op, blk, xs)
		for i := range got {
			w := tc.scale*want.AtVec(i) - tc.shift*x[i]
			// Different summation orders: allow 1e-12 relative to ||A|| = 2.
			if math.Abs(got[i]-w) > 1e-12 || math.Abs(blk.At(1, i)-w) > 1e-12 {
				t.Fatalf("%s: entry %d = %v (block %v), want %v", tc.name, i, got[i], blk.At(1, i), w)
			}
		}
	}
	if cnt.Vectors() != 3 || cnt.Calls() != 2 {
		t.Errorf("counter: %d vectors in %d calls, want 3 in 2", cnt.Vectors(), cnt.Calls())
	}
}

// TestCancelPrompt cancels a long solve and expects a prompt return with
// the context error and a partial result.
func TestCancelPrompt(t *testing.T) {
	// A slow operator: 2 ms per product on a 400-dimensional spectrum of
	// 400 distinct values, which needs far more than 50 ms of products.
	base, _ := NewDense(withSpectrum(linspace(400, 0, 1), 3))
	slow := funcOp{n: 400, f: func(dst, x []float64) {
		time.Sleep(2 * time.Millisecond)
		base.MulVecTo(dst, x)
	}}
	for _, s := range solvers[1:] {
		t.Run("solver="+s.Name(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			res, err := s.Solve(ctx, slow, 100, &Settings{Tol: 1e-15})
			el := time.Since(start)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error %v, want deadline exceeded", err)
			}
			if res.Status != linalg.Canceled {
				t.Errorf("status %v", res.Status)
			}
			// One product (2 ms) plus bookkeeping after the deadline; 1 s
			// leaves room for a loaded machine.
			if el > time.Second {
				t.Errorf("returned after %v", el)
			}
		})
	}
}

// TestIterationLimit expects the best pairs, status IterationLimit and no
// error: stopping at the limit is an outcome.
func TestIterationLimit(t *testing.T) {
	op, _ := NewDense(withSpectrum(linspace(200, 0, 1), 4))
	for _, s := range solvers[1:] {
		t.Run("solver="+s.Name(), func(t *testing.T) {
			res, err := s.Solve(context.Background(), op, 5, &Settings{MaxIter: 6})
			if err != nil {
				t.Fatalf("error %v, want nil", err)
			}
			if res.Status != linalg.IterationLimit || len(res.Values) == 0 || len(res.Residuals) != len(res.Values) {
				t.Fatalf("status %v with %d values", res.Status, len(res.Values))
			}
			if res.Converged >= 5 {
				t.Errorf("converged %d pairs in 6 steps", res.Converged)
			}
		})
	}
}

// TestDeterministic: same seed, same result bit for bit; Start is honoured.
func TestDeterministic(t *testing.T) {
	op, _ := NewDense(withSpectrum(linspace(150, 0, 1), 5))
	for _, s := range solvers[1:] {
		r1, err1 := s.Solve(context.Background(), op, 4, &Settings{Seed: 9})
		r2, err2 := s.Solve(context.Background(), op, 4, &Settings{Seed: 9})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !mat.Equal(r1.Vectors, r2.Vectors) || r1.MatVecs != r2.MatVecs {
			t.Errorf("%s: results differ between runs with the same seed", s.Name())
		}
	}
}

// TestLaplacianComponents: the smallest eigenvalue of a graph Laplacian is
// zero with multiplicity equal to the number of connected components.
func TestLaplacianComponents(t *testing.T) {
	ctx := context.Background()
	// Three well separated clusters of 200 points in 3 dimensions; a 5-NN
	// graph of each is (with overwhelming probability) connected and no
	// edges join clusters 100 standard deviations apart.
	x := gaussPoints(600, 3, 5)
	for i := 0; i < 600; i++ {
		x.Set(i, 0, x.At(i, 0)+100*float64(i/200))
	}
	w, err := linalg.KNNGraph(ctx, x, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	ncomp, _ := linalg.Components(w)
	if ncomp != 3 {
		t.Fatalf("graph has %d components, test needs 3", ncomp)
	}
	for _, kind := range []linalg.LaplacianKind{linalg.Combinatorial, linalg.Normalized} {
		l, err := linalg.Laplacian(w, kind)
		if err != nil {
			t.Fatal(err)
		}
		op, err := NewCSR(l)
		if err != nil {
			t.Fatal(err)
		}
		dense := mat.NewSymDense(600, nil)
		ld := l.ToDense()
		for i := 0; i < 600; i++ {
			for j := i; j < 600; j++ {
				dense.SetSym(i, j, ld.At(i, j))
			}
		}
		for _, s := range solvers {
			t.Run("solver="+s.Name(), func(t *testing.T) {
				res, err := s.Solve(ctx, op, 6, &Settings{Which: Smallest, BlockSize: 2})
				if err != nil {
					t.Fatal(err)
				}
				checkPairs(t, dense, res, 6, Smallest, 2*math.Sqrt(6)*acceptTol(DefaultTol, 600)/(600*eps))
				zeros := 0
				for _, v := range res.Values {
					// Zero to the tolerance relative to ||L|| (<= 2 max degree).
					if math.Abs(v) <= 1e-10*res.NormEstimate {
						zeros++
					}
				}
				if zeros != 3 {
					t.Errorf("found %d zero eigenvalues, want 3: %v", zeros, res.Values)
				}
			})
		}
	}
}

func TestEnergy(t *testing.T) {
	v := []float64{4, 3, 2, 1}
	ce := CumulativeEnergy(v, 10)
	want := []float64{0.4, 0.7, 0.9, 1}
	for i := range want {
		if math.Abs(ce[i]-want[i]) > 1e-15 {
			t.Fatalf("CumulativeEnergy = %v, want %v", ce, want)
		}
	}
	cases := []struct {
		frac float64
		want int
		err  bool
	}{{0.4, 1, false}, {0.5, 2, false}, {0.9, 3, false}, {1, 4, false}, {0, 0, true}, {1.5, 0, true}}
	for _, c := range cases {
		d, err := DForEnergy(v, 10, c.frac)
		if (err != nil) != c.err || d != c.want {
			t.Errorf("DForEnergy(%v) = %d, %v; want %d", c.frac, d, err, c.want)
		}
	}
	if d, _ := DForEnergy(v, 20, 0.9); d != 4 {
		t.Errorf("unreachable fraction: d = %d, want len(values) = 4", d)
	}
}

// TestConcurrent shares one operator and one solver value between
// goroutines (run with -race): results must equal the sequential ones.
func TestConcurrent(t *testing.T) {
	op, _ := NewDense(withSpectrum(linspace(300, 0, 1), 8))
	want, err := Block{}.Solve(context.Background(), op, 5, &Settings{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]*Result, 4)
	errs := make([]error, 4)
	done := make(chan int)
	for g := range got {
		go func() {
			got[g], errs[g] = Block{}.Solve(context.Background(), op, 5, &Settings{Seed: 3})
			done <- g
		}()
	}
	for range got {
		<-done
	}
	for g := range got {
		if errs[g] != nil || !mat.Equal(got[g].Vectors, want.Vectors) {
			t.Errorf("goroutine %d: error %v or different vectors", g, errs[g])
		}
	}
}

// TestShiftedSmallest: the smallest eigenvalues of a Laplacian found as the
// largest of c I - L (explicit Gershgorin shift) agree with Which =
// Smallest.
func TestShiftedSmallest(t *testing.T) {
	ctx := context.Background()
	x := gaussPoints(300, 3, 12)
	w, err := linalg.KNNGraph(ctx, x, 6, nil)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := linalg.Laplacian(w, linalg.Combinatorial)
	op, err := NewCSR(l)
	if err != nil {
		t.Fatal(err)
	}
	c := GershgorinBound(l)
	deg := 0.0
	for i := 0; i < l.Rows; i++ {
		deg = math.Max(deg, l.At(i, i))
	}
	if c != 2*deg {
		t.Errorf("Gershgorin bound %v, want 2 max degree = %v", c, 2*deg)
	}
	small, err := ThickRestart{}.Solve(ctx, op, 5, &Settings{Which: Smallest})
	if err != nil {
		t.Fatal(err)
	}
	big, err := ThickRestart{}.Solve(ctx, Shift(Negate(op), -c), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range small.Values {
		// Both are accurate to Tol ||L|| <= 1e-14 c; allow 1e-12 c.
		if got := c - big.Values[i]; math.Abs(got-small.Values[i]) > 1e-12*c {
			t.Errorf("value %d: %v via shift, %v via Smallest", i, got, small.Values[i])
		}
	}
}

// TestNewDenseShared: the shared operator gives the products of the copying
// one on a full-storage Gram matrix without copying it, and rejects storage
// whose lower triangle is not the matrix, non-finite entries and views.
func TestNewDenseShared(t *testing.T) {
	ctx := context.Background()
	x := mat.NewDense(30, 3, nil)
	for i := 0; i < 30; i++ {
		for j := 0; j < 3; j++ {
			x.Set(i, j, math.Sin(float64(7*i+j)))
		}
	}
	k, err := linalg.Gram(ctx, linalg.RBF{Gamma: 0.5}, x)
	if err != nil {
		t.Fatal(err)
	}
	shared, err := NewDenseShared(k)
	if err != nil {
		t.Fatal(err)
	}
	copied, err := NewDense(k)
	if err != nil {
		t.Fatal(err)
	}
	if &shared.a[0] != &k.RawSymmetric().Data[0] {
		t.Error("NewDenseShared copied the matrix")
	}
	v := make([]float64, 30)
	for i := range v {
		v[i] = float64(i%5) - 2
	}
	a, b := make([]float64, 30), make([]float64, 30)
	shared.MulVecTo(a, v)
	copied.MulVecTo(b, v)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("product %d: %v shared, %v copied", i, a[i], b[i])
		}
	}
	upper := mat.NewSymDense(3, []float64{1, 2, 3, 0, 4, 5, 0, 0, 6}) // lower triangle not stored
	nan := mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1})
	big := mat.NewSymDense(4, nil)
	view := big.SliceSym(0, 3).(*mat.SymDense)
	inf := mat.NewSymDense(2, []float64{1, math.Inf(-1), math.Inf(-1), 1})
	// One entry of a 130 x 130 matrix differs from its mirror: below the
	// diagonal blocks of the four-row walk, inside one, and in the last
	// rows (130 is not a multiple of 4).
	far := mat.NewSymDense(130, nil)
	far.RawSymmetric().Data[129*130+70] = 1e-300
	inBlock := mat.NewSymDense(130, nil)
	inBlock.RawSymmetric().Data[10*130+9] = 1e-300
	last := mat.NewSymDense(130, nil)
	last.RawSymmetric().Data[128*130+129] = 1e-300
	for _, tc := range []struct {
		name string
		a    *mat.SymDense
		want error
	}{
		{"upper only", upper, ErrNotSymmetric},
		{"far", far, ErrNotSymmetric},
		{"diagonal block", inBlock, ErrNotSymmetric},
		{"last rows", last, ErrNotSymmetric},
		{"NaN", nan, linalg.ErrNonFinite},
		{"Inf", inf, linalg.ErrNonFinite},
		{"view", view, linalg.ErrShape},
		{"nil", nil, linalg.ErrEmpty},
		{"empty", &mat.SymDense{}, linalg.ErrEmpty},
	} {
		if _, err := NewDenseShared(tc.a); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	// NewDenseFull reads both triangles: a NaN below the diagonal is not
	// finite (rather than merely asymmetric).
	lowNaN := mat.NewDense(2, 2, []float64{1, 0, math.NaN(), 1})
	if _, err := NewDenseFull(lowNaN); !errors.Is(err, linalg.ErrNonFinite) {
		t.Errorf("NewDenseFull with a NaN below the diagonal: %v, want %v", err, linalg.ErrNonFinite)
	}
	// Zeros of opposite signs are equal: symmetric.
	zeros := mat.NewSymDense(2, []float64{1, 0, math.Copysign(0, -1), 1})
	if _, err := NewDenseShared(zeros); err != nil {
		t.Errorf("+0 and -0 mirror images: %v", err)
	}
}

// vecOnly hides the block product of an operator and counts its calls.
type vecOnly struct {
	op    Operator
	calls int
}

func (v *vecOnly) Dims() (r, c int) { return v.op.Dims() }

func (v *vecOnly) MulVecTo(dst, x []float64) {
	v.calls++
	v.op.MulVecTo(dst, x)
}

// TestProductsCount checks Result.MatVecs and Result.Products against the
// operator's own counts for every solver: a block product counts once in
// Products, a vector product once in both.
func TestProductsCount(t *testing.T) {
	ctx := context.Background()
	op, err := NewDense(rbfKernel(gaussPoints(120, 5, 3)))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Solver{Lanczos{}, ThickRestart{}, Block{}, Reference{}} {
		cnt := &Counter{Op: op}
		res, err := s.Solve(ctx, cnt, 6, &Settings{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		if int64(res.MatVecs) != cnt.Vectors() || int64(res.Products) != cnt.Calls() {
			t.Errorf("%s (block operator): MatVecs %d, Products %d; the operator saw %d vectors in %d calls",
				s.Name(), res.MatVecs, res.Products, cnt.Vectors(), cnt.Calls())
		}
		if s.Name() == "block" && res.Products >= res.MatVecs {
			t.Errorf("block: %d products for %d vectors", res.Products, res.MatVecs)
		}
		vo := &vecOnly{op: op}
		res, err = s.Solve(ctx, vo, 6, &Settings{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		if res.MatVecs != vo.calls || res.Products != vo.calls {
			t.Errorf("%s (vector operator): MatVecs %d, Products %d; the operator saw %d calls",
				s.Name(), res.MatVecs, res.Products, vo.calls)
		}
	}
}

// TestSentinels: the package's own sentinels are input errors, ErrRank a
// degenerate input.
func TestSentinels(t *testing.T) {
	for _, tc := range []struct {
		err, want error
	}{
		{ErrNotSymmetric, linalg.ErrInvalid},
		{ErrRank, linalg.ErrInvalid},
		{ErrRank, linalg.ErrDegenerate},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%v does not wrap %v", tc.err, tc.want)
		}
	}
}
