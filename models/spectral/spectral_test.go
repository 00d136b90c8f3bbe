package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// rbfBasis returns the top-d eigenpairs (descending) of an RBF kernel on n
// points from two noisy clusters, and the cluster labels.
func rbfBasis(t testing.TB, n, d int, seed uint64) (*Basis, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, 3, nil)
	y := make([]int, n)
	for i := range n {
		y[i] = i % 2
		for j := range 3 {
			x.Set(i, j, rng.NormFloat64()+2*float64(y[i]))
		}
	}
	k := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			var s float64
			for c := range 3 {
				dd := x.At(i, c) - x.At(j, c)
				s += dd * dd
			}
			k.SetSym(i, j, math.Exp(-s/6))
		}
	}
	return topBasis(t, k, d, false), y
}

// topBasis takes d eigenpairs from a dense decomposition: the largest
// (descending) or, with smallest, the smallest (ascending).
func topBasis(t testing.TB, a *mat.SymDense, d int, smallest bool) *Basis {
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		t.Fatal("EigenSym failed")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	n := len(vals)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool {
		if smallest {
			return vals[idx[i]] < vals[idx[j]]
		}
		return vals[idx[i]] > vals[idx[j]]
	})
	b := &Basis{Values: make([]float64, d), V: mat.NewDense(n, d, nil)}
	for c := range d {
		b.Values[c] = vals[idx[c]]
		for r := range n {
			b.V.Set(r, c, vecs.At(r, idx[c]))
		}
	}
	return b
}

// alignment is the reference kernel-target alignment of the labeled block,
// formed densely: <K, T>_F / (||K||_F ||T||_F).
func alignment(b *Basis, mu []float64, labeled []int, y *mat.Dense) float64 {
	l := len(labeled)
	var vl mat.Dense
	vl.CloneFrom(b.V)
	k := mat.NewDense(l, l, nil)
	for i, a := range labeled {
		for j, c := range labeled {
			var s float64
			for m, w := range mu {
				s += w * vl.At(a, m) * vl.At(c, m)
			}
			k.Set(i, j, s)
		}
	}
	var tt mat.Dense
	tt.Mul(y, y.T())
	var kt, kk, ttt float64
	for i := range l {
		for j := range l {
			kt += k.At(i, j) * tt.At(i, j)
			kk += k.At(i, j) * k.At(i, j)
			ttt += tt.At(i, j) * tt.At(i, j)
		}
	}
	return kt / math.Sqrt(kk*ttt)
}

func sample(n, l int, y []int, seed uint64) ([]int, []int) {
	rng := rand.New(rand.NewPCG(seed, 2))
	for {
		idx := rng.Perm(n)[:l]
		lab := make([]int, l)
		seen := map[int]bool{}
		for i, j := range idx {
			lab[i] = y[j]
			seen[y[j]] = true
		}
		if len(seen) == 2 {
			return idx, lab
		}
	}
}

func TestTarget(t *testing.T) {
	for _, tc := range []struct {
		y       []int
		classes int
	}{
		{[]int{0, 1, 1, 0}, 2},
		{[]int{0, 1, 2, 2, 1}, 3},
		{[]int{3, 0, 1, 2, 0}, 4},
	} {
		f, err := Target(tc.y, tc.classes)
		if err != nil {
			t.Fatal(err)
		}
		var tt mat.Dense
		tt.Mul(f, f.T())
		for i, a := range tc.y {
			for j, b := range tc.y {
				want := -1 / float64(tc.classes-1)
				if a == b {
					want = 1
				}
				if math.Abs(tt.At(i, j)-want) > 1e-14 {
					t.Fatalf("c=%d: T(%d,%d) = %v, want %v", tc.classes, i, j, tt.At(i, j), want)
				}
			}
		}
	}
	for _, tc := range []struct {
		y       []int
		classes int
	}{{nil, 2}, {[]int{0, 0}, 2}, {[]int{0, 2}, 2}, {[]int{0, 1}, 1}, {[]int{0, -1}, 2}} {
		if _, err := Target(tc.y, tc.classes); !errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("Target(%v, %d): err = %v", tc.y, tc.classes, err)
		}
	}
}

