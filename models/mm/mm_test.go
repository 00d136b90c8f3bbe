package mm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/spectral"
	"ukm/models/svm"
)

// refJ is an independent evaluation of J(mu): the labeled kernel block is
// formed with mat.Mul and the SVM dual is solved from scratch by package svm
// to a tight tolerance; J = 2·Model.Dual (the paper's dual is twice svm's).
func refJ(t *testing.T, b *spectral.Basis, idx []int, y, mu []float64, c float64) float64 {
	t.Helper()
	_, q := b.Dims()
	vl := mat.NewDense(len(idx), q, nil)
	for r, j := range idx {
		vl.SetRow(r, b.V.RawRowView(j))
	}
	var vd, k mat.Dense
	vd.Mul(vl, mat.NewDiagDense(q, mu))
	k.Mul(&vd, vl.T())
	// Symmetrise: the two triangles of a product may differ in the last bit.
	ks := mat.NewSymDense(len(idx), nil)
	for i := 0; i < len(idx); i++ {
		for j := i; j < len(idx); j++ {
			ks.SetSym(i, j, (k.At(i, j)+k.At(j, i))/2)
		}
	}
	m, err := svm.Train(context.Background(), ks, y, &svm.Settings{C: c, Tol: 1e-11})
	if err != nil {
		t.Fatalf("reference SVM: %v", err)
	}
	return 2 * m.Dual
}

// muFromNu maps the weighted-simplex coordinates to the cone directly from
// the definition: mu_q = nu_q, mu_i = w mu_{i+1} + nu_i.
func muFromNu(nu []float64, w float64) []float64 {
	q := len(nu)
	mu := make([]float64, q)
	mu[q-1] = nu[q-1]
	for i := q - 2; i >= 0; i-- {
		mu[i] = w*mu[i+1] + nu[i]
	}
	return mu
}

// checkCone reports whether mu lies in the fast-decay cone with trace delta
// (column norms t), to a relative rounding tolerance.
func checkCone(t *testing.T, mu, tn []float64, w, delta float64) {
	t.Helper()
	var tr, scale float64
	for i, v := range mu {
		tr += v * tn[i]
		scale = math.Max(scale, math.Abs(v))
	}
	// 1e-12: rounding of a sum of q <= 30 terms of size <= delta.
	eps := 1e-12 * math.Max(scale, delta)
	if math.Abs(tr-delta) > eps*float64(len(mu)) {
		t.Errorf("trace %v, want %v", tr, delta)
	}
	for i, v := range mu {
		if v < -eps {
			t.Errorf("mu[%d] = %v < 0", i, v)
		}
		if i+1 < len(mu) && v < w*mu[i+1]-eps*w {
			t.Errorf("mu[%d] = %v < w mu[%d] = %v", i, v, i+1, w*mu[i+1])
		}
	}
}

func colNorms(b *spectral.Basis) []float64 {
	n, q := b.Dims()
	tn := make([]float64, q)
	for r := 0; r < n; r++ {
		for i := 0; i < q; i++ {
			tn[i] += b.V.At(r, i) * b.V.At(r, i)
		}
	}
	return tn
}

