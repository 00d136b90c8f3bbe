package qp

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// synthSKL builds Vl (l×d) and y (l×1) from the top-d eigenvectors of an RBF
// kernel on n points drawn from two Gaussian blobs, with the first l points as the
// labeled set (both classes alternate, so both are present). It also returns the
// top-d eigenvalues in decreasing order.
func synthSKL(seed uint64, n, l, d int) (vl, y *mat.Dense, lambda []float64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	pts := make([][2]float64, n)
	lab := make([]float64, n)
	for i := range pts {
		c := float64(2*(i%2) - 1)
		lab[i] = c
		pts[i] = [2]float64{1.5*c + rng.NormFloat64(), rng.NormFloat64()}
	}
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dx, dy := pts[i][0]-pts[j][0], pts[i][1]-pts[j][1]
			k.SetSym(i, j, math.Exp(-(dx*dx+dy*dy)/2))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(k, true) {
		panic("eigen failed")
	}
	var ev mat.Dense
	es.VectorsTo(&ev)
	vals := es.Values(nil) // ascending
	vl = mat.NewDense(l, d, nil)
	lambda = make([]float64, d)
	for j := 0; j < d; j++ {
		col := n - 1 - j
		lambda[j] = vals[col]
		for i := 0; i < l; i++ {
			vl.Set(i, j, ev.At(i, col))
		}
	}
	y = mat.NewDense(l, 1, lab[:l])
	return vl, y, lambda
}

// explicitD forms D (l²×d, column i = vec(v_i v_iᵀ)) and vec(T) for T = YYᵀ.
func explicitD(vl, y *mat.Dense) (*mat.Dense, *mat.VecDense) {
	l, d := vl.Dims()
	dm := mat.NewDense(l*l, d, nil)
	for i := 0; i < d; i++ {
		for r := 0; r < l; r++ {
			for c := 0; c < l; c++ {
				dm.Set(r*l+c, i, vl.At(r, i)*vl.At(c, i))
			}
		}
	}
	var t mat.Dense
	t.Mul(y, y.T())
	vt := mat.NewVecDense(l*l, nil)
	for r := 0; r < l; r++ {
		for c := 0; c < l; c++ {
			vt.SetVec(r*l+c, t.At(r, c))
		}
	}
	return dm, vt
}

func TestSKLClosedForm(t *testing.T) {
	vl, y, _ := synthSKL(1, 50, 12, 8)
	// a multi-class factor with r = 3 as well as the binary one
	y3 := mat.NewDense(12, 3, nil)
	for i := 0; i < 12; i++ {
		y3.Set(i, i%3, 1)
	}
	for _, tgt := range []*mat.Dense{y, y3} {
		s, err := NewSKL(vl, tgt, 2)
		if err != nil {
			t.Fatal(err)
		}
		dm, vt := explicitD(vl, tgt)
		var h mat.Dense
		h.Mul(dm.T(), dm)
		var a mat.VecDense
		a.MulVec(dm.T(), vt)
		for i := 0; i < 8; i++ {
			// entries are O(1); 1e-12 allows for summation-order rounding
			if math.Abs(a.AtVec(i)-s.A()[i]) > 1e-12 {
				t.Errorf("a[%d] = %v, explicit %v", i, s.A()[i], a.AtVec(i))
			}
			for j := 0; j < 8; j++ {
				if math.Abs(h.At(i, j)-s.H().At(i, j)) > 1e-12 {
					t.Errorf("H[%d,%d] = %v, explicit %v", i, j, s.H().At(i, j), h.At(i, j))
				}
			}
		}
		// alignment of μ against the explicit Frobenius formula
		mu := []float64{1, .5, .3, .2, .1, .05, .02, .01}
		var kv mat.VecDense
		kv.MulVec(dm, mat.NewVecDense(8, mu))
		want := mat.Dot(&kv, vt) / (mat.Norm(&kv, 2) * mat.Norm(vt, 2))
		if got := s.Alignment(mu); math.Abs(got-want) > 1e-12 {
			t.Errorf("alignment %v, explicit %v", got, want)
		}
	}
}

func sklSolvers() []struct {
	name string
	s    Solver
} {
	return []struct {
		name string
		s    Solver
	}{
		{"bounded", nil},
		{"activeset", NewActiveSet(nil)},
		{"admm", NewADMM(nil)},
		{"goldfarb-idnani", NewGoldfarbIdnani(nil)},
	}
}

