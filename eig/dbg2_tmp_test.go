package eig

import (
	"context"
	"syscall"
	"testing"
	"time"
)

func procCPU() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(0, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func TestDbgTime(t *testing.T) {
	for _, n := range []int{2000, 4000} {
		op, _ := NewDense(rbfKernel(gaussPoints(n, 10, 1)))
		for _, bs := range []int{0, 12, 16} {
			best := 1e9
			var cpu float64
			var res *Result
			for it := 0; it < 3; it++ {
				c0 := procCPU()
				t0 := time.Now()
				res, _ = TopD(context.Background(), op, 20, &Settings{BlockSize: bs})
				el := time.Since(t0).Seconds()
				if el < best {
					best = el
					cpu = procCPU() - c0
				}
			}
			var worst float64
			for _, r := range res.Residuals {
				worst = max(worst, r/res.NormEstimate)
			}
			t.Logf("n=%d block=%d: best wall %.3fs cpu %.3fs matvecs %d iters %d relres/eps %.1f", n, bs, best, cpu, res.MatVecs, res.Iterations, worst/eps)
		}
	}
}
