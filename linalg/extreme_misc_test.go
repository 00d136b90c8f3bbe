package linalg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// magExps are the powers of two of the magnitude table: about 1e±150,
// 1e±200, 1e±300, subnormal (2^-1040, about 1e-313) and the top of the
// float64 range.
var magExps = []int{0, 498, -498, 664, -664, 997, -997, -1040, 1020}

// scaledSym returns a copy of a multiplied by 2^c.
func scaledSym(a *mat.SymDense, c int) *mat.SymDense {
	n := a.SymmetricDim()
	out := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			out.SetSym(i, j, math.Ldexp(a.At(i, j), c))
		}
	}
	return out
}

func scaledVec(v []float64, c int) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Ldexp(x, c)
	}
	return out
}

func scaledCSR(w *CSR, c int) *CSR {
	return &CSR{Rows: w.Rows, Cols: w.Cols, RowPtr: w.RowPtr, ColIdx: w.ColIdx, Val: scaledVec(w.Val, c)}
}

func flat(m mat.Matrix) []float64 {
	r, c := m.Dims()
	out := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out = append(out, m.At(i, j))
		}
	}
	return out
}

// extremeCase is one function of the table at magnitude 2^c: it returns
// the values computed and the values wanted (the function's answer on the
// unscaled inputs, scaled as the function scales; ±Inf where that answer
// is not representable, and then a clear error is wanted).
type extremeCase struct {
	name string
	run  func(c int) (got, want []float64, err error)
}

