package linalg

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// refKNN is the brute-force reference: sort all other points by
// (distance, index) and keep the first k.
func refKNN(x *mat.Dense, k int) (idx []int, d2 []float64) {
	n, _ := x.Dims()
	type cand struct {
		d float64
		j int
	}
	all := make([]cand, 0, n)
	for i := 0; i < n; i++ {
		all = all[:0]
		for j := 0; j < n; j++ {
			if j != i {
				all = append(all, cand{sqDist(x.RawRowView(i), x.RawRowView(j)), j})
			}
		}
		slices.SortFunc(all, func(a, b cand) int {
			if c := cmp.Compare(a.d, b.d); c != 0 {
				return c
			}
			return cmp.Compare(a.j, b.j)
		})
		for _, c := range all[:k] {
			idx = append(idx, c.j)
			d2 = append(d2, c.d)
		}
	}
	return idx, d2
}

func TestNearestNeighbors(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		x    *mat.Dense
	}{
		{"normal/n=300/p=3", randNormal(1, 300, 3)},
		{"normal/n=257/p=10", randNormal(2, 257, 10)},
		{"normal/n=200/p=30", randNormal(3, 200, 30)},
		{"dups/n=300/p=5", withDuplicates(randNormal(4, 300, 5), 5, 60)},
		{"grid/n=400/p=2", randGrid(6, 400, 2, 5)},               // 25 distinct points: massive ties
		{"grid/n=300/p=4", randGrid(7, 300, 4, 3)},               // 81 distinct points
		{"offset/n=200/p=3", offset(randNormal(8, 200, 3), 1e6)}, // Gram-trick cancellation
		{"n=2/p=1", mat.NewDense(2, 1, []float64{0, 1})},
	}
	for _, c := range cases {
		n, _ := c.x.Dims()
		for _, k := range []int{1, 2, 5, 10, n - 1} {
			if k < 1 || k >= n {
				continue
			}
			wantI, wantD := refKNN(c.x, k)
			for _, m := range []KNNMethod{KNNTree, KNNBrute, KNNAuto} {
				gotI, gotD, err := NearestNeighbors(ctx, c.x, k, m)
				if err != nil {
					t.Fatalf("%s k=%d method=%d: %v", c.name, k, m, err)
				}
				if !slices.Equal(gotI, wantI) || !slices.Equal(gotD, wantD) {
					t.Fatalf("%s k=%d method=%d: neighbours differ from brute-force reference", c.name, k, m)
				}
			}
		}
	}
}

func offset(x *mat.Dense, c float64) *mat.Dense {
	n, p := x.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, x.At(i, j)+c)
		}
	}
	return x
}

// refGraph builds the dense kNN weight matrix from the reference lists.
func refGraph(x *mat.Dense, k int, opt GraphOptions) *mat.Dense {
	n, _ := x.Dims()
	idx, d2 := refKNN(x, k)
	in := make([]map[int]bool, n)
	for i := range in {
		in[i] = map[int]bool{}
		for _, j := range idx[i*k : (i+1)*k] {
			in[i][j] = true
		}
	}
	t := opt.T
	if opt.Weight == Heat && t == 0 {
		for i := 0; i < n; i++ {
			t += d2[i*k+k-1]
		}
		t /= float64(n)
		if t == 0 {
			t = 1
		}
	}
	// Local scales: the distance to the s-th neighbour, s capped at k.
	s := opt.ScaleNeighbor
	if s == 0 {
		s = DefaultScaleNeighbor
	}
	s = min(s, k)
	sigma := make([]float64, n)
	for i := range sigma {
		sigma[i] = math.Sqrt(d2[i*k+s-1])
	}
	w := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			edge := in[i][j] || in[j][i]
			if opt.Mutual {
				edge = in[i][j] && in[j][i]
			}
			if !edge {
				continue
			}
			v := 1.0
			d := naiveDist2(x.RawRowView(i), x.RawRowView(j))
			switch {
			case opt.Weight == Heat:
				v = math.Exp(-d / t)
			case opt.Weight == LocalHeat && d > 0 && sigma[i]*sigma[j] == 0:
				v = 0
			case opt.Weight == LocalHeat && d > 0:
				v = math.Exp(-d / (sigma[i] * sigma[j]))
			}
			w.Set(i, j, v)
		}
	}
	return w
}

