package labelaware

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/linalg"
)

// LabelVectors returns the n x c label-aware vectors of eq. 5 with the
// degree normalisation of Algorithm 1: U = D^-1 K_nl Y, where K_nl =
// K(X, X_labeled), D = diag(K_nl 1) and Y is the class indicator of the
// labeled points, so that U_ik is the kernel-weighted fraction of class k
// among the labeled points near x_i. A point whose degree is not positive
// (every kernel value to the labeled points underflowed, or a kernel that
// is not positive) gets U_ik = 1/c. O(n l p) time, O(n l) memory.
func LabelVectors(ctx context.Context, kern linalg.Kernel, x *mat.Dense, labeled, y []int, classes int) (*mat.Dense, error) {
	if ctx == nil {
		return nil, inputf(linalg.ErrSettings, "nil context")
	}
	if kern == nil {
		return nil, inputf(linalg.ErrSettings, "nil kernel")
	}
	if err := checkProblem(x, labeled, y, classes); err != nil {
		return nil, err
	}
	if v, ok := kern.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, inputf(linalg.ErrSettings, "kernel: %w", err)
		}
	}
	u, _, err := labelVectors(ctx, kern, x, labeled, y, classes)
	return u, err
}

func labelVectors(ctx context.Context, kern linalg.Kernel, x *mat.Dense, labeled, y []int, classes int) (*mat.Dense, int, error) {
	n, _ := x.Dims()
	xl := rows(x, labeled)
	knl, err := linalg.Cross(ctx, kern, x, xl)
	if err != nil {
		return nil, 0, wrapDep(ctx, "cross kernel", err)
	}
	u := mat.NewDense(n, classes, nil)
	zero := 0
	inv := 1 / float64(classes)
	for i := 0; i < n; i++ {
		row := knl.RawRowView(i)
		ur := u.RawRowView(i)
		var d float64
		for j, v := range row {
			d += v
			ur[y[j]] += v
		}
		if !(d > 0) || math.IsInf(d, 0) {
			zero++
			for c := range ur {
				ur[c] = inv
			}
			continue
		}
		for c := range ur {
			ur[c] /= d
		}
	}
	return u, zero, nil
}

type weightStats struct {
	constant, iter int
	kkt            float64
}

// weights computes the weights of the columns of vl (the base vectors on
// the labeled block) with the chosen scheme.
func weights(ctx context.Context, scheme Weighting, vl, target *mat.Dense) ([]float64, weightStats, error) {
	_, r := vl.Dims()
	var st weightStats
	switch scheme {
	case WeightAlignf:
		res, err := Alignf(ctx, vl, target)
		if res != nil {
			st = weightStats{constant: res.Constant, iter: res.Iterations, kkt: res.KKT.Max()}
		}
		if err != nil {
			return nil, st, err
		}
		return res.Weights, st, nil
	case WeightUniform:
		w := make([]float64, r)
		for i := range w {
			w[i] = 1
		}
		return w, st, nil
	default: // WeightIndependent
		w := make([]float64, r)
		for i := range w {
			a, err := BlockAlignment(vl.Slice(0, vl.RawMatrix().Rows, i, i+1).(*mat.Dense), target, []float64{1})
			if errors.Is(err, linalg.ErrDegenerate) {
				st.constant++
				continue // a constant vector: its centred kernel is zero
			}
			if err != nil {
				return nil, st, err
			}
			w[i] = math.Max(a, 0) // >= 0 in exact arithmetic
		}
		return w, st, nil
	}
}

// normaliseSum scales w (non-negative) to sum to n.
func normaliseSum(w []float64, n int) error {
	var s float64
	for _, v := range w {
		s += v
	}
	if !(s > 0) || math.IsInf(s, 0) {
		return inputf(linalg.ErrDegenerate, "the weights sum to %v", s)
	}
	f := float64(n) / s
	for i := range w {
		w[i] *= f
	}
	return nil
}

// rows copies the rows idx of a into a new matrix.
func rows(a *mat.Dense, idx []int) *mat.Dense {
	_, c := a.Dims()
	out := mat.NewDense(len(idx), c, nil)
	for i, j := range idx {
		out.SetRow(i, a.RawRowView(j))
	}
	return out
}

// wrapDep wraps an error from a dependency with the stage it came from:
// the error keeps its own kind (bad kernel parameters are
// linalg.ErrSettings), a kernel of rank below K becomes
// linalg.ErrDegenerate, anything else is wrapped as is.
func wrapDep(ctx context.Context, stage string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("labelaware: %s: %w", stage, err)
	}
	switch {
	case errors.Is(err, eig.ErrRank) && !errors.Is(err, linalg.ErrDegenerate):
		return inputf(linalg.ErrDegenerate, "%s: %w", stage, err)
	}
	return fmt.Errorf("labelaware: %s: %w", stage, err)
}
