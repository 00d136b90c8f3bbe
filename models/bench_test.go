package models

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset/datatest"
	"ukm/models/active"
	"ukm/models/klr"
	"ukm/models/spectral"
)

var (
	sinkModel *Model
	sinkMu    []float64
	sinkInt   []int
	sinkF     float64
)

// benchSetup loads ionosphere and draws l = 20 labels.
func benchSetup(b *testing.B) (*prep, []int, []int) {
	s := datatest.Load(b, "ionosphere")
	lab, ys, _ := pickLabeled(s.Y, 20, 1)
	pr, err := prepare(context.Background(), s.X, lab, ys, &Options{Lambda: 0.01})
	if err != nil {
		b.Fatal(err)
	}
	return pr, lab, ys
}

// BenchmarkPipeline times each stage of Fit on ionosphere (n = 351, d = 20,
// l = 20, SKL with C = 2, RBF kernel), and the whole Fit with a fixed lambda
// and with lambda chosen by 5-fold cross-validation.
func BenchmarkPipeline(b *testing.B) {
	ctx := context.Background()
	s := datatest.Load(b, "ionosphere")
	lab, ys, _ := pickLabeled(s.Y, 20, 1)
	pr, _, _ := benchSetup(b)
	target, err := spectral.Target(ys, 2)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("dataset=ionosphere/stage=kernel", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := prepareStages(ctx, s.X, lab, ys, &Options{}, true, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dataset=ionosphere/stage=eig", func(b *testing.B) {
		op, trace, err := pr.operator(ctx)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if err := pr.eigen(ctx, op, trace, lab); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dataset=ionosphere/stage=qp", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mu, err := spectral.NewSKL(DefaultDecay).Coefficients(ctx, nil, pr.basis, lab, target)
			if err != nil {
				b.Fatal(err)
			}
			sinkMu = mu
		}
	})
	m, err := Fit(ctx, s.X, lab, ys, &Options{Lambda: 0.01})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("dataset=ionosphere/stage=klr", func(b *testing.B) {
		var ft klr.Fitter
		ft.Settings.Lambda = 0.01
		var mm klr.Multi
		b.ReportAllocs()
		for b.Loop() {
			if err := ft.FitMultiFeatures(ctx, &mm, m.phiL, ys, 2, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dataset=ionosphere/stage=select", func(b *testing.B) {
		lp := newLoop(pr, &LoopOptions{Options: pr.opt.Options, Batch: 1, Budget: 10}, lab, ys)
		if err := lp.fit(ctx, 0, &StageTimes{}); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			h, _ := lp.evaluate()
			sinkF = h
			sinkInt = lp.topEntropy(1)
		}
	})
	for _, v := range []struct {
		name   string
		lambda float64
	}{{"fixed", 0.01}, {"cv", 0}} {
		b.Run("dataset=ionosphere/stage=all/lambda="+v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, err := Fit(ctx, s.X, lab, ys, &Options{Lambda: v.lambda})
				if err != nil {
					b.Fatal(err)
				}
				sinkModel = m
			}
		})
	}
}

// BenchmarkUKLRRound times one UKLR round after the first on ionosphere
// (n = 351, d = 20, l = 20 + 1): SKL QP hot-started from the previous round,
// warm KLR refit on the features, probabilities and entropies over the 330
// unlabeled points, selection of one point. Each iteration labels one of two
// alternating points and then unlabels it again, so that consecutive rounds
// solve different problems (a hot start at the exact optimum would flatter
// the QP).
func BenchmarkUKLRRound(b *testing.B) {
	ctx := context.Background()
	pr, lab, ys := benchSetup(b)
	s := datatest.Load(b, "ionosphere")
	lp := newLoop(pr, UKLR(pr.opt.Options, 1, 1), lab, ys)
	if err := lp.fit(ctx, 0, &StageTimes{}); err != nil {
		b.Fatal(err)
	}
	lp.evaluate()
	cand := []int{lp.unl[0], lp.unl[len(lp.unl)/2]}
	var times StageTimes
	b.Run("dataset=ionosphere", func(b *testing.B) {
		b.ReportAllocs()
		k := 0
		for b.Loop() {
			q := cand[k%2]
			k++
			lp.lab = append(lp.lab, q)
			lp.ys = append(lp.ys, s.Y[q])
			lp.inL[q] = true
			w := 0
			for _, i := range lp.unl {
				if i != q {
					lp.unl[w] = i
					w++
				}
			}
			lp.unl = lp.unl[:w]
			if err := lp.fit(ctx, 1, &times); err != nil {
				b.Fatal(err)
			}
			sinkF, _ = lp.evaluate()
			sel, err := lp.choose(1, 1)
			if err != nil {
				b.Fatal(err)
			}
			sinkInt = sel
			// Undo: q becomes unlabeled again.
			lp.lab, lp.ys = lp.lab[:len(lp.lab)-1], lp.ys[:len(lp.ys)-1]
			lp.inL[q] = false
			pos, _ := slices.BinarySearch(lp.unl, q)
			lp.unl = slices.Insert(lp.unl, pos, q)
		}
	})
}

