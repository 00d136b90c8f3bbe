package models

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// orthonormal returns an n x d matrix with orthonormal columns drawn from
// rng.
func orthonormal(rng *rand.Rand, n, d int) *mat.Dense {
	a := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var q mat.Dense
	qr.QTo(&q)
	return mat.DenseCopyOf(q.Slice(0, n, 0, d))
}

// TestCanonicalGroups: two bases of the same eigenspaces that differ by a
// rotation within the copies of a repeated eigenvalue come out equal; the
// columns stay orthonormal and span the same space, the copies' values
// become their mean, and the columns of simple eigenvalues are untouched.
// (The degenerate case, labeled points of equal weight, is
// TestRepeatedEigenvalueSeed's Laplacian.)
func TestCanonicalGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, d := 60, 7
	labeled := []int{3, 8, 15, 22, 40, 41, 57}
	for _, tc := range []struct {
		name   string
		vals   []float64
		lo, hi int // the group
	}{
		{"head", []float64{1, 1 + 1e-13, 1 - 1e-13, 0.5, 0.4, 0.3, 0.2}, 0, 3},
		{"middle", []float64{2, 1, 1, 1, 1, 0.3, 0.2}, 1, 5},
		{"tail", []float64{2, 1, 0.5, 0.4, 0.1, 0.1, 0.1}, 4, 7},
		{"ascending", []float64{0, 0, 0.2, 0.3, 0.4, 0.5, 0.6}, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v1 := orthonormal(rng, n, d)
			v2 := mat.DenseCopyOf(v1)
			g := tc.hi - tc.lo
			r := orthonormal(rng, g, g)
			var rotated mat.Dense
			rotated.Mul(v1.Slice(0, n, tc.lo, tc.hi), r)
			v2.Slice(0, n, tc.lo, tc.hi).(*mat.Dense).Copy(&rotated)
			vals1 := append([]float64(nil), tc.vals...)
			vals2 := append([]float64(nil), tc.vals...)
			orig := mat.DenseCopyOf(v1)
			canonicalGroups(vals1, v1, labeled, 1e-8)
			canonicalGroups(vals2, v2, labeled, 1e-8)
			if !mat.EqualApprox(v1, v2, 1e-12) {
				t.Errorf("the two bases differ after canonicalGroups")
			}
			var gram mat.Dense
			gram.Mul(v1.T(), v1)
			if !mat.EqualApprox(&gram, eye(d), 1e-12) {
				t.Errorf("columns not orthonormal")
			}
			// Same span: the projections onto the group agree.
			var p1, p0 mat.Dense
			g1 := v1.Slice(0, n, tc.lo, tc.hi)
			g0 := orig.Slice(0, n, tc.lo, tc.hi)
			p1.Mul(g1, g1.T())
			p0.Mul(g0, g0.T())
			if !mat.EqualApprox(&p1, &p0, 1e-12) {
				t.Errorf("the group's span changed")
			}
			var mean float64
			for _, v := range tc.vals[tc.lo:tc.hi] {
				mean += v / float64(g)
			}
			for i, v := range vals1 {
				want := tc.vals[i]
				if i >= tc.lo && i < tc.hi {
					want = mean
				}
				if math.Abs(v-want) > 1e-15*math.Abs(want) {
					t.Errorf("value %d = %v, want %v", i, v, want)
				}
			}
			for j := 0; j < d; j++ {
				if j >= tc.lo && j < tc.hi {
					continue
				}
				if !mat.Equal(v1.ColView(j), orig.ColView(j)) {
					t.Errorf("column %d of a simple eigenvalue changed", j)
				}
			}
		})
	}
}

func eye(d int) *mat.Dense {
	m := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		m.Set(i, i, 1)
	}
	return m
}

// separatedClusters returns points in `clusters` tight, far apart clusters
// in the plane (a kNN graph among them has one component per cluster, so
// its normalised affinity has the eigenvalue 1 once per cluster), with
// cluster c in class c%2, and one labeled point in each of the first
// `labeledClusters` clusters.
func separatedClusters(clusters, per, labeledClusters int) (x *mat.Dense, y, labeled, labels []int) {
	rng := rand.New(rand.NewPCG(5, 6))
	x = mat.NewDense(clusters*per, 2, nil)
	y = make([]int, clusters*per)
	for c := 0; c < clusters; c++ {
		for k := 0; k < per; k++ {
			i := c*per + k
			x.Set(i, 0, 100*float64(c)+rng.NormFloat64())
			x.Set(i, 1, 50*float64(c%3)+rng.NormFloat64())
			y[i] = c % 2
		}
	}
	for c := 0; c < labeledClusters; c++ {
		labeled = append(labeled, c*per)
		labels = append(labels, c%2)
	}
	return x, y, labeled, labels
}

