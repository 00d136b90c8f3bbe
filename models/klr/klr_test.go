package klr

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"ukm/dataset/datatest"
	"ukm/linalg"
	"ukm/models/internal/kerneltest"
)

// randProblem returns an l x d feature matrix with N(0,1) entries and +-1
// labels from a noisy linear rule (so the classes overlap and the optimum is
// well inside the data scale). Both classes are guaranteed.
func randProblem(l, d int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	phi := mat.NewDense(l, d, nil)
	y := make([]float64, l)
	for i := 0; i < l; i++ {
		var s float64
		for j := 0; j < d; j++ {
			v := rng.NormFloat64()
			phi.Set(i, j, v)
			s += v * float64(j+1) / float64(d)
		}
		y[i] = 1
		if s+0.7*rng.NormFloat64() < 0 {
			y[i] = -1
		}
	}
	y[0], y[1] = 1, -1
	return phi, y
}

// refObjective evaluates eq. 17 directly from its definition, with
// f = X coef + b and penalty coef^T P coef (P = K for the kernel form, I for
// the feature form), using the naive log(1+exp(.)) (fine for the moderate
// margins of these tests).
func refObjective(x, pen mat.Matrix, y []float64, lambda float64, coef []float64, b float64) float64 {
	l := len(y)
	var loss float64
	for i := 0; i < l; i++ {
		f := b
		for j, a := range coef {
			f += x.At(i, j) * a
		}
		loss += math.Log(1 + math.Exp(-y[i]*f))
	}
	var p float64
	for i, a := range coef {
		for j, c := range coef {
			p += a * pen.At(i, j) * c
		}
	}
	return loss/float64(l) + lambda/2*p
}

type formCase struct {
	name string
	form Form
	bias bool
}

var formCases = []formCase{
	{"kernel", KernelForm, false},
	{"kernel+bias", KernelForm, true},
	{"features", FeatureForm, false},
	{"features+bias", FeatureForm, true},
}

// setup builds the internal problem and workspace for a form on data phi, y;
// the kernel form uses the (singular, rank d < l) Gram matrix Phi Phi^T.
func setup(t *testing.T, fc formCase, phi *mat.Dense, y []float64, lambda float64) (*problem, *newton, mat.Matrix, mat.Matrix) {
	t.Helper()
	l, d := phi.Dims()
	var ft Fitter
	p := &problem{form: fc.form, l: l, y: y}
	var x, pen mat.Matrix
	if fc.form == KernelForm {
		k := kerneltest.Linear(phi, phi)
		kr, err := ft.kernelView("klr.test", k, l)
		if err != nil {
			t.Fatal(err)
		}
		p.k, p.n = kr, l
		x, pen = k, k
	} else {
		pr, err := ft.featureView("klr.test", phi, l)
		if err != nil {
			t.Fatal(err)
		}
		p.phi, p.n = pr, d
		x, pen = phi, eye(d)
	}
	w := &newton{lambda: lambda, bias: fc.bias}
	w.resize(p)
	return p, w, x, pen
}

func eye(n int) *mat.DiagDense {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return mat.NewDiagDense(n, v)
}

