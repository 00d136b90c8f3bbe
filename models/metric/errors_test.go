package metric

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Every bad input is an error wrapping linalg.ErrInvalid and its kind.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	x, y := gaussians(10, 2, 3, 1)
	good := Constraints{Similar: []Pair{{0, 2}, {1, 3}, {4, 6}}, Dissimilar: []Pair{{0, 1}, {4, 5}}}
	nan := mat.DenseCopyOf(x)
	nan.Set(3, 1, math.NaN())
	gram, _ := linalg.Gram(ctx, linalg.Linear{}, x)
	var nilCtx context.Context
	// Two points per direction at most: Ĉ_w of rank 1 in 3 dimensions.
	thin := Constraints{Similar: []Pair{{0, 2}}, Dissimilar: []Pair{{0, 1}, {2, 5}, {4, 7}}}
	// Equal chunklet means: points 0, 1 duplicated as 2, 3.
	dup := mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 0, 1, 1})
	eqMeans := Constraints{Similar: []Pair{{0, 1}, {2, 3}}, Dissimilar: []Pair{{0, 2}}}
	m := &Metric{A: mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0, 0})}
	km, _ := KernelDCAMatrix(ctx, gram, good, nil)
	for _, tc := range []struct {
		name string
		err  error
		kind error
	}{
		{"DCA nil data", second(DCA(ctx, nil, good, nil)), linalg.ErrEmpty},
		{"DCA NaN", second(DCA(ctx, nan, good, nil)), linalg.ErrNonFinite},
		{"DCA nil context", second(DCA(nilCtx, x, good, nil)), linalg.ErrSettings},
		{"DCA index out of range", second(DCA(ctx, x, Constraints{Similar: []Pair{{0, 20}}}, nil)), linalg.ErrLabels},
		{"DCA negative index", second(DCA(ctx, x, Constraints{Dissimilar: []Pair{{-1, 2}}}, nil)), linalg.ErrLabels},
		{"DCA self similar", second(DCA(ctx, x, Constraints{Similar: []Pair{{2, 2}}}, nil)), linalg.ErrLabels},
		{"DCA self dissimilar", second(DCA(ctx, x, Constraints{Dissimilar: []Pair{{2, 2}}}, nil)), ErrContradictory},
		{"DCA contradictory chain", second(DCA(ctx, x, Constraints{Similar: []Pair{{0, 1}, {1, 2}}, Dissimilar: []Pair{{2, 0}}}, nil)), ErrContradictory},
		{"DCA no dissimilar", second(DCA(ctx, x, Constraints{Similar: good.Similar}, nil)), linalg.ErrDegenerate},
		{"DCA no similar", second(DCA(ctx, x, Constraints{Dissimilar: good.Dissimilar}, nil)), linalg.ErrDegenerate},
		{"DCA equal means", second(DCA(ctx, dup, eqMeans, nil)), linalg.ErrDegenerate},
		{"DCA singular C_z", second(DCA(ctx, x, thin, nil)), linalg.ErrDegenerate},
		{"DCA negative Dims", second(DCA(ctx, x, good, &Settings{Dims: -1})), linalg.ErrSettings},
		{"DCA NaN Ridge", second(DCA(ctx, x, good, &Settings{Ridge: math.NaN()})), linalg.ErrSettings},
		{"DCA RankTol 1", second(DCA(ctx, x, good, &Settings{RankTol: 1})), linalg.ErrSettings},
		{"RCA singular", second(RCA(ctx, x, thin, nil)), linalg.ErrDegenerate},
		{"RCA no similar", second(RCA(ctx, x, Constraints{Dissimilar: good.Dissimilar}, nil)), linalg.ErrDegenerate},
		{"Scatter empty", third(Scatter(&mat.Dense{}, good, nil)), linalg.ErrEmpty},
		{"NewChunklets n=0", second(NewChunklets(0, Constraints{})), linalg.ErrSettings},
		{"KernelDCA nil kernel", second(KernelDCA(ctx, nil, x, good, nil)), linalg.ErrSettings},
		{"KernelDCA bad gamma", second(KernelDCA(ctx, linalg.RBF{Gamma: -1}, x, good, nil)), linalg.ErrSettings},
		{"KernelDCA no dissimilar", second(KernelDCA(ctx, linalg.Linear{}, x, Constraints{Similar: good.Similar}, nil)), linalg.ErrDegenerate},
		{"KernelDCAMatrix nil", second(KernelDCAMatrix(ctx, nil, good, nil)), linalg.ErrEmpty},
		{"KernelDCAMatrix out of range", second(KernelDCAMatrix(ctx, gram, Constraints{Similar: []Pair{{0, 99}}}, nil)), linalg.ErrLabels},
		{"KernelDCAMatrix not PSD", second(KernelDCAMatrix(ctx, negate(gram), good, nil)), linalg.ErrNotPSD},
		{"Transform from matrix", second(km.Transform(ctx, x)), linalg.ErrSettings},
		{"TransformKernel wrong width", second(km.TransformKernel(mat.NewDense(2, 3, nil))), linalg.ErrShape},
		{"TransformKernel nil", second(km.TransformKernel(nil)), linalg.ErrEmpty},
		{"Metric.Transform shape", second(m.Transform(mat.NewDense(2, 2, nil))), linalg.ErrShape},
		{"Metric.Distance shape", second(m.Distance([]float64{1}, []float64{1, 2, 3})), linalg.ErrShape},
		{"KMeans k=0", second(KMeans(ctx, x, 0, good, nil)), linalg.ErrSettings},
		{"KMeans k>n", second(KMeans(ctx, x, 21, good, nil)), linalg.ErrSettings},
		{"KMeans NaN", second(KMeans(ctx, nan, 2, good, nil)), linalg.ErrNonFinite},
		{"KMeans nil context", second(KMeans(nilCtx, x, 2, good, nil)), linalg.ErrSettings},
		{"KMeans negative restarts", second(KMeans(ctx, x, 2, good, &KMeansSettings{Restarts: -1})), linalg.ErrSettings},
		{"KMeans contradictory", second(KMeans(ctx, x, 2, Constraints{Similar: []Pair{{0, 1}}, Dissimilar: []Pair{{1, 0}}}, nil)), ErrContradictory},
		{"MahalanobisKMeans shape", second(MahalanobisKMeans(ctx, x, mat.NewSymDense(2, nil), 2, good, nil)), linalg.ErrShape},
		{"MahalanobisKMeans not PSD", second(MahalanobisKMeans(ctx, x, mat.NewSymDense(3, []float64{1, 0, 0, 0, -1, 0, 0, 0, 1}), 2, good, nil)), linalg.ErrNotPSD},
		{"KernelKMeans empty", second(KernelKMeans(ctx, &mat.SymDense{}, 2, good, nil)), linalg.ErrEmpty},
		{"KernelKMeans NaN", second(KernelKMeans(ctx, mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1}), 1, Constraints{}, nil)), linalg.ErrNonFinite},
		{"SampleConstraints too many", second(SampleConstraints(y, 1000, 0, 1)), linalg.ErrSettings},
		{"SampleConstraints negative label", second(SampleConstraints([]int{0, -1}, 0, 1, 1)), linalg.ErrLabels},
		{"SampleConstraints empty", second(SampleConstraints(nil, 0, 0, 1)), linalg.ErrEmpty},
		{"PairwiseAccuracy lengths", second(PairwiseAccuracy([]int{0, 1}, []int{0})), linalg.ErrShape},
		{"PairwiseAccuracy one point", second(PairwiseAccuracy([]int{0}, []int{0})), linalg.ErrEmpty},
		{"Xing no similar", second(Xing(ctx, x, Constraints{Dissimilar: good.Dissimilar}, nil)), linalg.ErrDegenerate},
		{"Xing singular", second(Xing(ctx, x, thin, nil)), linalg.ErrDegenerate},
		{"Xing negative tol", second(Xing(ctx, x, good, &XingSettings{Tol: -1})), linalg.ErrSettings},
	} {
		if !errors.Is(tc.err, linalg.ErrInvalid) || !errors.Is(tc.err, tc.kind) {
			t.Errorf("%s: error %v, want one wrapping %v", tc.name, tc.err, tc.kind)
		}
	}
}

func TestCanceledContext(t *testing.T) {
	x, y := gaussians(10, 2, 3, 1)
	c := mustConstraints(t, y, 10, 10, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, err := range map[string]error{
		"DCA":       second(DCA(ctx, x, c, nil)),
		"RCA":       second(RCA(ctx, x, c, nil)),
		"KernelDCA": second(KernelDCA(ctx, linalg.RBF{Gamma: 1}, x, c, nil)),
		"Xing":      second(Xing(ctx, x, c, nil)),
	} {
		if !errors.Is(err, context.Canceled) || errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("%s: error %v, want context.Canceled", name, err)
		}
	}
}

func second[T any](_ T, err error) error        { return err }
func third[A, B any](_ A, _ B, err error) error { return err }

func negate(a *mat.SymDense) *mat.SymDense {
	n := a.SymmetricDim()
	out := mat.NewSymDense(n, nil)
	out.ScaleSym(-1, a)
	return out
}
