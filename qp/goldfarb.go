package qp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"ukm/linalg"
)

var _ Solver = (*GoldfarbIdnani)(nil)

// GoldfarbIdnani is the dual active-set method of Goldfarb and Idnani (Math.
// Programming 27, 1983) for strictly convex QPs: H must be positive definite.
//
// It starts at the unconstrained minimiser x = −H⁻¹g, which is dual feasible,
// and adds violated constraints one at a time (equalities first, then the most
// violated inequality or bound relative to its row norm), dropping active
// inequalities whose multipliers would turn negative, until the iterate is
// primal feasible. With H = LLᵀ and the active normals N = L·Q·[R; 0], it keeps
// J = L⁻ᵀQ and the triangular R, updated by Givens rotations in O(n²) per
// change. A violated constraint that cannot be added (its normal depends on the
// active ones and no active multiplier can absorb it: the dual is unbounded)
// proves the problem Infeasible, but only through a certificate: the weights
// 1 on it and −r on the active constraints (its representation in them,
// refined against the rows) must make a Farkas certificate that verifies at
// Settings.Tol (see Farkas). Dependence is judged by a relative tolerance
// (1e-10), so a nearly dependent constraint can look dependent. One violated
// by less than Tol (relative) is accepted as satisfied until x moves: adding
// it would take a dual step, or a multiplier, of the order of the inverse of
// its independence, and no certificate can have a gap above Tol. For a larger
// violation without a verified certificate the constraint is added as
// independent after all; without a certificate the outcome is never
// Infeasible (NumericalFailure if nothing else can be done). A problem
// whose rows and columns differ in scale by orders of magnitude is solved in
// equilibrated variables, as in ActiveSet.
//
// The iterates are not primal feasible before the end, so on IterationLimit X
// is NaN, as for Infeasible. Start is ignored (a dual method cannot start from
// a primal point). If H is nil, its Cholesky factorisation fails, or one of its
// pivots is below n·ε·max_i H_ii, Solve returns an error wrapping
// linalg.ErrNotPSD: the method needs a positive definite H (use ActiveSet for
// semidefinite ones; the pivot test applies to the equilibrated H when the
// problem is scaled). Unbounded cannot occur.
//
// The factorisation costs O(n³) and each iteration O(n²) plus O(n·rows) to
// find the most violated constraint. A GoldfarbIdnani holds its workspace and
// re-solves problems of the same size without allocating. It is not safe for
// concurrent use.
type GoldfarbIdnani struct {
	Settings Settings

	p           *Problem
	n, meq, min int
	nrow        int
	j, r        []float64 // n×n row-major: Jᵀ (row k is column k of J) and R (column k is active constraint k)
	x, d, z, rv []float64
	u           []float64 // multipliers of the active constraints
	act         []int     // active ids
	sgn         []float64 // ±1: equalities may enter with their sign flipped
	inA         []bool    // by id
	rn          []float64 // row norms of the general rows
	kktR, kktS  []float64 // residual scratch
	hx          []float64
	iter        int
	scale       scaling // equilibration of badly scaled problems
	tolerated   []bool  // by id: violated within Tol, dependent, no certificate (see run)
	ntol        int
}

// clearTolerated forgets the constraints accepted as violated within the
// tolerance: once x moves (a constraint is added, dropped or x refined) they
// are checked again.
func (g *GoldfarbIdnani) clearTolerated() {
	if g.ntol == 0 {
		return
	}
	for i := range g.tolerated {
		g.tolerated[i] = false
	}
	g.ntol = 0
}

// NewGoldfarbIdnani returns a Goldfarb–Idnani solver with the given settings
// (nil = defaults). Settings.PSDTol and SkipPSDCheck are not used: positive
// definiteness is decided by the Cholesky factorisation itself.
func NewGoldfarbIdnani(s *Settings) *GoldfarbIdnani {
	g := &GoldfarbIdnani{}
	if s != nil {
		g.Settings = *s
	}
	return g
}

func (g *GoldfarbIdnani) alloc(n, meq, min int) {
	g.n, g.meq, g.min, g.nrow = n, meq, min, meq+min
	g.j = grow(g.j, n*n)
	g.r = grow(g.r, n*n)
	g.x, g.d, g.z, g.rv = grow(g.x, n), grow(g.d, n), grow(g.z, n), grow(g.rv, n)
	g.u = grow(g.u, n+1)
	g.act = growInt(g.act, n)
	g.sgn = grow(g.sgn, n)
	nid := meq + min + 2*n
	if cap(g.inA) < nid {
		g.inA = make([]bool, nid)
	}
	g.inA = g.inA[:nid]
	if cap(g.tolerated) < nid {
		g.tolerated = make([]bool, nid)
	}
	g.tolerated = g.tolerated[:nid]
	g.ntol = 1
	g.clearTolerated()
	g.rn = grow(g.rn, meq+min)
	g.kktR, g.kktS, g.hx = grow(g.kktR, n), grow(g.kktS, n), grow(g.hx, n)
}

