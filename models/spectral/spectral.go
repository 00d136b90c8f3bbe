package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/qp"
)

// ErrInput is wrapped by every error caused by invalid arguments.
var ErrInput = errors.New("spectral: invalid input")

func inputf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInput}, args...)...)
}

// Basis holds d eigenpairs over all n points: Values[i] belongs to column i
// of V. For an initial kernel the pairs are the largest, in descending order;
// for a graph Laplacian the smallest, in ascending order (smoothest first).
// Either way column 0 is the one a decay constraint favours most.
type Basis struct {
	Values []float64
	V      *mat.Dense // n x d, orthonormal columns
}

// Dims returns n and d (0, 0 for a nil Basis or one without V).
func (b *Basis) Dims() (n, d int) {
	if b == nil || b.V == nil {
		return 0, 0
	}
	return b.V.Dims()
}

func (b *Basis) check() error {
	if b == nil || b.V == nil || b.V.IsEmpty() {
		return inputf("empty basis")
	}
	_, d := b.V.Dims()
	if len(b.Values) != d {
		return inputf("basis has %d values for %d vectors", len(b.Values), d)
	}
	for i, v := range b.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return inputf("eigenvalue %d is %v", i, v)
		}
	}
	return nil
}

// Rows copies the rows idx of V into dst (resized as needed) and returns it:
// the eigenvectors restricted to those points.
//
// An index outside [0, n) or repeated is an error, and so is a dst that
// is V itself (the copy would overwrite rows still to be read).
func (b *Basis) Rows(dst *mat.Dense, idx []int) (*mat.Dense, error) {
	if b == nil || b.V == nil || b.V.IsEmpty() {
		return nil, inputf("empty basis")
	}
	n, _ := b.V.Dims()
	if dst == b.V {
		return nil, inputf("dst is the basis V itself")
	}
	if len(idx) == 0 {
		return nil, inputf("no labeled points")
	}
	return b.rows(dst, idx, make([]bool, n))
}

// rows is Rows with a caller-owned scratch seen (len n, all false; it is
// left all false), so that repeated calls need not allocate.
func (b *Basis) rows(dst *mat.Dense, idx []int, seen []bool) (*mat.Dense, error) {
	n, d := b.V.Dims()
	if dst == nil {
		dst = mat.NewDense(len(idx), d, nil)
	} else {
		reshape(dst, len(idx), d)
	}
	for i, j := range idx {
		if j < 0 || j >= n {
			clearSeen(seen, idx[:i])
			return nil, inputf("labeled index %d outside [0,%d)", j, n)
		}
		if seen[j] {
			clearSeen(seen, idx[:i])
			return nil, inputf("labeled index %d repeated", j)
		}
		seen[j] = true
		dst.SetRow(i, b.V.RawRowView(j))
	}
	clearSeen(seen, idx)
	return dst, nil
}

func clearSeen(seen []bool, idx []int) {
	for _, j := range idx {
		seen[j] = false
	}
}

// reshape makes dst r x c, reusing its storage when it is large enough (the
// labeled block grows by a few rows every active-learning round).
func reshape(dst *mat.Dense, r, c int) {
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return
	}
	if rr, cc := dst.Dims(); rr == r && cc == c {
		return
	}
	data := dst.RawMatrix().Data
	if cap(data) >= r*c {
		dst.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: c, Data: data[:r*c]})
		return
	}
	dst.Reset()
	dst.ReuseAs(r, c)
}