func TestSKLBeatsBaselines(t *testing.T) {
	ctx := context.Background()
	b, y := rbfBasis(t, 120, 20, 1)
	for seed := uint64(0); seed < 5; seed++ {
		labeled, lab := sample(120, 20, y, seed)
		tgt, _ := Target(lab, 2)
		// Decay 1: Cluster and Truncated are feasible, so SKL's optimum must
		// align at least as well (tolerance: QP KKT precision).
		mu, err := NewSKL(1).Coefficients(ctx, nil, b, labeled, tgt)
		if err != nil {
			t.Fatal(err)
		}
		skl := alignment(b, mu, labeled, tgt)
		for _, base := range []Design{Cluster{}, Truncated{}} {
			m, _ := base.Coefficients(ctx, nil, b, labeled, tgt)
			if a := alignment(b, m, labeled, tgt); a > skl+1e-9 {
				t.Errorf("seed %d: %s alignment %v > SKL %v", seed, base.Name(), a, skl)
			}
		}
		// Growing the decay factor shrinks the feasible cone, so the optimal alignment
		// cannot increase; each optimum beats random feasible points.
		prev := skl
		s := NewSKL(1)
		rng := rand.New(rand.NewPCG(seed, 9))
		for _, c := range []float64{1, 1.2, 1.5, 2, 3} {
			s.Decay = c
			mu, err := s.Coefficients(ctx, nil, b, labeled, tgt)
			if err != nil {
				t.Fatalf("decay=%v: %v", c, err)
			}
			if mu[0] <= 0 {
				t.Fatalf("decay=%v: mu_1 = %v", c, mu[0])
			}
			for i := 0; i+1 < len(mu); i++ {
				if mu[i] < c*mu[i+1]*(1-1e-9)-1e-12 {
					t.Fatalf("decay=%v: decay violated at %d: %v < decay*%v", c, i, mu[i], mu[i+1])
				}
			}
			a := alignment(b, mu, labeled, tgt)
			if a > prev+1e-9 {
				t.Errorf("decay=%v: alignment %v above that at a smaller decay %v", c, a, prev)
			}
			prev = a
			for trial := 0; trial < 50; trial++ {
				r := make([]float64, len(mu))
				r[len(r)-1] = rng.Float64()
				for i := len(r) - 2; i >= 0; i-- {
					r[i] = c*r[i+1] + rng.Float64()*rng.Float64()
				}
				if ar := alignment(b, r, labeled, tgt); ar > a+1e-9 {
					t.Fatalf("decay=%v: random feasible mu aligns better: %v > %v", c, ar, a)
				}
			}
		}
	}
}

func TestNormalisation(t *testing.T) {
	ctx := context.Background()
	b, y := rbfBasis(t, 60, 8, 2)
	labeled, lab := sample(60, 10, y, 1)
	tgt, _ := Target(lab, 2)
	for _, d := range []Design{Cluster{}, Truncated{}, Diffusion{Sigma2: 2}, GaussianField{Eps: 0.1}, NewSKL(2), Order{}, Order{Improved: true}, Spreading{}, Spreading{Alpha: 0.5}} {
		mu, err := d.Coefficients(ctx, nil, b, labeled, tgt)
		if err != nil {
			t.Fatalf("%s: %v", d.Name(), err)
		}
		var s float64
		for _, v := range mu {
			if v < 0 {
				t.Fatalf("%s: negative coefficient %v", d.Name(), v)
			}
			s += v
		}
		if math.Abs(s-60) > 1e-9 {
			t.Errorf("%s: coefficients sum to %v, want n = 60", d.Name(), s)
		}
	}
	// Parametric transforms follow their formulas up to the common scale.
	mu, _ := Diffusion{Sigma2: 3}.Coefficients(ctx, nil, b, nil, nil)
	for i := 1; i < len(mu); i++ {
		want := math.Exp(-3 * (b.Values[i] - b.Values[0]) / 2)
		if b.Values[0] > b.Values[i] {
			// Descending values: compare ratios to the smallest eigenvalue's term.
			want = math.Exp(-3*b.Values[i]/2) / math.Exp(-3*b.Values[0]/2)
		}
		if got := mu[i] / mu[0]; math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Errorf("diffusion ratio %d: %v, want %v", i, got, want)
		}
	}
	mu, _ = GaussianField{Eps: 0.5}.Coefficients(ctx, nil, b, nil, nil)
	for i := 1; i < len(mu); i++ {
		want := (b.Values[0] + 0.5) / (b.Values[i] + 0.5)
		if got := mu[i] / mu[0]; math.Abs(got-want) > 1e-12*want {
			t.Errorf("Gaussian field ratio %d: %v, want %v", i, got, want)
		}
	}
}

