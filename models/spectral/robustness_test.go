package spectral

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/robust"
)

// smallBasis returns an orthonormal 6 x 3 basis.
func smallBasis() *Basis {
	v := mat.NewDense(6, 3, nil)
	s := 1 / math.Sqrt(2)
	v.Set(0, 0, s)
	v.Set(1, 0, s)
	v.Set(2, 1, s)
	v.Set(3, 1, s)
	v.Set(4, 2, s)
	v.Set(5, 2, s)
	return &Basis{Values: []float64{3, 2, 1}, V: v}
}

// TestNoPanicOnBadInput: invalid input to every design and helper is an
// error, never a panic.
func TestNoPanicOnBadInput(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	b := smallBasis()
	lab := []int{0, 2, 4}
	tgt, err := Target([]int{0, 1, 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	nanV := mat.DenseCopyOf(b.V)
	nanV.Set(0, 0, math.NaN())
	bad := map[string]*Basis{
		"nil":          nil,
		"nil V":        {Values: []float64{1}},
		"empty V":      {Values: nil, V: &mat.Dense{}},
		"short values": {Values: []float64{1}, V: b.V},
		"NaN value":    {Values: []float64{1, math.NaN(), 0}, V: b.V},
		"NaN V":        {Values: b.Values, V: nanV},
	}
	designs := []Design{Cluster{}, Truncated{}, Diffusion{Sigma2: 1}, GaussianField{Eps: 0.1}, NewSKL(2), Order{}, Order{Improved: true}}
	for _, d := range designs {
		for bname, bb := range bad {
			if bname == "NaN V" && (d.Name() == "Cluster" || d.Name() == "Truncated" || d.Name() == "Diffusion" || d.Name() == "GaussianField") {
				continue // these designs do not read V
			}
			if err := robust.Call(t, d.Name()+"/"+bname, func() error {
				_, err := d.Coefficients(ctx, nil, bb, lab, tgt)
				return err
			}); err == nil {
				t.Errorf("%s/%s: no error", d.Name(), bname)
			}
		}
		if d.Name() == "Cluster" || d.Name() == "Truncated" || d.Name() == "Diffusion" || d.Name() == "GaussianField" {
			continue // these designs ignore labels and target
		}
		for cname, f := range map[string]func() error{
			"nil target":      func() error { _, err := d.Coefficients(ctx, nil, b, lab, nil); return err },
			"no labels":       func() error { _, err := d.Coefficients(ctx, nil, b, nil, mat.NewDense(1, 1, []float64{1})); return err },
			"short target":    func() error { _, err := d.Coefficients(ctx, nil, b, lab[:2], tgt); return err },
			"index range":     func() error { _, err := d.Coefficients(ctx, nil, b, []int{0, 2, 6}, tgt); return err },
			"negative index":  func() error { _, err := d.Coefficients(ctx, nil, b, []int{0, -2, 4}, tgt); return err },
			"duplicate index": func() error { _, err := d.Coefficients(ctx, nil, b, []int{0, 2, 2}, tgt); return err },
			"NaN target": func() error {
				_, err := d.Coefficients(ctx, nil, b, lab, mat.NewDense(3, 1, []float64{1, math.NaN(), -1}))
				return err
			},
			"empty target": func() error { _, err := d.Coefficients(ctx, nil, b, lab, &mat.Dense{}); return err },
			"orthogonal": func() error {
				_, err := d.Coefficients(ctx, nil, b, []int{0, 1}, mat.NewDense(2, 1, []float64{1, -1}))
				return err
			},
			"cancelled": func() error { _, err := d.Coefficients(cancelled, nil, b, lab, tgt); return err },
			"nil ctx":   func() error { _, err := d.Coefficients(nil, nil, b, lab, tgt); return err }, //nolint:staticcheck
		} {
			if err := robust.Call(t, d.Name()+"/"+cname, f); err == nil {
				t.Errorf("%s/%s: no error", d.Name(), cname)
			}
		}
	}
	for cname, f := range map[string]func() error{
		"SKL decay < 1": func() error { _, err := NewSKL(0.5).Coefficients(ctx, nil, b, lab, tgt); return err },
		"SKL decay NaN": func() error { _, err := NewSKL(math.NaN()).Coefficients(ctx, nil, b, lab, tgt); return err },
		"SKL decay Inf": func() error { _, err := NewSKL(math.Inf(1)).Coefficients(ctx, nil, b, lab, tgt); return err },
		"SKL nil":       func() error { var s *SKL; _, err := s.Coefficients(ctx, nil, b, lab, tgt); return err },
		"Diffusion 0":   func() error { _, err := Diffusion{}.Coefficients(ctx, nil, b, nil, nil); return err },
		"Diffusion NaN": func() error { _, err := Diffusion{Sigma2: math.NaN()}.Coefficients(ctx, nil, b, nil, nil); return err },
		"GF negative":   func() error { _, err := GaussianField{Eps: -1}.Coefficients(ctx, nil, b, nil, nil); return err },
		"Truncated neg": func() error {
			_, err := Truncated{}.Coefficients(ctx, nil, &Basis{Values: []float64{-1, -2, -3}, V: b.V}, nil, nil)
			return err
		},
		"Target 1 class":  func() error { _, err := Target([]int{0, 0}, 1); return err },
		"Target huge":     func() error { _, err := Target([]int{0, 1}, 1<<50); return err },
		"Target negative": func() error { _, err := Target([]int{0, -1}, 2); return err },
		"Target empty":    func() error { _, err := Target(nil, 2); return err },
		"Rows nil basis":  func() error { var bb *Basis; _, err := bb.Rows(nil, lab); return err },
		"Rows nil V":      func() error { _, err := (&Basis{}).Rows(nil, lab); return err },
		"Rows range":      func() error { _, err := b.Rows(nil, []int{9}); return err },
		"Rows empty":      func() error { _, err := b.Rows(nil, nil); return err },
		"Rows dst is V":   func() error { bb := smallBasis(); _, err := bb.Rows(bb.V, []int{5, 4, 3, 2, 1, 0}); return err },
		"Dims nil basis": func() error {
			var bb *Basis
			if n, d := bb.Dims(); n != 0 || d != 0 {
				return nil
			}
			return fmt.Errorf("ok")
		},
	} {
		if err := robust.Call(t, cname, f); err == nil {
			t.Errorf("%s: no error", cname)
		}
	}
}

// TestSKLReuseAcrossSizes: one SKL design used on n = 50, then n = 10, then
// n = 50 (and on a different d) gives the coefficients of fresh designs.
func TestSKLReuseAcrossSizes(t *testing.T) {
	ctx := context.Background()
	type call struct {
		b   *Basis
		lab []int
		tgt *mat.Dense
	}
	mk := func(n, d, l int, seed uint64) call {
		b, y := rbfBasis(t, n, d, seed)
		lab, ys := sample(n, l, y, seed)
		tgt, err := Target(ys, 2)
		if err != nil {
			t.Fatal(err)
		}
		return call{b, lab, tgt}
	}
	calls := []call{mk(50, 6, 20, 1), mk(10, 6, 4, 2), mk(50, 6, 20, 1), mk(30, 4, 9, 3), mk(50, 6, 12, 4)}
	reused := NewSKL(2)
	var dst []float64
	for k, c := range calls {
		want, err := NewSKL(2).Coefficients(ctx, nil, c.b, c.lab, c.tgt)
		if err != nil {
			t.Fatal(err)
		}
		dst, err = reused.Coefficients(ctx, dst, c.b, c.lab, c.tgt)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Abs(dst[i]-want[i]) > 1e-7*(1+math.Abs(want[i])) {
				t.Fatalf("call %d: reused mu = %v, fresh %v", k, dst, want)
			}
		}
	}
	// A failed call (NaN target) leaves the design usable.
	c := calls[0]
	if _, err := reused.Coefficients(ctx, nil, c.b, c.lab, mat.NewDense(20, 1, nil)); err == nil {
		t.Fatal("zero target: no error")
	}
	want, _ := NewSKL(2).Coefficients(ctx, nil, c.b, c.lab, c.tgt)
	got, err := reused.Coefficients(ctx, nil, c.b, c.lab, c.tgt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-7*(1+math.Abs(want[i])) {
			t.Fatalf("after a failed call: mu = %v, fresh %v", got, want)
		}
	}
}
