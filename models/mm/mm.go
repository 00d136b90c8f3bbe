package mm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/models/spectral"
	"ukm/models/svm"
)

// Defaults used when the corresponding Settings field is zero.
const (
	// DefaultW is the decay factor w (the default decay of the SKL design).
	DefaultW = 2.0
	// DefaultC is the SVM box bound of the max-margin paper's experiments.
	DefaultC = 100.0
	// DefaultTol is the relative duality gap at which Learn stops.
	DefaultTol = 1e-4
	// DefaultMaxIter bounds the outer (spectral projected gradient)
	// iterations.
	DefaultMaxIter = 1000
	// DefaultInnerTol is the SMO tolerance of the inner SVM solves (maximal
	// KKT violation, in the units of the SVM dual gradient).
	DefaultInnerTol = 1e-9
)

// Line-search and step-length constants of the spectral projected gradient
// method: the sufficient-decrease fraction and the step-length bounds are
// those of Birgin, Martínez and Raydan (2000); 40 backtracking steps shrink
// the step by at least 2^40, far below any useful change of theta.
const (
	armijo       = 1e-4
	maxBacktrack = 40
	lambdaMin    = 1e-30
	lambdaMax    = 1e30
)

// Sentinel errors. Every input error wraps ErrInput and one of the more
// specific input sentinels.
var (
	// ErrInput is wrapped by every error caused by invalid arguments.
	ErrInput = errors.New("mm: invalid input")
	// ErrSettings reports an invalid setting (w < 1, a negative trace or C,
	// a negative or non-finite tolerance or iteration limit).
	ErrSettings = errors.New("mm: invalid settings")
	// ErrBasis reports an empty basis, NaN/Inf entries or a zero column.
	ErrBasis = errors.New("mm: invalid basis")
	// ErrLabels reports labels that are not -1/+1, a missing class, a
	// length mismatch, or a target entry that is zero or not finite.
	ErrLabels = errors.New("mm: invalid labels")
	// ErrIndex reports labeled indices out of range, repeated, or none.
	ErrIndex = errors.New("mm: invalid labeled indices")
	// ErrIterationLimit: MaxIter outer iterations were done before the
	// relative gap fell below Tol. The Result holds the best point found.
	ErrIterationLimit = errors.New("mm: iteration limit reached")
	// ErrStalled: the line search could not decrease the objective (or the
	// projected step vanished) while the gap is still above Tol, usually
	// because Tol is below what the inner SVM accuracy supports. The Result
	// holds the best point found.
	ErrStalled = errors.New("mm: no further progress")
	// ErrInner: an inner SVM solve failed (its iteration limit).
	ErrInner = errors.New("mm: inner SVM solve failed")
)

// inputError is an input error of a given kind: its text is the kind's
// followed by the details, and it wraps both ErrInput and the kind.
type inputError struct {
	kind error
	msg  string
}

func (e *inputError) Error() string   { return e.kind.Error() + ": " + e.msg }
func (e *inputError) Unwrap() []error { return []error{ErrInput, e.kind} }

