package models

import (
	"fmt"
	"math"
	"time"

	"ukm/linalg"
	"ukm/models/spectral"
)

// KernelKind selects the initial kernel.
type KernelKind int

// Initial kernels of KDD'06 Table 2.
const (
	// RBF is exp(-Gamma ||x - z||^2) (the zero value).
	RBF KernelKind = iota
	// Linear is x.z.
	Linear
	// Quadratic is (x.z + 1)^2.
	Quadratic
	// KNN is the normalised affinity S = D^-1/2 W D^-1/2 of the symmetric
	// GraphK-nearest-neighbour graph W of the scaled data (binary weights,
	// or local-scale heat weights with KernelSpec.LocalScale). Its top
	// eigenvectors are the smooth functions on the data manifold, which
	// separate image classes (digits, objects under rotation) that one
	// global RBF width does not. It is a basis for the kernel designs (SKL,
	// Cluster, Truncated, MM, LabelSpreading); it has no Standard design (S
	// is not a kernel function of new points). New points are placed by the
	// graph's Nyström extension: their kNN among the training points,
	// weighted as in the graph.
	KNN
)

// String returns the kernel name, for example "RBF".
func (k KernelKind) String() string {
	switch k {
	case RBF:
		return "RBF"
	case Linear:
		return "Linear"
	case Quadratic:
		return "Quadratic"
	case KNN:
		return "kNN"
	}
	return fmt.Sprintf("KernelKind(%d)", int(k))
}

// KernelSpec describes the initial kernel K0. The zero value is an RBF
// kernel with the median bandwidth, cosine-normalised.
type KernelSpec struct {
	Kind KernelKind
	// Gamma is the RBF width. Zero means 1 / median of the squared pairwise
	// distances of the scaled data (linalg.MedianGamma, seeded by
	// Options.Seed when pairs are sampled). Ignored by other kinds.
	Gamma float64
	// PolyScale is the Quadratic kernel's inner scale s in (s x.z + 1)^2.
	// Zero means 1/p for p features (LIBSVM's and scikit-learn's default
	// gamma): for scaled data x.z grows like p, and without the 1/p the
	// offset is negligible and the cosine-normalised kernel tends to the
	// identity as p grows (on sonar, p = 60, accuracy falls to chance).
	// Ignored by other kinds.
	PolyScale float64
	// WidthScale multiplies the RBF width found by the median heuristic:
	// the kernel is exp(-gamma_med ||x - z||^2 / WidthScale^2). Zero means
	// 1. Ignored when Gamma is set and by other kinds.
	WidthScale float64
	// LocalScale gives the KNN kernel's graph heat weights
	// exp(-||xi - xj||^2 / (s_i s_j)) with s_i the distance to the 7th
	// nearest neighbour (linalg.LocalHeat) instead of binary weights.
	// Ignored by other kinds.
	LocalScale bool
	// Raw disables the cosine normalisation K_ij / sqrt(K_ii K_jj). By
	// default K0 is normalised, as Fig. 6 of KDD'06 asks for an "initial
	// normalized kernel"; for the RBF kernel, whose diagonal is 1, the
	// normalisation changes nothing.
	Raw bool
}

// Scaling selects the per-feature scaling applied before the kernel.
type Scaling int

// Feature scalings. The scaler is fitted on all n points, labeled and
// unlabeled (the transductive setting of KDD'06: the unlabeled points are
// known when the model is built), and applied unchanged to new points.
const (
	// ZScore maps every column to mean 0, standard deviation 1 (default).
	ZScore Scaling = iota
	// MinMax maps every column's range to [0, 1].
	MinMax
	// NoScaling uses the features as given.
	NoScaling
)

// DesignKind selects how the kernel is built from the spectrum.
type DesignKind int