// laplacianBasis builds the combinatorial Laplacian of a graph made of three
// separate rings of the given sizes and returns its d smallest eigenpairs.
func laplacianBasis(t testing.TB, sizes []int, d int) (*Basis, []int) {
	n := 0
	for _, s := range sizes {
		n += s
	}
	l := mat.NewSymDense(n, nil)
	y := make([]int, n)
	off := 0
	for c, s := range sizes {
		for i := range s {
			a, b := off+i, off+(i+1)%s
			l.SetSym(a, b, -1)
			y[a] = c % 2
		}
		off += s
	}
	for i := range n {
		var deg float64
		for j := range n {
			if j != i {
				deg -= l.At(i, j)
			}
		}
		l.SetSym(i, i, deg)
	}
	return topBasis(t, l, d, true), y
}

func TestOrder(t *testing.T) {
	ctx := context.Background()
	b, y := laplacianBasis(t, []int{30, 25, 20}, 12)
	zeros := 0
	for _, v := range b.Values {
		if math.Abs(v) < 1e-10 {
			zeros++
		}
	}
	if zeros != 3 {
		t.Fatalf("three rings should give three zero eigenvalues, got %d (%v)", zeros, b.Values[:4])
	}
	labeled, lab := sample(75, 12, y, 3)
	tgt, _ := Target(lab, 2)
	ord, err := Order{}.Coefficients(ctx, nil, b, labeled, tgt)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := Order{Improved: true}.Coefficients(ctx, nil, b, labeled, tgt)
	if err != nil {
		t.Fatal(err)
	}
	skl1, _ := NewSKL(1).Coefficients(ctx, nil, b, labeled, tgt)
	for i := range ord {
		if math.Abs(ord[i]-skl1[i]) > 1e-6*75 {
			t.Fatalf("Order differs from SKL with decay 1 at %d: %v vs %v", i, ord[i], skl1[i])
		}
		if i > 0 && ord[i] > ord[i-1]*(1+1e-9)+1e-12 {
			t.Fatalf("Order not non-increasing at %d: %v", i, ord)
		}
	}
	// Imp-Order relaxes Order's constraints, so it aligns at least as well,
	// and keeps the order among the non-constant eigenvectors.
	if ai, ao := alignment(b, imp, labeled, tgt), alignment(b, ord, labeled, tgt); ai < ao-1e-9 {
		t.Errorf("Imp-Order alignment %v < Order %v", ai, ao)
	}
	for i := 4; i < len(imp); i++ {
		if imp[i] > imp[i-1]*(1+1e-9)+1e-12 {
			t.Fatalf("Imp-Order chain violated at %d: %v", i, imp)
		}
	}
}

func TestMultiClassSKL(t *testing.T) {
	ctx := context.Background()
	b, _ := rbfBasis(t, 90, 10, 5)
	rng := rand.New(rand.NewPCG(4, 4))
	labeled := rng.Perm(90)[:15]
	lab := make([]int, 15)
	for i := range lab {
		lab[i] = i % 3
	}
	tgt, _ := Target(lab, 3)
	mu, err := NewSKL(1.5).Coefficients(ctx, nil, b, labeled, tgt)
	if err != nil {
		t.Fatal(err)
	}
	a := alignment(b, mu, labeled, tgt)
	cl, _ := Cluster{}.Coefficients(ctx, nil, b, labeled, tgt)
	if alignment(b, cl, labeled, tgt) > a+1e-9 && isFeasible(cl, 1.5) {
		t.Errorf("multi-class SKL alignment %v below feasible Cluster", a)
	}
	if !(a > -1 && a <= 1) {
		t.Errorf("alignment %v outside [-1, 1]", a)
	}
}