func inputf(kind error, format string, args ...any) error {
	return &inputError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// Settings configures Learn. The zero value means the defaults.
type Settings struct {
	// W is the decay factor w >= 1 of the cone mu_i >= w mu_{i+1}. Zero
	// means DefaultW (2); W = 1 is the order constraint.
	W float64
	// Trace is delta = trace(Kbar) = sum_i mu_i ||phi_i||². Zero means n,
	// so that sum(mu) = n for an orthonormal basis, like every design of
	// package spectral.
	Trace float64
	// C is the SVM box bound. Zero means DefaultC (100).
	C float64
	// Tol is the relative duality gap (Upper - Lower) / Upper at which the
	// method stops. Zero means DefaultTol (1e-4). It should stay well above
	// the error of the inner solves (about 2 C l InnerTol relative to J).
	Tol float64
	// MaxIter bounds the outer iterations. Zero means DefaultMaxIter.
	MaxIter int
	// InnerTol is the SMO tolerance of the inner SVM solves. Zero means
	// DefaultInnerTol (1e-9).
	InnerTol float64
	// InnerMaxIter bounds the SMO iterations of one inner solve. Zero means
	// the svm package default.
	InnerMaxIter int
}

// resolve validates s and fills in the defaults for a basis of n rows.
func (s *Settings) resolve(n int) (Settings, error) {
	var r Settings
	if s != nil {
		r = *s
	}
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	switch {
	case bad(r.W) || (r.W != 0 && r.W < 1):
		return r, inputf(ErrSettings, "decay factor W = %v, want a finite w >= 1 (0 for the default %v)", r.W, DefaultW)
	case bad(r.Trace) || r.Trace < 0:
		return r, inputf(ErrSettings, "Trace = %v, want a finite trace > 0 (0 for n)", r.Trace)
	case bad(r.C) || r.C < 0:
		return r, inputf(ErrSettings, "C = %v, want a finite C > 0 (0 for the default %v)", r.C, DefaultC)
	case bad(r.Tol) || r.Tol < 0:
		return r, inputf(ErrSettings, "Tol = %v, want a finite Tol >= 0", r.Tol)
	case bad(r.InnerTol) || r.InnerTol < 0:
		return r, inputf(ErrSettings, "InnerTol = %v, want a finite InnerTol >= 0", r.InnerTol)
	case r.MaxIter < 0:
		return r, inputf(ErrSettings, "MaxIter = %d, want >= 0", r.MaxIter)
	case r.InnerMaxIter < 0:
		return r, inputf(ErrSettings, "InnerMaxIter = %d, want >= 0", r.InnerMaxIter)
	}
	if r.W == 0 {
		r.W = DefaultW
	}
	if r.Trace == 0 {
		r.Trace = float64(n)
	}
	if r.C == 0 {
		r.C = DefaultC
	}
	if r.Tol == 0 {
		r.Tol = DefaultTol
	}
	if r.MaxIter == 0 {
		r.MaxIter = DefaultMaxIter
	}
	if r.InnerTol == 0 {
		r.InnerTol = DefaultInnerTol
	}
	return r, nil
}

// Status is the outcome of Learn.
type Status int

// Outcomes of Learn.
const (
	// NotRun: nothing was learned (the zero value).
	NotRun Status = iota
	// Converged: the relative duality gap is at most Tol.
	Converged
	// IterationLimit: MaxIter outer iterations were done.
	IterationLimit
	// Stalled: no decrease was found while the gap exceeds Tol.
	Stalled
	// Cancelled: the context was cancelled.
	Cancelled
	// InnerFailure: an inner SVM solve failed.
	InnerFailure
)

// String describes the status, for example "converged".
func (s Status) String() string {
	switch s {
	case NotRun:
		return "not run"
	case Converged:
		return "converged"
	case IterationLimit:
		return "iteration limit"
	case Stalled:
		return "stalled"
	case Cancelled:
		return "cancelled"
	case InnerFailure:
		return "inner failure"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is the outcome of Learn: the best point found, with status and
// statistics even when the method did not converge.
type Result struct {
	// Mu holds the spectral coefficients (length q), with
	// sum_i Mu_i ||phi_i||² = Trace.
	Mu []float64
	// Theta holds the weights of the q extreme rays of the cone (the
	// simplex coordinates the method works in; see the package doc).
	Theta []float64
	// Problems is the number P of binary problems: 1 for Learn, the
	// number of label vectors for LearnSum.
	Problems int
	// Alpha holds the SVM dual variables of the labeled points, l per
	// problem: problem p in Alpha[p*l : (p+1)*l] (0 <= Alpha_j <= C,
	// sum_j y_j Alpha_j = 0). For Learn it has length l.
	Alpha []float64
	// Bias holds the SVM bias b of each problem (eq. 15 of the paper sets
	// b = 0; Decision adds it).
	Bias []float64
	// Coef holds, for problem p in Coef[p*q : (p+1)*q], the values
	// Mu_i sum_j Alpha_j y_j phi_i(x_j), so that the decision value of basis
	// row r is sum_i V[r,i] Coef_i + Bias[p].
	Coef []float64
	// Objective is J(Mu) = 2 sum(Alpha) - Alpha^T D(y) Kbar_ll D(y) Alpha,
	// the SVM dual optimum at Mu (twice the svm package's Model.Dual),
	// summed over the problems.
	Objective float64
	// Upper is the SVM primal value ||w||² + 2 C sum_j xi_j at Mu (with
	// the inner solution's w and b), summed over the problems: an upper
	// bound on J(Mu).
	Upper float64
	// Lower is the best lower bound on min J over the cone seen so far:
	// max over the visited Alpha of 2 sum(Alpha) - max over the extreme
	// rays of the ray's term (both summed over the problems).
	Lower float64
	// Gap is the relative duality gap (Upper - Lower) / Upper: Objective
	// is within Gap·Upper of the optimum (up to rounding).
	Gap float64
	// History holds the objective at the start and after every outer
	// iteration; it is strictly decreasing.
	History []float64
	// Iterations counts outer iterations; Evaluations counts inner SVM
	// solves (line-search trials included); SMOIterations sums their SMO
	// pair updates.
	Iterations, Evaluations, SMOIterations int
	// Status is the outcome.
	Status Status
}

// Decision writes the decision values f_p = sum_j y_j Alpha_j Kbar(x_j, .) +
// Bias[p] (eq. 15 of the paper, with the SVM bias) of all n rows of the
// basis b into dst (grown if needed) and returns it: n x P row-major, the
// value of row r for problem p at dst[r*P+p] (just n values for Learn). b
// must be the basis r was learned on (only its shape can be checked).
func (r *Result) Decision(dst []float64, b *spectral.Basis) ([]float64, error) {
	if r == nil || r.Problems == 0 || len(r.Bias) != r.Problems || len(r.Coef)%r.Problems != 0 || len(r.Coef) == 0 {
		return dst, fmt.Errorf("%w: result holds no learned model", ErrInput)
	}
	n, d := b.Dims()
	if n == 0 {
		return dst, inputf(ErrBasis, "empty basis")
	}
	np := r.Problems
	if q := len(r.Coef) / np; d != q {
		return dst, inputf(ErrBasis, "basis has %d vectors, result was learned on %d", d, q)
	}
	dst = grow(dst, n*np)
	for i := 0; i < n; i++ {
		row := b.V.RawRowView(i)
		for p := 0; p < np; p++ {
			s := r.Bias[p]
			for k, c := range r.Coef[p*d : (p+1)*d] {
				s += row[k] * c
			}
			if math.IsNaN(s) || math.IsInf(s, 0) {
				return dst, inputf(ErrBasis, "decision value of row %d is %v (non-finite basis row?)", i, s)
			}
			dst[i*np+p] = s
		}
	}
	return dst, nil
}

// point is one evaluation of J: the ray weights, the coefficients, the SVM
// solution of every problem, z = Vl^T (alpha∘y) per problem (P x q), and
// the per-ray terms a_k = sum_p alpha_p^T G_p(K_k) alpha_p (minus the
// gradient of J in theta).
type point struct {
	theta, mu, z, a []float64
	j, lower, upper float64
	m               []svm.Model
}

func (p *point) resize(q, np int) {
	p.theta = grow(p.theta, q)
	p.mu = grow(p.mu, q)
	p.z = grow(p.z, q*np)
	p.a = grow(p.a, q)
	if cap(p.m) < np {
		p.m = append(p.m[:cap(p.m)], make([]svm.Model, np-cap(p.m))...)
	}
	p.m = p.m[:np]
}

// Learner runs Learn with a reusable workspace: after the first call with a
// given shape, Learn does not allocate. A Learner is not safe for
// concurrent use.
type Learner struct {
	// Settings used by Learn.
	Settings Settings

	s      Settings
	n, q   int
	np     int       // number of problems P
	y      []float64 // P x l labels
	vl     mat.Dense // l x q labeled rows of the basis
	vs     mat.Dense // l x q rows scaled by sqrt(mu)
	kern   mat.Dense // l x l kernel block
	t      []float64 // column norms ||phi_i||²
	c      []float64 // q x q ray coefficients, row k = mu of ray k
	seen   []bool
	p0, p1 point
	dir    []float64
	tmp    []float64 // projection input and sort scratch (2q)
	coef   []float64 // P x q
	solver svm.Solver
}

// Learn learns the max-margin spectral coefficients with a new Learner;
// see Learner.Learn. On an input error the Result is nil; on a numerical
// failure (iteration limit, stall, cancellation) it holds the best point
// found and the error says why.
func Learn(ctx context.Context, b *spectral.Basis, labeled []int, y []float64, s *Settings) (*Result, error) {
	return LearnSum(ctx, b, labeled, [][]float64{y}, s)
}

// LearnSum learns one mu shared by several binary problems on the same
// labeled points with a new Learner; see Learner.LearnSum.
func LearnSum(ctx context.Context, b *spectral.Basis, labeled []int, ys [][]float64, s *Settings) (*Result, error) {
	var lr Learner
	if s != nil {
		lr.Settings = *s
	}
	res := &Result{}
	err := lr.LearnSum(ctx, res, b, labeled, ys)
	if res.Status == NotRun {
		return nil, err
	}
	return res, err
}

// OneVsAll returns the one-versus-all label vectors of class labels in
// 0..classes-1 (every class present): for classes > 2, vector c is +1 where
// the label is c and -1 elsewhere; for two classes a single vector, +1 for
// class 1 (as spectral.Target). Errors wrap ErrLabels.
func OneVsAll(labels []int, classes int) ([][]float64, error) {
	if classes < 2 {
		return nil, inputf(ErrLabels, "%d classes, want at least 2", classes)
	}
	if classes > len(labels) {
		return nil, inputf(ErrLabels, "%d classes but only %d labels (every class needs one)", classes, len(labels))
	}
	count := make([]int, classes)
	for i, c := range labels {
		if c < 0 || c >= classes {
			return nil, inputf(ErrLabels, "label %d of point %d outside [0,%d)", c, i, classes)
		}
		count[c]++
	}
	for c, k := range count {
		if k == 0 {
			return nil, inputf(ErrLabels, "class %d has no labeled point", c)
		}
	}
	first := 0
	if classes == 2 {
		first = 1
	}
	ys := make([][]float64, 0, classes-first)
	for c := first; c < classes; c++ {
		y := make([]float64, len(labels))
		for i, v := range labels {
			y[i] = -1
			if v == c {
				y[i] = 1
			}
		}
		ys = append(ys, y)
	}
	return ys, nil
}

// Learn minimises J(mu), the SVM dual optimum on the labeled block, over the
// fast-decay cone with fixed trace, and writes the outcome into res (reusing
// its slices). labeled indexes the rows of b.V with labels y (-1 or +1, both
// present).
//
// The error is nil only when res.Status is Converged. Input errors wrap
// ErrInput and leave res unchanged; ErrIterationLimit, ErrStalled, ErrInner
// and a cancelled context (the error wraps ctx.Err()) come with the best
// point found in res.
func (lr *Learner) Learn(ctx context.Context, res *Result, b *spectral.Basis, labeled []int, y []float64) error {
	var one [1][]float64
	one[0] = y
	return lr.LearnSum(ctx, res, b, labeled, one[:])
}

// LearnSum is Learn for P binary problems on the same labeled points (for
// example the one-versus-all problems of OneVsAll): it minimises the sum of
// their SVM dual optima J_1(mu) + ... + J_P(mu), still a convex function of
// mu, so that one kernel serves all of them. Each ys[p] holds the labels
// (-1 or +1, both present) of the labeled points.
func (lr *Learner) LearnSum(ctx context.Context, res *Result, b *spectral.Basis, labeled []int, ys [][]float64) error {
	if lr == nil {
		return inputf(ErrSettings, "nil Learner")
	}
	if res == nil {
		return inputf(ErrSettings, "nil Result")
	}
	if ctx == nil {
		return inputf(ErrSettings, "nil context")
	}
	if err := lr.setup(b, labeled, ys); err != nil {
		return err
	}
	return lr.run(ctx, res)
}

// setup validates the input and loads the labeled rows, the labels and the
// ray coefficients into the workspace.
func (lr *Learner) setup(b *spectral.Basis, labeled []int, ys [][]float64) error {
	n, q := b.Dims()
	if n == 0 || q == 0 {
		return inputf(ErrBasis, "empty basis")
	}
	if len(b.Values) != q {
		return inputf(ErrBasis, "basis has %d values for %d vectors", len(b.Values), q)
	}
	for i, v := range b.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return inputf(ErrBasis, "eigenvalue %d is %v", i, v)
		}
	}
	s, err := lr.Settings.resolve(n)
	if err != nil {
		return err
	}
	if len(labeled) == 0 {
		return inputf(ErrIndex, "no labeled points")
	}
	if len(ys) == 0 {
		return inputf(ErrLabels, "no label vectors")
	}
	for p, y := range ys {
		if len(y) != len(labeled) {
			return inputf(ErrLabels, "problem %d: %d labels for %d labeled points", p, len(y), len(labeled))
		}
		var pos, neg int
		for i, v := range y {
			switch v {
			case 1:
				pos++
			case -1:
				neg++
			default:
				return inputf(ErrLabels, "problem %d: label %d is %v, want -1 or +1", p, i, v)
			}
		}
		if pos == 0 || neg == 0 {
			return inputf(ErrLabels, "problem %d: both classes -1 and +1 are needed (got %d positive, %d negative)", p, pos, neg)
		}
	}
	if cap(lr.seen) < n {
		lr.seen = make([]bool, n)
	}
	seen := lr.seen[:n]
	clear(seen)
	for _, j := range labeled {
		if j < 0 || j >= n {
			return inputf(ErrIndex, "labeled index %d outside [0,%d)", j, n)
		}
		if seen[j] {
			return inputf(ErrIndex, "labeled index %d repeated", j)
		}
		seen[j] = true
	}
	// Column norms (the trace of each rank-one kernel) and finiteness.
	lr.t = grow(lr.t, q)
	clear(lr.t)
	raw := b.V.RawMatrix()
	for r := 0; r < n; r++ {
		row := raw.Data[r*raw.Stride : r*raw.Stride+q]
		for i, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return inputf(ErrBasis, "basis entry (%d,%d) is %v", r, i, v)
			}
			lr.t[i] += v * v
		}
	}
	for i, v := range lr.t {
		if !(v > 0) || math.IsInf(v, 0) {
			return inputf(ErrBasis, "basis column %d has squared norm %v", i, v)
		}
	}
	l := len(labeled)
	reshape(&lr.vl, l, q)
	reshape(&lr.vs, l, q)
	reshape(&lr.kern, l, l)
	for r, j := range labeled {
		lr.vl.SetRow(r, b.V.RawRowView(j))
	}
	lr.y = lr.y[:0]
	for _, y := range ys {
		lr.y = append(lr.y, y...)
	}
	np := len(ys)
	lr.s, lr.n, lr.q, lr.np = s, n, q, np
	lr.rays()
	lr.p0.resize(q, np)
	lr.p1.resize(q, np)
	lr.dir = grow(lr.dir, q)
	lr.tmp = grow(lr.tmp, 2*q)
	lr.coef = grow(lr.coef, q*np)
	lr.solver.Settings = svm.Settings{C: s.C, Tol: s.InnerTol, MaxIter: s.InnerMaxIter}
	return nil
}