// Kernel designs. SKL, Cluster and Truncated work on the top D eigenpairs of
// the initial kernel; Order, ImpOrder, Diffusion and GaussianField on the
// bottom D eigenpairs of the combinatorial Laplacian of the unweighted
// GraphK-nearest-neighbour graph (KDD'06 section 6.2); Standard uses the
// initial kernel itself (no eigenpairs).
const (
	// SKL is spectral kernel learning (KDD'06 section 4.2), the default.
	SKL DesignKind = iota
	// Cluster gives the D leading eigenvectors equal weight (eq. 15).
	Cluster
	// Truncated keeps the initial kernel's top-D spectrum (eq. 16).
	Truncated
	// Order is the order-constrained graph kernel.
	Order
	// ImpOrder is Order with the constant eigenvectors left out of the
	// order chain.
	ImpOrder
	// Standard is the initial kernel itself: the "standard kernel"
	// baselines of Table 2.
	Standard
	// Diffusion is the diffusion transform exp(-Sigma2 lambda / 2).
	Diffusion
	// GaussianField is the transform 1 / (lambda + Eps).
	GaussianField
	// MM is the maximum-margin spectral kernel (max-margin paper eq. 13-14,
	// package models/mm): the coefficients in the same fast-decay cone as
	// SKL (factor Decay) that minimise the SVM dual optimum on the labeled block
	// with box C. With more than two classes one shared kernel minimises
	// the sum of the one-vs-all optima. It pairs naturally with the SVM
	// classifier, but any classifier can be trained on the kernel.
	MM
	// LabelSpreading is the kernel of label spreading (Zhou et al., 2004),
	// mu_i = 1 / (1 - Alpha theta_i / theta_1) on the top D eigenpairs
	// (spectral.Spreading); on the KNN kernel's basis it is Zhou's
	// (I - Alpha S)^-1 restricted to the top D eigenvectors.
	LabelSpreading
	// Auto chooses the kernel, design and classifier settings by
	// cross-validation on the labeled points (see Select); the other
	// fields of Options supply what the candidates share (scaling, seed,
	// classifier, folds).
	Auto
	// Custom is the user's design, Options.Custom (any spectral.Design,
	// for example a labelaware.Design), applied to the top D eigenpairs of
	// the initial kernel as the built-in kernel designs are. Its
	// coefficients may weigh the basis vectors in any way; the model's
	// feature map and out-of-sample extension are those of SKL.
	Custom
)

// String returns the classifier name, for example "KLR".
func (c ClassifierKind) String() string {
	switch c {
	case KLR:
		return "KLR"
	case SVM:
		return "SVM"
	case Spread:
		return "Spread"
	}
	return fmt.Sprintf("ClassifierKind(%d)", int(c))
}

// String returns the design name used in KDD'06 Table 2, for example "Imp-Order".
func (d DesignKind) String() string {
	switch d {
	case SKL:
		return "SKL"
	case Cluster:
		return "Cluster"
	case Truncated:
		return "Truncated"
	case Order:
		return "Order"
	case ImpOrder:
		return "Imp-Order"
	case Standard:
		return "Standard"
	case Diffusion:
		return "Diffusion"
	case GaussianField:
		return "GaussianField"
	case MM:
		return "MM"
	case LabelSpreading:
		return "LabelSpreading"
	case Auto:
		return "Auto"
	case Custom:
		return "Custom"
	}
	return fmt.Sprintf("DesignKind(%d)", int(d))
}

// graph reports whether the design works on a Laplacian basis.
func (d DesignKind) graph() bool {
	return d == Order || d == ImpOrder || d == Diffusion || d == GaussianField
}

// ClassifierKind selects the kernel machine trained on the learned kernel.
type ClassifierKind int

// Classifiers.
const (
	// KLR is kernel logistic regression, one-versus-all (the default).
	KLR ClassifierKind = iota
	// SVM is the C-SVM, one-versus-all.
	SVM
	// Spread is label spreading itself (Zhou et al., 2004) on the whole kNN
	// graph: the scores F = (I - Alpha S)^-1 Y of every point, no training
	// and no truncation to D eigenvectors, each class's column then scaled
	// so that its total is the class's share of the labels (class mass
	// normalisation, Zhu, Ghahramani and Lafferty, 2003: a class whose
	// labeled points sit in denser parts of the graph does not swallow the
	// others); a point takes the class of its largest score. A point that no
	// label reaches (a component of the graph without a labeled point, as
	// cliques of duplicate rows make) takes the labels' class shares as its
	// scores: the most frequent labeled class. It needs the
	// KNN kernel and the LabelSpreading design (whose kernel it is) with D
	// left at zero. New points take the weighted scores of their graph
	// neighbours.
	Spread
)