// notDefinite reports an SKL instance whose H = DᵀD is singular to working
// precision, which the dual method must refuse (a permitted outcome).
func notDefinite(name string, err error) bool {
	return name == "goldfarb-idnani" && errors.Is(err, linalg.ErrNotPSD)
}

func TestSKLSolversAgree(t *testing.T) {
	for _, tc := range []struct {
		d, l int
		c    float64
	}{
		{1, 10, 2}, {5, 10, 1}, {8, 12, 2}, {20, 20, 2}, {20, 20, 3}, {20, 6, 1.5}, {40, 20, 2}, {40, 10, 1.2},
	} {
		vl, y, lambda := synthSKL(uint64(tc.d*100+tc.l), 80, tc.l, tc.d)
		s, err := NewSKL(vl, y, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		var ref Result
		for i, sv := range sklSolvers() {
			var res Result
			if err := s.Solve(context.Background(), sv.s, nil, &res); err != nil {
				if notDefinite(sv.name, err) {
					continue
				}
				t.Fatalf("d=%d l=%d decay=%v %s: %v", tc.d, tc.l, tc.c, sv.name, err)
			}
			if res.Status != linalg.Optimal || res.KKT.Max() > kktTol {
				t.Errorf("d=%d l=%d decay=%v %s: status %v KKT %+v", tc.d, tc.l, tc.c, sv.name, res.Status, res.KKT)
				continue
			}
			if i == 0 {
				ref = res
				continue
			}
			if math.Abs(res.Obj-ref.Obj) > 1e-8*math.Abs(ref.Obj) {
				t.Errorf("d=%d l=%d decay=%v %s: obj %v, bounded %v", tc.d, tc.l, tc.c, sv.name, res.Obj, ref.Obj)
			}
		}
		// optimal alignment dominates feasible alternatives
		best := s.Alignment(ref.X)
		rng := rand.New(rand.NewPCG(5, uint64(tc.d)))
		check := func(name string, mu []float64) {
			// 1e-9 relative slack for rounding in the alignment formula
			if al := s.Alignment(mu); al > best*(1+1e-9) {
				t.Errorf("d=%d decay=%v: %s alignment %v > optimum %v", tc.d, tc.c, name, al, best)
			}
		}
		mu := make([]float64, tc.d)
		for trial := 0; trial < 200; trial++ {
			prev := 0.0
			for i := tc.d - 1; i >= 0; i-- { // μ = Mν with random ν >= 0 is feasible
				prev = rng.ExpFloat64() + tc.c*prev
				mu[i] = prev
			}
			check("random feasible", mu)
		}
		// Cluster (μ = 1) and Truncated (μ = λ) kernels, made feasible by the decay
		// δ^-(i-1) (for δ = 1 they are feasible as they are)
		for i := range mu {
			mu[i] = math.Pow(tc.c, -float64(i))
		}
		check("cluster", mu)
		for i := range mu {
			mu[i] = lambda[i] * math.Pow(tc.c, -float64(i))
		}
		check("truncated", mu)
	}
}

func TestSKLEdgeCases(t *testing.T) {
	vl, y, _ := synthSKL(3, 40, 10, 5)
	if _, err := NewSKL(vl, y, 0.5); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("decay < 1: err = %v", err)
	}
	if _, err := NewSKL(vl, y, math.NaN()); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("decay NaN: err = %v", err)
	}
	bad := mat.DenseCopyOf(vl)
	bad.Set(2, 2, math.NaN())
	if _, err := NewSKL(bad, y, 2); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("NaN in Vl: err = %v", err)
	}
	if _, err := NewSKL(vl, mat.NewDense(3, 1, nil), 2); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("target rows: err = %v", err)
	}
	// a huge decay factor overflows the reparametrisation: clear error
	big, _, _ := synthSKL(4, 80, 20, 60)
	yb := mat.NewDense(20, 1, nil)
	for i := 0; i < 20; i++ {
		yb.Set(i, 0, float64(2*(i%2)-1))
	}
	if _, err := NewSKL(big, yb, 1e6); !errors.Is(err, ErrDecayRange) {
		t.Errorf("decay 1e6, d = 60: err = %v, want ErrDecayRange", err)
	}
}

