package metric

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Round-off thresholds: the products below involve a few p x p matrices of
// condition at most about 1e3 (the spreads 1..p squared), so 1e-9 leaves
// several orders of magnitude above 2^-52 times that condition.
const roundTol = 1e-9

func TestDCADiagonalises(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		perClass, classes, p int
		sim, dis, dims       int
		pointWeighted        bool
	}{
		{"3 classes p=5", 60, 3, 5, 40, 40, 0, false},
		{"2 classes p=8 reduced", 80, 2, 8, 60, 60, 3, false},
		{"4 classes p=6 point-weighted", 50, 4, 6, 50, 30, 0, true},
		{"few dissimilar pairs, rank-deficient Ĉ_b", 60, 3, 6, 80, 2, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := gaussians(tc.perClass, tc.classes, tc.p, 1)
			c := mustConstraints(t, y, tc.sim, tc.dis, 2)
			s := &Settings{Dims: tc.dims, PointWeighted: tc.pointWeighted}
			m, err := DCA(context.Background(), x, c, s)
			if err != nil {
				t.Fatal(err)
			}
			cb, cw, err := Scatter(x, c, s)
			if err != nil {
				t.Fatal(err)
			}
			_, r := m.Dims()
			if tc.dims > 0 && r != tc.dims {
				t.Fatalf("kept %d directions, want %d", r, tc.dims)
			}
			w := congruence(m.A, cw)
			b := congruence(m.A, cb)
			id := mat.NewDiagDense(r, nil)
			d := mat.NewDiagDense(r, nil)
			for i := 0; i < r; i++ {
				id.SetDiag(i, 1)
				d.SetDiag(i, m.Ratios[i])
			}
			if e := maxAbsDiff(w, id); e > roundTol {
				t.Errorf("||AᵀĈ_wA - I||max = %.3g", e)
			}
			if e := maxAbsDiff(b, d) / m.Ratios[0]; e > roundTol {
				t.Errorf("||AᵀĈ_bA - D||max / max D = %.3g", e)
			}
			for i := 1; i < r; i++ {
				if m.Ratios[i] > m.Ratios[i-1] {
					t.Errorf("ratios not decreasing: %v", m.Ratios)
				}
			}
			if tc.dis == 2 && r > 2 {
				t.Errorf("%d directions from 2 dissimilar pairs, want at most 2", r)
			}
		})
	}
}

func TestRCAIsWhitening(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ridge float64
	}{{"no ridge", 0}, {"ridge", 0.1}} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := gaussians(50, 3, 5, 3)
			c := mustConstraints(t, y, 60, 0, 4)
			m, err := RCA(context.Background(), x, c, &Settings{Ridge: tc.ridge})
			if err != nil {
				t.Fatal(err)
			}
			_, cw, err := Scatter(x, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			p := cw.SymmetricDim()
			add := tc.ridge * mat.Trace(cw) / float64(p)
			for i := 0; i < p; i++ {
				cw.SetSym(i, i, cw.At(i, i)+add)
			}
			// A is symmetric and A Ĉ_w A = I, i.e. A = Ĉ_w^(-1/2).
			if e := maxAbsDiff(m.A, m.A.T()); e != 0 {
				t.Errorf("A not symmetric: %.3g", e)
			}
			var prod mat.Dense
			prod.Product(m.A, cw, m.A)
			var id mat.Dense
			id.CloneFrom(eye(p))
			if e := maxAbsDiff(&prod, &id); e > roundTol {
				t.Errorf("||A Ĉ_w A - I||max = %.3g", e)
			}
			var e mat.EigenSym
			e.Factorize(symOf(m.A), false)
			if v := e.Values(nil); v[0] <= 0 {
				t.Errorf("A not positive definite: %v", v)
			}
		})
	}
}

func eye(n int) *mat.DiagDense {
	d := mat.NewDiagDense(n, nil)
	for i := 0; i < n; i++ {
		d.SetDiag(i, 1)
	}
	return d
}

// gramOf returns Y Yᵀ, invariant under the rotations of Y's columns.
func gramOf(y *mat.Dense) *mat.Dense {
	var g mat.Dense
	g.Mul(y, y.T())
	return &g
}