// Defaults used when the corresponding Options field is zero.
const (
	// DefaultD is the number of eigenpairs (KDD'06 section 6.2 fixes 20).
	DefaultD = 20
	// DefaultEnergyCap bounds d when it is chosen by EnergyFraction and D
	// is zero.
	DefaultEnergyCap = 50
	// DefaultDecay is the SKL decay factor (the paper's C in
	// mu_i >= C mu_{i+1}). KDD'06 Figs. 2-5 show 2 and 3 both stable and
	// better than 1, while a large factor over-constrains the
	// QP; 2 is the mildest of the values that work in all four figures.
	DefaultDecay = 2
	// DefaultC is the SVM box bound used in the max-margin paper.
	DefaultC = 100
	// DefaultGraphK is the neighbour count of the kNN graph (section 6.2).
	DefaultGraphK = 10
	// DefaultGraphDims is the number of principal components the large-n
	// path searches the kNN graph in above DefaultLargeN points
	// (Options.GraphDims): distances between
	// images of hundreds of pixels are dominated by their leading
	// components, and the search runs in a space a fraction of the size.
	DefaultGraphDims = 50
	// DefaultSigma2 is the diffusion parameter. The papers tune it by
	// cross-validation; 1 keeps exp(-lambda/2) from flattening the bottom
	// of a 10-NN Laplacian spectrum, whose eigenvalues are of order 1.
	DefaultSigma2 = 1
	// DefaultEps is the Gaussian-field regulariser (tuned by
	// cross-validation in the papers).
	DefaultEps = 1e-2
	// DefaultEigTol is the relative residual tolerance of the
	// eigensolver (eig.Settings.Tol): ||K v - theta v|| <= 1e-10 ||K||.
	// An eigenvector then lies within about 1e-10 ||K|| / gap of the
	// exact one, far below what the alignment QP and the classifier can
	// resolve (their own tolerances are 1e-9 and 1e-8), and the solve
	// skips the last steps and the final refinement that eig's default
	// (round-off level, eig.DefaultTol) pays for: on the ionosphere
	// kernel (n = 351, d = 20) 128 products instead of 176.
	DefaultEigTol = 1e-10
)

