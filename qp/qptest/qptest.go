package qptest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/qp"
)

// DefaultTol is the relative KKT tolerance an Optimal answer must meet when
// Capabilities.Tol is zero (qp.DefaultTol, the tolerance of package qp).
const DefaultTol = qp.DefaultTol

// Capabilities says what a solver does not support. The zero value describes
// a general convex QP solver: equality rows, inequality rows and bounds, a
// semidefinite or nil H, infeasibility proved (status Infeasible with a
// Farkas certificate in Result.Farkas) and unboundedness certified (status
// Unbounded with a ray), and warm starts.
// A problem outside what the capabilities allow must be refused with an error
// wrapping linalg.ErrInvalid.
type Capabilities struct {
	// NoEqualities: problems with equality rows (Aeq) are refused.
	NoEqualities bool
	// NoInequalities: problems with inequality rows (Ain) are refused.
	NoInequalities bool
	// NoBounds: problems with bounds (Lower or Upper) are refused.
	NoBounds bool
	// PositiveDefinite: H must be positive definite; a nil or singular H is
	// refused with an error wrapping linalg.ErrNotPSD. (Such a solver never
	// meets an unbounded problem.)
	PositiveDefinite bool
	// NoInfeasibility: infeasibility need not be proved; on an infeasible
	// problem any status but Optimal is accepted.
	NoInfeasibility bool
	// NoCertificate: an Infeasible result need not carry a certificate
	// (qp.Result.Farkas is not checked, X must still be NaN).
	NoCertificate bool
	// NoUnboundedness: unboundedness need not be certified; on an unbounded
	// problem any status but Optimal is accepted.
	NoUnboundedness bool
	// IgnoresStart: the solver ignores qp.Start, so a malformed start is not
	// an error.
	IgnoresStart bool
	// Tol is the relative KKT tolerance of an Optimal answer, measured with
	// qp.Residuals; zero means DefaultTol.
	Tol float64
}

// TestSolver runs the suite (see the package documentation) on s, which
// supports what c says, and reports every failure with t.Error. s is used
// for all the problems in turn, as a caller reusing one solver would.
func TestSolver(t *testing.T, s qp.Solver, c Capabilities) {
	t.Helper()
	for _, f := range Check(s, c) {
		t.Error(f)
	}
}

// Check runs the suite on s and returns its failures, one line each, starting
// with the name of the problem family ("Optimal/box: ..."); none means s
// passes. A panic inside s is caught and reported as a failure.
func Check(s qp.Solver, c Capabilities) []string {
	r := &run{s: s, c: c, tol: c.Tol}
	if !(r.tol > 0) {
		r.tol = DefaultTol
	}
	fams := families()
	for _, f := range fams {
		r.family(f)
	}
	r.canceled(fams)
	r.invalid(fams[0])
	r.reuse(fams)
	return r.fails
}

// run holds the state of one Check.
type run struct {
	s     qp.Solver
	c     Capabilities
	tol   float64
	fails []string
	first map[string][]float64 // first Optimal X of each family
}

func (r *run) failf(name, format string, args ...any) {
	r.fails = append(r.fails, name+": "+fmt.Sprintf(format, args...))
}

// solve calls s.Solve, turning a panic into a failure (ok = false).
func (r *run) solve(name string, ctx context.Context, p *qp.Problem, start *qp.Start, res *qp.Result) (err error, ok bool) {
	defer func() {
		if v := recover(); v != nil {
			r.failf(name, "Solve panicked: %v", v)
			ok = false
		}
	}()
	return r.s.Solve(ctx, p, start, res), true
}

// refusal returns the error kind with which s must refuse p, or nil if it
// must solve it.
func (c Capabilities) refusal(p *qp.Problem, semidefinite bool) error {
	switch {
	case c.NoEqualities && p.Aeq != nil,
		c.NoInequalities && p.Ain != nil,
		c.NoBounds && (p.Lower != nil || p.Upper != nil):
		return linalg.ErrInvalid
	case c.PositiveDefinite && semidefinite:
		return linalg.ErrNotPSD
	}
	return nil
}

