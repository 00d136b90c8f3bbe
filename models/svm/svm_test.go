package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"ukm/dataset/datatest"
	"ukm/linalg"
	"ukm/models/internal/kerneltest"
)

// points returns n 2-D points: class +1 around (1,1), class -1 around
// (-1,-1), with Gaussian noise of the given size (overlap for noise ~ 1).
func points(n int, noise float64, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 2))
	x := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		y[i] = float64(2*(i%2) - 1)
		x.Set(i, 0, y[i]+noise*rng.NormFloat64())
		x.Set(i, 1, y[i]+noise*rng.NormFloat64())
	}
	return x, y
}

// dualValue evaluates sum(alpha) - 1/2 alpha^T Q alpha from its definition.
func dualValue(k mat.Matrix, y, alpha []float64) float64 {
	var lin, quad float64
	for i, a := range alpha {
		lin += a
		for j, b := range alpha {
			quad += a * b * y[i] * y[j] * k.At(i, j)
		}
	}
	return lin - quad/2
}

// checkKKT verifies the box, the equality constraint and the complementarity
// conditions on y_i f(x_i) to within tol.
func checkKKT(t *testing.T, m *Model, k mat.Matrix, y []float64, c, tol float64) {
	t.Helper()
	l := len(y)
	var sum, scale float64
	for i, a := range m.Alpha {
		if a < 0 || a > c {
			t.Errorf("alpha[%d] = %v outside [0, %v]", i, a, c)
		}
		sum += y[i] * a
		scale += a
	}
	// sum y alpha is preserved exactly by each pair update up to rounding:
	// 1e-12 relative to sum alpha.
	if math.Abs(sum) > 1e-12*math.Max(1, scale) {
		t.Errorf("sum y alpha = %v", sum)
	}
	f, err := m.Decision(nil, k)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < l; i++ {
		yf := y[i] * f[i]
		a := m.Alpha[i]
		switch {
		case a == 0 && yf < 1-tol:
			t.Errorf("alpha[%d] = 0 but y f = %v < 1 - %v", i, yf, tol)
		case a == c && yf > 1+tol:
			t.Errorf("alpha[%d] = C but y f = %v > 1 + %v", i, yf, tol)
		case a > 0 && a < c && math.Abs(yf-1) > tol:
			t.Errorf("alpha[%d] = %v free but y f = %v", i, a, yf)
		}
	}
	if got := dualValue(k, y, m.Alpha); math.Abs(got-m.Dual) > 1e-10*math.Max(1, math.Abs(got)) {
		t.Errorf("Model.Dual %v, recomputed %v", m.Dual, got)
	}
}

// TestKKT checks the optimality conditions of the returned solution over
// kernels (full-rank RBF, rank-2 linear, duplicated points) and C values.
func TestKKT(t *testing.T) {
	const tol = 1e-6
	type kcase struct {
		name string
		k    mat.Matrix
		y    []float64
	}
	var cases []kcase
	for _, n := range []int{20, 80} {
		x, y := points(n, 1, uint64(n))
		cases = append(cases, kcase{fmt.Sprintf("rbf/l=%d", n), kerneltest.RBF(x, x, 1), y})
		cases = append(cases, kcase{fmt.Sprintf("linear/l=%d", n), kerneltest.Linear(x, x), y})
	}
	// Duplicated points (with opposite labels for one pair) give zero
	// curvature a_ij = 0 for some pairs.
	x, y := points(12, 1, 3)
	xd := mat.NewDense(24, 2, nil)
	yd := make([]float64, 24)
	for i := 0; i < 12; i++ {
		xd.SetRow(i, x.RawRowView(i))
		xd.SetRow(i+12, x.RawRowView(i))
		yd[i], yd[i+12] = y[i], y[i]
	}
	yd[23] = -yd[23]
	cases = append(cases, kcase{"duplicates", kerneltest.RBF(xd, xd, 1), yd})
	for _, kc := range cases {
		for _, c := range []float64{0.1, 1, 100} {
			t.Run(fmt.Sprintf("%s/C=%g", kc.name, c), func(t *testing.T) {
				m, err := Train(context.Background(), kc.k, kc.y, &Settings{C: c, Tol: tol})
				if err != nil {
					t.Fatal(err)
				}
				if m.Stats.Status != linalg.Converged || m.Stats.Violation > tol*(1+1e-6) {
					t.Errorf("stats %+v", m.Stats)
				}
				// The KKT conditions hold to Tol (see the package doc);
				// 1e-9 absorbs the rounding of recomputed decision values.
				checkKKT(t, m, kc.k, kc.y, c, tol+1e-9)
			})
		}
	}
}

