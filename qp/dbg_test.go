package qp

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

func TestDbgP1(t *testing.T) {
	for _, n := range []int{100, 500} {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		p := randProblem(rng, n, 0, n/2, n)
		var res Result
		t0 := time.Now()
		NewActiveSet(nil).Solve(context.Background(), p, nil, &res)
		t.Logf("n=%d %v iter %d phase1 %d working %d time %v", n, res.Status, res.Iter, res.Phase1Iter, len(res.Working), time.Since(t0))
	}
}
