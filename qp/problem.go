package qp

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Problem is a dense convex quadratic program
//
//	minimize   1/2 xᵀHx + cᵀx
//	subject to Aeq x = Beq,  Ain x >= Bin,  Lower <= x <= Upper.
//
// H may be nil (a linear program). Any constraint block may be absent (nil).
// Lower and Upper may be nil (unbounded) and may hold ±Inf entries; a Lower[j]
// above Upper[j] is invalid input (an error), not an Infeasible status.
// H must be symmetric positive semidefinite; it may be singular.
type Problem struct {
	H            *mat.SymDense
	C            []float64
	Aeq          *mat.Dense
	Beq          []float64
	Ain          *mat.Dense
	Bin          []float64
	Lower, Upper []float64
}

// Settings configures a solver. The zero value selects every default; a
// negative, NaN or infinite value is invalid input (Solve returns an error
// wrapping ErrInvalid).
type Settings struct {
	// MaxIter bounds the number of iterations (phase 1 and phase 2 together).
	// Zero means 10·(n + number of constraints) + 100 (20000 for ADMM).
	MaxIter int
	// Tol is the relative feasibility tolerance used to accept a start point and to
	// decide infeasibility. Zero means 1e-9.
	Tol float64
	// PSDTol is the relative tolerance of the semidefiniteness check: H is accepted
	// when H + PSDTol·‖H‖_F·I has a Cholesky factorization, i.e. when no eigenvalue
	// is below about -PSDTol·‖H‖_F. Zero means 1e-10.
	PSDTol float64
	// SkipPSDCheck skips the O(n³) semidefiniteness check (use it only when H is
	// semidefinite by construction, e.g. a Gram matrix).
	SkipPSDCheck bool
}

// check reports a setting out of range: negative, NaN or infinite. (An infinite
// Tol, say, would accept any start point as feasible.)
func (s *Settings) check() error {
	if s == nil {
		return nil
	}
	switch {
	case s.MaxIter < 0:
		return invalidf("Settings.MaxIter = %d is negative", s.MaxIter)
	case !(s.Tol >= 0) || math.IsInf(s.Tol, 1):
		return invalidf("Settings.Tol = %v, want a finite value >= 0 (0 = default)", s.Tol)
	case !(s.PSDTol >= 0) || math.IsInf(s.PSDTol, 1):
		return invalidf("Settings.PSDTol = %v, want a finite value >= 0 (0 = default)", s.PSDTol)
	}
	return nil
}

func (s *Settings) resolve(n, m int) Settings {
	var r Settings
	if s != nil {
		r = *s
	}
	if r.MaxIter <= 0 {
		r.MaxIter = 10*(n+m) + 100
	}
	if !(r.Tol > 0) {
		r.Tol = 1e-9
	}
	if !(r.PSDTol > 0) {
		r.PSDTol = 1e-10
	}
	return r
}

// Status is the outcome of a solve.
type Status int

// Solver outcomes.
const (
	NotSolved        Status = iota // no solve has completed
	Optimal                        // KKT conditions hold to the working tolerances
	Infeasible                     // the constraints admit no point
	Unbounded                      // the objective decreases without bound on the feasible set
	IterationLimit                 // Settings.MaxIter reached; X is the last feasible iterate (if any)
	NumericalFailure               // a factorization broke down
)

var statusNames = [...]string{"NotSolved", "Optimal", "Infeasible", "Unbounded", "IterationLimit", "NumericalFailure"}

// String returns the name of the status.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// ErrInvalid is wrapped by every error caused by invalid input (shapes, NaN/Inf,
// parameters). Test with errors.Is.
var ErrInvalid = errors.New("qp: invalid input")

// ErrNotConvex is wrapped when H fails the semidefiniteness check.
var ErrNotConvex = errors.New("qp: H is not positive semidefinite")

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// KKT holds relative KKT residuals measured at a point; see Residuals.
type KKT struct {
	Stationarity    float64 // max_j |(Hx + c − Aeqᵀ·Eq − Ainᵀ·Ineq − Lower + Upper)_j| / (1 + largest term of that sum, Σ_k|H_jk x_k| for Hx)
	PrimalFeas      float64 // max_i violation_i / (1 + max(|b_i|, |a_iᵀx|))
	DualFeas        float64 // largest wrongly signed multiplier (or multiplier of an infinite bound) / (1 + largest multiplier)
	Complementarity float64 // max_i |λ_i·slack_i| / ((1 + |λ_i|)(1 + Σ_k |a_ik x_k| + |b_i|))
}

