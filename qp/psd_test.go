package qp

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// spectral returns Q·diag(λ)·Qᵀ for a random orthogonal Q (seeded) and its
// Frobenius norm; the columns of Q are returned too.
func spectral(seed uint64, lambda []float64) (*mat.SymDense, *mat.Dense, float64) {
	n := len(lambda)
	rng := rand.New(rand.NewPCG(seed, 7))
	a := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var q mat.Dense
	qr.QTo(&q)
	h := mat.NewSymDense(n, nil)
	fro := 0.0
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := 0.0
			for k, l := range lambda {
				v += q.At(i, k) * l * q.At(j, k)
			}
			h.SetSym(i, j, v)
		}
		fro += lambda[i] * lambda[i]
	}
	return h, &q, math.Sqrt(fro)
}

// TestPSDTolerance tests both sides of the semidefiniteness threshold
// λ_min >= −PSDTol·‖H‖_F (DefaultPSDTol = 1e-5) with H of known spectrum: the
// case of the issue (λ_min = −1.3e-5 against λ_max = 10.8, convex up to the
// rounding of 6-digit data) and eigenvalues at half and twice the threshold
// are accepted or refused; an accepted indefinite H is solved with H₊
// (HShift = −λ_min) to the optimum a reference computes with H₊ built here;
// an eigenvalue at rounding level is used as it is (HShift = 0).
func TestPSDTolerance(t *testing.T) {
	base := []float64{10.8, 5, 2, 1, 0.5, 0}
	_, _, fro := spectral(1, base)
	for _, tc := range []struct {
		name    string
		lmin    float64
		refused bool
		shift   bool
	}{
		{"issue: -1.3e-5 against 10.8", -1.3e-5, false, true},
		{"half the threshold", -0.5 * DefaultPSDTol * fro, false, true},
		{"twice the threshold", -2 * DefaultPSDTol * fro, true, false},
		{"rounding level", -1e-13 * fro, false, false},
		{"semidefinite", 0, false, false},
	} {
		lambda := append([]float64(nil), base...)
		lambda[5] = tc.lmin
		h, q, _ := spectral(1, lambda)
		// the negative direction v = q[:,5] is free of constraints: with H
		// itself the problem would be unbounded along it; g ⟂ v keeps the
		// problem with H₊ bounded (zero curvature and zero slope there)
		v := mat.Col(nil, 5, q)
		g := []float64{1, -2, 0.5, 3, -1, 2}
		gv := dot(g, v)
		for i := range g {
			g[i] -= gv * v[i]
		}
		p := &Problem{H: h, G: g, Aeq: mat.NewDense(1, 6, []float64{1, 1, 1, 1, 1, 1}), Beq: []float64{1},
			Lower: []float64{-1, -1, -1, -1, -1, -1}}
		hp := mat.NewSymDense(6, nil)
		hp.CopySym(h)
		if tc.lmin < 0 {
			hp.SymRankOne(hp, -tc.lmin, mat.NewVecDense(6, v))
		}
		var ref Result
		if err := NewActiveSet(&Settings{SkipPSDCheck: true}).Solve(context.Background(), &Problem{H: hp, G: g, Aeq: p.Aeq, Beq: p.Beq, Lower: p.Lower}, nil, &ref); err != nil || ref.Status != linalg.Optimal {
			t.Fatalf("%s: reference %v %v", tc.name, ref.Status, err)
		}
		for _, s := range []Solver{NewActiveSet(nil), &ActiveSet{NoDualCrash: true}, NewBounded(nil), NewADMM(nil)} {
			var res Result
			err := s.Solve(context.Background(), p, nil, &res)
			if tc.refused {
				if !errors.Is(err, linalg.ErrNotPSD) {
					t.Errorf("%s %T: err %v, want ErrNotPSD", tc.name, s, err)
				}
				continue
			}
			if err != nil || res.Status != linalg.Optimal || res.KKT.Max() > 1e-9 {
				t.Errorf("%s %T: %v %v KKT %+v", tc.name, s, err, res.Status, res.KKT)
				continue
			}
			// the shift is −λ_min to rounding of the eigendecomposition
			if want := math.Max(0, -tc.lmin); (tc.shift && math.Abs(res.HShift-want) > 1e-12*fro) || (!tc.shift && res.HShift != 0) {
				t.Errorf("%s %T: HShift %v, want %v", tc.name, s, res.HShift, want)
			}
			if math.Abs(res.Obj-ref.Obj) > 1e-9*(1+math.Abs(ref.Obj)) {
				t.Errorf("%s %T: objective %v, reference with H₊ %v", tc.name, s, res.Obj, ref.Obj)
			}
		}
		// the dual method needs a positive definite H: refused throughout
		var res Result
		if err := NewGoldfarbIdnani(nil).Solve(context.Background(), p, nil, &res); !errors.Is(err, linalg.ErrNotPSD) {
			t.Errorf("%s GoldfarbIdnani: err %v, want ErrNotPSD", tc.name, err)
		}
	}
}
