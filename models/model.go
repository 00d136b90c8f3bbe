package models

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/klr"
	"ukm/models/spectral"
	"ukm/models/svm"
)

// LambdaSource tells where a model's KLR lambda came from.
type LambdaSource int

// Origins of lambda.
const (
	// LambdaGiven: Options.Lambda was set.
	LambdaGiven LambdaSource = iota
	// LambdaCV: chosen by cross-validation on the labeled set.
	LambdaCV
	// LambdaDefault: cross-validation was impossible (a class with a single
	// labeled example) and klr.DefaultLambda was used.
	LambdaDefault
)

// String describes the source.
func (s LambdaSource) String() string {
	switch s {
	case LambdaGiven:
		return "given"
	case LambdaCV:
		return "cross-validation"
	case LambdaDefault:
		return "default (a class has one labeled example)"
	}
	return fmt.Sprintf("LambdaSource(%d)", int(s))
}

// Model is a fitted kernel machine: the scaler and initial kernel, the basis
// V (n x d) with its eigenvalues, the spectral coefficients mu, the trained
// classifier and timings. The learned kernel V diag(mu) Vᵀ is kept in that
// factored form. A Model is safe for concurrent use by its read-only methods.
//
// Only a Model returned by Fit, FitLabels, Select or Loop is usable: on a
// nil or zero Model the methods that return an error report ErrNotFitted,
// and the accessors return zero values.
type Model struct {
	pr      *prep
	classes int
	names   []string // class names (FitLabels); nil means "0", "1", ...
	custom  string   // the name of the Custom design of a loaded model
	labeled []int
	labels  []int

	mu   []float64
	phi  *mat.Dense // n x d, V diag(sqrt(mu)); nil for Standard
	phiL *mat.Dense // labeled rows of phi
	kxl  *mat.Dense // Standard: K0(X, X_L), n x l

	klr          *klr.Multi
	svm          *svm.Multi
	lambda       float64
	lambdaSource LambdaSource
	cv           *klr.CVResult

	alignment float64
	times     StageTimes
	selection *Selection
	spread    *mat.Dense // Spread: the n x classes scores
	voters    []*Model   // the other members of a committee (VoteSoft)
}

// setFeatures forms Phi = V diag(sqrt(mu)) and its labeled rows.
func (m *Model) setFeatures() {
	v := m.pr.basis.V
	n, d := v.Dims()
	m.phi = mat.NewDense(n, d, nil)
	scaleColumns(m.phi, v, sqrtMu(nil, m.mu))
	m.phiL = gatherRows(nil, m.phi, m.labeled)
}

// labeledKernel returns the l x l labeled block of the kernel the classifier
// uses.
func (m *Model) labeledKernel() *mat.Dense {
	if m.kxl != nil {
		return gatherRows(nil, m.kxl, m.labeled)
	}
	l := len(m.labeled)
	k := mat.NewDense(l, l, nil)
	k.Mul(m.phiL, m.phiL.T())
	symmetrise(k)
	return k
}

// symmetrise replaces the square k by (k + kᵀ)/2.
func symmetrise(k *mat.Dense) {
	r, _ := k.Dims()
	for i := 0; i < r; i++ {
		for j := i + 1; j < r; j++ {
			v := 0.5 * (k.At(i, j) + k.At(j, i))
			k.Set(i, j, v)
			k.Set(j, i, v)
		}
	}
}

func (m *Model) trained() bool { return m.klr != nil || m.svm != nil || m.spread != nil }

// ready returns an error for a nil or zero Model (one not returned by Fit or
// Loop), whose methods have nothing to work on.
func (m *Model) ready() error {
	if m == nil || m.pr == nil || !m.trained() {
		return ErrNotFitted
	}
	return nil
}

// chooseLambda returns lambda per the options; x is the labeled feature
// matrix (kernel false) or kernel block (kernel true).
func chooseLambda(ctx context.Context, opt *resolved, x mat.Matrix, kernel bool, labels []int, classes int) (float64, LambdaSource, *klr.CVResult, error) {
	if opt.Lambda > 0 {
		return opt.Lambda, LambdaGiven, nil, nil
	}
	count := make([]int, classes)
	for _, y := range labels {
		count[y]++
	}
	for _, c := range count {
		if c < 2 {
			return klr.DefaultLambda, LambdaDefault, nil, nil
		}
	}
	s := &klr.Settings{Bias: opt.Bias}
	cvs := &klr.CVSettings{Folds: opt.Folds, Seed: opt.Seed}
	var res *klr.CVResult
	var err error
	if kernel {
		res, err = klr.CrossValidateKernel(ctx, x, labels, classes, s, cvs)
	} else {
		res, err = klr.CrossValidateFeatures(ctx, x, labels, classes, s, cvs)
	}
	if err != nil {
		return 0, 0, nil, fmt.Errorf("models: choosing lambda: %w", err)
	}
	return res.Lambda, LambdaCV, res, nil
}