// rays fills lr.c: row k holds the coefficients of the k-th extreme ray of
// the cone with trace delta, c_{k,i} = delta w^{k-i} / s_k for i <= k
// (zero above), s_k = sum_{m<=k} w^{k-m} t_m. They are computed through the
// probabilities p_{k,i} = w^{k-i} t_i / s_k by a recursion that neither
// overflows nor underflows for large w or q.
func (lr *Learner) rays() {
	q, w, delta, t := lr.q, lr.s.W, lr.s.Trace, lr.t
	lr.c = grow(lr.c, q*q)
	c := lr.c
	clear(c)
	c[0] = 1 // p_{0,0}
	for k := 1; k < q; k++ {
		prev := c[(k-1)*q : k*q]
		row := c[k*q : (k+1)*q]
		// x = t_k / (w s_{k-1}) with s_{k-1} = t_{k-1} / p_{k-1,k-1}.
		x := t[k] * prev[k-1] / (w * t[k-1])
		rho := 1 / (1 + x)
		for i := 0; i < k; i++ {
			row[i] = prev[i] * rho
		}
		row[k] = x / (1 + x)
	}
	for k := 0; k < q; k++ {
		row := c[k*q : (k+1)*q]
		for i := 0; i <= k; i++ {
			row[i] *= delta / t[i]
		}
	}
}

