package eigtest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/linalg"
)

// Problem is a generated sparse symmetric test matrix with what is known
// of its spectrum. The generators below build the failure classes of
// Krylov eigensolvers at sizes a benchmark can use; the same seed gives
// the same matrix, bit for bit.
type Problem struct {
	// Name says the family and its parameters, as key=value pairs.
	Name string
	// A is the matrix, exactly symmetric.
	A *linalg.CSR
	// Values is the whole spectrum in ascending order when the
	// construction gives it (the repeated families), else nil.
	Values []float64
	// Mult is the multiplicity of the smallest eigenvalue in the repeated
	// families (0 otherwise).
	Mult int
	// Cond is the condition number λmax/λmin of the positive definite
	// families (0 otherwise).
	Cond float64
}

// RepeatedDiagonal returns the diagonal matrix of order n whose smallest
// eigenvalue, 0, has multiplicity exactly mult, followed by 1, 2, ...,
// n - mult: the gap from the repeated value to the rest is a 1/(n - mult)
// of the spread, so that a single-vector Krylov space needs many steps to
// find a missed copy. (Negate A for the copies at the top.) It panics
// unless 1 <= mult < n.
func RepeatedDiagonal(n, mult int) Problem {
	if mult < 1 || mult >= n {
		panic("eigtest: RepeatedDiagonal needs 1 <= mult < n")
	}
	return diagonal(fmt.Sprintf("repeated-diagonal/n=%d/mult=%d", n, mult), n, mult,
		func(k int) float64 { return float64(k + 1) })
}

// diagonal returns the diagonal Problem of order n whose first mult values
// are 0 and the others next(0), next(1), ... (ascending).
func diagonal(name string, n, mult int, next func(k int) float64) Problem {
	vals := make([]float64, n)
	ts := make([]linalg.Triplet, n)
	for i := range vals {
		if i >= mult {
			vals[i] = next(i - mult)
		}
		ts[i] = linalg.Triplet{I: i, J: i, V: vals[i]}
	}
	return Problem{Name: name, A: mustCSR(n, ts), Values: vals, Mult: mult}
}

// RepeatedGap returns the diagonal matrix of order n whose smallest
// eigenvalue, 0, has multiplicity exactly mult, followed by the n - mult
// values gap + 10 k / n, k = 0, 1, ...: a missed copy is separated from the
// rest by gap, a small fraction of the spread, so that the Ritz value a
// multiplicity check watches settles slowly and a premature verdict lets
// the copy slip. It panics unless 1 <= mult < n and gap > 0.
func RepeatedGap(n, mult int, gap float64) Problem {
	if mult < 1 || mult >= n || !(gap > 0) {
		panic("eigtest: RepeatedGap needs 1 <= mult < n and gap > 0")
	}
	return diagonal(fmt.Sprintf("repeated-gap/n=%d/mult=%d/gap=%g", n, mult, gap), n, mult,
		func(k int) float64 { return gap + 10*float64(k)/float64(n) })
}

// RepeatedBlocks returns a block diagonal matrix of order n, blocks of 2 to
// 7 rows, each Q diag(λ) Qᵀ with a random orthogonal Q, whose smallest
// eigenvalue, 0, has multiplicity exactly mult: one copy in each of mult
// blocks, so that no copy lies along a coordinate axis. The other values
// are uniform in [1, 2]. It panics unless 1 <= mult <= n/8.
func RepeatedBlocks(n, mult int, seed uint64) Problem {
	if mult < 1 || mult > n/8 {
		panic("eigtest: RepeatedBlocks needs 1 <= mult <= n/8")
	}
	rng := rand.New(rand.NewPCG(seed, 0xb10c))
	var ts []linalg.Triplet
	var vals []float64
	copies := 0
	for lo := 0; lo < n; {
		sz := min(2+rng.IntN(6), n-lo)
		bv := make([]float64, sz)
		for i := range bv {
			bv[i] = 1 + rng.Float64()
		}
		// A copy in about half the blocks, every copy placed before the
		// last rows run out.
		if copies < mult && (rng.IntN(2) == 0 || n-lo <= 7*(mult-copies)+7) {
			bv[rng.IntN(sz)] = 0
			copies++
		}
		vals = append(vals, bv...)
		q := randOrtho(sz, rng.Uint64())
		for i := 0; i < sz; i++ {
			for j := i; j < sz; j++ {
				var s float64
				for k := 0; k < sz; k++ {
					s += q.At(i, k) * bv[k] * q.At(j, k)
				}
				ts = append(ts, linalg.Triplet{I: lo + i, J: lo + j, V: s})
				if j != i {
					ts = append(ts, linalg.Triplet{I: lo + j, J: lo + i, V: s})
				}
			}
		}
		lo += sz
	}
	if copies != mult {
		panic(fmt.Sprintf("eigtest: RepeatedBlocks placed %d copies, want %d", copies, mult))
	}
	slices.Sort(vals)
	return Problem{Name: fmt.Sprintf("repeated-blocks/n=%d/mult=%d/seed=%d", n, mult, seed), A: mustCSR(n, ts), Values: vals, Mult: mult}
}

