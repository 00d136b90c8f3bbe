package models

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/linalg"
	"ukm/models/mm"
	"ukm/models/spectral"
)

// nystromRelTol: eigenvalues below nystromRelTol times the largest are
// treated as zero by the Nyström extension (their coordinate of a new point
// is set to 0 instead of dividing rounding noise by rounding noise). Kernel
// entries carry relative errors of order 1e-16 n, so 1e-10 is far above the
// noise for any n this package handles and far below the eigenvalues SKL
// gives weight to.
const nystromRelTol = 1e-10

// AcceptRelTol is the residual, relative to ||A||, up to which Fit keeps
// the leading eigenpairs of a solve that stopped before every pair met
// Options.EigTol (clustered eigenvalues of a graph with many components
// can do that): such pairs are far more accurate than the designs and
// classifiers need, and d shrinks to the pairs kept rather than the fit
// failing.
const AcceptRelTol = 1e-6

// DropRelTol is the round-off cut of a kernel basis: eigenpairs whose
// eigenvalue is at most DropRelTol times the largest are dropped before any
// design weighs them. The eigensolver resolves eigenvalues only to its
// tolerance (DefaultEigTol ||K||), so vectors of the numerical null space
// of a rank-deficient kernel (the linear kernel with d above the number of
// features) are an arbitrary basis of that space that changes with the
// start vector; a design that weighted them would make the predictions
// depend on the seed. 1e-8 sits a hundredfold above that tolerance.
const DropRelTol = 1e-8

// prep is what Fit and Loop share: the data after scaling, the initial kernel
// and, unless the design is Standard, the eigenpairs computed once.
type prep struct {
	opt     resolved
	n       int
	classes int
	scaler  *linalg.Scaler // nil without scaling
	xs      *mat.Dense     // scaled data, n x p
	kern    linalg.Kernel
	gamma   float64   // RBF width, 0 for other kernels
	norm    bool      // cosine normalisation of the kernel
	diag    []float64 // raw k(x_i, x_i), when norm
	basis   *spectral.Basis
	times   StageTimes
	// dist holds the squared distances between the scaled points while
	// the RBF kernel with the median width is being built (see setKernel);
	// operator turns it into the Gram matrix in place.
	dist *mat.SymDense
	// op and trace are left by prepareStages(kernelOnly).
	op    eig.Operator
	trace float64
	// square is the n x n storage of the kernel matrix, returned to
	// squares once the eigenpairs are found.
	square *mat.SymDense
	// graph is what the KNN kernel's out-of-sample extension needs.
	graph *graphBasis
	// proj, when set, projects the scaled data onto the principal
	// components the kNN graph is searched in, and xg holds the projected
	// training data (see graphSpace).
	proj *linalg.PCA
	xg   *mat.Dense
	// affinity is set when op is a normalised affinity D^-1/2 W D^-1/2,
	// whose spectrum lies in [-1, 1].
	affinity bool
	// comp is the connected component of every point in the kNN graph of
	// a graph basis (nil for other bases): see reachedPoints.
	comp []int
	// sh, when set (by Select), shares widths, distances and neighbour
	// lists between the bases of one selection.
	sh *shared
}

// squares recycles the n x n kernel storage of Fit between calls (and
// between concurrent calls, each taking its own): the kernel is needed only
// until its eigenpairs are found, and a fresh allocation of 8 n^2 bytes
// each call is zeroed and, once the runtime has returned it to the
// operating system, faulted in again page by page. It halves the bytes a
// fit allocates at n = 351 (the time saved was within the noise of the
// machine it was measured on).
var squares sync.Pool // of *[]float64

// getSquare returns an n x n symmetric matrix with recycled (not zeroed)
// storage; every caller overwrites both triangles.
func getSquare(n int) *mat.SymDense {
	if b, ok := squares.Get().(*[]float64); ok && cap(*b) >= n*n {
		return mat.NewSymDense(n, (*b)[:n*n])
	}
	return mat.NewSymDense(n, nil)
}

// putSquare gives the storage of k back to squares; k must not be used
// afterwards.
func putSquare(k *mat.SymDense) {
	if k == nil {
		return
	}
	d := k.RawSymmetric().Data
	squares.Put(&d)
}

