package qp

import (
	"context"
	"testing"
)

func TestDbgSKL(t *testing.T) {
	ie := loadIono(t)
	for _, d := range []int{200} {
		s := ie.skl(t, d, 2)
		var res Result
		err := s.Solve(context.Background(), nil, nil, &res)
		t.Logf("res %v iter %d polish %d kkt %+v err %v y %g", res.Status, res.Iter, res.Polish, res.KKT, err, res.Eq[0])
		r := make([]float64, d)
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				r[i] += s.h2.At(i, j) * res.X[j]
			}
			r[i] -= s.a[i] * res.Eq[0]
		}
		for i := 40; i < d; i++ {
			nu := res.X[i]
			if i+1 < d {
				nu -= 2 * res.X[i+1]
			}
			lam := 0.0
			if i < d-1 {
				lam = res.Ineq[i]
			}
			t.Logf(" i=%d mu=%.3g nu=%.3g lam=%.3g L=%.3g r=%.3g", i, res.X[i], nu, lam, res.Lower[i], r[i])
		}
	}
}
