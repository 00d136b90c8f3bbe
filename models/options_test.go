package models

import (
	"context"
	"errors"
	"slices"
	"testing"

	"ukm/linalg"
	"ukm/models/spectral"
)

// A knob that the chosen design or classifier would ignore is an error.
func TestKnobs(t *testing.T) {
	s := circles(t, 20, 0.1, 1)
	lab, ys, _ := pickLabeled(s.Y, 6, 1)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opt  Options
		ok   bool
	}{
		{"Decay with SKL", Options{Decay: 3}, true},
		{"Decay with Standard", Options{Design: Standard, Decay: 3}, false},
		{"Decay with Auto", Options{Design: Auto, Decay: 3}, false},
		{"Sigma2 with SKL", Options{Sigma2: 2}, false},
		{"Sigma2 with Diffusion", Options{Design: Diffusion, Sigma2: 2, GraphK: 5}, true},
		{"Eps with Cluster", Options{Design: Cluster, Eps: 0.1}, false},
		{"Alpha with SKL", Options{Alpha: 0.5}, false},
		{"Alpha with LabelSpreading", Options{Design: LabelSpreading, Alpha: 0.5}, true},
		{"C with KLR", Options{C: 10}, false},
		{"C with SVM", Options{Classifier: SVM, C: 10}, true},
		{"Lambda with SVM", Options{Classifier: SVM, Lambda: 0.1}, false},
		{"Bias with SVM", Options{Classifier: SVM, Bias: true}, false},
		{"Custom without design", Options{Custom: spectral.Cluster{}}, false},
		{"Custom design without Custom", Options{Design: Custom}, false},
		{"Custom", Options{Design: Custom, Custom: spectral.Cluster{}}, true},
		{"GraphDims with the RBF kernel", Options{GraphDims: 1}, false},
		{"GraphDims with the KNN kernel", Options{Kernel: KernelSpec{Kind: KNN}, GraphDims: 1}, true},
		{"GraphDims with a graph design", Options{Design: Order, GraphK: 5, GraphDims: 1}, true},
		{"GraphDims below -1", Options{Kernel: KernelSpec{Kind: KNN}, GraphDims: -2}, false},
		{"GraphFeatures with the RBF kernel", Options{Scale: NoScaling, GraphFeatures: &linalg.HOG{Width: 1, Height: 2, Cell: 1}}, false},
		{"GraphFeatures with the KNN kernel", Options{Kernel: KernelSpec{Kind: KNN}, Scale: NoScaling, GraphFeatures: &linalg.HOG{Width: 1, Height: 2, Cell: 1}}, true},
	} {
		_, err := Fit(ctx, s.X, lab, ys, &tc.opt)
		if tc.ok && err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if !tc.ok && !errors.Is(err, linalg.ErrSettings) {
			t.Errorf("%s: error %v, want ErrSettings", tc.name, err)
		}
	}
}

// A user's design plugged in as Custom gives the model of the built-in
// design it copies.
func TestCustomDesign(t *testing.T) {
	s := circles(t, 40, 0.1, 2)
	lab, ys, unl := pickLabeled(s.Y, 8, 2)
	ctx := context.Background()
	ref, err := Fit(ctx, s.X, lab, ys, &Options{Design: Cluster, Lambda: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Fit(ctx, s.X, lab, ys, &Options{Design: Custom, Custom: spectral.Cluster{}, Lambda: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	p1, _ := ref.PredictRows(nil, unl)
	p2, _ := got.PredictRows(nil, unl)
	if !slices.Equal(p1, p2) {
		t.Error("Custom(Cluster) and Cluster predict differently")
	}
	if got.Design() != Custom {
		t.Errorf("Design() = %v", got.Design())
	}
	_, mu1 := ref.Kernel()
	_, mu2 := got.Kernel()
	if !slices.Equal(mu1, mu2) {
		t.Errorf("coefficients differ: %v vs %v", mu1, mu2)
	}
}

// With an SVM base every default candidate is valid for the SVM: no KLR knob
// is left on it.
func TestDefaultCandidatesSVMBase(t *testing.T) {
	for _, c := range DefaultCandidates(&Options{Classifier: SVM, C: 5}) {
		r := resolved{Options: c.Options}
		if err := r.checkKnobs(); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
		if c.Options.Classifier == SVM && c.Options.C != 5 && c.Options.Kernel.WidthScale == 0 {
			t.Errorf("%s: box %v, want the base's 5", c.Name, c.Options.C)
		}
	}
}

// No default candidate is skipped for a settings error: the knobs the
// selection sets on its way (the shared basis of a group, the final fit)
// stay valid for each candidate's design.
func TestSelectNoSettingsSkips(t *testing.T) {
	s := circles(t, 40, 0.1, 4)
	lab, ys, _ := pickLabeled(s.Y, 20, 4)
	m, err := Select(context.Background(), s.X, lab, ys, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range m.Selection().Scores {
		if errors.Is(sc.Skipped, linalg.ErrSettings) {
			t.Errorf("%s skipped: %v", sc.Name, sc.Skipped)
		}
	}
}

// Trim leaves only the knobs a design uses, so the trimmed options pass the
// knob check for every design and classifier.
func TestTrim(t *testing.T) {
	all := Options{Decay: 3, Sigma2: 2, Eps: 0.1, Alpha: 0.5, C: 10, Lambda: 0.1, Bias: true, Custom: spectral.Cluster{}, GraphDims: 1, GraphFeatures: &linalg.HOG{}, Vote: VoteNone}
	for d := SKL; d <= Custom; d++ {
		for _, c := range []ClassifierKind{KLR, SVM, Spread} {
			o := all
			o.Design, o.Classifier = d, c
			r := resolved{Options: o.Trim()}
			if err := r.checkKnobs(); err != nil {
				t.Errorf("%v/%v: %v", d, c, err)
			}
		}
	}
	if got := (Options{Decay: 3, Lambda: 0.1}).Trim(); got.Decay != 3 || got.Lambda != 0.1 {
		t.Errorf("Trim dropped knobs SKL/KLR uses: %+v", got)
	}
}

// Model.Options reports the options a model used, its defaults filled in.
func TestModelOptions(t *testing.T) {
	x, y := blobsForSave(2)
	lab := []int{0, 1, 2, 3, 4, 5, 6, 7}
	for _, tc := range []struct {
		opt   Options
		check func(o Options) bool
	}{
		{Options{}, func(o Options) bool {
			return o.Design == SKL && o.Decay == DefaultDecay && o.EigTol == DefaultEigTol && o.Kernel.Kind == RBF
		}},
		{Options{Classifier: SVM, Design: Cluster, D: 5}, func(o Options) bool { return o.C == DefaultC && o.D == 5 && o.Decay == 0 }},
		{Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 10}, func(o Options) bool { return o.GraphK == DefaultGraphK && o.D == 10 }},
		{Options{Lambda: 0.5, Bias: true}, func(o Options) bool { return o.Lambda == 0.5 && o.Bias }},
	} {
		m, err := Fit(context.Background(), x, lab, y[:8], &tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if o := m.Options(); !tc.check(o) || o.Progress != nil {
			t.Errorf("%+v: Options %+v", tc.opt, o)
		}
	}
	if o := (*Model)(nil).Options(); o.Design != SKL || o.D != 0 {
		t.Errorf("nil model: %+v", o)
	}
}
