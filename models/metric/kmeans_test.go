package metric

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// randomConstraints draws pairs consistent with hidden labels of `groups`
// classes (so never contradictory); with groups > k they may be
// impossible to satisfy with k clusters.
func randomConstraints(n, groups, sim, dis int, seed uint64) Constraints {
	rng := rand.New(rand.NewPCG(seed, 1))
	h := make([]int, n)
	for i := range h {
		h[i] = rng.IntN(groups)
	}
	var c Constraints
	for len(c.Similar) < sim || len(c.Dissimilar) < dis {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j {
			continue
		}
		if h[i] == h[j] && len(c.Similar) < sim {
			c.Similar = append(c.Similar, Pair{i, j})
		} else if h[i] != h[j] && len(c.Dissimilar) < dis {
			c.Dissimilar = append(c.Dissimilar, Pair{i, j})
		}
	}
	return c
}

// Constrained k-means never breaks a similar pair, and breaks exactly the
// dissimilar pairs it lists in Violated; Status is Infeasible exactly then.
func TestKMeansReportsViolations(t *testing.T) {
	x, _ := gaussians(30, 3, 3, 12)
	n, _ := x.Dims()
	ctx := context.Background()
	gram, err := linalg.Gram(ctx, linalg.RBF{Gamma: 0.1}, x)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                string
		k, groups, sim, dis int
	}{
		{"feasible k=3", 3, 3, 20, 30},
		{"2 clusters, 4 hidden groups", 2, 4, 10, 60},
		{"3 clusters, 6 hidden groups", 3, 6, 5, 120},
		{"only must-links", 2, 5, 40, 0},
		{"only cannot-links k=2", 2, 2, 0, 50},
	} {
		for seed := uint64(0); seed < 5; seed++ {
			c := randomConstraints(n, tc.groups, tc.sim, tc.dis, seed)
			for name, run := range map[string]func() (*Clustering, error){
				"euclidean": func() (*Clustering, error) { return KMeans(ctx, x, tc.k, c, &KMeansSettings{Seed: seed, Restarts: 2}) },
				"kernel": func() (*Clustering, error) {
					return KernelKMeans(ctx, gram, tc.k, c, &KMeansSettings{Seed: seed, Restarts: 2})
				},
			} {
				res, err := run()
				if err != nil {
					t.Fatalf("%s %s: %v", tc.name, name, err)
				}
				for _, p := range c.Similar {
					if res.Labels[p.I] != res.Labels[p.J] {
						t.Errorf("%s %s seed %d: similar pair %v broken", tc.name, name, seed, p)
					}
				}
				listed := map[int]bool{}
				for _, q := range res.Violated {
					listed[q] = true
				}
				for q, p := range c.Dissimilar {
					broken := res.Labels[p.I] == res.Labels[p.J]
					if broken != listed[q] {
						t.Errorf("%s %s seed %d: dissimilar pair %d broken=%v listed=%v", tc.name, name, seed, q, broken, listed[q])
					}
				}
				if (len(res.Violated) > 0) != (res.Status == linalg.Infeasible) {
					t.Errorf("%s %s: status %v with %d violations", tc.name, name, res.Status, len(res.Violated))
				}
				for _, l := range res.Labels {
					if l < 0 || l >= tc.k {
						t.Fatalf("label %d outside [0,%d)", l, tc.k)
					}
				}
				// With two clusters and consistent pairs the cannot-link
				// graph is bipartite and the DSatur order never fails.
				if tc.k == 2 && tc.groups == 2 && len(res.Violated) > 0 {
					t.Errorf("%s %s: %d violations of 2-colourable pairs", tc.name, name, len(res.Violated))
				}
			}
		}
	}
}

func TestKMeansRecoversClusters(t *testing.T) {
	ctx := context.Background()
	x := mat.NewDense(60, 2, nil)
	y := make([]int, 60)
	rng := rand.New(rand.NewPCG(3, 3))
	for i := range y {
		y[i] = i % 3
		x.Set(i, 0, 10*float64(y[i])+0.3*rng.NormFloat64())
		x.Set(i, 1, 0.3*rng.NormFloat64())
	}
	gram, _ := linalg.Gram(ctx, linalg.Linear{}, x)
	ident := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	for name, run := range map[string]func() (*Clustering, error){
		"euclidean":   func() (*Clustering, error) { return KMeans(ctx, x, 3, Constraints{}, nil) },
		"mahalanobis": func() (*Clustering, error) { return MahalanobisKMeans(ctx, x, ident, 3, Constraints{}, nil) },
		"kernel":      func() (*Clustering, error) { return KernelKMeans(ctx, gram, 3, Constraints{}, nil) },
	} {
		res, err := run()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		acc, _ := PairwiseAccuracy(y, res.Labels)
		if acc != 1 || res.Status != linalg.Converged {
			t.Errorf("%s: accuracy %v, status %v", name, acc, res.Status)
		}
	}
}

func TestKMeansDeterministic(t *testing.T) {
	x, y := gaussians(20, 3, 4, 5)
	c := mustConstraints(t, y, 10, 10, 1)
	ctx := context.Background()
	a, err := KMeans(ctx, x, 3, c, &KMeansSettings{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := KMeans(ctx, x, 3, c, &KMeansSettings{Seed: 9})
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different clusterings")
	}
}

// Must-links glue the points of a chunklet: with every point must-linked
// into two groups, the clusters are the groups whatever the geometry.
func TestKMeansChunkletsDecide(t *testing.T) {
	x, _ := gaussians(10, 2, 2, 4)
	var c Constraints
	for i := 2; i < 20; i++ {
		c.Similar = append(c.Similar, Pair{i % 2, i})
	}
	c.Dissimilar = []Pair{{0, 1}}
	res, err := KMeans(context.Background(), x, 2, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, 20)
	for i := range want {
		want[i] = i % 2
	}
	if acc, _ := PairwiseAccuracy(want, res.Labels); acc != 1 {
		t.Errorf("accuracy %v, want 1", acc)
	}
}

func TestKMeansCanceled(t *testing.T) {
	x, _ := gaussians(10, 2, 2, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := KMeans(ctx, x, 2, Constraints{}, nil)
	if err == nil || res == nil || res.Status != linalg.Canceled {
		t.Fatalf("err %v, result %+v", err, res)
	}
}
