package qptest

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/qp"
)

// family is one problem of the suite: its name (the status it must produce,
// then what it exercises), the problem, and for Optimal ones the known
// optimum and optimal value.
type family struct {
	name string
	p    func() *qp.Problem
	want linalg.Status
	x    []float64
	obj  float64
	// semidefinite marks a nil or singular H, which solvers with
	// Capabilities.PositiveDefinite must refuse.
	semidefinite bool
	// anyX marks an optimum that is not unique (a degenerate linear
	// part): the objective and the KKT residuals are checked, not X.
	anyX bool
}

var inf = math.Inf(1)

func sym(n int, v ...float64) *mat.SymDense { return mat.NewSymDense(n, v) }

func dense(r, c int, v ...float64) *mat.Dense { return mat.NewDense(r, c, v) }

// families returns the problem families, Optimal ones first.
func families() []family {
	return []family{
		// x = −H⁻¹g
		{name: "Optimal/unconstrained", want: linalg.Optimal, x: []float64{1, 1}, obj: -3,
			p: func() *qp.Problem { return &qp.Problem{H: sym(2, 2, 0, 0, 4), G: []float64{-2, -4}} }},
		{name: "Optimal/one-variable-bound", want: linalg.Optimal, x: []float64{2}, obj: -8,
			p: func() *qp.Problem { return &qp.Problem{H: sym(1, 1), G: []float64{-5}, Upper: []float64{2}} }},
		// each coordinate at a different bound of the box
		{name: "Optimal/box", want: linalg.Optimal, x: []float64{2, 0}, obj: -8,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 1, 0, 0, 1), G: []float64{-5, 1}, Lower: []float64{0, 0}, Upper: []float64{2, 2}}
			}},
		{name: "Optimal/equality", want: linalg.Optimal, x: []float64{0.5, 0.5}, obj: 0.25,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 1, 0, 0, 1), G: []float64{0, 0}, Aeq: dense(1, 2, 1, 1), Beq: []float64{1}}
			}},
		// the second row is twice the first
		{name: "Optimal/redundant-equalities", want: linalg.Optimal, x: []float64{0.5, 0.5}, obj: 0.25,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 1, 0, 0, 1), G: []float64{0, 0}, Aeq: dense(3, 2, 1, 1, 2, 2, 1, -1), Beq: []float64{1, 2, 0}}
			}},
		// Nocedal & Wright, example 16.4, with and without its bounds (inactive)
		{name: "Optimal/inequalities", want: linalg.Optimal, x: []float64{1.4, 1.7}, obj: -6.45,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 2, 0, 0, 2), G: []float64{-2, -5}, Ain: dense(3, 2, 1, -2, -1, -2, -1, 2), Bin: []float64{-2, -6, -2}}
			}},
		{name: "Optimal/inequalities-and-bounds", want: linalg.Optimal, x: []float64{1.4, 1.7}, obj: -6.45,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 2, 0, 0, 2), G: []float64{-2, -5}, Ain: dense(3, 2, 1, -2, -1, -2, -1, 2), Bin: []float64{-2, -6, -2}, Lower: []float64{0, 0}}
			}},
		// five constraints through the optimum (0, 0) in two dimensions
		{name: "Optimal/degenerate-vertex", want: linalg.Optimal, x: []float64{0, 0}, obj: 0,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 2, 0, 0, 2), G: []float64{2, 2}, Ain: dense(3, 2, 1, 1, 1, 2, 2, 1), Bin: []float64{0, 0, 0}, Lower: []float64{0, 0}}
			}},
		// an equality and both bounds through the optimum (0, 0)
		{name: "Optimal/degenerate-vertex-bounds", want: linalg.Optimal, x: []float64{0, 0}, obj: 0,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 1, 0, 0, 1), G: []float64{1, 1}, Aeq: dense(1, 2, 1, -1), Beq: []float64{0}, Lower: []float64{0, 0}}
			}},
		// x = (0, 0.5, 0.5); the equality's multiplier may be anything in [−1.5, −1]
		{name: "Optimal/non-unique-multipliers", want: linalg.Optimal, x: []float64{0, 0.5, 0.5}, obj: -2.25,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(3, 1, 0, 0, 0, 1, 0, 0, 0, 1), G: []float64{-1, -2, -3}, Aeq: dense(1, 3, 1, 1, 1), Beq: []float64{1},
					Lower: []float64{0, 0, 0}, Upper: []float64{0.5, 0.5, 0.5}}
			}},
		// a linear program whose optimal vertex has three active rows
		{name: "Optimal/lp", want: linalg.Optimal, x: []float64{1, 1}, obj: -2, semidefinite: true,
			p: func() *qp.Problem {
				return &qp.Problem{G: []float64{-1, -1}, Ain: dense(3, 2, -1, 0, 0, -1, -1, -1), Bin: []float64{-1, -1, -2}}
			}},
		{name: "Optimal/lp-equality-and-box", want: linalg.Optimal, x: []float64{0, 1}, obj: -2, semidefinite: true,
			p: func() *qp.Problem {
				return &qp.Problem{G: []float64{-1, -2}, Aeq: dense(1, 2, 1, 1), Beq: []float64{1}, Lower: []float64{0, 0}, Upper: []float64{1, 1}}
			}},
		// singular H, bounded only through the inequality
		{name: "Optimal/semidefinite", want: linalg.Optimal, x: []float64{-2, 5}, obj: -5, semidefinite: true,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 1, 0, 0, 0), G: []float64{1, -1}, Ain: dense(1, 2, -1, -1), Bin: []float64{-3}}
			}},
		{name: "Optimal/semidefinite-box", want: linalg.Optimal, x: []float64{1, 3}, obj: -3.5, semidefinite: true,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 1, 0, 0, 0), G: []float64{-1, -1}, Lower: []float64{0, 0}, Upper: []float64{3, 3}}
			}},
		plantedFamily("Optimal/planted", 1, 10, 2, 6, 2, true),
		plantedFamily("Optimal/planted-bounds", 2, 12, 1, 0, 0, true),
		plantedFamily("Optimal/planted-inequalities", 3, 8, 0, 10, 4, false),

		// x1 >= 1, x2 >= 1, x1 + x2 <= 1.5: each pair is feasible, all three not
		{name: "Infeasible/inequalities", want: linalg.Infeasible,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 1, 0, 0, 1), G: []float64{0, 0}, Ain: dense(3, 2, 1, 0, 0, 1, -1, -1), Bin: []float64{1, 1, -1.5}}
			}},
		{name: "Infeasible/equalities", want: linalg.Infeasible,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 1, 0, 0, 1), G: []float64{0, 0}, Aeq: dense(2, 2, 1, 1, 1, 1), Beq: []float64{1, 2}}
			}},
		{name: "Infeasible/equality-and-box", want: linalg.Infeasible,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 1, 0, 0, 1), G: []float64{1, 1}, Aeq: dense(1, 2, 1, 1), Beq: []float64{5}, Lower: []float64{0, 0}, Upper: []float64{1, 1}}
			}},
		{name: "Infeasible/inequality-and-box", want: linalg.Infeasible,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(2, 1, 0, 0, 1), G: []float64{0, 0}, Ain: dense(1, 2, 1, 1), Bin: []float64{3}, Lower: []float64{-1, -1}, Upper: []float64{1, 1}}
			}},
		{name: "Infeasible/lp", want: linalg.Infeasible, semidefinite: true,
			p: func() *qp.Problem {
				return &qp.Problem{G: []float64{1, 1}, Ain: dense(2, 2, 1, 1, -1, -1), Bin: []float64{2, -1}}
			}},

		generatedFamily("Optimal/degenerate-lp", qptest0Spec(1, 0, 0, false), true),
		generatedFamily("Optimal/degenerate-scaled", qptest0Spec(2, 3, 8, false), true),
		generatedFamily("Optimal/degenerate-strictly-convex", qptest0Spec(3, 10, 8, false), false),
		generatedFamily("Infeasible/degenerate-lp", qptest0Spec(4, 0, 8, true), true),
		generatedFamily("Infeasible/degenerate-strictly-convex", qptest0Spec(5, 10, 8, true), false),

		{name: "Unbounded/lp", want: linalg.Unbounded, semidefinite: true,
			p: func() *qp.Problem {
				return &qp.Problem{G: []float64{-1, 0}, Lower: []float64{0, 0}, Upper: []float64{inf, 1}}
			}},
		{name: "Unbounded/semidefinite", want: linalg.Unbounded, semidefinite: true,
			p: func() *qp.Problem { return &qp.Problem{H: sym(2, 1, 0, 0, 0), G: []float64{0, -1}} }},
		// the rays must keep x2 >= x3 >= 0
		{name: "Unbounded/semidefinite-inequalities", want: linalg.Unbounded, semidefinite: true,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(3, 1, 0, 0, 0, 0, 0, 0, 0, 0), G: []float64{0, -1, -1}, Ain: dense(2, 3, 0, 1, -1, 0, 0, 1), Bin: []float64{0, 0}}
			}},
		// the ray must keep x2 = x3 >= 0
		{name: "Unbounded/semidefinite-equality-and-bounds", want: linalg.Unbounded, semidefinite: true,
			p: func() *qp.Problem {
				return &qp.Problem{H: sym(3, 1, 0, 0, 0, 0, 0, 0, 0, 0), G: []float64{0, -1, 0}, Aeq: dense(1, 3, 0, 1, -1), Beq: []float64{0},
					Lower: []float64{-inf, 0, 0}}
			}},
	}
}

