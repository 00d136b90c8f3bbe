package klr_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/models/klr"
)

// A binary feature-form fit on a one-dimensional toy problem, then
// probabilities for new points.
func ExampleFitFeatures() {
	phi := mat.NewDense(6, 1, []float64{-3, -2, -0.5, 0.5, 2, 3})
	y := []float64{-1, -1, 1, -1, 1, 1}
	m, err := klr.FitFeatures(context.Background(), phi, y, &klr.Settings{Lambda: 0.1})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := m.Prob(nil, mat.NewDense(3, 1, []float64{-2, 0, 2}))
	fmt.Printf("status %v, w = %.3f\n", m.Stats.Status, m.Coef[0])
	fmt.Printf("p(+1 | x) = %.3f %.3f %.3f\n", p[0], p[1], p[2])
	// Output:
	// status Converged, w = 0.829
	// p(+1 | x) = 0.160 0.500 0.840
}

// One-versus-all on three classes with a linear kernel, lambda by
// cross-validation, and a prediction from the cross-kernel block.
func ExampleCrossValidateKernel() {
	x := mat.NewDense(9, 1, []float64{0, 0.2, 0.4, 3, 3.2, 3.4, 6, 6.2, 6.4})
	labels := []int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	// Linear kernel on the centred feature plus a constant.
	feat := mat.NewDense(9, 2, nil)
	for i := 0; i < 9; i++ {
		feat.Set(i, 0, x.At(i, 0)-3.2)
		feat.Set(i, 1, 1)
	}
	var k mat.Dense
	k.Mul(feat, feat.T())
	ctx := context.Background()
	cv, err := klr.CrossValidateKernel(ctx, &k, labels, 3, &klr.Settings{Bias: true}, &klr.CVSettings{Folds: 3, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("folds %d, lambda %g\n", cv.Folds, cv.Lambda)
	mm, err := klr.FitMultiKernel(ctx, &k, labels, 3, &klr.Settings{Lambda: cv.Lambda, Bias: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	// New point x = 6.1: its kernel row against the 9 training points.
	cross := mat.NewDense(1, 9, nil)
	for j := 0; j < 9; j++ {
		cross.Set(0, j, (6.1-3.2)*feat.At(j, 0)+1)
	}
	pred, _ := mm.Predict(nil, cross)
	fmt.Println("predicted class", pred[0])
	// Output:
	// folds 3, lambda 1
	// predicted class 2
}
