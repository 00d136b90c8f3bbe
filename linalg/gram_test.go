package linalg

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// customKernel is not recognised by the Gram builders, so it exercises the
// entry-by-entry path.
type customKernel struct{}

func (customKernel) Eval(x, z []float64) float64 {
	return 1 / (1 + naiveDist2(x, z))
}

func norm2(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return s
}

// refEntry evaluates a kernel with independent formulas and returns the
// value together with an error scale for the comparison.
func refEntry(k Kernel, x, z []float64) (v, scale float64) {
	var g float64
	for i := range x {
		g += x[i] * z[i]
	}
	nx, nz := norm2(x), norm2(z)
	switch kk := k.(type) {
	case Linear:
		return g, math.Sqrt(nx * nz)
	case Polynomial:
		s := kk.Scale
		if s == 0 {
			s = 1
		}
		b := s*g + kk.Offset
		v := math.Pow(b, float64(kk.Degree))
		// d(b^deg) = deg b^(deg-1) db with |db| ~ s |x||z| eps.
		return v, float64(kk.Degree) * math.Pow(math.Abs(b)+s*math.Sqrt(nx*nz), float64(kk.Degree-1)) * (s*math.Sqrt(nx*nz) + kk.Offset)
	case RBF:
		d := naiveDist2(x, z)
		return math.Exp(-kk.Gamma * d), 1
	default:
		return k.Eval(x, z), 1
	}
}

func TestGramAndCross(t *testing.T) {
	ctx := context.Background()
	data := []struct {
		name string
		x    *mat.Dense
	}{
		{"n=1", randNormal(1, 1, 3)},
		{"n=7/p=1", randNormal(2, 7, 1)},
		{"n=300/p=10", randNormal(3, 300, 10)}, // several tiles, partial last tile
		{"dups", withDuplicates(randNormal(4, 140, 5), 1, 40)},
		{"offset=1e6", offset(randNormal(5, 150, 4), 1e6)}, // huge norms
	}
	kernels := []Kernel{Linear{}, Quadratic(), Polynomial{Degree: 3, Scale: 0.5, Offset: 2}, RBF{Gamma: 0.3}, RBF{Gamma: 7}, customKernel{}}
	for _, d := range data {
		n, p := d.x.Dims()
		z := randNormal(99, 130, p)
		if d.name == "offset=1e6" {
			z = offset(z, 1e6)
		}
		for _, k := range kernels {
			g, err := Gram(ctx, k, d.x)
			if err != nil {
				t.Fatalf("%s %v: %v", d.name, k, err)
			}
			raw := g.RawSymmetric()
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					got := raw.Data[i*raw.Stride+j] // both triangles are filled
					if got != raw.Data[j*raw.Stride+i] {
						t.Fatalf("%s %v: not exactly symmetric at (%d,%d)", d.name, k, i, j)
					}
					want, scale := refEntry(k, d.x.RawRowView(i), d.x.RawRowView(j))
					tol := gramTol(k, p, scale, d.x.RawRowView(i), d.x.RawRowView(j))
					if math.Abs(got-want) > tol {
						t.Fatalf("%s %v: K(%d,%d) = %v, want %v (tol %g)", d.name, k, i, j, got, want, tol)
					}
					if _, ok := k.(RBF); ok && (got < 0 || got > 1 || (i == j && got != 1)) {
						t.Fatalf("%s %v: RBF entry %v out of range", d.name, k, got)
					}
				}
			}
			c, err := Cross(ctx, k, d.x, z)
			if err != nil {
				t.Fatalf("%s %v: cross: %v", d.name, k, err)
			}
			m, _ := z.Dims()
			for i := 0; i < n; i++ {
				for j := 0; j < m; j++ {
					want, scale := refEntry(k, d.x.RawRowView(i), z.RawRowView(j))
					tol := gramTol(k, p, scale, d.x.RawRowView(i), z.RawRowView(j))
					if got := c.At(i, j); math.Abs(got-want) > tol {
						t.Fatalf("%s %v: cross(%d,%d) = %v, want %v", d.name, k, i, j, got, want)
					}
				}
			}
		}
	}
}

