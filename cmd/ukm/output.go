package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Output formats. CSV: a header line "row,label" (with -proba, one column
// "p_<class>" per class after it), then one line per predicted row. JSON:
// one object {"classes": [...], "predictions": [{"row", "label", "proba"}]}.
// The evaluation (fit -eval) writes, in CSV, the line "accuracy A (R of N
// held-back rows)", a table "class,precision,recall,f1,support" and a
// confusion matrix "truth\predicted,<classes>"; in JSON one object with
// the same fields.

type prediction struct {
	Row   int       `json:"row"`
	Label string    `json:"label"`
	Proba []float64 `json:"proba,omitempty"`
}

// writePredictions writes the predicted classes of rows (and their
// probabilities when proba is not nil).
func writePredictions(w io.Writer, format string, rows, pred []int, proba *mat.Dense, classes []string) error {
	if format == "json" {
		out := struct {
			Classes     []string     `json:"classes"`
			Predictions []prediction `json:"predictions"`
		}{Classes: classes, Predictions: make([]prediction, len(rows))}
		for i, r := range rows {
			out.Predictions[i] = prediction{Row: r, Label: classes[pred[i]]}
			if proba != nil {
				out.Predictions[i].Proba = mat.Row(nil, i, proba)
			}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(out)
	}
	head := "row,label"
	if proba != nil {
		for _, c := range classes {
			head += ",p_" + c
		}
	}
	if _, err := fmt.Fprintln(w, head); err != nil {
		return err
	}
	for i, r := range rows {
		line := fmt.Sprintf("%d,%s", r, classes[pred[i]])
		if proba != nil {
			for _, p := range proba.RawRowView(i) {
				line += fmt.Sprintf(",%.6g", p)
			}
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// classScore is one class's row of the evaluation.
type classScore struct {
	Class     string  `json:"class"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	Support   int     `json:"support"`
}

// evaluation scores predictions against held-back labels.
type evaluation struct {
	Accuracy float64      `json:"accuracy"`
	Right    int          `json:"right"`
	Scored   int          `json:"scored"`
	Classes  []string     `json:"classes"`
	PerClass []classScore `json:"per_class"`
	// Confusion[i][j] counts the rows of true class Classes[i] predicted
	// as Classes[j].
	Confusion [][]int `json:"confusion"`
}

// evaluate scores the predictions of rows u against the labels held back
// (indexed by row; "" for rows that were not held back).
func evaluate(u, pred []int, classes, held []string) (*evaluation, error) {
	names := append([]string(nil), classes...)
	index := map[string]int{}
	for i, c := range names {
		index[c] = i
	}
	// A held-back class that no labeled row kept joins the matrix.
	for _, i := range u {
		if c := held[i]; c != "" {
			if _, ok := index[c]; !ok {
				index[c] = len(names)
				names = append(names, c)
			}
		}
	}
	e := &evaluation{Classes: names, Confusion: make([][]int, len(names))}
	for i := range e.Confusion {
		e.Confusion[i] = make([]int, len(names))
	}
	for a, i := range u {
		if held[i] == "" {
			continue
		}
		e.Scored++
		t, p := index[held[i]], pred[a]
		e.Confusion[t][p]++
		if t == p {
			e.Right++
		}
	}
	if e.Scored == 0 {
		return nil, fmt.Errorf("eval: no held-back labels to score")
	}
	e.Accuracy = float64(e.Right) / float64(e.Scored)
	for k, c := range names {
		var tp, fp, fn int
		for j := range names {
			if j == k {
				tp = e.Confusion[k][k]
				continue
			}
			fp += e.Confusion[j][k]
			fn += e.Confusion[k][j]
		}
		p, r := ratio(tp, tp+fp), ratio(tp, tp+fn)
		f := 0.0
		if p+r > 0 {
			f = 2 * p * r / (p + r)
		}
		e.PerClass = append(e.PerClass, classScore{Class: c, Precision: p, Recall: r, F1: f, Support: tp + fn})
	}
	sort.SliceStable(e.PerClass, func(a, b int) bool { return e.PerClass[a].Class < e.PerClass[b].Class })
	return e, nil
}

// writeEval writes the evaluation in the format asked for.
func writeEval(w io.Writer, format string, u, pred []int, classes, held []string) error {
	e, err := evaluate(u, pred, classes, held)
	if err != nil {
		return err
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(e)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "accuracy %.4f (%d of %d held-back rows)\n", e.Accuracy, e.Right, e.Scored)
	fmt.Fprintln(&b, "class,precision,recall,f1,support")
	for _, c := range e.PerClass {
		fmt.Fprintf(&b, "%s,%.4f,%.4f,%.4f,%d\n", c.Class, c.Precision, c.Recall, c.F1, c.Support)
	}
	fmt.Fprintf(&b, "truth\\predicted,%s\n", strings.Join(e.Classes, ","))
	for i, row := range e.Confusion {
		fmt.Fprint(&b, e.Classes[i])
		for _, v := range row {
			fmt.Fprintf(&b, ",%d", v)
		}
		fmt.Fprintln(&b)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// splitList splits a comma-separated flag value, trimming spaces.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}