// TestExtremeMagnitudeTable runs the functions of the package that square
// or multiply their inputs on inputs multiplied by powers of two from
// about 1e-313 (subnormal) to 1e307: each returns the correct finite values
// or fails with ErrDegenerate (an answer beyond the float64 range), never
// NaN or Inf and never a panic.
func TestExtremeMagnitudeTable(t *testing.T) {
	// Inputs with largest magnitude in [0.5, 1], so that 2^1020 times
	// them is finite.
	k1, k2 := mustGram(RBF{Gamma: 0.4}, randNormal(61, 12, 3)), mustGram(Quadratic(), randNormal(62, 12, 3))
	k2 = scaledSym(k2, -unitExp(maxAbsOf(k2.RawSymmetric().Data)))
	y := []float64{1, -1, 1, 1, -1, -1, 1, -1, 1, 1, -1, -1}
	yy, _ := OneHot([]int{0, 1, 0, 2, 1, 0, 2, 1, 0, 0, 1, 2}, 3)
	v := randNormal(63, 12, 3)
	mu := []float64{2, 0.5, 1}
	x := pow2Scaled(randNormal(64, 30, 4), -3)
	w, _ := KNNGraph(ctxBG, randNormal(65, 40, 2), 4, &GraphOptions{Weight: Heat})
	wDense, _ := KNNGraph(ctxBG, randNormal(71, 40, 2), 20, nil)
	x40 := randNormal(69, 40, 2)
	k40 := mustGram(RBF{Gamma: 0.01}, x40)
	kx40 := mustCross(RBF{Gamma: 0.01}, randNormal(70, 6, 2), x40)
	kx := mustCross(RBF{Gamma: 0.4}, randNormal(66, 5, 3), randNormal(61, 12, 3))

	inv := func(f func(c int) (float64, error), base float64) func(c int) ([]float64, []float64, error) {
		// a scale-invariant function
		return func(c int) ([]float64, []float64, error) {
			g, err := f(c)
			return []float64{g}, []float64{base}, err
		}
	}
	alignCases := []struct {
		name string
		f    func(c int) (float64, error)
	}{
		{"Alignment", func(c int) (float64, error) { return Alignment(scaledSym(k1, c), k2) }},
		{"Alignment/both", func(c int) (float64, error) { return Alignment(scaledSym(k1, c), scaledSym(k2, c)) }},
		{"CenteredAlignment", func(c int) (float64, error) { return CenteredAlignment(scaledSym(k1, c), scaledSym(k2, -c/2)) }},
		{"TargetAlignment", func(c int) (float64, error) { return TargetAlignment(scaledSym(k1, c), y) }},
		{"TargetAlignment/y", func(c int) (float64, error) { return TargetAlignment(k1, scaledVec(y, c)) }},
		{"CenteredTargetAlignment", func(c int) (float64, error) { return CenteredTargetAlignment(scaledSym(k1, c), scaledVec(y, c)) }},
		{"TargetAlignmentFactor", func(c int) (float64, error) { return TargetAlignmentFactor(scaledSym(k1, c), yy) }},
		{"TargetAlignmentFactor/Y", func(c int) (float64, error) { return TargetAlignmentFactor(k1, pow2Scaled(yy, c)) }},
		{"CenteredTargetAlignmentFactor", func(c int) (float64, error) {
			return CenteredTargetAlignmentFactor(scaledSym(k1, c), pow2Scaled(yy, c/2))
		}},
		{"LowRank.Alignment", func(c int) (float64, error) {
			return (&LowRank{V: pow2Scaled(v, c/2), Mu: mu}).Alignment(&LowRank{V: v, Mu: scaledVec(mu, c)})
		}},
		{"LowRank.TargetAlignment", func(c int) (float64, error) {
			return (&LowRank{V: pow2Scaled(v, c/2), Mu: scaledVec(mu, c/2)}).TargetAlignment(scaledVec(y, c))
		}},
		{"LowRank.CenteredTargetAlignment", func(c int) (float64, error) {
			return (&LowRank{V: pow2Scaled(v, c/2), Mu: mu}).CenteredTargetAlignment(y)
		}},
		{"CenteredAlignment/LowRank", func(c int) (float64, error) {
			return CenteredAlignment(&LowRank{V: pow2Scaled(v, c/2), Mu: mu}, &LowRank{V: v, Mu: scaledVec(mu, c)})
		}},
		{"TargetAlignmentFactor/LowRank", func(c int) (float64, error) {
			return TargetAlignmentFactor(&LowRank{V: v, Mu: scaledVec(mu, c)}, pow2Scaled(yy, c/2))
		}},
	}
	var cases []extremeCase
	for _, a := range alignCases {
		base, err := a.f(0)
		if err != nil {
			t.Fatalf("%s: %v", a.name, err)
		}
		cases = append(cases, extremeCase{a.name, inv(a.f, base)})
	}
	cases = append(cases,
		extremeCase{"FrobeniusInner", func(c int) ([]float64, []float64, error) {
			f0, _ := FrobeniusInner(k1, k2)
			g, err := FrobeniusInner(scaledSym(k1, c), scaledSym(k2, c/3))
			return []float64{g}, []float64{math.Ldexp(f0, c+c/3)}, err
		}},
		extremeCase{"FrobeniusInner/LowRank", func(c int) ([]float64, []float64, error) {
			a, b := &LowRank{V: v, Mu: mu}, &LowRank{V: v, Mu: []float64{1, 1, -1}}
			f0, _ := FrobeniusInner(a, b)
			g, err := FrobeniusInner(&LowRank{V: pow2Scaled(v, c/4), Mu: mu}, &LowRank{V: pow2Scaled(v, c/4), Mu: []float64{1, 1, -1}})
			return []float64{g}, []float64{math.Ldexp(f0, c/4*4)}, err
		}},
		extremeCase{"LowRank.FrobeniusNorm", func(c int) ([]float64, []float64, error) {
			n0 := (&LowRank{V: v, Mu: mu}).FrobeniusNorm()
			g := (&LowRank{V: pow2Scaled(v, c/4), Mu: scaledVec(mu, c/2)}).FrobeniusNorm()
			want := math.Ldexp(n0, c/4*2+c/2)
			var err error
			if math.IsInf(g, 1) && math.IsInf(want, 1) {
				err = ErrDegenerate // +Inf is the documented answer
			}
			return []float64{g}, []float64{want}, err
		}},
		extremeCase{"CosineNormalize", func(c int) ([]float64, []float64, error) {
			var a, b mat.SymDense
			_ = CosineNormalize(&a, k2)
			err := CosineNormalize(&b, scaledSym(k2, c))
			return flat(&b), flat(&a), err
		}},
		extremeCase{"Center", func(c int) ([]float64, []float64, error) {
			var a, b mat.SymDense
			_ = Center(&a, k2)
			err := Center(&b, scaledSym(k2, c))
			return flat(&b), flat(scaledSym(&a, c)), err
		}},
		extremeCase{"Center/n=40", func(c int) ([]float64, []float64, error) {
			// 40 entries near 2^1020 overflow a plain row sum.
			var a, b mat.SymDense
			_ = Center(&a, k40)
			err := Center(&b, scaledSym(k40, c))
			return flat(&b), flat(scaledSym(&a, c)), err
		}},
		extremeCase{"CenterCross/n=40", func(c int) ([]float64, []float64, error) {
			var a, b mat.Dense
			_ = CenterCross(&a, kx40, k40)
			err := CenterCross(&b, pow2Scaled(kx40, c), scaledSym(k40, c))
			return flat(&b), flat(pow2Scaled(&a, c)), err
		}},
		extremeCase{"CosineNormalizeCross", func(c int) ([]float64, []float64, error) {
			var a, b mat.Dense
			dz := Diag(k1)
			_ = CosineNormalizeCross(&a, kx, []float64{1, 1, 1, 1, 1}, dz)
			err := CosineNormalizeCross(&b, pow2Scaled(kx, c), scaledVec([]float64{1, 1, 1, 1, 1}, c), scaledVec(dz, c))
			return flat(&b), flat(&a), err
		}},
		extremeCase{"CenterCross", func(c int) ([]float64, []float64, error) {
			var a, b mat.Dense
			_ = CenterCross(&a, kx, k1)
			err := CenterCross(&b, pow2Scaled(kx, c), scaledSym(k1, c))
			return flat(&b), flat(pow2Scaled(&a, c)), err
		}},
		extremeCase{"FitTransform/ZScore", func(c int) ([]float64, []float64, error) {
			return fitTransformCase(x, ZScore, c)
		}},
		extremeCase{"FitTransform/MinMax", func(c int) ([]float64, []float64, error) {
			return fitTransformCase(x, MinMax, c)
		}},
		extremeCase{"Scaler.Transform/far", func(c int) ([]float64, []float64, error) {
			// New points 2^c times the training data, whose spread is
			// 2^-20: the scaled values are about 2^(c+20), so they
			// overflow for large c.
			s, _ := FitScaler(pow2Scaled(x, -20), ZScore)
			z := pow2Scaled(x, c)
			b, err := s.Transform(z)
			want := make([]float64, 0)
			for i := 0; i < 30; i++ {
				for j := 0; j < 4; j++ {
					// (z - shift) factor, exactly, rounded once
					want = append(want, exactAffine(z.At(i, j), s.Shift[j], s.Factor[j]))
				}
			}
			return flatOrNil(b), want, err
		}},
		extremeCase{"NormalizedAffinity", func(c int) ([]float64, []float64, error) {
			s0, d0, _ := NormalizedAffinity(w)
			s, d, err := NormalizedAffinity(scaledCSR(w, c))
			var got []float64
			if err == nil {
				got = append(append(got, s.Val...), d...)
			}
			return got, append(append([]float64(nil), s0.Val...), scaledVec(d0, c)...), err
		}},
		extremeCase{"Laplacian/Normalized", func(c int) ([]float64, []float64, error) {
			l0, _ := Laplacian(w, Normalized)
			l, err := Laplacian(scaledCSR(w, c), Normalized)
			return csrVals(l), l0.Val, err
		}},
		extremeCase{"Laplacian/Combinatorial", func(c int) ([]float64, []float64, error) {
			l0, _ := Laplacian(w, Combinatorial)
			l, err := Laplacian(scaledCSR(w, c), Combinatorial)
			return csrVals(l), scaledVec(l0.Val, c), err
		}},
		extremeCase{"Laplacian/Normalized/k=20", func(c int) ([]float64, []float64, error) {
			// Rows of 20 or more unit weights: their sums overflow at 2^1020.
			l0, _ := Laplacian(wDense, Normalized)
			l, err := Laplacian(scaledCSR(wDense, c), Normalized)
			return csrVals(l), l0.Val, err
		}},
		extremeCase{"Laplacian/Combinatorial/k=20", func(c int) ([]float64, []float64, error) {
			l0, _ := Laplacian(wDense, Combinatorial)
			l, err := Laplacian(scaledCSR(wDense, c), Combinatorial)
			return csrVals(l), scaledVec(l0.Val, c), err
		}},
		extremeCase{"NormalizedAffinity/k=20", func(c int) ([]float64, []float64, error) {
			s0, d0, _ := NormalizedAffinity(wDense)
			s, d, err := NormalizedAffinity(scaledCSR(wDense, c))
			var got []float64
			if err == nil {
				got = append(append(got, s.Val...), d...)
			}
			return got, append(append([]float64(nil), s0.Val...), scaledVec(d0, c)...), err
		}},
		extremeCase{"KNNGraph/Heat", func(c int) ([]float64, []float64, error) {
			xs := randNormal(67, 40, 2)
			g0, _ := KNNGraph(ctxBG, xs, 4, &GraphOptions{Weight: Heat})
			g, err := KNNGraph(ctxBG, pow2Scaled(xs, c), 4, &GraphOptions{Weight: Heat})
			return csrVals(g), g0.Val, err
		}},
		extremeCase{"KNNGraph/LocalHeat", func(c int) ([]float64, []float64, error) {
			xs := randNormal(68, 40, 2)
			g0, _ := KNNGraph(ctxBG, xs, 4, &GraphOptions{Weight: LocalHeat})
			g, err := KNNGraph(ctxBG, pow2Scaled(xs, c), 4, &GraphOptions{Weight: LocalHeat})
			return csrVals(g), g0.Val, err
		}},
	)
	for _, ec := range cases {
		for _, c := range magExps {
			t.Run(fmt.Sprintf("%s/2^%d", ec.name, c), func(t *testing.T) {
				got, want, err := ec.run(c)
				checkExtreme(t, c, got, want, err)
			})
		}
	}
}

