package models

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"ukm/dataset"
	"ukm/dataset/benchdata"
	"ukm/dataset/datatest"
	"ukm/linalg"
)

// BenchmarkLargeN times a whole fit against n on the clustered synthetic
// set (dataset.Blobs, p = 20, 10 classes, 100 labels): the kNN-graph basis
// with the LabelSpreading design, d = 20, on the exact path (up to n = 8000)
// and the large-n path (up to 10^6; the largest sizes are skipped in -short
// mode). It reports the accuracy on the unlabeled points.
func BenchmarkLargeN(b *testing.B) {
	cases := []struct {
		path LargeMode
		n    int
	}{
		{LargeOff, 1000}, {LargeOff, 2000}, {LargeOff, 4000}, {LargeOff, 8000},
		{LargeOn, 1000}, {LargeOn, 10000}, {LargeOn, 100000}, {LargeOn, 1000000},
	}
	for _, c := range cases {
		name := "exact"
		if c.path == LargeOn {
			name = "large"
		}
		b.Run(fmt.Sprintf("path=%s/n=%d", name, c.n), func(b *testing.B) {
			if testing.Short() && c.n > 100000 {
				b.Skip("skipped in -short mode")
			}
			s, err := dataset.Blobs(c.n, 20, 10, 1)
			if err != nil {
				b.Fatal(err)
			}
			lab, ys, unl := pickLabeled(s.Y, 100, 2)
			benchFit(b, s, lab, ys, unl, &Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Large: c.path, Seed: 1})
		})
	}
}

// benchFit times Fit with o and reports the accuracy on unl.
func benchFit(b *testing.B, s *dataset.Set, lab, ys, unl []int, o *Options) {
	var acc float64
	for b.Loop() {
		m, err := Fit(context.Background(), s.X, lab, ys, o)
		if err != nil {
			b.Fatal(err)
		}
		p, _ := m.PredictRows(nil, unl)
		acc = accuracy(p, unl, s.Y)
	}
	b.ReportMetric(100*acc, "acc%")
}

// BenchmarkFashionMNIST times the large-n fit on all 70,000 Fashion-MNIST
// images (skipped when Debian's dataset-fashion-mnist is not installed):
// the fixed labels the peers ran on (benchdata.FashionRule) and 10 random draws
// of 10 labeled images per class, one whole fit per draw
// (the kNN graph searched in the space of the leading principal
// components, its top 100 eigenvectors, the LabelSpreading design and KLR
// with lambda by cross-validation). It reports the accuracy on the
// unlabeled images with the fixed labels, the mean over the random draws
// with its standard error, the mean cross-validated accuracy on the labeled
// images (what a user who sees only the labels could compare the
// sub-benchmarks by) and the median seconds of one fit. The
// sub-benchmarks vary what the graph is searched among (the pixels, or
// their HOG descriptors: Options.GraphFeatures), the scaling (raw pixels
// divided by 255, or z-scored) and the projection (GraphDims: the default,
// or none).
func BenchmarkFashionMNIST(b *testing.B) {
	dir, err := dataset.FashionMNISTDir()
	if err != nil {
		b.Skip(err)
	}
	s, err := dataset.FashionMNIST(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		s    Scaling
		dims int
		hog  *linalg.HOG
	}{
		{"graph=pixels/scale=none/graphdims=default", NoScaling, 0, nil},
		{"graph=pixels/scale=zscore/graphdims=default", ZScore, 0, nil},
		{"graph=pixels/scale=none/graphdims=none", NoScaling, -1, nil},
		{"graph=hog/scale=none/graphdims=default", NoScaling, 0, &linalg.HOG{}},
		{"graph=hog/scale=none/graphdims=none", NoScaling, -1, &linalg.HOG{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			o := &Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 100, Scale: c.s, GraphDims: c.dims, GraphFeatures: c.hog, Seed: 1}
			var accs, secs, cvs []float64
			var ruleAcc float64
			for b.Loop() {
				accs, secs, cvs = accs[:0], secs[:0], cvs[:0]
				for draw := range benchdata.FashionDraws + 1 {
					// Draw 0 is the fixed rule the peers ran on.
					lab, ys, unl := benchdata.FashionRule(s.Y)
					if draw > 0 {
						lab, ys, unl = benchdata.PerClass(s.Y, 10, uint64(draw))
					}
					t0 := time.Now()
					m, err := Fit(context.Background(), s.X, lab, ys, o)
					if err != nil {
						b.Fatal(err)
					}
					secs = append(secs, time.Since(t0).Seconds())
					p, _ := m.PredictRows(nil, unl)
					if draw == 0 {
						ruleAcc = 100 * accuracy(p, unl, s.Y)
					} else {
						accs = append(accs, 100*accuracy(p, unl, s.Y))
						cvs = append(cvs, 100*slices.Max(m.CV().Accuracy))
					}
				}
			}
			mean, se := meanSE(accs)
			slices.Sort(secs)
			b.ReportMetric(ruleAcc, "acc-rule%")
			b.ReportMetric(mean, "acc%")
			b.ReportMetric(se, "acc-se")
			cv, _ := meanSE(cvs)
			b.ReportMetric(cv, "cv%")
			b.ReportMetric(secs[len(secs)/2], "s/fit")
		})
	}
}

