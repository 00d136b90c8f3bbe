package qp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas/blas64"

	"ukm/linalg"
)

// unfree removes variable j from the free set, keeping the order of the
// others.
func (b *Bounded) unfree(j int) {
	for pos, fj := range b.free {
		if fj == j {
			copy(b.free[pos:], b.free[pos+1:])
			b.free = b.free[:len(b.free)-1]
			return
		}
	}
}

func (b *Bounded) run(ctx context.Context, maxIter int, res *Result) (linalg.Status, error) {
	p, n, k := b.p, b.n, b.k
	x, g, pv := b.x, b.g, b.p_
	// g = Hx + G (the gradient)
	if p.H != nil {
		blas64.Symv(1, p.H.RawSymmetric(), blas64.Vector{N: n, Data: x, Inc: 1}, 0, blas64.Vector{N: n, Data: g, Inc: 1})
	} else {
		fill(g, 0)
	}
	for j := range g {
		g[j] += p.G[j]
	}
	atMin := false
	zeroSteps := 0
	gmax := 1.0
	for {
		if res.Iterations&15 == 0 {
			if err := ctx.Err(); err != nil {
				return linalg.NotRun, err
			}
		}
		if res.Iterations >= maxIter {
			return linalg.IterationLimit, nil
		}
		res.Iterations++
		b.reduce()
		if atMin {
			b.duals()
			// scale of the gradient terms before cancellation: max(1, ‖G‖∞, ‖H‖max·‖x‖₁)
			gmax = 1
			xs := 0.0
			for j := range g {
				gmax = fmax(gmax, math.Abs(p.G[j]))
				xs += math.Abs(x[j])
			}
			gmax = fmax(gmax, b.hnorm*xs)
			tolL := 1e-12 * gmax
			best, bj := 0.0, -1
			bland := zeroSteps > 5
			for j := 0; j < n; j++ {
				st := b.state[j]
				if st == stFree {
					continue
				}
				zj := g[j]
				for r := 0; r < k; r++ {
					zj -= p.Aeq.At(r, j) * b.y[r]
				}
				var v float64
				switch st {
				case stTemp:
					if math.Abs(zj) > 10*tolL {
						v = -math.Inf(1) // temporaries first
						if bj >= 0 && b.state[bj] == stTemp && math.Abs(zj) <= best {
							continue
						}
						best = math.Abs(zj)
						bj = j
						continue
					}
					continue
				case stLower:
					v = zj
				case stUpper:
					v = -zj
				}
				if bj >= 0 && b.state[bj] == stTemp {
					continue
				}
				if v < -tolL && (bj < 0 || (!bland && v < best)) {
					best, bj = v, j
				}
			}
			if bj < 0 {
				return linalg.Optimal, nil
			}
			b.state[bj] = stFree
			b.free = append(b.free, bj)
			atMin = false
			continue
		}
		nz := len(b.nonb)
		if nz == 0 {
			atMin = true
			continue
		}
		piv := b.factor()
		gz := b.gz[:nz]
		for t, ct := range b.nonb {
			s := g[b.free[ct]]
			for q := 0; q < b.rank; q++ {
				s -= b.cm[q*n+t] * g[b.free[b.basic[q]]]
			}
			gz[t] = s
		}
		sv := b.sv[:nz]
		newton := piv < 0
		if piv >= 0 {
			if piv != nz-1 {
				return linalg.NumericalFailure, nil
			}
			// zero-curvature direction: w = [-R11⁻¹ r; 1]
			kk := nz - 1
			sv[kk] = 1
			for i := kk - 1; i >= 0; i-- {
				s := -b.mz[i*n+kk]
				for t := i + 1; t < kk; t++ {
					s -= b.mz[i*n+t] * sv[t]
				}
				sv[i] = s / b.mz[i*n+i]
			}
			gp, smax := 0.0, 0.0
			for t := range sv {
				gp += gz[t] * sv[t]
				smax = fmax(smax, math.Abs(sv[t]))
			}
			if gp > 0 {
				for t := range sv {
					sv[t] = -sv[t]
				}
			}
			if math.Abs(gp) <= 1e-12*gmax*smax {
				// flat direction: hold the newest free variable by a temporary bound
				j := b.free[b.nonb[nz-1]]
				b.state[j] = stTemp
				b.unfree(j)
				atMin = false
				continue
			}
		} else {
			for t := 0; t < nz; t++ {
				s := -gz[t]
				for q := 0; q < t; q++ {
					s -= b.mz[q*n+t] * sv[q]
				}
				sv[t] = s / b.mz[t*n+t]
			}
			for t := nz - 1; t >= 0; t-- {
				s := sv[t]
				for q := t + 1; q < nz; q++ {
					s -= b.mz[t*n+q] * sv[q]
				}
				sv[t] = s / b.mz[t*n+t]
			}
		}
		b.expand(sv, pv)
		alpha := math.Inf(1)
		if newton {
			alpha = 1
		} else if p.H != nil {
			curv, gp, pp := 0.0, 0.0, 0.0
			for _, i := range b.free {
				gp += g[i] * pv[i]
				pp += pv[i] * pv[i]
				for _, j := range b.free {
					curv += pv[i] * b.h(i, j) * pv[j]
				}
			}
			// only rounding-level curvature counts as zero
			if curv > 1e-14*b.hnorm*pp {
				alpha = -gp / curv
			}
		}
		block := -1
		var bst int8
		for _, j := range b.free {
			pj := pv[j]
			if pj < 0 {
				if l := p.lo(j); !math.IsInf(l, -1) {
					if t := math.Max(0, x[j]-l) / -pj; t < alpha {
						alpha, block, bst = t, j, stLower
					}
				}
			} else if pj > 0 {
				if u := p.up(j); !math.IsInf(u, 1) {
					if t := math.Max(0, u-x[j]) / pj; t < alpha {
						alpha, block, bst = t, j, stUpper
					}
				}
			}
		}
		if math.IsInf(alpha, 1) {
			return linalg.Unbounded, nil
		}
		if alpha == 0 {
			zeroSteps++
		} else {
			zeroSteps = 0
		}
		for _, j := range b.free {
			if pj := pv[j]; pj != 0 {
				x[j] += alpha * pj
				if p.H != nil {
					raw := p.H.RawSymmetric()
					for i := 0; i < n; i++ {
						hij := raw.Data[i*raw.Stride+j]
						if i > j {
							hij = raw.Data[j*raw.Stride+i]
						}
						g[i] += alpha * pj * hij
					}
				}
			}
		}
		if block >= 0 {
			if bst == stLower {
				x[block] = p.lo(block)
			} else {
				x[block] = p.up(block)
			}
			b.state[block] = bst
			b.unfree(block)
			atMin = false
		} else {
			atMin = newton
		}
	}
}