// TestGradientHessianFD checks the analytic gradient against central finite
// differences of the independently coded objective, and the Newton direction
// against a finite-difference Hessian-vector product: H dir = -grad.
func TestGradientHessianFD(t *testing.T) {
	const l, d, lambda = 12, 4, 0.3
	phi, y := randProblem(l, d, 7)
	for _, fc := range formCases {
		t.Run(fc.name, func(t *testing.T) {
			p, w, x, pen := setup(t, fc, phi, y, lambda)
			rng := rand.New(rand.NewPCG(3, 3))
			for i := range w.coef {
				w.coef[i] = 0.5 * rng.NormFloat64()
			}
			if fc.bias {
				w.b = 0.3
			}
			grad := func(coef []float64, b float64) ([]float64, float64) {
				save, saveb := append([]float64(nil), w.coef...), w.b
				copy(w.coef, coef)
				w.b = b
				w.predict(p, w.f, w.coef, w.b)
				w.gradient(p)
				g := append([]float64(nil), w.g...)
				gb := w.gb
				copy(w.coef, save)
				w.b = saveb
				w.predict(p, w.f, w.coef, w.b)
				w.gradient(p)
				return g, gb
			}
			coef := append([]float64(nil), w.coef...)
			g, gb := grad(coef, w.b)
			// Internal objective equals the reference definition (to
			// rounding, 1e-13 relative).
			w.predict(p, w.f, w.coef, w.b)
			if got, want := w.objective(p, w.f, w.coef, w.b), refObjective(x, pen, y, lambda, coef, w.b); math.Abs(got-want) > 1e-13*math.Abs(want) {
				t.Fatalf("objective %v, reference %v", got, want)
			}
			// Central differences with h = 1e-5 have truncation error
			// O(h^2 J''') ~ 1e-10 and rounding error O(eps J / h) ~ 1e-11.
			const h = 1e-5
			var gmax float64
			for _, v := range g {
				gmax = math.Max(gmax, math.Abs(v))
			}
			tol := 1e-8 * math.Max(1, gmax)
			for i := range coef {
				cp, cm := append([]float64(nil), coef...), append([]float64(nil), coef...)
				cp[i] += h
				cm[i] -= h
				fd := (refObjective(x, pen, y, lambda, cp, w.b) - refObjective(x, pen, y, lambda, cm, w.b)) / (2 * h)
				if math.Abs(fd-g[i]) > tol {
					t.Errorf("grad[%d] = %v, finite difference %v", i, g[i], fd)
				}
			}
			if fc.bias {
				fd := (refObjective(x, pen, y, lambda, coef, w.b+h) - refObjective(x, pen, y, lambda, coef, w.b-h)) / (2 * h)
				if math.Abs(fd-gb) > tol {
					t.Errorf("grad b = %v, finite difference %v", gb, fd)
				}
			} else if gb != 0 {
				t.Errorf("bias gradient %v without bias", gb)
			}
			// Newton direction: H dir = -g with H dir from differences of
			// the analytic gradient along dir.
			w.predict(p, w.f, w.coef, w.b)
			w.gradient(p)
			db, ok := w.direction(p)
			if !ok {
				t.Fatal("Newton matrix not factorised")
			}
			dir := append([]float64(nil), w.dir...)
			cp, cm := append([]float64(nil), coef...), append([]float64(nil), coef...)
			for i := range dir {
				cp[i] += h * dir[i]
				cm[i] -= h * dir[i]
			}
			gp, gbp := grad(cp, w.b+h*db)
			gm, gbm := grad(cm, w.b-h*db)
			for i := range g {
				hd := (gp[i] - gm[i]) / (2 * h)
				if math.Abs(hd+g[i]) > 1e-6*math.Max(1, gmax) {
					t.Errorf("(H dir)[%d] = %v, want -grad = %v", i, hd, -g[i])
				}
			}
			if hd := (gbp - gbm) / (2 * h); math.Abs(hd+gb) > 1e-6*math.Max(1, gmax) {
				t.Errorf("(H dir)_b = %v, want %v", hd, -gb)
			}
		})
	}
}