// BenchmarkImageGraph is BenchmarkFashionMNIST's comparison of the graph's
// space (pixels, or their HOG descriptors) on the other image set of the
// reference data, usps (9,298 images of 16 x 16 pixels, 10 classes; the
// exact path): 10 random draws of 10 labeled images per class
// (benchdata.PerClass), the kNN basis with the LabelSpreading design, d =
// 100, pixels as given. It reports the mean accuracy on the unlabeled
// images, its standard error and the mean cross-validated accuracy on the
// labeled ones.
func BenchmarkImageGraph(b *testing.B) {
	s := datatest.Load(b, "usps")
	for _, c := range []struct {
		name string
		hog  *linalg.HOG
	}{{"dataset=usps/graph=pixels", nil}, {"dataset=usps/graph=hog", &linalg.HOG{}}} {
		b.Run(c.name, func(b *testing.B) {
			o := &Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 100, Scale: NoScaling, GraphFeatures: c.hog, Seed: 1}
			var accs, cvs []float64
			for b.Loop() {
				accs, cvs = accs[:0], cvs[:0]
				for draw := 1; draw <= benchdata.FashionDraws; draw++ {
					lab, ys, unl := benchdata.PerClass(s.Y, 10, uint64(draw))
					m, err := Fit(context.Background(), s.X, lab, ys, o)
					if err != nil {
						b.Fatal(err)
					}
					p, _ := m.PredictRows(nil, unl)
					accs = append(accs, 100*accuracy(p, unl, s.Y))
					cvs = append(cvs, 100*slices.Max(m.CV().Accuracy))
				}
			}
			mean, se := meanSE(accs)
			cv, _ := meanSE(cvs)
			b.ReportMetric(mean, "acc%")
			b.ReportMetric(se, "acc-se")
			b.ReportMetric(cv, "cv%")
		})
	}
}

// meanSE returns the mean of x and its standard error.
func meanSE(x []float64) (mean, se float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1) / float64(len(x)))
}

// BenchmarkNystromSubspace measures how far the Nyström basis of the
// large-n path is from the exact top-20 eigenvectors of the RBF kernel as m
// grows: the sine of the largest principal angle between the two subspaces
// (metric "sin"), on ssl_usps (n = 1500).
func BenchmarkNystromSubspace(b *testing.B) {
	s := datatest.Load(b, "ssl_usps")
	lab, ys, _ := pickLabeled(s.Y, 20, 1)
	exact, err := Fit(context.Background(), s.X, lab, ys, &Options{Design: Cluster, Large: LargeOff, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	ve, _ := exact.Kernel()
	for _, m := range []int{100, 250, 500, 1000, 1500} {
		b.Run(fmt.Sprintf("dataset=ssl_usps/m=%d", m), func(b *testing.B) {
			o := &Options{Design: Cluster, Large: LargeOn, Landmarks: m, Seed: 1}
			var sin float64
			for b.Loop() {
				ml, err := Fit(context.Background(), s.X, lab, ys, o)
				if err != nil {
					b.Fatal(err)
				}
				vl, _ := ml.Kernel()
				sin = sinLargestAngle(ve, vl)
			}
			b.ReportMetric(sin, "sin")
		})
	}
}

// BenchmarkUKLRRoundLarge times one UKLR round after the first on 70,000
// points (dataset.Blobs, p = 20, 10 classes, 100 labels, the kNN basis of
// the large-n path, d = 20): the hot-started SKL QP, KLR on Phi and the
// entropy over the pool, one point added and removed per round.
func BenchmarkUKLRRoundLarge(b *testing.B) {
	ctx := context.Background()
	s, err := dataset.Blobs(70000, 20, 10, 1)
	if err != nil {
		b.Fatal(err)
	}
	lab, ys, _ := pickLabeled(s.Y, 100, 2)
	pr, err := prepare(ctx, s.X, lab, ys, &Options{Kernel: KernelSpec{Kind: KNN}, Large: LargeOn, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	lp := newLoop(pr, UKLR(pr.opt.Options, 1, 1), lab, ys)
	if err := lp.fit(ctx, 0, &StageTimes{}); err != nil {
		b.Fatal(err)
	}
	lp.evaluate()
	q := lp.unl[len(lp.unl)/2]
	var times StageTimes
	b.Run("n=70000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			lp.lab = append(lp.lab, q)
			lp.ys = append(lp.ys, s.Y[q])
			lp.inL[q] = true
			pos, _ := slices.BinarySearch(lp.unl, q)
			lp.unl = slices.Delete(lp.unl, pos, pos+1)
			if err := lp.fit(ctx, 1, &times); err != nil {
				b.Fatal(err)
			}
			sinkF, _ = lp.evaluate()
			sel, err := lp.choose(1, 1)
			if err != nil {
				b.Fatal(err)
			}
			sinkInt = sel
			lp.lab, lp.ys = lp.lab[:len(lp.lab)-1], lp.ys[:len(lp.ys)-1]
			lp.inL[q] = false
			lp.unl = slices.Insert(lp.unl, pos, q)
		}
	})
}