// TestBruteForce compares Learn with the minimum of J over a fine grid of
// the cone (a grid over the weighted simplex of nu) for q = 2 and 3, with J
// at every grid point from the independent reference refJ.
func TestBruteForce(t *testing.T) {
	cases := []struct {
		q, steps int
		w, c     float64
		classes  int // 2: one binary problem; 3: the sum over one-vs-all
		l        int
		seed     uint64
	}{
		{2, 400, 1, 100, 2, 10, 1},
		{2, 400, 2, 100, 2, 10, 2},
		{2, 400, 1.5, 1, 2, 10, 3},
		{3, 60, 1, 100, 2, 10, 4},
		{3, 60, 2, 100, 2, 10, 5},
		{3, 60, 1.2, 10, 2, 10, 6},
		{2, 200, 1, 10, 3, 9, 12},
		{3, 40, 1, 10, 3, 9, 8},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("q=%d/w=%v/C=%v/classes=%d", tc.q, tc.w, tc.c, tc.classes), func(t *testing.T) {
			b := randomBasis(30, tc.q, tc.seed)
			idx, ys := problems(b, tc.l, tc.classes, tc.seed)
			n, _ := b.Dims()
			delta := float64(n)
			s := &Settings{Decay: tc.w, C: tc.c, Tol: 1e-7, InnerTol: 1e-11}
			res, err := LearnSum(context.Background(), b, idx, ys, s)
			if err != nil {
				t.Fatal(err)
			}
			tn := colNorms(b)
			checkCone(t, res.Mu, tn, tc.w, delta)
			refJ := func(t *testing.T, b *spectral.Basis, idx []int, _ []float64, mu []float64, c float64) float64 {
				var sum float64
				for _, y := range ys {
					sum += refJ(t, b, idx, y, mu, c)
				}
				return sum
			}
			var y []float64 // placeholder: refJ above sums over ys
			// The reported objective is J at the reported mu.
			jm := refJ(t, b, idx, y, res.Mu, tc.c)
			// 1e-7: the inner and reference SVMs stop at KKT violations of
			// 1e-11, so their optimal values agree to far better than this.
			if math.Abs(jm-res.Objective) > 1e-7*jm {
				t.Errorf("Objective %v, reference J at Mu %v", res.Objective, jm)
			}
			// Grid over nu >= 0, sum_k s_k nu_k = delta, s_k = trace of
			// the k-th ray direction: nu_k = delta frac_k / s_k.
			sk := make([]float64, tc.q)
			for k := range sk {
				e := make([]float64, tc.q)
				e[k] = 1
				m := muFromNu(e, tc.w)
				for i := range m {
					sk[k] += m[i] * tn[i]
				}
			}
			var nuOf func([]float64) []float64
			best := math.Inf(1)
			frac := make([]float64, tc.q)
			var walk func(k, left int)
			walk = func(k, left int) {
				if k == tc.q-1 {
					frac[k] = float64(left) / float64(tc.steps)
					best = math.Min(best, refJ(t, b, idx, y, muFromNu(nuOf(frac), tc.w), tc.c))
					return
				}
				for i := 0; i <= left; i++ {
					frac[k] = float64(i) / float64(tc.steps)
					walk(k+1, left-i)
				}
			}
			nuOf = func(f []float64) []float64 {
				nu := make([]float64, tc.q)
				for i := range nu {
					nu[i] = delta * f[i] / sk[i]
				}
				return nu
			}
			walk(0, tc.steps)
			// MM is at least as good as every grid point (up to its gap) ...
			if res.Objective > best+res.Gap*res.Upper+1e-9*best {
				t.Errorf("MM objective %v above the grid minimum %v", res.Objective, best)
			}
			// ... and the grid minimum is within the grid's resolution of
			// it: for the grid point p nearest MM's theta, convexity gives
			// J(p) - J(theta) <= grad J(p)·(p - theta), and best <= J(p).
			p := make([]float64, tc.q)
			var sum float64
			for k := 0; k < tc.q-1; k++ {
				p[k] = math.Round(res.Theta[k]*float64(tc.steps)) / float64(tc.steps)
				sum += p[k]
			}
			p[tc.q-1] = math.Max(1-sum, 0)
			jp := refJ(t, b, idx, y, muFromNu(nuOf(p), tc.w), tc.c)
			g := make([]float64, tc.q)
			for _, y := range ys {
				_, gp, err := Objective(context.Background(), b, idx, y, muFromNu(nuOf(p), tc.w), s, nil)
				if err != nil {
					t.Fatal(err)
				}
				for i := range g {
					g[i] += gp[i]
				}
			}
			var bound float64
			for k := range p {
				e := make([]float64, tc.q)
				e[k] = 1
				var dk float64 // dJ/dtheta_k = sum_i dmu_i/dtheta_k dJ/dmu_i
				for i, v := range muFromNu(nuOf(e), tc.w) {
					dk += v * g[i]
				}
				bound += dk * (p[k] - res.Theta[k])
			}
			// 1e-9: the accuracy of the reference SVM solves, relative.
			if best > jp+1e-9*jp || jp > res.Objective+math.Max(bound, 0)+1e-9*jp {
				t.Errorf("grid minimum %v, J at the nearest grid point %v, MM %v + bound %v", best, jp, res.Objective, bound)
			}
			t.Logf("MM J=%.8g grid J=%.8g (nearest %.8g, bound %.2g) it=%d gap=%.2g theta=%.3f", res.Objective, best, jp, bound, res.Iterations, res.Gap, res.Theta)
		})
	}
}