// refMinimize minimises eq. 17 in feature form, f = X w (+ b), ||f||^2 =
// ||w||^2, by Nesterov's accelerated gradient method with the fixed step 1/L,
// L = lambda + sigma_max([X 1])^2 / (4 l) (the loss Hessian is bounded by
// X^T X / (4 l)). It shares no code with the package and is run until the
// gradient norm is below gtol.
func refMinimize(t *testing.T, x *mat.Dense, y []float64, lambda float64, bias bool, gtol float64) ([]float64, float64) {
	t.Helper()
	l, n := x.Dims()
	xa := mat.NewDense(l, n+1, nil)
	for i := 0; i < l; i++ {
		for j := 0; j < n; j++ {
			xa.Set(i, j, x.At(i, j))
		}
		xa.Set(i, n, 1)
	}
	var svd mat.SVD
	if !svd.Factorize(xa, mat.SVDNone) {
		t.Fatal("SVD failed")
	}
	smax := svd.Values(nil)[0]
	lip := lambda + smax*smax/(4*float64(l))
	nv := n
	if bias {
		nv = n + 1
	}
	grad := func(g, v []float64) {
		for j := range g {
			g[j] = 0
		}
		for i := 0; i < l; i++ {
			var f float64
			for j := 0; j < nv; j++ {
				f += xa.At(i, j) * v[j]
			}
			r := -y[i] / (1 + math.Exp(y[i]*f)) / float64(l)
			for j := 0; j < nv; j++ {
				g[j] += xa.At(i, j) * r
			}
		}
		for j := 0; j < n; j++ {
			g[j] += lambda * v[j]
		}
	}
	v := make([]float64, nv)
	prev := make([]float64, nv)
	z := make([]float64, nv)
	g := make([]float64, nv)
	for it := 1; it < 2000000; it++ {
		// Momentum restarted from (k-1)/(k+2) schedule.
		beta := float64(it-1) / float64(it+2)
		for j := range z {
			z[j] = v[j] + beta*(v[j]-prev[j])
		}
		grad(g, z)
		copy(prev, v)
		for j := range v {
			v[j] = z[j] - g[j]/lip
		}
		if it%50 == 0 {
			grad(g, v)
			if floats.Norm(g, math.Inf(1)) < gtol {
				break
			}
		}
	}
	grad(g, v)
	if gn := floats.Norm(g, math.Inf(1)); gn > gtol {
		t.Fatalf("reference optimizer stopped at gradient %v", gn)
	}
	if bias {
		return v[:n], v[n]
	}
	return v, 0
}

// TestNewtonMatchesReference compares Newton's optimum with an independent
// accelerated-gradient solve run to a gradient of 1e-14. For the kernel form
// the reference runs on Phi_K = V sqrt(Lambda) from the eigendecomposition of
// K (an RBF kernel, full rank), whose feature form is equivalent.
func TestNewtonMatchesReference(t *testing.T) {
	const l, d, lambda = 30, 4, 0.05
	phi, y := randProblem(l, d, 11)
	krbf := kerneltest.RBF(phi, phi, 2)
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(l, krbf.RawMatrix().Data), true) {
		t.Fatal("eigendecomposition failed")
	}
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	phiK := mat.NewDense(l, l, nil)
	for j, ev := range es.Values(nil) {
		s := math.Sqrt(math.Max(ev, 0))
		for i := 0; i < l; i++ {
			phiK.Set(i, j, vecs.At(i, j)*s)
		}
	}
	for _, fc := range formCases {
		t.Run(fc.name, func(t *testing.T) {
			s := &Settings{Lambda: lambda, Bias: fc.bias, Tol: 1e-12}
			var m *Model
			var err error
			xref, xmod := phi, mat.Matrix(phi)
			if fc.form == KernelForm {
				xref, xmod = phiK, krbf
				m, err = FitKernel(context.Background(), krbf, y, s)
			} else {
				m, err = FitFeatures(context.Background(), phi, y, s)
			}
			if err != nil {
				t.Fatal(err)
			}
			w, b := refMinimize(t, xref, y, lambda, fc.bias, 1e-14)
			fN, err := m.Decision(nil, xmod)
			if err != nil {
				t.Fatal(err)
			}
			// Decision values on the training points agree to 1e-8
			// relative to their scale (both solutions are within ~1e-12
			// gradient of the optimum; the Hessian is >= lambda I).
			var fmax, diff float64
			for i := 0; i < l; i++ {
				f := b
				for j, a := range w {
					f += xref.At(i, j) * a
				}
				fmax = math.Max(fmax, math.Abs(f))
				diff = math.Max(diff, math.Abs(f-fN[i]))
			}
			if diff > 1e-8*fmax {
				t.Errorf("max |f_newton - f_ref| = %.3g (scale %.3g)", diff, fmax)
			}
			if m.Stats.Status != linalg.Converged || m.Stats.Iterations > 30 {
				t.Errorf("stats %+v: want convergence in a few Newton steps", m.Stats)
			}
		})
	}
}

