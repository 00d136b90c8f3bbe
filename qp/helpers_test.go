package qp

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// randProblem builds a random feasible QP with n variables, meq equalities, min
// inequalities and box bounds on half the variables. rank < n gives a singular H.
// Feasibility is guaranteed by building all right-hand sides around a point x0.
func randProblem(rng *rand.Rand, n, meq, min, rank int) *Problem {
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = rng.NormFloat64()
	}
	h := mat.NewSymDense(n, nil)
	if rank > 0 {
		g := mat.NewDense(rank, n, nil)
		for i := 0; i < rank; i++ {
			for j := 0; j < n; j++ {
				g.Set(i, j, rng.NormFloat64())
			}
		}
		h.SymOuterK(1, g.T())
	}
	p := &Problem{H: h, G: make([]float64, n)}
	for i := range p.G {
		p.G[i] = 3 * rng.NormFloat64()
	}
	if meq > 0 {
		p.Aeq = mat.NewDense(meq, n, nil)
		p.Beq = make([]float64, meq)
		for i := 0; i < meq; i++ {
			s := 0.0
			for j := 0; j < n; j++ {
				v := rng.NormFloat64()
				p.Aeq.Set(i, j, v)
				s += v * x0[j]
			}
			p.Beq[i] = s
		}
	}
	if min > 0 {
		p.Ain = mat.NewDense(min, n, nil)
		p.Bin = make([]float64, min)
		for i := 0; i < min; i++ {
			s := 0.0
			for j := 0; j < n; j++ {
				v := rng.NormFloat64()
				p.Ain.Set(i, j, v)
				s += v * x0[j]
			}
			p.Bin[i] = s - rng.Float64() // x0 strictly feasible by up to 1
		}
	}
	p.Lower = make([]float64, n)
	p.Upper = make([]float64, n)
	for j := 0; j < n; j++ {
		p.Lower[j], p.Upper[j] = math.Inf(-1), math.Inf(1)
		if j%2 == 0 {
			p.Lower[j] = x0[j] - rng.Float64()
			p.Upper[j] = x0[j] + rng.Float64()
		}
	}
	return p
}

// bruteForce solves a strictly convex problem by enumerating every subset of
// inequality and bound constraints as active, solving the equality-constrained
// KKT system and keeping the best primal-feasible point whose multipliers are
// nonnegative. It is exponential: use it for n <= 8 and few constraints.
func bruteForce(p *Problem) (x []float64, obj float64, ok bool) {
	n := len(p.G)
	type row struct {
		a []float64
		b float64
	}
	var eqs, ins []row
	if p.Aeq != nil {
		r, _ := p.Aeq.Dims()
		for i := 0; i < r; i++ {
			eqs = append(eqs, row{mat.Row(nil, i, p.Aeq), p.Beq[i]})
		}
	}
	if p.Ain != nil {
		r, _ := p.Ain.Dims()
		for i := 0; i < r; i++ {
			ins = append(ins, row{mat.Row(nil, i, p.Ain), p.Bin[i]})
		}
	}
	for j := 0; j < n; j++ {
		if !math.IsInf(p.lo(j), 0) {
			a := make([]float64, n)
			a[j] = 1
			ins = append(ins, row{a, p.lo(j)})
		}
		if !math.IsInf(p.up(j), 0) {
			a := make([]float64, n)
			a[j] = -1
			ins = append(ins, row{a, -p.up(j)})
		}
	}
	obj = math.Inf(1)
	for mask := 0; mask < 1<<len(ins); mask++ {
		act := append([]row(nil), eqs...)
		for i := range ins {
			if mask&(1<<i) != 0 {
				act = append(act, ins[i])
			}
		}
		m := len(act)
		if m > n {
			continue
		}
		k := mat.NewDense(n+m, n+m, nil)
		rhs := mat.NewVecDense(n+m, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				k.Set(i, j, p.H.At(i, j))
			}
			rhs.SetVec(i, -p.G[i])
		}
		for r, c := range act {
			for j := 0; j < n; j++ {
				k.Set(n+r, j, c.a[j])
				k.Set(j, n+r, -c.a[j])
			}
			rhs.SetVec(n+r, c.b)
		}
		var sol mat.VecDense
		if err := sol.SolveVec(k, rhs); err != nil {
			continue
		}
		cand := sol.RawVector().Data[:n]
		good := true
		for r := len(eqs); r < m; r++ {
			if sol.AtVec(n+r) < -1e-9 {
				good = false
			}
		}
		for _, c := range ins {
			if dot(c.a, cand) < c.b-1e-9*(1+math.Abs(c.b)) {
				good = false
			}
		}
		if !good {
			continue
		}
		if f := quadObj(p, cand); f < obj {
			obj, x, ok = f, append([]float64(nil), cand...), true
		}
	}
	return x, obj, ok
}

func quadObj(p *Problem, x []float64) float64 {
	s := dot(p.G, x)
	if p.H != nil {
		for i := range x {
			for j := range x {
				s += 0.5 * x[i] * p.H.At(i, j) * x[j]
			}
		}
	}
	return s
}

// checkNoAllocs solves p once with s (which must reach Optimal: the check is
// only meaningful on a solved instance) and then checks that re-solving it,
// averaged over runs solves, allocates nothing.
func checkNoAllocs(t *testing.T, s Solver, p *Problem, runs int) {
	t.Helper()
	var res Result
	ctx := context.Background()
	if err := s.Solve(ctx, p, nil, &res); err != nil || res.Status != linalg.Optimal {
		t.Fatal(err, res.Status)
	}
	allocs := testing.AllocsPerRun(runs, func() {
		if err := s.Solve(ctx, p, nil, &res); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%T re-solve allocates %v times", s, allocs)
	}
}
