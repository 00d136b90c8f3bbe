package labelaware

import (
	"context"
	"errors"
	"math"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset/datatest"
	"ukm/eig"
	"ukm/linalg"
	"ukm/models/klr"
	"ukm/models/spectral"
	"ukm/models/svm"
)

// TestLabelVectorsEq5 compares LabelVectors with a direct evaluation of
// eq. 5 with the degree normalisation, entry by entry with kernel.Eval, and
// checks that Build's first c columns are those vectors scaled to unit norm.
func TestLabelVectorsEq5(t *testing.T) {
	cases := []struct {
		name    string
		gamma   float64
		classes int
	}{
		{"c=2", 0.5, 2},
		{"c=3", 0.3, 3},
		// gamma 400: points far from every labeled one get degree 0 (the
		// exponentials underflow), so their rows must be 1/c.
		{"underflow", 400, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x, _ := blobs(40, 3, 2, 1, 5)
			y := make([]int, 40)
			for i := range y {
				y[i] = i % tc.classes
			}
			lab, ly, _ := pickLabeled(y, tc.classes, 3, 1)
			kern := linalg.RBF{Gamma: tc.gamma}
			u, err := LabelVectors(context.Background(), kern, x, lab, ly, tc.classes)
			if err != nil {
				t.Fatal(err)
			}
			zero := 0
			for i := 0; i < 40; i++ {
				want := make([]float64, tc.classes)
				var d float64
				for a, j := range lab {
					kv := kern.Eval(x.RawRowView(i), x.RawRowView(j))
					d += kv
					want[ly[a]] += kv
				}
				for c := range want {
					if d > 0 {
						want[c] /= d
					} else {
						want[c] = 1 / float64(tc.classes)
					}
				}
				if d == 0 {
					zero++
				}
				for c := range want {
					// Entries are in [0, 1]; the matrix-product kernel
					// differs from Eval by a few eps per entry, divided by
					// a degree that can be small: 1e-9 absolute.
					if math.Abs(u.At(i, c)-want[c]) > 1e-9 {
						t.Errorf("u[%d][%d] = %v, want %v", i, c, u.At(i, c), want[c])
					}
				}
			}
			if tc.name == "underflow" && zero == 0 {
				t.Error("no zero-degree point in the underflow case")
			}
			k, err := Build(context.Background(), x, lab, ly, tc.classes, &Settings{Kernel: kern, K: 3})
			if err != nil {
				t.Fatal(err)
			}
			if k.Stats.ZeroDegree != zero {
				t.Errorf("ZeroDegree %d, want %d", k.Stats.ZeroDegree, zero)
			}
			for c := 0; c < tc.classes; c++ {
				nrm := mat.Norm(u.ColView(c), 2)
				for i := 0; i < 40; i++ {
					if math.Abs(k.V.At(i, c)*nrm-u.At(i, c)) > 1e-12 {
						t.Fatalf("V column %d is not u_%d normalised", c, c)
					}
				}
			}
		})
	}
}

