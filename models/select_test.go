package models

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/linalg"
)

// TestKNNKernel fits the kNN-graph basis on two circles, which one global
// RBF width does not separate (see the demo), and checks the graph's
// out-of-sample extension against a direct evaluation of its formula.
func TestKNNKernel(t *testing.T) {
	ctx := context.Background()
	s := circles(t, 150, 0.05, 3)
	lab, ys, unl := pickLabeled(s.Y, 10, 4)
	// The median-width RBF basis with SKL is the reference: its top
	// eigenvectors do not separate the rings (see the demo).
	ref, err := Fit(ctx, s.X, lab, ys, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	rp, _ := ref.PredictRows(nil, unl)
	floor := accuracy(rp, unl, s.Y) + 0.1
	for _, o := range []Options{
		{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading},
		{Kernel: KernelSpec{Kind: KNN, LocalScale: true}, Design: Cluster, D: 10},
		{Kernel: KernelSpec{Kind: KNN}, GraphK: 5},
	} {
		m, err := Fit(ctx, s.X, lab, ys, &o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		pred, err := m.PredictRows(nil, unl)
		if err != nil {
			t.Fatal(err)
		}
		if acc := accuracy(pred, unl, s.Y); acc < min(floor, 0.85) {
			t.Errorf("%+v: accuracy %.3f on two circles, want >= %.3f", o, acc, min(floor, 0.85))
		}
	}
	o := Options{Kernel: KernelSpec{Kind: KNN, LocalScale: true}, Design: LabelSpreading, GraphK: 6}
	m, err := Fit(ctx, s.X, lab, ys, &o)
	if err != nil {
		t.Fatal(err)
	}
	z := mat.NewDense(2, 2, []float64{0.3, -0.2, 1.1, 0.9})
	got, err := m.Features(z)
	if err != nil {
		t.Fatal(err)
	}
	want := extendByHand(t, m, z)
	if d := maxDiff(got, want); d > 1e-12 {
		t.Fatalf("graph extension differs from its formula by %g", d)
	}
}

// extendByHand evaluates Phi(z) = sum_j w_zj / sqrt(d_z d_j) V_j
// diag(sqrt(mu)/theta) with the 6 nearest training points found by sorting
// all distances.
func extendByHand(t *testing.T, m *Model, z *mat.Dense) *mat.Dense {
	pr := m.pr
	zs, err := m.scaleNew(z)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := zs.Dims()
	_, d := pr.basis.V.Dims()
	out := mat.NewDense(rows, d, nil)
	for i := 0; i < rows; i++ {
		nb := make([]int, 6)
		nd := make([]float64, 6)
		nearest(pr.xs, zs.RawRowView(i), nb, nd)
		sz := math.Sqrt(nd[5])
		w := make([]float64, 6)
		var dz float64
		for a, j := range nb {
			w[a] = math.Exp(-nd[a] / (sz * pr.graph.sigma[j]))
			dz += w[a]
		}
		for c := 0; c < d; c++ {
			var v float64
			for a, j := range nb {
				v += w[a] / math.Sqrt(dz*pr.graph.deg[j]) * pr.basis.V.At(j, c)
			}
			out.Set(i, c, v/pr.basis.Values[c]*math.Sqrt(m.mu[c]))
		}
	}
	return out
}

func maxDiff(a, b *mat.Dense) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// TestRoundoffDrop: the linear kernel of 3 features has rank 3 (4 with the
// cosine normalisation's curvature at most p), so D = 12 asks for null-space
// vectors. They are dropped, and the Cluster design's predictions no longer
// depend on the eigensolver's start vector.
func TestRoundoffDrop(t *testing.T) {
	ctx := context.Background()
	s := circles(t, 60, 0.1, 5)
	x := mat.NewDense(120, 3, nil)
	for i := 0; i < 120; i++ {
		a, b := s.X.At(i, 0), s.X.At(i, 1)
		x.SetRow(i, []float64{a, b, a - 2*b})
	}
	lab, ys, unl := pickLabeled(s.Y, 12, 6)
	var first []int
	for seed := uint64(1); seed <= 4; seed++ {
		o := Options{Kernel: KernelSpec{Kind: Linear, Raw: true}, Design: Cluster, D: 12, Seed: seed}
		m, err := Fit(ctx, x, lab, ys, &o)
		if err != nil {
			t.Fatal(err)
		}
		vals := m.EigenValues()
		if len(vals) > 2 {
			t.Fatalf("seed %d: %d eigenpairs kept for a rank-2 kernel: %v", seed, len(vals), vals)
		}
		pred, err := m.PredictRows(nil, unl)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = pred
			continue
		}
		for i := range pred {
			if pred[i] != first[i] {
				t.Fatalf("seed %d changes the prediction of point %d", seed, unl[i])
			}
		}
	}
}

func TestSelect(t *testing.T) {
	ctx := context.Background()
	s := circles(t, 80, 0.05, 7)
	lab, ys, unl := pickLabeled(s.Y, 16, 8)
	m, err := Select(ctx, s.X, lab, ys, &SelectOptions{Base: Options{Seed: 3}, Rule: RuleBest})
	if err != nil {
		t.Fatal(err)
	}
	sel := m.Selection()
	// 16 points, 8 per class: 10 folds capped at the class size.
	if sel == nil || sel.Chosen < 0 || sel.Rule != "stratified 8-fold" || sel.Folds != 8 {
		t.Fatalf("selection: chosen %d, rule %q, %d folds", sel.Chosen, sel.Rule, sel.Folds)
	}
	best := sel.Best()
	for _, sc := range sel.Scores {
		if sc.Skipped == nil && sc.Accuracy > best.Accuracy+best.StdErr+1e-12 && family(&sc.Options) == family(&best.Options) {
			t.Errorf("%s scores %.3f, more than one standard error above the chosen %s (%.3f)", sc.Name, sc.Accuracy, best.Name, best.Accuracy)
		}
	}
	pred, err := m.PredictRows(nil, unl)
	if err != nil {
		t.Fatal(err)
	}
	if acc := accuracy(pred, unl, s.Y); acc < 0.95 {
		t.Errorf("selected %s: accuracy %.3f on two circles", best.Name, acc)
	}
	bestRule := sel.Chosen
	// The default rule (RulePrior with the default candidates) keeps the
	// first candidate unless the best beats it clearly.
	m, err = Select(ctx, s.X, lab, ys, &SelectOptions{Base: Options{Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	sel = m.Selection()
	first := 0
	for sel.Scores[first].Skipped != nil {
		first++
	}
	if c := sel.Chosen; c != first && pairedWithin(sel.Scores[c].right, sel.Scores[first].right) {
		t.Errorf("chose %s, which does not beat the default %s by one paired standard error", sel.Scores[c].Name, sel.Scores[first].Name)
	}
	if kept := sel.Chosen == first && sel.Scores[bestRule].Accuracy > sel.Scores[first].Accuracy; sel.Prior != kept {
		t.Errorf("Prior = %v, want %v (chosen %s, RuleBest's %s)", sel.Prior, kept, sel.Scores[sel.Chosen].Name, sel.Scores[bestRule].Name)
	}
	best = sel.Best()
	pred, _ = m.PredictRows(nil, unl)
	// Deterministic for a seed, and the Auto design of Fit is Select.
	m2, err := Fit(ctx, s.X, lab, ys, &Options{Design: Auto, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Selection().Best().Name != best.Name {
		t.Fatalf("Fit(Auto) chose %s, Select %s", m2.Selection().Best().Name, best.Name)
	}
	// A cache gives the same choice and the same predictions.
	cache := &BasisCache{}
	for range 2 {
		m3, err := Select(ctx, s.X, lab, ys, &SelectOptions{Base: Options{Seed: 3}, Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		p3, _ := m3.PredictRows(nil, unl)
		if m3.Selection().Best().Name != best.Name || !equalInts(p3, pred) {
			t.Fatalf("cached selection chose %s", m3.Selection().Best().Name)
		}
	}
	if _, err := Select(ctx, mat.DenseCopyOf(s.X), lab, ys, &SelectOptions{Cache: cache}); !errors.Is(err, linalg.ErrInvalid) {
		t.Fatalf("cache on another matrix: %v", err)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSelectFolds checks the fold rule and the stratified deal.
func TestSelectFolds(t *testing.T) {
	small := []int{0, 1, 0, 1, 1, 0}
	fold, k, rule, ok := selectFolds(small, 2, 0, 1)
	if !ok || k != 6 || rule != "leave-one-out" {
		t.Fatalf("l = 6: k = %d, rule %q", k, rule)
	}
	for i, f := range fold {
		if f != i {
			t.Fatalf("leave-one-out fold of %d is %d", i, f)
		}
	}
	mid := make([]int, 30)
	for i := range mid {
		mid[i] = i % 2
	}
	if _, k, _, _ := selectFolds(mid, 2, 0, 1); k != SmallSelectFolds {
		t.Fatalf("l = 30: k = %d", k)
	}
	big := make([]int, 60)
	for i := range big {
		big[i] = i % 3
	}
	fold, k, _, ok = selectFolds(big, 3, 0, 1)
	if !ok || k != DefaultSelectFolds {
		t.Fatalf("l = 60: k = %d", k)
	}
	per := make(map[[2]int]int)
	for i, f := range fold {
		per[[2]int{f, big[i]}]++
	}
	for f := 0; f < k; f++ {
		for c := 0; c < 3; c++ {
			if n := per[[2]int{f, c}]; n != 4 {
				t.Fatalf("fold %d holds %d points of class %d, want 4", f, n, c)
			}
		}
	}
	if _, _, _, ok := selectFolds([]int{0, 1, 2}, 3, 0, 1); ok {
		t.Fatal("singleton classes: want no folds")
	}
}

// TestSelectSingletons: with one labeled point per class nothing can be
// cross-validated; Select fits the first candidate and says why.
func TestSelectSingletons(t *testing.T) {
	s := circles(t, 40, 0.05, 9)
	lab := []int{0, 1}
	ys := []int{s.Y[0], s.Y[1]}
	if ys[0] == ys[1] {
		t.Skip("the first two points share a class")
	}
	m, err := Select(context.Background(), s.X, lab, ys, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sel := m.Selection(); sel.Chosen != 0 || sel.Folds != 0 || sel.Best().Name == "" {
		t.Fatalf("chosen %d, %d folds", sel.Chosen, sel.Folds)
	}
}

// TestSelectBadInput: invalid options are errors, failing candidates are
// skipped with their reason, and a cancelled context stops the run.
func TestSelectBadInput(t *testing.T) {
	ctx := context.Background()
	s := circles(t, 30, 0.05, 10)
	lab, ys, _ := pickLabeled(s.Y, 8, 11)
	cases := []struct {
		name string
		so   *SelectOptions
	}{
		{"auto base", &SelectOptions{Base: Options{Design: Auto}}},
		{"one fold", &SelectOptions{Folds: 1}},
		{"too many folds", &SelectOptions{Folds: 9}},
		{"all candidates fail", &SelectOptions{Candidates: []Candidate{{Name: "d>n", Options: Options{D: 100}}}}},
	}
	for _, c := range cases {
		if _, err := Select(ctx, s.X, lab, ys, c.so); !errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("%s: error %v, want linalg.ErrInvalid", c.name, err)
		}
	}
	so := &SelectOptions{Candidates: []Candidate{
		{Name: "too big", Options: Options{D: 100}},
		{Name: "auto", Options: Options{Design: Auto}},
		{Name: "fine", Options: Options{Design: Cluster, D: 5}},
	}}
	m, err := Select(ctx, s.X, lab, ys, so)
	if err != nil {
		t.Fatal(err)
	}
	sel := m.Selection()
	if sel.Scores[0].Skipped == nil || sel.Scores[1].Skipped == nil || sel.Best().Name != "fine" {
		t.Fatalf("skipped %v, %v; chose %q", sel.Scores[0].Skipped, sel.Scores[1].Skipped, sel.Best().Name)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Select(cctx, s.X, lab, ys, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestOneSE checks the rule on constructed scores: the best family's
// smallest d within one paired standard error wins, other families never
// do unless they are best.
func TestOneSE(t *testing.T) {
	right := func(bits string) []bool {
		r := make([]bool, len(bits))
		for i, b := range bits {
			r[i] = b == '1'
		}
		return r
	}
	acc := func(r []bool) float64 {
		h := 0
		for _, v := range r {
			if v {
				h++
			}
		}
		return float64(h) / float64(len(r))
	}
	mk := func(name string, o Options, bits string, cx int) CandidateScore {
		r := right(bits)
		return CandidateScore{Candidate: Candidate{Name: name, Options: o}, Accuracy: acc(r), Complexity: cx, right: r}
	}
	a20 := Options{Design: SKL, D: 20, Lambda: 0.1}
	a10 := Options{Design: SKL, D: 10, Lambda: 0.1}
	a10s := Options{Design: SKL, D: 10, Lambda: 1}
	b5 := Options{Design: Cluster, D: 5, Lambda: 1}
	scores := []CandidateScore{
		mk("a20", a20, "1111111111", 20),
		mk("a10", a10, "1111111110", 10),   // one point worse: within one SE? mean 0.1, sd/sqrt(l) = 0.1
		mk("a10s", a10s, "1111111110", 10), // same, larger lambda: wins the tie
		mk("b5", b5, "1111111110", 5),      // simpler but another family
	}
	if got := oneSE(scores); scores[got].Name != "a10s" {
		t.Fatalf("chose %s, want a10s", scores[got].Name)
	}
	scores[1] = mk("a10", a10, "1111111000", 10)
	scores[2] = mk("a10s", a10s, "1111110000", 10)
	if got := oneSE(scores); scores[got].Name != "a20" {
		t.Fatalf("chose %s, want a20 (the others are clearly worse)", scores[got].Name)
	}
	if oneSE([]CandidateScore{{Skipped: errors.New("x")}}) != -1 {
		t.Fatal("all skipped: want -1")
	}
	// RulePrior: the first scored candidate stays unless the best beats it
	// by more than one paired standard error.
	def := mk("default", Options{Design: LabelSpreading, D: 10}, "1111111000", 10)
	for _, c := range []struct {
		name, bits string
		want       string
		prior      bool
	}{
		{"one point better", "1111111100", "default", true},
		{"clearly better", "1111111111", "a20", false},
		{"equal", "1111111000", "default", false},
	} {
		sc := []CandidateScore{{Skipped: errors.New("x")}, def, mk("a20", a20, c.bits, 20)}
		got, prior := priorRule(sc, oneSE(sc))
		if sc[got].Name != c.want || prior != c.prior {
			t.Errorf("%s: chose %s (prior %v), want %s (%v)", c.name, sc[got].Name, prior, c.want, c.prior)
		}
	}
	if got, _ := priorRule(nil, -1); got != -1 {
		t.Fatal("nothing scored: want -1")
	}
}

// TestSelectCancelAndRule: a selection cancelled between bases (from its
// Progress callback, while the workers run) stops with the context's error;
// an unknown rule is a settings error.
func TestSelectCancelAndRule(t *testing.T) {
	s := circles(t, 60, 0.05, 3)
	lab, ys, _ := pickLabeled(s.Y, 12, 4)
	for _, after := range []int{1, 10, 40} {
		ctx, cancel := context.WithCancel(context.Background())
		_, err := Select(ctx, s.X, lab, ys, &SelectOptions{Progress: func(done, total int) {
			if done >= after {
				cancel()
			}
		}})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d candidates: %v", after, err)
		}
	}
	if _, err := Select(context.Background(), s.X, lab, ys, &SelectOptions{Rule: SelectRule(7)}); !errors.Is(err, linalg.ErrSettings) {
		t.Errorf("unknown rule: %v", err)
	}
}

// ExampleSelect chooses the kernel, design, d and lambda by leave-one-out
// cross-validation on ten labeled points of two moons.
func ExampleSelect() {
	s, _ := dataset.TwoMoons(100, 0.05, 1)
	lab, ys, _ := pickLabeled(s.Y, 10, 2)
	m, err := Select(context.Background(), s.X, lab, ys, &SelectOptions{Base: Options{Seed: 1}})
	if err != nil {
		panic(err)
	}
	sel := m.Selection()
	fmt.Println(sel.Rule, len(sel.Scores), sel.Best().Name != "")
	// Output: leave-one-out 90 true
}

// TestSpread checks label spreading itself: the scores solve
// (I - alpha S) F = Y on the directed graph, the classes of two circles are
// recovered, probabilities are distributions, and bad settings are errors.
func TestSpread(t *testing.T) {
	ctx := context.Background()
	s := circles(t, 100, 0.05, 12)
	lab, ys, unl := pickLabeled(s.Y, 10, 13)
	o := Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Classifier: Spread, Alpha: 0.9}
	m, err := Fit(ctx, s.X, lab, ys, &o)
	if err != nil {
		t.Fatal(err)
	}
	// Residual of the scores in the equation they solve.
	g := m.pr.graph.s
	f, err := spreadScores(ctx, g, m.pr.graph.copies, 0.9, lab, ys, 2)
	if err != nil {
		t.Fatal(err)
	}
	n, c := f.Dims()
	var worst, top float64
	for i := 0; i < n; i++ {
		for k := 0; k < c; k++ {
			v := f.At(i, k)
			for e := g.RowPtr[i]; e < g.RowPtr[i+1]; e++ {
				v -= 0.9 * g.Val[e] * f.At(g.ColIdx[e], k)
			}
			for a, j := range lab {
				if j == i && ys[a] == k {
					v--
				}
			}
			worst = math.Max(worst, math.Abs(v))
			top = math.Max(top, f.At(i, k))
		}
	}
	// The series stops when no score moves by 1e-4 of itself.
	if worst > 1e-3*top {
		t.Fatalf("residual %g of scores up to %g", worst, top)
	}
	// The model's scores are those columns scaled to the classes' shares
	// of the labels.
	share := make([]float64, c)
	for _, y := range ys {
		share[y] += 1 / float64(len(ys))
	}
	for k := 0; k < c; k++ {
		var mass float64
		for i := 0; i < n; i++ {
			mass += m.spread.At(i, k)
		}
		if math.Abs(mass-share[k]) > 1e-12 {
			t.Errorf("class %d: total score %v, want its share of the labels %v", k, mass, share[k])
		}
		ratio := m.spread.At(0, k) / f.At(0, k)
		for i := 0; i < n; i++ {
			if d := m.spread.At(i, k) - ratio*f.At(i, k); math.Abs(d) > 1e-12*math.Abs(m.spread.At(i, k)) {
				t.Fatalf("class %d: row %d not scaled like the others", k, i)
			}
		}
	}
	pred, err := m.PredictRows(nil, unl)
	if err != nil {
		t.Fatal(err)
	}
	// Ten labels on rings 1 apart: the graph's few cross edges let some
	// points near the inner ring's top swap; 0.9 leaves room for them.
	if acc := accuracy(pred, unl, s.Y); acc < 0.9 {
		t.Errorf("accuracy %.3f on two circles", acc)
	}
	p, err := m.ProbaRows(nil, unl[:5])
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if sum := p.At(i, 0) + p.At(i, 1); math.Abs(sum-1) > 1e-12 {
			t.Fatalf("probabilities of row %d sum to %v", i, sum)
		}
	}
	// New points near the outer ring take its class.
	z := mat.NewDense(1, 2, []float64{s.X.At(unl[0], 0) * 1.01, s.X.At(unl[0], 1) * 1.01})
	pz, err := m.Predict(nil, z)
	if err != nil {
		t.Fatal(err)
	}
	if pz[0] != s.Y[unl[0]] {
		t.Errorf("new point next to %d predicted %d, want %d", unl[0], pz[0], s.Y[unl[0]])
	}
	bad := []Options{
		{Design: LabelSpreading, Classifier: Spread},
		{Kernel: KernelSpec{Kind: KNN}, Design: SKL, Classifier: Spread},
		{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Classifier: Spread, D: 10},
		{Kernel: KernelSpec{Kind: KNN, LocalScale: true}, Design: LabelSpreading, Classifier: Spread},
		{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Classifier: Spread, GraphK: 1},
	}
	for _, b := range bad {
		if _, err := Fit(ctx, s.X, lab, ys, &b); !errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("%+v: error %v, want linalg.ErrInvalid", b, err)
		}
	}
	lo := UKLR(o, 4, 2)
	if _, _, err := Loop(ctx, s.X, lab, ys, nil, lo); !errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("Loop with Spread: %v", err)
	}
}

// TestLargePath checks that the large-n path (forced on a small set)
// agrees with the exact path: the Nyström basis with as many landmarks as
// points spans the same top eigenvectors, and the approximate kNN graph of
// a small set is the exact one.
func TestLargePath(t *testing.T) {
	ctx := context.Background()
	s := circles(t, 100, 0.1, 14)
	lab, ys, unl := pickLabeled(s.Y, 12, 15)
	for _, o := range []Options{
		{Design: Cluster, D: 8},
		{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading},
	} {
		exact := o
		exact.Large = LargeOff
		large := o
		large.Large, large.Landmarks = LargeOn, 200
		me, err := Fit(ctx, s.X, lab, ys, &exact)
		if err != nil {
			t.Fatal(err)
		}
		ml, err := Fit(ctx, s.X, lab, ys, &large)
		if err != nil {
			t.Fatal(err)
		}
		ve, _ := me.Kernel()
		vl, _ := ml.Kernel()
		if sin := sinLargestAngle(ve, vl); sin > 1e-6 {
			t.Errorf("%+v: subspaces differ, sine of the largest angle %g", o, sin)
		}
		pe, _ := me.PredictRows(nil, unl)
		pl, _ := ml.PredictRows(nil, unl)
		if !equalInts(pe, pl) {
			t.Errorf("%+v: predictions differ between the paths", o)
		}
	}
	// Progress names the stages as they end; a cancelled context stops the
	// large-n path.
	var stages []string
	po := &Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Large: LargeOn,
		Progress: func(stage string, done, total int) {
			if done == total {
				stages = append(stages, stage)
			}
		}}
	if _, err := Fit(ctx, s.X, lab, ys, po); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(stages); got != "[scale neighbors kernel eigen design classifier]" {
		t.Errorf("stages %s", got)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Fit(cctx, s.X, lab, ys, &Options{Large: LargeOn}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled large-n fit: %v", err)
	}
	// The memory guard refuses the exact path over budget and names the
	// option that fixes it.
	_, err := Fit(ctx, s.X, lab, ys, &Options{Large: LargeOff, MaxMemory: 1 << 10})
	if !errors.Is(err, linalg.ErrInvalid) {
		t.Fatalf("over budget: %v", err)
	}
}

// sinLargestAngle returns the sine of the largest principal angle between
// the column spaces of two matrices with orthonormal columns.
func sinLargestAngle(a, b *mat.Dense) float64 {
	var p mat.Dense
	p.Mul(a.T(), b)
	var sv mat.SVD
	if !sv.Factorize(&p, mat.SVDNone) {
		return 1
	}
	vals := sv.Values(nil)
	c := vals[len(vals)-1]
	return math.Sqrt(math.Max(0, 1-c*c))
}