// run is the spectral projected gradient method on the simplex of ray
// weights.
func (lr *Learner) run(ctx context.Context, res *Result) error {
	q, s := lr.q, lr.s
	cur, trial := &lr.p0, &lr.p1
	for k := range cur.theta {
		cur.theta[k] = 1 / float64(q)
	}
	res.History = res.History[:0]
	if cap(res.History) == 0 {
		res.History = make([]float64, 0, min(s.MaxIter+1, 512))
	}
	res.Iterations, res.Evaluations, res.SMOIterations = 0, 0, 0
	res.Status = NotRun

	finish := func(st Status, err error) error {
		res.Status = st
		lr.export(res, cur)
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mm: cancelled before the first iteration: %w", err)
	}
	if st, err := lr.eval(ctx, cur, false, res); err != nil {
		if st == NotRun {
			return err
		}
		// The first point has no complete evaluation to report.
		res.Status = st
		return err
	}
	res.History = append(res.History, cur.j)
	lower := cur.lower

	// Initial step length: the inverse sup-norm of the projected gradient
	// step with unit length.
	d := lr.dir
	lr.projectStep(d, cur, 1)
	lambda := 1.0
	if m := supNorm(d); m > 0 {
		lambda = clamp(1/m, lambdaMin, lambdaMax)
	}
	for {
		gap := (cur.upper - lower) / math.Max(cur.upper, math.SmallestNonzeroFloat64)
		res.Lower, res.Gap = lower, gap
		if gap <= s.Tol {
			return finish(Converged, nil)
		}
		if res.Iterations >= s.MaxIter {
			return finish(IterationLimit, fmt.Errorf("%w: %d iterations, relative gap %.3g > Tol %.3g", ErrIterationLimit, res.Iterations, gap, s.Tol))
		}
		if err := ctx.Err(); err != nil {
			return finish(Cancelled, fmt.Errorf("mm: cancelled after %d iterations: %w", res.Iterations, err))
		}
		lr.projectStep(d, cur, lambda)
		var gd float64 // directional derivative g^T d, g = -a
		for k, v := range d {
			gd -= cur.a[k] * v
		}
		if !(gd < 0) {
			return finish(Stalled, fmt.Errorf("%w: projected step vanished with relative gap %.3g > Tol %.3g", ErrStalled, gap, s.Tol))
		}
		step := 1.0
		for p := range trial.m {
			trial.m[p].Alpha = append(trial.m[p].Alpha[:0], cur.m[p].Alpha...)
		}
		for bt := 0; ; bt++ {
			for k := range trial.theta {
				trial.theta[k] = math.Max(cur.theta[k]+step*d[k], 0)
			}
			if st, err := lr.eval(ctx, trial, true, res); err != nil {
				return finish(st, err)
			}
			lower = math.Max(lower, trial.lower)
			if trial.j <= cur.j+armijo*step*gd {
				break
			}
			if bt >= maxBacktrack {
				res.Lower, res.Gap = lower, (cur.upper-lower)/math.Max(cur.upper, math.SmallestNonzeroFloat64)
				return finish(Stalled, fmt.Errorf("%w: line search failed with relative gap %.3g > Tol %.3g", ErrStalled, res.Gap, s.Tol))
			}
			// Safeguarded minimiser of the quadratic through J(0), J'(0)
			// and J(step).
			den := 2 * (trial.j - cur.j - step*gd)
			next := 0.5 * step
			if den > 0 {
				next = clamp(-gd*step*step/den, 0.1*step, 0.5*step)
			}
			step = next
		}
		// Barzilai-Borwein step length from s = theta+ - theta and
		// y = g+ - g = a - a+.
		var ss, sy float64
		for k := range d {
			sk := trial.theta[k] - cur.theta[k]
			ss += sk * sk
			sy += sk * (cur.a[k] - trial.a[k])
		}
		if sy > 0 {
			lambda = clamp(ss/sy, lambdaMin, lambdaMax)
		} else {
			lambda = lambdaMax
		}
		cur, trial = trial, cur
		res.Iterations++
		res.History = append(res.History, cur.j)
	}
}