// checkExtreme compares got with want: an error of kind ErrDegenerate when
// some wanted value is not representable, else the values within a
// tolerance relative to the largest wanted value (looser when the inputs
// were subnormal and kept fewer bits), and never NaN or Inf.
func checkExtreme(t *testing.T, c int, got, want []float64, err error) {
	t.Helper()
	for _, w := range want {
		if math.IsInf(w, 0) || math.IsNaN(w) {
			if !errors.Is(err, ErrDegenerate) {
				t.Fatalf("an answer is beyond float64 (%v): err = %v, want ErrDegenerate", w, err)
			}
			return
		}
	}
	if err != nil {
		t.Fatalf("err = %v, want the values %v", err, want[:min(len(want), 4)])
	}
	if len(got) != len(want) {
		t.Fatalf("%d values, want %d", len(got), len(want))
	}
	tol := 1e-11
	if c < -990 {
		tol = 1e-6 // the inputs are subnormal: 2^-1040 keeps about 30 bits
	}
	scale := maxAbsOf(want)
	for i, g := range got {
		if math.IsNaN(g) || math.IsInf(g, 0) || !(math.Abs(g-want[i]) <= tol*scale+0x1p-1060) {
			t.Fatalf("value %d = %v, want %v (tolerance %g)", i, g, want[i], tol*scale)
		}
	}
}

