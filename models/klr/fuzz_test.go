package klr

import (
	"context"
	"math"
	"testing"

	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// FuzzFit fits binary KLR in feature and kernel form on small problems from
// the bytes (separable or not, duplicate and zero rows, lambda from 1e-8 to
// 10, with or without the bias) and measures the gradient of J itself at
// the returned model: a Converged status must mean that its infinity norm
// is within the stopping test (Tol times the gradient at the zero model,
// with room for rounding), and Stats must report it; the objective must be
// finite and not above J at the zero model.
func FuzzFit(f *testing.F) {
	f.Add([]byte{10, 3, 4, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{30, 6, 0, 0, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{4, 1, 9, 1, 64, 64, 64})
	f.Add([]byte{20, 2, 2, 0, 129, 127, 130, 126, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		l := 2 + int(data[0])%30
		d := 1 + int(data[1])%8
		lambda := math.Pow(10, float64(int(data[2])%10)-8) // 1e-8 … 10
		bias := data[3]%2 == 1
		bs := robust.NewBytes(data[4:])
		next := bs.Next
		phi := bs.Grid(l, d)
		y := make([]float64, l)
		pos, neg := false, false
		for i := range y {
			y[i] = 1
			if next()%2 == 0 {
				y[i] = -1
			}
			pos, neg = pos || y[i] > 0, neg || y[i] < 0
		}
		s := &Settings{Lambda: lambda, Bias: bias}
		ctx := context.Background()
		// feature form
		m, err := FitFeatures(ctx, phi, y, s)
		if err == nil {
			checkGradient(t, "features", m, phi, nil, y, lambda, bias)
		} else if !pos || !neg {
			// one class: an input error is the documented outcome
		} else if m == nil {
			t.Logf("features: %v", err)
		}
		// kernel form on K = Phi Phiᵀ
		var kk mat.SymDense
		kk.SymOuterK(1, phi)
		mk, err := FitKernel(ctx, &kk, y, s)
		if err == nil {
			checkGradient(t, "kernel", mk, nil, &kk, y, lambda, bias)
		}
	})
}

// checkGradient recomputes J and its gradient at m: with f = X c + b (X the
// features, or the kernel), J = mean ln(1 + exp(−y f)) + λ/2 R(c), R = ‖c‖²
// or cᵀKc.
func checkGradient(t *testing.T, form string, m *Model, phi *mat.Dense, k *mat.SymDense, y []float64, lambda float64, bias bool) {
	t.Helper()
	var x mat.Matrix = phi
	if k != nil {
		x = k
	}
	l, p := x.Dims()
	f := make([]float64, l)
	for i := range f {
		s := m.Bias
		for j := 0; j < p; j++ {
			s += x.At(i, j) * m.Coef[j]
		}
		f[i] = s
	}
	// dJ/df_i = −y_i σ(−y_i f_i) / l
	g := make([]float64, l)
	var obj, gb float64
	for i := range f {
		z := -y[i] * f[i]
		obj += math.Max(z, 0) + math.Log1p(math.Exp(-math.Abs(z)))
		sig := 1 / (1 + math.Exp(-z)) // σ(z)
		g[i] = -y[i] * sig / float64(l)
		gb += g[i]
	}
	obj /= float64(l)
	grad := make([]float64, p)
	for j := 0; j < p; j++ {
		s := 0.0
		for i := 0; i < l; i++ {
			s += x.At(i, j) * g[i]
		}
		grad[j] = s
	}
	reg := 0.0
	if k == nil {
		for j, c := range m.Coef {
			grad[j] += lambda * c
			reg += c * c
		}
	} else {
		// ∇ of λ/2 cᵀKc is λ K c
		for j := 0; j < p; j++ {
			s := 0.0
			for i := 0; i < p; i++ {
				s += k.At(j, i) * m.Coef[i]
			}
			grad[j] += lambda * s
			reg += m.Coef[j] * s
		}
	}
	obj += lambda / 2 * reg
	gn := 0.0
	for _, v := range grad {
		gn = math.Max(gn, math.Abs(v))
	}
	if bias {
		gn = math.Max(gn, math.Abs(gb))
	}
	// Rounding in the sums above: coefficients in K's null space can be
	// large without changing f, and they cancel in Kc and cᵀKc.
	xmax, cmax := 0.0, 0.0
	for i := 0; i < l; i++ {
		for j := 0; j < p; j++ {
			xmax = math.Max(xmax, math.Abs(x.At(i, j)))
		}
	}
	for _, c := range m.Coef {
		cmax = math.Max(cmax, math.Abs(c))
	}
	floor := 1e3 * 2.2e-16 * float64(p) * xmax * (cmax*(1+lambda*float64(p)*xmax) + 1)
	if math.IsNaN(obj) || math.IsInf(obj, 0) || obj > math.Ln2+1e-12+floor*(1+cmax) || m.Stats.Objective > math.Ln2*(1+1e-15) {
		t.Errorf("%s: objective %v measured, %v reported (J at the zero model is ln 2)", form, obj, m.Stats.Objective)
	}
	if m.Stats.Status == linalg.Converged {
		if limit := 10*DefaultTol*m.Stats.GradScale + 1e-13 + floor; gn > limit {
			t.Errorf("%s: Converged with ‖∇J‖∞ = %.3g measured, above %.3g (reported %.3g, scale %.3g, λ %g)", form, gn, limit, m.Stats.GradNorm, m.Stats.GradScale, lambda)
		}
	}
}
