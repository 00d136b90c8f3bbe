package eig

import (
	"context"
	"testing"
	"time"
)

func TestDbgTmp(t *testing.T) {
	s := loadData(t, "ionosphere")
	op, _ := NewDense(rbfKernel(zscore(s.X)))
	for _, rw := range []int{200} {
		for _, pm := range [][2]int{{3, 50}, {4, 52}, {4, 80}, {8, 116}} {
			p, m := pm[0], pm[1]
			cfg, _ := validate(context.Background(), op, 20, &Settings{BlockSize: p, BasisSize: m})
			if cfg.block == 0 {
				cfg.block = 8
			}
			mm := m
			if mm == 0 {
				mm = max(3*20, 2*20+40, 20+12*p)
			}
			mm = max(mm, 20+2*p)
			mm = min(mm, cfg.n-p)
			mm = 20 + (mm-20)/p*p
			t0 := time.Now()
			k := newKrylov(op, cfg, p, mm, true)
			c, st, err := k.run(context.Background())
			res, err := finish(k, c, st, err, "x")
			el := time.Since(t0)
			var worst float64
			for _, r := range res.Residuals {
				worst = max(worst, r/res.NormEstimate)
			}
			best := el
			for it := 0; it < 4; it++ {
				t0 := time.Now()
				k := newKrylov(op, cfg, p, mm, true)
				c, st, err := k.run(context.Background())
				finish(k, c, st, err, "x")
				best = min(best, time.Since(t0))
			}
			el = best
			t.Logf("rw=%d p=%d m=%d: %v err=%v matvecs=%d iters=%d restarts=%d ritz=%d sizes=%v relres/eps=%.1f", rw, p, mm, el, err, res.MatVecs, res.Iterations, res.Restarts, k.ritzCalls, k.ritzSizes, worst/eps)
_ = rw
		}
	}
}