// Options configures Fit. The zero value means every documented default:
// z-scored features, a normalised RBF kernel of median width, SKL with
// C = 2 on 20 eigenpairs, and KLR without intercept whose lambda is chosen
// by cross-validation.
type Options struct {
	Kernel KernelSpec
	Scale  Scaling
	Design DesignKind
	// D is the number of eigenpairs. Zero means min(DefaultD, n); a D
	// larger than n is an error. With EnergyFraction > 0, D is the upper
	// bound (zero: min(DefaultEnergyCap, n)).
	D int
	// EnergyFraction, if positive, chooses d as the smallest number of
	// leading eigenpairs of the initial kernel that carry this fraction of
	// its trace (KDD'06 section 4.2); it must be at most 1 and applies only
	// to the kernel designs (SKL, Cluster, Truncated).
	EnergyFraction float64
	// Custom is the design of Design Custom, and must be nil otherwise.
	Custom spectral.Design
	// Decay is the decay factor of SKL and MM (mu_i >= Decay mu_{i+1}), at least 1.
	// Zero means DefaultC.
	Decay float64
	// Classifier selects KLR (default) or SVM.
	Classifier ClassifierKind
	// Lambda is the KLR regularisation. Zero means: choose it by stratified
	// Folds-fold cross-validation on the labeled set over klr.DefaultGrid().
	// If some class has a single labeled example cross-validation is
	// impossible and klr.DefaultLambda is used (Model.LambdaSource says so).
	Lambda float64
	// C is the SVM box bound (of the SVM classifier and the MM design).
	// Zero means DefaultC.
	C float64
	// Bias adds an unpenalised intercept to KLR. The default (false)
	// follows eq. 17-18 of KDD'06, which omit it; the leading eigenvector of
	// a normalised kernel is close to constant and plays its part.
	Bias bool
	// Folds is the number of cross-validation folds; zero means
	// klr.DefaultFolds.
	Folds int
	// Vote says whether Design Auto returns the chosen candidate alone
	// (VoteNone) or a committee (VoteAuto, the default, or VoteSoft; see
	// VoteMode). Other designs take no vote and refuse a non-zero Vote.
	Vote VoteMode
	// Seed drives every random choice: cross-validation folds, eigensolver
	// start vectors, sampled bandwidth pairs, random selection.
	Seed uint64
	// GraphK is the neighbour count of the kNN graph of the graph designs
	// and of the KNN kernel; zero means DefaultGraphK. On the exact path the
	// points tied with a point's GraphK-th neighbour are its neighbours too
	// (linalg.TiedNeighbors).
	GraphK int
	// Sigma2 is the diffusion parameter; zero means DefaultSigma2.
	Sigma2 float64
	// Eps is the Gaussian-field regulariser; zero means DefaultEps.
	Eps float64
	// Alpha is the label-spreading parameter, in (0, 1); zero means
	// spectral.DefaultAlpha.
	Alpha float64
	// Large selects the exact path or the large-n path (no n x n matrix:
	// Nyström landmarks for kernel bases, approximate kNN for graphs); the
	// zero value LargeAuto takes the large-n path above DefaultLargeN
	// points.
	Large LargeMode
	// Landmarks is the Nyström landmark count m of the large-n path; zero
	// means DefaultLandmarks (capped at n).
	Landmarks int
	// GraphDims is the number of principal components of the scaled data
	// (or of their GraphFeatures descriptors) in whose space the kNN
	// graph is searched when the data have more features than that
	// (linalg.FitPCA; new points are projected the same way). Zero means
	// DefaultGraphDims on the large-n path above DefaultLargeN points
	// (where it is taken automatically) and no projection otherwise; -1
	// means no projection. It applies only where a kNN graph is built
	// (the KNN kernel, the graph designs, the Spread classifier).
	GraphDims int
	// GraphFeatures, if set, reads every point as a grey-level image and
	// searches the kNN graph among the images' histograms of oriented
	// gradients (linalg.HOG; projected by GraphDims like any other
	// features) instead of among their pixels: two images are then
	// neighbours when their edges run alike, whatever their brightness.
	// It needs Scale NoScaling (an image's descriptor must not depend on
	// the other images) and applies only where a kNN graph is built, as
	// GraphDims. New points are described the same way. Nil means the
	// scaled features themselves.
	GraphFeatures *linalg.HOG
	// MaxMemory is the budget in bytes for one fit's large allocations; a
	// request estimated above it is refused before they are made. Zero
	// means DefaultMaxMemory.
	MaxMemory int64
	// Progress, if set, is called from the fitting goroutine as the long
	// stages advance: stage names "scale", "describe" (the HOG
	// descriptors of GraphFeatures), "project" (the principal
	// components of GraphDims), "kernel", "neighbors" (with the
	// approximate search's steps as done/total), "eigen", "design" and
	// "classifier", each reported once with done = total when it ends.
	Progress func(stage string, done, total int)
	// EigTol is the relative residual tolerance of the eigensolver; zero
	// means DefaultEigTol. Pass eig.DefaultTol for pairs at round-off
	// level.
	EigTol float64
}

// resolved holds validated options with defaults filled in.
type resolved struct {
	Options
	d, dcap int
}

