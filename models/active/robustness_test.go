package active

import (
	"context"
	"fmt"
	"math"
	"testing"
	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"
)

// TestNoPanicOnBadInput: invalid input to every selector and oracle is an
// error, never a panic.
func TestNoPanicOnBadInput(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	var nilDense *mat.Dense
	p := mat.NewDense(3, 2, []float64{0.5, 0.5, 0.9, 0.1, 0.2, 0.8})
	for _, s := range []Selector{Entropy{}, Margin{}, Random{Seed: 1}} {
		name := fmt.Sprintf("%T", s)
		for cname, f := range map[string]func() error{
			"nil":       func() error { _, err := s.Select(nil, nil, 1); return err },
			"typed nil": func() error { _, err := s.Select(nil, nilDense, 1); return err },
			"empty":     func() error { _, err := s.Select(nil, &mat.Dense{}, 1); return err },
			"k = 0":     func() error { _, err := s.Select(nil, p, 0); return err },
			"k < 0":     func() error { _, err := s.Select(nil, p, -1); return err },
			"NaN": func() error {
				_, err := s.Select(nil, mat.NewDense(1, 2, []float64{math.NaN(), 0.5}), 1)
				return err
			},
			"negative": func() error {
				_, err := s.Select(nil, mat.NewDense(1, 2, []float64{-0.5, 0.5}), 1)
				return err
			},
			"no columns": func() error { _, err := s.Select(nil, p.Slice(0, 3, 0, 0), 1); return err },
		} {
			if err := robust.Call(t, name+"/"+cname, f); err == nil {
				t.Errorf("%s/%s: no error", name, cname)
			}
		}
	}
	g := GroundTruth{0, 1, 1}
	for cname, f := range map[string]func() error{
		"out of range": func() error { _, err := g.Label(context.Background(), []int{3}); return err },
		"negative":     func() error { _, err := g.Label(context.Background(), []int{-1}); return err },
		"cancelled":    func() error { _, err := g.Label(cancelled, []int{0}); return err },
		"nil ctx":      func() error { _, err := g.Label(nil, []int{5}); return err }, //nolint:staticcheck
	} {
		if err := robust.Call(t, "GroundTruth/"+cname, f); err == nil {
			t.Errorf("GroundTruth/%s: no error", cname)
		}
	}
	robust.Call(t, "scores", func() error {
		EntropyScore(nil)
		MarginScore(nil)
		EntropyScore([]float64{math.NaN()})
		MarginScore([]float64{math.NaN()})
		return nil
	})
}

// TestSelectDstAliasing: dst may share storage with a previous selection.
func TestSelectDstAliasing(t *testing.T) {
	p := mat.NewDense(4, 2, []float64{0.5, 0.5, 0.9, 0.1, 0.6, 0.4, 0.99, 0.01})
	for _, s := range []Selector{Entropy{}, Margin{}, Random{Seed: 3}} {
		want, err := s.Select(nil, p, 3)
		if err != nil {
			t.Fatal(err)
		}
		buf := append([]int(nil), want...)
		got, err := s.Select(buf, p, 3)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%T: reselect into previous = %v, %v; want %v", s, got, err, want)
		}
	}
}
