package labelaware

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/spectral"
)

type alignfCase struct {
	name    string
	base    *mat.Dense
	target  *mat.Dense
	classes int
}

// alignfCases builds random base vectors on a block of l points, some of
// them correlated with the labels, with scales from 1e-6 to 1e6, a constant
// column and a duplicated column.
func alignfCases() []alignfCase {
	var out []alignfCase
	for _, tc := range []struct {
		l, r, classes int
		scales        bool
		constant, dup bool
	}{
		{12, 3, 2, false, false, false},
		{20, 6, 2, true, false, false},
		{20, 6, 3, false, true, true},
		{40, 30, 2, true, true, false},
		{30, 60, 4, false, false, true}, // r > l: M is singular
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.l*1000+tc.r), 7))
		y := make([]int, tc.l)
		for i := range y {
			y[i] = i % tc.classes
		}
		target, err := spectral.Target(y, tc.classes)
		if err != nil {
			panic(err)
		}
		b := mat.NewDense(tc.l, tc.r, nil)
		for j := 0; j < tc.r; j++ {
			scale := 1.0
			if tc.scales {
				scale = math.Pow(10, float64(j%13)-6)
			}
			mix := rng.Float64()
			for i := 0; i < tc.l; i++ {
				v := rng.NormFloat64()
				if j%2 == 0 {
					if y[i] == j%tc.classes {
						v += 2 / (mix + 0.1)
					}
				}
				b.Set(i, j, scale*v)
			}
		}
		if tc.constant {
			for i := 0; i < tc.l; i++ {
				b.Set(i, 1, 3)
			}
		}
		if tc.dup {
			for i := 0; i < tc.l; i++ {
				b.Set(i, tc.r-1, b.At(i, 0))
			}
		}
		out = append(out, alignfCase{fmt.Sprintf("l=%d/r=%d/c=%d/scales=%v/const=%v/dup=%v", tc.l, tc.r, tc.classes, tc.scales, tc.constant, tc.dup), b, target, tc.classes})
	}
	return out
}

// TestAlignfKKT checks the optimality conditions of v* = argmin_{v>=0}
// vᵀMv - 2vᵀa: v >= 0, g = 2(Mv - a) >= 0 and v_i g_i = 0, with thresholds
// relative to the size of the terms of each gradient entry.
func TestAlignfKKT(t *testing.T) {
	for _, tc := range alignfCases() {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Alignf(context.Background(), tc.base, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			r := len(res.V)
			var nrm float64
			for i := 0; i < r; i++ {
				if res.V[i] < 0 || res.Weights[i] < 0 {
					t.Errorf("negative weight %d: v %g mu %g", i, res.V[i], res.Weights[i])
				}
				nrm += res.Weights[i] * res.Weights[i]
				var mv, terms float64
				for j := 0; j < r; j++ {
					mv += res.M.At(i, j) * res.V[j]
					terms += math.Abs(res.M.At(i, j) * res.V[j])
				}
				g := 2 * (mv - res.A[i])
				// scale: the magnitude of the terms of g_i; 1e-9 of it is
				// far above the QP's rounding (its KKT tolerance is
				// about 1e-12 in the rescaled problem) and far below any
				// real violation.
				scale := 2 * (terms + math.Abs(res.A[i]))
				if scale == 0 {
					continue // a constant vector: M_i. = 0 and a_i = 0
				}
				if g < -1e-9*scale {
					t.Errorf("gradient %d = %g < 0 (scale %g)", i, g, scale)
				}
				if res.V[i] > 0 && math.Abs(g) > 1e-9*scale {
					t.Errorf("complementarity %d: v = %g, g = %g (scale %g)", i, res.V[i], g, scale)
				}
			}
			// ||mu|| = 1 up to rounding (16 eps would be exact; 1e-12 is loose).
			if math.Abs(nrm-1) > 1e-12 {
				t.Errorf("||mu||² = %v", nrm)
			}
			if res.KKT.Max() > 1e-9 {
				t.Errorf("QP KKT residual %g", res.KKT.Max())
			}
			t.Logf("alignment %.4f, %d QP iterations, %d constant, %d of %d weights positive", res.Alignment, res.Iterations, res.Constant, countPos(res.V), r)
		})
	}
}

func countPos(v []float64) int {
	c := 0
	for _, x := range v {
		if x > 0 {
			c++
		}
	}
	return c
}

