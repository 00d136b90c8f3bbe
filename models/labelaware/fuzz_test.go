package labelaware

import (
	"context"
	"math"
	"testing"

	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

const fuzzEps = 0x1p-52

// FuzzBuild builds the label-aware kernel of small problems from the bytes
// (points on a grid of 1/4, so duplicate and zero points, constant
// features and label-aware vectors constant on the labeled block are
// common; 2 to 4 classes; the median RBF, a fixed RBF, the linear and the
// quadratic kernel; every weighting and eigenvector choice; exact or
// Nystrom; now and then a label out of range, a repeated or out-of-range
// labeled index) and checks, independently of the package:
//   - labels that are invalid (out of range, a class without a labeled
//     point, a repeated or out-of-range index) are an error, and every error
//     is an input error or an outcome, with no kernel returned;
//   - V is finite with unit-norm columns (the Nystrom eigenvectors to the
//     accuracy of eig.Nystrom's one-shot orthonormalisation), the weights
//     are finite, non-negative and sum to n, the values are finite;
//   - the kernel matrix (Block over all points) is exactly symmetric,
//     finite, positive semidefinite to rounding, with trace
//     sum_j w_j ||V_j||² (n up to those norms), and its off-diagonal
//     blocks agree with it;
//   - Alignment is the centred alignment of the kernel with the class
//     indicator target on the labeled block, recomputed from dense l x l
//     matrices;
//   - alignf: no single (non-constant) base kernel and not their uniform mix
//     has a clearly higher alignment; uniform: equal weights; independent:
//     weights proportional to the positive part of each base kernel's own
//     alignment;
//   - LabelVectors is eq. 5 recomputed from kernel values (rows summing to
//     1, 1/c where the degree is not positive) and the first c columns of V
//     are its columns normalised;
//   - on the exact path the other columns are orthonormal eigenvectors of
//     the kernel matrix (or of D^-1/2 K D^-1/2 for LaplacianBottom) for its
//     top eigenvalues, as Values reports them;
//   - NormalizeKernel of the kernel matrix fails, leaving it unchanged,
//     exactly when a degree is not positive, and otherwise gives
//     K_ij / sqrt(d_i d_j), which maps sqrt(d) to itself.
func FuzzBuild(f *testing.F) {
	f.Add([]byte{20, 2, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	f.Add([]byte{12, 1, 1, 4, 2, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{23, 3, 2, 22, 35, 129, 127, 130, 126, 1, 64, 64})
	f.Add([]byte{9, 0, 0, 2, 3, 8, 8, 8, 8, 8, 8, 8, 0, 16})
	f.Add([]byte{16, 2, 1, 19, 17, 5, 250, 13, 99, 3, 41, 7, 255})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 6 {
			return
		}
		n := 2 + int(data[0])%24
		p := 1 + int(data[1])%4
		classes := 2 + int(data[2])%3
		opt, kb := data[3], data[4]
		bs := robust.NewBytes(data[5:])
		next := bs.Next
		x := bs.Grid(n, p)
		perm := bs.Perm(n)
		l := 2 + int(next())%(n-1)
		labeled := append([]int(nil), perm[:l]...)
		y := make([]int, l)
		for i := range y {
			y[i] = int(next()) % classes
		}
		valid := true
		switch next() {
		case 255:
			y[0], valid = classes, false
		case 254:
			labeled[l-1], valid = labeled[0], false
		case 253:
			labeled[0], valid = n, false
		}
		valid = valid && allClasses(y, classes)
		set := &Settings{Weighting: Weighting(opt % 3), Eigen: Eigen(opt / 3 % 2), Seed: uint64(opt), K: int(kb/16) % 4}
		switch kb % 4 {
		case 1:
			set.Kernel = linalg.RBF{Gamma: float64(1+kb/4%4) / 4}
		case 2:
			set.Kernel = linalg.Linear{}
		case 3:
			set.Kernel = linalg.Quadratic()
		}
		if opt/6%4 == 3 {
			set.Landmarks = 1 + int(next())%n
		}
		ctx := context.Background()
		k, err := Build(ctx, x, labeled, y, classes, set)
		if err != nil {
			if k != nil {
				t.Fatalf("a kernel returned with the error %v", err)
			}
			inVocabulary(t, "Build", err)
			return
		}
		if !valid {
			t.Fatalf("invalid labeled indices %v or labels %v (%d classes) accepted", labeled, y, classes)
		}
		kk := k.Stats.K
		r := classes + kk
		if rr, cc := k.V.Dims(); rr != n || cc != r || len(k.Weights) != r || len(k.Values) != kk {
			t.Fatalf("V is %dx%d with %d weights and %d values, want %dx%d, %d, %d", rr, cc, len(k.Weights), len(k.Values), n, r, r, kk)
		}
		for _, v := range k.Values {
			if !isFinite(v) {
				t.Fatalf("values %v", k.Values)
			}
		}
		trace := 0.0 // of the kernel matrix: sum_j w_j ||V_j||²
		for j := 0; j < r; j++ {
			col := mat.Col(nil, j, k.V)
			if !allFinite(col) {
				t.Fatalf("column %d of V is not finite", j)
			}
			nrm := norm2(col)
			trace += k.Weights[j] * nrm * nrm
			normTol := 1e-12
			if j >= classes && !k.Stats.Exact {
				// The Nystrom vectors are orthonormalised once through
				// CᵀC, whose rounding eig.Nystrom's cut-off keeps near
				// 1e-8 ||W||: relative to the vector's own value sigma
				// that is 1e-8 ||W|| / sigma.
				sigma, top := k.Values[j-classes], k.Values[0]
				if set.Eigen == LaplacianBottom {
					sigma, top = 1-sigma, 1-top
				}
				if !(sigma > 0) {
					continue
				}
				normTol = 1e-6 * top / sigma
			}
			if math.Abs(nrm-1) > normTol {
				t.Fatalf("column %d of V has norm %v, want 1 (to %.3g)", j, nrm, normTol)
			}
		}
		checkWeights(t, k.Weights, n)

		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		full, err := k.Block(all, all)
		if err != nil {
			t.Fatalf("Block: %v", err)
		}
		checkKernelMatrix(t, full, trace)
		unl := perm[l:]
		if len(unl) > 0 && valid {
			cross, err := k.Block(labeled, unl)
			if err != nil {
				t.Fatalf("Block(labeled, unlabeled): %v", err)
			}
			for a, i := range labeled {
				for b, j := range unl {
					if d := math.Abs(cross.At(a, b) - full.At(i, j)); d > 1e-12*float64(n) {
						t.Fatalf("Block(labeled, unlabeled)[%d,%d] = %v, full kernel %v", a, b, cross.At(a, b), full.At(i, j))
					}
				}
			}
		}
		checkCombination(t, k.V, k.Weights, k.Alignment, labeled, y, classes, set.Weighting)

		kern := set.Kernel
		if kern == nil {
			kern = linalg.RBF{Gamma: k.Stats.Gamma}
		}
		u, err := LabelVectors(ctx, kern, x, labeled, y, classes)
		if err != nil {
			t.Fatalf("LabelVectors after a successful Build: %v", err)
		}
		checkLabelVectors(t, u, kern, x, labeled, y, classes)
		for c := 0; c < classes; c++ {
			uc := mat.Col(nil, c, u)
			s := norm2(uc)
			for i := 0; i < n; i++ {
				if d := math.Abs(k.V.At(i, c) - uc[i]/s); d > 1e-12 {
					t.Fatalf("V[%d,%d] = %v, but u_%d/||u_%d|| = %v", i, c, k.V.At(i, c), c, c, uc[i]/s)
				}
			}
		}

		g := gramOf(kern, x)
		if set.Eigen == LaplacianBottom {
			checkNormalize(t, g)
		}
		if k.Stats.Exact {
			checkEigen(t, g, k.V.Slice(0, n, classes, r).(*mat.Dense), k.Values, set.Eigen)
		}
		checkNormalize(t, gramOf(linalg.Linear{}, x)) // degrees of either sign
	})
}

// FuzzCombine combines label-aware vectors and eigenvector blocks drawn
// from the bytes (any values on a grid of 1/4: zero and constant columns,
// duplicate columns; now and then a NaN or Inf anywhere, a label or
// labeled index out of range, a repeated index, a labels slice of the wrong
// length) with every weighting and checks independently: bad input
// (including a non-finite entry in any row, labeled or not) is an error of
// the vocabulary and never a panic; without error V is [u/||u|| | v]
// (zero u columns left as they are), finite, the weights finite,
// non-negative and summing to n, and the alignment, the alignf optimality
// and the uniform and independent weights are as FuzzBuild checks them.
func FuzzCombine(f *testing.F) {
	f.Add([]byte{10, 0, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{18, 1, 3, 1, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{6, 2, 0, 2, 8, 8, 8, 8, 129, 127, 130, 126})
	f.Add([]byte{15, 0, 1, 0, 17, 5, 250, 13, 99, 3, 41, 7, 252})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		n := 2 + int(data[0])%20
		classes := 2 + int(data[1])%3
		kv := 1 + int(data[2])%4
		scheme := Weighting(data[3] % 3)
		bs := robust.NewBytes(data[4:])
		next := bs.Next
		u := bs.Grid(n, classes)
		v := bs.Grid(n, kv)
		perm := bs.Perm(n)
		l := 2 + int(next())%(n-1)
		labeled := append([]int(nil), perm[:l]...)
		y := make([]int, l)
		for i := range y {
			y[i] = int(next()) % classes
		}
		valid := allClasses(y, classes)
		switch next() {
		case 255:
			u.Set(int(next())%n, int(next())%classes, math.NaN())
			valid = false
		case 254:
			v.Set(int(next())%n, int(next())%kv, math.Inf(1-2*int(next()%2)))
			valid = false
		case 253:
			y[l-1], valid = -1, false
		case 252:
			labeled[0], valid = n, false
		case 251:
			labeled[l-1], valid = labeled[0], false
		case 250:
			y, valid = y[:l-1], false
		}
		k, err := Combine(context.Background(), u, v, labeled, y, classes, scheme)
		if err != nil {
			inVocabulary(t, "Combine", err)
			return
		}
		if !valid {
			t.Fatalf("bad input accepted: labeled %v, labels %v (%d classes), finite u %v, finite v %v", labeled, y, classes, allFinite(u.RawMatrix().Data), allFinite(v.RawMatrix().Data))
		}
		r := classes + kv
		if rr, cc := k.V.Dims(); rr != n || cc != r || len(k.Weights) != r {
			t.Fatalf("V is %dx%d with %d weights, want %dx%d", rr, cc, len(k.Weights), n, r)
		}
		for c := 0; c < r; c++ {
			var col []float64
			if c < classes {
				col = mat.Col(nil, c, u)
				if s := norm2(col); s > 0 {
					for i := range col {
						col[i] /= s
					}
				}
			} else {
				col = mat.Col(nil, c-classes, v)
			}
			for i, want := range col {
				if got := k.V.At(i, c); !isFinite(got) || math.Abs(got-want) > 1e-15 {
					t.Fatalf("V[%d,%d] = %v, want %v", i, c, got, want)
				}
			}
		}
		checkWeights(t, k.Weights, n)
		checkCombination(t, k.V, k.Weights, k.Alignment, labeled, y, classes, scheme)
	})
}