// Target returns the factor Y (l x r) of the target kernel T = YYᵀ for class
// labels y in 0..classes-1. With two classes Y is the column y in {-1,+1}
// (class 0 -> -1). With c > 2 classes, Y = sqrt(c/(c-1)) Z (I - 11ᵀ/c) for the
// l x c indicator matrix Z, so that T_ij = 1 for equal classes and -1/(c-1)
// otherwise. Every class must occur at least once.
func Target(y []int, classes int) (*mat.Dense, error) {
	if classes < 2 {
		return nil, inputf("%d classes, want at least 2", classes)
	}
	if len(y) == 0 {
		return nil, inputf("no labels")
	}
	if classes > len(y) {
		// checked before allocating the counts: every class needs a label
		return nil, inputf("%d classes but only %d labels (every class needs one)", classes, len(y))
	}
	count := make([]int, classes)
	for i, c := range y {
		if c < 0 || c >= classes {
			return nil, inputf("label %d of point %d outside [0,%d)", c, i, classes)
		}
		count[c]++
	}
	for c, k := range count {
		if k == 0 {
			return nil, inputf("class %d has no labeled point", c)
		}
	}
	if classes == 2 {
		t := mat.NewDense(len(y), 1, nil)
		for i, c := range y {
			t.Set(i, 0, float64(2*c-1))
		}
		return t, nil
	}
	cf := float64(classes)
	s := math.Sqrt(cf / (cf - 1))
	t := mat.NewDense(len(y), classes, nil)
	for i, c := range y {
		for j := 0; j < classes; j++ {
			v := -1 / cf
			if j == c {
				v += 1
			}
			t.Set(i, j, s*v)
		}
	}
	return t, nil
}

// Design chooses spectral coefficients for a basis. labeled indexes the rows
// of the basis whose labels define target (a factor of T, see Target);
// designs that do not use labels ignore both. Coefficients is written to
// dst[:0] and returned, normalised to sum to n.
type Design interface {
	Name() string
	Coefficients(ctx context.Context, dst []float64, b *Basis, labeled []int, target *mat.Dense) ([]float64, error)
}

// normalise scales mu to sum n. It reports an error if mu has a negative or
// non-finite entry or sums to zero.
func normalise(mu []float64, n int) error {
	var s float64
	for i, v := range mu {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("spectral: coefficient %d is %v", i, v)
		}
		s += v
	}
	if !(s > 0) {
		return errors.New("spectral: all coefficients are zero")
	}
	f := float64(n) / s
	for i := range mu {
		mu[i] *= f
	}
	return nil
}

func resize(dst []float64, d int) []float64 {
	if cap(dst) < d {
		return make([]float64, d)
	}
	return dst[:d]
}

// Cluster is the kernel of spectral clustering (KDD'06 eq. 15): every one of
// the d leading eigenvectors gets the same weight.
type Cluster struct{}

// Name implements Design.
func (Cluster) Name() string { return "Cluster" }

// Coefficients implements Design.
func (Cluster) Coefficients(_ context.Context, dst []float64, b *Basis, _ []int, _ *mat.Dense) ([]float64, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	n, d := b.Dims()
	dst = resize(dst, d)
	for i := range dst {
		dst[i] = 1
	}
	return dst, normalise(dst, n)
}

// Truncated keeps the initial kernel's own top-d spectrum (KDD'06 eq. 16,
// kernel PCA). Negative eigenvalues (an indefinite initial kernel) are set to
// zero.
type Truncated struct{}

// Name implements Design.
func (Truncated) Name() string { return "Truncated" }

// Coefficients implements Design.
func (Truncated) Coefficients(_ context.Context, dst []float64, b *Basis, _ []int, _ *mat.Dense) ([]float64, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	n, d := b.Dims()
	dst = resize(dst, d)
	for i, v := range b.Values {
		dst[i] = math.Max(v, 0)
	}
	return dst, normalise(dst, n)
}

// Diffusion is the diffusion kernel transform exp(-Sigma2·lambda/2) of a
// Laplacian basis (max-margin paper, Table I). Sigma2 must be positive.
type Diffusion struct{ Sigma2 float64 }

// Name implements Design.
func (Diffusion) Name() string { return "Diffusion" }

// Coefficients implements Design.
func (t Diffusion) Coefficients(_ context.Context, dst []float64, b *Basis, _ []int, _ *mat.Dense) ([]float64, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	if !(t.Sigma2 > 0) || math.IsInf(t.Sigma2, 0) {
		return nil, inputf("diffusion sigma² %v must be positive and finite", t.Sigma2)
	}
	n, d := b.Dims()
	dst = resize(dst, d)
	lmin := minOf(b.Values)
	for i, v := range b.Values {
		// Shifting by the smallest eigenvalue leaves the normalised kernel
		// unchanged and keeps exp from underflowing to all zeros.
		dst[i] = math.Exp(-t.Sigma2 * (v - lmin) / 2)
	}
	return dst, normalise(dst, n)
}