func TestKernelDCALinearIsDCA(t *testing.T) {
	for _, tc := range []struct {
		name     string
		sim, dis int
		dims     int
	}{{"full", 50, 40, 0}, {"rank-deficient Ĉ_b", 60, 3, 0}, {"reduced", 50, 40, 2}, {"dense dissimilar", 30, 400, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := gaussians(40, 3, 5, 5)
			c := mustConstraints(t, y, tc.sim, tc.dis, 6)
			s := &Settings{Dims: tc.dims}
			ctx := context.Background()
			d, err := DCA(ctx, x, c, s)
			if err != nil {
				t.Fatal(err)
			}
			k, err := KernelDCA(ctx, linalg.Linear{}, x, c, s)
			if err != nil {
				t.Fatal(err)
			}
			yd, _ := d.Transform(x)
			yk, err := k.Transform(ctx, x)
			if err != nil {
				t.Fatal(err)
			}
			gd, gk := gramOf(yd), gramOf(yk)
			if e := maxAbsDiff(gd, gk) / mat.Norm(gd, math.Inf(1)); e > 1e-8 {
				t.Errorf("embeddings differ beyond rotation: relative %.3g", e)
			}
			for i := range d.Ratios {
				if math.Abs(d.Ratios[i]-k.Ratios[i]) > 1e-8*d.Ratios[0] {
					t.Errorf("ratio %d: DCA %v, KDCA %v", i, d.Ratios[i], k.Ratios[i])
				}
			}
			// The matrix path gives the same map.
			gram, err := linalg.Gram(ctx, linalg.Linear{}, x)
			if err != nil {
				t.Fatal(err)
			}
			km, err := KernelDCAMatrix(ctx, gram, c, s)
			if err != nil {
				t.Fatal(err)
			}
			ym, err := km.TransformKernel(gram)
			if err != nil {
				t.Fatal(err)
			}
			if e := maxAbsDiff(ym, yk) / mat.Norm(yk, math.Inf(1)); e > 1e-10 {
				t.Errorf("KernelDCAMatrix differs from KernelDCA: %.3g", e)
			}
			if tc.name == "dense dissimilar" && len(km.f.pairs) < len(km.Support) {
				t.Errorf("%d pairs of chunklets, %d support points: the direct path is not tested", len(km.f.pairs), len(km.Support))
			}
			// The factored map equals K(x, support) Coef.
			n, _ := x.Dims()
			ks := mat.NewDense(n, len(km.Support), nil)
			for i := 0; i < n; i++ {
				for j, s := range km.Support {
					ks.Set(i, j, gram.At(i, s))
				}
			}
			var direct mat.Dense
			direct.Mul(ks, km.Coef)
			if e := maxAbsDiff(&direct, ym) / mat.Norm(ym, math.Inf(1)); e > 1e-10 {
				t.Errorf("factored map differs from K Coef: %.3g", e)
			}
		})
	}
}

// A LowRank kernel V diag(mu) Vᵀ is DCA on the features V diag(sqrt(mu)).
func TestKernelDCALowRank(t *testing.T) {
	x, y := gaussians(40, 3, 4, 8)
	c := mustConstraints(t, y, 50, 40, 9)
	ctx := context.Background()
	lr, err := linalg.NewLowRank(x, []float64{1, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	km, err := KernelDCAMatrix(ctx, lr, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	yk, err := km.TransformKernel(lr)
	if err != nil {
		t.Fatal(err)
	}
	d, err := DCA(ctx, x, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	yd, _ := d.Transform(x)
	gd := gramOf(yd)
	if e := maxAbsDiff(gd, gramOf(yk)) / mat.Norm(gd, math.Inf(1)); e > 1e-8 {
		t.Errorf("LowRank KDCA differs from DCA on its features: %.3g", e)
	}
}

func TestMahalanobis(t *testing.T) {
	x, y := gaussians(30, 2, 4, 10)
	c := mustConstraints(t, y, 30, 30, 11)
	m, err := DCA(context.Background(), x, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	mm := m.Mahalanobis()
	a, b := x.RawRowView(0), x.RawRowView(1)
	d, err := m.Distance(a, b)
	if err != nil {
		t.Fatal(err)
	}
	diff := mat.NewVecDense(len(a), nil)
	for i := range a {
		diff.SetVec(i, a[i]-b[i])
	}
	q := mat.Inner(diff, mm, diff)
	if math.Abs(d*d-q) > 1e-10*q {
		t.Errorf("Distance² %v, (a-b)ᵀM(a-b) %v", d*d, q)
	}
}

// Without reduction and with Ĉ_b of full rank, A is square and Aᵀ Ĉ_w A = I,
// so M = A Aᵀ = Ĉ_w^(-1): DCA's metric is RCA's. The dissimilar pairs
// matter only through a rank-deficient Ĉ_b or a reduction to r < p.
func TestDCAFullRankIsRCA(t *testing.T) {
	x, y := gaussians(50, 4, 3, 13)
	c := mustConstraints(t, y, 60, 60, 14)
	ctx := context.Background()
	d, err := DCA(ctx, x, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, r := d.Dims(); r != 3 {
		t.Fatalf("Ĉ_b of rank %d, want 3", r)
	}
	r, err := RCA(ctx, x, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	md, mr := d.Mahalanobis(), r.Mahalanobis()
	if e := maxAbsDiff(md, mr) / mat.Norm(mr, math.Inf(1)); e > roundTol {
		t.Errorf("DCA's M differs from RCA's: relative %.3g", e)
	}
}

// The Cholesky path of Kernel DCA's first step (a well-conditioned Gram
// matrix of the chunklet-mean differences) gives the metric of the
// eigendecomposition path.
func TestKernelDCACholeskyPath(t *testing.T) {
	x, y := gaussians(40, 3, 4, 15)
	c := mustConstraints(t, y, 40, 30, 16)
	ctx := context.Background()
	kern := linalg.RBF{Gamma: 0.05}
	a, err := KernelDCA(ctx, kern, x, c, &Settings{Ridge: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	b, err := KernelDCA(ctx, kern, x, c, &Settings{Ridge: 1e-6, noCholesky: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ra := a.Dims(); ra != len(a.f.pairs) {
		t.Fatalf("%d directions from %d pairs of chunklets: Gb is not full rank, the Cholesky path is not tested", ra, len(a.f.pairs))
	}
	ya, _ := a.Transform(ctx, x)
	yb, _ := b.Transform(ctx, x)
	ga := gramOf(ya)
	if e := maxAbsDiff(ga, gramOf(yb)) / mat.Norm(ga, math.Inf(1)); e > 1e-8 {
		t.Errorf("Cholesky and eigendecomposition paths differ: relative %.3g", e)
	}
}
