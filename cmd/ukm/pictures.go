package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"ukm/cmd/ukm/internal/repro"
	"ukm/dataset"
	"ukm/models"
)

// pictureMethod is one panel of the decision-boundary pictures: a kernel
// design trained with the SVM (C = 100) of the max-margin paper.
type pictureMethod struct {
	name string // file-name part
	opts models.Options
}

// pictureMethods are the panels of the max-margin paper's Fig. 1: the plain
// RBF kernel, KA (SKL with an SVM) and MM, all on the RBF kernel.
func pictureMethods(seed uint64) []pictureMethod {
	svm := func(d models.DesignKind) models.Options {
		return models.Options{Design: d, Classifier: models.SVM, Seed: seed}
	}
	return []pictureMethod{
		{"rbf", svm(models.Standard)},
		{"ka", svm(models.SKL)},
		{"mm", svm(models.MM)},
	}
}

// pictures draws decision boundaries on the synthetic sets of the
// max-margin paper (Relevance and Twocircles) for the RBF kernel, KA and MM,
// one PNG per set and method, and prints the accuracy on the unlabeled
// points of each panel.
func pictures(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("pictures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory for the PNG files (created if missing; required)")
	seed := fs.Uint64("seed", 1, "random seed (data, labeled set)")
	perClass := fs.Int("n", 150, "points per class")
	labeled := fs.Int("l", 10, "labeled points (at least one per class)")
	size := fs.Int("size", 360, "image width and height in pixels")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("pictures: -out is required")
	}
	if *perClass < 10 || *labeled < 2 || *labeled >= 2**perClass || *size < 50 || *size > 4000 {
		return fmt.Errorf("pictures: need n >= 10, 2 <= l < 2n and 50 <= size <= 4000")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("pictures: %w", err)
	}
	sets := []struct {
		name  string
		gen   func(int, float64, uint64) (*dataset.Set, error)
		noise float64
	}{
		{"relevance", dataset.Relevance, 0.25},
		{"twocircles", dataset.TwoCircles, 0.1},
	}
	fmt.Fprintf(stdout, "%-11s %-6s %9s  %s\n", "set", "method", "accuracy", "file")
	for _, st := range sets {
		s, err := st.gen(*perClass, st.noise, *seed)
		if err != nil {
			return err
		}
		lab, err := repro.SampleLabeled(rand.New(rand.NewPCG(*seed, 0x91c7)), s.Y, 2, *labeled)
		if err != nil {
			return err
		}
		for _, pm := range pictureMethods(*seed) {
			m, err := models.Fit(ctx, s.X, lab, pick(s.Y, lab), &pm.opts)
			if err != nil {
				return fmt.Errorf("pictures: %s %s: %w", st.name, pm.name, err)
			}
			acc, err := unlabeledAccuracy(m, s.Y, lab)
			if err != nil {
				return err
			}
			img, err := drawBoundary(m, s, lab, *size)
			if err != nil {
				return fmt.Errorf("pictures: %s %s: %w", st.name, pm.name, err)
			}
			file := filepath.Join(*out, st.name+"_"+pm.name+".png")
			if err := writePNG(file, img); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%-11s %-6s %8.2f%%  %s\n", st.name, pm.name, 100*acc, file)
		}
	}
	return nil
}

func unlabeledAccuracy(m *models.Model, y, lab []int) (float64, error) {
	u := others(len(y), lab)
	pred, err := m.PredictRows(nil, u)
	if err != nil {
		return 0, err
	}
	ok := 0
	for i, j := range u {
		if pred[i] == y[j] {
			ok++
		}
	}
	return float64(ok) / float64(len(u)), nil
}

// Class colours: background (light) and points (dark).
var (
	bgColor  = [2]color.RGBA{{0xcf, 0xdc, 0xf2, 0xff}, {0xf6, 0xd5, 0xc6, 0xff}}
	ptColor  = [2]color.RGBA{{0x1f, 0x4e, 0x9c, 0xff}, {0xb3, 0x3a, 0x12, 0xff}}
	boundary = color.RGBA{0x22, 0x22, 0x22, 0xff}
)

// drawBoundary renders the predicted class over the bounding box of the
// data (out-of-sample predictions by the model's Nystrom extension), the
// class boundary, the points (small, coloured by true class) and the
// labeled points (large squares with a black rim).
func drawBoundary(m *models.Model, s *dataset.Set, lab []int, size int) (*image.RGBA, error) {
	n, _ := s.X.Dims()
	x0, x1 := math.Inf(1), math.Inf(-1)
	y0, y1 := math.Inf(1), math.Inf(-1)
	for i := 0; i < n; i++ {
		x0, x1 = math.Min(x0, s.X.At(i, 0)), math.Max(x1, s.X.At(i, 0))
		y0, y1 = math.Min(y0, s.X.At(i, 1)), math.Max(y1, s.X.At(i, 1))
	}
	// A margin of 8% on every side; equal scales on both axes.
	span := math.Max(x1-x0, y1-y0) * 1.16
	cx, cy := (x0+x1)/2, (y0+y1)/2
	x0, y0 = cx-span/2, cy-span/2
	step := span / float64(size)
	// The grid is evaluated at every other pixel and filled in: the
	// boundary is smooth on that scale.
	g := (size + 1) / 2
	grid := mat.NewDense(g*g, 2, nil)
	for r := 0; r < g; r++ {
		for c := 0; c < g; c++ {
			grid.Set(r*g+c, 0, x0+(float64(2*c)+1)*step)
			grid.Set(r*g+c, 1, y0+span-(float64(2*r)+1)*step)
		}
	}
	pred, err := m.Predict(nil, grid)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	at := func(px, py int) int { return pred[min(py/2, g-1)*g+min(px/2, g-1)] }
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			c := at(px, py)
			col := bgColor[c&1]
			if (px+1 < size && at(px+1, py) != c) || (py+1 < size && at(px, py+1) != c) {
				col = boundary
			}
			img.SetRGBA(px, py, col)
		}
	}
	toPixel := func(i int) (int, int) {
		return int((s.X.At(i, 0) - x0) / step), int((y0 + span - s.X.At(i, 1)) / step)
	}
	isLab := map[int]bool{}
	for _, i := range lab {
		isLab[i] = true
	}
	for i := 0; i < n; i++ {
		if !isLab[i] {
			px, py := toPixel(i)
			square(img, px, py, 1, ptColor[s.Y[i]&1])
		}
	}
	for _, i := range lab {
		px, py := toPixel(i)
		square(img, px, py, 5, boundary)
		square(img, px, py, 3, ptColor[s.Y[i]&1])
	}
	return img, nil
}

// square fills the square of half-width h around (px, py), clipped.
func square(img *image.RGBA, px, py, h int, c color.RGBA) {
	b := img.Bounds()
	for y := py - h; y <= py+h; y++ {
		for x := px - h; x <= px+h; x++ {
			if image.Pt(x, y).In(b) {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

func writePNG(file string, img image.Image) error {
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("pictures: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("pictures: writing %s: %w", file, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("pictures: %w", err)
	}
	return nil
}