// train fits the classifier on the labeled rows.
func (m *Model) train(ctx context.Context) error {
	opt := &m.pr.opt
	if opt.Classifier == SVM {
		mm, err := svm.TrainMulti(ctx, m.labeledKernel(), m.labels, m.classes, &svm.Settings{C: opt.C})
		if err != nil {
			return fmt.Errorf("models: SVM: %w", err)
		}
		m.svm = mm
		return nil
	}
	var x mat.Matrix = m.phiL
	kernel := m.kxl != nil
	if kernel {
		x = m.labeledKernel()
	}
	var err error
	m.lambda, m.lambdaSource, m.cv, err = chooseLambda(ctx, opt, x, kernel, m.labels, m.classes)
	if err != nil {
		return err
	}
	s := &klr.Settings{Lambda: m.lambda, Bias: opt.Bias}
	var mm *klr.Multi
	if kernel {
		mm, err = klr.FitMultiKernel(ctx, x, m.labels, m.classes, s)
	} else {
		mm, err = klr.FitMultiFeatures(ctx, x, m.labels, m.classes, s)
	}
	if err != nil {
		return fmt.Errorf("models: KLR: %w", err)
	}
	m.klr = mm
	return nil
}

func (m *Model) computeAlignment() float64 {
	y, err := spectral.Target(m.labels, m.classes)
	if err != nil {
		return math.NaN()
	}
	if m.kxl != nil {
		return alignKernel(m.labeledKernel(), y)
	}
	return alignFeatures(m.phiL, y)
}

// inputs returns the classifier input rows of training points idx.
func (m *Model) inputs(idx []int) (mat.Matrix, error) {
	if err := m.ready(); err != nil {
		return nil, err
	}
	if len(idx) == 0 {
		return nil, inputf(linalg.ErrEmpty, "no points to predict")
	}
	for k, i := range idx {
		if i < 0 || i >= m.pr.n {
			return nil, inputf(linalg.ErrShape, "index %d (position %d) outside [0, %d)", i, k, m.pr.n)
		}
	}
	if m.spread != nil {
		return gatherRows(nil, m.spread, idx), nil
	}
	if m.kxl != nil {
		return gatherRows(nil, m.kxl, idx), nil
	}
	f := gatherRows(nil, m.phi, idx)
	if m.svm != nil {
		return m.svmCross(f), nil
	}
	return f, nil
}

// svmCross returns f Phi_Lᵀ, the cross block of the learned kernel.
func (m *Model) svmCross(f *mat.Dense) *mat.Dense {
	r, _ := f.Dims()
	k := mat.NewDense(r, len(m.labeled), nil)
	k.Mul(f, m.phiL.T())
	return k
}

// scaleNew validates and scales new points.
func (m *Model) scaleNew(xnew *mat.Dense) (*mat.Dense, error) {
	if xnew == nil || xnew.IsEmpty() {
		return nil, inputf(linalg.ErrEmpty, "no new points")
	}
	r, p := xnew.Dims()
	if want := m.pr.xs.RawMatrix().Cols; p != want {
		return nil, inputf(linalg.ErrShape, "new points have %d features, the model was fitted on %d", p, want)
	}
	for i := 0; i < r; i++ {
		for j, v := range xnew.RawRowView(i)[:p] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, inputf(linalg.ErrNonFinite, "new point (%d,%d) = %v is not finite", i, j, v)
			}
		}
	}
	if m.pr.scaler == nil {
		return mat.DenseCopyOf(xnew), nil
	}
	z, err := m.pr.scaler.Transform(xnew)
	if err != nil {
		return nil, fmt.Errorf("models: scaling new points: %w", err)
	}
	return z, nil
}

// extend returns the Nyström extension v(x) = K0(x, X) V diag(1/lambda) of
// the eigenvectors to the scaled new points z (m x d). Coordinates of
// numerically zero eigenvalues are set to zero.
func (m *Model) extend(ctx context.Context, z *mat.Dense) (*mat.Dense, error) {
	v, _, err := m.extendReach(ctx, z, nil)
	return v, err
}

