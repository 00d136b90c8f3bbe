package linalg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// exactPrec is enough bits for exact sums of products of float64 values:
// their exponents span less than 2 * 2100 binary orders.
const exactPrec = 4400

func bigOf(v float64) *big.Float { return new(big.Float).SetPrec(exactPrec).SetFloat64(v) }

// exactKernel returns the kernel k(x, z) computed in exact arithmetic and
// rounded once to float64 (±Inf if it overflows), and a scale for the
// rounding error of a float64 evaluation: for products the same kernel of
// |x| and |z|, for RBF gamma (||x||^2 + ||z||^2), which bounds the
// cancellation of the Gram expansion of the distance (the data are
// centred near 0).
func exactKernel(k Kernel, x, z []float64) (val, scale float64) {
	dot, adot, d2, nrm := bigOf(0), bigOf(0), bigOf(0), bigOf(0)
	for i := range x {
		a, b := bigOf(x[i]), bigOf(z[i])
		t := new(big.Float).SetPrec(exactPrec).Mul(a, b)
		dot.Add(dot, t)
		adot.Add(adot, t.Abs(t))
		t.Sub(a, b)
		d2.Add(d2, t.Mul(t, t))
		nrm.Add(nrm, a.Mul(a, a))
		nrm.Add(nrm, b.Mul(b, b))
	}
	poly := func(g *big.Float, p Polynomial) float64 {
		b := new(big.Float).SetPrec(exactPrec).Mul(g, bigOf(p.scale()))
		b.Add(b, bigOf(p.Offset))
		r := bigOf(1)
		for range p.Degree {
			r.Mul(r, b)
		}
		v, _ := r.Float64()
		return v
	}
	switch k := k.(type) {
	case Linear:
		v, _ := dot.Float64()
		s, _ := adot.Float64()
		return v, s
	case Polynomial:
		return poly(dot, k), poly(adot, k)
	case RBF:
		arg, _ := d2.Mul(d2, bigOf(k.Gamma)).Float64()
		s, _ := nrm.Mul(nrm, bigOf(k.Gamma)).Float64()
		return math.Exp(-arg), s
	}
	panic("exactKernel: unknown kernel")
}

// nanKernel is a user kernel that returns NaN for far-apart points.
type nanKernel struct{}

func (nanKernel) Eval(x, z []float64) float64 {
	if sqDist(x, z) > 4 {
		return math.NaN()
	}
	return 1
}

// TestGramExtremeMagnitudes: for data of every magnitude, Gram and Cross
// give RBF values equal to the exact kernel (within rounding) in [0, 1],
// and linear and polynomial values equal to the exact ones, or fail with
// ErrDegenerate exactly when an exact value overflows float64; they never
// return NaN or Inf. Previously the RBF kernel of data near 1e200 was NaN
// (Inf - Inf in the expansion) and the linear kernel Inf or NaN with a nil
// error.
func TestGramExtremeMagnitudes(t *testing.T) {
	ctx := context.Background()
	base := withDuplicates(randNormal(31, 40, 4), 2, 3)
	baseZ := randNormal(32, 25, 4)
	for _, sc := range extremeExps {
		// gamma of order 1 / (squared distance), where representable.
		gamma := math.Min(math.Max(math.Ldexp(0.3, -2*sc.c), 0x1p-1022), math.MaxFloat64)
		for _, kk := range []Kernel{RBF{Gamma: gamma}, &RBF{Gamma: 1}, Linear{}, Polynomial{Degree: 3, Offset: 1}, Quadratic()} {
			for _, zc := range []int{0, 37} {
				name := fmt.Sprintf("x=%s/z=2^%d/%v", sc.name, zc, kk)
				t.Run(name, func(t *testing.T) {
					if sc.c+zc > 1000 {
						t.Skip("z would overflow")
					}
					x := pow2Scaled(base, sc.c)
					z := pow2Scaled(baseZ, sc.c+zc)
					var got mat.Matrix
					var err error
					a, b := x, z
					if zc == 0 {
						b = x
						got, err = Gram(ctx, kk, x)
					} else {
						got, err = Cross(ctx, kk, x, z)
					}
					checkKernelValues(t, kk, a, b, got, err)
				})
			}
		}
	}
}