// GaussianField is the Gaussian field (harmonic) transform 1/(lambda + Eps)
// of a Laplacian basis (max-margin paper, Table I). Eps must be positive and
// the Laplacian eigenvalues non-negative.
type GaussianField struct{ Eps float64 }

// Name implements Design.
func (GaussianField) Name() string { return "GaussianField" }

// Coefficients implements Design.
func (t GaussianField) Coefficients(_ context.Context, dst []float64, b *Basis, _ []int, _ *mat.Dense) ([]float64, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	if !(t.Eps > 0) || math.IsInf(t.Eps, 0) {
		return nil, inputf("Gaussian field eps %v must be positive and finite", t.Eps)
	}
	n, d := b.Dims()
	dst = resize(dst, d)
	for i, v := range b.Values {
		// Laplacian eigenvalues are >= 0; clamp rounding below zero.
		dst[i] = 1 / (math.Max(v, 0) + t.Eps)
	}
	return dst, normalise(dst, n)
}

func minOf(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		m = math.Min(m, x)
	}
	return m
}

// SKL is spectral kernel learning (KDD'06 section 4.2): the coefficients
// maximise the alignment of the labeled block with the target under mu >= 0
// and mu_i >= C mu_{i+1}. C must be at least 1 (C = 1 is the order
// constraint). An SKL keeps its QP workspace and hot-starts each solve from
// the previous solution, so re-learning after a few labels arrive or for a
// new C is cheap; it is therefore not safe for concurrent use (make one per
// goroutine).
type SKL struct {
	C      float64
	Solver qp.Solver // nil: the bound-constrained solver of the ν-space problem

	prob  *qp.SKL
	vl    mat.Dense
	seen  []bool // scratch for the duplicate check of labeled indices
	res   qp.Result
	start qp.Start
	warm  []float64
}

// NewSKL returns an SKL design with decay factor c.
func NewSKL(c float64) *SKL { return &SKL{C: c} }

// Name implements Design.
func (s *SKL) Name() string { return "SKL" }

// Result returns the QP outcome of the last Coefficients call: status,
// iterations, multipliers and KKT residuals (μ in the QP's own scale, before
// normalisation).
func (s *SKL) Result() *qp.Result { return &s.res }

// Problem returns the QP of the last Coefficients call (nil before the first).
func (s *SKL) Problem() *qp.SKL { return s.prob }

