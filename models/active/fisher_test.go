package active

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// reference is eq. 4.15 built independently of the package, from the
// definitions: the pool Fisher matrix of every model summed entry by entry,
// its eigenpairs, the top rank across the models, and the objective and
// gradient of q.
type reference struct {
	n   int
	g   [][]float64 // n x s, π_i(1 − π_i)(x_iᵀv_k)²
	lam []float64
}

func newReference(t *testing.T, probs, x *mat.Dense, rank int) *reference {
	t.Helper()
	n, d := x.Dims()
	_, c := probs.Dims()
	models := []int{c - 1}
	if c >= 3 {
		models = nil
		for m := range c {
			models = append(models, m)
		}
	}
	type pair struct {
		val float64
		vec []float64
		m   int
	}
	var pairs []pair
	for _, m := range models {
		ip := mat.NewSymDense(d, nil)
		for i := range n {
			p := probs.At(i, m)
			for a := range d {
				for b := a; b < d; b++ {
					ip.SetSym(a, b, ip.At(a, b)+p*(1-p)*x.At(i, a)*x.At(i, b)/float64(n))
				}
			}
		}
		var es mat.EigenSym
		if !es.Factorize(ip, true) {
			t.Fatal("reference eigendecomposition failed")
		}
		var v mat.Dense
		es.VectorsTo(&v)
		for j, val := range es.Values(nil) {
			pairs = append(pairs, pair{val, mat.Col(nil, j, &v), m})
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].val > pairs[b].val })
	r := &reference{n: n, g: make([][]float64, n)}
	for _, p := range pairs {
		if len(r.lam) == rank || p.val <= 1e-10*pairs[0].val {
			break
		}
		r.lam = append(r.lam, p.val)
		for i := range n {
			pi := probs.At(i, p.m)
			dot := mat.Dot(x.RowView(i), mat.NewVecDense(d, p.vec))
			r.g[i] = append(r.g[i], pi*(1-pi)*dot*dot)
		}
	}
	return r
}

func (r *reference) sums(q []float64) []float64 {
	s := make([]float64, len(r.lam))
	for i, qi := range q {
		for k, v := range r.g[i] {
			s[k] += qi * v
		}
	}
	return s
}

func (r *reference) objective(q []float64) float64 {
	var l float64
	for k, s := range r.sums(q) {
		l += r.lam[k] / s
	}
	return l
}

// gains returns a_i = −∂L/∂q_i.
func (r *reference) gains(q []float64) []float64 {
	s := r.sums(q)
	a := make([]float64, r.n)
	for i := range a {
		for k, v := range r.g[i] {
			a[i] += v * r.lam[k] / (s[k] * s[k])
		}
	}
	return a
}

// solve minimises the objective over the simplex by projected gradient
// descent with backtracking, an independent method, to a duality gap of
// 1e-10 relative.
func (r *reference) solve() float64 {
	q := make([]float64, r.n)
	for i := range q {
		q[i] = 1 / float64(r.n)
	}
	l := r.objective(q)
	step := 1.0
	for it := 0; it < 200000; it++ {
		a := r.gains(q)
		if slices.Max(a)-l <= 1e-10*l {
			break
		}
		for {
			trial := make([]float64, r.n)
			for i := range q {
				trial[i] = q[i] + step*a[i]
			}
			projectSimplex(trial)
			if lt := r.objective(trial); lt < l {
				q, l = trial, lt
				step *= 2
				break
			}
			step /= 2
			if step < 1e-300 {
				return l
			}
		}
	}
	return l
}

// projectSimplex replaces v by its Euclidean projection on the simplex.
func projectSimplex(v []float64) {
	u := slices.Clone(v)
	sort.Sort(sort.Reverse(sort.Float64Slice(u)))
	var cum, theta float64
	for j, x := range u {
		cum += x
		if t := (cum - 1) / float64(j+1); x-t > 0 {
			theta = t
		}
	}
	for i := range v {
		v[i] = math.Max(v[i]-theta, 0)
	}
}

// fisherCases are pools of eq. 4.15 for the optimisation tests: binary and
// three-class, with all eigenpairs or a truncated rank, small enough for
// the working set to be the whole pool and large enough for it not to be.
var fisherCases = []struct {
	name    string
	n, d, c int
	rank    int
	seed    uint64
}{
	{"binary/n=8/d=3", 8, 3, 2, 0, 1},
	{"binary/n=20/d=5/rank=2", 20, 5, 2, 2, 2},
	{"three classes/n=15/d=3", 15, 3, 3, 0, 3},
	{"three classes/n=40/d=4/rank=5", 40, 4, 3, 5, 4},
	{"binary/n=300/d=6 (working set)", 300, 6, 2, 0, 5},
	{"four classes/n=400/d=5 (working set)", 400, 5, 4, 0, 6},
}