// TestRepeatedEigenvalueSeed: on a kNN graph with six components (the
// eigenvalue 1 of the normalised affinity, 0 of the Laplacian, six times),
// the designs that weigh basis vectors unequally learn the same kernel and
// predict the same for every eigensolver seed; the points of the components
// without a labeled point (one or two) get the most frequent labeled class
// (the lower on a tie) and the labels' class shares. Without canonicalGroups the learned kernel, and
// with it the predictions, change with the seed; without the rule for
// unreached points, the predictions in that component do.
func TestRepeatedEigenvalueSeed(t *testing.T) {
	for _, sc := range []struct {
		labeledClusters int
		shares          []float64
	}{
		{5, []float64{0.6, 0.4}}, // classes 0 1 0 1 0 labeled
		{4, []float64{0.5, 0.5}}, // classes 0 1 0 1 labeled
	} {
		t.Run(fmt.Sprintf("labeled=%d", sc.labeledClusters), func(t *testing.T) {
			repeatedEigenvalueSeed(t, sc.labeledClusters, sc.shares)
		})
	}
}

func repeatedEigenvalueSeed(t *testing.T, labeledClusters int, shares []float64) {
	const per = 25
	x, _, labeled, labels := separatedClusters(6, per, labeledClusters)
	n, _ := x.Dims()
	all := seq(n)
	first := labeledClusters * per // the first unreached point
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"SKL(decay=2)", Options{Design: SKL, Decay: 2}},
		{"SKL(decay=1)", Options{Design: SKL, Decay: 1}},
		{"Cluster", Options{Design: Cluster}},
		{"Order", Options{Design: Order}},
		{"LabelSpreading", Options{Design: LabelSpreading}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ref []int
			var refMu []float64
			for seed := uint64(1); seed <= 5; seed++ {
				o := tc.opt
				o.Kernel = KernelSpec{Kind: KNN}
				o.GraphK, o.D, o.Lambda, o.Seed = 5, 10, 0.01, seed
				m, err := Fit(context.Background(), x, labeled, labels, &o)
				if err != nil {
					t.Fatal(err)
				}
				if seed == 1 {
					want := 1.0 // the top of the normalised affinity
					if o.Design.graph() {
						want = 0 // the bottom of the Laplacian
					}
					if ev := m.EigenValues(); len(ev) < 7 || math.Abs(ev[5]-want) > 1e-8 || math.Abs(ev[6]-want) < 1e-3 {
						t.Fatalf("eigenvalues %v: want %v six times", ev, want)
					}
				}
				if got := m.Unreached(); got != n-first {
					t.Fatalf("Unreached() = %d, want %d", got, n-first)
				}
				p, err := m.PredictRows(nil, all)
				if err != nil {
					t.Fatal(err)
				}
				pb, err := m.ProbaRows(nil, all[first:])
				if err != nil {
					t.Fatal(err)
				}
				for i := first; i < n; i++ {
					if p[i] != 0 {
						t.Fatalf("seed %d: point %d of the unlabeled component predicted %d, want the majority class 0", seed, i, p[i])
					}
					if row := pb.RawRowView(i - first); !closeTo(row, shares, 1e-15) {
						t.Fatalf("seed %d: point %d of the unlabeled component has probabilities %v, want %v", seed, i, row, shares)
					}
				}
				if seed == 1 {
					// The component labels travel with a saved model.
					b, err := m.MarshalBinary()
					if err != nil {
						t.Fatal(err)
					}
					got, err := ReadModel(bytes.NewReader(b))
					if err != nil {
						t.Fatal(err)
					}
					if p2, err := got.PredictRows(nil, all); err != nil || !slices.Equal(p, p2) {
						t.Errorf("PredictRows after saving and reading: %v (%v), before: %v", p2, err, p)
					}
				}
				if !o.Design.graph() {
					// New points beside the unlabeled component: the prior too.
					xnew := mat.DenseCopyOf(x.Slice(first, first+3, 0, 2))
					xnew.Apply(func(_, _ int, v float64) float64 { return v + 0.01 }, xnew)
					pn, err := m.Predict(nil, xnew)
					if err != nil {
						t.Fatal(err)
					}
					pbn, err := m.Proba(nil, xnew)
					if err != nil {
						t.Fatal(err)
					}
					for i, c := range pn {
						if c != 0 || !closeTo(pbn.RawRowView(i), shares, 1e-15) {
							t.Fatalf("seed %d: new point %d beside the unlabeled component: class %d, probabilities %v", seed, i, c, pbn.RawRowView(i))
						}
					}
				}
				_, mu := m.Kernel()
				if ref == nil {
					ref, refMu = p, mu
					continue
				}
				diff := 0
				for i := range p {
					if p[i] != ref[i] {
						diff++
					}
				}
				if diff > 0 {
					t.Errorf("seed %d: %d of %d predictions differ from seed 1's", seed, diff, n)
				}
				if !closeTo(mu, refMu, 1e-6) {
					t.Errorf("seed %d: mu %v, seed 1: %v", seed, fmt.Sprint(mu), fmt.Sprint(refMu))
				}
			}
		})
	}
}