// alignmentOn returns the centred alignment, on the rows idx, of the kernel
// sum_i w_i V_i V_iᵀ with the target of the labels y[idx].
func alignmentOn(t *testing.T, v *mat.Dense, w []float64, idx, y []int, classes int) float64 {
	t.Helper()
	target, err := spectral.Target(subset(y, idx), classes)
	if err != nil {
		t.Fatal(err)
	}
	a, err := BlockAlignment(rows(v, idx), target, w)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// checkAgainstPlain builds the label-aware kernel and the plain top-K
// eigenvector kernel V diag(lambda) Vᵀ on the same data and compares their
// centred alignments on the labeled block (label-aware must be at least the
// plain one: it maximises it over a superset of base kernels that contains a
// rescaling of the plain kernel) and on the unlabeled block (the paper's
// Table 1 measure; reported, and required to improve when requireTest).
// It then trains an SVM (C = 100) on the labeled block and returns the
// error rate on the unlabeled points.
func checkAgainstPlain(t *testing.T, x *mat.Dense, y []int, classes, perClass int, set *Settings, requireTest bool) float64 {
	t.Helper()
	ctx := context.Background()
	lab, ly, unl := pickLabeled(y, classes, perClass, 3)
	k, err := Build(ctx, x, lab, ly, classes, set)
	if err != nil {
		t.Fatal(err)
	}
	c := classes
	vk := k.V.Slice(0, k.V.RawMatrix().Rows, c, c+k.Stats.K).(*mat.Dense)
	plainW := append([]float64(nil), k.Values...)
	if set.Eigen == LaplacianBottom {
		for i, v := range plainW {
			plainW[i] = 1 - v // the normalised kernel's eigenvalue
		}
	}
	plainLab := alignmentOn(t, vk, plainW, lab, y, classes)
	plainTest := alignmentOn(t, vk, plainW, unl, y, classes)
	laTest := alignmentOn(t, k.V, k.Weights, unl, y, classes)
	laLab := alignmentOn(t, k.V, k.Weights, lab, y, classes)
	if math.Abs(laLab-k.Alignment) > 1e-12 {
		t.Errorf("Kernel.Alignment %v, recomputed %v", k.Alignment, laLab)
	}
	t.Logf("%v %v exact=%v m=%d K=%d: labeled-block alignment %.3f (plain top-K %.3f); unlabeled %.3f (plain %.3f); label-aware weight share %.2f",
		set.Weighting, set.Eigen, k.Stats.Exact, k.Stats.M, k.Stats.K, laLab, plainLab, laTest, plainTest, share(k.Weights, c))
	if set.Weighting == WeightAlignf && laLab < plainLab-1e-12 {
		t.Errorf("label-aware alignment %v below the plain kernel's %v on the labeled block", laLab, plainLab)
	}
	if requireTest && laTest < plainTest {
		t.Errorf("label-aware alignment %v below the plain kernel's %v on the unlabeled block", laTest, plainTest)
	}

	kl, err := k.Block(lab, lab)
	if err != nil {
		t.Fatal(err)
	}
	model, err := svm.TrainMulti(ctx, kl, ly, classes, &svm.Settings{C: 100})
	if err != nil {
		t.Fatal(err)
	}
	ku, err := k.Block(unl, lab)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := model.Predict(nil, ku)
	if err != nil {
		t.Fatal(err)
	}
	wrong := 0
	for i, j := range unl {
		if pred[i] != y[j] {
			wrong++
		}
	}
	errRate := float64(wrong) / float64(len(unl))
	t.Logf("SVM (C=100) error on %d unlabeled points: %.2f%%", len(unl), 100*errRate)
	return errRate
}

// share returns the fraction of the total weight on the first c vectors.
func share(w []float64, c int) float64 {
	return sumOf(w[:c]) / sumOf(w)
}

// TestDigit1 runs Algorithm 1 on ssl_digit1 (1500 x 241) with 50 labeled
// points per class, as in the paper's experiments, on the exact and the
// Nystrom paths.
func TestDigit1(t *testing.T) {
	s := datatest.Load(t, "ssl_digit1")
	cases := []struct {
		name string
		set  Settings
	}{
		{"exact", Settings{K: 150}},
		{"nystrom", Settings{K: 50, Landmarks: 300}},
		{"laplacian/exact", Settings{K: 50, Eigen: LaplacianBottom}},
		{"laplacian/nystrom", Settings{K: 50, Landmarks: 300, Eigen: LaplacianBottom}},
		{"uniform", Settings{K: 50, Landmarks: 300, Weighting: WeightUniform}},
		{"independent", Settings{K: 50, Landmarks: 300, Weighting: WeightIndependent}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.set.Landmarks == 0 {
				t.Skip("exact eigenvectors of a 1500 x 1500 kernel in -short mode")
			}
			errRate := checkAgainstPlain(t, s.X, s.Y, len(s.Classes), 50, &tc.set, tc.set.Weighting == WeightAlignf)
			// The paper reports 4.89% +- 0.85 error for this setting;
			// majority voting errs on 49%. 15% separates a working kernel
			// from a broken one with room for the random split.
			if errRate > 0.15 {
				t.Errorf("SVM error %.3f above 0.15", errRate)
			}
		})
	}
}

// TestSynthetic runs the same checks on two Gaussian classes whose top
// kernel eigenvectors follow a nuisance direction.
func TestSynthetic(t *testing.T) {
	x, y := blobs(600, 5, 4, 3, 1)
	for _, set := range []Settings{{K: 20}, {K: 20, Landmarks: 100}} {
		errRate := checkAgainstPlain(t, x, y, 2, 10, &set, true)
		// The Bayes error of two unit Gaussians 4 apart is 2.3%; with 20
		// labels we measured 4.3% on both paths. 12% leaves room for the
		// split and still fails a kernel that ignores the labels (the top
		// eigenvectors follow the nuisance: chance level is 50%).
		if errRate > 0.12 {
			t.Errorf("SVM error %.3f above 0.12", errRate)
		}
	}
}