// normal returns n_idᵀv for the constraint id in ">=" form (bounds: ±v_j).
func (g *GoldfarbIdnani) normal(id int, v []float64) float64 {
	switch {
	case id < g.meq:
		return dot(g.p.Aeq.RawRowView(id), v)
	case id < g.nrow:
		return dot(g.p.Ain.RawRowView(id-g.meq), v)
	case id < g.nrow+g.n:
		return v[id-g.nrow]
	default:
		return -v[id-g.nrow-g.n]
	}
}

// rhs returns b_id in ">=" form (−Inf for an absent bound).
func (g *GoldfarbIdnani) rhs(id int) float64 {
	switch {
	case id < g.meq:
		return g.p.Beq[id]
	case id < g.nrow:
		return g.p.Bin[id-g.meq]
	case id < g.nrow+g.n:
		return g.p.lo(id - g.nrow)
	default:
		return -g.p.up(id - g.nrow - g.n)
	}
}

func (g *GoldfarbIdnani) rownorm(id int) float64 {
	if id < g.nrow {
		return g.rn[id]
	}
	return 1
}

// jtn sets d = Jᵀ(sg·n_id).
func (g *GoldfarbIdnani) jtn(id int, sg float64) {
	n := g.n
	d := g.d[:n]
	if id >= g.nrow {
		row, s := id-g.nrow, sg
		if row >= n {
			row, s = row-n, -sg
		}
		for k := range d {
			d[k] = s * g.j[k*n+row]
		}
		return
	}
	var a []float64
	if id < g.meq {
		a = g.p.Aeq.RawRowView(id)
	} else {
		a = g.p.Ain.RawRowView(id - g.meq)
	}
	blas64.Gemv(blas.NoTrans, sg, blas64.General{Rows: n, Cols: n, Stride: n, Data: g.j}, blas64.Vector{N: n, Data: a, Inc: 1}, 0, blas64.Vector{N: n, Data: d, Inc: 1})
}

// jtv sets d = Jᵀv.
func (g *GoldfarbIdnani) jtv(v []float64) {
	n := g.n
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: n, Cols: n, Stride: n, Data: g.j}, blas64.Vector{N: n, Data: v, Inc: 1}, 0, blas64.Vector{N: n, Data: g.d[:n], Inc: 1})
}

// factor forms J = R⁻¹ from the Cholesky factor H = RᵀR (so J = L⁻ᵀ with L = Rᵀ)
// and reports the first failing pivot, or -1.
func (g *GoldfarbIdnani) factor() int {
	n := g.n
	raw := g.p.H.RawSymmetric()
	a := g.r[:n*n]
	dmax := 0.0
	for i := 0; i < n; i++ {
		for k := i; k < n; k++ {
			v := raw.Data[i*raw.Stride+k]
			a[i*n+k], a[k*n+i] = v, v
		}
		dmax = fmax(dmax, raw.Data[i*raw.Stride+i])
	}
	if !cholUpper(a, n) {
		for k := 0; k < n; k++ {
			if !(a[k*n+k] > 0) {
				return k
			}
		}
		return 0
	}
	tol := float64(n) * 0x1p-52 * dmax
	for k := 0; k < n; k++ {
		if a[k*n+k]*a[k*n+k] <= tol {
			return k
		}
	}
	// J = R⁻¹ is upper triangular; its column k (row k of the stored Jᵀ)
	// solves R y = e_k by back substitution
	j := g.j[:n*n]
	fill(j, 0)
	for k := 0; k < n; k++ {
		y := j[k*n : k*n+k+1]
		y[k] = 1 / a[k*n+k]
		for i := k - 1; i >= 0; i-- {
			y[i] = -dot(a[i*n+i+1:i*n+k+1], y[i+1:k+1]) / a[i*n+i]
		}
	}
	return -1
}

// addActive appends constraint id (sign sg, multiplier u) using d = Jᵀ(sg·n_id):
// Givens rotations zero d[q+1:], rotating the columns of J, and d[:q+1] becomes
// column q of R.
func (g *GoldfarbIdnani) addActive(q, id int, sg, u float64) {
	n := g.n
	d, J := g.d, g.j
	for k := n - 1; k > q; k-- {
		if d[k] == 0 {
			continue
		}
		c, s, rr, _ := blas64.Rotg(d[k-1], d[k])
		d[k-1], d[k] = rr, 0
		rotRows(J[(k-1)*n:k*n], J[k*n:(k+1)*n], c, s)
	}
	for i := 0; i <= q; i++ {
		g.r[i*n+q] = d[i]
	}
	g.act[q], g.sgn[q], g.u[q] = id, sg, u
	g.inA[id] = true
	g.clearTolerated() // x has moved: check them again
}