func closeTo(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// TestCompleteOrthonormal: from any number k of orthonormal columns, the
// completion is an orthogonal matrix that keeps them.
func TestCompleteOrthonormal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const g = 7
	for k := 0; k <= g; k++ {
		q := mat.NewDense(g, g, nil)
		if k > 0 {
			q.Slice(0, g, 0, k).(*mat.Dense).Copy(orthonormal(rng, g, k))
		}
		first := mat.DenseCopyOf(q.Slice(0, g, 0, max(k, 1)))
		completeOrthonormal(q, k)
		var qtq mat.Dense
		qtq.Mul(q.T(), q)
		if !mat.EqualApprox(&qtq, eye(g), 1e-14) {
			t.Errorf("k = %d: the completion is not orthogonal", k)
		}
		if k > 0 && !mat.Equal(q.Slice(0, g, 0, k), first) {
			t.Errorf("k = %d: the first columns changed", k)
		}
	}
}

// TestConflictingCopiesSeed: a component of the kNN graph made of copies of
// one row, two of them labeled with different classes, is undecided: its
// points' decision values are zero in exact arithmetic. They get the tied
// class with the most labels for every eigensolver seed, in PredictRows and
// in the model selection's cross-validation. Without the tie rule of
// klr.Multi.PredictPrior the rounding of each seed decides them.
func TestConflictingCopiesSeed(t *testing.T) {
	const per = 25
	x, _, labeled, labels := separatedClusters(4, per, 3) // classes 0 1 0 labeled
	n, _ := x.Dims()
	for i := 3 * per; i < n; i++ { // the fourth cluster: copies of one row
		x.SetRow(i, []float64{300, 0})
	}
	// Two copies far from the lowest-indexed ones that every copy lists,
	// so that nothing lists them and their rows are the same.
	labeled = append(labeled, n-2, n-1)
	labels = append(labels, 0, 1)
	all := seq(n)
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"SKL(decay=2)", Options{Design: SKL, Decay: 2}},
		{"SKL(decay=1)", Options{Design: SKL, Decay: 1}},
		{"Truncated", Options{Design: Truncated}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 6; seed++ {
				o := tc.opt
				o.Kernel = KernelSpec{Kind: KNN}
				o.GraphK, o.D, o.Lambda, o.Seed = 5, 10, 0.01, seed
				m, err := Fit(context.Background(), x, labeled, labels, &o)
				if err != nil {
					t.Fatal(err)
				}
				p, err := m.PredictRows(nil, all)
				if err != nil {
					t.Fatal(err)
				}
				for i := 3 * per; i < n; i++ {
					if p[i] != 0 {
						t.Fatalf("seed %d: copy %d predicted %d, want 0, the tied class with the most labels", seed, i, p[i])
					}
				}
				// The cross-validation of Select decides ties by the same
				// rule: with a third labeled copy (class 1), holding out a
				// copy of class 1 leaves the training part tied, and the
				// training labels' majority (class 0) is wrong for it.
				cvLabeled := append([]int{n - 3}, labeled...)
				cvLabels := append([]int{0}, labels...)
				cvLabels[len(cvLabels)-2] = 1
				sl, sy := sortedLabeled(cvLabeled, cvLabels)
				sel, err := Select(context.Background(), x, sl, sy, &SelectOptions{
					Base:       Options{Seed: seed},
					Candidates: []Candidate{{Name: tc.name, Options: o}},
				})
				if err != nil {
					t.Fatal(err)
				}
				if got := sel.Selection().Best().right; slices.Contains(got[3:], true) {
					t.Fatalf("seed %d: held-out copies right %v, want none (labels %v)", seed, got[3:], sy)
				}
			}
		})
	}
}

