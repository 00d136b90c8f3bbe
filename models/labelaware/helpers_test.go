package labelaware

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// blobs returns n points in p dimensions from two classes (i%2) whose means
// differ by sep along the first coordinate, with a nuisance coordinate of
// standard deviation nuisance along the second: for nuisance > sep the top
// kernel eigenvectors follow the nuisance, not the classes, which is the
// situation label-aware base kernels are meant for.
func blobs(n, p int, sep, nuisance float64, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 2))
	x := mat.NewDense(n, p, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		y[i] = i % 2
		for j := 0; j < p; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
		x.Set(i, 0, x.At(i, 0)+sep*float64(y[i]))
		x.Set(i, 1, nuisance*x.At(i, 1))
	}
	return x, y
}

// pickLabeled draws perClass labeled points of every class (seeded) and
// returns their indices, their labels and the remaining (unlabeled) indices.
func pickLabeled(y []int, classes, perClass int, seed uint64) (lab, ly, unl []int) {
	rng := rand.New(rand.NewPCG(seed, 3))
	perm := rng.Perm(len(y))
	count := make([]int, classes)
	used := make([]bool, len(y))
	for _, i := range perm {
		if count[y[i]] < perClass {
			count[y[i]]++
			lab = append(lab, i)
			ly = append(ly, y[i])
			used[i] = true
		}
	}
	for i := range y {
		if !used[i] {
			unl = append(unl, i)
		}
	}
	return lab, ly, unl
}

// subset returns the entries idx of y.
func subset(y []int, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = y[j]
	}
	return out
}

// denseCenteredAlignment is the reference centred alignment of the dense
// l x l kernel k with the target T = Y Yᵀ: it forms H K H and H T H
// explicitly.
func denseCenteredAlignment(k *mat.Dense, y *mat.Dense) float64 {
	num, nk, nt := centredInner(k, y)
	return num / math.Sqrt(nk*nt)
}

// centredInner returns <HKH, HTH>_F, ||HKH||_F² and ||HTH||_F² for the
// dense l x l kernel k and the target T = Y Yᵀ, H = I - 11ᵀ/l formed
// explicitly.
func centredInner(k *mat.Dense, y *mat.Dense) (num, nk, nt float64) {
	l, _ := k.Dims()
	h := mat.NewDense(l, l, nil)
	for i := 0; i < l; i++ {
		for j := 0; j < l; j++ {
			v := -1 / float64(l)
			if i == j {
				v++
			}
			h.Set(i, j, v)
		}
	}
	var t, kc, tc, tmp mat.Dense
	t.Mul(y, y.T())
	tmp.Mul(h, k)
	kc.Mul(&tmp, h)
	tmp.Mul(h, &t)
	tc.Mul(&tmp, h)
	for i := 0; i < l; i++ {
		for j := 0; j < l; j++ {
			num += kc.At(i, j) * tc.At(i, j)
			nk += kc.At(i, j) * kc.At(i, j)
			nt += tc.At(i, j) * tc.At(i, j)
		}
	}
	return num, nk, nt
}

// combine returns the dense kernel sum_i w_i b_i b_iᵀ of the columns of b.
func combine(b *mat.Dense, w []float64) *mat.Dense {
	l, r := b.Dims()
	k := mat.NewDense(l, l, nil)
	for c := 0; c < r; c++ {
		for i := 0; i < l; i++ {
			for j := 0; j < l; j++ {
				k.Set(i, j, k.At(i, j)+w[c]*b.At(i, c)*b.At(j, c))
			}
		}
	}
	return k
}