// TestFisherOptimum: the optimisation reaches the optimum of the
// independent projected-gradient solver (the problem is convex, so the
// optimal value is unique), and its result is self-consistent.
func TestFisherOptimum(t *testing.T) {
	for _, tc := range fisherCases {
		t.Run(tc.name, func(t *testing.T) {
			x, probs := benchPool(tc.n, tc.d, tc.c, tc.seed)
			rank := tc.rank
			if rank == 0 {
				rank = DefaultFisherRank
			}
			ref := newReference(t, probs, x, rank)
			f := Fisher{Rank: tc.rank, Tol: 1e-9, MaxIter: 1 << 20}
			res, err := f.Solve(probs, x)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != linalg.Converged || res.Rank != len(ref.lam) {
				t.Fatalf("status %v rank %d, want Converged and rank %d", res.Status, res.Rank, len(ref.lam))
			}
			var sum float64
			for _, q := range res.Q {
				if q < 0 {
					t.Fatalf("negative q %v", q)
				}
				sum += q
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("q sums to %v", sum)
			}
			// The reported objective is that of Q, evaluated independently.
			if got := ref.objective(res.Q); math.Abs(got-res.Objective) > 1e-9*got {
				t.Errorf("reported objective %v, independent evaluation %v", res.Objective, got)
			}
			best := ref.solve()
			// Tol 1e-9 bounds our suboptimality; the reference stops at a
			// gap of 1e-10. Allow a little rounding on top.
			if math.Abs(res.Objective-best) > 2e-8*best {
				t.Errorf("objective %.12g, independent optimum %.12g", res.Objective, best)
			}
			if max := slices.Max(res.Gain); max-res.Objective > 1e-9*res.Objective+1e-15 || math.Abs(res.Gap-(max-res.Objective)) > 1e-12*res.Objective {
				t.Errorf("gap %v, max gain %v, objective %v", res.Gap, max, res.Objective)
			}
		})
	}
}

// TestFisherMonotone: the objective never increases, under the plain
// updates of eq. 4.17 and under the line-search steps the solver adds.
func TestFisherMonotone(t *testing.T) {
	for _, tc := range fisherCases {
		for _, plain := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/plain=%v", tc.name, plain), func(t *testing.T) {
				x, probs := benchPool(tc.n, tc.d, tc.c, tc.seed)
				var trace []float64
				f := Fisher{Rank: tc.rank, Tol: 1e-8, MaxIter: 3000, Progress: func(_ int, obj float64) { trace = append(trace, obj) }}
				pb, err := f.problem("test", probs, x, 1, false)
				if err != nil {
					t.Fatal(err)
				}
				pb.plain = plain
				res := pb.optimise()
				if len(trace) < 2 {
					t.Fatalf("only %d iterates (status %v)", len(trace), res.Status)
				}
				for i := 1; i < len(trace); i++ {
					// Relative rounding of one evaluation of L.
					if trace[i] > trace[i-1]*(1+1e-13) {
						t.Fatalf("objective rose at iterate %d: %.15g -> %.15g", i, trace[i-1], trace[i])
					}
				}
				if trace[len(trace)-1] != res.Objective {
					t.Errorf("last reported %v, result %v", trace[len(trace)-1], res.Objective)
				}
			})
		}
	}
}

// TestFisherDuplicates: a pool holding several exact copies of its most
// informative points never gives a batch with two copies of one point
// while distinct candidates remain; with fewer distinct candidates than k,
// the copies fill the batch.
func TestFisherDuplicates(t *testing.T) {
	for _, tc := range []struct {
		name          string
		n, c, copies  int
		k             int
		wantDistinct  int
		maxDuplicates int
	}{
		{"binary/3 copies of 5", 60, 2, 3, 10, 10, 0},
		{"binary/10 copies of 5", 60, 2, 10, 10, 10, 0},
		{"three classes/4 copies of 5", 60, 3, 4, 10, 10, 0},
		{"only 4 distinct", 4, 2, 5, 10, 4, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, probs := benchPool(tc.n, 4, tc.c, 11)
			// Copy the 5 candidates of largest gain (the most informative).
			res, err := Fisher{}.Solve(probs, x)
			if err != nil {
				t.Fatal(err)
			}
			order := topOrder(tc.n, min(5, tc.n), func(i, j int) bool { return res.Gain[i] > res.Gain[j] })
			var rowsX, rowsP [][]float64
			for i := range tc.n {
				rowsX, rowsP = append(rowsX, x.RawRowView(i)), append(rowsP, probs.RawRowView(i))
			}
			for range tc.copies - 1 {
				for _, i := range order {
					rowsX, rowsP = append(rowsX, x.RawRowView(i)), append(rowsP, probs.RawRowView(i))
				}
			}
			dx, dp := stack(rowsX), stack(rowsP)
			batch, err := Fisher{}.SelectFeatures(nil, dp, dx, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]int{}
			for _, i := range batch {
				seen[fmt.Sprint(dx.RawRowView(i), dp.RawRowView(i))]++
			}
			dups := len(batch) - len(seen)
			if len(batch) != min(tc.k, len(rowsX)) || len(seen) != tc.wantDistinct || dups != tc.maxDuplicates {
				t.Errorf("batch %v: %d points, %d distinct, %d repeats; want %d, %d, %d", batch, len(batch), len(seen), dups, min(tc.k, len(rowsX)), tc.wantDistinct, tc.maxDuplicates)
			}
		})
	}
}