// plantedFamily is a strictly convex problem built around a chosen KKT point:
// n variables, meq equalities, min inequalities of which the first act are
// active with positive multipliers and the others slack, and, with bounds, a
// pattern of active lower and upper bounds (positive multipliers), inactive
// boxes and free variables. g is then chosen so that the point is stationary;
// H positive definite makes it the unique optimum. The data are drawn from a
// fixed seed, so the problem is the same on every run.
func plantedFamily(name string, seed uint64, n, meq, min, act int, bounds bool) family {
	p, x := planted(seed, n, meq, min, act, bounds)
	return family{name: name, want: linalg.Optimal, x: x, obj: objective(p, x),
		p: func() *qp.Problem { q, _ := planted(seed, n, meq, min, act, bounds); return q }}
}

func planted(seed uint64, n, meq, min, act int, bounds bool) (*qp.Problem, []float64) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	x := make([]float64, n)
	for j := range x {
		x[j] = rng.NormFloat64()
	}
	// H = MᵀM/n + I: positive definite, condition number of order 10
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	h := mat.NewSymDense(n, nil)
	h.SymOuterK(1/float64(n), m.T())
	for j := 0; j < n; j++ {
		h.SetSym(j, j, h.At(j, j)+1)
	}
	g := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g[i] -= h.At(i, j) * x[j]
		}
	}
	p := &qp.Problem{H: h, G: g}
	// rows a·x (=, >=) b, with multiplier λ added to g as λ·a
	rows := func(k int, active func(int) bool) (*mat.Dense, []float64) {
		a := mat.NewDense(k, n, nil)
		b := make([]float64, k)
		for i := 0; i < k; i++ {
			lam := 0.0
			if active(i) {
				lam = 0.5 + rng.Float64()
			}
			for j := 0; j < n; j++ {
				v := rng.NormFloat64()
				a.Set(i, j, v)
				b[i] += v * x[j]
				g[j] += lam * v
			}
			if !active(i) {
				b[i] -= 0.5 + rng.Float64()
			}
		}
		return a, b
	}
	if meq > 0 {
		// equality multipliers of either sign
		p.Aeq, p.Beq = mat.NewDense(meq, n, nil), make([]float64, meq)
		for i := 0; i < meq; i++ {
			nu := rng.NormFloat64()
			for j := 0; j < n; j++ {
				v := rng.NormFloat64()
				p.Aeq.Set(i, j, v)
				p.Beq[i] += v * x[j]
				g[j] += nu * v
			}
		}
	}
	if min > 0 {
		p.Ain, p.Bin = rows(min, func(i int) bool { return i < act })
	}
	if bounds {
		p.Lower, p.Upper = make([]float64, n), make([]float64, n)
		for j := 0; j < n; j++ {
			p.Lower[j], p.Upper[j] = math.Inf(-1), math.Inf(1)
			switch j % 5 {
			case 0: // lower bound active
				p.Lower[j], p.Upper[j] = x[j], x[j]+2
				g[j] += 0.5 + rng.Float64()
			case 1: // upper bound active
				p.Lower[j], p.Upper[j] = x[j]-2, x[j]
				g[j] -= 0.5 + rng.Float64()
			case 2: // inactive box
				p.Lower[j], p.Upper[j] = x[j]-1-rng.Float64(), x[j]+1+rng.Float64()
			}
		}
	}
	return p, x
}

