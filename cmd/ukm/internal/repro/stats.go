package repro

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// SampleStratified draws perClass distinct indices of every class of y
// (0..classes-1) uniformly at random, as the label-aware kernel paper's
// protocol does ("50 labeled samples randomly chosen for each class"). The
// indices are returned class by class. A class with fewer than perClass
// points is an error.
func SampleStratified(rng *rand.Rand, y []int, classes, perClass int) ([]int, error) {
	if perClass < 1 {
		return nil, fmt.Errorf("repro: %d labeled points per class, want at least 1", perClass)
	}
	members := make([][]int, classes)
	for i, c := range y {
		if c < 0 || c >= classes {
			return nil, fmt.Errorf("repro: label %d outside [0,%d)", c, classes)
		}
		members[c] = append(members[c], i)
	}
	idx := make([]int, 0, classes*perClass)
	for c, m := range members {
		if len(m) < perClass {
			return nil, fmt.Errorf("repro: class %d has %d points, fewer than %d", c, len(m), perClass)
		}
		for _, j := range rng.Perm(len(m))[:perClass] {
			idx = append(idx, m[j])
		}
	}
	return idx, nil
}

// SampleLabeled draws l distinct indices uniformly at random such that every
// class of y (0..classes-1) occurs at least once, as the KDD'06 protocol
// requires (section 6.1). It rejects and redraws, which is fast for the
// class balances of the reference sets; with fewer than two points per
// class on average, where rejection would rarely succeed, it draws one point
// of every class and the rest uniformly. It gives up with an error when l <
// classes or a class has no point.
func SampleLabeled(rng *rand.Rand, y []int, classes, l int) ([]int, error) {
	if l < classes {
		return nil, fmt.Errorf("repro: %d labeled points cannot cover %d classes", l, classes)
	}
	if l > len(y) {
		return nil, fmt.Errorf("repro: %d labeled points but only %d in the data", l, len(y))
	}
	count := make([]int, classes)
	for _, c := range y {
		if c < 0 || c >= classes {
			return nil, fmt.Errorf("repro: label %d outside [0,%d)", c, classes)
		}
		count[c]++
	}
	for c, k := range count {
		if k == 0 {
			return nil, fmt.Errorf("repro: class %d has no point", c)
		}
	}
	if l < 2*classes {
		// Rejection would rarely succeed (10 points over 10 classes: about
		// one draw in 2,800): one random point per class, then the rest
		// uniformly among the others.
		return coverClasses(rng, y, classes, l), nil
	}
	seen := make([]bool, classes)
	for try := 0; try < 10000; try++ {
		idx := rng.Perm(len(y))[:l]
		clear(seen)
		covered := 0
		for _, i := range idx {
			if !seen[y[i]] {
				seen[y[i]] = true
				covered++
			}
		}
		if covered == classes {
			return idx, nil
		}
	}
	return nil, errors.New("repro: could not draw a labeled set with every class in 10000 tries")
}

// coverClasses draws one point of every class uniformly, then l - classes
// more uniformly among the points not yet drawn.
func coverClasses(rng *rand.Rand, y []int, classes, l int) []int {
	members := make([][]int, classes)
	for i, c := range y {
		members[c] = append(members[c], i)
	}
	taken := make([]bool, len(y))
	idx := make([]int, 0, l)
	for _, m := range members {
		i := m[rng.IntN(len(m))]
		taken[i] = true
		idx = append(idx, i)
	}
	for _, i := range rng.Perm(len(y)) {
		if len(idx) == l {
			break
		}
		if !taken[i] {
			idx = append(idx, i)
		}
	}
	return idx
}

// Summary is the mean and standard error of the mean of a sample.
type Summary struct {
	Mean, StdErr float64
	N            int
}

// Summarize returns the mean and the standard error s/sqrt(n) (zero for n = 1).
func Summarize(v []float64) Summary {
	n := len(v)
	if n == 0 {
		return Summary{Mean: math.NaN(), StdErr: math.NaN()}
	}
	var m float64
	for _, x := range v {
		m += x
	}
	m /= float64(n)
	if n == 1 {
		return Summary{Mean: m, N: 1}
	}
	var ss float64
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	return Summary{Mean: m, StdErr: math.Sqrt(ss / float64(n-1) / float64(n)), N: n}
}

// PairedT returns the two-sided p-value of the paired t-test of the
// hypothesis that a and b (the same trials under two methods) have equal
// means. Identical samples give p = 1; a constant non-zero difference gives
// p = 0.
func PairedT(a, b []float64) (float64, error) {
	if len(a) != len(b) {
		return math.NaN(), fmt.Errorf("repro: paired samples of lengths %d and %d", len(a), len(b))
	}
	if len(a) < 2 {
		return math.NaN(), errors.New("repro: a paired t-test needs at least two trials")
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	s := Summarize(d)
	if s.StdErr == 0 {
		if s.Mean == 0 {
			return 1, nil
		}
		return 0, nil
	}
	t := s.Mean / s.StdErr
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(a) - 1)}
	return 2 * dist.Survival(math.Abs(t)), nil
}