// GridStiffness returns the stiffness-like matrix L + δ I of order nx ny:
// L is the five-point Laplacian of an nx x ny grid whose edge conductances
// are log-uniform in [1/contrast, 1] (a diffusion problem with rough
// coefficients), and δ = λmax(L)/(cond - 1), so that the condition number
// of the result is cond (to the accuracy of λmax, found with eig.TopD).
// Its bottom eigenvalues are close together relative to the spread: the
// Krylov solvers on A stop at their iteration limit there. It returns an
// error only if the eigensolver does (it should not).
func GridStiffness(nx, ny int, contrast, cond float64, seed uint64) (Problem, error) {
	rng := rand.New(rand.NewPCG(seed, 0x571f))
	n := nx * ny
	var edges [][3]float64
	for y := 0; y < ny; y++ {
		for x := 0; x < nx; x++ {
			i := y*nx + x
			if x+1 < nx {
				edges = append(edges, [3]float64{float64(i), float64(i + 1), math.Pow(contrast, -rng.Float64())})
			}
			if y+1 < ny {
				edges = append(edges, [3]float64{float64(i), float64(i + nx), math.Pow(contrast, -rng.Float64())})
			}
		}
	}
	name := fmt.Sprintf("grid-stiffness/n=%d/contrast=%g/cond=%g/seed=%d", n, contrast, cond, seed)
	return shiftedLaplacian(name, n, edges, cond)
}

// ClusteredLaplacian returns L + δ I of order n for the Laplacian L of a
// graph of `clusters` groups of nodes, each node joined to three random
// others of its group with unit weights, the groups chained by single
// edges of weight bridge: L has clusters eigenvalues of order bridge
// below a gap (a graph Laplacian with tiny gaps), and δ = λmax(L)/(cond -
// 1) sets the condition number to cond. It panics unless every group has
// at least 8 nodes.
func ClusteredLaplacian(n, clusters int, bridge, cond float64, seed uint64) (Problem, error) {
	if clusters < 1 || n/clusters < 8 {
		panic("eigtest: ClusteredLaplacian needs groups of at least 8 nodes")
	}
	rng := rand.New(rand.NewPCG(seed, 0xc1a5))
	var edges [][3]float64
	seen := map[[2]int]bool{}
	for c := 0; c < clusters; c++ {
		lo, hi := c*n/clusters, (c+1)*n/clusters
		for i := lo; i < hi; i++ {
			if i+1 < hi { // a path keeps the group connected
				edges = append(edges, [3]float64{float64(i), float64(i + 1), 1})
				seen[[2]int{i, i + 1}] = true
			}
			for k := 0; k < 3; k++ {
				j := lo + rng.IntN(hi-lo)
				u, v := min(i, j), max(i, j)
				if u == v || seen[[2]int{u, v}] {
					continue
				}
				seen[[2]int{u, v}] = true
				edges = append(edges, [3]float64{float64(u), float64(v), 1})
			}
		}
		if c > 0 {
			edges = append(edges, [3]float64{float64(lo - 1), float64(lo), bridge})
		}
	}
	name := fmt.Sprintf("clustered-laplacian/n=%d/clusters=%d/bridge=%g/cond=%g/seed=%d", n, clusters, bridge, cond, seed)
	return shiftedLaplacian(name, n, edges, cond)
}

// shiftedLaplacian returns L + δ I for the weighted edges (i, j, w), with
// δ = λmax(L)/(cond - 1).
func shiftedLaplacian(name string, n int, edges [][3]float64, cond float64) (Problem, error) {
	if !(cond > 1) {
		panic("eigtest: cond must exceed 1")
	}
	deg := make([]float64, n)
	var ts []linalg.Triplet
	for _, e := range edges {
		i, j, w := int(e[0]), int(e[1]), e[2]
		ts = append(ts, linalg.Triplet{I: i, J: j, V: -w}, linalg.Triplet{I: j, J: i, V: -w})
		deg[i] += w
		deg[j] += w
	}
	diag := len(ts)
	for i := 0; i < n; i++ {
		ts = append(ts, linalg.Triplet{I: i, J: i, V: deg[i]})
	}
	l := mustCSR(n, ts)
	res, err := eig.TopD(context.Background(), l, 1, nil)
	if err != nil {
		return Problem{}, err
	}
	delta := res.Values[0] / (cond - 1)
	for k := range ts[diag:] {
		ts[diag+k].V += delta
	}
	return Problem{Name: name, A: mustCSR(n, ts), Cond: cond}, nil
}

// mustCSR assembles the triplets; the generators build valid ones.
func mustCSR(n int, ts []linalg.Triplet) *linalg.CSR {
	a, err := linalg.CSRFromTriplets(n, n, ts)
	if err != nil {
		panic("eigtest: internal error: " + err.Error())
	}
	return a
}

// Dense returns the matrix of p as a *mat.SymDense (for the dense
// operators of small problems).
func (p Problem) Dense() *mat.SymDense {
	n := p.A.Rows
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for q := p.A.RowPtr[i]; q < p.A.RowPtr[i+1]; q++ {
			if j := p.A.ColIdx[q]; j >= i {
				s.SetSym(i, j, p.A.Val[q])
			}
		}
	}
	return s
}