// Max returns the largest of the four residuals.
func (k KKT) Max() float64 {
	return math.Max(math.Max(k.Stationarity, k.PrimalFeas), math.Max(k.DualFeas, k.Complementarity))
}

// Start is an optional hot start.
type Start struct {
	// X is a start point; if it is feasible phase 1 is skipped.
	X []float64
	// Working lists constraint ids (see Result.Working) to try first as the working set;
	// only those active at the start point are used.
	Working []int
}

// Result is the outcome of a solve. Its slices are reused across solves.
//
// Multiplier signs: at an optimum
//
//	Hx + c = Aeqᵀ·Eq + Ainᵀ·Ineq + Lower − Upper,  Ineq, Lower, Upper >= 0,
//
// so Lower[j] (Upper[j]) is the multiplier of x_j >= Lower[j] (x_j <= Upper[j]).
//
// When the status is Infeasible X holds NaN; when Unbounded, X is the feasible
// point from which the unbounded ray starts and Ray the direction; when
// IterationLimit, X is the last (feasible) iterate or NaN if phase 1 did not finish.
type Result struct {
	X                      []float64
	Ray                    []float64
	Obj                    float64
	Eq, Ineq, Lower, Upper []float64
	Status                 Status
	Iter                   int // total iterations
	Phase1Iter             int // iterations spent finding a feasible point
	Polish                 int // ADMM only: iterations of the active-set finish (0 if not needed)
	KKT                    KKT
	// Working lists the ids of the final working set, usable as Start.Working:
	// equality i has id i, inequality i has id meq+i, the lower bound of x_j has
	// id meq+min+j and its upper bound id meq+min+n+j.
	Working []int
}