// checkData validates x, labeled and labels and returns n and the number of
// classes.
func checkData(x *mat.Dense, labeled, labels []int) (n, classes int, err error) {
	if x == nil || x.IsEmpty() {
		return 0, 0, inputf(linalg.ErrEmpty, "empty data matrix")
	}
	n, p := x.Dims()
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i)[:p] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, 0, inputf(linalg.ErrNonFinite, "x(%d,%d) = %v is not finite", i, j, v)
			}
		}
	}
	if len(labeled) != len(labels) {
		return 0, 0, inputf(linalg.ErrShape, "%d labeled indices but %d labels", len(labeled), len(labels))
	}
	if len(labeled) == 0 {
		return 0, 0, inputf(linalg.ErrLabels, "no labeled points")
	}
	seen := make([]bool, n)
	for k, i := range labeled {
		if i < 0 || i >= n {
			return 0, 0, inputf(linalg.ErrLabels, "labeled index %d (position %d) outside [0, %d)", i, k, n)
		}
		if seen[i] {
			return 0, 0, inputf(linalg.ErrLabels, "labeled index %d repeated", i)
		}
		seen[i] = true
	}
	classes, err = countClasses(labels)
	return n, classes, err
}

// countClasses returns max(labels)+1 after checking that labels are
// non-negative and that every class 0..max occurs.
func countClasses(labels []int) (int, error) {
	c := 0
	for k, y := range labels {
		if y < 0 {
			return 0, inputf(linalg.ErrLabels, "label %d (position %d) is negative; labels are class indices 0..c-1", y, k)
		}
		// Every class 0..c-1 must occur, so c <= len(labels): a larger label
		// is an error (checked before y+1 can overflow or count is allocated).
		if y >= len(labels) {
			return 0, inputf(linalg.ErrLabels, "label %d (position %d) leaves a class without labeled points: with %d labeled points the classes must be 0..%d at most", y, k, len(labels), len(labels)-1)
		}
		c = max(c, y+1)
	}
	if c < 2 {
		return 0, inputf(linalg.ErrLabels, "all labeled points are in class %d; at least two classes are needed", c-1)
	}
	count := make([]int, c)
	for _, y := range labels {
		count[y]++
	}
	for k, m := range count {
		if m == 0 {
			return 0, inputf(linalg.ErrLabels, "class %d has no labeled point (labels must use every class 0..%d)", k, c-1)
		}
	}
	return c, nil
}

// prepare scales the data, builds the initial kernel (or graph) and computes
// the eigenpairs.
func prepare(ctx context.Context, x *mat.Dense, labeled, labels []int, opt *Options) (*prep, error) {
	return prepareShared(ctx, x, labeled, labels, opt, nil)
}

// scaleData returns a scaled copy of x (a plain copy for NoScaling) and its
// scaler.
func scaleData(x *mat.Dense, s Scaling) (scaledData, error) {
	if s == NoScaling {
		return scaledData{xs: mat.DenseCopyOf(x)}, nil
	}
	method := linalg.ZScore
	if s == MinMax {
		method = linalg.MinMax
	}
	xs, scaler, err := linalg.FitTransform(x, method)
	if err != nil {
		return scaledData{}, fmt.Errorf("models: scaling: %w", err)
	}
	return scaledData{xs: xs, scaler: scaler}, nil
}

// prepareShared is prepare with the shared work of a selection.
func prepareShared(ctx context.Context, x *mat.Dense, labeled, labels []int, opt *Options, sh *shared) (*prep, error) {
	return prepareStages(ctx, x, labeled, labels, opt, false, sh)
}

// resolveData checks the data and labels and resolves opt for them: the
// options a basis is computed with, the number of points and of classes.
func resolveData(x *mat.Dense, labeled, labels []int, opt *Options) (r resolved, n, classes int, err error) {
	if n, classes, err = checkData(x, labeled, labels); err != nil {
		return r, 0, 0, err
	}
	if r, err = opt.resolve(n); err != nil {
		return r, 0, 0, err
	}
	if err = r.resolveImages(x.RawMatrix().Cols); err != nil {
		return r, 0, 0, err
	}
	return r, n, classes, nil
}

