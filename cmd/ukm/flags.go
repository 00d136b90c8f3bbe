package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"ukm/linalg"
	"ukm/models"
	"ukm/models/labelaware"
)

// modelFlags registers the flags that set model options.
type modelFlags struct {
	kernel, design, scale, classifier, vote string
	d, k                                    int
	decay, c, lambda, gamma, energy         float64
	alpha, sigma2, eps                      float64
	weighting                               string
	width                                   float64
	bias, raw, local                        bool
	large                                   string
	landmarks, folds, graphDims             int
	graphFeatures, imageSize                string
	hogCell                                 int
	polyScale, eigTol, maxMemoryGB          float64
}

// designNames lists the values of -design, in the order of the help text.
var designNames = []string{"auto", "skl", "cluster", "truncated", "label-spreading", "mm", "labelaware",
	"order", "imp-order", "standard", "diffusion", "gaussian-field"}

// designKinds maps -design values to designs; labelaware is the Custom
// design with a labelaware.Design.
var designKinds = map[string]models.DesignKind{
	"auto": models.Auto, "skl": models.SKL, "cluster": models.Cluster, "truncated": models.Truncated,
	"label-spreading": models.LabelSpreading, "mm": models.MM, "labelaware": models.Custom,
	"order": models.Order, "imp-order": models.ImpOrder, "standard": models.Standard,
	"diffusion": models.Diffusion, "gaussian-field": models.GaussianField,
}

// weightings maps -weighting values to label-aware weightings.
var weightings = map[string]labelaware.Weighting{
	"": labelaware.WeightAlignf, "alignf": labelaware.WeightAlignf,
	"uniform": labelaware.WeightUniform, "independent": labelaware.WeightIndependent,
}

// modelFlagNames are the flags that register adds.
var modelFlagNames = []string{"kernel", "design", "weighting", "sigma2", "eps", "k", "alpha", "width-scale", "local-scale",
	"large", "landmarks", "graph-dims", "graph-features", "hog-cell", "image-size", "scale", "classifier", "d", "decay", "C", "lambda", "gamma", "poly-scale", "folds", "vote", "eig-tol",
	"max-memory", "energy", "bias", "raw"}

// modelFlagsSet returns the model flags among the flags set.
func modelFlagsSet(set map[string]bool) []string {
	var out []string
	for _, n := range modelFlagNames {
		if set[n] {
			out = append(out, "-"+n)
		}
	}
	return out
}