// gramTol is the comparison tolerance between the BLAS-based entry and the
// naive reference. For products it is 4(p+2) eps times the scale of the
// terms (dot-product error bound with a factor of 4 slack). For RBF the
// distance error is about (p+4) eps (||x-m||^2 + ||z-m||^2) with m the
// centring shift; it enters exp(-gamma d) multiplied by gamma k. Here the
// norms are bounded by those of the uncentred data divided by the offset
// scale, so we use the spread of the data around its own mean (< 50 for
// these standard-normal sets: p * (max |N(0,1)|)^2 with margin).
func gramTol(k Kernel, p int, scale float64, x, z []float64) float64 {
	const eps = 0x1p-52
	switch kk := k.(type) {
	case RBF:
		d := naiveDist2(x, z)
		v := math.Exp(-kk.Gamma * d)
		// Error of the centred expansion plus error of the naive
		// reference itself on offset data (relative p eps of d, and the
		// offset data's own rounding 1e6*eps per coordinate).
		spread := 50.0 * float64(p)
		off := 0.0
		if math.Abs(x[0]) > 1e3 {
			off = 4 * 1e6 * eps * math.Sqrt(d) * float64(p)
		}
		return 16*eps + kk.Gamma*v*(4*float64(p+4)*eps*(spread+d)+off)
	case customKernel:
		return 0
	default:
		return 4*float64(p+2)*eps*scale + 4*eps*math.Abs(scale)
	}
}

func TestGramToReuse(t *testing.T) {
	ctx := context.Background()
	x := randNormal(1, 50, 3)
	want, err := Gram(ctx, RBF{Gamma: 1}, x)
	if err != nil {
		t.Fatal(err)
	}
	dst := mat.NewSymDense(50, nil)
	if err := GramTo(ctx, dst, RBF{Gamma: 1}, x); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(dst, want) {
		t.Fatal("GramTo into a sized dst differs from Gram")
	}
	if err := GramTo(ctx, mat.NewSymDense(49, nil), Linear{}, x); !errors.Is(err, ErrShape) {
		t.Fatalf("wrong dst size: got %v", err)
	}
	if err := CrossTo(ctx, mat.NewDense(50, 3, nil), Linear{}, x, x); !errors.Is(err, ErrShape) {
		t.Fatalf("wrong cross dst size: got %v", err)
	}
}

func TestGramBadInput(t *testing.T) {
	ctx := context.Background()
	x := randNormal(1, 5, 2)
	nan := mat.DenseCopyOf(x)
	nan.Set(1, 1, math.NaN())
	cases := []struct {
		name string
		k    Kernel
		x    *mat.Dense
		kind error
	}{
		{"nil kernel", nil, x, ErrSettings},
		{"gamma=0", RBF{}, x, ErrSettings},
		{"gamma<0", RBF{Gamma: -1}, x, ErrSettings},
		{"gamma=NaN", RBF{Gamma: math.NaN()}, x, ErrSettings},
		{"gamma=Inf", RBF{Gamma: math.Inf(1)}, x, ErrSettings},
		{"degree=0", Polynomial{}, x, ErrSettings},
		{"offset<0", Polynomial{Degree: 2, Offset: -1}, x, ErrSettings},
		{"scale=NaN", Polynomial{Degree: 2, Scale: math.NaN()}, x, ErrSettings},
		{"nan data", Linear{}, nan, ErrNonFinite},
		{"nil data", Linear{}, nil, ErrEmpty},
		{"empty data", Linear{}, &mat.Dense{}, ErrEmpty},
	}
	for _, c := range cases {
		if g, err := Gram(ctx, c.k, c.x); g != nil || !errors.Is(err, c.kind) {
			t.Errorf("%s: Gram got %v, want %v", c.name, err, c.kind)
		}
		if g, err := Cross(ctx, c.k, c.x, x); g != nil || !errors.Is(err, c.kind) {
			t.Errorf("%s: Cross got %v, want %v", c.name, err, c.kind)
		}
	}
	if _, err := Cross(ctx, Linear{}, x, randNormal(2, 4, 3)); !errors.Is(err, ErrShape) {
		t.Errorf("feature mismatch: got %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Gram(cctx, Linear{}, randNormal(3, 600, 4)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}