// prepareStages is prepare; with kernelOnly it stops before the
// eigenpairs, leaving the operator and trace in pr.op and pr.trace (for the
// stage benchmarks).
func prepareStages(ctx context.Context, x *mat.Dense, labeled, labels []int, opt *Options, kernelOnly bool, sh *shared) (*prep, error) {
	if ctx == nil {
		return nil, inputf(linalg.ErrSettings, "nil context")
	}
	r, n, classes, err := resolveData(x, labeled, labels, opt)
	if err != nil {
		return nil, err
	}
	if err := r.checkMemory(n, x.RawMatrix().Cols, len(labeled)); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	pr := &prep{opt: r, n: n, classes: classes, sh: sh}
	t0 := time.Now()
	var sd scaledData
	if sh != nil {
		sd, err = sh.scale(x, r.Scale)
	} else {
		sd, err = scaleData(x, r.Scale)
	}
	if err != nil {
		return nil, err
	}
	pr.xs, pr.scaler = sd.xs, sd.scaler
	pr.progress("scale")
	// The graph designs never evaluate the initial kernel.
	if !r.Design.graph() {
		if err := pr.setKernel(ctx); err != nil {
			return nil, err
		}
	}
	if r.Design == Standard {
		pr.times.Kernel = time.Since(t0)
		return pr, nil
	}
	if r.Classifier == Spread {
		err = pr.buildGraph(ctx)
		pr.times.Kernel = time.Since(t0)
		if err != nil {
			return nil, err
		}
		return pr, nil
	}
	if r.large(n) && !r.Design.graph() && r.Kernel.Kind != KNN && !kernelOnly {
		pr.times.Kernel = time.Since(t0)
		t0 = time.Now()
		err = pr.nystromBasis(ctx, labeled)
		pr.times.Eig = time.Since(t0)
		pr.progress("eigen")
		if err != nil {
			return nil, err
		}
		return pr, nil
	}
	op, trace, err := pr.operator(ctx)
	pr.times.Kernel = time.Since(t0)
	if err != nil {
		return nil, err
	}
	if kernelOnly {
		pr.op, pr.trace = op, trace
		return pr, nil
	}
	pr.progress("kernel")
	t0 = time.Now()
	err = pr.eigen(ctx, op, trace, labeled)
	pr.times.Eig = time.Since(t0)
	pr.progress("eigen")
	putSquare(pr.square)
	pr.square = nil
	if err != nil {
		return nil, err
	}
	return pr, nil
}

// eigen computes the basis: the top d eigenpairs of a kernel (descending) or
// the bottom d of a Laplacian (ascending), cut by EnergyFraction, with the
// copies of a repeated eigenvalue in the canonical basis the labeled points
// select (canonicalGroups).
func (pr *prep) eigen(ctx context.Context, op eig.Operator, trace float64, labeled []int) error {
	settings := &eig.Settings{Seed: pr.opt.Seed, Tol: pr.opt.EigTol}
	if pr.opt.Design.graph() {
		settings.Which = eig.Smallest
	}
	solve := eig.TopD
	_, block := op.(eig.BlockOperator)
	switch {
	case pr.affinity && pr.opt.large(pr.n):
		// The top of a normalised affinity (spectrum in [-1, 1]) crowds
		// near 1; at this size orthogonalization dominates the solve, and
		// a Chebyshev filter cuts the Lanczos steps it takes.
		solve = eig.Chebyshev{Lower: -1, Upper: 1}.Solve
	case !block && !pr.opt.large(pr.n):
		// Sparse graphs on the exact path keep the solver the
		// reproduction tables were computed with. (A repeated eigenspace
		// no longer depends on it, see canonicalGroups; another method
		// still moves the other eigenvectors by rounding.)
		solve = eig.ThickRestart{}.Solve
	}
	res, err := solve(ctx, op, pr.opt.d, settings)
	if err != nil {
		return fmt.Errorf("models: eigenpairs: %w", err)
	}
	vals, vecs := res.Values, res.Vectors
	if res.Status != linalg.Converged {
		// Keep the leading pairs that are accurate enough for a design
		// (residual at most AcceptRelTol ||A||); fail only if none is.
		d := 0
		for d < len(vals) && res.Residuals[d] <= AcceptRelTol*res.NormEstimate {
			d++
		}
		if d == 0 {
			return fmt.Errorf("models: eigenpairs: the eigensolver ended %v with no pair within %g of the tolerance: %w", res.Status, AcceptRelTol, res.Status.Err())
		}
		vals, vecs = leading(vals, vecs, d)
	}
	if !pr.opt.Design.graph() {
		vals, vecs = dropRoundoff(vals, vecs)
	}
	if pr.opt.EnergyFraction > 0 {
		d, err := eig.DForEnergy(vals, trace, pr.opt.EnergyFraction)
		if err != nil {
			return fmt.Errorf("models: %w", err)
		}
		vals = vals[:d]
		vecs = mat.DenseCopyOf(vecs.Slice(0, pr.n, 0, d))
	}
	vals = append([]float64(nil), vals...)
	canonicalGroups(vals, vecs, labeled, copyRelTol(pr.opt.EigTol))
	pr.basis = &spectral.Basis{Values: vals, V: vecs}
	return nil
}

