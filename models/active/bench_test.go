package active

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// benchPool returns n candidates with d features of decaying scale (like
// the rows of a spectral feature map, whose columns are weighted by the
// decreasing coefficients) and the probabilities of a logistic model
// with c classes (one-versus-all sigmoids, normalised).
func benchPool(n, d, c int, seed uint64) (x, probs *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x = mat.NewDense(n, d, nil)
	for i := range n {
		row := x.RawRowView(i)
		for j := range row {
			row[j] = rng.NormFloat64() / math.Sqrt(float64(j+1))
		}
	}
	models := c
	if c == 2 {
		models = 1
	}
	w := mat.NewDense(d, models, nil)
	for j := range d {
		for m := range models {
			// A weight of 3 puts most probabilities away from 1/2, as a
			// trained model does.
			w.Set(j, m, 3*rng.NormFloat64())
		}
	}
	var f mat.Dense
	f.Mul(x, w)
	probs = mat.NewDense(n, c, nil)
	for i := range n {
		p := probs.RawRowView(i)
		if c == 2 {
			q := 1 / (1 + math.Exp(-f.At(i, 0)))
			p[0], p[1] = 1-q, q
			continue
		}
		var sum float64
		for m := range p {
			p[m] = 1 / (1 + math.Exp(-f.At(i, m)))
			sum += p[m]
		}
		for m := range p {
			p[m] /= sum
		}
	}
	return x, probs
}

var sinkBatch []int

// BenchmarkFisher times one selection round (Fisher matrices, eigenpairs,
// projections, optimisation and batch) of k = 10 from a pool of n
// candidates with d features and c classes.
func BenchmarkFisher(b *testing.B) {
	for _, tc := range []struct{ n, d, c int }{
		{1500, 20, 2}, {1500, 20, 10}, {10000, 20, 2}, {70000, 20, 2}, {70000, 20, 10},
	} {
		x, probs := benchPool(tc.n, tc.d, tc.c, 1)
		b.Run(fmt.Sprintf("n=%d/d=%d/c=%d/k=10", tc.n, tc.d, tc.c), func(b *testing.B) {
			var f Fisher
			dst := make([]int, 0, 10)
			var err error
			b.ReportAllocs()
			for b.Loop() {
				if dst, err = f.SelectFeatures(dst, probs, x, 10); err != nil {
					b.Fatal(err)
				}
			}
			sinkBatch = dst
			res, _ := f.Solve(probs, x)
			b.ReportMetric(float64(res.Iterations), "steps/op")
			b.ReportMetric(float64(res.Passes), "passes/op")
		})
	}
}

// BenchmarkSelectors times the other selectors, and Fisher with the
// shortlist of KCenter (I_p of the whole pool, or of the shortlist), on the
// same pools, for comparison.
func BenchmarkSelectors(b *testing.B) {
	for _, n := range []int{1500, 70000} {
		x, probs := benchPool(n, 20, 2, 1)
		for _, s := range []struct {
			name string
			sel  FeatureSelector
		}{
			{"kcenter", KCenter{}},
			{"fisher-shortlist=5", Fisher{Shortlist: DefaultKCenterFactor}},
			{"fisher-shortlist=5-pool", Fisher{Shortlist: DefaultKCenterFactor, ShortlistPool: true}},
		} {
			b.Run(fmt.Sprintf("selector=%s/n=%d/d=20/k=10", s.name, n), func(b *testing.B) {
				dst := make([]int, 0, 10)
				for b.Loop() {
					dst, _ = s.sel.SelectFeatures(dst, probs, x, 10)
				}
				sinkBatch = dst
			})
		}
		for _, s := range []struct {
			name string
			sel  Selector
		}{{"entropy", Entropy{}}, {"margin", Margin{}}} {
			b.Run(fmt.Sprintf("selector=%s/n=%d/d=20/k=10", s.name, n), func(b *testing.B) {
				dst := make([]int, 0, 10)
				for b.Loop() {
					dst, _ = s.sel.Select(dst, probs, 10)
				}
				sinkBatch = dst
			})
		}
	}
}