func isFeasible(mu []float64, c float64) bool {
	for i := 0; i+1 < len(mu); i++ {
		if mu[i] < c*mu[i+1] {
			return false
		}
	}
	return true
}

// TestBadInput walks the bad-input cases of the designs and of Target and
// Rows: each is an error wrapping linalg.ErrInvalid and the kind named.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	b, y := rbfBasis(t, 30, 5, 1)
	labeled, lab := sample(30, 6, y, 1)
	tgt, _ := Target(lab, 2)
	nan := &Basis{Values: []float64{1, math.NaN()}, V: mat.NewDense(3, 2, nil)}
	short := &Basis{Values: []float64{1}, V: mat.NewDense(3, 2, nil)}
	zero := &Basis{Values: []float64{-1, -2}, V: mat.NewDense(3, 2, nil)}
	for _, tc := range []struct {
		name    string
		d       Design
		b       *Basis
		labeled []int
		tgt     *mat.Dense
		kind    error
	}{
		{"nil basis", Cluster{}, nil, labeled, tgt, linalg.ErrEmpty},
		{"NaN eigenvalue", Truncated{}, nan, labeled, tgt, linalg.ErrNonFinite},
		{"values/vectors mismatch", Cluster{}, short, labeled, tgt, linalg.ErrShape},
		{"no positive eigenvalue", Truncated{}, zero, nil, nil, linalg.ErrDegenerate},
		{"decay < 1", NewSKL(0.5), b, labeled, tgt, linalg.ErrSettings},
		{"decay NaN", NewSKL(math.NaN()), b, labeled, tgt, linalg.ErrSettings},
		{"nil target", NewSKL(2), b, labeled, nil, linalg.ErrEmpty},
		{"target rows", NewSKL(2), b, labeled[:3], tgt, linalg.ErrShape},
		{"index out of range", NewSKL(2), b, append(labeled[:5:5], 30), tgt, linalg.ErrLabels},
		{"repeated index", NewSKL(2), b, append(labeled[:5:5], labeled[0]), tgt, linalg.ErrLabels},
		{"NaN target", NewSKL(2), b, labeled, mat.NewDense(6, 1, []float64{1, -1, math.NaN(), 1, -1, 1}), linalg.ErrNonFinite},
		{"diffusion sigma", Diffusion{}, b, nil, nil, linalg.ErrSettings},
		{"field eps", GaussianField{Eps: -1}, b, nil, nil, linalg.ErrSettings},
		{"spreading alpha", Spreading{Alpha: 1}, b, nil, nil, linalg.ErrSettings},
		{"order target", Order{}, b, labeled, nil, linalg.ErrEmpty},
		{"order zero tol", Order{Improved: true, ZeroTol: -1}, b, labeled, tgt, linalg.ErrSettings},
		{"order index", Order{}, b, append(labeled[:5:5], -1), tgt, linalg.ErrLabels},
	} {
		_, err := tc.d.Coefficients(ctx, nil, tc.b, tc.labeled, tc.tgt)
		if !errors.Is(err, linalg.ErrInvalid) || !errors.Is(err, tc.kind) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.kind)
		}
	}
	var nilSKL *SKL
	if _, err := nilSKL.Coefficients(ctx, nil, b, labeled, tgt); !errors.Is(err, linalg.ErrSettings) {
		t.Errorf("nil SKL: err = %v", err)
	}
	for _, tc := range []struct {
		name string
		err  error
		kind error
	}{
		{"Target one class", errOf(Target([]int{0, 0}, 1)), linalg.ErrLabels},
		{"Target no labels", errOf(Target(nil, 2)), linalg.ErrEmpty},
		{"Target label range", errOf(Target([]int{0, 2}, 2)), linalg.ErrLabels},
		{"Target empty class", errOf(Target([]int{0, 0}, 2)), linalg.ErrLabels},
		{"Rows empty basis", errOf((&Basis{}).Rows(nil, []int{0})), linalg.ErrEmpty},
		{"Rows no index", errOf(b.Rows(nil, nil)), linalg.ErrEmpty},
		{"Rows range", errOf(b.Rows(nil, []int{30})), linalg.ErrLabels},
		{"Rows dst is V", errOf(b.Rows(b.V, []int{0})), linalg.ErrSettings},
	} {
		if !errors.Is(tc.err, linalg.ErrInvalid) || !errors.Is(tc.err, tc.kind) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.kind)
		}
	}
}