// fitTransformCase fits a scaler to x 2^c and transforms x 2^c: the result
// is that of x, or an error when a factor, the inverse of the column's
// spread, is beyond the float64 range.
func fitTransformCase(x *mat.Dense, method ScaleMethod, c int) ([]float64, []float64, error) {
	a, s, _ := FitTransform(x, method)
	want := flat(a)
	for _, f := range s.Factor {
		if math.IsInf(math.Ldexp(f, -c), 1) {
			want = []float64{math.Inf(1)}
		}
	}
	b, _, err := FitTransform(pow2Scaled(x, c), method)
	return flatOrNil(b), want, err
}

func flatOrNil(m *mat.Dense) []float64 {
	if m == nil {
		return nil
	}
	return flat(m)
}

func csrVals(a *CSR) []float64 {
	if a == nil {
		return nil
	}
	return a.Val
}

// exactAffine returns (a - b) f computed exactly and rounded once (±Inf if
// it overflows).
func exactAffine(a, b, f float64) float64 {
	d := bigOf(a)
	d.Sub(d, bigOf(b))
	v, _ := d.Mul(d, bigOf(f)).Float64()
	return v
}

func mustGram(k Kernel, x *mat.Dense) *mat.SymDense {
	g, err := Gram(ctxBG, k, x)
	if err != nil {
		panic(err)
	}
	return g
}

func mustCross(k Kernel, x, z *mat.Dense) *mat.Dense {
	g, err := Cross(ctxBG, k, x, z)
	if err != nil {
		panic(err)
	}
	return g
}

var ctxBG = context.Background()