// family solves one problem and checks the outcome its family names.
func (r *run) family(f family) {
	p := f.p()
	orig := clone(p)
	var res qp.Result
	err, ok := r.solve(f.name, context.Background(), p, nil, &res)
	if !ok {
		return
	}
	if !same(p, orig) {
		r.failf(f.name, "Solve modified the problem")
	}
	if kind := r.c.refusal(p, f.semidefinite); kind != nil {
		if !errors.Is(err, kind) {
			r.failf(f.name, "err = %v (status %v), want an error wrapping %v: the capabilities exclude this problem", err, res.Status, kind)
		}
		return
	}
	if err != nil {
		r.failf(f.name, "unexpected error: %v", err)
		return
	}
	switch f.want {
	case linalg.Optimal:
		if r.optimal(f, p, &res) {
			r.warm(f, p, &res)
		}
	case linalg.Infeasible:
		switch {
		case res.Status == linalg.Infeasible:
			r.noPoint(f.name, p, &res)
			if !r.c.NoCertificate {
				r.certificate(f.name, p, &res)
			}
		case res.Status == linalg.Optimal || !r.c.NoInfeasibility:
			r.failf(f.name, "status %v, want Infeasible (X = %v)", res.Status, res.X)
		}
	case linalg.Unbounded:
		switch {
		case res.Status == linalg.Unbounded:
			r.ray(f.name, p, &res)
		case res.Status == linalg.Optimal || !r.c.NoUnboundedness:
			r.failf(f.name, "status %v, want Unbounded (X = %v)", res.Status, res.X)
		}
	}
}

// optimal checks an answer that must be the known optimum: status, lengths,
// KKT residuals measured by qp.Residuals, the point, the objective and the
// working set. It reports whether the answer passed.
func (r *run) optimal(f family, p *qp.Problem, res *qp.Result) bool {
	n0 := len(r.fails)
	if res.Status != linalg.Optimal {
		r.failf(f.name, "status %v, want Optimal (KKT %+v)", res.Status, res.KKT)
		return false
	}
	n, meq, min := dims(p)
	if len(res.X) != n || len(res.Eq) != meq || len(res.Ineq) != min || len(res.Lower) != n || len(res.Upper) != n {
		r.failf(f.name, "result lengths X %d Eq %d Ineq %d Lower %d Upper %d, want %d %d %d %d %d",
			len(res.X), len(res.Eq), len(res.Ineq), len(res.Lower), len(res.Upper), n, meq, min, n, n)
		return false
	}
	kkt, err := qp.Residuals(p, res.X, res.Eq, res.Ineq, res.Lower, res.Upper)
	if err != nil {
		r.failf(f.name, "qp.Residuals: %v", err)
		return false
	}
	if kkt.Max() > r.tol {
		r.failf(f.name, "KKT residuals %+v above %.1e", kkt, r.tol)
	}
	if res.KKT.Max() > r.tol {
		r.failf(f.name, "reported KKT residuals %+v above %.1e", res.KKT, r.tol)
	}
	if d := relDiff(res.X, f.x); !f.anyX && d > xTol(r.tol) {
		r.failf(f.name, "X = %v, want %v (relative difference %.1e)", res.X, f.x, d)
	}
	if obj := objective(p, res.X); math.Abs(res.Obj-obj) > 1e-9*(1+math.Abs(obj)) {
		r.failf(f.name, "Obj = %v, but the objective at X is %v", res.Obj, obj)
	}
	if math.Abs(res.Obj-f.obj) > 1e-8*(1+math.Abs(f.obj)) {
		r.failf(f.name, "Obj = %v, want the optimal value %v", res.Obj, f.obj)
	}
	seen := map[int]bool{}
	for _, id := range res.Working {
		if id < 0 || id >= meq+min+2*n || seen[id] {
			r.failf(f.name, "Working = %v: id %d out of [0, %d) or repeated", res.Working, id, meq+min+2*n)
			break
		}
		seen[id] = true
	}
	if r.first == nil {
		r.first = map[string][]float64{}
	}
	if _, ok := r.first[f.name]; !ok {
		r.first[f.name] = slices.Clone(res.X)
	}
	return len(r.fails) == n0
}

// xTol is the relative distance from the known optimum allowed to X: the
// problems are well conditioned, so a KKT point within tol is this close.
func xTol(tol float64) float64 { return math.Max(1e-7, 100*tol) }