// register adds the model flags to fs; design is the default of -design.
func (m *modelFlags) register(fs *flag.FlagSet, design string) {
	fs.StringVar(&m.kernel, "kernel", "rbf", "initial kernel: linear, quadratic, rbf or knn (normalised kNN-graph affinity); ignored by -design auto")
	fs.StringVar(&m.design, "design", design, "kernel design: "+strings.Join(designNames, ", ")+" (auto: chosen by cross-validation on the labeled rows; labelaware: the label-aware weighting of the eigenvectors, see -weighting)")
	fs.StringVar(&m.weighting, "weighting", "", "with -design labelaware: alignf, uniform or independent (empty: alignf)")
	fs.Float64Var(&m.sigma2, "sigma2", 0, "with -design diffusion: the diffusion parameter (0: 1)")
	fs.Float64Var(&m.eps, "eps", 0, "with -design gaussian-field: the regulariser (0: 0.01)")
	fs.IntVar(&m.k, "k", 0, "neighbours of the kNN graph (0: 10)")
	fs.Float64Var(&m.alpha, "alpha", 0, "label-spreading alpha in (0, 1) (0: 0.99)")
	fs.Float64Var(&m.width, "width-scale", 0, "multiply the RBF median width by this (0: 1)")
	fs.BoolVar(&m.local, "local-scale", false, "kNN graph with local-scale heat weights instead of binary ones")
	fs.StringVar(&m.large, "large", "auto", "large-n path (Nyström landmarks, approximate kNN; no n x n matrix): auto (above 10,000 rows), on or off")
	fs.IntVar(&m.landmarks, "landmarks", 0, "Nyström landmarks of the large-n path (0: 1000)")
	fs.IntVar(&m.graphDims, "graph-dims", 0, "principal components the kNN graph is searched in (0: 50 on the large-n path above 10,000 rows, none otherwise; -1: none)")
	fs.StringVar(&m.graphFeatures, "graph-features", "pixels", "what the kNN graph is searched among: pixels (the scaled features) or hog (the rows read as grey-level images, described by histograms of oriented gradients; needs -scale none)")
	fs.IntVar(&m.hogCell, "hog-cell", 0, "with -graph-features hog: the cell side in pixels (0: 4)")
	fs.StringVar(&m.imageSize, "image-size", "", "with -graph-features hog: WIDTHxHEIGHT of the images (empty: square)")
	fs.StringVar(&m.scale, "scale", "zscore", "feature scaling: zscore, minmax or none")
	fs.StringVar(&m.classifier, "classifier", "klr", "classifier: klr, svm or spread (label spreading on the whole kNN graph; with -kernel knn -design label-spreading)")
	fs.IntVar(&m.d, "d", 0, "number of eigenpairs (0: 20)")
	fs.Float64Var(&m.decay, "decay", 0, "with -design skl or mm: the decay factor >= 1 of the spectral coefficients (0: 2)")
	fs.Float64Var(&m.c, "C", 0, "with -classifier svm or -design mm: the SVM box bound (0: 100)")
	fs.Float64Var(&m.lambda, "lambda", 0, "KLR regularisation (0: cross-validation on the labeled set)")
	fs.Float64Var(&m.gamma, "gamma", 0, "RBF width (0: 1/median squared distance)")
	fs.Float64Var(&m.polyScale, "poly-scale", 0, "inner scale s of the quadratic kernel (s x.z + 1)^2 (0: 1/features)")
	fs.IntVar(&m.folds, "folds", 0, "cross-validation folds for lambda and for -design auto (0: the rule)")
	fs.StringVar(&m.vote, "vote", "", "with -design auto: soft (the chosen candidate and up to eight best that the cross-validation cannot tell from it vote by their mean probabilities; the default) or none (the chosen candidate alone)")
	fs.Float64Var(&m.eigTol, "eig-tol", 0, "relative residual tolerance of the eigensolver (0: 1e-10)")
	fs.Float64Var(&m.maxMemoryGB, "max-memory", 0, "memory budget in GB of one fit's large allocations; a larger request is refused before it is made (0: 8)")
	fs.Float64Var(&m.energy, "energy", 0, "choose d by this fraction of cumulative eigen energy (0: off)")
	fs.BoolVar(&m.bias, "bias", false, "add an intercept to KLR")
	fs.BoolVar(&m.raw, "raw", false, "do not cosine-normalise the initial kernel")
}