func errOf[T any](_ T, err error) error { return err }

// TestOrthogonalTarget: a target orthogonal to every eigenvector leaves the
// SKL and Order QPs without a feasible point; the designs report the QP's
// outcome as an error wrapping linalg.ErrInfeasible (not an input error), and
// SKL.Result holds the Infeasible status.
func TestOrthogonalTarget(t *testing.T) {
	ctx := context.Background()
	ortho := &Basis{Values: []float64{2, 1}, V: mat.NewDense(4, 2, []float64{0.5, 0.5, 0.5, -0.5, 0.5, 0.5, 0.5, -0.5})}
	y2, _ := Target([]int{0, 1}, 2)
	s := NewSKL(2)
	for _, d := range []Design{s, Order{}, Order{Improved: true, ZeroTol: 0.6}} {
		_, err := d.Coefficients(ctx, nil, ortho, []int{0, 2}, y2)
		if !errors.Is(err, linalg.ErrInfeasible) || errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("%s: err = %v, want linalg.ErrInfeasible", d.Name(), err)
		}
	}
	if st := s.Result().Status; st != linalg.Infeasible {
		t.Errorf("SKL.Result().Status = %v, want Infeasible", st)
	}
}

func ExampleSKL() {
	// Four points, two eigenvectors; labels agree with the first one.
	b := &Basis{
		Values: []float64{3, 1},
		V:      mat.NewDense(4, 2, []float64{0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5, -0.5}),
	}
	target, _ := Target([]int{1, 0}, 2) // points 0 and 2
	mu, err := NewSKL(2).Coefficients(context.Background(), nil, b, []int{0, 2}, target)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f %.3f\n", mu[0], mu[1])
	// Output: 4.000 0.000
}

// TestSKLRowsReuse: the SKL design's labeled block follows growing and
// shrinking labeled sets exactly, its duplicate-check scratch is clean
// after a rejected call, and copying the rows does not allocate.
func TestSKLRowsReuse(t *testing.T) {
	ctx := context.Background()
	b, y := rbfBasis(t, 80, 6, 3)
	s := NewSKL(1.5)
	for _, labeled := range [][]int{{0, 1, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7}, {9, 8, 7}, {9, 8, 7, 7}, {5, 80}, {1, 2, 3, 4, 5, 6, 7, 8, 10}} {
		lab := make([]int, len(labeled))
		for i, j := range labeled {
			if j < 80 {
				lab[i] = y[j]
			}
		}
		lab[0], lab[len(lab)-1] = 0, 1 // both classes present
		tgt, _ := Target(lab, 2)
		_, err := s.Coefficients(ctx, nil, b, labeled, tgt)
		bad := labeled[len(labeled)-1] == 80 || (len(labeled) == 4 && labeled[3] == 7)
		if bad != (err != nil) {
			t.Fatalf("labeled %v: err = %v", labeled, err)
		}
		if bad {
			continue
		}
		if r, c := s.vl.Dims(); r != len(labeled) || c != 6 {
			t.Fatalf("labeled %v: block is %dx%d", labeled, r, c)
		}
		for i, j := range labeled {
			for c := 0; c < 6; c++ {
				if s.vl.At(i, c) != b.V.At(j, c) {
					t.Fatalf("labeled %v: row %d differs from V row %d", labeled, i, j)
				}
			}
		}
	}
	for j, v := range s.seen {
		if v {
			t.Fatalf("scratch left set at %d", j)
		}
	}
	idx := []int{3, 1, 4, 1 + 4, 9}
	if got := testing.AllocsPerRun(20, func() { b.rows("", &s.vl, idx, s.seen) }); got != 0 {
		t.Errorf("rows allocates %v times per call", got)
	}
}
