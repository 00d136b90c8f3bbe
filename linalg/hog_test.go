package linalg

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestHOGEdges checks the descriptor of straight edges against what the
// definition gives by hand: a vertical edge votes only into orientation 0,
// a horizontal one half into each bin next to pi/2, and only the cells the
// edge runs through get votes.
func TestHOGEdges(t *testing.T) {
	const side = 8
	vertical := make([]float64, side*side)
	horizontal := make([]float64, side*side)
	for a := 0; a < side; a++ {
		for b := 0; b < side; b++ {
			if b >= 4 {
				vertical[a*side+b] = 1
			}
			if a >= 4 {
				horizontal[a*side+b] = 1
			}
		}
	}
	h := HOG{Cell: 4, Bins: 9}
	for _, c := range []struct {
		name  string
		img   []float64
		votes map[int]float64 // descriptor index -> share of the norm squared
	}{
		// Columns 3 and 4 have gx = 1: cell (r, 0) gets column 3, cell
		// (r, 1) column 4, each 4 pixels of magnitude 1 in bin 0.
		{"vertical", vertical, map[int]float64{0*9 + 0: 0.25, 1*9 + 0: 0.25, 2*9 + 0: 0.25, 3*9 + 0: 0.25}},
		// Rows 3 and 4 have gy = 1, angle pi/2, halfway between bins 4
		// and 5 (each pi/9 wide).
		{"horizontal", horizontal, map[int]float64{
			0*9 + 4: 0.125, 0*9 + 5: 0.125, 1*9 + 4: 0.125, 1*9 + 5: 0.125,
			2*9 + 4: 0.125, 2*9 + 5: 0.125, 3*9 + 4: 0.125, 3*9 + 5: 0.125}},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := mat.NewDense(1, side*side, c.img)
			f, err := h.Transform(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			if _, q := f.Dims(); q != 4*9 {
				t.Fatalf("descriptor length %d, want 36", q)
			}
			for j, v := range f.RawRowView(0) {
				want := math.Sqrt(c.votes[j])
				if math.Abs(v-want) > 1e-14 {
					t.Errorf("descriptor[%d] = %v, want %v", j, v, want)
				}
			}
		})
	}
}

// TestHOGInvariance checks that the descriptor has unit norm, is unchanged
// by v -> a v + b (a > 0) and is zero for a blank image.
func TestHOGInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const w, ht = 12, 10
	x := mat.NewDense(3, w*ht, nil)
	for i := 0; i < 2; i++ {
		for j := 0; j < w*ht; j++ {
			x.Set(i, j, rng.Float64())
		}
	}
	for j := 0; j < w*ht; j++ {
		x.Set(2, j, 0.7) // blank
	}
	y := mat.NewDense(3, w*ht, nil)
	y.Apply(func(_, _ int, v float64) float64 { return 3.5*v - 2 }, x)
	h := HOG{Width: w, Height: ht, Cell: 3}
	fx, err := h.Transform(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	fy, err := h.Transform(context.Background(), y)
	if err != nil {
		t.Fatal(err)
	}
	if _, q := fx.Dims(); q != 3*4*DefaultHOGBins {
		t.Fatalf("descriptor length %d, want %d", q, 3*4*DefaultHOGBins)
	}
	for i := 0; i < 3; i++ {
		nx := mat.Norm(fx.RowView(i), 2)
		if want := float64(min(1, 2-i)); math.Abs(nx-want) > 1e-14 {
			t.Errorf("row %d: norm %v, want %v", i, nx, want)
		}
		for j, v := range fx.RawRowView(i) {
			if d := math.Abs(v - fy.At(i, j)); d > 1e-12 {
				t.Errorf("row %d entry %d: %v after a v + b, %v before", i, j, fy.At(i, j), v)
			}
		}
	}
}

// TestHOGExtremeValues checks that images of the largest and the smallest
// finite magnitudes give the descriptor of the same image at ordinary
// magnitudes (a power of two apart, so exactly), never NaN or zero.
func TestHOGExtremeValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const side = 8
	base := make([]float64, side*side)
	for j := range base {
		base[j] = rng.Float64() - 0.5
	}
	want, err := (HOG{}).Transform(context.Background(), mat.NewDense(1, side*side, base))
	if err != nil {
		t.Fatal(err)
	}
	for _, scale := range []float64{math.Ldexp(1, 1020), math.Ldexp(1, -1000), math.Ldexp(1, 600)} {
		x := mat.NewDense(1, side*side, nil)
		for j, v := range base {
			x.Set(0, j, v*scale)
		}
		got, err := (HOG{}).Transform(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		for j, v := range got.RawRowView(0) {
			if w := want.At(0, j); math.Abs(v-w) > 1e-14 || math.IsNaN(v) {
				t.Fatalf("scale %g: descriptor[%d] = %v, want %v", scale, j, v, w)
			}
		}
	}
	big := mat.NewDense(1, 4, []float64{math.MaxFloat64, -math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64})
	got, err := (HOG{Cell: 1}).Transform(context.Background(), big)
	if err != nil {
		t.Fatal(err)
	}
	if n := mat.Norm(got, 2); math.Abs(n-1) > 1e-14 {
		t.Fatalf("pixels at ±MaxFloat64: descriptor norm %v, want 1 (%v)", n, got.RawRowView(0))
	}
}

// TestHOGErrors checks the settings and inputs Transform refuses.
func TestHOGErrors(t *testing.T) {
	nan := mat.NewDense(1, 16, nil)
	nan.Set(0, 3, math.NaN())
	for _, c := range []struct {
		name string
		h    HOG
		x    *mat.Dense
		kind error
	}{
		{"empty", HOG{}, &mat.Dense{}, ErrEmpty},
		{"nan", HOG{}, nan, ErrNonFinite},
		{"not square", HOG{}, mat.NewDense(1, 15, nil), ErrSettings},
		{"wrong size", HOG{Width: 5, Height: 4}, mat.NewDense(1, 16, nil), ErrSettings},
		{"one side", HOG{Width: 4}, mat.NewDense(1, 16, nil), ErrSettings},
		{"negative", HOG{Cell: -1}, mat.NewDense(1, 16, nil), ErrSettings},
		{"cell too big", HOG{Cell: 5}, mat.NewDense(1, 16, nil), ErrSettings},
		{"one bin", HOG{Bins: 1}, mat.NewDense(1, 16, nil), ErrSettings},
		{"overflowing size", HOG{Width: 1<<62 + 196, Height: 4}, mat.NewDense(1, 784, nil), ErrSettings},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.h.Transform(context.Background(), c.x)
			if !errors.Is(err, c.kind) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v, want kind %v", err, c.kind)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (HOG{}).Transform(ctx, mat.NewDense(1, 16, nil)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
