package qp

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"ukm/linalg"
)

func TestBoundedBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 80; trial++ {
		n := 2 + trial%6
		meq := trial % 3
		p := randProblem(rng, n, meq, 0, n)
		_, wobj, ok := bruteForce(p)
		if !ok {
			t.Fatalf("trial %d: brute force found nothing", trial)
		}
		var res Result
		if err := NewBounded(nil).Solve(context.Background(), p, nil, &res); err != nil {
			t.Fatal(err)
		}
		if res.Status != linalg.Optimal || res.KKT.Max() > kktTol {
			t.Errorf("trial %d: status %v KKT %+v", trial, res.Status, res.KKT)
			continue
		}
		if math.Abs(res.Obj-wobj) > 1e-9*(1+math.Abs(wobj)) {
			t.Errorf("trial %d: obj %v, brute force %v", trial, res.Obj, wobj)
		}
	}
}

func TestBoundedSemidefinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 80; trial++ {
		n := 3 + trial%20
		rank := trial % n
		p := randProblem(rng, n, trial%3, 0, rank)
		for j := range p.Lower {
			if math.IsInf(p.Lower[j], 0) {
				p.Lower[j], p.Upper[j] = -5, 5
			}
		}
		var res, ref Result
		if err := NewBounded(nil).Solve(context.Background(), p, nil, &res); err != nil {
			t.Fatal(err)
		}
		if err := NewActiveSet(nil).Solve(context.Background(), p, nil, &ref); err != nil {
			t.Fatal(err)
		}
		if res.Status != linalg.Optimal || res.KKT.Max() > kktTol {
			t.Errorf("trial %d (n=%d rank=%d): status %v KKT %+v", trial, n, rank, res.Status, res.KKT)
			continue
		}
		if math.Abs(res.Obj-ref.Obj) > 1e-9*(1+math.Abs(ref.Obj)) {
			t.Errorf("trial %d: obj %v, ActiveSet %v", trial, res.Obj, ref.Obj)
		}
	}
}

func TestBoundedWarmStartAndAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	p := randProblem(rng, 40, 2, 0, 40)
	for j := range p.Lower { // box every variable tightly so that many bounds are active
		p.Lower[j], p.Upper[j] = -0.3, 0.3
	}
	// x0 in randProblem may violate the new box: re-centre the equalities at 0
	for i := range p.Beq {
		p.Beq[i] = 0
	}
	b := NewBounded(nil)
	ctx := context.Background()
	var cold Result
	if err := b.Solve(ctx, p, nil, &cold); err != nil || cold.Status != linalg.Optimal {
		t.Fatal(err, cold.Status)
	}
	for i := range p.G {
		p.G[i] += 1e-3 * rng.NormFloat64()
	}
	var ref, warm Result
	if err := b.Solve(ctx, p, nil, &ref); err != nil {
		t.Fatal(err)
	}
	if err := b.Solve(ctx, p, &Start{X: cold.X, Working: cold.Working}, &warm); err != nil {
		t.Fatal(err)
	}
	if warm.Status != linalg.Optimal || warm.KKT.Max() > kktTol || math.Abs(warm.Obj-ref.Obj) > 1e-10*(1+math.Abs(ref.Obj)) {
		t.Errorf("warm %v %+v obj %v, cold %v", warm.Status, warm.KKT, warm.Obj, ref.Obj)
	}
	if warm.Iterations >= ref.Iterations {
		t.Errorf("warm start took %d iterations, cold %d", warm.Iterations, ref.Iterations)
	}
	allocs := testing.AllocsPerRun(10, func() {
		if err := b.Solve(ctx, p, nil, &ref); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Bounded re-solve allocates %v times", allocs)
	}
}
