package inputs_test

import (
	"fmt"

	"ukm/bench/peers/inputs"
)

// The n = 500 kernel of BenchmarkTopD: its width and two entries.
func ExampleRBFKernel() {
	x, err := inputs.RBFPoints(500, inputs.RBFDim, inputs.RBFSeed)
	if err != nil {
		fmt.Println(err)
		return
	}
	k, gamma, err := inputs.RBFKernel(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("gamma = %.4f, K[0,0] = %.1f, K[0,1] = %.4f\n", gamma, k.At(0, 0), k.At(0, 1))
	// Output:
	// gamma = 0.0549, K[0,0] = 1.0, K[0,1] = 0.5964
}