// Solver is implemented by every QP solver of the package. Solve validates p,
// solves it and writes the outcome to res. The returned error is non-nil only for
// invalid input (wrapping ErrInvalid or ErrNotConvex) or a cancelled ctx;
// solver outcomes such as infeasibility are reported in res.Status.
type Solver interface {
	Solve(ctx context.Context, p *Problem, start *Start, res *Result) error
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func growInt(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func fill(s []float64, v float64) {
	for i := range s {
		s[i] = v
	}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// dims validates shapes and values of p and returns n, meq, min.
func (p *Problem) dims() (n, meq, min int, err error) {
	if p == nil {
		return 0, 0, 0, invalidf("nil problem")
	}
	n = len(p.C)
	if n == 0 {
		return 0, 0, 0, invalidf("empty problem (len(C) = 0)")
	}
	for i, v := range p.C {
		if !finite(v) {
			return 0, 0, 0, invalidf("C[%d] = %v is not finite", i, v)
		}
	}
	if p.H != nil {
		if p.H.SymmetricDim() != n {
			return 0, 0, 0, invalidf("H is %d×%d, want %d×%d", p.H.SymmetricDim(), p.H.SymmetricDim(), n, n)
		}
		raw := p.H.RawSymmetric()
		for i := 0; i < n; i++ {
			for j, v := range raw.Data[i*raw.Stride+i : i*raw.Stride+n] {
				if !finite(v) {
					return 0, 0, 0, invalidf("H[%d,%d] is not finite", i, i+j)
				}
			}
		}
	}
	check := func(name string, a *mat.Dense, b []float64) (int, error) {
		if a == nil {
			if len(b) != 0 {
				return 0, invalidf("%s is nil but its right-hand side has %d entries", name, len(b))
			}
			return 0, nil
		}
		r, c := a.Dims()
		if c != n {
			return 0, invalidf("%s has %d columns, want %d", name, c, n)
		}
		if len(b) != r {
			return 0, invalidf("%s has %d rows but its right-hand side has %d entries", name, r, len(b))
		}
		for i := 0; i < r; i++ {
			if !finite(b[i]) {
				return 0, invalidf("%s right-hand side [%d] is not finite", name, i)
			}
			for j, v := range a.RawRowView(i) {
				if !finite(v) {
					return 0, invalidf("%s[%d,%d] is not finite", name, i, j)
				}
			}
		}
		return r, nil
	}
	if meq, err = check("Aeq", p.Aeq, p.Beq); err != nil {
		return
	}
	if min, err = check("Ain", p.Ain, p.Bin); err != nil {
		return
	}
	if p.Lower != nil && len(p.Lower) != n {
		return 0, 0, 0, invalidf("len(Lower) = %d, want %d", len(p.Lower), n)
	}
	if p.Upper != nil && len(p.Upper) != n {
		return 0, 0, 0, invalidf("len(Upper) = %d, want %d", len(p.Upper), n)
	}
	for j := 0; j < n; j++ {
		l, u := p.lo(j), p.up(j)
		if math.IsNaN(l) || math.IsNaN(u) || math.IsInf(l, 1) || math.IsInf(u, -1) {
			return 0, 0, 0, invalidf("bounds of x[%d] are [%v, %v]", j, l, u)
		}
		if l > u {
			// crossing bounds: every solver used to report its own status
			// (NumericalFailure with an infeasible X, or Infeasible)
			return 0, 0, 0, invalidf("bounds of x[%d] cross: lower %v > upper %v", j, l, u)
		}
	}
	return n, meq, min, nil
}

func (p *Problem) lo(j int) float64 {
	if p.Lower == nil {
		return math.Inf(-1)
	}
	return p.Lower[j]
}

func (p *Problem) up(j int) float64 {
	if p.Upper == nil {
		return math.Inf(1)
	}
	return p.Upper[j]
}

// checkPSD reports whether H + tol·‖H‖_F·I admits a Cholesky factorization,
// using work (len >= n²) as scratch.
func checkPSD(h *mat.SymDense, tol float64, work []float64) error {
	if h == nil {
		return nil
	}
	n := h.SymmetricDim()
	raw := h.RawSymmetric()
	fro := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := raw.Data[i*raw.Stride+j]
			if j < i {
				v = raw.Data[j*raw.Stride+i]
			}
			work[i*n+j] = v
			fro += v * v
		}
	}
	fro = math.Sqrt(fro)
	if fro == 0 {
		return nil
	}
	shift := tol * fro
	for i := 0; i < n; i++ {
		work[i*n+i] += shift
	}
	if ok := cholUpper(work, n); !ok {
		return fmt.Errorf("%w (an eigenvalue is below -%.1e·‖H‖_F)", ErrNotConvex, tol)
	}
	return nil
}

// Residuals measures the relative KKT residuals of (x, multipliers) for p, with the
// sign convention of Result. Nil multiplier slices count as zero. It is the oracle
// the tests use and works for any solver's output.
func Residuals(p *Problem, x, eq, ineq, lower, upper []float64) (KKT, error) {
	n, meq, min, err := p.dims()
	if err != nil {
		return KKT{}, err
	}
	return residuals(p, n, meq, min, x, eq, ineq, lower, upper, make([]float64, n), make([]float64, n))
}

// residuals is Residuals on a validated problem with caller-provided scratch r and scale.
func residuals(p *Problem, n, meq, min int, x, eq, ineq, lower, upper, r, scale []float64) (KKT, error) {
	if len(x) != n {
		return KKT{}, invalidf("len(x) = %d, want %d", len(x), n)
	}
	get := func(s []float64, i int) float64 {
		if s == nil {
			return 0
		}
		return s[i]
	}
	if (eq != nil && len(eq) != meq) || (ineq != nil && len(ineq) != min) ||
		(lower != nil && len(lower) != n) || (upper != nil && len(upper) != n) {
		return KKT{}, invalidf("multiplier lengths do not match the problem")
	}
	for _, v := range x {
		if !finite(v) {
			inf := math.Inf(1)
			return KKT{inf, inf, inf, inf}, nil
		}
	}
	var k KKT
	for j := 0; j < n; j++ {
		r[j] = p.C[j]
		scale[j] = math.Abs(p.C[j])
	}
	if p.H != nil {
		// r holds c; scale holds |c|; add Hx using the upper triangle
		raw := p.H.RawSymmetric()
		for i := 0; i < n; i++ {
			s, sa := 0.0, 0.0
			row := raw.Data[i*raw.Stride : i*raw.Stride+n]
			for j := 0; j < i; j++ {
				t := raw.Data[j*raw.Stride+i] * x[j]
				s += t
				sa += math.Abs(t)
			}
			for j := i; j < n; j++ {
				t := row[j] * x[j]
				s += t
				sa += math.Abs(t)
			}
			r[i] += s
			scale[i] = fmax(scale[i], sa)
		}
	}
	maxMult := 0.0
	row := func(a *mat.Dense, b []float64, m int, mult []float64, isEq bool) {
		for i := 0; i < m; i++ {
			ax := 0.0
			lam := get(mult, i)
			arow := a.RawRowView(i)
			axa := 0.0
			for j := 0; j < n; j++ {
				aij := arow[j]
				if aij == 0 {
					continue // no contribution (sparse rows such as the SKL decay rows)
				}
				ax += aij * x[j]
				axa += math.Abs(aij * x[j])
				r[j] -= aij * lam
				scale[j] = fmax(scale[j], math.Abs(aij*lam))
			}
			rs := ax - b[i]
			// the computed row value, not Σ|a_ik x_k|: a huge x whose row sums
			// cancel must not make a violation look small
			den := 1 + fmax(math.Abs(b[i]), math.Abs(ax))
			if isEq {
				k.PrimalFeas = fmax(k.PrimalFeas, math.Abs(rs)/den)
			} else {
				k.PrimalFeas = fmax(k.PrimalFeas, fmax(0, -rs)/den)
				maxMult = fmax(maxMult, math.Abs(lam))
				k.Complementarity = fmax(k.Complementarity, math.Abs(lam*rs)/((1+math.Abs(lam))*(1+axa+math.Abs(b[i]))))
			}
		}
	}
	if meq > 0 {
		row(p.Aeq, p.Beq, meq, eq, true)
	}
	if min > 0 {
		row(p.Ain, p.Bin, min, ineq, false)
	}
	dual := 0.0
	for j := 0; j < n; j++ {
		for side := 0; side < 2; side++ {
			var lam, bnd, slack float64
			if side == 0 {
				lam, bnd = get(lower, j), p.lo(j)
				r[j] -= lam
				slack = x[j] - bnd
			} else {
				lam, bnd = get(upper, j), p.up(j)
				r[j] += lam
				slack = bnd - x[j]
			}
			scale[j] = fmax(scale[j], math.Abs(lam))
			maxMult = fmax(maxMult, math.Abs(lam))
			if math.IsInf(bnd, 0) {
				dual = fmax(dual, math.Abs(lam))
				continue
			}
			k.PrimalFeas = fmax(k.PrimalFeas, fmax(0, -slack)/(1+math.Abs(bnd)))
			k.Complementarity = fmax(k.Complementarity, math.Abs(lam*slack)/((1+math.Abs(lam))*(1+math.Abs(x[j])+math.Abs(bnd))))
			dual = fmax(dual, -lam)
		}
	}
	for i := 0; i < min; i++ {
		dual = fmax(dual, -get(ineq, i))
	}
	k.DualFeas = fmax(0, dual) / (1 + maxMult)
	for j := 0; j < n; j++ {
		k.Stationarity = fmax(k.Stationarity, math.Abs(r[j])/(1+scale[j]))
	}
	return k, nil
}

// objective returns 1/2 xᵀHx + cᵀx.
func objective(p *Problem, x, hx []float64) float64 {
	n := len(x)
	s := 0.0
	if p.H != nil {
		blas64.Symv(1, p.H.RawSymmetric(), blas64.Vector{N: n, Data: x, Inc: 1}, 0, blas64.Vector{N: n, Data: hx, Inc: 1})
		for i := range x {
			s += 0.5 * x[i] * hx[i]
		}
	}
	for i := range x {
		s += p.C[i] * x[i]
	}
	return s
}

// optimalGuard is the relative KKT residual above which a solver that believes it
// has converged reports NumericalFailure instead of Optimal, so that Optimal is
// never attached to a point that fails the KKT check.
const optimalGuard = 1e-6

// fmax is max for non-NaN operands, cheaper than math.Max in inner loops.
func fmax(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

// cholUpper overwrites the upper triangle of the row-major n×n matrix a with its
// Cholesky factor R (a = RᵀR) and reports whether a is positive definite. It is
// a right-looking unblocked factorisation: unlike LAPACK's blocked Dpotrf (whose
// parallel matrix products allocate) it never allocates.
func cholUpper(a []float64, n int) bool {
	for k := 0; k < n; k++ {
		d := a[k*n+k]
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		a[k*n+k] = d
		rk := a[k*n+k+1 : k*n+n]
		for j := range rk {
			rk[j] /= d
		}
		for i := k + 1; i < n; i++ {
			f := a[k*n+i]
			if f == 0 {
				continue
			}
			ri := a[i*n+i : i*n+n]
			for j := range ri {
				ri[j] -= f * rk[i-k-1+j]
			}
		}
	}
	return true
}

// dot returns the inner product of a and b (len(b) >= len(a)).
func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// checkSolve validates the arguments every general solver's Solve needs, in
// this order: a context, a well-formed problem and a result to write; it
// returns the problem's sizes.
func checkSolve(ctx context.Context, p *Problem, res *Result) (n, meq, min int, err error) {
	if ctx == nil {
		return 0, 0, 0, invalidf("nil context")
	}
	if n, meq, min, err = p.dims(); err != nil {
		return 0, 0, 0, err
	}
	if res == nil {
		return 0, 0, 0, invalidf("nil result")
	}
	return n, meq, min, nil
}