// extendReach is extend that also reports, for a graph basis and reach (one
// flag per training point), the new points with no neighbour of positive
// weight among the points reach marks (see extendGraph).
func (m *Model) extendReach(ctx context.Context, z *mat.Dense, reach []bool) (*mat.Dense, []bool, error) {
	if m.pr.graph != nil {
		return m.pr.extendGraph(ctx, z, reach)
	}
	k, err := m.pr.crossNew(ctx, z, nil)
	if err != nil {
		return nil, nil, err
	}
	b := m.pr.basis
	r, _ := z.Dims()
	_, d := b.V.Dims()
	v := mat.NewDense(r, d, nil)
	v.Mul(k, b.V)
	inv := make([]float64, d)
	top := math.Abs(b.Values[0])
	for i, l := range b.Values {
		if l > nystromRelTol*top {
			inv[i] = 1 / l
		}
	}
	scaleColumns(v, v, inv)
	return v, nil, nil
}

// inputsNew returns the classifier input rows of new points and, as
// unreached does for training points, which of them no labeled point
// reaches: those whose graph neighbours of positive weight are all training
// points reached does not mark.
func (m *Model) inputsNew(xnew *mat.Dense) (mat.Matrix, []bool, error) {
	if err := m.ready(); err != nil {
		return nil, nil, err
	}
	if m.pr.opt.Design.graph() {
		return nil, nil, fmt.Errorf("%w (%v)", ErrNoOutOfSample, m.pr.opt.Design)
	}
	z, err := m.scaleNew(xnew)
	if err != nil {
		return nil, nil, err
	}
	ctx := context.Background()
	if m.spread != nil {
		f, _, err := m.pr.graphAverage(ctx, z, m.spread, nil, nil)
		return f, nil, err
	}
	if m.kxl != nil {
		k, err := m.pr.crossNew(ctx, z, m.labeled)
		return k, nil, err
	}
	f, unreached, err := m.extendReach(ctx, z, m.reached())
	if err != nil {
		return nil, nil, err
	}
	scaleColumns(f, f, sqrtMu(nil, m.mu))
	if m.svm != nil {
		return m.svmCross(f), nil, nil
	}
	return f, unreached, nil
}

// featureFloor is the tie test's floor on the feature rows' norms (see
// klr.Multi.PredictPrior): ||sqrt(mu)|| for the rows V diag(sqrt(mu)) of a
// spectral design, 0 for the kernel blocks of Standard.
func (m *Model) featureFloor() float64 {
	if m.phi == nil {
		return 0
	}
	return muFloor(m.mu)
}

// muFloor returns ||sqrt(mu)|| = sqrt(sum mu).
func muFloor(mu []float64) float64 {
	var s float64
	for _, v := range mu {
		s += max(v, 0)
	}
	return math.Sqrt(s)
}

func (m *Model) predict(dst []int, x mat.Matrix) ([]int, error) {
	var err error
	switch {
	case m.spread != nil:
		return argmaxRows(dst, x.(*mat.Dense)), nil
	case m.svm != nil:
		dst, err = m.svm.Predict(dst, x)
	default:
		dst, err = m.klr.PredictPrior(dst, x, m.labels, m.featureFloor())
	}
	if err != nil {
		return dst, fmt.Errorf("models: %w", err)
	}
	return dst, nil
}

// reached marks the training points that a labeled point reaches (see
// reachedPoints) when the classifier is KLR without an intercept; nil
// otherwise. (With an intercept an unreached point gets the intercept's
// class; the SVM always has one; the Spread classifier gives it the labels'
// class shares itself.)
func (m *Model) reached() []bool {
	if m.klr == nil || m.pr.opt.Bias {
		return nil
	}
	return reachedPoints(m.pr.comp, m.labeled)
}

// unreached marks the training points idx that reached does not.
func (m *Model) unreached(idx []int) []bool { return unreachedAt(m.reached(), idx) }

func (m *Model) proba(dst *mat.Dense, x mat.Matrix) (*mat.Dense, error) {
	if m.svm != nil {
		return dst, ErrNoProbability
	}
	if dst != nil {
		r, _ := x.Dims()
		if dr, dc := dst.Dims(); dr != r || dc != m.classes {
			return dst, inputf(linalg.ErrShape, "dst is %d x %d, want %d x %d", dr, dc, r, m.classes)
		}
	}
	if m.spread != nil {
		return spreadProba(dst, x.(*mat.Dense)), nil
	}
	dst, err := m.klr.PredictProbaNormalized(dst, x)
	if err != nil {
		return dst, fmt.Errorf("models: %w", err)
	}
	return dst, nil
}