// TestConvergence checks the documented behaviour over random problems:
// strictly decreasing history, relative gap below Tol at exit, Lower <=
// Objective <= Upper, mu in the cone, alpha feasible.
func TestConvergence(t *testing.T) {
	cases := []struct {
		n, q, l int
		w, c    float64
		tol     float64
	}{
		{40, 5, 12, 1, 100, 1e-6},
		{40, 8, 15, 1.1, 100, 1e-4},
		{60, 10, 20, 2, 100, 1e-4},
		{60, 10, 20, 2, 0.5, 1e-6},
		{80, 20, 30, 1, 10, 1e-5},
		{50, 30, 20, 1e6, 100, 1e-4}, // huge decay: rays nearly equal
	}
	for _, tc := range cases {
		for seed := uint64(1); seed <= 3; seed++ {
			name := fmt.Sprintf("n=%d/q=%d/l=%d/w=%v/C=%v/seed=%d", tc.n, tc.q, tc.l, tc.w, tc.c, seed)
			t.Run(name, func(t *testing.T) {
				b := randomBasis(tc.n, tc.q, seed)
				idx, y := problem(b, tc.l, seed+10)
				res, err := Learn(context.Background(), b, idx, y, &Settings{Decay: tc.w, C: tc.c, Tol: tc.tol})
				if err != nil {
					t.Fatalf("%v (status %v, gap %v)", err, res.Status, res.Gap)
				}
				checkResult(t, res, b, y, tc.w, tc.c, tc.tol)
			})
		}
	}
}

func checkResult(t *testing.T, res *Result, b *spectral.Basis, y []float64, w, c, tol float64) {
	t.Helper()
	n, _ := b.Dims()
	if res.Status != linalg.Converged || !(res.Gap <= tol) {
		t.Errorf("status %v gap %v, want converged below %v", res.Status, res.Gap, tol)
	}
	for i := 1; i < len(res.History); i++ {
		if !(res.History[i] < res.History[i-1]) {
			t.Errorf("history not decreasing at %d: %v -> %v", i, res.History[i-1], res.History[i])
		}
	}
	if len(res.History) != res.Iterations+1 || res.History[len(res.History)-1] != res.Objective {
		t.Errorf("history has %d entries ending %v for %d iterations, objective %v", len(res.History), res.History[len(res.History)-1], res.Iterations, res.Objective)
	}
	// 1e-9: the inner solve's primal-dual gap, relative (InnerTol 1e-9 times
	// at most 2Cl, far below this for these sizes... see package doc).
	if !(res.Lower <= res.Objective*(1+1e-9)) || !(res.Objective <= res.Upper*(1+1e-9)) {
		t.Errorf("bounds out of order: lower %v objective %v upper %v", res.Lower, res.Objective, res.Upper)
	}
	checkCone(t, res.Mu, colNorms(b), w, float64(n))
	var sy float64
	for j, a := range res.Alpha {
		if a < 0 || a > c {
			t.Errorf("alpha[%d] = %v outside [0, %v]", j, a, c)
		}
		sy += a * y[j]
	}
	// 1e-9: rounding of l updates of size <= C.
	if math.Abs(sy) > 1e-9*c*float64(len(y)) {
		t.Errorf("sum y alpha = %v", sy)
	}
}

