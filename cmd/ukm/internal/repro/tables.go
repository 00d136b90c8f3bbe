package repro

import (
	"fmt"

	"ukm/models"
	"ukm/models/active"
)

func activeTruth(y []int) active.Oracle { return active.GroundTruth(y) }

var registry = map[string]*Table{
	"kdd06-table2": {
		Name:     "kdd06-table2",
		Title:    "KDD'06 Table 2: KLR accuracy (%) with 3 standard and 5 semi-supervised kernels",
		Datasets: []string{"heart", "ionosphere", "sonar", "wine"},
		Sizes:    []int{10, 20, 30, 40},
		Methods: func(base *models.Options) []Method {
			kernel := func(k models.KernelKind, d models.DesignKind) func(o *models.Options) {
				return use(k, d, models.KLR)
			}
			return []Method{
				fitMethod("Linear", base, kernel(models.Linear, models.Standard)),
				fitMethod("Quadratic", base, kernel(models.Quadratic, models.Standard)),
				fitMethod("RBF", base, kernel(models.RBF, models.Standard)),
				fitMethod("Order", base, kernel(models.RBF, models.Order)),
				fitMethod("Imp-Order", base, kernel(models.RBF, models.ImpOrder)),
				fitMethod("SKL(Linear)", base, kernel(models.Linear, models.SKL)),
				fitMethod("SKL(Quad)", base, kernel(models.Quadratic, models.SKL)),
				fitMethod("SKL(RBF)", base, kernel(models.RBF, models.SKL)),
			}
		},
		Claim: func(r *Result) string {
			return claimAtLeast(r, "SKL(RBF)", "RBF", "SKL(RBF) >= RBF in every dataset/size cell")
		},
	},
	"kdd06-table3": {
		Name:     "kdd06-table3",
		Title:    "KDD'06 Table 3: KLR, KLR+Rand, KLR+Active and UKLR accuracy (%), +10 labels",
		Datasets: []string{"heart", "ionosphere", "sonar", "wine"},
		Sizes:    []int{10, 20, 30, 40},
		Methods: func(base *models.Options) []Method {
			var ms []Method
			for _, k := range []models.KernelKind{models.Linear, models.RBF} {
				k := k
				set := func(d models.DesignKind) func(o *models.Options) { return use(k, d, models.KLR) }
				suffix := "/" + k.String()
				ms = append(ms,
					fitMethod("KLR"+suffix, base, set(models.Standard)),
					loopMethod("KLR+Rand"+suffix, base, set(models.Standard), func(o models.Options) *models.LoopOptions { return models.KLRRand(o, 10, 10) }),
					loopMethod("KLR+Active"+suffix, base, set(models.Standard), func(o models.Options) *models.LoopOptions { return models.KLRActive(o, 10, 10) }),
					loopMethod("UKLR"+suffix, base, set(models.SKL), func(o models.Options) *models.LoopOptions { return models.UKLR(o, 10, 10) }),
				)
			}
			return ms
		},
		Claim: func(r *Result) string { return uklrClaim(r, "") },
	},
	"mm-table4": {
		Name:     "mm-table4",
		Title:    "Max-margin paper Table IV: SVM (C = 100) accuracy (%)",
		Datasets: []string{"ionosphere", "banana_train1", "sonar", "flare-solar"},
		Sizes:    []int{10, 20, 30},
		Methods: func(base *models.Options) []Method {
			set := func(k models.KernelKind, d models.DesignKind) func(o *models.Options) {
				return use(k, d, models.SVM)
			}
			return []Method{
				fitMethod("Linear", base, set(models.Linear, models.Standard)),
				fitMethod("RBF", base, set(models.RBF, models.Standard)),
				fitMethod("Order", base, set(models.RBF, models.Order)),
				fitMethod("KA(Linear)", base, set(models.Linear, models.SKL)),
				fitMethod("KA(RBF)", base, set(models.RBF, models.SKL)),
				fitMethod("MM(Linear)", base, set(models.Linear, models.MM)),
				fitMethod("MM(RBF)", base, set(models.RBF, models.MM)),
			}
		},
		Claim: func(r *Result) string {
			return claimAtLeast(r, "MM(RBF)", "KA(RBF)", "MM(RBF) >= KA(RBF) in every dataset/size cell")
		},
	},
	"la-table1": {
		Name: "la-table1",
		Title: "Label-aware base kernels paper Table 1: SVM (C = 100) accuracy (%) = 100 - the paper's error; " +
			"l = labeled points per class",
		Datasets: []string{"ssl_digit1", "ssl_usps", "ssl_coil2", "ssl_bci", "ssl_coil", "ssl_g241n", "ssl_text"},
		Sizes:    []int{50},
		PerClass: true,
		Methods:  laMethods,
		Claim: func(r *Result) string {
			return claimAtLeast(r, "Label-aware", "Max-alignment kernel", "Label-aware >= Max-alignment kernel on every data set")
		},
	},
}

// use returns an option setter for one column: initial kernel, design and
// classifier; everything else stays as in the run's base options.
func use(k models.KernelKind, d models.DesignKind, c models.ClassifierKind) func(o *models.Options) {
	return func(o *models.Options) { o.Kernel.Kind, o.Design, o.Classifier = k, d, c }
}

// countAtLeast counts the (dataset, size) cells where method a's mean is at
// least method b's.
func countAtLeast(r *Result, a, b string) (wins, cells int) {
	type key struct {
		d string
		l int
	}
	ma, mb := map[key]float64{}, map[key]float64{}
	for _, row := range r.Rows {
		if row.NA {
			continue
		}
		switch row.Method {
		case a:
			ma[key{row.Dataset, row.Labeled}] = row.Summary.Mean
		case b:
			mb[key{row.Dataset, row.Labeled}] = row.Summary.Mean
		}
	}
	for k, va := range ma {
		if vb, ok := mb[k]; ok {
			cells++
			if va >= vb {
				wins++
			}
		}
	}
	return wins, cells
}

func claimAtLeast(r *Result, a, b, text string) string {
	wins, cells := countAtLeast(r, a, b)
	verdict := "holds"
	if wins < cells {
		verdict = "does not hold"
	}
	return fmt.Sprintf("- %s: %d of %d cells — %s.\n", text, wins, cells, verdict)
}