// projectStep sets d = P(theta + lambda a) - theta, P the projection onto
// the unit simplex (a = -gradient).
func (lr *Learner) projectStep(d []float64, p *point, lambda float64) {
	q := lr.q
	v, u := lr.tmp[:q], lr.tmp[q:2*q]
	for k := range v {
		v[k] = p.theta[k] + lambda*p.a[k]
	}
	projectSimplex(d, v, u)
	for k := range d {
		d[k] -= p.theta[k]
	}
}

// projectSimplex writes the Euclidean projection of v onto {x >= 0,
// sum x = 1} into dst, using u (len(v)) as scratch. It sorts a copy of v and
// finds the threshold tau with sum max(v - tau, 0) = 1.
func projectSimplex(dst, v, u []float64) {
	copy(u, v)
	slices.Sort(u)
	var sum, tau float64
	for j := len(u) - 1; j >= 0; j-- {
		sum += u[j]
		t := (sum - 1) / float64(len(u)-j)
		if u[j]-t > 0 {
			tau = t
		}
	}
	for k, x := range v {
		dst[k] = math.Max(x-tau, 0)
	}
}

// eval computes J at p.theta: mu, the kernel block, the inner SVMs (warm
// from p.m[.].Alpha when warm), z, the ray terms a, and the bounds. The
// Status is NotRun for an input error of the inner solver (which
// validation should prevent).
func (lr *Learner) eval(ctx context.Context, p *point, warm bool, res *Result) (Status, error) {
	q := lr.q
	// mu_i = sum_{k>=i} theta_k c_{k,i}
	clear(p.mu)
	for k, th := range p.theta {
		if th == 0 {
			continue
		}
		row := lr.c[k*q : k*q+k+1]
		for i, c := range row {
			p.mu[i] += th * c
		}
	}
	lr.kernel(p.mu)
	p.j, p.upper, p.lower = 0, 0, 0
	clear(p.a)
	for pi := range p.m {
		st, err := lr.evalProblem(ctx, p, pi, warm, res)
		if err != nil {
			return st, err
		}
	}
	amax := math.Inf(-1)
	for _, a := range p.a {
		amax = math.Max(amax, a)
	}
	p.lower -= amax
	return Converged, nil
}