// objective returns 1/2 xᵀHx + gᵀx.
func objective(p *qp.Problem, x []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += p.G[i] * v
		if p.H != nil {
			for j, w := range x {
				s += 0.5 * v * p.H.At(i, j) * w
			}
		}
	}
	return s
}

// qptest0Spec is the Spec of the suite's generated families: 10 variables, 12
// base rows (a third equalities) with two redundant, two duplicated, two
// empty rows and two ranged pairs, one free and one fixed variable, curved
// variables with curvature, scales spread over decades.
func qptest0Spec(seed uint64, curved int, decades float64, infeasible bool) Spec {
	return Spec{N: 10, Rows: 12, EqFrac: 1.0 / 3, Curved: curved, Redundant: 2, Duplicate: 2, Empty: 2, Ranged: 2,
		Free: 1, Fixed: 1, Decades: decades, Infeasible: infeasible, Seed: seed}
}

// generatedFamily is a family made by Generate from s; semidefinite says that
// H is nil or singular (s.Curved < s.N), which also makes the optimum
// non-unique in general.
func generatedFamily(name string, s Spec, semidefinite bool) family {
	g := Generate(s)
	return family{name: name, want: g.Want, x: g.X, obj: g.Obj, semidefinite: semidefinite, anyX: semidefinite,
		p: func() *qp.Problem { return Generate(s).Problem }}
}
