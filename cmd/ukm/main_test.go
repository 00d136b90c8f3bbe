package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"errors"
	"flag"

	"ukm/dataset"
)

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func dataDir(t *testing.T) string {
	dir, err := dataset.Dir()
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	return dir
}

func TestBadInput(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ragged := write("ragged.csv", "y,a,b\n1,0,1\n0,1\n")
	text := write("text.csv", "y,a\n1,0\n0,abc\n")
	empty := write("empty.csv", "")
	oneClass := write("one.csv", "y,a\n1,0\n1,1\n,2\n")
	train := write("train.csv", "y,a\n0,0\n1,5\n0,0.1\n1,5.1\n0,0.2\n1,5.2\n,2\n,3\n")
	wide := write("wide.csv", "y,a,b\n,1,2\n")
	pairs := write("pairs.csv", "y,a,b\n0,0,1\n1,5,2\n0,0.1,1\n1,5.1,3\n,2,2\n")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "no command"},
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"unknown table", []string{"reproduce", "-table", "nope", "-data", tmp}, `unknown table "nope"`},
		{"missing table", []string{"reproduce"}, "-table is required"},
		{"missing data dir", []string{"reproduce", "-table", "kdd06-table2", "-data", filepath.Join(tmp, "none")}, "does not exist"},
		{"data set missing in dir", []string{"reproduce", "-table", "kdd06-table2", "-data", tmp, "-quiet"}, `"heart" not found`},
		{"ragged", []string{"fit", "-data", ragged}, "ragged.csv: line 3: 2 fields, want 3"},
		{"non-numeric", []string{"fit", "-data", text}, "text.csv: line 3, column 2"},
		{"empty", []string{"fit", "-data", empty}, "empty.csv: no data rows"},
		{"label column", []string{"fit", "-data", text, "-label-col", "7"}, "LabelColumn 7 is out of range"},
		{"one class", []string{"fit", "-data", oneClass}, "only one class"},
		{"bad kernel flag", []string{"fit", "-data", oneClass, "-kernel", "sigmoid"}, "unknown -kernel"},
		{"predict without train", []string{"predict", "-data", oneClass}, "give exactly one of -model"},
		{"no data flag", []string{"fit"}, "-data is required"},
		{"graph features", []string{"fit", "-data", train, "-kernel", "knn", "-graph-features", "edges"}, "unknown -graph-features"},
		{"hog cell without hog", []string{"fit", "-data", train, "-kernel", "knn", "-hog-cell", "2"}, "apply to -graph-features hog only"},
		{"image size", []string{"fit", "-data", train, "-kernel", "knn", "-scale", "none", "-graph-features", "hog", "-image-size", "28"}, "want WIDTHxHEIGHT"},
		{"image size junk", []string{"fit", "-data", train, "-kernel", "knn", "-scale", "none", "-graph-features", "hog", "-image-size", "28x28x3"}, "want WIDTHxHEIGHT"},
		{"hog scaled", []string{"fit", "-data", train, "-kernel", "knn", "-design", "label-spreading", "-graph-features", "hog"}, "set Scale to NoScaling"},
		{"hog scaled auto", []string{"fit", "-data", train, "-graph-features", "hog"}, "set Scale to NoScaling"},
		{"hog not square", []string{"fit", "-data", pairs, "-kernel", "knn", "-design", "label-spreading", "-d", "2", "-k", "2", "-scale", "none", "-graph-features", "hog"}, "not square images"},
		{"feature count", []string{"predict", "-train", train, "-data", wide, "-d", "2"}, "wide.csv: models: new points have 2 features, the model was fitted on 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCmd(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestFitPredict(t *testing.T) {
	// Two well-separated blobs, a few labels; the rest must be predicted.
	var b strings.Builder
	b.WriteString("label,x,y\n")
	for i := 0; i < 40; i++ {
		lab, cx := "", 0.0
		if i%2 == 1 {
			cx = 5
		}
		if i < 6 {
			lab = []string{"left", "right"}[i%2]
		}
		b.WriteString(lab + "," + ftoa(cx+float64(i%5)*0.1) + "," + ftoa(float64(i%7)*0.1) + "\n")
	}
	p := filepath.Join(t.TempDir(), "blobs.csv")
	os.WriteFile(p, []byte(b.String()), 0o644)
	out, _, err := runCmd(t, "fit", "-data", p, "-d", "5")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "row,label" || len(lines) != 1+34 {
		t.Fatalf("fit output has %d lines: %q", len(lines), lines[0])
	}
	for _, l := range lines[1:] {
		var row int
		var lab string
		parts := strings.Split(l, ",")
		row = atoi(parts[0])
		lab = parts[1]
		want := []string{"left", "right"}[row%2]
		if lab != want {
			t.Errorf("row %d predicted %s, want %s", row, lab, want)
		}
	}
	newp := filepath.Join(t.TempDir(), "new.csv")
	os.WriteFile(newp, []byte("label,x,y\n,0.2,0.3\n,5.1,0.2\n"), 0o644)
	out, _, err = runCmd(t, "predict", "-train", p, "-data", newp, "-d", "5")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out) != "row,label\n0,left\n1,right" {
		t.Errorf("predict output %q", out)
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func atoi(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return v
}

func TestReproduceSmoke(t *testing.T) {
	dir := dataDir(t)
	js := filepath.Join(t.TempDir(), "out.json")
	out, _, err := runCmd(t, "reproduce", "-table", "kdd06-table2", "-data", dir, "-trials", "2",
		"-datasets", "wine", "-sizes", "10", "-json", js, "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### wine", "| 10 |", "SKL(RBF)", "(90.54,", "Claims of the paper"} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	raw, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Table string `json:"table"`
		Rows  []struct {
			Dataset string   `json:"dataset"`
			Labeled int      `json:"labeled"`
			Method  string   `json:"method"`
			Mean    *float64 `json:"mean"`
			StdErr  *float64 `json:"stderr"`
			Trials  int      `json:"trials"`
			Seconds struct {
				Kernel, Eig, QP, Fit, Total *float64
			} `json:"seconds"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Table != "kdd06-table2" || len(doc.Rows) != 8 {
		t.Fatalf("json: table %q with %d rows, want 8 (one per method)", doc.Table, len(doc.Rows))
	}
	for _, r := range doc.Rows {
		if r.Dataset != "wine" || r.Labeled != 10 || r.Trials != 2 || r.Mean == nil || *r.Mean < 0 || *r.Mean > 100 ||
			r.Seconds.Total == nil || *r.Seconds.Total <= 0 {
			t.Errorf("bad row %+v", r)
		}
	}
	// -methods keeps the named columns, in the table's order; -parallel
	// runs data sets at once and gives the same accuracies.
	var tables [2]string
	for i, par := range []string{"1", "2"} {
		out, _, err = runCmd(t, "reproduce", "-table", "kdd06-table2", "-data", dir, "-trials", "2",
			"-datasets", "wine,heart", "-sizes", "10", "-methods", "SKL(RBF),RBF", "-parallel", par, "-quiet")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "| l | RBF | SKL(RBF) |") || strings.Contains(out, "Linear") {
			t.Errorf("-methods SKL(RBF),RBF:\n%s", out)
		}
		tables[i], _, _ = strings.Cut(out, "Elapsed")
		tables[i] = regexp.MustCompile(`(?m)^Mean seconds per trial.*$`).ReplaceAllString(tables[i], "")
	}
	if tables[0] != tables[1] {
		t.Errorf("-parallel 2 changed the table:\n%s\nagainst\n%s", tables[1], tables[0])
	}
	// The max-margin table has every column, MM included.
	out, _, err = runCmd(t, "reproduce", "-table", "mm-table4", "-data", dir, "-trials", "2",
		"-datasets", "sonar", "-sizes", "10", "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "n/a") || !strings.Contains(out, "KA(RBF)") || !strings.Contains(out, "| MM(RBF) |") {
		t.Errorf("mm-table4 output:\n%s", out)
	}
	// The selected-settings table runs the loops with the settings selected
	// on the initial labels, and tests Table 3's claim.
	out, _, err = runCmd(t, "reproduce", "-table", "kdd06-selected", "-data", dir, "-trials", "2",
		"-datasets", "heart", "-sizes", "10", "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "n/a") || !strings.Contains(out, "| UKLR/RBF |") || !strings.Contains(out, "UKLR >= KLR+Active with the RBF kernel (both selected)") {
		t.Errorf("kdd06-selected output:\n%s", out)
	}
	// So has the label-aware table (stratified: 50 labeled points per class).
	out, _, err = runCmd(t, "reproduce", "-table", "la-table1", "-data", dir, "-trials", "1",
		"-datasets", "ssl_bci", "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "n/a") || !strings.Contains(out, "| 50/class |") || !strings.Contains(out, "Label-aware >= Max-alignment") {
		t.Errorf("la-table1 output:\n%s", out)
	}
}

func TestDemoRuns(t *testing.T) {
	out, _, err := runCmd(t, "demo", "-trials", "1", "-n", "40")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"twocircles", "relevance", "twomoons", "UKLR", "SKL(RBF) + KLR"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runCmd(t, "demo", "-trials", "0"); err == nil {
		t.Error("trials = 0 accepted")
	}
}

func TestPictures(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runCmd(t, "pictures", "-out", dir, "-n", "40", "-size", "80")
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{"relevance", "twocircles"} {
		for _, m := range []string{"rbf", "ka", "mm"} {
			name := set + "_" + m + ".png"
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				t.Fatalf("%s not written: %v\n%s", name, err, out)
			}
			img, err := png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if b := img.Bounds(); b.Dx() != 80 || b.Dy() != 80 {
				t.Errorf("%s is %v, want 80x80", name, b)
			}
			// Both classes' background colours appear (a boundary exists).
			seen := map[color.RGBA]bool{}
			for y := 0; y < 80; y++ {
				for x := 0; x < 80; x++ {
					seen[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)] = true
				}
			}
			if !seen[bgColor[0]] || !seen[bgColor[1]] {
				t.Errorf("%s lacks one of the class regions", name)
			}
		}
	}
	if !strings.Contains(out, "accuracy") {
		t.Errorf("no accuracy table:\n%s", out)
	}
	for _, args := range [][]string{{"pictures"}, {"pictures", "-out", dir, "-l", "1"}, {"pictures", "-out", dir, "-size", "10"}} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// TestFitUnreached: fit says how many rows lie in parts of the kNN graph
// that hold no labeled row, and only then.
func TestFitUnreached(t *testing.T) {
	var b strings.Builder
	b.WriteString("label,x,y\n")
	for c, centre := range [][2]float64{{0, 0}, {100, 0}, {0, 50}} {
		for i := 0; i < 20; i++ {
			lab := ""
			if i < 3 && c != 1 {
				lab = []string{"a", "", "b"}[c]
			}
			b.WriteString(lab + "," + ftoa(centre[0]+float64(i%5)*0.1) + "," + ftoa(centre[1]+float64(i%4)*0.1) + "\n")
		}
	}
	p := filepath.Join(t.TempDir(), "parts.csv")
	os.WriteFile(p, []byte(b.String()), 0o644)
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-kernel", "knn", "-design", "skl", "-d", "5"}, true},
		{[]string{"-kernel", "rbf", "-design", "skl", "-d", "5"}, false},
	} {
		_, errOut, err := runCmd(t, append([]string{"fit", "-data", p}, tc.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(errOut, "20 rows lie in parts of the kNN graph without a labeled row"); got != tc.want {
			t.Errorf("%v: message shown %v, want %v:\n%s", tc.args, got, tc.want, errOut)
		}
	}
}

// TestFitAutoEval: the default fit selects a model and -labels/-eval score
// the held-back rows; the baselines table exports draws and reads peers.
func TestFitAutoEval(t *testing.T) {
	dir := dataDir(t)
	out, errOut, err := runCmd(t, "fit", "-data", dir+"/wine.csv", "-labels", "20", "-eval")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "accuracy ") || !strings.Contains(errOut, "chose ") || !strings.Contains(errOut, "votes with ") {
		t.Errorf("fit -eval output:\n%s\n%s", out, errOut)
	}
	// -vote none: the chosen candidate alone.
	_, errOut, err = runCmd(t, "fit", "-data", dir+"/wine.csv", "-labels", "20", "-eval", "-vote", "none")
	if err != nil || !strings.Contains(errOut, "chose ") || strings.Contains(errOut, "votes with ") {
		t.Errorf("fit -vote none: %v\n%s", err, errOut)
	}
	if _, _, err := runCmd(t, "fit", "-data", dir+"/wine.csv", "-eval"); err == nil {
		t.Error("-eval without -labels: want an error")
	}
	draws := t.TempDir() + "/draws.jsonl"
	if _, _, err := runCmd(t, "reproduce", "-table", "baselines", "-data", dir, "-trials", "2",
		"-datasets", "wine", "-draws", draws, "-draws-only", "-quiet"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(draws)
	if err != nil {
		t.Fatal(err)
	}
	// wine: 10 and 20 labels in all, 2 draws each; its smallest class
	// (48 points) is too small for 50 per class.
	if n := strings.Count(string(b), "\n"); n != 4 {
		t.Fatalf("%d draws written, want 4:\n%s", n, b)
	}
	// The candidates' oracle runs every default candidate on the same
	// draws; without peers its baseline column reads n/a.
	out, _, err = runCmd(t, "reproduce", "-table", "baselines-oracle", "-data", dir, "-trials", "2",
		"-datasets", "wine", "-sizes", "20", "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "| wine | 20 | n/a |") || !strings.Contains(out, "kNN(k=10)/Spread(alpha=0.99)") {
		t.Errorf("baselines-oracle output:\n%s", out)
	}
}

// TestFitEveryDesign: every value of -design fits a shipped data set, the
// label-aware and MM designs included, and a knob of another design is an
// error.
func TestFitEveryDesign(t *testing.T) {
	dir := dataDir(t)
	for _, d := range designNames {
		args := []string{"fit", "-data", dir + "/wine.csv", "-labels", "20", "-eval", "-design", d, "-quiet"}
		if d == "label-spreading" {
			args = append(args, "-kernel", "knn")
		}
		out, _, err := runCmd(t, args...)
		if err != nil {
			t.Errorf("-design %s: %v", d, err)
			continue
		}
		if !strings.Contains(out, "accuracy ") {
			t.Errorf("-design %s: no accuracy in\n%s", d, out)
		}
	}
	for _, args := range [][]string{
		{"-design", "standard", "-decay", "3"},
		{"-design", "skl", "-alpha", "0.5"},
		{"-design", "skl", "-weighting", "uniform"},
		{"-design", "skl", "-C", "10"},
	} {
		if _, _, err := runCmd(t, append([]string{"fit", "-data", dir + "/wine.csv", "-labels", "20", "-quiet"}, args...)...); err == nil {
			t.Errorf("%v: want an error for a knob the design does not use", args)
		}
	}
}

// TestCommandLineCannotBeMisread: every way a command line used to be
// silently misread is now an error (or, for -h, a clean exit).
func TestCommandLineCannotBeMisread(t *testing.T) {
	dir := dataDir(t)
	wine := dir + "/wine.csv"
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "out.json")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"stray word", []string{"fit", "-data", wine, "-kernel", "linear", "oops", "-C", "-5"}, `unexpected argument "oops"`},
		{"trials 0", []string{"reproduce", "-table", "kdd06-table2", "-data", dir, "-trials", "0"}, "-trials = 0"},
		{"parallel 0", []string{"reproduce", "-table", "kdd06-table2", "-data", dir, "-parallel", "0"}, "-parallel = 0"},
		{"unknown method", []string{"reproduce", "-table", "kdd06-table2", "-data", dir, "-methods", "RBF,nope"}, `method "nope" is not in this table`},
		{"reproduce design", []string{"reproduce", "-table", "kdd06-table2", "-data", dir, "-design", "mm"}, "-design is set by each method"},
		{"bad json path", []string{"reproduce", "-table", "kdd06-table2", "-data", dir, "-json", missing}, "-json"},
		{"bad -o path", []string{"fit", "-data", wine, "-labels", "20", "-o", missing}, "-o"},
		{"unknown design", []string{"fit", "-data", wine, "-design", "nope"}, "labelaware"},
		{"format", []string{"fit", "-data", wine, "-labels", "20", "-format", "xml"}, "unknown -format"},
		{"unknown vote", []string{"fit", "-data", wine, "-labels", "20", "-vote", "hard"}, "unknown -vote"},
		{"vote without auto", []string{"fit", "-data", wine, "-labels", "20", "-design", "skl", "-vote", "none"}, "-vote applies to -design auto"},
		{"reproduce vote", []string{"reproduce", "-table", "baselines", "-data", dir, "-vote", "none"}, "-vote is set by each method"},
		{"model flags with -model", []string{"predict", "-model", wine, "-data", wine, "-kernel", "linear"}, "do not apply to a saved -model"},
		{"not a model", []string{"predict", "-model", wine, "-data", wine}, "no ukm model header"},
	} {
		_, _, err := runCmd(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
	for _, cmd := range []string{"fit", "predict", "reproduce", "demo", "active", "pictures"} {
		if _, _, err := runCmd(t, cmd, "-h"); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s -h: err = %v, want flag.ErrHelp (exit status 0)", cmd, err)
		}
	}
	out, _, err := runCmd(t, "version")
	if err != nil || !strings.HasPrefix(out, "ukm ") {
		t.Errorf("version: %q, %v", out, err)
	}
}

// TestSavedModel: fit -o then predict -model predicts new rows, with
// probabilities, in CSV and JSON that agree (the bit-identical round trip
// itself is models' TestSaveRoundTrip).
func TestSavedModel(t *testing.T) {
	dir := dataDir(t)
	tmp := t.TempDir()
	wine, model := dir+"/wine.csv", filepath.Join(tmp, "wine.ukm")
	if _, _, err := runCmd(t, "fit", "-data", wine, "-labels", "30", "-design", "skl", "-o", model, "-quiet"); err != nil {
		t.Fatal(err)
	}
	// The first 39 rows of the file with their labels removed.
	newData := filepath.Join(tmp, "new.csv")
	b, _ := os.ReadFile(wine)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var nb strings.Builder
	nb.WriteString(lines[0] + "\n")
	for _, l := range lines[1:40] {
		nb.WriteString("," + l[strings.Index(l, ",")+1:] + "\n")
	}
	os.WriteFile(newData, []byte(nb.String()), 0o644)
	got, errOut, err := runCmd(t, "predict", "-model", model, "-data", newData, "-proba")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "RBF/SKL/KLR, 3 classes, fitted on 30 labeled rows") {
		t.Errorf("predict -model does not say what the model is:\n%s", errOut)
	}
	if !strings.HasPrefix(got, "row,label,p_") || strings.Count(got, "\n") != 40 {
		t.Fatalf("predict -model -proba output:\n%s", got)
	}
	js, _, err := runCmd(t, "predict", "-model", model, "-data", newData, "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Classes     []string
		Predictions []struct {
			Row   int
			Label string
		}
	}
	if err := json.Unmarshal([]byte(js), &parsed); err != nil || len(parsed.Predictions) != 39 || len(parsed.Classes) != 3 {
		t.Fatalf("JSON output: %v\n%s", err, js)
	}
	for i, l := range strings.Split(strings.TrimSpace(got), "\n")[1:] {
		if f := strings.Split(l, ","); f[1] != parsed.Predictions[i].Label {
			t.Fatalf("row %d: CSV %s, JSON %s", i, f[1], parsed.Predictions[i].Label)
		}
	}
}

// TestEvalConfusion: -eval prints the confusion matrix, whose entries add
// up to the rows scored.
func TestEvalConfusion(t *testing.T) {
	dir := dataDir(t)
	out, _, err := runCmd(t, "fit", "-data", dir+"/wine.csv", "-labels", "20", "-eval", "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(out, "truth\\predicted,")
	if i < 0 {
		t.Fatalf("no confusion matrix:\n%s", out)
	}
	sum := 0
	for _, l := range strings.Split(strings.TrimSpace(out[i:]), "\n")[1:] {
		for _, f := range strings.Split(l, ",")[1:] {
			sum += atoi(f)
		}
	}
	if sum != 158 {
		t.Errorf("confusion matrix counts %d rows, want 158", sum)
	}
}

// TestProgressPlainWhenRedirected: a progress report written to a file or
// buffer has no carriage returns.
func TestProgressPlainWhenRedirected(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "run")
	for i := 0; i <= 100; i++ {
		p.update(i, 100)
	}
	if strings.Contains(b.String(), "\r") || strings.Count(b.String(), "\n") > 12 {
		t.Errorf("progress on a non-terminal:\n%q", b.String())
	}
}

// TestFitHOG: -graph-features hog fits 4 x 4 images of bars and predicts
// the unlabeled ones by their orientation.
func TestFitHOG(t *testing.T) {
	var b strings.Builder
	b.WriteString("y")
	for j := 0; j < 16; j++ {
		b.WriteString(",p" + strconv.Itoa(j))
	}
	b.WriteString("\n")
	var want []string
	for i := 0; i < 24; i++ {
		class, at := i%2, (i/2)%4
		label := strconv.Itoa(class)
		if i >= 4 {
			want = append(want, label)
			label = ""
		}
		b.WriteString(label)
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				v := 0.1 * float64(i%3)
				if (class == 0 && c == at) || (class == 1 && r == at) {
					v += 1 + 0.1*float64(i%5)
				}
				b.WriteString("," + strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		b.WriteString("\n")
	}
	data := filepath.Join(t.TempDir(), "bars.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "predict", "-train", data, "-data", data, "-kernel", "knn", "-design", "label-spreading", "-d", "4", "-k", "3",
		"-scale", "none", "-graph-features", "hog", "-image-size", "4x4", "-hog-cell", "4", "-lambda", "0.01")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
	wrong := 0
	for i, l := range lines[4:] {
		if f := strings.Split(l, ","); f[1] != want[i] {
			wrong++
		}
	}
	if wrong > 0 {
		t.Errorf("%d of %d unlabeled bars predicted wrong:\n%s", wrong, len(want), out)
	}
}