// TestNystromMatchesExact checks that with m = n landmarks the Nystrom path
// gives the exact path's kernel (eigenvectors up to sign, so the rank-one
// kernels and the weights agree).
func TestNystromMatchesExact(t *testing.T) {
	for _, e := range []Eigen{KernelTop, LaplacianBottom} {
		t.Run(e.String(), func(t *testing.T) { nystromMatchesExact(t, e) })
	}
}

func nystromMatchesExact(t *testing.T, e Eigen) {
	x, y := blobs(120, 4, 3, 2, 2)
	lab, ly, _ := pickLabeled(y, 2, 5, 1)
	kern := linalg.RBF{Gamma: 0.1}
	a, err := Build(context.Background(), x, lab, ly, 2, &Settings{Kernel: kern, K: 6, Eigen: e})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(context.Background(), x, lab, ly, 2, &Settings{Kernel: kern, K: 6, Landmarks: 120, Eigen: e})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Values {
		if math.Abs(a.Values[i]-b.Values[i]) > 1e-9*(1+math.Abs(a.Values[i])) {
			t.Errorf("value %d: exact %v, Nystrom %v", i, a.Values[i], b.Values[i])
		}
	}
	if !a.Stats.Exact || b.Stats.Exact || b.Stats.M != 120 {
		t.Fatalf("paths: %+v / %+v", a.Stats, b.Stats)
	}
	for i := range a.Weights {
		// Weights come from a QP on the labeled rows; eigenvectors agree
		// to about 1e-10 (see eig's Nystrom tests), 1e-6 relative is loose.
		if math.Abs(a.Weights[i]-b.Weights[i]) > 1e-6*(1+a.Weights[i]) {
			t.Errorf("weight %d: exact %v, Nystrom %v", i, a.Weights[i], b.Weights[i])
		}
	}
	if math.Abs(a.Alignment-b.Alignment) > 1e-9 {
		t.Errorf("alignment: exact %v, Nystrom %v", a.Alignment, b.Alignment)
	}
}

// TestBuildNoQuadraticMemory checks that the Nystrom path allocates far less
// than one n x n matrix.
func TestBuildNoQuadraticMemory(t *testing.T) {
	const n = 6000
	x, y := blobs(n, 5, 3, 1, 3)
	lab, ly, _ := pickLabeled(y, 2, 20, 1)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	k, err := Build(context.Background(), x, lab, ly, 2, &Settings{K: 10, Landmarks: 100})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	got := after.TotalAlloc - before.TotalAlloc
	// K_nl (n l), C (n m), V (n (c+K)) and the bandwidth sample (2^20
	// pairs, 8 MB): about 20 MB; n x n alone would be 288 MB.
	if limit := uint64(8 * n * n / 5); got > limit {
		t.Errorf("allocated %d bytes, limit %d", got, limit)
	}
	t.Logf("n=%d: %d bytes allocated (n x n: %d); Stats %+v", n, got, 8*n*n, k.Stats)
}