// checkKernelValues compares the kernel matrix got (with error err) of
// rows of a against rows of b with the exact values.
func checkKernelValues(t *testing.T, kk Kernel, a, b *mat.Dense, got mat.Matrix, err error) {
	t.Helper()
	if r, ok := kk.(*RBF); ok {
		kk = *r
	}
	n, _ := a.Dims()
	m, _ := b.Dims()
	overflow := false
	want := mat.NewDense(n, m, nil)
	scale := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			v, s := exactKernel(kk, a.RawRowView(i), b.RawRowView(j))
			want.Set(i, j, v)
			scale.Set(i, j, s)
			overflow = overflow || math.IsInf(v, 0)
		}
	}
	if overflow {
		if !errors.Is(err, ErrDegenerate) || !strings.Contains(err.Error(), "overflows") {
			t.Fatalf("an exact value overflows: got err = %v, want ErrDegenerate saying so", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			g, w := got.At(i, j), want.At(i, j)
			// RBF: exp of an argument with relative error ~1e-15 (the
			// Gram expansion cancels, up to 1e-12 absolute); products:
			// a few units of rounding of the sum of |terms|, and the
			// underflow of up to p+1 terms.
			tol := 1e-12 * scale.At(i, j)
			switch kk.(type) {
			case Polynomial:
				tol *= 10
			case RBF:
				// The expansion's rounding, 8 (p+4) u times the
				// scale, is what a huge gamma for the data's
				// magnitude magnifies (as at any magnitude).
				tol = 1e-12 + 0x1p-53*8*8*scale.At(i, j)
			}
			if !(math.Abs(g-w) <= tol+0x1p-1070) {
				t.Fatalf("K(%d,%d) = %v, want %v (tolerance %v)", i, j, g, w, tol)
			}
			if _, ok := kk.(RBF); ok && !(g >= 0 && g <= 1) {
				t.Fatalf("K(%d,%d) = %v, outside [0, 1]", i, j, g)
			}
		}
	}
}

// TestRBFEvalExtreme: Eval of the RBF kernel is correct for vectors of any
// finite magnitude (previously exp(-gamma * Inf) = 0 for distances that
// overflow, however small gamma).
func TestRBFEvalExtreme(t *testing.T) {
	base := randNormal(33, 6, 5)
	for _, sc := range extremeExps {
		gamma := math.Min(math.Max(math.Ldexp(0.3, -2*sc.c), 0x1p-1074), math.MaxFloat64)
		k := RBF{Gamma: gamma}
		x := pow2Scaled(base, sc.c)
		got := mat.NewDense(6, 6, nil)
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				got.Set(i, j, k.Eval(x.RawRowView(i), x.RawRowView(j)))
			}
		}
		t.Run(sc.name, func(t *testing.T) { checkKernelValues(t, k, x, x, got, nil) })
	}
}

// TestGramUserKernelNaN: a kernel of the caller's that returns NaN makes
// Gram and Cross fail with ErrNonFinite naming the rows (previously the NaN
// was stored silently).
func TestGramUserKernelNaN(t *testing.T) {
	ctx := context.Background()
	x := randNormal(34, 30, 3)
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"Gram", func() error { _, err := Gram(ctx, nanKernel{}, x); return err }},
		{"Cross", func() error { _, err := Cross(ctx, nanKernel{}, x, x); return err }},
	} {
		if err := c.f(); !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "NaN") {
			t.Errorf("%s: err = %v, want ErrNonFinite naming the NaN", c.name, err)
		}
	}
}