// dropActive removes active constraint l of q and restores R to triangular
// form by Givens rotations of its rows, rotating the columns of J alike.
func (g *GoldfarbIdnani) dropActive(q, l int) {
	n := g.n
	R, J := g.r, g.j
	g.inA[g.act[l]] = false
	g.clearTolerated()
	for k := l; k < q-1; k++ {
		g.act[k], g.sgn[k], g.u[k] = g.act[k+1], g.sgn[k+1], g.u[k+1]
		for i := 0; i <= k+1; i++ {
			R[i*n+k] = R[i*n+k+1]
		}
	}
	for k := l; k < q-1; k++ {
		c, s, rr, _ := blas64.Rotg(R[k*n+k], R[(k+1)*n+k])
		R[k*n+k], R[(k+1)*n+k] = rr, 0
		for t := k + 1; t < q-1; t++ {
			a, b := R[k*n+t], R[(k+1)*n+t]
			R[k*n+t] = c*a + s*b
			R[(k+1)*n+t] = -s*a + c*b
		}
		rotRows(J[k*n:(k+1)*n], J[(k+1)*n:(k+2)*n], c, s)
	}
}

// gDepTol is the relative size ‖J₂ᵀn‖/‖Jᵀn‖ below which a normal is treated as
// a combination of the active ones (the primal step z is then zero). Rounding
// in J₂ grows with the conditioning of the active normals: 6e-12 was seen for
// four nearly parallel equality rows (a fuzz corpus entry), where 1e-12 took a
// dependent bound for independent and stepped 5e12 along the null space.
const gDepTol = 1e-10

// run iterates from the unconstrained minimiser; it returns the status and the
// number of active constraints.
func (g *GoldfarbIdnani) run(ctx context.Context, set Settings, res *Result) (linalg.Status, int, error) {
	n, meq := g.n, g.meq
	x, d, z, rv, J, R, u := g.x[:n], g.d[:n], g.z[:n], g.rv[:n], g.j, g.r, g.u
	// x = −J Jᵀ g
	jt := blas64.General{Rows: n, Cols: n, Stride: n, Data: J}
	blas64.Gemv(blas.NoTrans, 1, jt, blas64.Vector{N: n, Data: g.p.G, Inc: 1}, 0, blas64.Vector{N: n, Data: d, Inc: 1})
	blas64.Gemv(blas.Trans, -1, jt, blas64.Vector{N: n, Data: d, Inc: 1}, 0, blas64.Vector{N: n, Data: x, Inc: 1})
	g.iter = 0
	q := 0
	// A point is accepted as feasible when every violation is below
	// 1e-3·Tol relative to max(1, |b|, |aᵀx|) (1e-12 by default): far below
	// the tolerance of the KKT check, yet above rounding.
	ftol := 1e-3 * set.Tol
	nextEq := 0
	refined, justRefined := 0, false
	for {
		id, sg := -1, 1.0
		if nextEq < meq {
			id = nextEq
			nextEq++
			if g.normal(id, x) > g.rhs(id) {
				sg = -1
			}
		} else {
			worst := 0.0
			for k := meq; k < g.nrow+2*n; k++ {
				if g.inA[k] || g.tolerated[k] {
					continue
				}
				b := g.rhs(k)
				if math.IsInf(b, -1) {
					continue
				}
				ax := g.normal(k, x)
				s := ax - b
				if s >= -ftol*(1+fmax(math.Abs(b), math.Abs(ax))) {
					continue
				}
				if v := -s / g.rownorm(k); v > worst {
					worst, id = v, k
				}
			}
			if id < 0 {
				if refined < 2 && !justRefined {
					// recompute x and u from the final factors (see refine),
					// then look again for violated constraints
					g.refine(q)
					g.clearTolerated()
					refined++
					justRefined = true
					continue
				}
				return linalg.Optimal, q, nil
			}
			justRefined = false
		}
		uplus := 0.0
		force := false // take the constraint for independent (see below)
		for {
			if g.iter >= set.MaxIter {
				return linalg.IterationLimit, q, nil
			}
			if g.iter&15 == 0 {
				if err := ctx.Err(); err != nil {
					return linalg.NotRun, q, err
				}
			}
			g.iter++
			b := g.rhs(id)
			s := sg * (g.normal(id, x) - b)
			g.jtn(id, sg)
			zn, dn := 0.0, 0.0
			for k := 0; k < n; k++ {
				if k >= q {
					zn += d[k] * d[k]
				}
				dn += d[k] * d[k]
			}
			dependent := !force && zn <= gDepTol*gDepTol*dn
			if dependent && id < meq && math.Abs(s) <= set.Tol*(1+math.Abs(b)) {
				break // a redundant, consistent equality: nothing to add
			}
			if dependent && uplus == 0 && math.Abs(s) <= set.Tol*(1+fmax(math.Abs(b), math.Abs(g.normal(id, x)))) {
				// An inequality violated by less than the tolerance whose
				// normal depends on the active ones: adding it would take a
				// dual step of the size of the inverse of its independence
				// (a multiplier beyond any scale) or, with nothing to
				// release, a claim of infeasibility that no certificate
				// backs (its gap is below the tolerance). Accept it as
				// satisfied until x moves.
				g.tolerated[id] = true
				g.ntol++
				break
			}
			if !dependent {
				// z = J₂d₂
				blas64.Gemv(blas.Trans, 1, blas64.General{Rows: n - q, Cols: n, Stride: n, Data: J[q*n:]}, blas64.Vector{N: n - q, Data: d[q:], Inc: 1}, 0, blas64.Vector{N: n, Data: z, Inc: 1})
			}
			// r = R⁻¹ d₁
			for k := q - 1; k >= 0; k-- {
				v := d[k]
				for t := k + 1; t < q; t++ {
					v -= R[k*n+t] * rv[t]
				}
				rv[k] = v / R[k*n+k]
			}
			t1, l := math.Inf(1), -1
			for k := 0; k < q; k++ {
				if g.act[k] >= meq && rv[k] > 0 {
					if t := u[k] / rv[k]; t < t1 {
						t1, l = t, k
					}
				}
			}
			t2 := math.Inf(1)
			if !dependent {
				t2 = math.Max(0, -s/zn)
			}
			if math.IsInf(t1, 1) && math.IsInf(t2, 1) {
				// The violated constraint depends on the active equalities
				// and on inequalities that cannot be released: the dual is
				// unbounded and the problem infeasible, if the combination
				// is a certificate. If it is not (the normal depends on the
				// active ones only to the test's tolerance), the constraint
				// is taken for independent and added after all.
				if g.certificate(id, sg, q, set.Tol, res) {
					return linalg.Infeasible, q, nil
				}
				resetFarkas(res)
				if zn == 0 {
					return linalg.NumericalFailure, q, nil
				}
				force = true
				continue
			}
			t := math.Min(t1, t2)
			if !dependent {
				for i := 0; i < n; i++ {
					x[i] += t * z[i]
				}
			}
			for k := 0; k < q; k++ {
				u[k] -= t * rv[k]
			}
			uplus += t
			if t2 <= t1 {
				g.addActive(q, id, sg, uplus)
				q++
				break
			}
			u[l] = 0
			g.dropActive(q, l)
			q--
		}
	}
}

