package active_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/models"
	"ukm/models/active"
)

// Two copies of the most uncertain point: entropy takes both, Fisher
// information takes one and adds the point that informs the other
// direction.
func ExampleFisher() {
	features := mat.NewDense(5, 2, []float64{
		1, 0, // 0
		1, 0, // 1, a copy of 0
		0, 1, // 2
		0.9, 0.1, // 3
		0.7, 0.7, // 4
	})
	probs := mat.NewDense(5, 1, []float64{0.5, 0.5, 0.35, 0.45, 0.2}) // p(y = 1)
	byEntropy, _ := active.Entropy{}.Select(nil, probs, 2)
	byFisher, _ := active.Fisher{}.SelectFeatures(nil, probs, features, 2)
	fmt.Println("entropy:", byEntropy)
	fmt.Println("fisher: ", byFisher)
	res, _ := active.Fisher{}.Solve(probs, features)
	fmt.Println(res.Status)
	// Output:
	// entropy: [0 1]
	// fisher:  [2 0]
	// Converged
}

// The unified loop of Hoi's thesis: UKLR learns the spectral kernel every
// round and queries batches of 10 chosen by Fisher information.
func ExampleFisher_uklr() {
	moons, _ := dataset.TwoMoons(100, 0.1, 1)
	labeled := []int{0, 1, 100, 101} // two points of each moon
	labels := []int{moons.Y[0], moons.Y[1], moons.Y[100], moons.Y[101]}
	lo := models.UKLR(models.Options{Seed: 1}, 30, 10)
	lo.Selector = active.Fisher{}
	_, rounds, err := models.Loop(context.Background(), moons.X, labeled, labels, active.GroundTruth(moons.Y), lo)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rounds {
		fmt.Printf("round %d: %d labels, %d queried\n", r.Index, r.Labeled, len(r.Queried))
	}
	// Output:
	// round 0: 4 labels, 10 queried
	// round 1: 14 labels, 10 queried
	// round 2: 24 labels, 10 queried
	// round 3: 34 labels, 0 queried
}