// TestRowOrderWithCopies: on data whose rows come in copies (a few levels
// of three categorical features, as in flare-solar), the kNN candidates
// predict the same for the rows in any order, and copies of one row get
// one class. With the lower indices taking the ties among equidistant
// neighbours, the graph, and with it the predictions, followed the order.
func TestRowOrderWithCopies(t *testing.T) {
	const n = 240
	rng := rand.New(rand.NewPCG(11, 12))
	x := mat.NewDense(n, 3, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		a, b, c := rng.IntN(3), rng.IntN(2), rng.IntN(2)
		x.SetRow(i, []float64{float64(a), float64(b), float64(c)})
		y[i] = (a + b) % 2
		if rng.IntN(5) == 0 { // label noise: copies of one row disagree
			y[i] = 1 - y[i]
		}
	}
	labeled := []int{3, 17, 40, 41, 77, 90, 120, 150, 180, 230}
	labels := make([]int, len(labeled))
	for a, i := range labeled {
		labels[a] = y[i]
	}
	perm := rand.New(rand.NewPCG(13, 14)).Perm(n) // new row a is old row perm[a]
	inv := make([]int, n)
	xp := mat.NewDense(n, 3, nil)
	for a, i := range perm {
		inv[i] = a
		xp.SetRow(a, x.RawRowView(i))
	}
	pl := make([]int, len(labeled))
	for a, i := range labeled {
		pl[a] = inv[i]
	}
	plab, plabels := sortedLabeled(pl, labels)
	all := seq(n)
	// d = 20 is above the 12 components of the graph (the level
	// combinations), so the basis holds the whole eigenspace of the
	// eigenvalue 1; of one cut short, the solver chooses (canonicalGroups).
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"Spread", Options{Classifier: Spread, Design: LabelSpreading}},
		{"SKL(decay=2)", Options{Design: SKL, Decay: 2, D: 20, Lambda: 0.01}},
		{"LabelSpreading", Options{Design: LabelSpreading, D: 20, Lambda: 0.01}},
		{"Cluster", Options{Design: Cluster, D: 20, Lambda: 0.01}},
		{"local scale", Options{Design: Truncated, D: 20, Lambda: 0.01, Kernel: KernelSpec{LocalScale: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.opt
			o.Kernel.Kind = KNN
			o.GraphK, o.Seed, o.Scale = 5, 1, NoScaling // exact distances: exact ties
			m1, err := Fit(context.Background(), x, labeled, labels, &o)
			if err != nil {
				t.Fatal(err)
			}
			m2, err := Fit(context.Background(), xp, plab, plabels, &o)
			if err != nil {
				t.Fatal(err)
			}
			p1, err1 := m1.PredictRows(nil, all)
			p2, err2 := m2.PredictRows(nil, all)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			class := map[[3]float64]int{}
			for i := 0; i < n; i++ {
				if p1[i] != p2[inv[i]] {
					t.Fatalf("row %d: class %d, %d with the rows permuted", i, p1[i], p2[inv[i]])
				}
				key := [3]float64(x.RawRowView(i))
				if c, ok := class[key]; ok && c != p1[i] {
					t.Fatalf("copies of row %v get classes %d and %d", key, c, p1[i])
				}
				class[key] = p1[i]
			}
			if tc.opt.Design.graph() {
				return
			}
			// New points: copies of training rows, and points halfway
			// between two levels of the first feature (equidistant from
			// the copies of two rows), in both orders.
			half := mat.DenseCopyOf(x)
			for i := 0; i < n; i++ {
				half.Set(i, 0, half.At(i, 0)+0.5)
			}
			for _, z := range []*mat.Dense{x, half} {
				q1, err1 := m1.Predict(nil, z)
				q2, err2 := m2.Predict(nil, z)
				if err1 != nil || err2 != nil || !slices.Equal(q1, q2) {
					t.Fatalf("Predict on new points differs with the rows permuted (%v, %v)", err1, err2)
				}
			}
		})
	}
}