// refine recomputes x and the multipliers from the current factors as the
// solution of the equality-constrained problem on the active set:
// x = J₁R⁻ᵀb_A − J₂J₂ᵀg and u = R⁻¹J₁ᵀ(Hx + g). The iterates are updated by
// steps from the unconstrained minimiser, whose size grows like κ(H); this
// removes the rounding those steps accumulate.
func (g *GoldfarbIdnani) refine(q int) {
	n := g.n
	x, d, J, R, u := g.x[:n], g.d[:n], g.j, g.r, g.u
	for k := 0; k < q; k++ {
		s := g.sgn[k] * g.rhs(g.act[k])
		for t := 0; t < k; t++ {
			s -= R[t*n+k] * d[t]
		}
		d[k] = s / R[k*n+k]
	}
	jt := blas64.General{Rows: n, Cols: n, Stride: n, Data: J}
	if q < n {
		// d₂ = −J₂ᵀg
		blas64.Gemv(blas.NoTrans, -1, blas64.General{Rows: n - q, Cols: n, Stride: n, Data: J[q*n:]}, blas64.Vector{N: n, Data: g.p.G, Inc: 1}, 0, blas64.Vector{N: n - q, Data: d[q:], Inc: 1})
	}
	blas64.Gemv(blas.Trans, 1, jt, blas64.Vector{N: n, Data: d, Inc: 1}, 0, blas64.Vector{N: n, Data: x, Inc: 1})
	gr := g.hx[:n]
	blas64.Symv(1, g.p.H.RawSymmetric(), blas64.Vector{N: n, Data: x, Inc: 1}, 0, blas64.Vector{N: n, Data: gr, Inc: 1})
	for i, c := range g.p.G {
		gr[i] += c
	}
	// y = J₁ᵀ gr into d[:q], then u = R⁻¹y
	if q > 0 {
		blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: q, Cols: n, Stride: n, Data: J}, blas64.Vector{N: n, Data: gr, Inc: 1}, 0, blas64.Vector{N: q, Data: d[:q], Inc: 1})
	}
	for k := q - 1; k >= 0; k-- {
		s := d[k]
		for t := k + 1; t < q; t++ {
			s -= R[k*n+t] * u[t]
		}
		u[k] = s / R[k*n+k]
	}
}
