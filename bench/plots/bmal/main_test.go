package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// sample writes a reproduction JSON with two data sets, two kernels, three
// selectors and three rows each.
func sample(t *testing.T, dir string) string {
	t.Helper()
	var rows []map[string]any
	for _, ds := range []string{"heart", "wine"} {
		for _, k := range []string{"SKL", "RBF"} {
			for si, sel := range []string{"BMAL", "Entropy", "Random"} {
				for _, l := range []int{20, 30, 40} {
					rows = append(rows, map[string]any{"dataset": ds, "labeled": l, "method": sel + "/" + k,
						"mean": 60 + float64(l)/2 + float64(si), "stderr": 1.5, "trials": 3})
				}
			}
		}
	}
	b, err := json.Marshal(map[string]any{"table": "thesis-bmal", "trials": 3, "seed": 1, "rows": rows})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.json")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	in := sample(t, dir)
	for _, tc := range []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"ok", []string{"-in", in, "-out", filepath.Join(dir, "out.png")}, ""},
		{"no output", []string{"-in", in}, "usage"},
		{"missing input", []string{"-in", filepath.Join(dir, "none.json"), "-out", filepath.Join(dir, "x.png")}, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := run(tc.args, &stderr)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				f, err := os.Open(filepath.Join(dir, "out.png"))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				img, err := png.Decode(f)
				if err != nil {
					t.Fatal(err)
				}
				// Two data sets (rows) by two kernels (columns) of 5 x 3.2 inches.
				if b := img.Bounds(); b.Dx() <= b.Dy()/2 || b.Dx() < 500 {
					t.Errorf("image %v", b)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestGroup(t *testing.T) {
	var res result
	in := `{"rows":[{"dataset":"a","labeled":20,"method":"BMAL/SKL","mean":1,"stderr":0.1},
	{"dataset":"a","labeled":30,"method":"BMAL/SKL","mean":2,"stderr":0.2},
	{"dataset":"a","labeled":20,"method":"Random/RBF","mean":3,"stderr":null},
	{"dataset":"b","labeled":20,"method":"Random/RBF","mean":null}]}`
	if err := json.Unmarshal([]byte(in), &res); err != nil {
		t.Fatal(err)
	}
	g, err := group(&res)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(g.sets, g.kernels) != "[a] [SKL RBF]" || len(g.curves["a|SKL"]) != 1 || fmt.Sprint(g.curves["a|SKL"][0].y) != "[1 2]" {
		t.Errorf("sets %v kernels %v curves %v", g.sets, g.kernels, g.curves)
	}
	if fmt.Sprint(g.style) != "map[BMAL:0 Random:1]" {
		t.Errorf("style %v, want BMAL then Random", g.style)
	}
	res.Rows[0].Method = "bad"
	if _, err := group(&res); err == nil {
		t.Error("a method without a kernel gave no error")
	}
}

// A selector keeps its colour in every panel, whatever the panel's order
// of curves or the selectors it lacks.
func TestPanelStyle(t *testing.T) {
	style := map[string]int{"BMAL": 0, "Entropy": 1, "Random": 2}
	for _, order := range [][]string{{"BMAL", "Entropy", "Random"}, {"Random", "BMAL"}, {"Entropy"}} {
		var curves []*curve
		for _, sel := range order {
			curves = append(curves, &curve{selector: sel, x: []float64{20, 30}, y: []float64{60, 70}, se: []float64{1, 1}})
		}
		_, keys, err := panel("p", curves, style)
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) != len(order) {
			t.Fatalf("%v: %d key entries", order, len(keys))
		}
		for _, k := range keys {
			line, ok := k.thumb[0].(*plotter.Line)
			if !ok {
				t.Fatalf("%v: thumbnail %T", order, k.thumb[0])
			}
			if line.Color != palette[style[k.name]] {
				t.Errorf("%v: %s drawn in %v, want %v", order, k.name, line.Color, palette[style[k.name]])
			}
		}
	}
}