// warm re-solves p from its own answer, the start aliasing the result as a
// caller re-solving in a loop would, and checks that the optimum comes back.
func (r *run) warm(f family, p *qp.Problem, res *qp.Result) {
	name := f.name + " (warm start)"
	err, ok := r.solve(name, context.Background(), p, &qp.Start{X: res.X, Working: res.Working}, res)
	if !ok {
		return
	}
	if err != nil {
		r.failf(name, "unexpected error: %v", err)
		return
	}
	if res.Status != linalg.Optimal {
		r.failf(name, "status %v, want Optimal", res.Status)
		return
	}
	if d := relDiff(res.X, f.x); !f.anyX && d > xTol(r.tol) {
		r.failf(name, "X = %v, want %v", res.X, f.x)
	}
	if obj := objective(p, res.X); f.anyX && math.Abs(obj-f.obj) > 1e-8*(1+math.Abs(f.obj)) {
		r.failf(name, "objective %v, want the optimal value %v", obj, f.obj)
	}
	if kkt, err := qp.Residuals(p, res.X, res.Eq, res.Ineq, res.Lower, res.Upper); err != nil || kkt.Max() > r.tol {
		r.failf(name, "KKT residuals %+v (%v) above %.1e", kkt, err, r.tol)
	}
}

// noPoint checks that an Infeasible result carries no point.
func (r *run) noPoint(name string, p *qp.Problem, res *qp.Result) {
	n, _, _ := dims(p)
	if len(res.X) != n {
		r.failf(name, "Infeasible with len(X) = %d, want %d NaN", len(res.X), n)
		return
	}
	for _, v := range res.X {
		if !math.IsNaN(v) {
			r.failf(name, "Infeasible but X = %v, want NaN", res.X)
			return
		}
	}
}

// ray checks the certificate of an Unbounded result: X feasible, and Ray a
// direction d with Hd = 0 and gᵀd < 0 that every constraint admits (Aeq d = 0,
// Ain d >= 0, d_j >= 0 at a finite lower bound, d_j <= 0 at a finite upper
// one), all relative to ‖d‖∞.
func (r *run) ray(name string, p *qp.Problem, res *qp.Result) {
	n, meq, min := dims(p)
	if len(res.X) != n || len(res.Ray) != n {
		r.failf(name, "Unbounded with len(X) = %d, len(Ray) = %d, want %d", len(res.X), len(res.Ray), n)
		return
	}
	if kkt, err := qp.Residuals(p, res.X, nil, nil, nil, nil); err != nil || kkt.PrimalFeas > r.tol {
		r.failf(name, "Unbounded from an infeasible X = %v (primal residual %.1e, %v)", res.X, kkt.PrimalFeas, err)
	}
	dmax := 0.0
	for _, v := range res.Ray {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			r.failf(name, "Ray = %v is not finite", res.Ray)
			return
		}
		dmax = math.Max(dmax, math.Abs(v))
	}
	if dmax == 0 {
		r.failf(name, "Ray is zero")
		return
	}
	d := make([]float64, n)
	for j, v := range res.Ray {
		d[j] = v / dmax
	}
	const tol = 1e-8 // relative to the data, which are O(1) in every family
	if p.H != nil {
		var hd mat.VecDense
		hd.MulVec(p.H, mat.NewVecDense(n, d))
		if v := mat.Norm(&hd, math.Inf(1)); v > tol*(1+mat.Norm(p.H, math.Inf(1))) {
			r.failf(name, "Ray %v has curvature: ‖H·d‖∞ = %.1e", res.Ray, v)
		}
	}
	if s := dot(p.G, d); s >= -tol {
		r.failf(name, "Ray %v is not a descent direction: gᵀd = %.1e", res.Ray, s)
	}
	for i := 0; i < meq; i++ {
		if v := dot(p.Aeq.RawRowView(i), d); math.Abs(v) > tol {
			r.failf(name, "Ray %v leaves equality %d: aᵀd = %.1e", res.Ray, i, v)
		}
	}
	for i := 0; i < min; i++ {
		if v := dot(p.Ain.RawRowView(i), d); v < -tol {
			r.failf(name, "Ray %v leaves inequality %d: aᵀd = %.1e", res.Ray, i, v)
		}
	}
	for j, v := range d {
		if p.Lower != nil && !math.IsInf(p.Lower[j], -1) && v < -tol {
			r.failf(name, "Ray %v leaves the lower bound of x[%d]", res.Ray, j)
		}
		if p.Upper != nil && !math.IsInf(p.Upper[j], 1) && v > tol {
			r.failf(name, "Ray %v leaves the upper bound of x[%d]", res.Ray, j)
		}
	}
}
