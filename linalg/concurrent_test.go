package linalg

import (
	"context"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestConcurrentSharedInputs backs the package claim that every function
// is safe for concurrent use: goroutines share the same inputs (data, a
// CSR large enough for parallel products, a LowRank) and must reproduce
// the sequential results exactly. Run with -race.
func TestConcurrentSharedInputs(t *testing.T) {
	ctx := context.Background()
	x := randNormal(11, 150, 5)
	var ts []Triplet
	const n = 3 * parMulMinNNZ // several goroutines per CSR product
	for i := 0; i < n; i++ {
		ts = append(ts, Triplet{I: i, J: i, V: float64(i%5 + 1)})
	}
	w, err := CSRFromTriplets(n, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	vec := make([]float64, n)
	for i := range vec {
		vec[i] = float64(i % 7)
	}
	lr, err := NewLowRank(randNormal(12, 150, 4), []float64{4, 3, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	y := make([]float64, 150)
	for i := range y {
		y[i] = float64(i%2*2 - 1)
	}
	type out struct {
		g   *mat.SymDense
		idx []int
		mv  []float64
		al  float64
	}
	run := func() (o out, err error) {
		if o.g, err = Gram(ctx, RBF{Gamma: 0.2}, x); err != nil {
			return o, err
		}
		if o.idx, _, err = NearestNeighbors(ctx, x, 4, KNNTree); err != nil {
			return o, err
		}
		o.mv = make([]float64, n)
		w.MulVecTo(o.mv, vec)
		o.al, err = lr.CenteredTargetAlignment(y)
		return o, err
	}
	want, err := run()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := run()
			if err != nil {
				t.Error(err)
				return
			}
			if !mat.Equal(got.g, want.g) || got.al != want.al {
				t.Error("concurrent Gram or alignment differs")
			}
			for i := range got.idx {
				if got.idx[i] != want.idx[i] {
					t.Error("concurrent NearestNeighbors differs")
					break
				}
			}
			for i := range got.mv {
				if got.mv[i] != want.mv[i] {
					t.Error("concurrent CSR.MulVecTo differs")
					break
				}
			}
		}()
	}
	wg.Wait()
}