// copyRelTol is the relative window within which eigenvalues of a basis
// count as copies of one repeated eigenvalue (see canonicalGroups): a
// hundred times the eigensolver's tolerance, at which it resolves
// eigenvalues, and at least DropRelTol.
func copyRelTol(eigTol float64) float64 { return math.Max(DropRelTol, 100*eigTol) }

// leading returns the first d pairs (copying the vectors when d is smaller).
func leading(vals []float64, vecs *mat.Dense, d int) ([]float64, *mat.Dense) {
	n, c := vecs.Dims()
	if d >= c {
		return vals, vecs
	}
	return vals[:d], mat.DenseCopyOf(vecs.Slice(0, n, 0, d))
}

// dropRoundoff keeps the leading pairs of a kernel basis whose eigenvalue
// is above DropRelTol times the largest (at least one).
func dropRoundoff(vals []float64, vecs *mat.Dense) ([]float64, *mat.Dense) {
	d := 1
	for d < len(vals) && vals[d] > DropRelTol*vals[0] {
		d++
	}
	return leading(vals, vecs, d)
}

// newDesign returns the spectral design of the options.
func (pr *prep) newDesign() spectral.Design { return designFor(&pr.opt) }

// designFor returns a new spectral design for resolved options.
func designFor(o *resolved) spectral.Design {
	switch o.Design {
	case Cluster:
		return spectral.Cluster{}
	case Truncated:
		return spectral.Truncated{}
	case Order:
		return spectral.Order{}
	case ImpOrder:
		return spectral.Order{Improved: true}
	case Diffusion:
		return spectral.Diffusion{Sigma2: o.Sigma2}
	case GaussianField:
		return spectral.GaussianField{Eps: o.Eps}
	case MM:
		return mm.NewDesign(mm.Settings{Decay: o.Decay, C: o.C})
	case LabelSpreading:
		return spectral.Spreading{Alpha: o.Alpha}
	case Custom:
		return o.Custom
	}
	return spectral.NewSKL(o.Decay)
}

// Fit learns a kernel machine from all n points of x (labeled and unlabeled)
// and the class labels (0..c-1, every class present) of the rows labeled.
//
// Pipeline: scale the features (fitted on all n rows); build the initial
// kernel K0 (normalised); compute its top d eigenpairs (or the bottom d of a
// kNN-graph Laplacian) once; choose spectral coefficients mu with the design
// (SKL by default); train the classifier on the low-rank feature map
// Phi = V diag(sqrt(mu)) of the labeled rows (KLR in feature form, O(l d²)
// per Newton step; the SVM on Phi_L Phi_Lᵀ). The learned kernel
// V diag(mu) Vᵀ is never formed. With Design Standard no eigenpairs are
// computed and the classifier is trained on the labeled block of K0.
//
// All points may be labeled. Invalid input returns an error wrapping
// linalg.ErrInvalid. A classifier that stops at its iteration limit or
// stalls gives a usable model and a nil error; Model.Status says how the
// classifier ended.
func Fit(ctx context.Context, x *mat.Dense, labeled []int, labels []int, opt *Options) (*Model, error) {
	if opt != nil && opt.Design == Auto {
		so := &SelectOptions{Base: *opt, Folds: opt.Folds, Vote: opt.Vote}
		so.Base.Design, so.Base.Vote = SKL, VoteAuto
		if p := opt.Progress; p != nil {
			so.Progress = func(done, total int) { p("select", done, total) }
		}
		return Select(ctx, x, labeled, labels, so)
	}
	pr, err := prepare(ctx, x, labeled, labels, opt)
	if err != nil {
		return nil, err
	}
	return fitPrepared(ctx, pr, labeled, labels)
}

