package svm

import (
	"context"
	"fmt"
	"math"

	"ukm/linalg"
)

// tau replaces a non-positive curvature of a two-variable subproblem.
const tau = 1e-12

// solve runs SMO on the loaded kernel.
func (sv *Solver) solve(op string, ctx context.Context, m *Model, y []float64, s Settings, warm bool) error {
	l := len(y)
	C := s.C
	kk := sv.k
	if !warm || len(m.Alpha) != l {
		warm = false
	}
	m.Alpha = grow(m.Alpha, l)
	m.Y = grow(m.Y, l)
	copy(m.Y, y)
	alpha := m.Alpha
	if warm {
		repairStart(alpha, y, C)
	} else {
		for i := range alpha {
			alpha[i] = 0
		}
	}
	sv.g = grow(sv.g, l)
	g := sv.g
	sv.gradient(alpha, y)

	var st Stats
	var err error
	for {
		// Working-set selection (second order).
		gmax, gmin := math.Inf(-1), math.Inf(1)
		ii := -1
		for t := 0; t < l; t++ {
			v := -y[t] * g[t]
			if up(alpha[t], y[t], C) && v > gmax {
				gmax, ii = v, t
			}
			if low(alpha[t], y[t], C) && v < gmin {
				gmin = v
			}
		}
		if ii < 0 || gmax-gmin <= s.Tol {
			st.Status = linalg.Converged
			break
		}
		if st.Iterations >= s.MaxIter {
			st.Status = linalg.IterationLimit
			break
		}
		if st.Iterations%256 == 0 {
			if cerr := ctx.Err(); cerr != nil {
				st.Status = linalg.Canceled
				err = fmt.Errorf("%s: cancelled after %d iterations: %w", op, st.Iterations, cerr)
				break
			}
		}
		ki := kk[ii*l : ii*l+l]
		kii := ki[ii]
		jj := -1
		best := math.Inf(1)
		var bj, aj float64
		for t := 0; t < l; t++ {
			if !low(alpha[t], y[t], C) {
				continue
			}
			v := -y[t] * g[t]
			b := gmax - v
			if b <= 0 {
				continue
			}
			a := kii + sv.diag[t] - 2*ki[t]
			if a <= 0 {
				a = tau
			}
			if sc := -b * b / a; sc < best {
				best, jj, bj, aj = sc, t, b, a
			}
		}
		if jj < 0 {
			// Cannot happen when gmax - gmin > Tol >= 0; guard anyway.
			st.Status = linalg.Converged
			break
		}
		// Move alpha_i by +y_i t and alpha_j by -y_j t, t in (0, bound].
		step := bj / aj
		var limI, limJ float64
		if y[ii] > 0 {
			limI = C - alpha[ii]
		} else {
			limI = alpha[ii]
		}
		if y[jj] > 0 {
			limJ = alpha[jj]
		} else {
			limJ = C - alpha[jj]
		}
		hitI, hitJ := false, false
		if limI <= step {
			step, hitI = limI, true
		}
		if limJ <= step {
			hitI = hitI && limJ == step
			step, hitJ = limJ, true
		}
		alpha[ii] += y[ii] * step
		alpha[jj] -= y[jj] * step
		// Put variables that reached a bound exactly onto it.
		if hitI {
			alpha[ii] = 0
			if y[ii] > 0 {
				alpha[ii] = C
			}
		}
		if hitJ {
			alpha[jj] = C
			if y[jj] > 0 {
				alpha[jj] = 0
			}
		}
		kj := kk[jj*l : jj*l+l]
		for t := 0; t < l; t++ {
			g[t] += y[t] * step * (ki[t] - kj[t])
		}
		st.Iterations++
	}
	// Recompute the gradient from scratch for the bias, the dual value and
	// the reported violation.
	sv.gradient(alpha, y)
	gmax, gmin := math.Inf(-1), math.Inf(1)
	var sumFree float64
	var dual float64
	for t := 0; t < l; t++ {
		v := -y[t] * g[t]
		if up(alpha[t], y[t], C) {
			gmax = math.Max(gmax, v)
		}
		if low(alpha[t], y[t], C) {
			gmin = math.Min(gmin, v)
		}
		if alpha[t] > 0 && alpha[t] < C {
			st.FreeSV++
			sumFree += v
		} else if alpha[t] == C {
			st.BoundSV++
		}
		dual += alpha[t] * (1 - g[t])
	}
	st.Violation = math.Max(gmax-gmin, 0)
	if math.IsInf(st.Violation, 0) {
		st.Violation = 0
	}
	switch {
	case st.FreeSV > 0:
		m.Bias = sumFree / float64(st.FreeSV)
	case math.IsInf(gmax, 0) && math.IsInf(gmin, 0):
		m.Bias = 0
	case math.IsInf(gmax, 0):
		m.Bias = gmin
	case math.IsInf(gmin, 0):
		m.Bias = gmax
	default:
		m.Bias = (gmax + gmin) / 2
	}
	m.Dual = dual / 2
	m.C = C
	m.Stats = st
	return err
}

// up reports whether alpha_t may increase along y_t (t in I_up).
func up(a, y, c float64) bool { return (y > 0 && a < c) || (y < 0 && a > 0) }

// low reports whether alpha_t may decrease along y_t (t in I_low).
func low(a, y, c float64) bool { return (y > 0 && a > 0) || (y < 0 && a < c) }

// gradient sets sv.g = Q alpha - 1 with Q_ij = y_i y_j K_ij.
func (sv *Solver) gradient(alpha, y []float64) {
	l := len(y)
	g := sv.g
	for i := range g {
		g[i] = -1
	}
	for j, a := range alpha {
		if a == 0 {
			continue
		}
		c := a * y[j]
		kj := sv.k[j*l : j*l+l]
		for i := range g {
			g[i] += y[i] * c * kj[i]
		}
	}
}

// repairStart clips alpha to [0, c] and restores sum y alpha = 0 by scaling
// down the alphas of the class with the larger sum.
func repairStart(alpha, y []float64, c float64) {
	var pos, neg float64
	for i, a := range alpha {
		if !(a > 0) { // also maps NaN to 0
			a = 0
		}
		a = math.Min(a, c)
		alpha[i] = a
		if y[i] > 0 {
			pos += a
		} else {
			neg += a
		}
	}
	if pos == neg {
		return
	}
	if pos > neg {
		f := neg / pos
		for i := range alpha {
			if y[i] > 0 {
				alpha[i] *= f
			}
		}
	} else {
		f := pos / neg
		for i := range alpha {
			if y[i] < 0 {
				alpha[i] *= f
			}
		}
	}
}