func TestKNNGraph(t *testing.T) {
	ctx := context.Background()
	xs := []struct {
		name string
		x    *mat.Dense
	}{
		{"normal", randNormal(11, 150, 4)},
		{"dups", withDuplicates(randNormal(12, 150, 6), 13, 40)},
		{"grid", randGrid(14, 150, 3, 3)},
		{"highdim", randNormal(15, 120, 20)},
	}
	opts := []GraphOptions{
		{},
		{Mutual: true},
		{Weight: Heat},
		{Weight: Heat, T: 0.7, Mutual: true},
		{Weight: Heat, Method: KNNBrute},
		{Method: KNNTree, Mutual: true},
		{Weight: LocalHeat},
		{Weight: LocalHeat, ScaleNeighbor: 2, Mutual: true},
	}
	for _, c := range xs {
		for _, k := range []int{1, 3, 8} {
			for _, o := range opts {
				w, err := KNNGraph(ctx, c.x, k, &o)
				if err != nil {
					t.Fatalf("%s k=%d %+v: %v", c.name, k, o, err)
				}
				if err := w.Validate(); err != nil {
					t.Fatalf("%s k=%d %+v: invalid CSR: %v", c.name, k, o, err)
				}
				if !w.IsSymmetric() {
					t.Fatalf("%s k=%d %+v: not symmetric", c.name, k, o)
				}
				want := refGraph(c.x, k, o)
				// Heat weights: exp of the same distance computed in a
				// different summation order; 1e-14 is ~100 ulps.
				if d := maxAbsDiff(w.ToDense(), want); d > 1e-14 {
					t.Fatalf("%s k=%d %+v: differs from reference by %g", c.name, k, o, d)
				}
				// Pattern must agree too (catches stored zeros vs absent).
				n, _ := c.x.Dims()
				for i := 0; i < n; i++ {
					if w.At(i, i) != 0 {
						t.Fatalf("%s: non-zero diagonal", c.name)
					}
					deg := w.RowPtr[i+1] - w.RowPtr[i]
					if !o.Mutual && deg < k {
						t.Fatalf("%s k=%d: vertex %d has %d < k neighbours", c.name, k, i, deg)
					}
				}
			}
		}
	}
}

func TestKNNGraphBadInput(t *testing.T) {
	ctx := context.Background()
	good := randNormal(1, 10, 2)
	nan := mat.DenseCopyOf(good)
	nan.Set(3, 1, math.NaN())
	inf := mat.DenseCopyOf(good)
	inf.Set(0, 0, math.Inf(-1))
	cases := []struct {
		name string
		x    *mat.Dense
		k    int
		opt  *GraphOptions
		kind error
	}{
		{"k=0", good, 0, nil, ErrSettings},
		{"k<0", good, -2, nil, ErrSettings},
		{"k=n", good, 10, nil, ErrSettings},
		{"nan", nan, 2, nil, ErrNonFinite},
		{"inf", inf, 2, nil, ErrNonFinite},
		{"nil", nil, 2, nil, ErrEmpty},
		{"empty", &mat.Dense{}, 2, nil, ErrEmpty},
		{"T<0", good, 2, &GraphOptions{Weight: Heat, T: -1}, ErrSettings},
		{"T=NaN", good, 2, &GraphOptions{Weight: Heat, T: math.NaN()}, ErrSettings},
		{"weight", good, 2, &GraphOptions{Weight: 7}, ErrSettings},
		{"scale neighbour", good, 2, &GraphOptions{Weight: LocalHeat, ScaleNeighbor: -1}, ErrSettings},
		{"method", good, 2, &GraphOptions{Method: 9}, ErrSettings},
		{"n=1", mat.NewDense(1, 3, nil), 1, nil, ErrSettings},
	}
	for _, c := range cases {
		w, err := KNNGraph(ctx, c.x, c.k, c.opt)
		if err == nil || w != nil {
			t.Errorf("%s: want error, got %v", c.name, err)
			continue
		}
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: error %q is not %v", c.name, err, c.kind)
		}
	}
}

func TestKNNGraphCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := randNormal(3, 2000, 5)
	for _, m := range []KNNMethod{KNNTree, KNNBrute} {
		_, err := KNNGraph(ctx, x, 5, &GraphOptions{Method: m})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("method %d: got %v, want context.Canceled", m, err)
		}
	}
}

func TestLaplacian(t *testing.T) {
	ctx := context.Background()
	// Two well separated clusters plus a far away duplicate pair give a
	// mutual graph with several components.
	a := randNormal(21, 40, 3)
	b := offset(randNormal(22, 30, 3), 100)
	pts := mat.NewDense(72, 3, nil)
	for i := 0; i < 40; i++ {
		pts.SetRow(i, a.RawRowView(i))
	}
	for i := 0; i < 30; i++ {
		pts.SetRow(40+i, b.RawRowView(i))
	}
	pts.SetRow(70, []float64{1e4, 0, 0})
	pts.SetRow(71, []float64{1e4, 0, 0})
	for _, o := range []GraphOptions{{}, {Weight: Heat}, {Mutual: true}, {Weight: Heat, Mutual: true}} {
		w, err := KNNGraph(ctx, pts, 4, &o)
		if err != nil {
			t.Fatal(err)
		}
		comps, label := Components(w)
		// Clusters a and b are 100 apart and never linked. The far pair
		// joins cluster b (its nearest) in the union graph, but only
		// links to itself in the mutual graph.
		bad := comps < 2 || label[70] != label[71] || label[0] == label[40] || label[0] == label[70]
		if o.Mutual {
			bad = bad || comps < 3 || label[40] == label[70]
		}
		if bad {
			t.Fatalf("%+v: components %d, labels %v", o, comps, label)
		}
		deg := Degrees(w)
		for _, kind := range []LaplacianKind{Combinatorial, Normalized} {
			l, err := Laplacian(w, kind)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Validate(); err != nil || !l.IsSymmetric() {
				t.Fatalf("invalid or non-symmetric Laplacian: %v", err)
			}
			n := l.Rows
			ld := l.ToDense()
			wd := w.ToDense()
			// Dense reference formulas.
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					var want float64
					switch {
					case kind == Combinatorial && i == j:
						want = deg[i] - wd.At(i, i)
					case kind == Combinatorial:
						want = -wd.At(i, j)
					case deg[i] == 0 || deg[j] == 0:
						want = 0
					case i == j:
						want = 1 - wd.At(i, i)/deg[i]
					default:
						want = -wd.At(i, j) / math.Sqrt(deg[i]*deg[j])
					}
					// Entries are O(k); 1e-13 allows a few roundings.
					if math.Abs(ld.At(i, j)-want) > 1e-13 {
						t.Fatalf("kind %d: L(%d,%d) = %v, want %v", kind, i, j, ld.At(i, j), want)
					}
				}
			}
			if kind == Combinatorial {
				for i, s := range Degrees(l) {
					// Row sums of D - W vanish up to rounding of deg[i].
					if math.Abs(s) > 1e-13*math.Max(1, deg[i]) {
						t.Fatalf("row %d of D-W sums to %g", i, s)
					}
				}
			}
			// Spectrum: in [0, 2] for the normalized Laplacian, >= 0 for
			// both, and the zero eigenvalue has multiplicity comps.
			var es mat.EigenSym
			if !es.Factorize(mat.NewSymDense(n, ld.RawMatrix().Data), false) {
				t.Fatal("EigenSym failed")
			}
			vals := es.Values(nil)
			scale := 1.0
			if kind == Combinatorial {
				scale = 2 * slices.Max(deg) // Gershgorin bound on ||L||
			}
			// Eigenvalues of a symmetric matrix are accurate to about
			// n*eps*||L||; 1e-12 is generous for n = 72.
			tol := 1e-12 * scale
			zeros := 0
			for _, v := range vals {
				if v < -tol || (kind == Normalized && v > 2+tol) {
					t.Fatalf("kind %d: eigenvalue %v out of range", kind, v)
				}
				if math.Abs(v) <= tol {
					zeros++
				}
			}
			// With heat weights an edge to the far pair can weigh ~1e-300:
			// connected in exact arithmetic, yet its eigenvalue is zero to
			// working precision, so only a lower bound holds there.
			if zeros != comps && (o.Weight == Binary || zeros < comps) {
				t.Fatalf("kind %d %+v: %d zero eigenvalues, %d components", kind, o, zeros, comps)
			}
		}
	}
}

