package linalg

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Dense reference helpers: explicit matrices and the definitions.
func denseFrob(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var s float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			s += a.At(i, j) * b.At(i, j)
		}
	}
	return s
}

func denseAlign(a, b mat.Matrix) float64 {
	return denseFrob(a, b) / math.Sqrt(denseFrob(a, a)*denseFrob(b, b))
}

func centeringH(n int) *mat.Dense {
	h := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := -1 / float64(n)
			if i == j {
				v++
			}
			h.Set(i, j, v)
		}
	}
	return h
}

func denseCenter(k mat.Matrix) *mat.Dense {
	n, _ := k.Dims()
	h := centeringH(n)
	var t, out mat.Dense
	t.Mul(h, k)
	out.Mul(&t, h)
	return &out
}

func randLabels(seed uint64, n int) []float64 {
	rng := rand.New(rand.NewPCG(seed, 3))
	y := make([]float64, n)
	for i := range y {
		y[i] = 1
		if rng.IntN(3) == 0 {
			y[i] = -1
		}
	}
	return y
}

func randLowRank(seed uint64, n, d int) *LowRank {
	v := randNormal(seed, n, d)
	rng := rand.New(rand.NewPCG(seed, 11))
	mu := make([]float64, d)
	for i := range mu {
		mu[i] = rng.Float64() * 3
	}
	return &LowRank{V: v, Mu: mu}
}

// alignTol: alignments are O(1) ratios of sums of O(n^2) terms; 1e-12 is
// ~1e4 ulps, far below any real discrepancy and far above rounding.
const alignTol = 1e-12

func TestAlignmentDense(t *testing.T) {
	ctx := context.Background()
	x := randNormal(1, 60, 4)
	k1, _ := Gram(ctx, RBF{Gamma: 0.3}, x)
	k2, _ := Gram(ctx, Quadratic(), x)
	k3, _ := Gram(ctx, Linear{}, x)
	y := randLabels(2, 60)
	yv := mat.NewVecDense(60, y)
	var yyT mat.Dense
	yyT.Outer(1, yv, yv)
	labels := make([]int, 60)
	for i := range labels {
		labels[i] = i % 3
	}
	Y, _ := OneHot(labels, 3)
	var T mat.Dense
	T.Mul(Y, Y.T())
	for _, pair := range [][2]*mat.SymDense{{k1, k2}, {k1, k3}, {k2, k3}, {k1, k1}} {
		a, b := pair[0], pair[1]
		cases := []struct {
			name      string
			got, want float64
			err       error
		}{}
		add := func(name string, got float64, err error, want float64) {
			cases = append(cases, struct {
				name      string
				got, want float64
				err       error
			}{name, got, want, err})
		}
		g, err := FrobeniusInner(a, b)
		add("frob", g/denseFrob(a, b), err, 1)
		g, err = Alignment(a, b)
		add("align", g, err, denseAlign(a, b))
		g, err = TargetAlignment(a, y)
		add("target", g, err, denseAlign(a, &yyT))
		g, err = TargetAlignmentFactor(a, Y)
		add("targetFactor", g, err, denseAlign(a, &T))
		g, err = CenteredAlignment(a, b)
		add("centered", g, err, denseAlign(denseCenter(a), denseCenter(b)))
		g, err = CenteredTargetAlignment(a, y)
		add("centeredTarget", g, err, denseAlign(denseCenter(a), denseCenter(&yyT)))
		g, err = CenteredTargetAlignmentFactor(a, Y)
		add("centeredTargetFactor", g, err, denseAlign(denseCenter(a), denseCenter(&T)))
		for _, c := range cases {
			if c.err != nil {
				t.Fatalf("%s: %v", c.name, c.err)
			}
			if math.Abs(c.got-c.want) > alignTol {
				t.Errorf("%s: got %.15g, want %.15g", c.name, c.got, c.want)
			}
		}
	}
}