// evalProblem solves the SVM of problem pi on lr.kern and adds its terms to
// p: J, the primal bound, 2 sum(alpha) to p.lower and the ray terms to p.a.
func (lr *Learner) evalProblem(ctx context.Context, p *point, pi int, warm bool, res *Result) (Status, error) {
	q, l := lr.q, len(lr.y)/lr.np
	y := lr.y[pi*l : (pi+1)*l]
	m := &p.m[pi]
	err := lr.solver.Train(ctx, m, &lr.kern, y, warm)
	res.Evaluations++
	res.SMOIterations += m.Stats.Iterations
	if err != nil {
		switch {
		case ctx.Err() != nil && errors.Is(err, ctx.Err()):
			return Cancelled, fmt.Errorf("mm: cancelled in an inner SVM solve: %w", err)
		case errors.Is(err, svm.ErrIterationLimit):
			return InnerFailure, fmt.Errorf("%w: %w", ErrInner, err)
		}
		return NotRun, fmt.Errorf("%w: %w", ErrInner, err)
	}
	// z = Vl^T beta, beta = alpha∘y.
	z := p.z[pi*q : (pi+1)*q]
	coef := lr.coef[pi*q : (pi+1)*q]
	clear(z)
	var sumA float64
	raw := lr.vl.RawMatrix()
	for j, a := range m.Alpha {
		sumA += a
		if a == 0 {
			continue
		}
		beta := a * y[j]
		row := raw.Data[j*raw.Stride : j*raw.Stride+q]
		for i, v := range row {
			z[i] += beta * v
		}
	}
	var quad float64
	for i, zi := range z {
		quad += p.mu[i] * zi * zi
		coef[i] = p.mu[i] * zi
	}
	p.j += 2*sumA - quad
	p.lower += 2 * sumA
	for k := 0; k < q; k++ {
		row := lr.c[k*q : k*q+k+1]
		var a float64
		for i, c := range row {
			a += c * z[i] * z[i]
		}
		p.a[k] += a
	}
	// Primal value ||w||² + 2C sum xi with f = Vl coef + b.
	var xi float64
	for j := range m.Alpha {
		row := raw.Data[j*raw.Stride : j*raw.Stride+q]
		f := m.Bias
		for i, v := range row {
			f += v * coef[i]
		}
		xi += math.Max(0, 1-y[j]*f)
	}
	p.upper += quad + 2*lr.s.C*xi
	return Converged, nil
}