// bruteForce maximises the dual for tiny l by enumerating which alphas are
// at 0, at C or free; for each pattern the free alphas solve the KKT linear
// system [Q_FF y_F; y_F^T 0] [a_F; nu] = [1 - Q_FB a_B; -y_B^T a_B], and the
// best feasible candidate wins.
func bruteForce(k mat.Matrix, y []float64, c float64) float64 {
	l := len(y)
	best := math.Inf(-1)
	pat := make([]int, l)
	alpha := make([]float64, l)
	for code := 0; code < int(math.Pow(3, float64(l))); code++ {
		v := code
		var free []int
		for i := range pat {
			pat[i] = v % 3
			v /= 3
			switch pat[i] {
			case 0:
				alpha[i] = 0
			case 1:
				alpha[i] = c
			default:
				free = append(free, i)
			}
		}
		var eqB float64
		for i := range pat {
			if pat[i] != 2 {
				eqB += y[i] * alpha[i]
			}
		}
		nf := len(free)
		if nf == 0 {
			if math.Abs(eqB) > 1e-12 {
				continue
			}
		} else {
			a := mat.NewDense(nf+1, nf+1, nil)
			b := mat.NewVecDense(nf+1, nil)
			for p, i := range free {
				r := 1.0
				for j := range pat {
					if pat[j] != 2 {
						r -= y[i] * y[j] * k.At(i, j) * alpha[j]
					}
				}
				b.SetVec(p, r)
				for q, j := range free {
					a.Set(p, q, y[i]*y[j]*k.At(i, j))
				}
				a.Set(p, nf, y[i])
				a.Set(nf, p, y[i])
			}
			b.SetVec(nf, -eqB)
			var sol mat.VecDense
			if err := sol.SolveVec(a, b); err != nil {
				continue
			}
			ok := true
			for p, i := range free {
				alpha[i] = sol.AtVec(p)
				if alpha[i] < -1e-12 || alpha[i] > c+1e-12 {
					ok = false
				}
			}
			if !ok {
				continue
			}
		}
		best = math.Max(best, dualValue(k, y, alpha))
	}
	return best
}

// TestBruteForce compares the dual optimum with exhaustive enumeration of
// the active sets for l <= 6.
func TestBruteForce(t *testing.T) {
	for _, l := range []int{2, 3, 5, 6} {
		for _, c := range []float64{0.3, 1, 100} {
			for seed := uint64(0); seed < 3; seed++ {
				t.Run(fmt.Sprintf("l=%d/C=%g/seed=%d", l, c, seed), func(t *testing.T) {
					x, y := points(l, 1.2, seed+10*uint64(l))
					k := kerneltest.RBF(x, x, 0.8)
					m, err := Train(context.Background(), k, y, &Settings{C: c, Tol: 1e-10})
					if err != nil {
						t.Fatal(err)
					}
					want := bruteForce(k, y, c)
					// With violation <= 1e-10 the dual gap is below
					// ~1e-10 * sum(alpha); 1e-8 relative is a safe bound.
					if math.Abs(m.Dual-want) > 1e-8*math.Max(1, math.Abs(want)) {
						t.Errorf("dual %.15g, brute force %.15g", m.Dual, want)
					}
					checkKKT(t, m, k, y, c, 1e-9)
				})
			}
		}
	}
}

// TestSeparable: linearly separable data is classified perfectly with a
// linear kernel and C = 100, and new points from the same clusters too.
func TestSeparable(t *testing.T) {
	x, y := points(40, 0.3, 7)
	// Noise 0.3 around (+-1, +-1): the classes are separated by >= 2 *
	// sqrt(2) - 6 * 0.3 * sqrt(2) > 0 with overwhelming probability; the
	// check below makes sure of it for this seed.
	m, err := Train(context.Background(), kerneltest.Linear(x, x), y, &Settings{C: 100})
	if err != nil {
		t.Fatal(err)
	}
	pred, err := m.Predict(nil, kerneltest.Linear(x, x))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pred, y) {
		t.Errorf("training points misclassified: %v vs %v", pred, y)
	}
	if m.Stats.BoundSV != 0 {
		t.Errorf("%d support vectors at C on separable data", m.Stats.BoundSV)
	}
	xt, yt := points(200, 0.3, 8)
	pt, _ := m.Predict(nil, kerneltest.Linear(xt, x))
	if !slices.Equal(pt, yt) {
		t.Error("test points from the same clusters misclassified")
	}
}

