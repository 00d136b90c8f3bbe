package qp

import "math"

// Constraint geometry. Ids: [0,meq) equalities, [meq,nrow) inequalities,
// nrow+j lower bound, nrow+N+j upper bound, nrow+2N+j temporary x_j = const.

func (a *ActiveSet) kind(id int) (k int, j int) {
	switch {
	case id < a.meq:
		return 0, id
	case id < a.nrow:
		return 1, id - a.meq
	case id < a.nrow+a.dim:
		return 2, id - a.nrow
	case id < a.nrow+2*a.dim:
		return 3, id - a.nrow - a.dim
	default:
		return 4, id - a.nrow - 2*a.dim
	}
}

// generalRow returns row j of the general constraints of kind k (0:
// equality, 1: inequality, as from kind) and its phase-1 column entry.
func (a *ActiveSet) generalRow(k, j int) (row []float64, sc float64) {
	if k == 0 {
		return a.p.Aeq.RawRowView(j), a.sEq[j]
	}
	return a.p.Ain.RawRowView(j), a.sIn[j]
}

// dot returns a_idᵀ v.
func (a *ActiveSet) dot(id int, v []float64) float64 {
	k, j := a.kind(id)
	switch k {
	case 0, 1:
		row, sc := a.generalRow(k, j)
		s := 0.0
		for i, r := range row {
			s += r * v[i]
		}
		if a.phase1 {
			s += sc * v[a.n]
		}
		return s
	case 3:
		return -v[j]
	default:
		return v[j]
	}
}

// rhs returns b_id.
func (a *ActiveSet) rhs(id int) float64 {
	k, j := a.kind(id)
	switch k {
	case 0:
		return a.p.Beq[j]
	case 1:
		return a.relax(a.p.Bin[j], k, j)
	case 2:
		if j == a.n {
			return 0
		}
		lo := a.p.lo(j)
		if a.box > 0 && math.IsInf(lo, -1) {
			lo = -a.box
		}
		return a.relax(lo, k, j)
	case 3:
		if j == a.n {
			return math.Inf(-1)
		}
		up := a.p.up(j)
		if a.box > 0 && math.IsInf(up, 1) {
			up = a.box
		}
		return a.relax(-up, k, j)
	default:
		return a.tempX[j]
	}
}

// Perturbation against degeneracy. At a point where many more constraints
// are active than the working set can hold (duplicated, redundant and
// ranged rows with l = u, zero multipliers), the method takes step after step
// of length zero, and Bland's rule, which prevents cycling, needs very many of
// them. When zero steps repeat, the right-hand sides of the inequalities and
// bounds are relaxed by distinct amounts δ_i = perturbEta·(1 + |b_i|)·(1 + u_i),
// u_i in [0, 1) a fixed hash of the constraint: the constraints active at the
// point separate, every step has a positive length and the objective
// decreases strictly. The relaxation keeps every feasible point feasible, so
// phase 1 never declares infeasibility because of it. When phase 2 finds the
// optimum of the perturbed problem the relaxation is removed and x is refined
// onto the original working set, which leaves any other constraint violated
// by at most 2·perturbEta relative, far below Settings.Tol.
const perturbEta = 1e-11

// relax returns the right-hand side b of constraint (k, j) in ">=" form,
// lowered by its perturbation when the perturbation is on.
func (a *ActiveSet) relax(b float64, k, j int) float64 {
	if !a.perturbed || math.IsInf(b, 0) {
		return b
	}
	h := uint64(k)<<32 ^ uint64(j)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	u := float64(h>>11) / (1 << 53)
	return b - perturbEta*(1+math.Abs(b))*(1+u)
}

// rownorm returns ‖a_id‖ (cached by setNorms).
func (a *ActiveSet) rownorm(id int) float64 {
	if id >= a.nrow {
		return 1
	}
	return a.rn[id]
}

// setNorms caches the norms of the general rows for the current phase.
func (a *ActiveSet) setNorms() {
	for id := 0; id < a.nrow; id++ {
		a.rn[id] = a.computeNorm(id)
	}
}

func (a *ActiveSet) computeNorm(id int) float64 {
	k, j := a.kind(id)
	row, sc := a.generalRow(k, j)
	s := 0.0
	for _, r := range row {
		s += r * r
	}
	if a.phase1 {
		s += sc * sc
	}
	return math.Sqrt(s)
}

// activeBounds returns (in a.work scratch-free storage) the ids of bounds active at x
// in the current N.
func (a *ActiveSet) activeBounds(x []float64) []int {
	ids := a.tmpIDs()
	for j := 0; j < a.n; j++ {
		if x[j] == a.p.lo(j) {
			ids = append(ids, a.nrow+j)
		} else if x[j] == a.p.up(j) {
			ids = append(ids, a.nrow+a.dim+j)
		}
	}
	return ids
}

func (a *ActiveSet) activeAll(x []float64, tol float64) []int {
	ids := a.tmpIDs()
	for id := a.meq; id < a.nrow+2*a.dim; id++ {
		b := a.rhs(id)
		if math.IsInf(b, -1) {
			continue
		}
		if a.dot(id, x)-b <= tol {
			ids = append(ids, id)
		}
	}
	return ids
}