// TestGradient checks dJ/dmu from Objective against central differences of
// J at interior points (all mu > 0, so the labeled kernel block has full
// rank and J is differentiable).
func TestGradient(t *testing.T) {
	cases := []struct {
		n, q, l int
		c       float64
	}{
		{30, 4, 8, 100},
		{40, 12, 10, 100},
		{40, 6, 15, 1}, // many alphas at the bound C
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("q=%d/l=%d/C=%v", tc.q, tc.l, tc.c), func(t *testing.T) {
			b := randomBasis(tc.n, tc.q, 7)
			idx, y := problem(b, tc.l, 8)
			mu := make([]float64, tc.q)
			for i := range mu {
				mu[i] = float64(tc.n) / float64(tc.q) * (1 + 0.3*float64(i%3))
			}
			s := &Settings{C: tc.c, InnerTol: 1e-13}
			j0, g, err := Objective(context.Background(), b, idx, y, mu, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range mu {
				// h: 1e-5 relative; the central difference error is
				// O(h²·J'''), the inner solve's error about 1e-13 / h.
				h := 1e-5 * mu[i]
				mp := append([]float64(nil), mu...)
				mm := append([]float64(nil), mu...)
				mp[i] += h
				mm[i] -= h
				jp, _, err1 := Objective(context.Background(), b, idx, y, mp, s, nil)
				jm, _, err2 := Objective(context.Background(), b, idx, y, mm, s, nil)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				fd := (jp - jm) / (2 * h)
				// 1e-5 relative to the scale J/mu_i of the derivatives.
				if math.Abs(fd-g[i]) > 1e-5*(math.Abs(g[i])+j0/mu[i]) {
					t.Errorf("dJ/dmu[%d] = %v, finite difference %v", i, g[i], fd)
				}
			}
		})
	}
}

// TestBeatsFixedKernels: MM minimises J over the cone, so any feasible mu
// gives a larger J: the SKL coefficients (same decay w = 2, rescaled to
// trace n) and, for w = 1 (order constraint), uniform mu.
func TestBeatsFixedKernels(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		b := randomBasis(60, 10, seed)
		idx, y := problem(b, 20, seed)
		n, q := b.Dims()
		ctx := context.Background()
		target := mat.NewDense(len(y), 1, y)
		skl, err := spectral.NewSKL(2).Coefficients(ctx, nil, b, idx, target)
		if err != nil {
			t.Fatal(err)
		}
		uni := make([]float64, q)
		for i := range uni {
			uni[i] = float64(n) / float64(q)
		}
		for _, tc := range []struct {
			name string
			w    float64
			mu   []float64
		}{{"SKL", 2, skl}, {"uniform", 1, uni}} {
			res, err := Learn(ctx, b, idx, y, &Settings{Decay: tc.w})
			if err != nil {
				t.Fatal(err)
			}
			j := refJ(t, b, idx, y, tc.mu, svm.DefaultC)
			// 1e-9: the reference's inner-solve accuracy, relative.
			if res.Objective > j*(1+1e-9) {
				t.Errorf("seed %d: MM J %v above %s J %v", seed, res.Objective, tc.name, j)
			}
			t.Logf("seed %d: MM J %.6g, %s J %.6g", seed, res.Objective, tc.name, j)
		}
	}
}

// TestIonosphere runs MM on the ionosphere basis of models.Fit (RBF kernel,
// top 20 eigenpairs) for several labeled sets and checks convergence and
// that Decision matches the SVM's own decision values on the labeled block.
func TestIonosphere(t *testing.T) {
	b, yAll := ionosphereBasis(t, 20)
	var lr Learner
	var res Result
	for _, l := range []int{10, 20, 40} {
		for seed := uint64(1); seed <= 3; seed++ {
			idx, y := pickLabeled(yAll, l, seed)
			if err := lr.Learn(context.Background(), &res, b, idx, y); err != nil {
				t.Fatalf("l=%d seed=%d: %v", l, seed, err)
			}
			checkResult(t, &res, b, y, DefaultDecay, svm.DefaultC, DefaultTol)
			f, err := res.Decision(nil, b)
			if err != nil {
				t.Fatal(err)
			}
			// Independent decision values on the labeled rows:
			// sum_j y_j alpha_j Kbar(x_j, x_r) + b with Kbar from mat.
			n, q := b.Dims()
			var vd, k mat.Dense
			vd.Mul(b.V, mat.NewDiagDense(q, res.Mu))
			vl := mat.NewDense(len(idx), q, nil)
			for r, j := range idx {
				vl.SetRow(r, b.V.RawRowView(j))
			}
			k.Mul(&vd, vl.T()) // n x l
			var agree int
			for r := 0; r < n; r++ {
				want := res.Bias[0]
				for j := range idx {
					want += y[j] * res.Alpha[j] * k.At(r, j)
				}
				// 1e-10 relative to the size of the terms.
				if math.Abs(f[r]-want) > 1e-10*(1+math.Abs(want)) {
					t.Fatalf("Decision[%d] = %v, want %v", r, f[r], want)
				}
				if (f[r] >= 0) == (yAll[r] > 0) {
					agree++
				}
			}
			t.Logf("l=%d seed=%d: it=%d evals=%d J=%.5g gap=%.2g accuracy on all %d points %.3f", l, seed, res.Iterations, res.Evaluations, res.Objective, res.Gap, n, float64(agree)/float64(n))
		}
	}
}