// Status says how the classifier's training ended: linalg.Converged when
// every one-versus-all machine met its tolerance, otherwise the status of
// the first that did not (linalg.IterationLimit or linalg.Stalled; the model
// is usable, but its accuracy may suffer). The Spread classifier solves its
// system exactly and reports Converged; an unfitted model reports
// linalg.NotRun. A committee (see VoteSoft) reports its first member that
// did not converge.
func (m *Model) Status() linalg.Status {
	switch {
	case m == nil || !m.trained():
		return linalg.NotRun
	case m.klr != nil:
		for _, c := range m.klr.Models {
			if c.Stats.Status != linalg.Converged {
				return c.Stats.Status
			}
		}
	case m.svm != nil:
		for _, c := range m.svm.Models {
			if c.Stats.Status != linalg.Converged {
				return c.Stats.Status
			}
		}
	}
	for _, v := range m.voters {
		if st := v.Status(); st != linalg.Converged {
			return st
		}
	}
	return linalg.Converged
}

// Alignment returns the kernel-target alignment (KDD'06 eq. 7) of the
// labeled block of the kernel the classifier was trained on with the target
// T (T_ij = 1 for equal classes, -1/(c-1) otherwise).
func (m *Model) Alignment() float64 {
	if m == nil {
		return 0
	}
	return m.alignment
}

// Kernel returns copies of the learned kernel's factors: V (n x d) and mu,
// with Kbar = V diag(mu) Vᵀ. It returns nil, nil for Design Standard.
func (m *Model) Kernel() (v *mat.Dense, mu []float64) {
	if m == nil || m.pr == nil || m.pr.basis == nil {
		return nil, nil
	}
	return mat.DenseCopyOf(m.pr.basis.V), append([]float64(nil), m.mu...)
}

// Unreached returns the number of training points in connected components
// of the kNN graph that hold no labeled point (0 when the model has no kNN
// graph). No label informs them: KLR without an intercept and the Spread
// classifier give them the labels' class shares (see PredictRows).
func (m *Model) Unreached() int {
	if m == nil || m.pr == nil {
		return 0
	}
	count := 0
	for _, r := range reachedPoints(m.pr.comp, m.labeled) {
		if !r {
			count++
		}
	}
	return count
}

// EigenValues returns a copy of the basis eigenvalues (descending for a
// kernel basis, ascending for a Laplacian basis); nil for Design Standard.
func (m *Model) EigenValues() []float64 {
	if m == nil || m.pr == nil || m.pr.basis == nil {
		return nil
	}
	return append([]float64(nil), m.pr.basis.Values...)
}

// Timings returns the time spent per stage.
func (m *Model) Timings() StageTimes {
	if m == nil {
		return StageTimes{}
	}
	return m.times
}

// Classes returns the number of classes c.
func (m *Model) Classes() int {
	if m == nil {
		return 0
	}
	return m.classes
}

// Options returns the options the model was fitted with, the defaults of
// the knobs it uses filled in (GraphK, Decay, C, Alpha, EigTol, ...). D and
// Lambda are as given: zero D is the default count (EigenValues lists the
// pairs used), zero Lambda was chosen by cross-validation (see Lambda). A
// loaded model's Custom design is nil: only its name is saved. A
// committee's options are its chosen member's; Voters gives the others'.
func (m *Model) Options() Options {
	if m == nil || m.pr == nil {
		return Options{}
	}
	o := m.pr.opt.Options
	o.Progress = nil
	if h := o.GraphFeatures; h != nil {
		c := *h
		o.GraphFeatures = &c
	}
	return o
}

// Design returns the design the model was built with.
func (m *Model) Design() DesignKind {
	if m == nil || m.pr == nil {
		return SKL
	}
	return m.pr.opt.Design
}

// Labeled returns a copy of the labeled indices the classifier was trained
// on (after an active-learning loop, including the queried points).
func (m *Model) Labeled() []int {
	if m == nil {
		return nil
	}
	return append([]int(nil), m.labeled...)
}

// Lambda returns the KLR regularisation used and where it came from (zero
// for an SVM model).
func (m *Model) Lambda() (float64, LambdaSource) {
	if m == nil {
		return 0, LambdaGiven
	}
	return m.lambda, m.lambdaSource
}

// CV returns the cross-validation result that chose lambda, or nil.
func (m *Model) CV() *klr.CVResult {
	if m == nil {
		return nil
	}
	return m.cv
}

// Gamma returns the RBF width used (0 for other kernels and for the graph
// designs, which do not evaluate the initial kernel).
func (m *Model) Gamma() float64 {
	if m == nil || m.pr == nil {
		return 0
	}
	return m.pr.gamma
}
