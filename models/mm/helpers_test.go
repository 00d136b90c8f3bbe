package mm

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset/datatest"
	"ukm/eig"
	"ukm/linalg"
	"ukm/models/spectral"
)

// randomBasis returns an n x q basis with orthonormal columns (the Q factor
// of a seeded Gaussian matrix) and descending placeholder eigenvalues.
func randomBasis(n, q int, seed uint64) *spectral.Basis {
	rng := rand.New(rand.NewPCG(seed, 1))
	a := mat.NewDense(n, q, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < q; j++ {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var qm mat.Dense
	qr.QTo(&qm)
	v := mat.DenseCopyOf(qm.Slice(0, n, 0, q))
	vals := make([]float64, q)
	for i := range vals {
		vals[i] = float64(q - i)
	}
	return &spectral.Basis{Values: vals, V: v}
}

// problem picks l labeled rows (the first l of a seeded permutation) and
// labels them by the sign of a fixed smooth function of the basis rows with
// a few flips, so that both classes occur and the data are not trivially
// separable along one eigenvector.
func problem(b *spectral.Basis, l int, seed uint64) ([]int, []float64) {
	n, q := b.Dims()
	rng := rand.New(rand.NewPCG(seed, 2))
	perm := rng.Perm(n)[:l]
	y := make([]float64, l)
	for r, j := range perm {
		var s float64
		for i := 0; i < q; i++ {
			s += b.V.At(j, i) / float64(i+1)
		}
		y[r] = 1
		if s < 0 {
			y[r] = -1
		}
	}
	// make sure both classes occur
	y[0], y[1] = 1, -1
	return perm, y
}

// ionosphereBasis returns the top-d eigenpairs of the RBF kernel (median
// heuristic width) of the z-scored ionosphere features, as models.Fit
// builds them, and the class labels as -1/+1.
func ionosphereBasis(tb testing.TB, d int) (*spectral.Basis, []float64) {
	tb.Helper()
	set := datatest.Load(tb, "ionosphere")
	ctx := context.Background()
	sc, err := linalg.FitScaler(set.X, linalg.ZScore)
	if err != nil {
		tb.Fatal(err)
	}
	xs, err := sc.Transform(set.X)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := linalg.MedianGamma(ctx, xs, &linalg.BandwidthOptions{Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := linalg.Gram(ctx, linalg.RBF{Gamma: g}, xs)
	if err != nil {
		tb.Fatal(err)
	}
	op, err := eig.NewDense(k)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := eig.TopD(ctx, op, d, &eig.Settings{Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	y := make([]float64, len(set.Y))
	for i, c := range set.Y {
		y[i] = float64(2*c - 1)
	}
	return &spectral.Basis{Values: res.Values, V: res.Vectors}, y
}

// pickLabeled returns the first l indices of a seeded permutation that
// contain both classes (swapping in one of the missing class if needed), and
// their labels.
func pickLabeled(yAll []float64, l int, seed uint64) ([]int, []float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	perm := rng.Perm(len(yAll))
	idx := perm[:l]
	has := map[float64]bool{}
	for _, j := range idx {
		has[yAll[j]] = true
	}
	if !has[1] || !has[-1] {
		want := 1.0
		if has[1] {
			want = -1
		}
		for _, j := range perm[l:] {
			if yAll[j] == want {
				idx[0] = j
				break
			}
		}
	}
	y := make([]float64, l)
	for r, j := range idx {
		y[r] = yAll[j]
	}
	return idx, y
}

// problems is problem for two classes; for more it labels each of l seeded
// rows by the argmax over classes of a fixed function of its basis row and
// returns the one-vs-all label vectors (every class forced present).
func problems(b *spectral.Basis, l, classes int, seed uint64) ([]int, [][]float64) {
	if classes == 2 {
		idx, y := problem(b, l, seed)
		return idx, [][]float64{y}
	}
	n, q := b.Dims()
	rng := rand.New(rand.NewPCG(seed, 4))
	idx := rng.Perm(n)[:l]
	labels := make([]int, l)
	for r, j := range idx {
		best := math.Inf(-1)
		for c := 0; c < classes; c++ {
			var s float64
			for i := 0; i < q; i++ {
				s += b.V.At(j, i) * math.Cos(float64((c+1)*(i+1)))
			}
			if s > best {
				best, labels[r] = s, c
			}
		}
	}
	for c := 0; c < classes; c++ {
		labels[c] = c
	}
	ys, err := OneVsAll(labels, classes)
	if err != nil {
		panic(err)
	}
	return idx, ys
}