// TestRays checks the extreme-ray recursion for large w and q: every theta
// maps into the cone with the right trace and no NaN.
func TestRays(t *testing.T) {
	for _, w := range []float64{1, 1.5, 2, 1e3, 1e100} {
		b := randomBasis(50, 30, 11)
		lr := Learner{Settings: Settings{Decay: w}}
		idx, y := problem(b, 10, 12)
		if err := lr.setup("mm.test", b, idx, [][]float64{y}); err != nil {
			t.Fatal(err)
		}
		q := lr.q
		for k := 0; k < q; k++ {
			mu := lr.c[k*q : (k+1)*q]
			for i, v := range mu {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("w=%v ray %d coefficient %d is %v", w, k, i, v)
				}
			}
			checkCone(t, mu, lr.t, w, 50)
			// The ray's last non-zero coefficient is mu_k and the ray is
			// tight on every decay constraint before it: mu_i = w mu_{i+1}
			// for i < k (relative rounding 1e-12; coefficients below 1e-280
			// may underflow, which only w = 1e100 reaches).
			for i := 0; i < k; i++ {
				if want := w * mu[i+1]; math.Abs(mu[i]-want) > 1e-12*math.Abs(mu[i])+1e-280 {
					t.Fatalf("w=%v ray %d: mu[%d] = %v, want %v", w, k, i, mu[i], want)
				}
			}
		}
	}
}