// BenchmarkLoopCache times a whole UKLR loop (20 labels, two batches of
// 10) with the basis computed by the loop (cache=off) and taken from a
// BasisCache that an earlier loop filled (cache=on): what each further
// selector run from the same labeled set costs.
func BenchmarkLoopCache(b *testing.B) {
	s := datatest.Load(b, "ssl_usps")
	lab, ys, _ := pickLabeled(s.Y, 20, 1)
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("dataset=ssl_usps/cache=%s", map[bool]string{false: "off", true: "on"}[on]), func(b *testing.B) {
			lo := UKLR(Options{Seed: 1}, 20, 10)
			if on {
				lo.Cache = &BasisCache{}
				if _, _, err := Loop(context.Background(), s.X, lab, ys, active.GroundTruth(s.Y), lo); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Loop(context.Background(), s.X, lab, ys, active.GroundTruth(s.Y), lo); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSelect times the whole selected fit (every basis, the
// cross-validation of the default candidates, the final fit of the chosen
// candidate and, with vote=soft, of its voters) on 20 labeled points,
// without a basis cache.
func BenchmarkSelect(b *testing.B) {
	for _, name := range []string{"ionosphere", "ssl_usps"} {
		for _, vote := range []struct {
			name string
			mode VoteMode
		}{{"soft", VoteAuto}, {"none", VoteNone}} {
			b.Run("dataset="+name+"/l=20/vote="+vote.name, func(b *testing.B) {
				s := datatest.Load(b, name)
				lab, ys, _ := pickLabeled(s.Y, 20, 1)
				so := &SelectOptions{Base: Options{Seed: 1}, Vote: vote.mode}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Select(context.Background(), s.X, lab, ys, so); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSpreadCopies: label spreading on the graph of data in copies
// (flare-solar), summing each copy group once per step against summing
// every row.
func BenchmarkSpreadCopies(b *testing.B) {
	s := datatest.Load(b, "flare-solar")
	lab, ys, _ := pickLabeled(s.Y, 20, 1)
	o := Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Classifier: Spread, Seed: 1}
	m, err := Fit(context.Background(), s.X, lab, ys, &o)
	if err != nil {
		b.Fatal(err)
	}
	g := m.pr.graph
	for _, v := range []struct {
		name   string
		groups *spreadGroups
	}{{"plain", nil}, {"grouped", g.copies}} {
		b.Run("sum="+v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := spreadScores(context.Background(), g.s, v.groups, 0.99, lab, ys, 2); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSpreadCV: label spreading's cross-validation on Select's folds,
// summing each labeled point's spread column (what Select does when the
// folds would spread at least as many columns as there are labeled
// points: here leave-one-out on a binary set, five folds of a six-class
// one, ten folds of a binary one at equal counts) against spreading every
// fold's labels.
func BenchmarkSpreadCV(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		l    int
	}{{"ssl_usps", 10}, {"ssl_coil", 20}, {"ionosphere", 20}} {
		s := datatest.Load(b, c.name)
		lab, ys, _ := pickLabeled(s.Y, c.l, 1)
		o := Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Classifier: Spread, Seed: 1}
		m, err := Fit(ctx, s.X, lab, ys, &o)
		if err != nil {
			b.Fatal(err)
		}
		classes := slices.Max(ys) + 1
		fold, k, _, ok := selectFolds(ys, classes, 0, 1)
		if !ok {
			b.Fatalf("%s: no folds", c.name)
		}
		cv := &cvData{labeled: lab, labels: ys, classes: classes, fold: fold, k: k}
		splits := cv.splits()
		vs := []variant{{}}
		right := [][]bool{make([]bool, c.l)}
		prob := [][]float64{make([]float64, c.l)}
		for _, perPoint := range []bool{true, false} {
			b.Run(fmt.Sprintf("dataset=%s/l=%d/columns=%s", c.name, c.l, map[bool]string{true: "point", false: "fold"}[perPoint]), func(b *testing.B) {
				for b.Loop() {
					var each *mat.Dense
					if perPoint {
						if each, err = cv.spreadEach(ctx, m.pr, &m.pr.opt); err != nil {
							b.Fatal(err)
						}
					}
					if err := cv.scoreSpreadSplits(ctx, m.pr, &m.pr.opt, splits, each, vs, right, prob); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
