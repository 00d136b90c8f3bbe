package qp

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// FuzzSKL builds a small SKL instance from the bytes — Vl of l ≤ 8 rows and
// d ≤ 8 columns on a grid of 1/8, with zero, repeated and rounding-level
// columns likely, a target factor of one or two columns, a decay factor
// in [1, 4] — and solves it with every solver. Each must return an error
// or a status; Optimal must meet the KKT test measured independently
// (Residuals on Problem) and agree in objective with the other solvers'
// Optimal answers (unless one puts weight on a column of Vl that is zero
// but for rounding, or all are); Infeasible only when a = Dᵀvec(T) has no positive
// entry; nothing may panic.
func FuzzSKL(f *testing.F) {
	f.Add([]byte{4, 3, 0, 2, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120})
	f.Add([]byte{8, 8, 1, 0, 32, 32, 33, 31, 0, 64, 65, 1, 2, 3})
	f.Add([]byte{2, 5, 0, 15, 32, 32, 32, 32})
	f.Add([]byte{6, 2, 3, 7, 200, 3, 77, 1, 0, 0, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &fuzzReader{b: data}
		l := 1 + int(r.byte())%8
		d := 1 + int(r.byte())%8
		mode := r.byte()
		decay := 1 + float64(r.byte()%25)/8
		vl := mat.NewDense(l, d, nil)
		for j := 0; j < d; j++ {
			switch mode >> (j % 4) & 3 {
			case 1: // a copy of the previous column
				if j > 0 {
					for i := 0; i < l; i++ {
						vl.Set(i, j, vl.At(i, j-1))
					}
					continue
				}
			case 2: // zero but for rounding
				for i := 0; i < l; i++ {
					vl.Set(i, j, r.num()*1e-17)
				}
				continue
			}
			for i := 0; i < l; i++ {
				vl.Set(i, j, r.num())
			}
		}
		cols := 1 + int(mode>>6)%2
		y := mat.NewDense(l, cols, nil)
		for i := 0; i < l; i++ {
			for c := 0; c < cols; c++ {
				if cols == 1 {
					y.Set(i, c, float64(2*int(r.byte()%2)-1))
				} else {
					y.Set(i, c, r.num())
				}
			}
		}
		s, err := NewSKL(vl, y, decay)
		if err != nil {
			return // refused up front (an error, not a panic)
		}
		amax := 0.0
		for _, v := range s.A() {
			amax = math.Max(amax, v)
		}
		objs := map[string]float64{}
		// Every column at rounding level: the KKT residuals, which add 1 to
		// their scales, are then absolute and certify nothing (a documented
		// property of Residuals), so objectives are not compared.
		illPosed := mat.Norm(vl, math.Inf(1)) < 1e-8
		colNorm := make([]float64, d)
		maxNorm := 0.0
		for j := range colNorm {
			colNorm[j] = mat.Norm(vl.ColView(j), 2)
			maxNorm = math.Max(maxNorm, colNorm[j])
		}
		for _, sv := range sklSolvers() {
			var res Result
			if err := s.Solve(context.Background(), sv.s, nil, &res); err != nil {
				if !notDefinite(sv.name, err) {
					t.Logf("%s: %v", sv.name, err)
				}
				continue
			}
			switch res.Status {
			case linalg.Optimal:
				k, err := Residuals(s.Problem(), res.X, res.Eq, res.Ineq, res.Lower, res.Upper)
				if err != nil {
					t.Fatalf("%s: %v", sv.name, err)
				}
				if k.Max() > optimalGuard {
					t.Errorf("%s: Optimal with KKT %+v measured on the problem", sv.name, k)
				}
				objs[sv.name] = res.Obj
				for j, v := range res.X {
					// weight on a column of Vl that is zero but for
					// rounding beside the largest: the instance is
					// ill-posed, and a solver that takes that column for
					// zero is as right as one that does not, so objectives
					// are not compared
					if v != 0 && colNorm[j] < 1e-8*maxNorm {
						illPosed = true
					}
				}
			case linalg.Infeasible:
				if amax > 0 {
					t.Errorf("%s: Infeasible, but a has the positive entry %v (μ = e_i/a_i is feasible)", sv.name, amax)
				}
			}
		}
		if illPosed {
			return
		}
		var ref float64
		first := true
		for name, o := range objs {
			if first {
				ref, first = o, false
				continue
			}
			if math.Abs(o-ref) > 1e-6*(1+math.Abs(ref)) {
				t.Errorf("%s: objective %v, another solver %v", name, o, ref)
			}
		}
	})
}
