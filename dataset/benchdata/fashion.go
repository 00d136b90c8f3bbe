package benchdata

import "math/rand/v2"

// FashionDraws is the number of random label draws of the Fashion-MNIST
// benchmark (BenchmarkFashionMNIST in package models) and of its peers.
const FashionDraws = 10

// FashionRule returns the fixed labeled set of the Fashion-MNIST comparison:
// rows i with i mod 7 = 3, the first 10 of each of the 10 classes in y, and
// their labels; unl holds every other row.
func FashionRule(y []int) (lab, ys, unl []int) {
	count := map[int]int{}
	for i, c := range y {
		if count[c] < 10 && i%7 == 3 {
			count[c]++
			lab = append(lab, i)
			ys = append(ys, c)
		} else {
			unl = append(unl, i)
		}
	}
	return lab, ys, unl
}

// PerClass draws per labeled rows of every class of y uniformly at random
// with the seed (draw k of the benchmark uses seed k), returned in row
// order with their labels; unl holds every other row.
func PerClass(y []int, per int, seed uint64) (lab, ys, unl []int) {
	rng := rand.New(rand.NewPCG(seed, 91))
	count := map[int]int{}
	taken := make([]bool, len(y))
	for _, i := range rng.Perm(len(y)) {
		if count[y[i]] < per {
			count[y[i]]++
			taken[i] = true
		}
	}
	for i, c := range y {
		if taken[i] {
			lab = append(lab, i)
			ys = append(ys, c)
		} else {
			unl = append(unl, i)
		}
	}
	return lab, ys, unl
}