// TestAlignfBeatsOtherWeights checks that the alignf combination has at
// least the centred alignment of the uniform and independent weights and of
// random non-negative weights, all measured by a dense reference.
func TestAlignfBeatsOtherWeights(t *testing.T) {
	for _, tc := range alignfCases() {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Alignf(context.Background(), tc.base, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			ref := denseCenteredAlignment(combine(tc.base, res.Weights), tc.target)
			// The closed form and the dense reference agree to rounding of
			// O(l²) sums: 1e-10 relative.
			if math.Abs(ref-res.Alignment) > 1e-10*ref {
				t.Errorf("alignment %v, dense reference %v", res.Alignment, ref)
			}
			ba, err := BlockAlignment(tc.base, tc.target, res.Weights)
			if err != nil || math.Abs(ba-ref) > 1e-10*ref {
				t.Errorf("BlockAlignment %v (%v), dense reference %v", ba, err, ref)
			}
			_, r := tc.base.Dims()
			// Uniform and independent weights on unit-norm vectors, as
			// Build uses them.
			unit := mat.DenseCopyOf(tc.base)
			for j := 0; j < r; j++ {
				n := mat.Norm(unit.ColView(j), 2)
				col := unit.Slice(0, unit.RawMatrix().Rows, j, j+1).(*mat.Dense)
				col.Scale(1/n, col)
			}
			for _, scheme := range []Weighting{WeightUniform, WeightIndependent} {
				w, _, err := weights(context.Background(), scheme, unit, tc.target)
				if err != nil {
					t.Fatal(err)
				}
				other := denseCenteredAlignment(combine(unit, w), tc.target)
				// Optimality: alignf is the maximum over w >= 0; 1e-12 covers
				// the rounding of the two evaluations.
				if other > ref+1e-12 {
					t.Errorf("%v alignment %v above alignf %v", scheme, other, ref)
				}
				t.Logf("%v %.4f vs alignf %.4f", scheme, other, ref)
			}
			rng := rand.New(rand.NewPCG(1, 1))
			w := make([]float64, r)
			for trial := 0; trial < 200; trial++ {
				for i := range w {
					w[i] = rng.ExpFloat64() * float64(rng.IntN(2))
				}
				a, err := BlockAlignment(tc.base, tc.target, w)
				if err != nil {
					continue // all weights on constant vectors
				}
				if a > ref+1e-12 {
					t.Fatalf("random weights %v reach alignment %v > alignf %v", w, a, ref)
				}
			}
		})
	}
}

// TestAlignfBruteForce compares alignf with an exhaustive search over the
// supports of v for small r: on a support S the optimum solves M_SS v_S =
// a_S; the best feasible such point is the global minimum of the convex QP.
func TestAlignfBruteForce(t *testing.T) {
	for _, tc := range alignfCases()[:3] {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Alignf(context.Background(), tc.base, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			r := len(res.V)
			obj := func(v []float64) float64 {
				var s float64
				for i := 0; i < r; i++ {
					s -= 2 * v[i] * res.A[i]
					for j := 0; j < r; j++ {
						s += v[i] * res.M.At(i, j) * v[j]
					}
				}
				return s
			}
			best := 0.0 // v = 0
			dj := make([]float64, r)
			for i := range dj {
				dj[i] = math.Sqrt(res.M.At(i, i))
			}
			for mask := 1; mask < 1<<r; mask++ {
				var s []int
				for i := 0; i < r; i++ {
					if mask&(1<<i) != 0 && dj[i] > 0 {
						s = append(s, i)
					}
				}
				if len(s) == 0 {
					continue
				}
				// Jacobi scaling (M_ii = 1) keeps the solve well conditioned
				// whatever the scales of the base vectors; it does not
				// change the objective.
				ms := mat.NewDense(len(s), len(s), nil)
				as := mat.NewVecDense(len(s), nil)
				for a, i := range s {
					as.SetVec(a, res.A[i]/dj[i])
					for b, j := range s {
						ms.Set(a, b, res.M.At(i, j)/(dj[i]*dj[j]))
					}
				}
				var vs mat.VecDense
				if err := vs.SolveVec(ms, as); err != nil {
					continue // singular on this support
				}
				v := make([]float64, r)
				ok := true
				for a, i := range s {
					v[i] = vs.AtVec(a) / dj[i]
					ok = ok && v[i] >= 0
				}
				if ok {
					best = math.Min(best, obj(v))
				}
			}
			got := obj(res.V)
			// Objective values agree to rounding relative to the optimum's
			// size (1e-9: the brute-force solves are unrefined).
			if math.Abs(got-best) > 1e-9*math.Abs(best) {
				t.Errorf("alignf objective %v, brute force %v", got, best)
			}
		})
	}
}

func TestAlignfErrors(t *testing.T) {
	b := mat.NewDense(4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 9})
	y := mat.NewDense(4, 1, []float64{1, -1, 1, -1})
	nan := mat.DenseCopyOf(b)
	nan.Set(1, 1, math.NaN())
	one := mat.NewDense(4, 1, []float64{1, 1, 1, 1})
	constant := mat.NewDense(4, 2, []float64{1, 2, 1, 2, 1, 2, 1, 2})
	cases := []struct {
		name       string
		ctx        context.Context
		base, targ *mat.Dense
		want       error
	}{
		{"nil ctx", nil, b, y, linalg.ErrSettings},
		{"nil base", context.Background(), nil, y, linalg.ErrShape},
		{"nil target", context.Background(), b, nil, linalg.ErrShape},
		{"rows", context.Background(), b, mat.NewDense(3, 1, []float64{1, -1, 1}), linalg.ErrShape},
		{"nan", context.Background(), nan, y, linalg.ErrNonFinite},
		{"one class", context.Background(), b, one, linalg.ErrLabels},
		{"constant bases", context.Background(), constant, y, linalg.ErrDegenerate},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Alignf(tc.ctx, tc.base, tc.targ)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			t.Log(err)
		})
	}
	if _, err := BlockAlignment(b, y, []float64{1}); !errors.Is(err, linalg.ErrShape) {
		t.Errorf("wrong weight count: %v", err)
	}
	if _, err := BlockAlignment(b, y, []float64{1, math.Inf(1)}); !errors.Is(err, linalg.ErrNonFinite) {
		t.Errorf("infinite weight: %v", err)
	}
}