func (m *modelFlags) options() (models.Options, error) {
	var o models.Options
	switch strings.ToLower(m.kernel) {
	case "rbf":
		o.Kernel.Kind = models.RBF
	case "linear":
		o.Kernel.Kind = models.Linear
	case "quadratic", "quad":
		o.Kernel.Kind = models.Quadratic
	case "knn":
		o.Kernel.Kind = models.KNN
	default:
		return o, fmt.Errorf("unknown -kernel %q (linear, quadratic, rbf, knn)", m.kernel)
	}
	d, ok := designKinds[strings.ToLower(m.design)]
	if !ok {
		return o, fmt.Errorf("unknown -design %q (%s)", m.design, strings.Join(designNames, ", "))
	}
	o.Design = d
	if strings.EqualFold(m.design, "labelaware") {
		w, ok := weightings[strings.ToLower(m.weighting)]
		if !ok {
			return o, fmt.Errorf("unknown -weighting %q (alignf, uniform, independent)", m.weighting)
		}
		o.Custom = labelaware.Design{Weighting: w}
	} else if m.weighting != "" {
		return o, fmt.Errorf("-weighting applies to -design labelaware only")
	}
	switch strings.ToLower(m.scale) {
	case "zscore":
		o.Scale = models.ZScore
	case "minmax":
		o.Scale = models.MinMax
	case "none":
		o.Scale = models.NoScaling
	default:
		return o, fmt.Errorf("unknown -scale %q (zscore, minmax, none)", m.scale)
	}
	switch strings.ToLower(m.classifier) {
	case "klr":
		o.Classifier = models.KLR
	case "svm":
		o.Classifier = models.SVM
	case "spread":
		o.Classifier = models.Spread
	default:
		return o, fmt.Errorf("unknown -classifier %q (klr, svm, spread)", m.classifier)
	}
	o.D, o.Decay, o.C, o.Lambda, o.Kernel.Gamma, o.EnergyFraction = m.d, m.decay, m.c, m.lambda, m.gamma, m.energy
	o.Sigma2, o.Eps = m.sigma2, m.eps
	o.Kernel.PolyScale, o.Folds, o.EigTol = m.polyScale, m.folds, m.eigTol
	switch strings.ToLower(m.vote) {
	case "":
	case "soft":
		o.Vote = models.VoteSoft
	case "none":
		o.Vote = models.VoteNone
	default:
		return o, fmt.Errorf("unknown -vote %q (soft, none)", m.vote)
	}
	if m.vote != "" && d != models.Auto {
		return o, fmt.Errorf("-vote applies to -design auto only")
	}
	o.MaxMemory = int64(m.maxMemoryGB * (1 << 30))
	o.Bias, o.Kernel.Raw = m.bias, m.raw
	o.GraphK, o.Alpha, o.Kernel.WidthScale, o.Kernel.LocalScale = m.k, m.alpha, m.width, m.local
	o.Landmarks, o.GraphDims = m.landmarks, m.graphDims
	switch strings.ToLower(m.graphFeatures) {
	case "pixels":
		if m.hogCell != 0 || m.imageSize != "" {
			return o, fmt.Errorf("-hog-cell and -image-size apply to -graph-features hog only")
		}
	case "hog":
		h := &linalg.HOG{Cell: m.hogCell}
		if m.imageSize != "" {
			w, ht, ok := strings.Cut(strings.ToLower(m.imageSize), "x")
			var errW, errH error
			h.Width, errW = strconv.Atoi(w)
			h.Height, errH = strconv.Atoi(ht)
			if !ok || errW != nil || errH != nil || h.Width < 1 || h.Height < 1 {
				return o, fmt.Errorf("-image-size %q, want WIDTHxHEIGHT such as 28x28", m.imageSize)
			}
		}
		o.GraphFeatures = h
	default:
		return o, fmt.Errorf("unknown -graph-features %q (pixels, hog)", m.graphFeatures)
	}
	switch strings.ToLower(m.large) {
	case "auto":
		o.Large = models.LargeAuto
	case "on":
		o.Large = models.LargeOn
	case "off":
		o.Large = models.LargeOff
	default:
		return o, fmt.Errorf("unknown -large %q (auto, on, off)", m.large)
	}
	return o, nil
}

// progress reports done/total of a long run on w: a one-line bar redrawn
// in place (at most every 100 ms) when w is a terminal, and otherwise a
// plain line at every tenth, so that a redirected log holds no carriage
// returns.
type progress struct {
	w        io.Writer
	label    string
	terminal bool
	start    time.Time
	last     time.Time
	tenth    int
}

func newProgress(w io.Writer, label string) *progress {
	return &progress{w: w, label: label, terminal: isTerminal(w), start: time.Now()}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progress) update(done, total int) {
	now := time.Now()
	eta := ""
	if done > 0 && done < total {
		rem := time.Duration(float64(now.Sub(p.start)) * float64(total-done) / float64(done))
		eta = " eta " + rem.Round(time.Second).String()
	}
	if !p.terminal {
		if t := 10 * done / max(total, 1); t > p.tenth || done >= total {
			p.tenth = t
			fmt.Fprintf(p.w, "%s: %d/%d%s\n", p.label, done, total, eta)
		}
		return
	}
	if done < total && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	const width = 30
	fill := width * done / max(total, 1)
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d%s   ", p.label, strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, total, eta)
	if done >= total {
		fmt.Fprintf(p.w, "\n")
	}
}

// parse parses args into fs and rejects a stray word: the flag package
// stops at the first argument that is not a flag, so every flag after it
// would be ignored without a word.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q: flags take the form -name value, and nothing may follow them (the flags after it would be ignored)", fs.Name(), fs.Arg(0))
	}
	return nil
}

// setFlags returns the names of the flags set on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}