func TestLaplacianIsolatedAndBad(t *testing.T) {
	// Vertex 2 is isolated; vertex 0 has a self-loop.
	w, err := CSRFromTriplets(3, 3, []Triplet{{0, 0, 0.5}, {0, 1, 2}, {1, 0, 2}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := Laplacian(w, Normalized)
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(3, 3, []float64{
		1 - 0.5/2.5, -2 / math.Sqrt(2.5*2), 0,
		-2 / math.Sqrt(2.5*2), 1 - 0, 0,
		0, 0, 0,
	})
	if d := maxAbsDiff(l.ToDense(), want); d > 1e-15 {
		t.Fatalf("normalized Laplacian off by %g:\n%v", d, mat.Formatted(l.ToDense()))
	}
	if c, lab := Components(w); c != 2 || !slices.Equal(lab, []int{0, 0, 1}) {
		t.Fatalf("components %d %v", c, lab)
	}
	bad := []struct {
		name string
		w    *CSR
		kind error
	}{
		{"nil", nil, ErrEmpty},
		{"nonsym", mustTriplets(t, 2, 2, []Triplet{{0, 1, 1}}), ErrSettings},
		{"negative", mustTriplets(t, 2, 2, []Triplet{{0, 1, -1}, {1, 0, -1}}), ErrSettings},
		{"rect", mustTriplets(t, 2, 3, nil), ErrShape},
		{"broken", &CSR{Rows: 2, Cols: 2, RowPtr: []int{0, 1}}, ErrShape},
	}
	for _, b := range bad {
		if _, err := Laplacian(b.w, Combinatorial); !errors.Is(err, b.kind) {
			t.Errorf("%s: got %v, want %v", b.name, err, b.kind)
		}
	}
	if _, err := Laplacian(w, 5); !errors.Is(err, ErrSettings) {
		t.Errorf("bad kind: got %v", err)
	}
}

func mustTriplets(t *testing.T, r, c int, ts []Triplet) *CSR {
	t.Helper()
	a, err := CSRFromTriplets(r, c, ts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestKNNGraphLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large graph skipped in short mode")
	}
	// Tree and brute force must agree exactly on a mid-size problem.
	x := randNormal(99, 3000, 10)
	ti, td, err := NearestNeighbors(context.Background(), x, 10, KNNTree)
	if err != nil {
		t.Fatal(err)
	}
	bi, bd, err := NearestNeighbors(context.Background(), x, 10, KNNBrute)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ti, bi) || !slices.Equal(td, bd) {
		t.Fatal("tree and brute force disagree")
	}
}

// TestGraphFromNeighbors checks that the graph built from given neighbour
// lists is the one KNNGraph builds from its own search, and that bad lists
// are rejected.
func TestGraphFromNeighbors(t *testing.T) {
	ctx := context.Background()
	x := withDuplicates(randNormal(21, 120, 5), 22, 20)
	const k = 6
	idx, d2, err := NearestNeighbors(ctx, x, k, KNNAuto)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []GraphOptions{{}, {Weight: Heat}, {Weight: LocalHeat}, {Weight: LocalHeat, Mutual: true}} {
		want, err := KNNGraph(ctx, x, k, &o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := GraphFromNeighbors(120, k, idx, d2, &o)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(got.ToDense(), want.ToDense()); d != 0 {
			t.Fatalf("%+v: differs from KNNGraph by %g", o, d)
		}
	}
	self := slices.Clone(idx)
	self[3*k] = 3
	outside := slices.Clone(idx)
	outside[5] = 120
	unsorted := slices.Clone(d2)
	unsorted[7*k], unsorted[7*k+1] = unsorted[7*k]+1, unsorted[7*k]
	nan := slices.Clone(d2)
	nan[2] = math.NaN()
	cases := []struct {
		name string
		n, k int
		idx  []int
		d2   []float64
		want error
	}{
		{"self", 120, k, self, d2, ErrSettings},
		{"outside", 120, k, outside, d2, ErrSettings},
		{"unsorted", 120, k, idx, unsorted, ErrSettings},
		{"NaN", 120, k, idx, nan, ErrNonFinite},
		{"short", 120, k, idx[:10], d2, ErrShape},
		{"k>=n", 6, 6, idx[:36], d2[:36], ErrSettings},
	}
	for _, c := range cases {
		if _, err := GraphFromNeighbors(c.n, c.k, c.idx, c.d2, nil); !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
}

// TestNormalizedAffinity checks S = I - L (the normalised Laplacian) entry
// by entry, the degrees, and that D^1/2 1 is an eigenvector of S with
// eigenvalue 1.
func TestNormalizedAffinity(t *testing.T) {
	x := randNormal(31, 90, 3)
	w, err := KNNGraph(context.Background(), x, 5, &GraphOptions{Weight: LocalHeat})
	if err != nil {
		t.Fatal(err)
	}
	s, deg, err := NormalizedAffinity(w)
	if err != nil {
		t.Fatal(err)
	}
	l, err := Laplacian(w, Normalized)
	if err != nil {
		t.Fatal(err)
	}
	n := w.Rows
	var id mat.Dense
	id.Sub(eye(n), l.ToDense())
	if d := maxAbsDiff(s.ToDense(), &id); d > 1e-15 {
		t.Fatalf("S differs from I - L by %g", d)
	}
	v := make([]float64, n)
	for i := range v {
		if math.Abs(deg[i]-floats.Sum(w.ToDense().RawRowView(i))) > 1e-14 {
			t.Fatalf("degree %d = %v", i, deg[i])
		}
		v[i] = math.Sqrt(deg[i])
	}
	var sv mat.VecDense
	sv.MulVec(s, mat.NewVecDense(n, v))
	for i := range v {
		// 1e-14 relative: each entry is a sum of a few positive terms.
		if math.Abs(sv.AtVec(i)-v[i]) > 1e-14*v[i] {
			t.Fatalf("S D^1/2 1 differs from D^1/2 1 at %d: %v vs %v", i, sv.AtVec(i), v[i])
		}
	}
	if _, _, err := NormalizedAffinity(nil); !errors.Is(err, ErrEmpty) {
		t.Fatalf("nil: %v", err)
	}
	bad := &CSR{Rows: 2, Cols: 2, RowPtr: []int{0, 1, 1}, ColIdx: []int{1}, Val: []float64{1}}
	if _, _, err := NormalizedAffinity(bad); !errors.Is(err, ErrSettings) {
		t.Fatalf("asymmetric: %v", err)
	}
}

func eye(n int) *mat.Dense {
	d := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		d.Set(i, i, 1)
	}
	return d
}