// kernel sets lr.kern = Vl diag(mu) Vl^T (exactly symmetric).
func (lr *Learner) kernel(mu []float64) {
	l, q := lr.vl.Dims()
	vl, vs, k := lr.vl.RawMatrix(), lr.vs.RawMatrix(), lr.kern.RawMatrix()
	for j := 0; j < l; j++ {
		src := vl.Data[j*vl.Stride : j*vl.Stride+q]
		dst := vs.Data[j*vs.Stride : j*vs.Stride+q]
		for i, v := range src {
			dst[i] = v * math.Sqrt(mu[i])
		}
	}
	for r := 0; r < l; r++ {
		a := vs.Data[r*vs.Stride : r*vs.Stride+q]
		for c := r; c < l; c++ {
			bb := vs.Data[c*vs.Stride : c*vs.Stride+q]
			var s float64
			for i, v := range a {
				s += v * bb[i]
			}
			k.Data[r*k.Stride+c] = s
			k.Data[c*k.Stride+r] = s
		}
	}
}

// export copies the point p into res.
func (lr *Learner) export(res *Result, p *point) {
	q, np := lr.q, lr.np
	res.Problems = np
	res.Mu = append(res.Mu[:0], p.mu...)
	res.Theta = append(res.Theta[:0], p.theta...)
	res.Alpha = res.Alpha[:0]
	res.Bias = res.Bias[:0]
	for pi := range p.m {
		res.Alpha = append(res.Alpha, p.m[pi].Alpha...)
		res.Bias = append(res.Bias, p.m[pi].Bias)
	}
	res.Coef = grow(res.Coef, q*np)
	for pi := 0; pi < np; pi++ {
		for i, z := range p.z[pi*q : (pi+1)*q] {
			res.Coef[pi*q+i] = p.mu[i] * z
		}
	}
	res.Objective = p.j
	res.Upper = p.upper
}

