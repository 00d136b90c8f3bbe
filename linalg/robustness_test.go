package linalg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/robust"
)

// TestNoPanicOnBadInput calls every exported function with bad input and
// requires an error wrapping one of the package's sentinels, never a panic.
func TestNoPanicOnBadInput(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	x := randNormal(1, 20, 3)
	nanX := mat.DenseCopyOf(x)
	nanX.Set(3, 1, math.NaN())
	sym := mat.NewSymDense(3, []float64{2, 1, 0, 1, 2, 1, 0, 1, 2})
	nanSym := mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1})
	lr, _ := NewLowRank(mat.NewDense(3, 1, []float64{1, 2, 3}), []float64{1})
	badLR := &LowRank{V: mat.NewDense(3, 2, nil), Mu: []float64{1}} // Mu too short
	nilLR := &LowRank{}
	var nilCtx context.Context
	sc, _ := FitScaler(x, ZScore)
	validCSR, _ := CSRFromTriplets(2, 2, []Triplet{{0, 1, 1}, {1, 0, 1}})
	badCSR := &CSR{Rows: 2, Cols: 2, RowPtr: []int{0, 1}} // RowPtr too short
	sentinels := []error{ErrEmpty, ErrNonFinite, ErrShape, ErrSettings, ErrDegenerate, context.Canceled}

	cases := []robust.Case{
		{"Gram nil kernel", func() error { _, err := Gram(ctx, nil, x); return err }},
		{"Gram nil x", func() error { _, err := Gram(ctx, Linear{}, nil); return err }},
		{"Gram empty x", func() error { _, err := Gram(ctx, Linear{}, &mat.Dense{}); return err }},
		{"Gram NaN", func() error { _, err := Gram(ctx, Linear{}, nanX); return err }},
		{"Gram bad RBF", func() error { _, err := Gram(ctx, RBF{Gamma: -1}, x); return err }},
		{"Gram bad poly", func() error { _, err := Gram(ctx, Polynomial{Degree: 0}, x); return err }},
		{"Gram cancelled", func() error { _, err := Gram(cancelled, Linear{}, x); return err }},
		{"Gram nil ctx", func() error { _, err := Gram(nilCtx, Linear{}, x); return err }},
		{"GramTo nil dst", func() error { return GramTo(ctx, nil, Linear{}, x) }},
		{"GramTo wrong dst", func() error { return GramTo(ctx, mat.NewSymDense(3, nil), Linear{}, x) }},
		{"Cross shape", func() error { _, err := Cross(ctx, Linear{}, x, randNormal(2, 4, 2)); return err }},
		{"Cross nil z", func() error { _, err := Cross(ctx, Linear{}, x, nil); return err }},
		{"Cross nil ctx", func() error { _, err := Cross(nilCtx, Linear{}, x, x); return err }},
		{"CrossTo nil dst", func() error { return CrossTo(ctx, nil, Linear{}, x, x) }},
		{"CrossTo wrong dst", func() error { return CrossTo(ctx, mat.NewDense(2, 2, nil), Linear{}, x, x) }},
		{"MedianGamma nil", func() error { _, err := MedianGamma(ctx, nil, nil); return err }},
		{"MedianGamma one point", func() error { _, err := MedianGamma(ctx, mat.NewDense(1, 2, nil), nil); return err }},
		{"MedianGamma dup", func() error { _, err := MedianGamma(ctx, mat.NewDense(5, 2, nil), nil); return err }},
		{"MedianGamma cancelled", func() error { _, err := MedianGamma(cancelled, x, nil); return err }},
		{"MedianGamma nil ctx", func() error { _, err := MedianGamma(nilCtx, x, nil); return err }},
		{"MedianGamma overflow", func() error {
			_, err := MedianGamma(ctx, mat.NewDense(2, 1, []float64{-1e300, 1e300}), nil)
			return err
		}},
		{"MedianGamma underflow", func() error {
			_, err := MedianGamma(ctx, mat.NewDense(2, 1, []float64{0, 1e-300}), nil)
			return err
		}},
		{"MeanGamma overflow", func() error {
			_, err := MeanGamma(ctx, mat.NewDense(2, 1, []float64{-1e300, 1e300}), nil)
			return err
		}},
		{"MeanGamma underflow", func() error {
			_, err := MeanGamma(ctx, mat.NewDense(2, 1, []float64{0, 1e-300}), nil)
			return err
		}},
		{"FitScaler nil", func() error { _, err := FitScaler(nil, ZScore); return err }},
		{"FitScaler MinMax overflow", func() error {
			_, err := FitScaler(mat.NewDense(2, 1, []float64{-1e308, 1e308}), MinMax)
			return err
		}},
		{"FitScaler ZScore overflow", func() error {
			_, err := FitScaler(mat.NewDense(3, 1, []float64{1.7e308, -1.7e308, -1.7e308}), ZScore)
			return err
		}},
		{"FitScaler ZScore tiny sd", func() error {
			_, err := FitScaler(mat.NewDense(2, 1, []float64{0, 5e-324}), ZScore)
			return err
		}},
		{"Scaler NaN factor", func() error {
			s := &Scaler{Shift: []float64{0, 0, 0}, Factor: []float64{1, math.NaN(), 1}}
			_, err := s.Transform(x)
			return err
		}},
		{"Gram typed nil kernel", func() error { _, err := Gram(ctx, (*RBF)(nil), x); return err }},
		{"Cross typed nil kernel", func() error { _, err := Cross(ctx, (*Polynomial)(nil), x, x); return err }},
		{"Gram typed nil Linear", func() error { _, err := Gram(ctx, (*Linear)(nil), x); return err }},
		{"FitScaler method", func() error { _, err := FitScaler(x, ScaleMethod(7)); return err }},
		{"Scaler nil Transform", func() error { var s *Scaler; _, err := s.Transform(x); return err }},
		{"Scaler shape", func() error { _, err := sc.Transform(randNormal(2, 4, 2)); return err }},
		{"Scaler nil dst", func() error { return sc.TransformTo(nil, x) }},
		{"Scaler NaN", func() error { _, err := sc.Transform(nanX); return err }},
		{"FitTransform nil", func() error { _, _, err := FitTransform(nil, MinMax); return err }},
		{"Alignment nil", func() error { _, err := Alignment(nil, sym); return err }},
		{"Alignment shape", func() error { _, err := Alignment(sym, nanSym); return err }},
		{"Alignment zero", func() error { _, err := Alignment(sym, mat.NewSymDense(3, nil)); return err }},
		{"Alignment NaN", func() error { _, err := Alignment(nanSym, nanSym); return err }},
		{"Alignment empty", func() error { _, err := Alignment(&mat.SymDense{}, sym); return err }},
		{"Alignment bad LowRank/dense", func() error { _, err := Alignment(badLR, sym); return err }},
		{"Alignment nil LowRank/dense", func() error { _, err := Alignment(nilLR, sym); return err }},
		{"Alignment dense/nil LowRank", func() error { _, err := Alignment(sym, nilLR); return err }},
		{"Alignment typed nil LowRank", func() error { _, err := Alignment((*LowRank)(nil), sym); return err }},
		{"Alignment bad LowRank pair", func() error { _, err := Alignment(badLR, lr); return err }},
		// Alignments of huge or tiny entries are computed (see
		// TestExtremeMagnitudeTable); only results beyond float64 fail.
		{"FrobeniusInner overflow", func() error {
			big := mat.NewSymDense(2, []float64{1e300, 1e299, 1e299, 1e300})
			_, err := FrobeniusInner(big, big)
			return err
		}},
		{"Center overflow", func() error {
			// The centred diagonal is 4/3 of 1.7e308.
			m := 1.7e308
			big := mat.NewSymDense(3, []float64{m, -m, -m, -m, m, -m, -m, -m, m})
			return Center(&mat.SymDense{}, big)
		}},
		{"CosineNormalize overflow", func() error {
			return CosineNormalize(&mat.SymDense{}, mat.NewSymDense(2, []float64{1e-300, 1e300, 1e300, 1e-300}))
		}},
		{"Gram linear overflow", func() error { _, err := Gram(ctx, Linear{}, mat.NewDense(2, 1, []float64{1e200, -1e200})); return err }},
		{"Cross polynomial overflow", func() error {
			_, err := Cross(ctx, Quadratic(), mat.NewDense(1, 1, []float64{1e100}), mat.NewDense(1, 1, []float64{1e60}))
			return err
		}},
		{"NearestNeighbors overflow", func() error {
			_, _, err := NearestNeighbors(ctx, mat.NewDense(3, 1, []float64{-1e300, 0, 1e300}), 1, KNNAuto)
			return err
		}},
		{"SquaredDistances overflow", func() error {
			return SquaredDistances(ctx, &mat.SymDense{}, mat.NewDense(2, 1, []float64{-1e300, 1e300}))
		}},
		{"Scaler far point", func() error {
			s, _ := FitScaler(mat.NewDense(2, 1, []float64{0, 1e-10}), ZScore)
			_, err := s.Transform(mat.NewDense(1, 1, []float64{1.7e308}))
			return err
		}},
		{"Laplacian degree overflow", func() error {
			w, _ := CSRFromTriplets(3, 3, []Triplet{{0, 1, 1.5e308}, {1, 0, 1.5e308}, {0, 2, 1.5e308}, {2, 0, 1.5e308}})
			_, err := Laplacian(w, Combinatorial)
			return err
		}},
		{"NormalizedAffinity degree overflow", func() error {
			w, _ := CSRFromTriplets(3, 3, []Triplet{{0, 1, 1.5e308}, {1, 0, 1.5e308}, {0, 2, 1.5e308}, {2, 0, 1.5e308}})
			_, _, err := NormalizedAffinity(w)
			return err
		}},
		{"FrobeniusInner nil", func() error { _, err := FrobeniusInner(sym, nil); return err }},
		{"FrobeniusInner bad LowRank", func() error { _, err := FrobeniusInner(badLR, sym); return err }},
		{"CenteredAlignment shape", func() error { _, err := CenteredAlignment(sym, nanSym); return err }},
		{"CenteredAlignment nil LowRank", func() error { _, err := CenteredAlignment(nilLR, lr); return err }},
		{"CenteredAlignment bad LowRank", func() error { _, err := CenteredAlignment(badLR, sym); return err }},
		{"TargetAlignment nil y", func() error { _, err := TargetAlignment(sym, nil); return err }},
		{"TargetAlignment NaN y", func() error { _, err := TargetAlignment(sym, []float64{1, math.NaN(), 1}); return err }},
		{"TargetAlignment zero y", func() error { _, err := TargetAlignment(sym, []float64{0, 0, 0}); return err }},
		{"TargetAlignment bad LowRank", func() error { _, err := TargetAlignment(badLR, []float64{1, 2, 3}); return err }},
		{"CenteredTargetAlignment const y", func() error { _, err := CenteredTargetAlignment(sym, []float64{1, 1, 1}); return err }},
		{"TargetAlignmentFactor nil", func() error { _, err := TargetAlignmentFactor(sym, nil); return err }},
		{"TargetAlignmentFactor rows", func() error { _, err := TargetAlignmentFactor(sym, mat.NewDense(2, 1, nil)); return err }},
		{"CenteredTargetAlignmentFactor nil K", func() error {
			_, err := CenteredTargetAlignmentFactor(nil, mat.NewDense(3, 1, nil))
			return err
		}},
		{"OneHot empty", func() error { _, err := OneHot(nil, 2); return err }},
		{"OneHot c", func() error { _, err := OneHot([]int{0}, 0); return err }},
		{"OneHot label", func() error { _, err := OneHot([]int{0, 2}, 2); return err }},
		{"OneHot huge c", func() error { _, err := OneHot([]int{0, 1}, math.MaxInt/2); return err }},
		{"OneHot negative", func() error { _, err := OneHot([]int{-1}, 2); return err }},
		{"NewLowRank nil", func() error { _, err := NewLowRank(nil, nil); return err }},
		{"NewLowRank shape", func() error { _, err := NewLowRank(mat.NewDense(3, 2, nil), []float64{1}); return err }},
		{"NewLowRank NaN", func() error { _, err := NewLowRank(mat.NewDense(3, 1, nil), []float64{math.Inf(1)}); return err }},
		{"LowRank.Validate nil", func() error { return (*LowRank)(nil).Validate() }},
		{"LowRank.Block bad", func() error { _, err := badLR.Block([]int{0}, []int{0}); return err }},
		{"LowRank.Block range", func() error { _, err := lr.Block([]int{3}, []int{0}); return err }},
		{"LowRank.Block negative", func() error { _, err := lr.Block([]int{0}, []int{-1}); return err }},
		{"LowRank.Block empty", func() error { _, err := lr.Block(nil, []int{0}); return err }},
		{"LowRank.Features negative", func() error {
			l, _ := NewLowRank(mat.NewDense(3, 1, []float64{1, 2, 3}), []float64{-1})
			_, err := l.Features()
			return err
		}},
		{"LowRank.Features nil", func() error { _, err := nilLR.Features(); return err }},
		{"LowRank.Alignment nil", func() error { _, err := lr.Alignment(nil); return err }},
		{"LowRank.TargetAlignment bad", func() error { _, err := badLR.TargetAlignment([]float64{1, 2, 3}); return err }},
		{"LowRank.TargetAlignment len", func() error { _, err := lr.TargetAlignment([]float64{1}); return err }},
		{"LowRank.CenteredTargetAlignment nil", func() error { _, err := nilLR.CenteredTargetAlignment([]float64{1}); return err }},
		{"CosineNormalize nil dst", func() error { return CosineNormalize(nil, sym) }},
		{"CosineNormalize nil k", func() error { return CosineNormalize(&mat.SymDense{}, nil) }},
		{"CosineNormalize zero diag", func() error { return CosineNormalize(&mat.SymDense{}, mat.NewSymDense(2, nil)) }},
		{"CosineNormalize dst shape", func() error { return CosineNormalize(mat.NewSymDense(2, nil), sym) }},
		{"Center nil", func() error { return Center(&mat.SymDense{}, nil) }},
		{"Center nil dst", func() error { return Center(nil, sym) }},
		{"CosineNormalizeCross nil", func() error { return CosineNormalizeCross(&mat.Dense{}, nil, nil, nil) }},
		{"CosineNormalizeCross len", func() error {
			return CosineNormalizeCross(&mat.Dense{}, mat.NewDense(2, 2, nil), []float64{1}, []float64{1, 1})
		}},
		{"CosineNormalizeCross diag", func() error {
			return CosineNormalizeCross(&mat.Dense{}, mat.NewDense(1, 1, nil), []float64{0}, []float64{1})
		}},
		{"CosineNormalizeCross NaN", func() error {
			return CosineNormalizeCross(&mat.Dense{}, mat.NewDense(1, 1, []float64{math.NaN()}), []float64{1}, []float64{1})
		}},
		{"CosineNormalizeCross nil dst", func() error {
			return CosineNormalizeCross(nil, mat.NewDense(1, 1, []float64{1}), []float64{1}, []float64{1})
		}},
		{"CenterCross nil", func() error { return CenterCross(&mat.Dense{}, nil, sym) }},
		{"CenterCross nil train", func() error { return CenterCross(&mat.Dense{}, mat.NewDense(1, 3, nil), nil) }},
		{"CenterCross shape", func() error { return CenterCross(&mat.Dense{}, mat.NewDense(1, 2, nil), sym) }},
		{"CenterCross NaN", func() error {
			return CenterCross(&mat.Dense{}, mat.NewDense(1, 3, []float64{0, math.Inf(1), 0}), sym)
		}},
		{"NewCSR negative", func() error { _, err := NewCSR(-1, 2, nil, nil, nil); return err }},
		{"NewCSR short RowPtr", func() error { _, err := NewCSR(2, 2, []int{0}, nil, nil); return err }},
		{"NewCSR nil RowPtr", func() error { _, err := NewCSR(0, 0, nil, nil, nil); return err }},
		{"NewCSR bad col", func() error { _, err := NewCSR(1, 1, []int{0, 1}, []int{5}, []float64{1}); return err }},
		{"NewCSR decreasing", func() error { _, err := NewCSR(2, 2, []int{0, 1, 0}, []int{0}, []float64{1}); return err }},
		{"NewCSR RowPtr[0]", func() error { _, err := NewCSR(1, 2, []int{1, 1}, []int{}, []float64{}); return err }},
		{"NewCSR dup col", func() error { _, err := NewCSR(1, 2, []int{0, 2}, []int{1, 1}, []float64{1, 1}); return err }},
		{"NewCSR NaN", func() error { _, err := NewCSR(1, 1, []int{0, 1}, []int{0}, []float64{math.NaN()}); return err }},
		{"CSR.Validate nil", func() error { return (*CSR)(nil).Validate() }},
		{"CSRFromTriplets negative", func() error { _, err := CSRFromTriplets(-1, 1, nil); return err }},
		{"CSRFromTriplets range", func() error { _, err := CSRFromTriplets(1, 1, []Triplet{{1, 0, 1}}); return err }},
		{"CSRFromTriplets NaN", func() error { _, err := CSRFromTriplets(1, 1, []Triplet{{0, 0, math.NaN()}}); return err }},
		{"CSRFromTriplets huge", func() error { _, err := CSRFromTriplets(math.MaxInt, 1, nil); return err }},
		{"NearestNeighbors nil", func() error { _, _, err := NearestNeighbors(ctx, nil, 1, KNNAuto); return err }},
		{"NearestNeighbors k=0", func() error { _, _, err := NearestNeighbors(ctx, x, 0, KNNAuto); return err }},
		{"NearestNeighbors k=n", func() error { _, _, err := NearestNeighbors(ctx, x, 20, KNNAuto); return err }},
		{"NearestNeighbors method", func() error { _, _, err := NearestNeighbors(ctx, x, 2, KNNMethod(9)); return err }},
		{"NearestNeighbors NaN", func() error { _, _, err := NearestNeighbors(ctx, nanX, 2, KNNBrute); return err }},
		{"NearestNeighbors cancelled", func() error { _, _, err := NearestNeighbors(cancelled, x, 2, KNNTree); return err }},
		{"NearestNeighbors nil ctx", func() error { _, _, err := NearestNeighbors(nilCtx, x, 2, KNNBrute); return err }},
		{"KNNGraph k=n", func() error { _, err := KNNGraph(ctx, x, 20, nil); return err }},
		{"KNNGraph k<0", func() error { _, err := KNNGraph(ctx, x, -1, nil); return err }},
		{"KNNGraph one point", func() error { _, err := KNNGraph(ctx, mat.NewDense(1, 1, nil), 1, nil); return err }},
		{"KNNGraph T", func() error { _, err := KNNGraph(ctx, x, 2, &GraphOptions{Weight: Heat, T: -1}); return err }},
		{"KNNGraph T NaN", func() error { _, err := KNNGraph(ctx, x, 2, &GraphOptions{Weight: Heat, T: math.NaN()}); return err }},
		{"KNNGraph weight", func() error { _, err := KNNGraph(ctx, x, 2, &GraphOptions{Weight: 5}); return err }},
		{"KNNGraph method", func() error { _, err := KNNGraph(ctx, x, 2, &GraphOptions{Method: -1}); return err }},
		{"KNNGraph cancelled", func() error { _, err := KNNGraph(cancelled, x, 2, nil); return err }},
		{"KNNGraph nil ctx", func() error { _, err := KNNGraph(nilCtx, x, 2, nil); return err }},
		{"Laplacian nil", func() error { _, err := Laplacian(nil, Combinatorial); return err }},
		{"Laplacian kind", func() error { _, err := Laplacian(validCSR, LaplacianKind(3)); return err }},
		{"Laplacian invalid", func() error { _, err := Laplacian(badCSR, Normalized); return err }},
		{"Laplacian nonsquare", func() error {
			w, _ := CSRFromTriplets(2, 3, nil)
			_, err := Laplacian(w, Combinatorial)
			return err
		}},
		{"Laplacian negative", func() error {
			w, _ := CSRFromTriplets(2, 2, []Triplet{{0, 1, -1}, {1, 0, -1}})
			_, err := Laplacian(w, Combinatorial)
			return err
		}},
		{"Laplacian asymmetric", func() error {
			w, _ := CSRFromTriplets(2, 2, []Triplet{{0, 1, 1}})
			_, err := Laplacian(w, Combinatorial)
			return err
		}},
	}
	robust.ExpectErrors(t, cases, sentinels...)
}