// fitPrepared is Fit after the prepare stage.
func fitPrepared(ctx context.Context, pr *prep, labeled, labels []int) (*Model, error) {
	var err error
	m := pr.newModel(labeled, labels)
	if pr.opt.Classifier == Spread {
		t0 := time.Now()
		m.spread, err = spreadScores(ctx, pr.graph.s, pr.graph.copies, pr.opt.spreadAlpha(), labeled, labels, pr.classes)
		m.times.Fit = time.Since(t0)
		if err != nil {
			return nil, err
		}
		massNormalize(m.spread, labels, pr.classes)
		priorUnreached(m.spread, labels, pr.classes)
		return m, nil
	}
	if pr.basis != nil {
		t0 := time.Now()
		target, err := spectral.Target(labels, pr.classes)
		if err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		m.mu, err = pr.newDesign().Coefficients(ctx, nil, pr.basis, labeled, target)
		m.times.Design = time.Since(t0)
		pr.progress("design")
		if err != nil {
			return nil, fmt.Errorf("models: %v design: %w", pr.opt.Design, err)
		}
		m.setFeatures()
	} else {
		m.kxl, err = pr.crossTrain(ctx, nil, labeled)
		if err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	err = m.train(ctx)
	m.times.Fit = time.Since(t0)
	pr.progress("classifier")
	if err != nil && !m.trained() {
		return nil, err
	}
	m.alignment = m.computeAlignment()
	return m, err
}

func (pr *prep) newModel(labeled, labels []int) *Model {
	return &Model{
		pr:      pr,
		classes: pr.classes,
		labeled: append([]int(nil), labeled...),
		labels:  append([]int(nil), labels...),
		times:   pr.times,
	}
}

// gatherRows copies rows idx of src into dst (reshaped when needed).
func gatherRows(dst *mat.Dense, src *mat.Dense, idx []int) *mat.Dense {
	_, c := src.Dims()
	if dst == nil {
		dst = mat.NewDense(len(idx), c, nil)
	} else if r, cc := dst.Dims(); r != len(idx) || cc != c {
		dst.Reset()
		dst.ReuseAs(len(idx), c)
	}
	for a, i := range idx {
		copy(dst.RawRowView(a), src.RawRowView(i))
	}
	return dst
}

// scaleColumns sets dst = src diag(w); dst may be src.
func scaleColumns(dst, src *mat.Dense, w []float64) {
	r, c := src.Dims()
	for i := 0; i < r; i++ {
		s, d := src.RawRowView(i)[:c], dst.RawRowView(i)[:c]
		for j, v := range s {
			d[j] = v * w[j]
		}
	}
}

// sqrtMu returns sqrt(mu) elementwise into dst.
func sqrtMu(dst, mu []float64) []float64 {
	dst = append(dst[:0], mu...)
	for i, v := range dst {
		dst[i] = math.Sqrt(v)
	}
	return dst
}

// alignFeatures returns the alignment of the kernel Phi Phiᵀ with the target
// Y Yᵀ: ||Phiᵀ Y||_F² / (||Phiᵀ Phi||_F ||Yᵀ Y||_F), in O(l d² + l r²).
func alignFeatures(phi, y *mat.Dense) float64 {
	var w alignWork
	return w.features(phi, y)
}

// alignWork holds the small products of alignFeatures for reuse.
type alignWork struct{ py, pp, yy []float64 }

func (w *alignWork) features(phi, y *mat.Dense) float64 {
	p, t := phi.RawMatrix(), y.RawMatrix()
	d, r := p.Cols, t.Cols
	w.py = growF(w.py, d*r)
	w.pp = growF(w.pp, d*d)
	w.yy = growF(w.yy, r*r)
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, p, t, 0, blasGeneral(d, r, w.py))
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, p, p, 0, blasGeneral(d, d, w.pp))
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, t, t, 0, blasGeneral(r, r, w.yy))
	den := math.Sqrt(sumSquares(w.pp) * sumSquares(w.yy))
	if den == 0 {
		return 0
	}
	return sumSquares(w.py) / den
}

func sumSquares(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return s
}

// growF returns a slice of length n, reusing b's storage when it can.
func growF(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}

// alignKernel returns the alignment of the symmetric kernel block k with
// Y Yᵀ: tr(Yᵀ K Y) / (||K||_F ||Yᵀ Y||_F).
func alignKernel(k, y *mat.Dense) float64 {
	var ky, yky, yy mat.Dense
	ky.Mul(k, y)
	yky.Mul(y.T(), &ky)
	yy.Mul(y.T(), y)
	den := mat.Norm(k, 2) * mat.Norm(&yy, 2)
	if den == 0 {
		return 0
	}
	return mat.Trace(&yky) / den
}

// gemvRows sets dst[i] = row_i(a) . w + b for the m rows of a.
func gemvRows(dst []float64, a *mat.Dense, w []float64, b float64) {
	raw := a.RawMatrix()
	for i := range dst[:raw.Rows] {
		dst[i] = b
	}
	blas64.Gemv(blas.NoTrans, 1, raw, blas64.Vector{N: len(w), Inc: 1, Data: w}, 1,
		blas64.Vector{N: raw.Rows, Inc: 1, Data: dst})
}

// blasGeneral returns a dense r x c row-major view of data.
func blasGeneral(r, c int, data []float64) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: c, Data: data[:r*c]}
}
