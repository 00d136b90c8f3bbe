package svm

import (
	"context"
	"math"
	"testing"

	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// FuzzTrain trains the C-SVM on small kernel blocks from the bytes (linear
// kernels of points on a grid of 1/4, so duplicate and zero rows and
// singular blocks are common; C from 1e-3 to 1e3; separable or not) and
// checks the result independently: alpha inside the box and on the plane
// y^T alpha = 0, the dual objective as reported, and, when Converged, the
// maximal KKT violation max_up(−y∇) − min_low(−y∇) recomputed from alpha
// within Tol (with room for rounding), as the status claims.
func FuzzTrain(f *testing.F) {
	f.Add([]byte{10, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{30, 6, 0, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{4, 1, 9, 64, 64, 64})
	f.Add([]byte{20, 2, 2, 129, 127, 130, 126, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		l := 2 + int(data[0])%30
		p := 1 + int(data[1])%6
		c := math.Pow(10, float64(int(data[2])%7)-3)
		bs := robust.NewBytes(data[3:])
		next := bs.Next
		x := bs.Grid(l, p)
		y := make([]float64, l)
		for i := range y {
			y[i] = 1
			if next()%2 == 0 {
				y[i] = -1
			}
		}
		var kk mat.SymDense
		kk.SymOuterK(1, x)
		s := &Settings{C: c}
		m, err := Train(context.Background(), &kk, y, s)
		if err != nil {
			return // one class, say: an input error
		}
		var sum, kmax float64
		for i, a := range m.Alpha {
			if a < 0 || a > c*(1+1e-12) || math.IsNaN(a) {
				t.Fatalf("alpha_%d = %v outside [0, %v]", i, a, c)
			}
			sum += y[i] * a
		}
		for i := 0; i < l; i++ {
			for j := 0; j < l; j++ {
				kmax = math.Max(kmax, math.Abs(kk.At(i, j)))
			}
		}
		if math.Abs(sum) > 1e-9*c*float64(l) {
			t.Fatalf("y^T alpha = %v", sum)
		}
		// ∇_i of ½ αᵀQα − Σα, Q = yyᵀ∘K
		g := make([]float64, l)
		dual := 0.0
		for i := 0; i < l; i++ {
			s := -1.0
			for j := 0; j < l; j++ {
				s += y[i] * y[j] * kk.At(i, j) * m.Alpha[j]
			}
			g[i] = s
			dual += m.Alpha[i] - 0.5*m.Alpha[i]*(s+1)
		}
		round := 1e3 * 2.2e-16 * float64(l) * kmax * c
		if math.Abs(dual-m.Dual) > 1e-9*(1+math.Abs(dual))+round*c*float64(l) {
			t.Errorf("dual objective %v reported, %v measured", m.Dual, dual)
		}
		if m.Stats.Status != linalg.Converged {
			return
		}
		tol := DefaultTol
		up, low := math.Inf(-1), math.Inf(1)
		for i, a := range m.Alpha {
			v := -y[i] * g[i]
			canUp := (y[i] > 0 && a < c) || (y[i] < 0 && a > 0)
			canDown := (y[i] > 0 && a > 0) || (y[i] < 0 && a < c)
			if canUp {
				up = math.Max(up, v)
			}
			if canDown {
				low = math.Min(low, v)
			}
		}
		if viol := up - low; viol > tol+round {
			t.Errorf("Converged with a KKT violation of %.3g measured (reported %.3g, Tol %g, C %g)", viol, m.Stats.Violation, tol, c)
		}
	})
}
