package mm

import (
	"math"

	"ukm/models/svm"
)

// addTerms adds to p the terms of problem pi, whose SVM solution on the
// kernel of p.mu is m (labels y): its dual value to J, 2 sum(alpha) to the
// lower bound (which eval completes by subtracting the largest ray term),
// its ray terms a_k = alpha^T D(y) K_k D(y) alpha to p.a, and its primal
// value ||w||² + 2C sum xi to the upper bound. Both bounds hold for any
// feasible alpha, so they certify the gap whether or not the inner solve
// met its tolerance.
func (lr *Learner) addTerms(p *point, pi int, m *svm.Model, y []float64) {
	q := lr.q
	// z = Vl^T beta, beta = alpha∘y.
	z := p.z[pi*q : (pi+1)*q]
	coef := lr.coef[pi*q : (pi+1)*q]
	clear(z)
	var sumA float64
	raw := lr.vl.RawMatrix()
	for j, a := range m.Alpha {
		sumA += a
		if a == 0 {
			continue
		}
		beta := a * y[j]
		row := raw.Data[j*raw.Stride : j*raw.Stride+q]
		for i, v := range row {
			z[i] += beta * v
		}
	}
	var quad float64
	for i, zi := range z {
		quad += p.mu[i] * zi * zi
		coef[i] = p.mu[i] * zi
	}
	p.j += 2*sumA - quad
	p.lower += 2 * sumA
	for k := 0; k < q; k++ {
		row := lr.c[k*q : k*q+k+1]
		var a float64
		for i, c := range row {
			a += c * z[i] * z[i]
		}
		p.a[k] += a
	}
	// Primal value ||w||² + 2C sum xi with f = Vl coef + b.
	var xi float64
	for j := range m.Alpha {
		row := raw.Data[j*raw.Stride : j*raw.Stride+q]
		f := m.Bias
		for i, v := range row {
			f += v * coef[i]
		}
		xi += math.Max(0, 1-y[j]*f)
	}
	p.upper += quad + 2*lr.s.C*xi
}

// relGap returns the relative duality gap (upper - lower) / upper.
func relGap(upper, lower float64) float64 {
	return (upper - lower) / math.Max(upper, math.SmallestNonzeroFloat64)
}