// TestStopping: a cancelled context is an error wrapping context.Canceled;
// an iteration limit is an outcome (status IterationLimit, nil error) with
// the best point.
func TestStopping(t *testing.T) {
	b := randomBasis(40, 8, 1)
	idx, y := problem(b, 15, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := Learn(ctx, b, idx, y, &Settings{Decay: 1}); !errors.Is(err, context.Canceled) || errors.Is(err, linalg.ErrInvalid) || res == nil || res.Status != linalg.Canceled {
		t.Errorf("cancelled: err = %v, result %+v", err, res)
	}
	// Decay = 1 on this problem needs tens of iterations (see TestConvergence),
	// so two cannot reach Tol = 1e-12.
	res, err := Learn(context.Background(), b, idx, y, &Settings{Decay: 1, MaxIter: 2, Tol: 1e-12})
	if err != nil || res == nil || res.Status != linalg.IterationLimit {
		t.Fatalf("iteration limit: err = %v, res = %+v", err, res)
	}
	if res.Iterations != 2 || len(res.Mu) != 8 || len(res.History) != 3 || !(res.Gap > 0) {
		t.Errorf("iteration limit result: it=%d mu=%v history=%v gap=%v", res.Iterations, res.Mu, res.History, res.Gap)
	}
}

// TestDesign uses MM through the spectral.Design interface.
func TestDesign(t *testing.T) {
	b := randomBasis(50, 10, 3)
	idx, y := problem(b, 16, 4)
	labels := make([]int, len(y))
	for i, v := range y {
		if v > 0 {
			labels[i] = 1
		}
	}
	target, err := spectral.Target(labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	var d spectral.Design = NewDesign(Settings{})
	if d.Name() != "MM" {
		t.Errorf("name %q", d.Name())
	}
	mu, err := d.Coefficients(context.Background(), nil, b, idx, target)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Learn(context.Background(), b, idx, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for i, v := range mu {
		sum += v
		// The basis is orthonormal, so trace n means sum n already and
		// the Design's rescaling is a no-op up to rounding.
		if math.Abs(v-res.Mu[i]) > 1e-9*50 {
			t.Errorf("mu[%d] = %v, Learn gives %v", i, v, res.Mu[i])
		}
	}
	if math.Abs(sum-50) > 1e-9 {
		t.Errorf("sum mu = %v, want n = 50", sum)
	}
	// Three classes: the Design's mu is LearnSum's over the one-vs-all
	// problems, and it beats (or ties) each problem's own MM mu on the sum.
	labels3 := make([]int, len(idx))
	for i := range labels3 {
		labels3[i] = (i * 7) % 3
	}
	three, err := spectral.Target(labels3, 3)
	if err != nil {
		t.Fatal(err)
	}
	mu3, err := d.Coefficients(context.Background(), nil, b, idx, three)
	if err != nil {
		t.Fatal(err)
	}
	ys, err := OneVsAll(labels3, 3)
	if err != nil {
		t.Fatal(err)
	}
	sum3, err := LearnSum(context.Background(), b, idx, ys, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range mu3 {
		// 1e-9 relative to n = 50: the two runs are the same computation.
		if math.Abs(v-sum3.Mu[i]) > 1e-9*50 {
			t.Errorf("3 classes: mu[%d] = %v, LearnSum gives %v", i, v, sum3.Mu[i])
		}
	}
	if sum3.Problems != 3 || len(sum3.Alpha) != 3*len(idx) || len(sum3.Bias) != 3 {
		t.Errorf("LearnSum result: %d problems, %d alphas, %d biases", sum3.Problems, len(sum3.Alpha), len(sum3.Bias))
	}
	for p, y := range ys {
		single, err := Learn(context.Background(), b, idx, y, nil)
		if err != nil {
			t.Fatal(err)
		}
		var at float64
		for _, yy := range ys {
			at += refJ(t, b, idx, yy, single.Mu, svm.DefaultC)
		}
		// Tol (1e-4) relative: both runs stop at that gap.
		if sum3.Objective > at*(1+DefaultTol) {
			t.Errorf("sum objective %v above its value %v at problem %d's own mu", sum3.Objective, at, p)
		}
	}
	f, err := sum3.Decision(nil, b)
	if err != nil || len(f) != 50*3 {
		t.Fatalf("Decision: %d values, %v", len(f), err)
	}
	// The decision value of a labeled row for problem p from Alpha and the
	// kernel: checks the n x P layout.
	for p := 0; p < 3; p++ {
		r := idx[0]
		want := sum3.Bias[p]
		for j, jj := range idx {
			var k float64
			for i, m := range sum3.Mu {
				k += m * b.V.At(r, i) * b.V.At(jj, i)
			}
			want += ys[p][j] * sum3.Alpha[p*len(idx)+j] * k
		}
		// 1e-10 relative: rounding of two orders of summation.
		if math.Abs(f[r*3+p]-want) > 1e-10*(1+math.Abs(want)) {
			t.Errorf("Decision[%d,%d] = %v, want %v", r, p, f[r*3+p], want)
		}
	}
	one := mat.NewDense(len(idx), 2, nil)
	for i := range idx {
		one.Set(i, 0, 1)
		one.Set(i, 1, float64(2*(i%2)-1))
	}
	if _, err := d.Coefficients(context.Background(), nil, b, idx, one); !errors.Is(err, linalg.ErrLabels) {
		t.Errorf("column with one sign: err = %v", err)
	}
	if _, err := d.Coefficients(context.Background(), nil, b, idx, nil); !errors.Is(err, linalg.ErrEmpty) {
		t.Errorf("nil target: err = %v", err)
	}
	if _, err := d.Coefficients(context.Background(), nil, b, idx[:3], target); !errors.Is(err, linalg.ErrShape) {
		t.Errorf("row mismatch: err = %v", err)
	}
}

// TestNoAllocs: a Learner reused on the same shape does not allocate.
func TestNoAllocs(t *testing.T) {
	b := randomBasis(60, 10, 5)
	idx, y := problem(b, 20, 6)
	lr := Learner{Settings: Settings{Decay: 1.1}}
	var res Result
	ctx := context.Background()
	if err := lr.Learn(ctx, &res, b, idx, y); err != nil {
		t.Fatal(err)
	}
	if res.Iterations < 3 {
		t.Logf("only %d iterations; the check covers little of the loop", res.Iterations)
	}
	allocs := testing.AllocsPerRun(5, func() {
		if err := lr.Learn(ctx, &res, b, idx, y); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Learn", allocs)
	}
}

// countdownCtx reports Canceled from the after-th call of Err on, so that a
// run is cancelled at a deterministic point in the middle.
type countdownCtx struct {
	context.Context
	calls, after int
}

func (c *countdownCtx) Err() error {
	c.calls++
	if c.calls >= c.after {
		return context.Canceled
	}
	return nil
}

// TestCancelMidRun: a context cancelled after some iterations stops the
// run with status Canceled, an error wrapping context.Canceled and the best
// point so far (in the cone, with its history).
func TestCancelMidRun(t *testing.T) {
	b := randomBasis(40, 8, 1)
	idx, y := problem(b, 15, 2)
	full, err := Learn(context.Background(), b, idx, y, &Settings{Decay: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Decay = 1 takes tens of iterations here (TestConvergence); Err is called
	// at least once per outer iteration, so cancelling at the 10th call
	// stops well before convergence.
	ctx := &countdownCtx{Context: context.Background(), after: 10}
	res, err := Learn(ctx, b, idx, y, &Settings{Decay: 1})
	if !errors.Is(err, context.Canceled) || res == nil || res.Status != linalg.Canceled {
		t.Fatalf("err = %v, result %+v", err, res)
	}
	if res.Iterations >= full.Iterations || len(res.History) != res.Iterations+1 {
		t.Errorf("cancelled after %d iterations (full run %d), history %d", res.Iterations, full.Iterations, len(res.History))
	}
	checkCone(t, res.Mu, colNorms(b), 1, 40)
	if res.Objective < full.Objective*(1-DefaultTol) {
		t.Errorf("cancelled run's objective %v below the optimum %v", res.Objective, full.Objective)
	}
}

// TestProjectSimplex checks the projection by its optimality conditions:
// x >= 0, sum x = 1, and v - x equals one threshold tau on the support and
// is at most tau off it.
func TestProjectSimplex(t *testing.T) {
	cases := [][]float64{
		{0.2, 0.3, 0.5},         // already on the simplex
		{5, -3, 1, 0.5},         // one dominant entry
		{1, 1, 1, 1},            // ties
		{-1, -2, -3},            // all negative
		{1e10, 1e10 + 1, -1e10}, // large scale
		{0.7},                   // q = 1
	}
	for _, v := range cases {
		x := make([]float64, len(v))
		projectSimplex(x, v, make([]float64, len(v)))
		var sum, scale float64
		for _, vv := range v {
			scale = math.Max(scale, math.Abs(vv))
		}
		tau := math.NaN()
		for k, xk := range x {
			sum += xk
			if xk < 0 {
				t.Errorf("%v: x[%d] = %v < 0", v, k, xk)
			}
			if xk > 0 {
				tau = v[k] - xk
			}
		}
		// 1e-15 relative to the largest |v|: rounding of a few additions.
		eps := 1e-15 * math.Max(scale, 1) * float64(len(v))
		if math.Abs(sum-1) > eps {
			t.Errorf("%v: sum %v", v, sum)
		}
		for k, xk := range x {
			if xk > 0 && math.Abs(v[k]-xk-tau) > eps {
				t.Errorf("%v: v-x = %v on the support, want %v", v, v[k]-xk, tau)
			}
			if xk == 0 && v[k] > tau+eps {
				t.Errorf("%v: v[%d] = %v above tau %v off the support", v, k, v[k], tau)
			}
		}
	}
}