func TestSKLWarmStartAndAllocs(t *testing.T) {
	vl, y, _ := synthSKL(6, 80, 20, 30)
	s, err := NewSKL(vl, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var prev, cold, warm Result
	if err := s.Solve(ctx, nil, nil, &prev); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDecay(2.02); err != nil {
		t.Fatal(err)
	}
	if err := s.Solve(ctx, nil, nil, &cold); err != nil {
		t.Fatal(err)
	}
	if err := s.Solve(ctx, nil, &Start{X: prev.X}, &warm); err != nil {
		t.Fatal(err)
	}
	if warm.Status != linalg.Optimal || warm.KKT.Max() > kktTol || math.Abs(warm.Obj-cold.Obj) > 1e-9*cold.Obj {
		t.Errorf("warm %v %+v obj %v, cold %v", warm.Status, warm.KKT, warm.Obj, cold.Obj)
	}
	t.Logf("iterations: cold %d, warm %d", cold.Iterations, warm.Iterations)
	if warm.Iterations > cold.Iterations {
		t.Errorf("warm start took %d iterations, cold %d", warm.Iterations, cold.Iterations)
	}
	allocs := testing.AllocsPerRun(10, func() {
		if err := s.SetDecay(2); err != nil {
			t.Fatal(err)
		}
		if err := s.SetData(vl, y); err != nil {
			t.Fatal(err)
		}
		if err := s.Solve(ctx, nil, nil, &cold); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("SKL re-solve allocates %v times", allocs)
	}
}

// TestSKLTruncation covers the fast path for d beyond the decay horizon
// (δ^(d−1) > 2^60): the ν-problem is solved on the leading coordinates and the
// answer is certified on the full μ-space problem. It must be certified there
// without the ActiveSet refinement (Polish = 0), be at least as good as
// ActiveSet on the full problem, and re-solve without allocating.
func TestSKLTruncation(t *testing.T) {
	for _, tc := range []struct {
		d, l int
		c    float64
	}{
		{100, 20, 2}, {200, 20, 2}, {150, 30, 3}, {120, 12, 8},
	} {
		vl, y, _ := synthSKL(uint64(tc.d+tc.l), tc.d+20, tc.l, tc.d)
		s, err := NewSKL(vl, y, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if k := s.truncation(); k >= tc.d {
			t.Fatalf("d=%d decay=%v: no truncation (K = %d)", tc.d, tc.c, k)
		}
		ctx := context.Background()
		var res, ref Result
		if err := s.Solve(ctx, nil, nil, &res); err != nil {
			t.Fatal(err)
		}
		if res.Status != linalg.Optimal || res.KKT.Max() > sklKKTTol || res.PolishIterations != 0 {
			t.Errorf("d=%d decay=%v: %v KKT %+v polish %d", tc.d, tc.c, res.Status, res.KKT, res.PolishIterations)
		}
		if err := NewActiveSet(nil).Solve(ctx, s.Problem(), nil, &ref); err != nil {
			t.Fatal(err)
		}
		// The certified point may not be worse than ActiveSet's (1e-12 relative
		// slack for rounding of the objective). ActiveSet itself can stop at a
		// point with stationarity ~1e-9 whose tail μ_i are not yet zero (seen
		// for d = 200, δ = 2: 7e-8 relative above), so only 1e-6 agreement is
		// required the other way.
		if ref.Status != linalg.Optimal || res.Obj > ref.Obj*(1+1e-12) || ref.Obj-res.Obj > 1e-6*ref.Obj {
			t.Errorf("d=%d decay=%v: obj %v, ActiveSet %v (%v)", tc.d, tc.c, res.Obj, ref.Obj, ref.Status)
		}
		if al := testing.AllocsPerRun(5, func() { _ = s.Solve(ctx, nil, nil, &res) }); al != 0 {
			t.Errorf("d=%d decay=%v: re-solve allocates %v times", tc.d, tc.c, al)
		}
		// warm start from this μ after a small change of δ (as in a δ sweep)
		prev := append([]float64(nil), res.X...)
		if err := s.SetDecay(tc.c * 1.01); err != nil {
			t.Fatal(err)
		}
		var cold, warm Result
		if err := s.Solve(ctx, nil, nil, &cold); err != nil {
			t.Fatal(err)
		}
		if err := s.Solve(ctx, nil, &Start{X: prev}, &warm); err != nil {
			t.Fatal(err)
		}
		// 1e-12 relative: both are certified optima of the same problem
		if warm.Status != linalg.Optimal || warm.KKT.Max() > sklKKTTol || math.Abs(warm.Obj-cold.Obj) > 1e-12*cold.Obj {
			t.Errorf("d=%d decay=%v warm: %v KKT %+v obj %v, cold %v", tc.d, tc.c*1.01, warm.Status, warm.KKT, warm.Obj, cold.Obj)
		}
	}
}

// TestSKLTruncationFallback makes the target orthogonal to the leading
// eigenvectors (a_i = 0 exactly for i < 66), so that the truncated ν-problem is
// infeasible and the solver must fall back to the full problem. Its optimum is
// of order δ^(2·65) ≈ 1e39, beyond what double precision resolves here, so the
// test only requires an honest outcome: no Infeasible claim (a ≠ 0 makes the
// problem feasible) and no Optimal status without small KKT residuals.
func TestSKLTruncationFallback(t *testing.T) {
	const d, l, zero = 70, 90, 66
	rng := rand.New(rand.NewPCG(21, 22))
	vl := mat.NewDense(l, d, nil)
	y := mat.NewDense(l, 1, nil)
	for i := 0; i < l; i++ {
		y.Set(i, 0, float64(2*(i%2)-1))
		for j := 0; j < d; j++ {
			vl.Set(i, j, rng.NormFloat64()/math.Sqrt(l))
		}
	}
	for j := 0; j < zero; j++ {
		// equal entries in rows 2k and 2k+1 make yᵀv_j = 0 exactly (y alternates)
		for i := 1; i < l; i += 2 {
			vl.Set(i, j, vl.At(i-1, j))
		}
	}
	s, err := NewSKL(vl, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	k := s.truncation()
	if k >= zero {
		t.Fatalf("truncation %d does not cut the zero block", k)
	}
	if st, err := s.solveNu(ctx, s.bnd, s.truncated(k), k, nil); err != nil || st != linalg.Infeasible {
		t.Fatalf("truncated problem: %v %v, want Infeasible", st, err)
	}
	var res Result
	if err := s.Solve(ctx, nil, nil, &res); err != nil {
		t.Fatal(err)
	}
	if res.Status == linalg.Infeasible || (res.Status == linalg.Optimal && res.KKT.Max() > kktTol) {
		t.Errorf("%v KKT %+v", res.Status, res.KKT)
	}
	t.Logf("%v obj %v KKT %.2g, iterations %d", res.Status, res.Obj, res.KKT.Max(), res.Iterations)
}

// TestSKLRoundingColumns: an SKL QP of a cross-validation fold whose Vl has
// columns that are zero only to rounding (the basis was rotated with the
// held-out point among the labeled rows), so a_i and H_ii are of the order
// of 1e-27 and 1e-52. The ν-space optimum puts μ_1 near 1/a_1; ActiveSet
// warm-started there failed and Solve reported NumericalFailure. It must end
// Optimal, at ActiveSet's answer, and both must meet the μ-space KKT test.
func TestSKLRoundingColumns(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "skl_rounding_columns.json"))
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		Rows, Cols int
		Vl, Y      []float64
		Decay      float64
	}
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatal(err)
	}
	s, err := NewSKL(mat.NewDense(in.Rows, in.Cols, in.Vl), mat.NewDense(in.Rows, 1, in.Y), in.Decay)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var fast, ref Result
	if err := s.Solve(ctx, nil, nil, &fast); err != nil {
		t.Fatal(err)
	}
	if err := s.Solve(ctx, NewActiveSet(nil), nil, &ref); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		name string
		res  *Result
	}{{"fast path", &fast}, {"ActiveSet", &ref}} {
		if r.res.Status != linalg.Optimal || r.res.KKT.Max() > kktTol {
			t.Fatalf("%s: %v, KKT %.2g", r.name, r.res.Status, r.res.KKT.Max())
		}
	}
	for i := range fast.X {
		if math.Abs(fast.X[i]-ref.X[i]) > 1e-8*math.Max(1, math.Abs(ref.X[i])) {
			t.Errorf("mu[%d] = %v, ActiveSet %v", i, fast.X[i], ref.X[i])
		}
	}
}

// TestSKLOverflowingMu: with a of the order of rounding and a large decay
// factor the least feasible μ exceeds MaxFloat64 (here μ₃ = 1/a₃ = 5e273
// and μ₁ ≥ δ² μ₃ = 5e333). The polish must not hand that μ to ActiveSet as
// a start (an input error, with the overflowed μ reported Optimal); the
// answer is an honest failure status, or an Optimal one with a finite μ.
func TestSKLOverflowingMu(t *testing.T) {
	vl := mat.NewDense(1, 3, []float64{0, 0, math.Sqrt(2e-274)})
	s, err := NewSKL(vl, mat.NewDense(1, 1, []float64{1}), 1e30)
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := s.Solve(context.Background(), nil, nil, &res); err != nil {
		t.Fatalf("error %v, want a status", err)
	}
	if res.Status == linalg.Optimal {
		for i, v := range res.X {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("Optimal with mu[%d] = %v", i, v)
			}
		}
	}
}