func TestAlignmentLowRank(t *testing.T) {
	for _, c := range []struct{ n, d1, d2 int }{{40, 3, 5}, {25, 1, 1}, {30, 30, 2}} {
		a := randLowRank(uint64(c.n), c.n, c.d1)
		b := randLowRank(uint64(c.n+1), c.n, c.d2)
		b.Mu[0] = -0.5 // a negative weight must not break the formulas
		da, db := a.Dense(), b.Dense()
		y := randLabels(5, c.n)
		labels := make([]int, c.n)
		for i := range labels {
			labels[i] = (i * 7) % 4
		}
		Y, _ := OneHot(labels, 4)
		type fn func(k1, k2 mat.Symmetric) (float64, error)
		pairFns := map[string]fn{"frob": FrobeniusInner, "align": Alignment, "centered": CenteredAlignment}
		for name, f := range pairFns {
			got, err1 := f(a, b)
			want, err2 := f(da, db)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			// Relative: the Frobenius inner product is not O(1).
			if math.Abs(got-want) > alignTol*math.Max(1, math.Abs(want)) {
				t.Errorf("n=%d %s: low-rank %v, dense %v", c.n, name, got, want)
			}
		}
		type vfn func(k mat.Symmetric, y []float64) (float64, error)
		for name, f := range map[string]vfn{"target": TargetAlignment, "centeredTarget": CenteredTargetAlignment} {
			got, err1 := f(a, y)
			want, err2 := f(da, y)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if math.Abs(got-want) > alignTol {
				t.Errorf("n=%d %s: low-rank %v, dense %v", c.n, name, got, want)
			}
		}
		type ffn func(k mat.Symmetric, y *mat.Dense) (float64, error)
		for name, f := range map[string]ffn{"factor": TargetAlignmentFactor, "centeredFactor": CenteredTargetAlignmentFactor} {
			got, err1 := f(a, Y)
			want, err2 := f(da, Y)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if math.Abs(got-want) > alignTol {
				t.Errorf("n=%d %s: low-rank %v, dense %v", c.n, name, got, want)
			}
		}
		// Norm, At, Block and Features against the dense matrix.
		if got, want := a.FrobeniusNorm(), math.Sqrt(denseFrob(da, da)); math.Abs(got-want) > 1e-12*want {
			t.Errorf("norm %v vs %v", got, want)
		}
		rows, cols := []int{0, c.n - 1, 3}, []int{2, 2, 1, 0}
		blk, err := a.Block(rows, cols)
		if err != nil {
			t.Fatal(err)
		}
		for r, i := range rows {
			for s, j := range cols {
				// Entries are sums of d products of O(1) terms.
				if math.Abs(blk.At(r, s)-da.At(i, j)) > 1e-12 || math.Abs(a.At(i, j)-da.At(i, j)) > 1e-12 {
					t.Fatalf("block/At mismatch at (%d,%d)", i, j)
				}
			}
		}
		xv := randLabels(9, c.n)
		got := make([]float64, c.n)
		a.MulVecTo(got, xv)
		var want mat.VecDense
		want.MulVec(da, mat.NewVecDense(c.n, xv))
		for i := range got {
			// Sums of n*d O(1) products.
			if math.Abs(got[i]-want.AtVec(i)) > 1e-12 {
				t.Fatalf("MulVecTo row %d: %v vs %v", i, got[i], want.AtVec(i))
			}
		}
		if allocs := testing.AllocsPerRun(5, func() { a.MulVecTo(got, xv) }); allocs != 0 {
			t.Errorf("LowRank.MulVecTo allocates %v times", allocs)
		}
		phi, err := a.Features()
		if err != nil {
			t.Fatal(err)
		}
		var pp mat.Dense
		pp.Mul(phi, phi.T())
		if d := maxAbsDiff(&pp, da); d > 1e-12 {
			t.Errorf("Phi Phi^T differs by %g", d)
		}
		if _, err := b.Features(); !errors.Is(err, ErrSettings) {
			t.Errorf("negative weight: got %v", err)
		}
	}
}

