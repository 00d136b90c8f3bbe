package models

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"ukm/dataset"
	"ukm/dataset/datatest"
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
// the fixed labels the peers ran on (see fashionRule) and 10 random draws
// of 10 labeled images per class, one whole fit per draw
// (the kNN graph searched in the space of the leading principal
// components, its top 100 eigenvectors, the LabelSpreading design and KLR
// with lambda by cross-validation). It reports the accuracy on the
// unlabeled images with the fixed labels, the mean over the random draws
// with its standard error, and the median seconds of one fit. The sub-benchmarks vary the scaling (raw pixels
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
	}{{"scale=none/graphdims=default", NoScaling, 0}, {"scale=zscore/graphdims=default", ZScore, 0}, {"scale=none/graphdims=none", NoScaling, -1}} {
		b.Run(c.name, func(b *testing.B) {
			o := &Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 100, Scale: c.s, GraphDims: c.dims, Seed: 1}
			var accs, secs []float64
			var ruleAcc float64
			for b.Loop() {
				accs, secs = accs[:0], secs[:0]
				for draw := range fashionDraws + 1 {
					// Draw 0 is the fixed rule the peers ran on.
					lab, ys, unl := fashionRule(s.Y)
					if draw > 0 {
						lab, ys, unl = pickPerClass(s.Y, 10, uint64(draw))
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
					}
				}
			}
			mean, se := meanSE(accs)
			slices.Sort(secs)
			b.ReportMetric(ruleAcc, "acc-rule%")
			b.ReportMetric(mean, "acc%")
			b.ReportMetric(se, "acc-se")
			b.ReportMetric(secs[len(secs)/2], "s/fit")
		})
	}
}

// fashionDraws is the number of random label draws of
// BenchmarkFashionMNIST.
const fashionDraws = 10

// fashionRule returns the labels the peers of bench/peers ran on: rows i
// with i mod 7 = 3, the first 10 of each class.
func fashionRule(y []int) (lab, ys, unl []int) {
	count := make([]int, 10)
	for i, c := range y {
		if count[c] < 10 && i%7 == 3 {
			count[c]++
			lab = append(lab, i)
			ys = append(ys, c)
		} else {
			unl = append(unl, i)
		}
	}
	return lab, ys, unl
}

// pickPerClass draws per labeled points of every class at random with the
// seed.
func pickPerClass(y []int, per int, seed uint64) (lab, ys, unl []int) {
	rng := rand.New(rand.NewPCG(seed, 91))
	count := map[int]int{}
	taken := make([]bool, len(y))
	for _, i := range rng.Perm(len(y)) {
		if count[y[i]] < per {
			count[y[i]]++
			taken[i] = true
		}
	}
	for i, c := range y {
		if taken[i] {
			lab = append(lab, i)
			ys = append(ys, c)
		} else {
			unl = append(unl, i)
		}
	}
	return lab, ys, unl
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