// Coefficients implements Design.
func (s *SKL) Coefficients(ctx context.Context, dst []float64, b *Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	if s == nil {
		return nil, inputf("nil SKL design")
	}
	if err := b.check(); err != nil {
		return nil, err
	}
	if !(s.C >= 1) || math.IsInf(s.C, 0) {
		return nil, inputf("decay factor C = %v, want a finite C >= 1", s.C)
	}
	if target == nil {
		return nil, inputf("nil target")
	}
	if r, _ := target.Dims(); r != len(labeled) {
		return nil, inputf("target has %d rows for %d labeled points", r, len(labeled))
	}
	if len(labeled) == 0 {
		return nil, inputf("no labeled points")
	}
	n, d := b.Dims()
	if len(s.seen) < n {
		s.seen = make([]bool, n)
	}
	if _, err := b.rows(&s.vl, labeled, s.seen[:n]); err != nil {
		return nil, err
	}
	var err error
	if s.prob == nil || s.prob.D() != d {
		s.prob, err = qp.NewSKL(&s.vl, target, s.C)
		s.warm = s.warm[:0]
	} else {
		if err = s.prob.SetData(&s.vl, target); err == nil {
			err = s.prob.SetC(s.C)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("spectral: SKL: %w", err)
	}
	var start *qp.Start
	if len(s.warm) == d {
		s.start.X = s.warm
		start = &s.start
	}
	if err := s.prob.Solve(ctx, s.Solver, start, &s.res); err != nil {
		return nil, fmt.Errorf("spectral: SKL: %w", err)
	}
	if s.res.Status != qp.Optimal {
		return nil, fmt.Errorf("spectral: SKL QP ended with status %v (KKT residual %.2g)", s.res.Status, s.res.KKT.Max())
	}
	s.warm = append(s.warm[:0], s.res.X...)
	dst = resize(dst, d)
	for i, v := range s.res.X {
		dst[i] = math.Max(v, 0) // the QP's μ ≥ 0 holds to rounding
	}
	return dst, normalise(dst, n)
}

// Order is the order-constrained graph kernel of Zhu, Kandola, Ghahramani
// and Lafferty (2004) as used in KDD'06 section 6.2: on a basis of the
// smallest Laplacian eigenpairs (ascending), the coefficients maximise the
// alignment under mu_1 >= mu_2 >= ... >= mu_d >= 0. With Improved set
// (Imp-Order) the coefficients of constant eigenvectors — those whose
// eigenvalue is at most ZeroTol·max(1, |lambda_max|) (zero means 1e-8) — are
// left out of the order chain and only kept non-negative.
type Order struct {
	Improved bool
	ZeroTol  float64
}

// Name implements Design.
func (o Order) Name() string {
	if o.Improved {
		return "Imp-Order"
	}
	return "Order"
}

// Coefficients implements Design.
func (o Order) Coefficients(ctx context.Context, dst []float64, b *Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	if target == nil {
		return nil, inputf("nil target")
	}
	if r, _ := target.Dims(); r != len(labeled) {
		return nil, inputf("target has %d rows for %d labeled points", r, len(labeled))
	}
	vl, err := b.Rows(nil, labeled)
	if err != nil {
		return nil, err
	}
	n, d := b.Dims()
	prob, err := qp.NewSKL(vl, target, 1)
	if err != nil {
		return nil, fmt.Errorf("spectral: %s: %w", o.Name(), err)
	}
	free := o.freeSet(b.Values)
	var res qp.Result
	if !o.Improved || len(free) == 0 {
		err = prob.Solve(ctx, nil, nil, &res)
	} else {
		err = qp.NewActiveSet(nil).Solve(ctx, o.improvedProblem(prob, free), nil, &res)
	}
	if err != nil {
		return nil, fmt.Errorf("spectral: %s: %w", o.Name(), err)
	}
	if res.Status != qp.Optimal {
		return nil, fmt.Errorf("spectral: %s QP ended with status %v", o.Name(), res.Status)
	}
	dst = resize(dst, d)
	for i, v := range res.X {
		dst[i] = math.Max(v, 0)
	}
	return dst, normalise(dst, n)
}

// freeSet returns the indices of the constant eigenvectors.
func (o Order) freeSet(values []float64) map[int]bool {
	tol := o.ZeroTol
	if !(tol > 0) {
		tol = 1e-8
	}
	scale := 1.0
	for _, v := range values {
		scale = math.Max(scale, math.Abs(v))
	}
	free := map[int]bool{}
	for i, v := range values {
		if math.Abs(v) <= tol*scale {
			free[i] = true
		}
	}
	return free
}

// improvedProblem is the μ-space QP with the order chain over the
// non-constant eigenvectors only.
func (o Order) improvedProblem(prob *qp.SKL, free map[int]bool) *qp.Problem {
	d := prob.D()
	h := mat.NewSymDense(d, nil)
	h.ScaleSym(2, prob.H())
	var chain []int
	for i := 0; i < d; i++ {
		if !free[i] {
			chain = append(chain, i)
		}
	}
	p := &qp.Problem{
		H:     h,
		C:     make([]float64, d),
		Aeq:   mat.NewDense(1, d, append([]float64(nil), prob.A()...)),
		Beq:   []float64{1},
		Lower: make([]float64, d),
	}
	if len(chain) > 1 {
		p.Ain = mat.NewDense(len(chain)-1, d, nil)
		p.Bin = make([]float64, len(chain)-1)
		for k := 0; k+1 < len(chain); k++ {
			p.Ain.Set(k, chain[k], 1)
			p.Ain.Set(k, chain[k+1], -1)
		}
	}
	return p
}
