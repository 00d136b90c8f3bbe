// Command bmal draws the learning curves of the thesis-bmal reproduction
// (batch-mode active learning by Fisher information against the other
// selectors) from the JSON that
//
//	ukm reproduce -table thesis-bmal -json FILE
//
// writes, as one PNG: a panel per data set (rows) and kernel (columns), a
// line per selector, the mean over the trials with its standard error as
// error bars, against the number of labels.
//
//	go run ./bmal -in FILE -out ../charts/bmal_curves.png
//
// It lives beside the benchmark charts (package main of bench/plots) so
// that gonum.org/v1/plot stays out of the library's import graph.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bmal:", err)
		os.Exit(1)
	}
}

// result is the part of the reproduction's JSON the chart reads.
type result struct {
	Table  string `json:"table"`
	Trials int    `json:"trials"`
	Rows   []struct {
		Dataset string   `json:"dataset"`
		Labeled int      `json:"labeled"`
		Method  string   `json:"method"`
		Mean    *float64 `json:"mean"`
		StdErr  *float64 `json:"stderr"`
	} `json:"rows"`
}

// curve is one selector's learning curve on one data set and kernel.
type curve struct {
	selector string
	x, y, se []float64
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("bmal", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "JSON written by ukm reproduce -table thesis-bmal -json")
	out := fs.String("out", "", "PNG file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" || *out == "" || fs.NArg() > 0 {
		return errors.New("usage: bmal -in FILE.json -out FILE.png")
	}
	f, err := os.Open(*in)
	if err != nil {
		return err
	}
	defer f.Close()
	var res result
	if err := json.NewDecoder(f).Decode(&res); err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	g, err := group(&res)
	if err != nil {
		return err
	}
	sets, kernels, curves, style := g.sets, g.kernels, g.curves, g.style
	// A selector keeps its colour and shape in every panel, and the key
	// lists every selector once, in the order of first appearance.
	keys := make([]legendEntry, len(style))
	plots := make([][]*plot.Plot, len(sets))
	for i, ds := range sets {
		plots[i] = make([]*plot.Plot, len(kernels))
		for j, k := range kernels {
			p, entries, err := panel(fmt.Sprintf("%s, %s kernel", ds, k), curves[ds+"|"+k], style)
			if err != nil {
				return fmt.Errorf("%s/%s: %w", ds, k, err)
			}
			plots[i][j] = p
			for _, e := range entries {
				if keys[style[e.name]].name == "" {
					keys[style[e.name]] = e
				}
			}
		}
	}
	const w, h = 5 * vg.Inch, 3.2 * vg.Inch
	// The key sits in a strip above the panels, where it hides no curve.
	rows := (len(keys) + legendCols - 1) / legendCols
	strip := vg.Length(rows)*legendRow + 4*vg.Millimeter
	img := vgimg.New(vg.Length(len(kernels))*w, vg.Length(len(sets))*h+strip)
	full := draw.New(img)
	drawKey(draw.Crop(full, 0, 0, vg.Length(len(sets))*h, 0), keys, rows)
	dc := draw.Crop(full, 0, 0, 0, -strip)
	tiles := draw.Tiles{Rows: len(sets), Cols: len(kernels), PadX: vg.Millimeter, PadY: vg.Millimeter,
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
	canvases := plot.Align(plots, tiles, dc)
	for i := range plots {
		for j := range plots[i] {
			plots[i][j].Draw(canvases[i][j])
		}
	}
	o, err := os.Create(*out)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(o); err != nil {
		o.Close()
		return err
	}
	return o.Close()
}

// grouped is the rows split by data set and kernel, each list in the order
// of first appearance.
type grouped struct {
	sets, kernels []string
	curves        map[string][]*curve // by "dataset|kernel"
	style         map[string]int      // a selector's colour and shape, by first appearance
}

// group splits the rows by data set and kernel (method "Selector/Kernel").
func group(res *result) (*grouped, error) {
	g := &grouped{curves: map[string][]*curve{}, style: map[string]int{}}
	for _, r := range res.Rows {
		if r.Mean == nil {
			continue
		}
		sel, k, ok := strings.Cut(r.Method, "/")
		if !ok {
			return nil, fmt.Errorf("method %q is not Selector/Kernel", r.Method)
		}
		if !slices.Contains(g.sets, r.Dataset) {
			g.sets = append(g.sets, r.Dataset)
		}
		if !slices.Contains(g.kernels, k) {
			g.kernels = append(g.kernels, k)
		}
		if _, ok := g.style[sel]; !ok {
			g.style[sel] = len(g.style)
		}
		key := r.Dataset + "|" + k
		var c *curve
		for _, cc := range g.curves[key] {
			if cc.selector == sel {
				c = cc
			}
		}
		if c == nil {
			c = &curve{selector: sel}
			g.curves[key] = append(g.curves[key], c)
		}
		se := 0.0
		if r.StdErr != nil {
			se = *r.StdErr
		}
		c.x, c.y, c.se = append(c.x, float64(r.Labeled)), append(c.y, *r.Mean), append(c.se, se)
	}
	if len(g.sets) == 0 {
		return nil, errors.New("no rows with results")
	}
	return g, nil
}

// palette holds colours told apart at a glance and by readers with a
// colour-vision deficiency (Okabe and Ito's set), one per selector.
var palette = []color.Color{
	color.NRGBA{R: 213, G: 94, B: 0, A: 255},    // vermillion
	color.NRGBA{R: 0, G: 114, B: 178, A: 255},   // blue
	color.NRGBA{R: 0, G: 158, B: 115, A: 255},   // bluish green
	color.NRGBA{R: 204, G: 121, B: 167, A: 255}, // reddish purple
	color.NRGBA{R: 230, G: 159, B: 0, A: 255},   // orange
	color.NRGBA{R: 86, G: 180, B: 233, A: 255},  // sky blue
	color.NRGBA{A: 255},                         // black
	color.NRGBA{R: 160, G: 140, B: 0, A: 255},   // dark yellow
}

// errPoints is a curve as plotter input: points with symmetric errors.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// legendEntry is one selector's line in the key.
type legendEntry struct {
	name  string
	thumb []plot.Thumbnailer
}

// The key's layout: entries per row across the strip, and a row's height.
const (
	legendCols           = 4
	legendRow  vg.Length = 14 // points
)

// drawKey draws the selectors' key in c, legendCols entries across, rows
// down.
func drawKey(c draw.Canvas, keys []legendEntry, rows int) {
	cols := (len(keys) + rows - 1) / rows
	width := c.Max.X - c.Min.X
	for col := 0; col < cols; col++ {
		l := plot.NewLegend()
		l.Top, l.Left = true, true
		for _, e := range keys[col*rows : min(len(keys), (col+1)*rows)] {
			l.Add(e.name, e.thumb...)
		}
		left := width * vg.Length(col) / vg.Length(cols)
		right := width * vg.Length(cols-col-1) / vg.Length(cols)
		l.Draw(draw.Crop(c, left+vg.Inch, -right, 0, -2*vg.Millimeter))
	}
}

// panel draws the curves of one data set and kernel, each selector in the
// colour and shape style gives it, and returns the key's entries for them.
func panel(title string, curves []*curve, style map[string]int) (*plot.Plot, []legendEntry, error) {
	if len(curves) == 0 {
		return nil, nil, errors.New("no curves")
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "labels"
	p.Y.Label.Text = "accuracy or F1 (%)"
	p.Add(plotter.NewGrid())
	var keys []legendEntry
	for _, c := range curves {
		i := style[c.selector]
		pts := errPoints{XYs: make(plotter.XYs, len(c.x)), YErrors: make(plotter.YErrors, len(c.x))}
		for a := range c.x {
			pts.XYs[a].X, pts.XYs[a].Y = c.x[a], c.y[a]
			pts.YErrors[a].Low, pts.YErrors[a].High = c.se[a], c.se[a]
		}
		line, points, err := plotter.NewLinePoints(pts.XYs)
		if err != nil {
			return nil, nil, err
		}
		col := palette[i%len(palette)]
		line.Color, points.Color = col, col
		points.Shape = plotutil.Shape(i)
		if strings.HasPrefix(c.selector, "BMAL") {
			// The thesis's method and its shortlisted variants stand out.
			line.Width = vg.Points(2)
		}
		bars, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, nil, err
		}
		r, g, b, _ := col.RGBA()
		bars.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 160}
		p.Add(line, points, bars)
		keys = append(keys, legendEntry{name: c.selector, thumb: []plot.Thumbnailer{line, points}})
	}
	return p, keys, nil
}