// TestGammaExtremeMagnitudes: MedianGamma (exact, bracketed and sampled)
// and MeanGamma of data multiplied by 2^c are those of the data times
// 4^-c, rounded once, wherever that is a positive float64 (subnormal
// included), and otherwise fail with ErrDegenerate saying that gamma
// overflows or underflows; previously distances that overflowed or
// underflowed gave ErrDegenerate (even "too many duplicate points") for
// data whose gamma is representable.
func TestGammaExtremeMagnitudes(t *testing.T) {
	ctx := context.Background()
	type heuristic func(context.Context, *mat.Dense, *BandwidthOptions) (float64, error)
	for _, set := range []struct {
		name string
		x    *mat.Dense
		f    heuristic
		opt  *BandwidthOptions
	}{
		{"median/exact", randNormal(41, 60, 3), MedianGamma, nil},
		{"median/bracket", randNormal(42, 200, 5), MedianGamma, nil},
		{"median/sampled", randNormal(43, 80, 3), MedianGamma, &BandwidthOptions{MaxPairs: 500, Seed: 3}},
		{"mean", randNormal(44, 70, 4), MeanGamma, nil},
	} {
		for _, sc := range extremeExps {
			t.Run(set.name+"/x="+sc.name, func(t *testing.T) {
				x := pow2Scaled(set.x, sc.c)
				ref, err := set.f(ctx, pow2Scaled(x, -sc.c), set.opt)
				if err != nil {
					t.Fatal(err)
				}
				want := math.Ldexp(ref, -2*sc.c)
				g, err := set.f(ctx, x, set.opt)
				if want == 0 || math.IsInf(want, 1) {
					if !errors.Is(err, ErrDegenerate) || !strings.Contains(err.Error(), "flow") ||
						!strings.Contains(err.Error(), "scale the data") {
						t.Fatalf("gamma %v is not representable: got %v, %v; want ErrDegenerate saying so", want, g, err)
					}
					return
				}
				if err != nil || g != want {
					t.Fatalf("gamma = %v (err %v), want %v", g, err, want)
				}
			})
		}
	}
}

// TestMixedMagnitudes: data made of a cluster with unit gaps and one point
// near 1e300 keep the cluster's answers: its neighbours (the far point's
// distances overflow, which NearestNeighbors reports, but the search
// itself, as KNNGraph runs it, is right for the cluster) and the median
// of the squared distances. Scaling the data down all the way to 1, instead
// of to the top of the safe range, would flush the cluster's squared gaps
// to 0.
func TestMixedMagnitudes(t *testing.T) {
	ctx := context.Background()
	const n, p, k = 150, 3, 4
	cluster := randNormal(51, n, p)
	x := mat.NewDense(n+1, p, nil)
	x.Slice(0, n, 0, p).(*mat.Dense).Copy(cluster)
	x.SetRow(n, []float64{1e300, -3e299, 7e299})
	refIdx, refD, err := NearestNeighbors(ctx, cluster, k, KNNBrute)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = NearestNeighbors(ctx, x, k, KNNAuto)
	if !errors.Is(err, ErrDegenerate) {
		t.Errorf("NearestNeighbors: err = %v, want ErrDegenerate (the far point's distances overflow)", err)
	}
	for _, mode := range []knnMode{searchTree, searchBrute} {
		idx, d2, e2, err := knnSearch(ctx, x, 1e300, k, mode, ApproxOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for a := 0; a < n*k; a++ {
			if idx[a] != refIdx[a] || math.Ldexp(d2[a], e2) != refD[a] {
				t.Fatalf("mode %d: neighbour %d of the cluster is %d at %v, want %d at %v",
					mode, a, idx[a], math.Ldexp(d2[a], e2), refIdx[a], refD[a])
			}
		}
	}
	// The median over all pairs: the n far pairs are the largest.
	var d []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d = append(d, sqDist(cluster.RawRowView(i), cluster.RawRowView(j)))
		}
		d = append(d, math.Inf(1))
	}
	want, err := medianGamma("test", d, 0)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := MedianGamma(ctx, x, nil); err != nil || g != want {
		t.Errorf("MedianGamma = %v (%v), want %v", g, err, want)
	}
}
