package klr

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/ova"
)

// DefaultFolds is the number of cross-validation folds used when
// CVSettings.Folds is zero.
const DefaultFolds = 5

// DefaultGrid returns the lambda grid used when CVSettings.Grid is empty:
// 10^-4, 10^-3, ..., 10^1 (six decades).
func DefaultGrid() []float64 {
	return []float64{1e-4, 1e-3, 1e-2, 1e-1, 1, 10}
}

// CVSettings configures CrossValidateKernel and CrossValidateFeatures.
// The zero value means the documented defaults.
type CVSettings struct {
	// Grid lists candidate lambdas (positive, finite). Empty means
	// DefaultGrid().
	Grid []float64
	// Folds is the requested number of folds k (>= 2); zero means
	// DefaultFolds. The number used is min(k, smallest class count), so that
	// every training part contains every class.
	Folds int
	// Seed drives the random fold assignment.
	Seed uint64
}

// CVResult reports a cross-validation run.
type CVResult struct {
	// Lambda is the selected value.
	Lambda float64
	// Grid is the candidate grid sorted ascending, and Accuracy[i] the
	// fraction of labeled points classified correctly when held out, for
	// Grid[i].
	Grid, Accuracy []float64
	// Folds is the number of folds actually used.
	Folds int
}

// CrossValidateKernel chooses lambda by stratified k-fold cross-validation of
// the multi-class kernel-form model on the l x l kernel block k with labels
// in 0..classes-1 (binary problems use classes = 2, labels 0/1).
//
// Folds: the indices of each class are shuffled with a generator seeded by
// cv.Seed and dealt round-robin into the folds, the deal continuing from
// class to class so fold sizes differ by at most one. The number of folds is
// min(cv.Folds, smallest class count); with l = 10 and two classes of 5 the
// default gives 5 folds. Every class needs at least 2 labeled examples
// (otherwise some training part would miss a class); fewer is an error of
// kind linalg.ErrLabels.
//
// Score: held-out accuracy summed over the folds. The highest score wins;
// ties go to the larger lambda (the smoother model). Fits that stop early
// (their status is not Converged) are scored with their best iterate. Within
// a fold the grid is walked from large to small lambda with warm starts.
// The Lambda field of s is ignored; Bias, MaxIter and Tol are used.
//
// Errors: invalid input or settings (wrapping linalg.ErrInvalid: a Folds of
// 1 or a grid value that is not a positive finite lambda is of kind
// ErrSettings), or a cancelled context (wrapping ctx.Err()). Cost: folds x
// grid one-versus-all fits.
func CrossValidateKernel(ctx context.Context, k mat.Matrix, labels []int, classes int, s *Settings, cv *CVSettings) (*CVResult, error) {
	const op = "klr.CrossValidateKernel"
	ft := Fitter{}
	kr, err := ft.kernelView(op, k, len(labels))
	if err != nil {
		return nil, err
	}
	var train, cross *mat.Dense
	return crossValidate(op, ctx, &ft, labels, classes, s, cv,
		func(tr, va []int) {
			train = mat.NewDense(len(tr), len(tr), nil)
			cross = mat.NewDense(len(va), len(tr), nil)
			at := func(i, j int) float64 {
				if i > j {
					i, j = j, i
				}
				return kr.Data[i*kr.Stride+j]
			}
			for a, i := range tr {
				for b, j := range tr {
					train.Set(a, b, at(i, j))
				}
			}
			for a, i := range va {
				for b, j := range tr {
					cross.Set(a, b, at(i, j))
				}
			}
		},
		func(mm *Multi, y []int) error {
			return ft.FitMultiKernel(ctx, mm, train, y, classes, true)
		},
		func(mm *Multi, pred, y []int) ([]int, error) { return mm.PredictPrior(pred, cross, y, 0) })
}

// CrossValidateFeatures is CrossValidateKernel for the feature form (phi is
// l x d).
func CrossValidateFeatures(ctx context.Context, phi mat.Matrix, labels []int, classes int, s *Settings, cv *CVSettings) (*CVResult, error) {
	const op = "klr.CrossValidateFeatures"
	ft := Fitter{}
	pr, err := ft.featureView(op, phi, len(labels))
	if err != nil {
		return nil, err
	}
	d := pr.Cols
	var train, held *mat.Dense
	return crossValidate(op, ctx, &ft, labels, classes, s, cv,
		func(tr, va []int) {
			train = mat.NewDense(len(tr), d, nil)
			held = mat.NewDense(len(va), d, nil)
			for a, i := range tr {
				train.SetRow(a, pr.Data[i*pr.Stride:i*pr.Stride+d])
			}
			for a, i := range va {
				held.SetRow(a, pr.Data[i*pr.Stride:i*pr.Stride+d])
			}
		},
		func(mm *Multi, y []int) error {
			return ft.FitMultiFeatures(ctx, mm, train, y, classes, true)
		},
		func(mm *Multi, pred, y []int) ([]int, error) { return mm.PredictPrior(pred, held, y, 0) })
}