// TestNewPointTies: a new point exactly halfway between the copies of two
// rows of different classes is placed among all of them, whatever their
// order; the k of lowest index would take one row's copies only, and the
// class would follow the row order.
func TestNewPointTies(t *testing.T) {
	rows := func(reversed bool) (*mat.Dense, []int, []int) {
		vals := make([]float64, 0, 30)
		for _, v := range []float64{0, 2, 10} { // three rows, ten copies each
			for range 10 {
				vals = append(vals, v)
			}
		}
		if reversed {
			slices.Reverse(vals)
		}
		var labeled, labels []int
		for i, v := range vals {
			if (v == 0 || v == 2) && !slices.ContainsFunc(labeled, func(j int) bool { return vals[j] == v }) {
				labeled = append(labeled, i)
				labels = append(labels, int(v)/2)
			}
		}
		return mat.NewDense(30, 1, vals), labeled, labels
	}
	mid := mat.NewDense(1, 1, []float64{1})
	var got []int
	for _, reversed := range []bool{false, true} {
		x, labeled, labels := rows(reversed)
		labeled, labels = sortedLabeled(labeled, labels)
		o := Options{Kernel: KernelSpec{Kind: KNN}, Design: Truncated, D: 3, Lambda: 0.01, GraphK: 3, Scale: NoScaling, Seed: 1}
		m, err := Fit(context.Background(), x, labeled, labels, &o)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Predict(nil, mid)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p[0])
	}
	if got[0] != got[1] {
		t.Fatalf("the halfway point is class %d, and %d with the rows reversed", got[0], got[1])
	}
}

// TestBasisCacheLabeledSets: a basis that a BasisCache kept from a
// selection on one labeled set, reused on another, gives the kernel and
// the probabilities that a selection without the cache gives: the basis of
// the repeated eigenvalue (six components) is turned to the new labeled
// points. Without that turn the Order design learns another kernel.
func TestBasisCacheLabeledSets(t *testing.T) {
	const per = 25
	x, _, _, _ := separatedClusters(6, per, 0)
	// Two points each of clusters 0-3, then two others each of clusters 0-4.
	var first, firstY, second, secondY []int
	for c := range 4 {
		first, firstY = append(first, c*per, c*per+1), append(firstY, c%2, c%2)
	}
	for c := range 5 {
		second, secondY = append(second, c*per+2, c*per+3), append(secondY, c%2, c%2)
	}
	all := seq(6 * per)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"Order", Options{Design: Order}},
		{"Cluster", Options{Design: Cluster}},
		{"SKL(decay=1)", Options{Design: SKL, Decay: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.opt
			o.Kernel = KernelSpec{Kind: KNN}
			o.GraphK, o.D, o.Lambda, o.Seed = 5, 10, 0.01, 1
			so := func(c *BasisCache) *SelectOptions {
				return &SelectOptions{Candidates: []Candidate{{Name: tc.name, Options: o}}, Folds: 2, Cache: c}
			}
			fresh, err := Select(ctx, x, second, secondY, so(nil))
			if err != nil {
				t.Fatal(err)
			}
			cache := &BasisCache{}
			if _, err := Select(ctx, x, first, firstY, so(cache)); err != nil {
				t.Fatal(err)
			}
			cached, err := Select(ctx, x, second, secondY, so(cache))
			if err != nil {
				t.Fatal(err)
			}
			_, want := fresh.Kernel()
			_, got := cached.Kernel()
			if !closeTo(got, want, 1e-8) {
				t.Errorf("coefficients from the cached basis %v, without the cache %v", got, want)
			}
			pw, err := fresh.ProbaRows(nil, all)
			if err != nil {
				t.Fatal(err)
			}
			pg, err := cached.ProbaRows(nil, all)
			if err != nil {
				t.Fatal(err)
			}
			for i := range all {
				if !closeTo(pg.RawRowView(i), pw.RawRowView(i), 1e-8) {
					t.Fatalf("point %d: probabilities %v from the cached basis, %v without the cache", i, pg.RawRowView(i), pw.RawRowView(i))
				}
			}
		})
	}
}