func finitePos(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

func (o *Options) resolve(n int) (resolved, error) {
	var r resolved
	if o != nil {
		r.Options = *o
	}
	if h := r.GraphFeatures; h != nil {
		c := *h // not the caller's: Fit fills in its defaults
		r.GraphFeatures = &c
	}
	switch {
	case r.Kernel.Kind < RBF || r.Kernel.Kind > KNN:
		return r, inputf(linalg.ErrSettings, "unknown kernel kind %d", int(r.Kernel.Kind))
	case math.IsNaN(r.Kernel.Gamma) || math.IsInf(r.Kernel.Gamma, 0) || r.Kernel.Gamma < 0:
		return r, inputf(linalg.ErrSettings, "RBF gamma %v must be positive and finite (0 = median heuristic)", r.Kernel.Gamma)
	case math.IsNaN(r.Kernel.PolyScale) || math.IsInf(r.Kernel.PolyScale, 0) || r.Kernel.PolyScale < 0:
		return r, inputf(linalg.ErrSettings, "quadratic kernel scale %v must be positive and finite (0 = 1/p)", r.Kernel.PolyScale)
	case r.Scale < ZScore || r.Scale > NoScaling:
		return r, inputf(linalg.ErrSettings, "unknown scaling %d", int(r.Scale))
	case r.Design < SKL || r.Design > Custom:
		return r, inputf(linalg.ErrSettings, "unknown design %d", int(r.Design))
	case r.Classifier != KLR && r.Classifier != SVM && r.Classifier != Spread:
		return r, inputf(linalg.ErrSettings, "unknown classifier %d", int(r.Classifier))
	case r.Classifier == Spread && (r.Kernel.Kind != KNN || r.Design != LabelSpreading || r.D != 0 || r.EnergyFraction != 0):
		return r, inputf(linalg.ErrSettings, "the Spread classifier needs the KNN kernel and the LabelSpreading design with D and EnergyFraction zero (it uses the whole graph)")
	case r.D < 0:
		return r, inputf(linalg.ErrSettings, "D = %d is negative", r.D)
	case r.D > n:
		return r, inputf(linalg.ErrSettings, "D = %d eigenpairs requested for n = %d points", r.D, n)
	case math.IsNaN(r.EnergyFraction) || r.EnergyFraction < 0 || r.EnergyFraction > 1:
		return r, inputf(linalg.ErrSettings, "energy fraction %v must be in [0, 1]", r.EnergyFraction)
	case r.EnergyFraction > 0 && r.Design != SKL && r.Design != Cluster && r.Design != Truncated && r.Design != MM && r.Design != LabelSpreading:
		return r, inputf(linalg.ErrSettings, "energy fraction applies to the kernel designs only, not %v", r.Design)
	case math.IsNaN(r.Decay) || math.IsInf(r.Decay, 0) || (r.Decay != 0 && r.Decay < 1):
		return r, inputf(linalg.ErrSettings, "decay factor %v, want a finite value >= 1", r.Decay)
	case math.IsNaN(r.Lambda) || math.IsInf(r.Lambda, 0) || r.Lambda < 0:
		return r, inputf(linalg.ErrSettings, "lambda %v must be positive and finite (0 = cross-validation)", r.Lambda)
	case math.IsNaN(r.C) || math.IsInf(r.C, 0) || r.C < 0:
		return r, inputf(linalg.ErrSettings, "SVM box bound C = %v must be positive and finite", r.C)
	case r.Folds < 0 || r.Folds == 1:
		return r, inputf(linalg.ErrSettings, "folds = %d, want 0 (default) or at least 2", r.Folds)
	case r.Vote < VoteAuto || r.Vote > VoteSoft:
		return r, inputf(linalg.ErrSettings, "unknown vote mode %d", int(r.Vote))
	case r.GraphK < 0:
		return r, inputf(linalg.ErrSettings, "graph neighbours %d is negative", r.GraphK)
	case math.IsNaN(r.Sigma2) || math.IsInf(r.Sigma2, 0) || r.Sigma2 < 0:
		return r, inputf(linalg.ErrSettings, "diffusion sigma² %v must be positive and finite", r.Sigma2)
	case math.IsNaN(r.Eps) || math.IsInf(r.Eps, 0) || r.Eps < 0:
		return r, inputf(linalg.ErrSettings, "Gaussian-field eps %v must be positive and finite", r.Eps)
	case r.Classifier == Spread && r.Kernel.LocalScale:
		return r, inputf(linalg.ErrSettings, "the Spread classifier spreads over the binary kNN relation; LocalScale does not apply")
	case r.Classifier == Spread && r.GraphK == 1:
		return r, inputf(linalg.ErrSettings, "the Spread classifier needs GraphK >= 2 (each point listens to GraphK - 1 neighbours besides itself)")
	case r.Large < LargeAuto || r.Large > LargeOn:
		return r, inputf(linalg.ErrSettings, "unknown large-n mode %d", int(r.Large))
	case r.Landmarks < 0:
		return r, inputf(linalg.ErrSettings, "landmarks %d is negative", r.Landmarks)
	case r.GraphDims < -1:
		return r, inputf(linalg.ErrSettings, "graph dimensions %d, want -1 (no projection), 0 (default) or a positive count", r.GraphDims)
	case r.GraphFeatures != nil && r.Scale != NoScaling:
		return r, inputf(linalg.ErrSettings, "GraphFeatures (HOG descriptors) need the images as given: set Scale to NoScaling")
	case r.MaxMemory < 0:
		return r, inputf(linalg.ErrSettings, "memory budget %d is negative", r.MaxMemory)
	case math.IsNaN(r.Kernel.WidthScale) || math.IsInf(r.Kernel.WidthScale, 0) || r.Kernel.WidthScale < 0:
		return r, inputf(linalg.ErrSettings, "RBF width scale %v must be positive and finite (0 = 1)", r.Kernel.WidthScale)
	case math.IsNaN(r.Alpha) || r.Alpha < 0 || r.Alpha >= 1:
		return r, inputf(linalg.ErrSettings, "label-spreading alpha %v must lie in (0, 1) (0 = default)", r.Alpha)
	case r.Kernel.Kind == KNN && r.Design == Standard:
		return r, inputf(linalg.ErrSettings, "the kNN kernel has no Standard design (use a spectral design such as SKL or LabelSpreading)")
	case r.Kernel.Kind == KNN && r.EnergyFraction > 0:
		return r, inputf(linalg.ErrSettings, "energy fraction needs a kernel with a trace; the kNN kernel's eigenvalues are at most 1")
	case math.IsNaN(r.EigTol) || math.IsInf(r.EigTol, 0) || r.EigTol < 0 || r.EigTol >= 1:
		return r, inputf(linalg.ErrSettings, "eigensolver tolerance %v must be in [0, 1) (0 = default)", r.EigTol)
	}
	if err := r.checkKnobs(); err != nil {
		return r, err
	}
	if r.EigTol == 0 {
		r.EigTol = DefaultEigTol
	}
	// Defaults only for the knobs in use, so that resolved options pass
	// checkKnobs again.
	if r.Decay == 0 && (r.Design == SKL || r.Design == MM) {
		r.Decay = DefaultDecay
	}
	if r.C == 0 && (r.Classifier == SVM || r.Design == MM) {
		r.C = DefaultC
	}
	if r.GraphK == 0 {
		r.GraphK = DefaultGraphK
	}
	if r.Sigma2 == 0 && r.Design == Diffusion {
		r.Sigma2 = DefaultSigma2
	}
	if r.Eps == 0 && r.Design == GaussianField {
		r.Eps = DefaultEps
	}
	r.d = r.D
	if r.d == 0 {
		r.d = min(DefaultD, n)
		if r.EnergyFraction > 0 {
			r.d = min(DefaultEnergyCap, n)
		}
	}
	if (r.Design.graph() || r.Kernel.Kind == KNN) && r.GraphK >= n {
		return r, inputf(linalg.ErrSettings, "graph needs GraphK = %d < n = %d", r.GraphK, n)
	}
	return r, nil
}

// StageTimes records wall-clock time per stage of a fit or round.
type StageTimes struct {
	// Kernel: scaling, bandwidth, Gram (or kNN graph and Laplacian).
	Kernel time.Duration
	// Eig: the eigenpairs.
	Eig time.Duration
	// Design: the spectral coefficients (the SKL QP).
	Design time.Duration
	// Fit: cross-validation and classifier training.
	Fit time.Duration
	// Select: probabilities, entropies and selection over the unlabeled
	// points (active learning rounds only).
	Select time.Duration
}

// Total returns the sum of the stage times.
func (s StageTimes) Total() time.Duration {
	return s.Kernel + s.Eig + s.Design + s.Fit + s.Select
}

// resolveImages fills in the HOG settings of GraphFeatures (r's own copy)
// for rows of p values.
func (r *resolved) resolveImages(p int) error {
	if h := r.GraphFeatures; h != nil {
		v, err := h.Resolve(p)
		if err != nil {
			return fmt.Errorf("models: GraphFeatures: %w", err)
		}
		*h = v
	}
	return nil
}

// Trim returns o with every knob that its design and classifier do not use
// set to zero (see checkKnobs), so that one Options can serve several
// designs: Decay outside SKL and MM, Sigma2 outside Diffusion, Eps outside
// GaussianField, Alpha outside label spreading, C without an SVM, Lambda and
// Bias without KLR, Custom outside the Custom design, GraphDims and
// GraphFeatures without a kNN graph. Under Auto the design
// knobs and the classifier's are all trimmed (the candidates set them).
func (o Options) Trim() Options {
	d, c := o.Design, o.Classifier
	if d != SKL && d != MM {
		o.Decay = 0
	}
	if d != Diffusion {
		o.Sigma2 = 0
	}
	if d != GaussianField {
		o.Eps = 0
	}
	if d != LabelSpreading && c != Spread {
		o.Alpha = 0
	}
	if c != SVM && d != MM {
		o.C = 0
	}
	if c != KLR || d == Auto {
		o.Lambda, o.Bias = 0, false
	}
	if d != Custom {
		o.Custom = nil
	}
	if d != Auto && !d.graph() && o.Kernel.Kind != KNN && c != Spread {
		o.GraphDims, o.GraphFeatures = 0, nil
	}
	if d != Auto {
		o.Vote = VoteAuto
	}
	return o
}

// checkKnobs rejects a setting that the chosen design or classifier would
// ignore: a knob that does nothing is an error, not silence. Under Auto
// the candidates set the design knobs, so none may be given.
func (r *resolved) checkKnobs() error {
	d, c := r.Design, r.Classifier
	knob := func(set bool, name string, used bool, users string) error {
		if set && !used {
			return inputf(linalg.ErrSettings, "%s is set but the %v design with the %v classifier does not use it (it applies to %s)", name, d, c, users)
		}
		return nil
	}
	for _, err := range []error{
		knob(r.Decay != 0, "Decay", d == SKL || d == MM, "the SKL and MM designs"),
		knob(r.Sigma2 != 0, "Sigma2", d == Diffusion, "the Diffusion design"),
		knob(r.Eps != 0, "Eps", d == GaussianField, "the GaussianField design"),
		knob(r.Alpha != 0, "Alpha", d == LabelSpreading || c == Spread, "the LabelSpreading design and the Spread classifier"),
		knob(r.C != 0, "C", c == SVM || d == MM, "the SVM classifier and the MM design"),
		knob(r.Lambda != 0, "Lambda", c == KLR && d != Auto, "the KLR classifier"),
		knob(r.Bias, "Bias", c == KLR && d != Auto, "the KLR classifier"),
		knob(r.Custom != nil, "Custom", d == Custom, "the Custom design"),
		knob(r.Vote != VoteAuto, "Vote", d == Auto, "the Auto design"),
		knob(r.GraphDims != 0, "GraphDims", d == Auto || d.graph() || r.Kernel.Kind == KNN || c == Spread, "kNN graphs: the KNN kernel, the graph designs and the Spread classifier"),
		knob(r.GraphFeatures != nil, "GraphFeatures", d == Auto || d.graph() || r.Kernel.Kind == KNN || c == Spread, "kNN graphs: the KNN kernel, the graph designs and the Spread classifier"),
	} {
		if err != nil {
			return err
		}
	}
	if d == Custom && r.Custom == nil {
		return inputf(linalg.ErrSettings, "the Custom design needs Options.Custom, a spectral.Design")
	}
	return nil
}