func TestBuildDefaults(t *testing.T) {
	x, y := blobs(2100, 3, 3, 1, 4)
	lab, ly, _ := pickLabeled(y, 2, 5, 1)
	k, err := Build(context.Background(), x, lab, ly, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	// n = 2100 > ExactMaxN: Nystrom with DefaultLandmarks, K = min(210, 100, 500).
	if k.Stats.Exact || k.Stats.M != DefaultLandmarks || k.Stats.K != MaxDefaultK || len(k.Landmarks) != DefaultLandmarks {
		t.Errorf("defaults: %+v", k.Stats)
	}
	if k.Stats.Gamma <= 0 {
		t.Errorf("gamma %v", k.Stats.Gamma)
	}
	var sum float64
	for _, w := range k.Weights {
		if w < 0 {
			t.Errorf("negative weight %v", w)
		}
		sum += w
	}
	if math.Abs(sum-2100) > 1e-9*2100 {
		t.Errorf("weights sum to %v, want n", sum)
	}
	// Deterministic for a fixed seed.
	k2, err := Build(context.Background(), x, lab, ly, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(k.V, k2.V) {
		t.Error("equal inputs gave different kernels")
	}
}

func TestBuildErrors(t *testing.T) {
	x, y := blobs(30, 2, 3, 1, 1)
	lab, ly, _ := pickLabeled(y, 2, 3, 1)
	nan := mat.DenseCopyOf(x)
	nan.Set(4, 0, math.NaN())
	bg := context.Background()
	cases := []struct {
		name    string
		ctx     context.Context
		x       *mat.Dense
		lab, y  []int
		classes int
		set     *Settings
		want    error
	}{
		{"nil ctx", nil, x, lab, ly, 2, nil, linalg.ErrSettings},
		{"nil x", bg, nil, lab, ly, 2, nil, linalg.ErrShape},
		{"nan", bg, nan, lab, ly, 2, nil, linalg.ErrNonFinite},
		{"no labeled", bg, x, nil, nil, 2, nil, linalg.ErrLabels},
		{"lengths", bg, x, lab, ly[1:], 2, nil, linalg.ErrShape},
		{"index range", bg, x, []int{0, 30}, []int{0, 1}, 2, nil, linalg.ErrLabels},
		{"negative index", bg, x, []int{-1, 3}, []int{0, 1}, 2, nil, linalg.ErrLabels},
		{"duplicate", bg, x, []int{2, 2, 3}, []int{0, 0, 1}, 2, nil, linalg.ErrLabels},
		{"one class", bg, x, []int{0, 2}, []int{0, 0}, 1, nil, linalg.ErrLabels},
		{"missing class", bg, x, []int{0, 2}, []int{0, 0}, 2, nil, linalg.ErrLabels},
		{"label range", bg, x, []int{0, 1}, []int{0, 2}, 2, nil, linalg.ErrLabels},
		{"negative K", bg, x, lab, ly, 2, &Settings{K: -1}, linalg.ErrSettings},
		{"m > n", bg, x, lab, ly, 2, &Settings{Landmarks: 31}, linalg.ErrSettings},
		{"negative m", bg, x, lab, ly, 2, &Settings{Landmarks: -2}, linalg.ErrSettings},
		{"K > m", bg, x, lab, ly, 2, &Settings{K: 6, Landmarks: 5}, linalg.ErrSettings},
		{"weighting", bg, x, lab, ly, 2, &Settings{Weighting: 7}, linalg.ErrSettings},
		{"eigen", bg, x, lab, ly, 2, &Settings{Eigen: -1}, linalg.ErrSettings},
		{"gamma", bg, x, lab, ly, 2, &Settings{Kernel: linalg.RBF{Gamma: math.NaN()}}, linalg.ErrSettings},
		// A linear kernel on 2 features has rank 2: 5 eigenvectors from
		// 10 landmarks do not exist.
		{"rank", bg, x, lab, ly, 2, &Settings{Kernel: linalg.Linear{}, K: 5, Landmarks: 10}, linalg.ErrDegenerate},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, err := Build(tc.ctx, tc.x, tc.lab, tc.y, tc.classes, tc.set)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if tc.want != linalg.ErrDegenerate && !errors.Is(err, linalg.ErrInvalid) {
				t.Errorf("%v does not wrap linalg.ErrInvalid", err)
			}
			if k != nil {
				t.Error("kernel returned with an error")
			}
			t.Log(err)
		})
	}
}