func crossValidate(op string, ctx context.Context, ft *Fitter, labels []int, classes int, s *Settings, cv *CVSettings,
	split func(tr, va []int), fit func(*Multi, []int) error, predict func(mm *Multi, pred, y []int) ([]int, error)) (*CVResult, error) {
	if err := linalg.CheckContext(op, ctx); err != nil {
		return nil, err
	}
	base, err := s.resolve(op)
	if err != nil {
		return nil, err
	}
	if err := ova.CheckLabels(op, labels, classes); err != nil {
		return nil, err
	}
	c, grid, err := cv.resolve(op)
	if err != nil {
		return nil, err
	}
	folds, k, err := stratifiedFolds(op, labels, classes, c.Folds, c.Seed)
	if err != nil {
		return nil, err
	}
	correct := make([]int, len(grid))
	var tr, va, ytr, pred []int
	mm := &Multi{}
	for f := 0; f < k; f++ {
		tr, va, ytr = tr[:0], va[:0], ytr[:0]
		for i, fi := range folds {
			if fi == f {
				va = append(va, i)
			} else {
				tr = append(tr, i)
				ytr = append(ytr, labels[i])
			}
		}
		split(tr, va)
		mm.Classes = 0 // cold start for the first (largest) lambda of a fold
		for gi := len(grid) - 1; gi >= 0; gi-- {
			ft.Settings = base
			ft.Settings.Lambda = grid[gi]
			if err := fit(mm, ytr); err != nil {
				return nil, fmt.Errorf("%s: fold %d, lambda %g: %w", op, f, grid[gi], err)
			}
			pred, err = predict(mm, pred, ytr)
			if err != nil {
				return nil, fmt.Errorf("%s: fold %d, lambda %g: %w", op, f, grid[gi], err)
			}
			for a, i := range va {
				if pred[a] == labels[i] {
					correct[gi]++
				}
			}
		}
	}
	res := &CVResult{Grid: grid, Accuracy: make([]float64, len(grid)), Folds: k}
	best := len(grid) - 1
	for gi := len(grid) - 1; gi >= 0; gi-- {
		res.Accuracy[gi] = float64(correct[gi]) / float64(len(labels))
		if correct[gi] > correct[best] {
			best = gi
		}
	}
	res.Lambda = grid[best]
	return res, nil
}

// resolve validates cv (nil means the defaults) and returns it with the
// defaults filled in, and the grid sorted ascending without repeats.
func (cv *CVSettings) resolve(op string) (CVSettings, []float64, error) {
	c, err := ova.Resolve(op, cv, CVSettings{Folds: DefaultFolds})
	if err != nil {
		return c, nil, err
	}
	if c.Folds < 2 {
		return c, nil, linalg.Errorf(linalg.ErrSettings, op, "cross-validation needs at least 2 folds, got %d", c.Folds)
	}
	grid := slices.Clone(c.Grid)
	if len(grid) == 0 {
		grid = DefaultGrid()
	}
	for _, g := range grid {
		if !(g > 0) || math.IsInf(g, 0) {
			return c, nil, linalg.Errorf(linalg.ErrSettings, op, "grid value %v is not a positive finite lambda", g)
		}
	}
	slices.Sort(grid)
	return c, slices.Compact(grid), nil
}

// stratifiedFolds assigns every point a fold in 0..k-1, k = min(folds,
// smallest class count).
func stratifiedFolds(op string, labels []int, classes, folds int, seed uint64) ([]int, int, error) {
	byClass := make([][]int, classes)
	for i, c := range labels {
		byClass[c] = append(byClass[c], i)
	}
	k := folds
	for c, idx := range byClass {
		if len(idx) < 2 {
			return nil, 0, linalg.Errorf(linalg.ErrLabels, op, "cross-validation needs at least 2 labeled examples of every class, class %d has %d", c, len(idx))
		}
		k = min(k, len(idx))
	}
	// The second PCG word is a fixed odd constant so that one seed gives one
	// stream.
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	out := make([]int, len(labels))
	next := 0
	for _, idx := range byClass {
		rng.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		for _, i := range idx {
			out[i] = next % k
			next++
		}
	}
	return out, k, nil
}
