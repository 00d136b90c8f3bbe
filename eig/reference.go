package eig

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Reference is the dense reference solver: it forms the n x n matrix (by
// applying the operator to the n unit vectors, or by copying a Dense
// operator) and computes all eigenpairs with linalg.EigenSym (gonum's
// mat.EigenSym, its result checked and recomputed by Jacobi rotations if it
// fails the check), O(n^3) time and 8 n^2 bytes. Use it for small problems
// and as a check.
type Reference struct{}

var _ Solver = Reference{}

// Name returns "reference".
func (Reference) Name() string { return "reference" }

// Solve computes the d eigenpairs of a at the end s.Which selects (the
// largest by default). See Solver. Only Which of the settings applies
// (besides their validation): the method is direct. A matrix formed from
// the products that is not symmetric to round-off, or not finite, is an
// error (ErrNotSymmetric, linalg.ErrNonFinite) with Status
// linalg.NumericalFailure; so is, without an error, a failure of the
// dense eigensolver.
func (Reference) Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	cfg, st, err := validate(ctx, "eig.Reference.Solve", a, d, s)
	if err != nil {
		return &Result{Status: st}, err
	}
	return solveDense(ctx, a, cfg)
}

// solveDense is Reference's method, also used by the Krylov methods for
// problems too small for them.
func solveDense(ctx context.Context, a Operator, cfg *checked) (*Result, error) {
	n := cfg.n
	res := &Result{}
	sym := mat.NewSymDense(n, nil)
	var maxAbs float64
	if dn, ok := a.(*Dense); ok {
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				sym.SetSym(i, j, dn.a[i*n+j])
			}
		}
	} else {
		full := make([]float64, n*n) // column j = A e_j, stored as row j
		e := make([]float64, n)
		for j := 0; j < n; j++ {
			if j%64 == 0 {
				if err := ctx.Err(); err != nil {
					res.Status = linalg.Canceled
					return res, canceled(cfg.op, err)
				}
			}
			e[j] = 1
			a.MulVecTo(full[j*n:(j+1)*n], e)
			e[j] = 0
			res.MatVecs++
			res.Products++
		}
		for i := 0; i < n*n; i++ {
			v := full[i]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				res.Status = linalg.NumericalFailure
				return res, linalg.Errorf(linalg.ErrNonFinite, cfg.op, "operator produced NaN or Inf: entry (%d,%d) = %v", i%n, i/n, v)
			}
			maxAbs = math.Max(maxAbs, math.Abs(v))
		}
		// Products by a symmetric operator may differ from exact symmetry
		// by round-off (n eps relative); anything larger is asymmetry.
		symTol := 16 * float64(n) * 2 * dlamchE * maxAbs
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				aij, aji := full[j*n+i], full[i*n+j]
				if math.Abs(aij-aji) > symTol {
					res.Status = linalg.NumericalFailure
					return res, linalg.Errorf(ErrNotSymmetric, cfg.op, "A(%d,%d) = %v but A(%d,%d) = %v", i, j, aij, j, i, aji)
				}
				sym.SetSym(i, j, (aij+aji)/2)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		res.Status = linalg.Canceled
		return res, canceled(cfg.op, err)
	}
	// linalg.EigenSym checks gonum's result against ||A||_F and recomputes
	// one that fails (a rank-one block of equal entries among zero rows
	// gave 5.6e124 for 28).
	var es linalg.EigenSym
	if !es.Factorize(sym, true) {
		// A breakdown of the dense eigensolvers, not bad input: an
		// outcome, reported by the status.
		res.Status = linalg.NumericalFailure
		return res, nil
	}
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	denseResult(res, a, cfg, es.Values(nil), &vecs)
	// A direct method whose result passed the check has converged; the
	// count of pairs within the tolerance is reported for comparison with
	// the iterative methods.
	res.Status = linalg.Converged
	return res, nil
}

// denseResult fills res with the d wanted pairs of the full decomposition
// (vals ascending, vecs their columns), their explicit residuals and the
// count of those within the tolerance.
func denseResult(res *Result, a Operator, cfg *checked, vals []float64, vecs *mat.Dense) {
	n, d := cfg.n, cfg.d
	for _, v := range vals {
		res.NormEstimate = math.Max(res.NormEstimate, math.Abs(v))
	}
	res.Values = make([]float64, d)
	res.Vectors = mat.NewDense(n, d, nil)
	for c := 0; c < d; c++ {
		j := c
		if cfg.which == Largest {
			j = n - 1 - c
		}
		res.Values[c] = vals[j]
		for i := 0; i < n; i++ {
			res.Vectors.Set(i, c, vecs.At(i, j))
		}
	}
	// Explicit residuals with the operator.
	y, ay := rowsAndImages(res, a, res.Vectors)
	res.Residuals = make([]float64, d)
	lim := acceptTol(cfg.tol, n) * res.NormEstimate
	for c := 0; c < d; c++ {
		r := ay.RawRowView(c)
		yr := y.RawRowView(c)
		for i := range r {
			r[i] -= res.Values[c] * yr[i]
		}
		res.Residuals[c] = rowNorm(r)
		if res.Residuals[c] <= lim {
			res.Converged++
		}
	}
	res.Repeated = repeated(res.Values, math.Sqrt(cfg.tol)*res.NormEstimate)
}
