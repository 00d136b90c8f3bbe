package models

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"ukm/models/spectral"
)

// A repeated eigenvalue (the eigenvalue 1 of a kNN graph's normalised
// affinity, once per connected component) has an eigenspace, not
// eigenvectors: the solver returns some orthonormal basis of it, which one
// depending on its start vector. A design that weighs the basis vectors
// unequally (SKL's decay constraints, Cluster, Order) then learns a kernel
// that depends on the solver's seed, and so do the predictions. Before any
// design sees the basis, canonicalGroups replaces the basis of every such
// eigenspace by the one the labeled points single out.
//
// The points of a component without labeled points have features only in
// directions no labeled point touches; a classifier without an intercept
// scores them at rounding size. reachedPoints finds them from the graph's
// components and priorRows gives them the labels' prior.

// canonicalGroups replaces, in place, the columns of vecs within every run
// of eigenvalues vals that agree to within tol·max|vals| (the copies of one
// repeated eigenvalue), whose values it sets to the run's mean (a design
// that is a function of the eigenvalue then weighs them equally), by the
// basis of the same eigenspace that the labeled points single out: the
// first vector is the eigenspace's direction towards the labeled point
// with the most weight in it (the projection of that point's unit vector),
// the next the direction towards the point with the most weight left once
// that direction is removed, and so on (a Gram-Schmidt process pivoted on
// the weight, ties within a relative 1e-8 going to the lower row index);
// directions no labeled point touches come last. The projections and their
// weights do not depend on the basis the solver returned, so neither does
// the result, except within the directions no labeled point touches: a
// design's weights on those do not reach the classifier, which sees no
// labeled point there. It costs O(n g²) per run of g copies, and nothing
// without copies.
//
// An eigenspace cut by the number of pairs computed (its last copies not
// returned) keeps the solver's choice of copies.
func canonicalGroups(vals []float64, vecs *mat.Dense, labeled []int, tol float64) {
	canonicalRuns(vals, vecs, labeled, repeatedRuns(vals, tol))
}

// canonicalRuns is canonicalGroups on the runs repeatedRuns found.
func canonicalRuns(vals []float64, vecs *mat.Dense, labeled []int, runs [][2]int) {
	for _, run := range runs {
		lo, hi := run[0], run[1]
		var mean float64
		for _, v := range vals[lo:hi] {
			mean += v
		}
		mean /= float64(hi - lo)
		for i := lo; i < hi; i++ {
			vals[i] = mean
		}
		rotateGroup(vecs, lo, hi, labeled)
	}
}

// repeatedRuns returns the runs [lo, hi) of at least two eigenvalues vals
// that agree to within tol·max|vals| (see canonicalGroups).
func repeatedRuns(vals []float64, tol float64) [][2]int {
	var top float64
	for _, v := range vals {
		top = math.Max(top, math.Abs(v))
	}
	win := tol * top
	var runs [][2]int
	for lo := 0; lo < len(vals); {
		hi := lo + 1
		for hi < len(vals) && math.Abs(vals[hi]-vals[hi-1]) <= win {
			hi++
		}
		if hi-lo > 1 {
			runs = append(runs, [2]int{lo, hi})
		}
		lo = hi
	}
	return runs
}

// canonicalFor returns basis b, whose repeated eigenvalues are in the
// canonical basis of some labeled set, in that of labeled instead (see
// canonicalGroups): b itself when no eigenvalue is repeated, otherwise a
// copy. A basis kept for later fits (BasisCache, Loop) is turned this way
// for each labeled set, so that a fit does not depend on which labeled set
// computed the basis first. As canonicalGroups's result does not depend on
// the basis it starts from, the copy agrees with the basis a fresh
// computation for labeled would give, to rounding.
func canonicalFor(b *spectral.Basis, labeled []int, tol float64) *spectral.Basis {
	if b == nil {
		return b
	}
	runs := repeatedRuns(b.Values, tol)
	if len(runs) == 0 {
		return b
	}
	c := &spectral.Basis{Values: append([]float64(nil), b.Values...), V: mat.DenseCopyOf(b.V)}
	canonicalRuns(c.Values, c.V, labeled, runs)
	return c
}

// pivotTies is the relative difference of weights below which the pivoted
// Gram-Schmidt of rotateGroup takes two labeled points as tied (and the
// lower row index first): weights that are equal in exact arithmetic differ
// by rounding, which must not decide.
const pivotTies = 1e-8