// TestFeatureEqualsKernel: on K = Phi Phi^T the two forms give the same
// decision function, on the training points and on new points.
func TestFeatureEqualsKernel(t *testing.T) {
	const l, d, m = 25, 5, 9
	phi, y := randProblem(l, d, 5)
	pnew, _ := randProblem(m, d, 6)
	k := kerneltest.Linear(phi, phi)
	cross := kerneltest.Linear(pnew, phi)
	for _, bias := range []bool{false, true} {
		for _, lambda := range []float64{1e-3, 0.1, 3} {
			t.Run(fmt.Sprintf("bias=%v/lambda=%g", bias, lambda), func(t *testing.T) {
				s := &Settings{Lambda: lambda, Bias: bias, Tol: 1e-11}
				mk, err := FitKernel(context.Background(), k, y, s)
				if err != nil {
					t.Fatal(err)
				}
				mf, err := FitFeatures(context.Background(), phi, y, s)
				if err != nil {
					t.Fatal(err)
				}
				for _, pair := range []struct {
					name   string
					xk, xf mat.Matrix
				}{{"train", k, phi}, {"new", cross, pnew}} {
					fk, err := mk.Decision(nil, pair.xk)
					if err != nil {
						t.Fatal(err)
					}
					ff, err := mf.Decision(nil, pair.xf)
					if err != nil {
						t.Fatal(err)
					}
					// Both optima are within ~1e-11 relative gradient; 1e-7
					// relative to the decision scale leaves room for the
					// conditioning of small lambda.
					var scale float64
					for _, v := range ff {
						scale = math.Max(scale, math.Abs(v))
					}
					for i := range fk {
						if math.Abs(fk[i]-ff[i]) > 1e-7*math.Max(1, scale) {
							t.Errorf("%s point %d: kernel form %v, feature form %v", pair.name, i, fk[i], ff[i])
						}
					}
				}
				if math.Abs(mk.Bias-mf.Bias) > 1e-7*math.Max(1, math.Abs(mf.Bias)) {
					t.Errorf("bias: kernel %v, features %v", mk.Bias, mf.Bias)
				}
			})
		}
	}
}

// TestSeparable: with linearly separable data and a tiny lambda the optimum
// has huge margins. The fit must converge or stop early with a status saying
// so (and no error), and never produce NaN; probabilities stay within [0, 1].
func TestSeparable(t *testing.T) {
	const l = 20
	phi := mat.NewDense(l, 2, nil)
	y := make([]float64, l)
	for i := 0; i < l; i++ {
		y[i] = float64(2*(i%2) - 1)
		phi.Set(i, 0, y[i]*(1+float64(i)/10))
		phi.Set(i, 1, float64(i%5)-2)
	}
	k := kerneltest.Linear(phi, phi)
	for _, fc := range formCases {
		for _, lambda := range []float64{1e-6, 1e-10} {
			t.Run(fmt.Sprintf("%s/lambda=%g", fc.name, lambda), func(t *testing.T) {
				s := &Settings{Lambda: lambda, Bias: fc.bias}
				var m *Model
				var err error
				x := mat.Matrix(phi)
				if fc.form == KernelForm {
					x = k
					m, err = FitKernel(context.Background(), k, y, s)
				} else {
					m, err = FitFeatures(context.Background(), phi, y, s)
				}
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				t.Logf("status %v after %d iterations, objective %.3g", m.Stats.Status, m.Stats.Iterations, m.Stats.Objective)
				switch m.Stats.Status {
				case linalg.Converged, linalg.IterationLimit, linalg.Stalled:
				default:
					t.Errorf("status %v", m.Stats.Status)
				}
				p, perr := m.Prob(nil, x)
				if perr != nil {
					t.Fatal(perr)
				}
				for i, v := range p {
					if !(v >= 0 && v <= 1) {
						t.Fatalf("p[%d] = %v", i, v)
					}
					if (v > 0.5) != (y[i] > 0) {
						t.Errorf("training point %d misclassified (p=%v) on separable data", i, v)
					}
				}
				if math.IsNaN(m.Stats.Objective) || m.Stats.Objective >= math.Ln2 {
					t.Errorf("objective %v: want finite and below J(0) = ln 2", m.Stats.Objective)
				}
			})
		}
	}
}