// TestWarmStart: a re-solve from the optimum takes no iteration; after a
// small kernel change a warm start reaches the cold-start dual value; a
// warm start with an infeasible alpha is repaired.
func TestWarmStart(t *testing.T) {
	x, y := points(60, 1, 4)
	k := kerneltest.RBF(x, x, 1)
	s := Settings{C: 100, Tol: 1e-8}
	sv := Solver{Settings: s}
	var m Model
	ctx := context.Background()
	if err := sv.Train(ctx, &m, k, y, false); err != nil {
		t.Fatal(err)
	}
	cold := m.Stats.Iterations
	if err := sv.Train(ctx, &m, k, y, true); err != nil {
		t.Fatal(err)
	}
	if m.Stats.Iterations != 0 {
		t.Errorf("re-solve from the optimum took %d iterations", m.Stats.Iterations)
	}
	k2 := kerneltest.RBF(x, x, 1.05)
	if err := sv.Train(ctx, &m, k2, y, true); err != nil {
		t.Fatal(err)
	}
	ref, err := Train(ctx, k2, y, &s)
	if err != nil {
		t.Fatal(err)
	}
	// Both solutions have violation <= 1e-8; their duals agree to 1e-8
	// relative to the dual scale.
	if math.Abs(m.Dual-ref.Dual) > 1e-8*math.Abs(ref.Dual) {
		t.Errorf("warm dual %v, cold dual %v", m.Dual, ref.Dual)
	}
	t.Logf("iterations: cold %d, cold on perturbed %d, warm on perturbed %d", cold, ref.Stats.Iterations, m.Stats.Iterations)
	// Infeasible start: too large and unbalanced.
	for i := range m.Alpha {
		m.Alpha[i] = 1000 * float64(i%3)
	}
	m.Alpha[0] = math.NaN()
	if err := sv.Train(ctx, &m, k, y, true); err != nil {
		t.Fatal(err)
	}
	checkKKT(t, &m, k, y, 100, 1e-8+1e-9)
}