// rotateGroup replaces columns lo:hi of vecs as canonicalGroups describes.
func rotateGroup(vecs *mat.Dense, lo, hi int, labeled []int) {
	n, _ := vecs.Dims()
	g := hi - lo
	group := vecs.Slice(0, n, lo, hi).(*mat.Dense)
	// rows[k]: labeled point k's coordinates in the group's basis (its
	// projection onto the eigenspace), reduced as directions are taken.
	order := append([]int(nil), labeled...)
	slices.Sort(order)
	rows := make([][]float64, len(order))
	var first float64
	for k, j := range order {
		rows[k] = append([]float64(nil), group.RawRowView(j)[:g]...)
		first = math.Max(first, floats.Norm(rows[k], 2))
	}
	rot := mat.NewDense(g, g, nil)
	taken := 0
	for ; taken < g; taken++ {
		best, at := 0.0, -1
		for k, r := range rows {
			w := floats.Norm(r, 2)
			if w > best*(1+pivotTies) {
				best, at = w, k
			}
		}
		if at < 0 || best <= pivotTies*first {
			break // no labeled weight left in the eigenspace
		}
		q := append([]float64(nil), rows[at]...)
		floats.Scale(1/best, q)
		rot.SetCol(taken, q)
		for _, r := range rows {
			floats.AddScaled(r, -floats.Dot(r, q), q)
		}
	}
	if taken < g {
		// Complete with an orthonormal basis of the rest (directions no
		// labeled point touches).
		completeOrthonormal(rot, taken)
	}
	var out mat.Dense
	out.Mul(group, rot)
	// The directions no labeled point touches are zero on the labeled
	// rows in exact arithmetic; rounding leaves about 1e-17 there, which a
	// design would see (SKL's QP has no other information on their
	// weights, and its solution, tied to the next eigenvalue's weight by
	// the decay constraint, would depend on that rounding).
	for c := taken; c < g; c++ {
		for _, j := range labeled {
			out.Set(j, c, 0)
		}
	}
	group.Copy(&out)
}

// completeOrthonormal fills columns k: of the g x g matrix q, whose first k
// columns are orthonormal, with an orthonormal basis of their complement:
// each new column is the unit vector with the largest part outside the
// columns so far, that part normalised (its squared norm is at least
// (g - k)/g, so the choice never fails).
func completeOrthonormal(q *mat.Dense, k int) {
	g, _ := q.Dims()
	col := make([]float64, g)
	best := make([]float64, g)
	for ; k < g; k++ {
		top := -1.0
		for e := 0; e < g; e++ {
			// The unit vector e minus its components along the columns
			// so far (twice, for orthogonality to working precision).
			clear(col)
			col[e] = 1
			for pass := 0; pass < 2; pass++ {
				for c := 0; c < k; c++ {
					qc := mat.Col(nil, c, q)
					floats.AddScaled(col, -floats.Dot(col, qc), qc)
				}
			}
			if nrm := floats.Norm(col, 2); nrm > top {
				top = nrm
				copy(best, col)
			}
		}
		floats.Scale(1/top, best)
		q.SetCol(k, best)
	}
}

// reachedPoints reports, for every training point, whether it shares a
// connected component of the kNN graph (comp: the component of every
// point) with one of the points from; nil without a graph. A point of a
// component holding none of them has every feature in eigenvectors
// supported on its component, which none of them touches: a classifier
// without an intercept gives it scores of rounding size, so its class
// would be decided by rounding (by the eigensolver's seed).
func reachedPoints(comp, from []int) []bool {
	if comp == nil {
		return nil
	}
	labeled := make([]bool, len(comp)) // component labels lie in [0, n)
	for _, j := range from {
		labeled[comp[j]] = true
	}
	reach := make([]bool, len(comp))
	for i, c := range comp {
		reach[i] = labeled[c]
	}
	return reach
}

// unreachedAt marks the points idx that reach (see reachedPoints) does not
// mark; nil when reach is nil or marks them all.
func unreachedAt(reach []bool, idx []int) []bool {
	if reach == nil {
		return nil
	}
	var out []bool
	for i, j := range idx {
		if !reach[j] {
			if out == nil {
				out = make([]bool, len(idx))
			}
			out[i] = true
		}
	}
	return out
}

// priorRows gives the rows marked unreached what the labels say without
// any point's features: the most frequent labeled class (the lowest on a
// tie) in pred, the labels' class shares in proba (either may be nil).
func priorRows(pred []int, proba *mat.Dense, unreached []bool, labels []int, classes int) {
	if unreached == nil {
		return
	}
	q := labelShares(labels, classes)
	top := 0
	for c, v := range q {
		if v > q[top] {
			top = c
		}
	}
	for i, u := range unreached {
		if !u {
			continue
		}
		if pred != nil {
			pred[i] = top
		}
		if proba != nil {
			proba.SetRow(i, q)
		}
	}
}