func TestBuildCanceled(t *testing.T) {
	x, y := blobs(300, 3, 3, 1, 1)
	lab, ly, _ := pickLabeled(y, 2, 5, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, set := range []*Settings{{K: 5}, {K: 5, Landmarks: 50}, {K: 5, Kernel: linalg.RBF{Gamma: 1}}} {
		if _, err := Build(ctx, x, lab, ly, 2, set); !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	}
}

// TestDesign checks the spectral.Design adapter against Alignf on the rows
// of the basis.
func TestDesign(t *testing.T) {
	x, y := blobs(200, 4, 3, 2, 6)
	lab, ly, _ := pickLabeled(y, 2, 8, 2)
	g, err := linalg.Gram(context.Background(), linalg.RBF{Gamma: 0.1}, x)
	if err != nil {
		t.Fatal(err)
	}
	op, err := eig.NewDense(g)
	if err != nil {
		t.Fatal(err)
	}
	r, err := eig.TopD(context.Background(), op, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &spectral.Basis{Values: r.Values, V: r.Vectors}
	target, err := spectral.Target(ly, 2)
	if err != nil {
		t.Fatal(err)
	}
	mu, err := Design{}.Coefficients(context.Background(), nil, b, lab, target)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := Alignf(context.Background(), rows(r.Vectors, lab), target)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, v := range mu {
		sum += v
	}
	for i := range mu {
		// mu is ref.Weights rescaled to sum n = 200.
		if math.Abs(mu[i]-ref.Weights[i]*sum/sumOf(ref.Weights)) > 1e-12*sum {
			t.Errorf("mu[%d] = %v, alignf %v", i, mu[i], ref.Weights[i])
		}
	}
	if math.Abs(sum-200) > 1e-9 {
		t.Errorf("coefficients sum to %v", sum)
	}
	if _, err := (Design{}).Coefficients(context.Background(), nil, b, []int{0, 0}, mat.NewDense(2, 1, []float64{1, -1})); err == nil {
		t.Error("no error for repeated labeled index")
	}
	if name := (Design{Weighting: WeightUniform}).Name(); name != "Label-uniform" {
		t.Error(name)
	}
}

func sumOf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

// TestKLROnKernel trains kernel logistic regression on the label-aware
// kernel in feature form (Phi = V diag(sqrt(w)), O(l r^2) per Newton step)
// and checks it against KLR on the explicit labeled kernel block (the two
// forms fit the same model, so their predictions agree) and against the
// error bound of TestSynthetic.
func TestKLROnKernel(t *testing.T) {
	ctx := context.Background()
	x, y := blobs(600, 5, 4, 3, 1)
	lab, ly, unl := pickLabeled(y, 2, 10, 3)
	k, err := Build(ctx, x, lab, ly, 2, &Settings{K: 20, Landmarks: 100})
	if err != nil {
		t.Fatal(err)
	}
	phi, err := k.Features()
	if err != nil {
		t.Fatal(err)
	}
	set := &klr.Settings{Lambda: 1e-2}
	mf, err := klr.FitMultiFeatures(ctx, rows(phi, lab), ly, 2, set)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := mf.Predict(nil, rows(phi, unl))
	if err != nil {
		t.Fatal(err)
	}
	kl, err := k.Block(lab, lab)
	if err != nil {
		t.Fatal(err)
	}
	mk, err := klr.FitMultiKernel(ctx, kl, ly, 2, set)
	if err != nil {
		t.Fatal(err)
	}
	ku, err := k.Block(unl, lab)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := mk.Predict(nil, ku)
	if err != nil {
		t.Fatal(err)
	}
	wrong, differ := 0, 0
	for i, j := range unl {
		if pf[i] != y[j] {
			wrong++
		}
		if pf[i] != pk[i] {
			differ++
		}
	}
	// Points exactly on the boundary could flip by rounding; none did.
	if differ > 0 {
		t.Errorf("feature and kernel forms disagree on %d of %d points", differ, len(unl))
	}
	// Same bound and reasoning as TestSynthetic (Bayes error 2.3%).
	if e := float64(wrong) / float64(len(unl)); e > 0.12 {
		t.Errorf("KLR error %.3f above 0.12", e)
	} else {
		t.Logf("KLR error on %d unlabeled points: %.2f%%", len(unl), 100*e)
	}
}

// TestCombine: Combine on the vectors Build used gives Build's kernel, and
// mismatched blocks or indices are errors.
func TestCombine(t *testing.T) {
	ctx := context.Background()
	x, y := blobs(300, 5, 4, 3, 1)
	lab, ly, _ := pickLabeled(y, 2, 10, 3)
	k, err := Build(ctx, x, lab, ly, 2, &Settings{K: 10})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := k.V.Dims()
	u := k.V.Slice(0, n, 0, 2).(*mat.Dense)
	v := k.V.Slice(0, n, 2, 12).(*mat.Dense)
	c, err := Combine(ctx, u, v, lab, ly, 2, WeightAlignf)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range k.Weights {
		// Same inputs, same QP: equal to rounding of the (already unit)
		// column rescaling.
		if math.Abs(c.Weights[i]-w) > 1e-9*float64(n) {
			t.Fatalf("weight %d: Combine %v, Build %v", i, c.Weights[i], w)
		}
	}
	if math.Abs(c.Alignment-k.Alignment) > 1e-12 {
		t.Errorf("alignment %v, Build %v", c.Alignment, k.Alignment)
	}
	for _, tc := range []struct {
		name string
		u, v *mat.Dense
		lab  []int
		ys   []int
		c    int
		want error
	}{
		{"rows differ", u, v.Slice(0, n-1, 0, 10).(*mat.Dense), lab, ly, 2, linalg.ErrShape},
		{"classes differ", u, v, lab, ly, 3, linalg.ErrShape},
		{"empty", &mat.Dense{}, v, lab, ly, 2, linalg.ErrShape},
		{"index out of range", u, v, append(append([]int(nil), lab[:len(lab)-1]...), n), ly, 2, linalg.ErrLabels},
		{"labels short", u, v, lab, ly[:len(ly)-1], 2, linalg.ErrLabels},
	} {
		if _, err := Combine(ctx, tc.u, tc.v, tc.lab, tc.ys, tc.c, WeightAlignf); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}