// TestNoPanicOnEdgeInput calls the functions without an error result on
// degenerate but legal input.
func TestNoPanicOnEdgeInput(t *testing.T) {
	var nilCSR *CSR
	cases := []struct {
		name string
		f    func() error
	}{
		{"Diag nil", func() error {
			if d := Diag(nil); len(d) != 0 {
				return fmt.Errorf("Diag(nil) = %v", d)
			}
			return nil
		}},
		{"Diag empty", func() error { Diag(&mat.SymDense{}); return nil }},
		{"Degrees nil", func() error {
			if d := Degrees(nilCSR); len(d) != 0 {
				return fmt.Errorf("Degrees(nil) = %v", d)
			}
			return nil
		}},
		{"Components nil", func() error {
			if c, l := Components(nilCSR); c != 0 || len(l) != 0 {
				return fmt.Errorf("Components(nil) = %d, %v", c, l)
			}
			return nil
		}},
		{"Components empty", func() error {
			w, _ := CSRFromTriplets(0, 0, nil)
			if c, _ := Components(w); c != 0 {
				return fmt.Errorf("Components(0x0) = %d", c)
			}
			return nil
		}},
		{"CSR 0x0 ToDense", func() error {
			w, _ := CSRFromTriplets(0, 0, nil)
			w.ToDense()
			w.MulVecTo(nil, nil)
			_ = w.IsSymmetric()
			return nil
		}},
		{"CSR 0xn", func() error {
			w, err := CSRFromTriplets(0, 3, nil)
			if err != nil {
				return err
			}
			w.MulVecTo(nil, make([]float64, 3))
			if w.IsSymmetric() {
				return errors.New("0x3 reported symmetric")
			}
			return nil
		}},
		{"LowRank nil Dims", func() error { (&LowRank{}).Dims(); return nil }},
		{"LowRank nil Centered", func() error {
			if (&LowRank{}).Centered() == nil {
				return errors.New("nil")
			}
			return nil
		}},
		{"LowRank nil FrobeniusNorm", func() error { (&LowRank{}).FrobeniusNorm(); return nil }},
		{"LowRank invalid FrobeniusNorm", func() error {
			(&LowRank{V: mat.NewDense(3, 2, nil), Mu: []float64{1}}).FrobeniusNorm()
			return nil
		}},
		{"LowRank nil Dense", func() error { (&LowRank{}).Dense(); return nil }},
	}
	for _, c := range cases {
		if err := robust.Call(t, c.name, c.f); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestScalerExtremeValues: columns of huge or tiny values are scaled
// correctly (previously the sum overflowed to a NaN column, or the squares
// underflowed and a non-constant column was zeroed).
func TestScalerExtremeValues(t *testing.T) {
	for _, col := range [][]float64{
		{1e308, 1e308, -1e308},
		{0, 1e-300, 2e-300},
		{1e-170, 3e-170},
		{1, 2, 3},
	} {
		x := mat.NewDense(len(col), 1, append([]float64(nil), col...))
		y, _, err := FitTransform(x, ZScore)
		if err != nil {
			t.Errorf("%v: %v", col, err)
			continue
		}
		var m, ss float64
		for i := range col {
			m += y.At(i, 0)
		}
		m /= float64(len(col))
		for i := range col {
			ss += (y.At(i, 0) - m) * (y.At(i, 0) - m)
		}
		if sd := math.Sqrt(ss / float64(len(col))); !(math.Abs(m) <= 1e-12 && math.Abs(sd-1) <= 1e-12) {
			t.Errorf("%v: scaled to %v (mean %g, sd %g), want mean 0 and sd 1", col, mat.Col(nil, 0, y), m, sd)
		}
	}
}
