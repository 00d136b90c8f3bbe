package qptest

import (
	"context"
	"errors"
	"math"

	"ukm/linalg"
	"ukm/qp"
)

// supported returns the Optimal families that s must solve.
func (r *run) supported(fams []family) []family {
	var out []family
	for _, f := range fams {
		if f.want == linalg.Optimal && r.c.refusal(f.p(), f.semidefinite) == nil {
			out = append(out, f)
		}
	}
	return out
}

// canceled checks that a context cancelled before the solve, or at any of
// the solver's checks of ctx.Err during it, ends the solve with an error
// wrapping context.Canceled and status Canceled.
func (r *run) canceled(fams []family) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, f := range r.supported(fams) {
		name := "Canceled/before-solve " + f.name
		res := qp.Result{Status: linalg.Optimal}
		err, ok := r.solve(name, ctx, f.p(), nil, &res)
		if ok && (!errors.Is(err, context.Canceled) || res.Status != linalg.Canceled) {
			r.failf(name, "err = %v, status %v; want an error wrapping context.Canceled and status Canceled", err, res.Status)
		}
	}
	for _, f := range r.supported(fams) {
		if len(f.x) < 8 {
			continue // the planted problems need enough iterations
		}
		name := "Canceled/during-solve " + f.name
		for k := 0; k < 1000; k++ {
			var res qp.Result
			err, ok := r.solve(name, &countdown{Context: context.Background(), left: k}, f.p(), nil, &res)
			if !ok || err == nil {
				break // finished before its k-th check of the context
			}
			if !errors.Is(err, context.Canceled) || res.Status != linalg.Canceled {
				r.failf(name, "cancelled at check %d: err = %v, status %v; want an error wrapping context.Canceled and status Canceled", k, err, res.Status)
				break
			}
		}
	}
}

// countdown is a context whose Err reports Canceled from its left-th call on.
type countdown struct {
	context.Context
	left int
}

func (c *countdown) Err() error {
	if c.left <= 0 {
		return context.Canceled
	}
	c.left--
	return nil
}

// invalid checks that malformed calls are refused with errors wrapping
// linalg.ErrInvalid; ok is a problem s solves.
func (r *run) invalid(ok family) {
	bg := context.Background()
	nan := math.NaN()
	good := ok.p()
	n := len(good.G)
	cases := []struct {
		name  string
		ctx   context.Context
		p     *qp.Problem
		start *qp.Start
		res   *qp.Result
		kind  error
	}{
		{"nil problem", bg, nil, nil, &qp.Result{}, linalg.ErrInvalid},
		{"empty problem", bg, &qp.Problem{}, nil, &qp.Result{}, linalg.ErrInvalid},
		{"NaN in g", bg, &qp.Problem{H: sym(1, 1), G: []float64{nan}}, nil, &qp.Result{}, linalg.ErrInvalid},
		{"H of the wrong size", bg, &qp.Problem{H: sym(2, 1, 0, 0, 1), G: []float64{1}}, nil, &qp.Result{}, linalg.ErrInvalid},
		{"NaN in H", bg, &qp.Problem{H: sym(1, nan), G: []float64{1}}, nil, &qp.Result{}, linalg.ErrInvalid},
		{"Aeq of the wrong width", bg, &qp.Problem{H: sym(1, 1), G: []float64{1}, Aeq: dense(1, 2, 1, 1), Beq: []float64{1}}, nil, &qp.Result{}, linalg.ErrInvalid},
		{"crossing bounds", bg, &qp.Problem{H: sym(1, 1), G: []float64{1}, Lower: []float64{1}, Upper: []float64{0}}, nil, &qp.Result{}, linalg.ErrInvalid},
		{"indefinite H", bg, &qp.Problem{H: sym(2, 1, 0, 0, -1e-3), G: []float64{1, 1}}, nil, &qp.Result{}, linalg.ErrNotPSD},
		{"nil result", bg, good, nil, nil, linalg.ErrInvalid},
		{"nil context", nil, good, nil, &qp.Result{}, linalg.ErrInvalid},
	}
	if !r.c.IgnoresStart {
		cases = append(cases,
			struct {
				name  string
				ctx   context.Context
				p     *qp.Problem
				start *qp.Start
				res   *qp.Result
				kind  error
			}{"start of the wrong length", bg, good, &qp.Start{X: make([]float64, n+1)}, &qp.Result{}, linalg.ErrInvalid},
			struct {
				name  string
				ctx   context.Context
				p     *qp.Problem
				start *qp.Start
				res   *qp.Result
				kind  error
			}{"NaN in the start", bg, good, &qp.Start{X: append(make([]float64, n-1), nan)}, &qp.Result{}, linalg.ErrInvalid})
	}
	for _, tc := range cases {
		name := "Invalid/" + tc.name
		err, ok := r.solve(name, tc.ctx, tc.p, tc.start, tc.res)
		if ok && !errors.Is(err, tc.kind) {
			r.failf(name, "err = %v, want an error wrapping %v", err, tc.kind)
		}
	}
}

// reuse solves the Optimal families again, in reverse order with a fresh
// Result, after everything else: a solver reused across sizes and outcomes
// must give the answers it gave the first time.
func (r *run) reuse(fams []family) {
	sup := r.supported(fams)
	for i := len(sup) - 1; i >= 0; i-- {
		f := sup[i]
		want, ok := r.first[f.name]
		if !ok {
			continue // already failed
		}
		name := "Optimal/reused " + f.name
		var res qp.Result
		err, ok := r.solve(name, context.Background(), f.p(), nil, &res)
		if !ok {
			continue
		}
		same := relDiff(res.X, want) <= xTol(r.tol)
		if f.anyX {
			same = math.Abs(objective(f.p(), res.X)-f.obj) <= 1e-8*(1+math.Abs(f.obj))
		}
		if err != nil || res.Status != linalg.Optimal || !same {
			r.failf(name, "err = %v, status %v, X = %v; first solve gave Optimal X = %v", err, res.Status, res.X, want)
		}
	}
}