// TestLimitsAndCancel: the iteration limit (an outcome: status
// IterationLimit, nil error) and cancellation (status Canceled, an error
// wrapping context.Canceled) return a feasible iterate.
func TestLimitsAndCancel(t *testing.T) {
	x, y := points(40, 1, 5)
	k := kerneltest.RBF(x, x, 1)
	m, err := Train(context.Background(), k, y, &Settings{MaxIter: 3})
	if err != nil || m == nil || m.Stats.Status != linalg.IterationLimit || m.Stats.Iterations != 3 {
		t.Fatalf("err %v, model %+v", err, m)
	}
	var sum float64
	for i, a := range m.Alpha {
		sum += a * y[i]
	}
	if math.Abs(sum) > 1e-12 || m.Dual <= 0 {
		t.Errorf("limited iterate infeasible (sum y alpha %v) or no progress (dual %v)", sum, m.Dual)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, err = Train(ctx, k, y, nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, linalg.ErrInvalid) || m == nil || m.Stats.Status != linalg.Canceled {
		t.Fatalf("cancelled: err %v, model %+v", err, m)
	}
}

// TestMulti: two classes give one machine; with three, model c is the
// binary machine of c against the rest and Predict is the argmax.
func TestMulti(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const n = 45
	x := mat.NewDense(n, 2, nil)
	lab := make([]int, n)
	for i := 0; i < n; i++ {
		lab[i] = i % 3
		x.Set(i, 0, 3*float64(lab[i])+0.7*rng.NormFloat64())
		x.Set(i, 1, 0.7*rng.NormFloat64())
	}
	k := kerneltest.RBF(x, x, 1.5)
	s := &Settings{C: 10, Tol: 1e-6}
	mm, err := TrainMulti(context.Background(), k, lab, 3, s)
	if err != nil {
		t.Fatal(err)
	}
	for c := 0; c < 3; c++ {
		y := make([]float64, n)
		for i, v := range lab {
			y[i] = -1
			if v == c {
				y[i] = 1
			}
		}
		b, err := Train(context.Background(), k, y, s)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(b.Alpha, mm.Models[c].Alpha) || b.Bias != mm.Models[c].Bias {
			t.Errorf("class %d machine differs from its binary training", c)
		}
	}
	pred, err := mm.Predict(nil, k)
	if err != nil {
		t.Fatal(err)
	}
	dec, _ := mm.Decision(nil, k)
	correct := 0
	for i := range pred {
		row := dec.RawRowView(i)
		for c := range row {
			if row[c] > row[pred[i]] {
				t.Errorf("row %d: predicted %d but class %d has a larger decision value", i, pred[i], c)
			}
		}
		if pred[i] == lab[i] {
			correct++
		}
	}
	// Clusters 3 apart with noise 0.7: training accuracy well above 90%.
	if float64(correct)/n < 0.9 {
		t.Errorf("training accuracy %d/%d", correct, n)
	}
	two := make([]int, n)
	for i, v := range lab {
		two[i] = min(v, 1)
	}
	m2, err := TrainMulti(context.Background(), k, two, 2, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(m2.Models) != 1 {
		t.Errorf("%d machines for two classes", len(m2.Models))
	}
}

// TestWine: one-versus-all SVM with C = 100 (the max-margin paper's
// setting) on an RBF kernel over z-scored wine features with 30 labels.
// KDD'06 reports ~95% for RBF-kernel classifiers at 30 labels; 85% on each
// of three random splits is a safe floor.
func TestWine(t *testing.T) {
	set := datatest.Load(t, "wine")
	n, p := set.X.Dims()
	z := mat.NewDense(n, p, nil)
	col := make([]float64, n)
	for j := 0; j < p; j++ {
		mat.Col(col, j, set.X)
		mean, sd := stat.MeanStdDev(col, nil)
		for i := 0; i < n; i++ {
			z.Set(i, j, (col[i]-mean)/sd)
		}
	}
	classes := len(set.Classes)
	for seed := uint64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewPCG(seed, 5))
		var tr, te []int
		for {
			perm := rng.Perm(n)
			tr, te = perm[:30], perm[30:]
			seen := map[int]bool{}
			for _, i := range tr {
				seen[set.Y[i]] = true
			}
			if len(seen) == classes {
				break
			}
		}
		xtr := mat.NewDense(len(tr), p, nil)
		ytr := make([]int, len(tr))
		for a, i := range tr {
			xtr.SetRow(a, z.RawRowView(i))
			ytr[a] = set.Y[i]
		}
		xte := mat.NewDense(len(te), p, nil)
		for a, i := range te {
			xte.SetRow(a, z.RawRowView(i))
		}
		// Width sqrt(p): squared distances of z-scored points average 2p.
		sigma := math.Sqrt(float64(p))
		mm, err := TrainMulti(context.Background(), kerneltest.RBF(xtr, xtr, sigma), ytr, classes, &Settings{C: 100})
		if err != nil {
			t.Fatal(err)
		}
		pred, err := mm.Predict(nil, kerneltest.RBF(xte, xtr, sigma))
		if err != nil {
			t.Fatal(err)
		}
		correct := 0
		for a, i := range te {
			if pred[a] == set.Y[i] {
				correct++
			}
		}
		acc := float64(correct) / float64(len(te))
		t.Logf("split %d: accuracy %.3f", seed, acc)
		if acc < 0.85 {
			t.Errorf("split %d: accuracy %.3f < 0.85", seed, acc)
		}
	}
}

// TestRetrainAllocs: re-solving through a Solver allocates nothing.
func TestRetrainAllocs(t *testing.T) {
	x, y := points(60, 1, 6)
	k := kerneltest.RBF(x, x, 1)
	sv := Solver{Settings: Settings{C: 100}}
	var m Model
	run := func() {
		if err := sv.Train(context.Background(), &m, k, y, false); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if a := testing.AllocsPerRun(5, run); a != 0 {
		t.Errorf("%v allocations per re-solve", a)
	}
}