// TestStableFunctions checks Sigmoid and the loss at extreme arguments.
func TestStableFunctions(t *testing.T) {
	for _, c := range []struct{ t, sig, loss float64 }{
		{0, 0.5, math.Ln2},
		{800, 1, 0},        // exp(800) overflows if evaluated naively
		{-800, 0, 800},     // loss(-m) ~ m for large m
		{1e300, 1, 0},      //
		{-1e300, 0, 1e300}, //
		{40, 1 - 4.248354255291589e-18, 4.248354255291589e-18}, // exp(-40)
	} {
		if got := Sigmoid(c.t); math.IsNaN(got) || math.Abs(got-c.sig) > 1e-15 {
			t.Errorf("Sigmoid(%v) = %v, want %v", c.t, got, c.sig)
		}
		if got := logLoss(c.t); math.IsNaN(got) || math.Abs(got-c.loss) > 1e-15*math.Max(1, c.loss) {
			t.Errorf("loss(%v) = %v, want %v", c.t, got, c.loss)
		}
	}
	if got := Sigmoid(-40); got <= 0 || math.Abs(got-4.248354255291589e-18) > 1e-30 {
		t.Errorf("Sigmoid(-40) = %v: small probabilities must keep relative accuracy", got)
	}
}

// TestWarmStart: refitting from the optimum takes no Newton step; a refit
// after appending points (kernel form, zero-padded alpha) converges to the
// same answer as a cold fit.
func TestWarmStart(t *testing.T) {
	phi, y := randProblem(30, 5, 21)
	for _, fc := range formCases {
		t.Run(fc.name, func(t *testing.T) {
			ft := Fitter{Settings: Settings{Lambda: 0.05, Bias: fc.bias}}
			fit := func(m *Model, rows int, warm bool) error {
				sub := phi.Slice(0, rows, 0, 5).(*mat.Dense)
				if fc.form == KernelForm {
					return ft.FitKernel(context.Background(), m, kerneltest.Linear(sub, sub), y[:rows], warm)
				}
				return ft.FitFeatures(context.Background(), m, sub, y[:rows], warm)
			}
			var m Model
			if err := fit(&m, 30, false); err != nil {
				t.Fatal(err)
			}
			if err := fit(&m, 30, true); err != nil {
				t.Fatal(err)
			}
			if m.Stats.Iterations != 0 {
				t.Errorf("refit from optimum took %d iterations", m.Stats.Iterations)
			}
			var grown, cold Model
			if err := fit(&grown, 20, false); err != nil {
				t.Fatal(err)
			}
			if err := fit(&grown, 30, true); err != nil {
				t.Fatal(err)
			}
			if err := fit(&cold, 30, false); err != nil {
				t.Fatal(err)
			}
			// Both within Tol = 1e-8 relative gradient of the optimum.
			if math.Abs(grown.Stats.Objective-cold.Stats.Objective) > 1e-12 {
				t.Errorf("warm objective %v, cold %v", grown.Stats.Objective, cold.Stats.Objective)
			}
			if grown.Stats.Iterations > cold.Stats.Iterations {
				t.Logf("warm start took %d iterations, cold %d", grown.Stats.Iterations, cold.Stats.Iterations)
			}
		})
	}
}

