package linalg_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Points on the line y = 2x, a little off it: the leading principal
// direction is (1, 2)/sqrt(5), and the projection onto it is the position
// along the line.
func ExampleFitPCA() {
	x := mat.NewDense(5, 2, []float64{
		0, 0.01,
		1, 1.99,
		2, 4.01,
		3, 5.99,
		4, 8.00,
	})
	pc, err := linalg.FitPCA(context.Background(), x, 1, 0, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	w := pc.Components
	sign := math.Copysign(1, w.At(0, 0)) // a direction's sign is arbitrary
	fmt.Printf("direction (%.3f, %.3f)\n", sign*w.At(0, 0), sign*w.At(1, 0))
	z, err := pc.Transform(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 5; i++ {
		fmt.Printf("%.2f ", sign*z.At(i, 0))
	}
	fmt.Println()
	// Output:
	// direction (0.448, 0.894)
	// -4.46 -2.25 0.01 2.23 4.47
}

// Two 8 x 8 images of the same vertical edge, one dark on light and faint,
// one light on dark and bright: their HOG descriptors (4 x 4 pixel cells,
// 9 orientation bins) are the same, all the votes in orientation 0.
func ExampleHOG() {
	faint := mat.NewDense(2, 64, nil)
	for b := 0; b < 8; b++ {
		for a := 0; a < 8; a++ {
			if b < 4 {
				faint.Set(0, a*8+b, 0.1)
				faint.Set(1, a*8+b, 200)
			} else {
				faint.Set(0, a*8+b, 0.2)
				faint.Set(1, a*8+b, 100)
			}
		}
	}
	h := linalg.HOG{Cell: 4}
	f, err := h.Transform(context.Background(), faint)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("length", f.RawMatrix().Cols)
	for i := 0; i < 2; i++ {
		fmt.Printf("%.2f\n", f.RawRowView(i)[:9])
	}
	// Output:
	// length 36
	// [0.50 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00]
	// [0.50 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00]
}
