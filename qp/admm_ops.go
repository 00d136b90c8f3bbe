package qp

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// multipliers maps OSQP-signed y (Hx + g + Aᵀy = 0) to the package convention.
func (s *ADMM) multipliers(y, eq, in, lo, up []float64) {
	fill(eq, 0)
	fill(in, 0)
	fill(lo, 0)
	fill(up, 0)
	for i := 0; i < s.m; i++ {
		switch s.kind[i] {
		case 0:
			eq[s.ref[i]] = -y[i]
		case 1:
			in[s.ref[i]] = -y[i]
		case 2:
			if y[i] < 0 {
				lo[s.ref[i]] = -y[i]
			} else {
				up[s.ref[i]] = y[i]
			}
		}
	}
}

func (s *ADMM) mulA(x, dst []float64) {
	if s.m == 0 {
		return
	}
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: s.m, Cols: s.n, Stride: s.n, Data: s.a}, blas64.Vector{N: s.n, Data: x, Inc: 1}, 0, blas64.Vector{N: s.m, Data: dst, Inc: 1})
}

func (s *ADMM) mulAT(y, dst []float64) {
	if s.m == 0 {
		fill(dst[:s.n], 0)
		return
	}
	blas64.Gemv(blas.Trans, 1, blas64.General{Rows: s.m, Cols: s.n, Stride: s.n, Data: s.a}, blas64.Vector{N: s.m, Data: y, Inc: 1}, 0, blas64.Vector{N: s.n, Data: dst, Inc: 1})
}

// factor forms H + σI + AᵀRA and its Cholesky factor.
func (s *ADMM) factor(p *Problem, sigma float64) bool {
	n, m := s.n, s.m
	k := s.kmat
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := 0.0
			if p.H != nil {
				v = p.H.At(i, j)
			}
			if i == j {
				v += sigma
			}
			k[i*n+j] = v
		}
	}
	for r := 0; r < m; r++ {
		row := s.a[r*n : r*n+n]
		rh := s.rho[r]
		for i, ai := range row {
			if ai == 0 {
				continue
			}
			for j := i; j < n; j++ {
				k[i*n+j] += rh * ai * row[j]
			}
		}
	}
	return cholUpper(k, n)
}

// primalInfeasible tests the certificate Aᵀδy ≈ 0, uᵀδy⁺ + lᵀδy⁻ < 0.
func (s *ADMM) primalInfeasible(eps float64) bool {
	dn := 0.0
	for _, v := range s.dy {
		dn = math.Max(dn, math.Abs(v))
	}
	if dn == 0 {
		return false
	}
	s.mulAT(s.dy, s.atyb)
	for _, v := range s.atyb[:s.n] {
		if math.Abs(v) > eps*dn {
			return false
		}
	}
	sum := 0.0
	for i, v := range s.dy {
		if v > 0 {
			if math.IsInf(s.up[i], 1) {
				return false
			}
			sum += s.up[i] * v
		} else if v < 0 {
			if math.IsInf(s.lo[i], -1) {
				return false
			}
			sum += s.lo[i] * v
		}
	}
	return sum < -eps*dn
}

// dualInfeasible tests the certificate Hδx ≈ 0, gᵀδx < 0, Aδx in the recession cone.
func (s *ADMM) dualInfeasible(p *Problem, eps float64) bool {
	n := s.n
	dn := 0.0
	for _, v := range s.dx {
		dn = math.Max(dn, math.Abs(v))
	}
	if dn == 0 {
		return false
	}
	if dot(p.G, s.dx) >= -eps*dn {
		return false
	}
	if p.H != nil {
		blas64.Symv(1, p.H.RawSymmetric(), blas64.Vector{N: n, Data: s.dx, Inc: 1}, 0, blas64.Vector{N: n, Data: s.tmp, Inc: 1})
		for _, v := range s.tmp[:n] {
			if math.Abs(v) > eps*dn {
				return false
			}
		}
	}
	s.mulA(s.dx, s.zt)
	for i := 0; i < s.m; i++ {
		v := s.zt[i]
		if !math.IsInf(s.up[i], 1) && v > eps*dn {
			return false
		}
		if !math.IsInf(s.lo[i], -1) && v < -eps*dn {
			return false
		}
	}
	return true
}
