package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"ukm/models"
)

// modelFlags registers the flags that set model options.
type modelFlags struct {
	kernel, design, scale, classifier string
	d                                 int
	c, lambda, gamma, energy          float64
	bias, raw                         bool
}

func (m *modelFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.kernel, "kernel", "rbf", "initial kernel: linear, quadratic or rbf")
	fs.StringVar(&m.design, "design", "skl", "kernel design: skl, cluster, truncated, order, imp-order, standard, diffusion, gaussian-field")
	fs.StringVar(&m.scale, "scale", "zscore", "feature scaling: zscore, minmax or none")
	fs.StringVar(&m.classifier, "classifier", "klr", "classifier: klr or svm")
	fs.IntVar(&m.d, "d", 0, "number of eigenpairs (0: 20)")
	fs.Float64Var(&m.c, "C", 0, "SKL decay factor C >= 1 (0: the default, 2)")
	fs.Float64Var(&m.lambda, "lambda", 0, "KLR regularisation (0: cross-validation on the labeled set)")
	fs.Float64Var(&m.gamma, "gamma", 0, "RBF width (0: 1/median squared distance)")
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
	default:
		return o, fmt.Errorf("unknown -kernel %q (linear, quadratic, rbf)", m.kernel)
	}
	designs := map[string]models.DesignKind{
		"skl": models.SKL, "cluster": models.Cluster, "truncated": models.Truncated, "order": models.Order,
		"imp-order": models.ImpOrder, "standard": models.Standard, "diffusion": models.Diffusion,
		"gaussian-field": models.GaussianField,
	}
	d, ok := designs[strings.ToLower(m.design)]
	if !ok {
		return o, fmt.Errorf("unknown -design %q", m.design)
	}
	o.Design = d
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
	default:
		return o, fmt.Errorf("unknown -classifier %q (klr, svm)", m.classifier)
	}
	o.D, o.C, o.Lambda, o.Kernel.Gamma, o.EnergyFraction = m.d, m.c, m.lambda, m.gamma, m.energy
	o.Bias, o.Kernel.Raw = m.bias, m.raw
	return o, nil
}

// progress draws a one-line progress bar on w, at most every 100 ms.
type progress struct {
	w     io.Writer
	label string
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, label string) *progress {
	return &progress{w: w, label: label, start: time.Now()}
}

func (p *progress) update(done, total int) {
	now := time.Now()
	if done < total && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	const width = 30
	fill := width * done / max(total, 1)
	eta := ""
	if done > 0 && done < total {
		rem := time.Duration(float64(now.Sub(p.start)) * float64(total-done) / float64(done))
		eta = " eta " + rem.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d%s   ", p.label, strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, total, eta)
	if done >= total {
		fmt.Fprintf(p.w, "\n")
	}
}
