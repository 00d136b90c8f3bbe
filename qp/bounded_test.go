package qp

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
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
		if res.Status != Optimal || res.KKT.Max() > kktTol {
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
		if res.Status != Optimal || res.KKT.Max() > kktTol {
			t.Errorf("trial %d (n=%d rank=%d): status %v KKT %+v", trial, n, rank, res.Status, res.KKT)
			continue
		}
		if math.Abs(res.Obj-ref.Obj) > 1e-9*(1+math.Abs(ref.Obj)) {
			t.Errorf("trial %d: obj %v, ActiveSet %v", trial, res.Obj, ref.Obj)
		}
	}
}

func TestBoundedHotStartAndAllocs(t *testing.T) {
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
	if err := b.Solve(ctx, p, nil, &cold); err != nil || cold.Status != Optimal {
		t.Fatal(err, cold.Status)
	}
	for i := range p.C {
		p.C[i] += 1e-3 * rng.NormFloat64()
	}
	var ref, hot Result
	if err := b.Solve(ctx, p, nil, &ref); err != nil {
		t.Fatal(err)
	}
	if err := b.Solve(ctx, p, &Start{X: cold.X, Working: cold.Working}, &hot); err != nil {
		t.Fatal(err)
	}
	if hot.Status != Optimal || hot.KKT.Max() > kktTol || math.Abs(hot.Obj-ref.Obj) > 1e-10*(1+math.Abs(ref.Obj)) {
		t.Errorf("hot %v %+v obj %v, cold %v", hot.Status, hot.KKT, hot.Obj, ref.Obj)
	}
	if hot.Iter >= ref.Iter {
		t.Errorf("hot start took %d iterations, cold %d", hot.Iter, ref.Iter)
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