func TestAlignmentBadInput(t *testing.T) {
	k := mat.NewSymDense(3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1})
	zero := mat.NewSymDense(3, nil)
	big := mat.NewSymDense(4, nil)
	nan := mat.NewSymDense(3, []float64{1, 0, 0, 0, math.NaN(), 0, 0, 0, 1})
	ones := mat.NewSymDense(3, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1})
	cases := []struct {
		name string
		err  error
		kind error
	}{
		{"zero", second(Alignment(k, zero)), ErrDegenerate},
		{"shape", second(Alignment(k, big)), ErrShape},
		{"nan", second(Alignment(k, nan)), ErrNonFinite},
		{"nil", second(Alignment(nil, k)), ErrEmpty},
		{"y length", second(TargetAlignment(k, []float64{1, 2})), ErrShape},
		{"y nan", second(TargetAlignment(k, []float64{1, math.NaN(), 1})), ErrNonFinite},
		{"y zero", second(TargetAlignment(k, []float64{0, 0, 0})), ErrDegenerate},
		{"centered const y", second(CenteredTargetAlignment(k, []float64{1, 1, 1})), ErrDegenerate},
		{"centered const K", second(CenteredAlignment(ones, k)), ErrDegenerate},
		{"factor rows", second(TargetAlignmentFactor(k, mat.NewDense(2, 1, nil))), ErrShape},
		{"lowrank shape", second(NewLowRank(mat.NewDense(3, 2, nil), []float64{1})), ErrShape},
		{"lowrank nan", second(NewLowRank(mat.NewDense(3, 1, nil), []float64{math.Inf(1)})), ErrNonFinite},
		{"onehot label", second(OneHot([]int{0, 3}, 3)), ErrSettings},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.kind) {
			t.Errorf("%s: got %v, want %v", c.name, c.err, c.kind)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestNormalizeAndCenter(t *testing.T) {
	ctx := context.Background()
	x := randNormal(3, 40, 3)
	k, _ := Gram(ctx, Polynomial{Degree: 2, Offset: 0.5}, x)
	var c mat.SymDense
	if err := CosineNormalize(&c, k); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		for j := 0; j < 40; j++ {
			want := k.At(i, j) / math.Sqrt(k.At(i, i)*k.At(j, j))
			// Entries are in [-1, 1]; a few roundings.
			if math.Abs(c.At(i, j)-want) > 1e-15 {
				t.Fatalf("cosine (%d,%d): %v vs %v", i, j, c.At(i, j), want)
			}
		}
	}
	var h mat.SymDense
	if err := Center(&h, k); err != nil {
		t.Fatal(err)
	}
	// Entries of K are O(10); 1e-12 is ~1e3 ulps at that scale.
	if d := maxAbsDiff(&h, denseCenter(k)); d > 1e-12 {
		t.Fatalf("center differs by %g", d)
	}
	// In place gives the same.
	kk := mat.NewSymDense(40, nil)
	kk.CopySym(k)
	if err := Center(kk, kk); err != nil || !mat.Equal(kk, &h) {
		t.Fatalf("in-place center differs: %v", err)
	}
	kk.CopySym(k)
	if err := CosineNormalize(kk, kk); err != nil || !mat.Equal(kk, &c) {
		t.Fatalf("in-place normalize differs: %v", err)
	}
	bad := mat.NewSymDense(2, []float64{1, 0, 0, 0})
	if err := CosineNormalize(&mat.SymDense{}, bad); !errors.Is(err, ErrDegenerate) {
		t.Fatalf("zero diagonal: got %v", err)
	}
	if err := Center(mat.NewSymDense(3, nil), k); !errors.Is(err, ErrShape) {
		t.Fatalf("dst size: got %v", err)
	}
}

func TestCrossNormalizeAndCenter(t *testing.T) {
	ctx := context.Background()
	x := randNormal(7, 30, 3)
	z := randNormal(8, 12, 3)
	k := Quadratic()
	// Reference: the Gram matrix of the stacked points [x; z]; its
	// normalised / centred-by-training-mean blocks are what the cross
	// functions must reproduce.
	all := mat.NewDense(42, 3, nil)
	all.Stack(x, z)
	full, _ := Gram(ctx, k, all)
	kx, _ := Gram(ctx, k, x)
	kzx, _ := Cross(ctx, k, z, x)
	var cn mat.Dense
	if err := CosineNormalizeCross(&cn, kzx, Diag(full)[30:], Diag(kx)); err != nil {
		t.Fatal(err)
	}
	var fn mat.SymDense
	_ = CosineNormalize(&fn, full)
	for i := 0; i < 12; i++ {
		for j := 0; j < 30; j++ {
			// Normalised entries are in [-1, 1]: a few ulps.
			if math.Abs(cn.At(i, j)-fn.At(30+i, j)) > 1e-15 {
				t.Fatalf("normalised cross (%d,%d)", i, j)
			}
		}
	}
	// Centring by the training mean in feature space:
	// <phi(z)-m, phi(x_j)-m> with m the mean of phi(x_l).
	var cc mat.Dense
	if err := CenterCross(&cc, kzx, kx); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		for j := 0; j < 30; j++ {
			want := full.At(30+i, j)
			for l := 0; l < 30; l++ {
				want -= (full.At(30+i, l) + full.At(j, l)) / 30
				for l2 := 0; l2 < 30; l2++ {
					want += full.At(l, l2) / 900
				}
			}
			// Entries of K are O(10-100); 1e-11 allows the different
			// summation orders.
			if math.Abs(cc.At(i, j)-want) > 1e-11 {
				t.Fatalf("centred cross (%d,%d): %v vs %v", i, j, cc.At(i, j), want)
			}
		}
	}
	if err := CosineNormalizeCross(&cn, kzx, Diag(kx), Diag(kx)); !errors.Is(err, ErrShape) {
		t.Fatalf("shape: got %v", err)
	}
	if err := CenterCross(&cc, kzx, full); !errors.Is(err, ErrShape) {
		t.Fatalf("shape: got %v", err)
	}
}
