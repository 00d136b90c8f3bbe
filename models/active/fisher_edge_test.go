package active

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// TestFeatureSelectorsEdges: the documented fallbacks — a k above the pool
// selects it all, a singular Fisher matrix keeps its numerical rank,
// candidates without information come last — give a full batch of
// distinct candidates, never an error.
func TestFeatureSelectorsEdges(t *testing.T) {
	x, probs := benchPool(12, 3, 2, 21)
	// Rank one: every feature vector a multiple of (1, 2, -1).
	line := mat.NewDense(12, 3, nil)
	for i := range 12 {
		s := float64(i%5) - 2
		line.SetRow(i, []float64{s, 2 * s, -s})
	}
	// Half the pool predicted with certainty.
	half := mat.DenseCopyOf(probs)
	for i := 0; i < 12; i += 2 {
		half.SetRow(i, []float64{0, 1})
	}
	for _, tc := range []struct {
		name     string
		x, probs *mat.Dense
		k        int
		want     int   // batch size
		last     []int // candidates that may only come after the others
		rank     int   // Fisher rank, 0 to skip
	}{
		{"k above the pool", x, probs, 50, 12, nil, 3},
		{"k equal to the pool", x, probs, 12, 12, nil, 3},
		{"singular Fisher matrix", line, probs, 4, 4, nil, 1},
		{"half certain", x, half, 8, 8, []int{0, 2, 4, 6, 8, 10}, 3},
	} {
		for _, fs := range []FeatureSelector{Fisher{}, Fisher{Shortlist: 1}, KCenter{}} {
			t.Run(fmt.Sprintf("%s/%T", tc.name, fs), func(t *testing.T) {
				got, err := fs.SelectFeatures(nil, tc.probs, tc.x, tc.k)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != tc.want {
					t.Fatalf("batch %v has %d points, want %d", got, len(got), tc.want)
				}
				seen := map[int]bool{}
				for _, i := range got {
					if i < 0 || i >= 12 || seen[i] {
						t.Fatalf("batch %v: bad or repeated index %d", got, i)
					}
					seen[i] = true
				}
				if _, ok := fs.(Fisher); !ok {
					return
				}
				informative := 12 - len(tc.last)
				for pos, i := range got {
					if slices.Contains(tc.last, i) && pos < min(informative, len(got)) {
						t.Errorf("certain candidate %d at position %d of %v", i, pos, got)
					}
				}
				res, _ := Fisher{}.Solve(tc.probs, tc.x)
				if tc.rank > 0 && res.Rank != tc.rank {
					t.Errorf("rank %d, want %d", res.Rank, tc.rank)
				}
			})
		}
	}
}

// TestFisherMultiClass: the one-versus-all generalisation sums the models'
// terms. A group of candidates about which only one class's model is
// uncertain (the other models are certain there) still enters the batch,
// and a class whose model is certain everywhere adds nothing.
func TestFisherMultiClass(t *testing.T) {
	// Two well-separated groups in the plane, four classes: the model of
	// class 0 is unsure about group A only, class 2's about group B only,
	// class 1's about both, class 3's about neither.
	const per = 20
	x := mat.NewDense(2*per, 2, nil)
	p := mat.NewDense(2*per, 4, nil)
	for i := range per {
		th := 2 * math.Pi * float64(i) / per
		x.SetRow(i, []float64{5 + math.Cos(th), math.Sin(th)})
		x.SetRow(per+i, []float64{math.Cos(th), 5 + math.Sin(th)})
		u := 0.3 + 0.01*float64(i)
		p.SetRow(i, []float64{u, 1 - u, 0, 0})
		p.SetRow(per+i, []float64{0, u, 1 - u, 0})
	}
	res, err := Fisher{}.Solve(p, x)
	if err != nil {
		t.Fatal(err)
	}
	// Class 3's model has no information: 3 blocks of 2 eigenpairs.
	if res.Models != 4 || res.Rank != 6 {
		t.Errorf("%d models and rank %d, want 4 and 6", res.Models, res.Rank)
	}
	batch, err := Fisher{}.SelectFeatures(nil, p, x, 4)
	if err != nil {
		t.Fatal(err)
	}
	var a, b int
	for _, i := range batch {
		if i < per {
			a++
		} else {
			b++
		}
	}
	if a == 0 || b == 0 {
		t.Errorf("batch %v covers group A %d times and B %d times; want both", batch, a, b)
	}
	// The objective of the four-class pool equals the sum of the
	// informative one-versus-all models' objectives.
	q := res.Q
	total := newReference(t, p, x, 8).objective(q)
	var sum float64
	for m := range 3 {
		pm := mat.NewDense(2*per, 2, nil)
		for i := range 2 * per {
			pm.SetRow(i, []float64{1 - p.At(i, m), p.At(i, m)})
		}
		sum += newReference(t, pm, x, 2).objective(q)
	}
	if math.Abs(total-sum) > 1e-9*sum {
		t.Errorf("three-class objective %v, sum of the models' %v", total, sum)
	}
}

// TestFisherStatus: stopping early is an outcome, not an error: the result
// is the last iterate, a distribution, with the status saying why.
func TestFisherStatus(t *testing.T) {
	x, probs := benchPool(500, 8, 2, 31)
	for _, tc := range []struct {
		name string
		f    Fisher
		want []linalg.Status
	}{
		{"default", Fisher{}, []linalg.Status{linalg.Converged}},
		{"one step", Fisher{MaxIter: 1, Tol: 1e-12}, []linalg.Status{linalg.IterationLimit}},
		{"tolerance below rounding", Fisher{Tol: 1e-300, MaxIter: 1 << 16}, []linalg.Status{linalg.Converged, linalg.Stalled, linalg.IterationLimit}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.f.Solve(probs, x)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(tc.want, res.Status) {
				t.Errorf("status %v, want one of %v", res.Status, tc.want)
			}
			var sum float64
			for _, q := range res.Q {
				sum += q
			}
			if math.Abs(sum-1) > 1e-12 || !(res.Objective > 0) || math.IsInf(res.Objective, 0) {
				t.Errorf("q sums to %v, objective %v", sum, res.Objective)
			}
			if got, err := tc.f.SelectFeatures(nil, probs, x, 5); err != nil || len(got) != 5 {
				t.Errorf("batch %v, %v", got, err)
			}
		})
	}
}
