package models

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/dataset/datatest"
	"ukm/models/klr"
	"ukm/models/spectral"
)

// TestFitDesigns runs every design with every initial kernel on ionosphere
// (l = 20, as in KDD'06 Table 2) and checks the predictions against a floor.
// The floor 0.67 is above the majority-class rate 225/351 = 0.641 (a
// classifier that learned nothing) and below the lowest three-draw mean we
// measured (0.699, SKL with the linear kernel; the RBF designs reach
// 0.75-0.82). The paper's Table 2 reports 0.66-0.88 for these kernels at
// l = 20 over 20 draws.
func TestFitDesigns(t *testing.T) {
	s := datatest.Load(t, "ionosphere")
	designs := []DesignKind{SKL, Cluster, Truncated, Standard, Order, ImpOrder, Diffusion, GaussianField, MM}
	kernels := []KernelKind{RBF, Linear, Quadratic}
	const floor = 0.67
	seeds := []uint64{1, 2, 3}
	for _, des := range designs {
		for _, kk := range kernels {
			if des.graph() && kk != RBF {
				continue // the graph designs do not use the initial kernel
			}
			t.Run(des.String()+"/"+kk.String(), func(t *testing.T) {
				var sum float64
				for _, seed := range seeds {
					lab, ys, unl := pickLabeled(s.Y, 20, seed)
					m, err := Fit(context.Background(), s.X, lab, ys, &Options{Design: des, Kernel: KernelSpec{Kind: kk}, Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					p, err := m.PredictRows(nil, unl)
					if err != nil {
						t.Fatal(err)
					}
					sum += accuracy(p, unl, s.Y)
					if a := m.Alignment(); !(a > 0 && a <= 1+1e-12) {
						t.Errorf("alignment %v outside (0, 1]", a)
					}
					pr, err := m.ProbaRows(nil, unl)
					if err != nil {
						t.Fatal(err)
					}
					for i := range unl {
						row := pr.RawRowView(i)
						if math.Abs(row[0]+row[1]-1) > 1e-12 {
							t.Fatalf("probabilities %v do not sum to 1", row)
						}
						if (row[1] > row[0]) != (p[i] == 1) && row[0] != row[1] {
							t.Fatalf("point %d: prediction %d disagrees with probabilities %v", unl[i], p[i], row)
						}
					}
				}
				if acc := sum / float64(len(seeds)); acc < floor {
					t.Errorf("mean accuracy %.3f below %.2f", acc, floor)
				}
			})
		}
	}
}

// randomFeasible returns mu >= 0 with mu_i >= c mu_{i+1}: each mu_i is c
// times the next plus a random non-negative increment.
func randomFeasible(rng *rand.Rand, d int, c float64) []float64 {
	mu := make([]float64, d)
	mu[d-1] = rng.Float64()
	for i := d - 2; i >= 0; i-- {
		mu[i] = c*mu[i+1] + rng.Float64()*rng.Float64()
	}
	return mu
}

// labeledAlignment is the alignment of V_L diag(mu) V_Lᵀ with the target,
// computed with an explicit l x l kernel (independent of alignFeatures).
func labeledAlignment(v *mat.Dense, mu []float64, lab, ys []int, classes int) float64 {
	l := len(lab)
	_, d := v.Dims()
	k := mat.NewSymDense(l, nil)
	for a := 0; a < l; a++ {
		for b := a; b < l; b++ {
			var s float64
			for j := 0; j < d; j++ {
				s += v.At(lab[a], j) * mu[j] * v.At(lab[b], j)
			}
			k.SetSym(a, b, s)
		}
	}
	var kt, kk, tt float64
	for a := 0; a < l; a++ {
		for b := 0; b < l; b++ {
			t := -1 / float64(classes-1)
			if ys[a] == ys[b] {
				t = 1
			}
			kt += k.At(a, b) * t
			kk += k.At(a, b) * k.At(a, b)
			tt += t * t
		}
	}
	return kt / math.Sqrt(kk*tt)
}

// TestSKLAlignmentDominates: SKL maximises the alignment of the labeled
// block over mu >= 0, mu_i >= C mu_{i+1}. With C = 1 the Cluster (equal mu)
// and Truncated (descending eigenvalues) kernels are feasible and must not
// align better; for C = 2 and 3, neither may 200 random feasible mu.
// Slack 1e-7: the QP is solved to KKT precision of about 1e-9 relative, and
// alignment is a smooth function of mu near the optimum.
func TestSKLAlignmentDominates(t *testing.T) {
	s := datatest.Load(t, "ionosphere")
	lab, ys, _ := pickLabeled(s.Y, 20, 5)
	ctx := context.Background()
	for _, kk := range []KernelKind{RBF, Linear} {
		for _, c := range []float64{1, 2, 3} {
			m, err := Fit(ctx, s.X, lab, ys, &Options{Decay: c, Kernel: KernelSpec{Kind: kk}, Lambda: 0.01})
			if err != nil {
				t.Fatal(err)
			}
			v, mu := m.Kernel()
			best := labeledAlignment(v, mu, lab, ys, 2)
			if math.Abs(best-m.Alignment()) > 1e-10 {
				t.Errorf("%v C=%v: Model.Alignment %v, explicit %v", kk, c, m.Alignment(), best)
			}
			var rivals [][]float64
			if c == 1 {
				for _, des := range []DesignKind{Cluster, Truncated} {
					mb, err := Fit(ctx, s.X, lab, ys, &Options{Design: des, Kernel: KernelSpec{Kind: kk}, Lambda: 0.01})
					if err != nil {
						t.Fatal(err)
					}
					_, mub := mb.Kernel()
					rivals = append(rivals, mub)
				}
			}
			rng := rand.New(rand.NewPCG(uint64(c), 3))
			for range 200 {
				rivals = append(rivals, randomFeasible(rng, len(mu), c))
			}
			for i, r := range rivals {
				if a := labeledAlignment(v, r, lab, ys, 2); a > best+1e-7 {
					t.Errorf("%v C=%v: rival %d aligns %.10f > SKL %.10f", kk, c, i, a, best)
				}
			}
		}
	}
}

// TestLowRankKLR: KLR trained on Phi_L (feature form) and on the explicit
// kernel block Phi_L Phi_Lᵀ (kernel form) solve the same problem (the
// representer theorem, w = Phi_Lᵀ alpha), so their decision values on the
// unlabeled points agree. Tolerance 1e-5 relative to the largest |f|: both
// Newton solves stop at a relative gradient of 1e-8 and the kernel form is
// worse conditioned by the squared singular values of Phi_L.
func TestLowRankKLR(t *testing.T) {
	s := datatest.Load(t, "ionosphere")
	lab, ys, unl := pickLabeled(s.Y, 20, 9)
	for _, lambda := range []float64{1e-3, 1e-1} {
		m, err := Fit(context.Background(), s.X, lab, ys, &Options{Lambda: lambda})
		if err != nil {
			t.Fatal(err)
		}
		phiU := gatherRows(nil, m.phi, unl)
		fFeat, err := m.klr.Decision(nil, phiU)
		if err != nil {
			t.Fatal(err)
		}
		k := mat.NewDense(len(lab), len(lab), nil)
		k.Mul(m.phiL, m.phiL.T())
		symmetrise(k)
		km, err := klr.FitMultiKernel(context.Background(), k, ys, 2, &klr.Settings{Lambda: lambda})
		if err != nil {
			t.Fatal(err)
		}
		cross := mat.NewDense(len(unl), len(lab), nil)
		cross.Mul(phiU, m.phiL.T())
		fKer, err := km.Decision(nil, cross)
		if err != nil {
			t.Fatal(err)
		}
		scale := mat.Norm(fFeat, math.Inf(1))
		var diff mat.Dense
		diff.Sub(fFeat, fKer)
		if e := mat.Norm(&diff, math.Inf(1)) / scale; e > 1e-5 {
			t.Errorf("lambda %v: feature and kernel forms differ by %.2g (relative)", lambda, e)
		}
	}
}

// TestWineMultiClass: three classes, one-versus-all KLR with the
// max-probability rule (KDD'06 6.1). Wine is nearly separable after z-scoring
// (supervised RBF classifiers exceed 0.95 with a third of the data); with
// l = 15 random labels we require, of SKL and of MM (one kernel shared by
// the three one-vs-all margins), 0.85 mean accuracy over three draws, well
// below the 0.93-0.97 we measured and well above chance (0.40, the largest
// class).
func TestWineMultiClass(t *testing.T) {
	s := datatest.Load(t, "wine")
	for _, des := range []DesignKind{SKL, MM} {
		t.Run(des.String(), func(t *testing.T) { wineMultiClass(t, s, des) })
	}
}

func wineMultiClass(t *testing.T, s *dataset.Set, des DesignKind) {
	var sum float64
	for seed := uint64(1); seed <= 3; seed++ {
		lab, ys, unl := pickLabeled(s.Y, 15, seed)
		m, err := Fit(context.Background(), s.X, lab, ys, &Options{Seed: seed, Design: des})
		if err != nil {
			t.Fatal(err)
		}
		if m.Classes() != 3 {
			t.Fatalf("classes = %d, want 3", m.Classes())
		}
		p, err := m.PredictRows(nil, unl)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := m.ProbaRows(nil, unl)
		if err != nil {
			t.Fatal(err)
		}
		for i := range unl {
			row := pr.RawRowView(i)
			best := 0
			for c := range row {
				if row[c] > row[best] {
					best = c
				}
			}
			if best != p[i] || math.Abs(row[0]+row[1]+row[2]-1) > 1e-12 {
				t.Fatalf("point %d: prediction %d, probabilities %v", unl[i], p[i], row)
			}
		}
		sum += accuracy(p, unl, s.Y)
	}
	if acc := sum / 3; acc < 0.85 {
		t.Errorf("mean accuracy %.3f below 0.85", acc)
	}
}

// TestSVM: the SVM on the learned kernel predicts sensibly (above the
// majority rate 0.641 with the margin of TestFitDesigns; we measured 0.69 for
// the standard RBF kernel and 0.77 for SKL on this draw) and refuses to give
// probabilities.
func TestSVM(t *testing.T) {
	s := datatest.Load(t, "ionosphere")
	lab, ys, unl := pickLabeled(s.Y, 20, 4)
	for _, des := range []DesignKind{SKL, Standard} {
		m, err := Fit(context.Background(), s.X, lab, ys, &Options{Design: des, Classifier: SVM})
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.PredictRows(nil, unl)
		if err != nil {
			t.Fatal(err)
		}
		if acc := accuracy(p, unl, s.Y); acc < 0.67 {
			t.Errorf("%v: SVM accuracy %.3f below 0.67", des, acc)
		}
		if _, err := m.ProbaRows(nil, unl); !errors.Is(err, ErrNoProbability) {
			t.Errorf("%v: Proba error %v, want ErrNoProbability", des, err)
		}
		if _, err := m.Predict(nil, mat.DenseCopyOf(s.X.Slice(0, 5, 0, 34))); err != nil {
			t.Errorf("%v: Predict: %v", des, err)
		}
	}
}

// TestEnergyFraction: d is the smallest count of eigenpairs carrying the
// requested fraction of the trace (n for the normalised kernel).
func TestEnergyFraction(t *testing.T) {
	s := circles(t, 60, 0.1, 1)
	lab, ys, _ := pickLabeled(s.Y, 10, 1)
	for _, frac := range []float64{0.5, 0.8} {
		m, err := Fit(context.Background(), s.X, lab, ys, &Options{EnergyFraction: frac, Lambda: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		vals := m.EigenValues()
		n := 120.0
		var sum float64
		for i, v := range vals {
			sum += v
			if sum/n >= frac && i != len(vals)-1 {
				t.Fatalf("frac %v: d = %d but %d pairs already carry %.3f", frac, len(vals), i+1, sum/n)
			}
		}
		if sum/n < frac {
			t.Errorf("frac %v: %d pairs carry only %.3f", frac, len(vals), sum/n)
		}
	}
}

// TestTargetBuffer: the loop's reusable target equals spectral.Target.
func TestTargetBuffer(t *testing.T) {
	for _, c := range []int{2, 3, 5} {
		ys := []int{0, 1, 0, 1}
		for k := 2; k < c; k++ {
			ys = append(ys, k, k)
		}
		lp := &loop{pr: &prep{classes: c}, ys: ys, tbuf: make([]float64, len(ys)*c)}
		got := lp.target()
		want, err := spectral.Target(ys, c)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(got, want, 1e-15) {
			t.Errorf("c = %d: target\n%v\nwant\n%v", c, mat.Formatted(got), mat.Formatted(want))
		}
	}
}

// TestAllLabeled: Fit accepts a fully labeled set (nothing to transduce,
// but the model still predicts new points).
func TestAllLabeled(t *testing.T) {
	s := circles(t, 20, 0.05, 2)
	all := make([]int, 40)
	for i := range all {
		all[i] = i
	}
	m, err := Fit(context.Background(), s.X, all, s.Y, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.PredictRows(nil, all)
	if err != nil {
		t.Fatal(err)
	}
	if acc := accuracy(p, all, s.Y); acc < 0.9 {
		t.Errorf("training accuracy %.3f below 0.9 on a fully labeled, well separated set", acc)
	}
}

// TestLambdaSource: lambda comes from the options, from cross-validation,
// or, when a class has a single labeled example (cross-validation would
// leave it out of some training part), from klr.DefaultLambda — never an
// error.
func TestLambdaSource(t *testing.T) {
	s := circles(t, 30, 0.1, 4)
	for _, tc := range []struct {
		name   string
		lab    []int
		lambda float64
		want   LambdaSource
	}{
		{"given", []int{0, 1, 30, 31}, 0.3, LambdaGiven},
		{"cv", []int{0, 1, 2, 30, 31, 32}, 0, LambdaCV},
		{"singleton", []int{0, 30, 31, 32}, 0, LambdaDefault},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ys := make([]int, len(tc.lab))
			for a, i := range tc.lab {
				ys[a] = s.Y[i]
			}
			for _, des := range []DesignKind{SKL, Standard} {
				m, err := Fit(context.Background(), s.X, tc.lab, ys, &Options{Design: des, Lambda: tc.lambda})
				if err != nil {
					t.Fatal(err)
				}
				l, src := m.Lambda()
				if src != tc.want {
					t.Errorf("%v: source %v, want %v", des, src, tc.want)
				}
				switch tc.want {
				case LambdaGiven:
					if l != tc.lambda {
						t.Errorf("%v: lambda %v, want %v", des, l, tc.lambda)
					}
				case LambdaCV:
					if m.CV() == nil || m.CV().Lambda != l {
						t.Errorf("%v: lambda %v without a matching CV result", des, l)
					}
				case LambdaDefault:
					if l != klr.DefaultLambda {
						t.Errorf("%v: lambda %v, want %v", des, l, klr.DefaultLambda)
					}
				}
				ts := m.Timings()
				if ts.Kernel <= 0 || ts.Fit <= 0 || (des == SKL) != (ts.Eig > 0 && ts.Design > 0) {
					t.Errorf("%v: timings %+v", des, ts)
				}
				if v, mu := m.Kernel(); (des == Standard) != (v == nil && mu == nil) {
					t.Errorf("%v: Kernel() returned V %v, mu %v", des, v != nil, mu != nil)
				}
			}
		})
	}
}

// TestLowRankInitialKernel: the normalised linear kernel of planar data has
// rank 2, so 18 of the 20 requested eigenvalues are zero to rounding. Fit
// must still work, and the Nyström extension must ignore the null
// directions (coordinates set to zero) instead of dividing rounding noise by
// rounding noise. The Cluster design gives every direction weight 1, so a
// missing cutoff would show up as O(1) garbage in those coordinates.
func TestLowRankInitialKernel(t *testing.T) {
	s := circles(t, 30, 0.1, 5)
	lab, ys, unl := pickLabeled(s.Y, 6, 5)
	for _, des := range []DesignKind{SKL, Cluster} {
		m, err := Fit(context.Background(), s.X, lab, ys, &Options{Design: des, Kernel: KernelSpec{Kind: Linear}, Lambda: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.PredictRows(nil, unl); err != nil {
			t.Fatal(err)
		}
		f, err := m.Features(mat.NewDense(3, 2, []float64{0.5, 0.1, -2, 1, 0.3, -1.7}))
		if err != nil {
			t.Fatal(err)
		}
		vals := m.EigenValues()
		nonzero := 0
		for j, l := range vals {
			if l > nystromRelTol*vals[0] {
				nonzero++
				continue
			}
			for i := 0; i < 3; i++ {
				if f.At(i, j) != 0 {
					t.Errorf("%v: coordinate %d (eigenvalue %.2g) of new point %d is %v, want 0", des, j, l, i, f.At(i, j))
				}
			}
		}
		if nonzero != 2 {
			t.Errorf("%v: %d eigenvalues above the cutoff, want 2 (rank of the kernel): %v", des, nonzero, vals)
		}
	}
}