// TestLimitsAndCancel checks the iteration limit (an outcome: status
// IterationLimit and a nil error) and context cancellation (status Canceled
// and an error wrapping context.Canceled, not an input error); both return
// the best iterate.
func TestLimitsAndCancel(t *testing.T) {
	phi, y := randProblem(20, 3, 2)
	m, err := FitFeatures(context.Background(), phi, y, &Settings{MaxIter: 1, Lambda: 1e-3})
	if err != nil || m == nil || m.Stats.Status != linalg.IterationLimit || m.Stats.Iterations != 1 {
		t.Fatalf("MaxIter=1: err %v, model %+v", err, m)
	}
	if m.Stats.Objective >= math.Ln2 {
		t.Errorf("one Newton step must decrease J below J(0) = ln 2, got %v", m.Stats.Objective)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, err = FitKernel(ctx, kerneltest.Linear(phi, phi), y, nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, linalg.ErrInvalid) || m == nil || m.Stats.Status != linalg.Canceled {
		t.Fatalf("cancelled: err %v, model %+v", err, m)
	}
}

// TestRefitAllocs: a warm refit of the same size through a Fitter allocates
// nothing (the active-learning loop refits every round).
func TestRefitAllocs(t *testing.T) {
	phi, y := randProblem(40, 20, 4)
	k := mat.NewSymDense(40, nil)
	k.SymOuterK(1, phi)
	ctx := context.Background()
	for _, fc := range formCases {
		t.Run(fc.name, func(t *testing.T) {
			ft := Fitter{Settings: Settings{Lambda: 0.01, Bias: fc.bias}}
			var m Model
			fit := func() {
				var err error
				if fc.form == KernelForm {
					err = ft.FitKernel(ctx, &m, k, y, false)
				} else {
					err = ft.FitFeatures(ctx, &m, phi, y, false)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			fit()
			if a := testing.AllocsPerRun(5, fit); a != 0 {
				t.Errorf("%v allocations per refit, want 0", a)
			}
		})
	}
}

// requireData loads a reference data set (skipping when it is absent unless
// CI is set) and returns its features, class indices and class count.
func requireData(t testing.TB, name string) (*mat.Dense, []int, int) {
	t.Helper()
	set := datatest.Load(t, name)
	return set.X, set.Y, len(set.Classes)
}

// A problem whose gradient at the zero model is zero in exact arithmetic
// but rounding in floating point (0.1 + 0.2 − 0.3 = 5.6e-17): the zero
// model is the optimum, and both forms must say Converged at once. The
// relative test alone (Tol times that rounding-level gradient) could not be
// met: the feature form ran to its iteration limit, the kernel form
// stalled with coefficients of 2.6e5 along the null space of K (found by
// FuzzFit).
func TestRoundingLevelGradient(t *testing.T) {
	phi := mat.NewDense(3, 1, []float64{0.1, 0.2, 0.3})
	y := []float64{1, 1, -1}
	var k mat.SymDense
	k.SymOuterK(1, phi)
	s := &Settings{Lambda: 1}
	mf, err := FitFeatures(context.Background(), phi, y, s)
	if err != nil {
		t.Fatal(err)
	}
	mk, err := FitKernel(context.Background(), &k, y, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*Model{mf, mk} {
		if m.Stats.Status != linalg.Converged || m.Stats.Iterations != 0 {
			t.Errorf("%v form: %v after %d iterations, coefficients %v; want Converged at the zero model", m.Form, m.Stats.Status, m.Stats.Iterations, m.Coef)
		}
	}
}