func stack(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// TestFisherSingle: with k = 1 the choice is a candidate of largest
// π(1 − π)·representativeness, a_i = π_i(1 − π_i) Σ_k λ_k (x_iᵀv_k)²/S_k²
// at the optimum (the optimality conditions of eq. 4.15, which eq. 4.17
// converges to); with one eigenpair that is π(1 − π)(x_iᵀv_1)², and among
// equally representative candidates the most uncertain.
func TestFisherSingle(t *testing.T) {
	for _, tc := range fisherCases {
		t.Run(tc.name, func(t *testing.T) {
			x, probs := benchPool(tc.n, tc.d, tc.c, tc.seed)
			f := Fisher{Rank: tc.rank, Tol: 1e-9, MaxIter: 1 << 20}
			got, err := f.SelectFeatures(nil, probs, x, 1)
			if err != nil {
				t.Fatal(err)
			}
			res, _ := f.Solve(probs, x)
			if a := res.Gain[got[0]]; a < slices.Max(res.Gain)*(1-1e-6) {
				t.Errorf("picked %d with gain %v, below the largest %v", got[0], a, slices.Max(res.Gain))
			}
			if res.Q[got[0]] != slices.Max(res.Q) {
				t.Errorf("picked %d with q %v, not the largest %v", got[0], res.Q[got[0]], slices.Max(res.Q))
			}
		})
	}
	// One eigenpair: the optimum is the vertex of largest π(1 − π)(xᵀv_1)².
	x, probs := benchPool(50, 3, 2, 9)
	ref := newReference(t, probs, x, 1)
	want := 0
	for i := range ref.g {
		if ref.g[i][0] > ref.g[want][0] {
			want = i
		}
	}
	if got, err := (Fisher{Rank: 1}).SelectFeatures(nil, probs, x, 1); err != nil || got[0] != want {
		t.Errorf("rank 1: picked %v (%v), want %d", got, err, want)
	}
	// Equal representativeness: every feature vector twice, with two
	// uncertainties. The less uncertain copy is dominated (its weights are a
	// fraction of the other's in every direction), so it gets no mass and
	// the pick is the more uncertain copy of its pair.
	base, pb := benchPool(30, 3, 2, 10)
	rowsX, rowsP := [][]float64{}, [][]float64{}
	for i := range 30 {
		pi := pb.At(i, 1)
		sure := 0.5 + (pi-0.5)*1.5 // further from 1/2, still in [0, 1]
		sure = math.Min(math.Max(sure, 0), 1)
		rowsX = append(rowsX, base.RawRowView(i), base.RawRowView(i))
		rowsP = append(rowsP, []float64{1 - pi, pi}, []float64{1 - sure, sure})
	}
	px, pp := stack(rowsX), stack(rowsP)
	f := Fisher{Tol: 1e-9, MaxIter: 1 << 20}
	got, err := f.SelectFeatures(nil, pp, px, 1)
	if err != nil || got[0]%2 != 0 {
		t.Errorf("pairs: picked %v (%v), want the more uncertain copy (an even row)", got, err)
	}
	res, _ := f.Solve(pp, px)
	for i := 1; i < len(res.Q); i += 2 {
		if res.Q[i] > 1e-6*slices.Max(res.Q) {
			t.Errorf("pairs: the less uncertain copy %d keeps mass %v", i, res.Q[i])
		}
	}
}

// TestFisherShortlist: with a shortlist the batch comes from the
// Shortlist·k candidates of largest entropy, the objective (I_p of the whole
// pool, q on the shortlist) reaches the independent solver's optimum, and a
// shortlist that holds the whole pool changes nothing.
func TestFisherShortlist(t *testing.T) {
	for _, tc := range []struct {
		name         string
		n, d, c, k   int
		factor, rank int
		seed         uint64
	}{
		{"binary/n=60/k=3/factor=4", 60, 4, 2, 3, 4, 0, 11},
		{"three classes/n=80/k=4/factor=3", 80, 3, 3, 4, 3, 0, 12},
		{"binary/n=500/k=10/factor=5/rank=6", 500, 8, 2, 10, 5, 6, 13},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, probs := benchPool(tc.n, tc.d, tc.c, tc.seed)
			// The shortlist by hand: entropy of every row, largest first.
			h := make([]float64, tc.n)
			idx := make([]int, tc.n)
			for i := range h {
				idx[i] = i
				for j := range tc.c {
					if p := probs.At(i, j); p > 0 {
						h[i] -= p * math.Log(p)
					}
				}
			}
			sort.SliceStable(idx, func(a, b int) bool { return h[idx[a]] > h[idx[b]] })
			short := idx[:tc.factor*tc.k]
			f := Fisher{Rank: tc.rank, Shortlist: tc.factor, Tol: 1e-9, MaxIter: 1 << 20}
			batch, err := f.SelectFeatures(nil, probs, x, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if len(batch) != tc.k {
				t.Fatalf("batch %v, want %d candidates", batch, tc.k)
			}
			for _, i := range batch {
				if !slices.Contains(short, i) {
					t.Errorf("candidate %d (entropy %.4g) is outside the shortlist", i, h[i])
				}
			}
			// The optimum over the shortlist, independently.
			rank := tc.rank
			if rank == 0 {
				rank = DefaultFisherRank
			}
			ref := newReference(t, probs, x, rank)
			sub := &reference{n: len(short), lam: ref.lam}
			for _, i := range short {
				sub.g = append(sub.g, ref.g[i])
			}
			pb, err := f.problem("test", probs, x, tc.k, true)
			if err != nil {
				t.Fatal(err)
			}
			res := pb.optimise()
			if best := sub.solve(); res.Status != linalg.Converged || math.Abs(res.Objective-best) > 2e-8*best {
				t.Errorf("status %v objective %.12g, independent optimum on the shortlist %.12g", res.Status, res.Objective, best)
			}
			// A shortlist as large as the pool is the pool.
			f.Shortlist = tc.n
			all, err := f.SelectFeatures(nil, probs, x, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			f.Shortlist = 0
			want, err := f.SelectFeatures(nil, probs, x, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(all, want) {
				t.Errorf("shortlist of the whole pool %v, no shortlist %v", all, want)
			}
		})
	}
}

// TestFisherShortlistPool: with ShortlistPool the batch is the thesis's
// batch of the shortlisted candidates alone, taken as the pool (I_p their
// own), mapped back to the caller's positions; a shortlist that holds the
// whole pool changes nothing.
func TestFisherShortlistPool(t *testing.T) {
	differ := 0 // cases where I_p of the shortlist changes the batch
	for _, tc := range []struct {
		name       string
		n, d, c, k int
		factor     int
		seed       uint64
	}{
		{"binary/n=60/k=3/factor=4", 60, 4, 2, 3, 4, 21},
		{"three classes/n=80/k=4/factor=3", 80, 3, 3, 4, 3, 22},
		{"binary/n=500/k=10/factor=5", 500, 8, 2, 10, 5, 23},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, probs := benchPool(tc.n, tc.d, tc.c, tc.seed)
			short := ranked(nil, probs, tc.factor*tc.k, entropy)
			f := Fisher{Shortlist: tc.factor, ShortlistPool: true, Tol: 1e-9, MaxIter: 1 << 20}
			batch, err := f.SelectFeatures(nil, probs, x, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			// The reference: the whole-pool method on the shortlisted rows.
			sub, err := Fisher{Tol: 1e-9, MaxIter: 1 << 20}.SelectFeatures(nil, rowsOf(probs, short), rowsOf(x, short), tc.k)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]int, len(sub))
			for a, i := range sub {
				want[a] = short[i]
			}
			if !slices.Equal(batch, want) {
				t.Errorf("batch %v, the whole-pool method on the shortlist %v", batch, want)
			}
			plain, err := Fisher{Shortlist: tc.factor, Tol: 1e-9, MaxIter: 1 << 20}.SelectFeatures(nil, probs, x, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(plain, batch) {
				differ++
			}
			f.Shortlist = tc.n
			all, err := f.SelectFeatures(nil, probs, x, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := Fisher{Tol: 1e-9, MaxIter: 1 << 20}.SelectFeatures(nil, probs, x, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(all, whole) {
				t.Errorf("shortlist of the whole pool %v, no shortlist %v", all, whole)
			}
		})
	}
	if differ == 0 {
		t.Errorf("ShortlistPool gave the plain shortlist's batch in every case: the cases do not tell them apart")
	}
}