// Objective returns J(mu), the optimal value of the SVM dual
// 2 alpha^T e - alpha^T D(y) Kbar_ll D(y) alpha on the labeled block of
// Kbar = V diag(mu) V^T, and writes its gradient dJ/dmu_i =
// -(sum_j alpha_j y_j phi_i(x_j))² into grad (grown if needed). mu need not
// lie in the cone, only be non-negative and finite. Only s.C, s.InnerTol
// and s.InnerMaxIter are used.
func Objective(ctx context.Context, b *spectral.Basis, labeled []int, y, mu []float64, s *Settings, grad []float64) (float64, []float64, error) {
	if ctx == nil {
		return 0, grad, inputf(ErrSettings, "nil context")
	}
	var lr Learner
	if s != nil {
		lr.Settings = *s
	}
	if err := lr.setup(b, labeled, [][]float64{y}); err != nil {
		return 0, grad, err
	}
	if len(mu) != lr.q {
		return 0, grad, inputf(ErrSettings, "%d coefficients for %d basis vectors", len(mu), lr.q)
	}
	for i, v := range mu {
		if !(v >= 0) || math.IsInf(v, 0) {
			return 0, grad, inputf(ErrSettings, "coefficient %d is %v, want finite and >= 0", i, v)
		}
	}
	p := &lr.p0
	copy(p.mu, mu)
	lr.kernel(p.mu)
	p.j, p.upper, p.lower = 0, 0, 0
	clear(p.a)
	var res Result
	if _, err := lr.evalProblem(ctx, p, 0, false, &res); err != nil {
		return 0, grad, err
	}
	grad = grow(grad, lr.q)
	for i, z := range p.z[:lr.q] {
		grad[i] = -z * z
	}
	return p.j, grad, nil
}

func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}

func clamp(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

func supNorm(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// reshape makes dst r x c, reusing its storage when large enough.
func reshape(dst *mat.Dense, r, c int) {
	if !dst.IsEmpty() {
		if rr, cc := dst.Dims(); rr == r && cc == c {
			return
		}
		if data := dst.RawMatrix().Data; cap(data) >= r*c {
			dst.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: c, Data: data[:r*c]})
			return
		}
		dst.Reset()
	}
	dst.ReuseAs(r, c)
}
