package labelaware

import (
	"math"
	"testing"

	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// checkCombination checks the weights and alignment of a combination of the
// columns of v on the labeled rows (see FuzzBuild).
func checkCombination(t *testing.T, v *mat.Dense, w []float64, alignment float64, labeled, y []int, classes int, scheme Weighting) {
	t.Helper()
	l := len(labeled)
	_, r := v.Dims()
	vl := rows(v, labeled)
	z := indicator(y, classes)
	ref, kcn, tr := refAlignment(vl, w, z)
	if !isFinite(alignment) || math.Abs(alignment) > 1+1e-12 {
		t.Fatalf("alignment %v", alignment)
	}
	if kcn <= 1e3*fuzzEps*float64(l)*tr {
		// The centred kernel is below the rounding of the dense reference
		// (the weight on base vectors nearly constant on the block): it
		// cannot tell.
		return
	}
	tol := 1e-10 + 1e3*fuzzEps*float64(l)*tr/kcn
	if math.Abs(ref-alignment) > tol {
		t.Fatalf("%v: alignment %v reported, %v measured (tolerance %.3g, weights %v)", scheme, alignment, ref, tol, w)
	}
	// The base kernels' own alignments; near-constant columns, whose
	// centred direction is rounding noise, are set apart.
	own := make([]float64, r)
	good := make([]bool, r)
	unclear := false
	delta := 0.0 // the largest rounding bound of an own alignment
	for j := 0; j < r; j++ {
		col := mat.Col(nil, j, vl)
		cent, raw := centredNorm(col)
		switch {
		case cent > 1e-8*raw:
			e := make([]float64, r)
			e[j] = 1
			a, kcn, tr := refAlignment(vl, e, z)
			if kcn < 1e6*fuzzEps*float64(l)*tr {
				unclear = true
				continue
			}
			own[j], good[j] = a, true
			delta = math.Max(delta, 1e-10+1e3*fuzzEps*float64(l)*tr/kcn)
		case cent > 1e-13*raw:
			unclear = true
		}
	}
	n := 0.0
	for _, x := range w {
		n += x
	}
	switch scheme {
	case WeightUniform:
		for j, x := range w {
			if math.Abs(x-n/float64(r)) > 1e-12*n {
				t.Fatalf("uniform weight %d = %v, want %v", j, x, n/float64(r))
			}
		}
	case WeightIndependent:
		if unclear {
			return
		}
		var s float64
		for _, a := range own {
			s += math.Max(a, 0)
		}
		// Each own alignment is known to within delta, so the weights
		// n max(a_j, 0) / s only to within about n (r+1) delta / s: when
		// every alignment is zero to rounding they are ratios of rounding
		// errors, and any are right.
		spread := float64(r+1) * delta / s
		if spread > 1e-3 {
			return
		}
		for j, x := range w {
			if want := n * math.Max(own[j], 0) / s; math.Abs(x-want) > n*(1e-9+2*spread) {
				t.Fatalf("independent weight %d = %v, want %v (own alignments %v, weights %v, block %.3g)", j, x, want, own, w, mat.Formatted(vl))
			}
		}
	case WeightAlignf:
		uni := make([]float64, r)
		for j := range uni {
			if good[j] {
				uni[j] = 1
				if own[j] > ref+1e-7+tol {
					t.Fatalf("base kernel %d alone has alignment %v, above alignf's %v (weights %v)", j, own[j], ref, w)
				}
			}
		}
		if a, kcn, tr := refAlignment(vl, uni, z); kcn > 0 && a > ref+1e-7+tol+1e3*fuzzEps*float64(l)*tr/kcn {
			t.Fatalf("the uniform mix has alignment %v, above alignf's %v (weights %v)", a, ref, w)
		}
	}
}

// checkWeights checks that w is finite, non-negative and sums to n.
func checkWeights(t *testing.T, w []float64, n int) {
	t.Helper()
	var s float64
	for i, x := range w {
		if !isFinite(x) || x < 0 {
			t.Fatalf("weight %d = %v", i, x)
		}
		s += x
	}
	if math.Abs(s-float64(n)) > 1e-12*float64(n) {
		t.Fatalf("weights %v sum to %v, want %d", w, s, n)
	}
}

// checkKernelMatrix checks that k is exactly symmetric, finite, positive
// semidefinite to rounding and of the given trace.
func checkKernelMatrix(t *testing.T, k *mat.Dense, trace float64) {
	t.Helper()
	n, _ := k.Dims()
	sym := mat.NewSymDense(n, nil)
	var tr, fro float64
	for i := 0; i < n; i++ {
		tr += k.At(i, i)
		for j := 0; j < n; j++ {
			v := k.At(i, j)
			if !isFinite(v) || v != k.At(j, i) {
				t.Fatalf("kernel entries (%d,%d) = %v and (%d,%d) = %v", i, j, v, j, i, k.At(j, i))
			}
			fro += v * v
			if j >= i {
				sym.SetSym(i, j, v)
			}
		}
	}
	if math.Abs(tr-trace) > 1e-12*trace {
		t.Fatalf("kernel trace %v, want %v", tr, trace)
	}
	// Semidefinite to rounding: K + tau I has a Cholesky factor, which
	// needs its smallest eigenvalue above about -n eps ||K|| only.
	shift := 20 * float64(n) * fuzzEps * math.Sqrt(fro)
	for i := 0; i < n; i++ {
		sym.SetSym(i, i, sym.At(i, i)+shift)
	}
	var ch mat.Cholesky
	if shift > 0 && !ch.Factorize(sym) {
		t.Fatalf("kernel matrix has an eigenvalue below -%.3g (Frobenius norm %v)", shift, math.Sqrt(fro))
	}
}

// checkLabelVectors recomputes eq. 5 from kernel values.
func checkLabelVectors(t *testing.T, u *mat.Dense, kern linalg.Kernel, x *mat.Dense, labeled, y []int, classes int) {
	t.Helper()
	n, _ := x.Dims()
	if rr, cc := u.Dims(); rr != n || cc != classes {
		t.Fatalf("LabelVectors is %dx%d, want %dx%d", rr, cc, n, classes)
	}
	s := make([]float64, classes)
	for i := 0; i < n; i++ {
		clear(s)
		var d, abs float64
		for a, j := range labeled {
			v := kern.Eval(x.RawRowView(i), x.RawRowView(j))
			s[y[a]] += v
			d += v
			abs += math.Abs(v)
		}
		row := u.RawRowView(i)
		if !allFinite(row) {
			t.Fatalf("label-aware row %d = %v", i, row)
		}
		if math.Abs(d) <= 1e-9*abs {
			continue // the sign of the degree is rounding
		}
		for c := range s {
			want := 1 / float64(classes)
			if d > 0 {
				want = s[c] / d
			}
			if math.Abs(row[c]-want) > 1e-10*abs/math.Abs(d) {
				t.Fatalf("label-aware u_%d(%d) = %v, measured %v (degree %v)", c, i, row[c], want, d)
			}
		}
	}
}

// checkEigen checks that the columns of v are orthonormal eigenvectors of
// the top eigenvalues of g (of its normalised form for LaplacianBottom),
// with the values as Build reports them.
func checkEigen(t *testing.T, g *mat.SymDense, v *mat.Dense, values []float64, e Eigen) {
	t.Helper()
	n, k := v.Dims()
	a := mat.NewSymDense(n, nil)
	a.CopySym(g)
	if e == LaplacianBottom {
		if err := NormalizeKernel(a); err != nil {
			t.Fatalf("Build took LaplacianBottom eigenvectors of a kernel with %v", err)
		}
	}
	all, ok := symValues(a)
	scale := mat.Norm(a, 2) // Frobenius, >= the spectral norm
	if ok {
		scale = math.Max(math.Abs(all[0]), math.Abs(all[n-1]))
	}
	tol := 1e-8 * math.Max(scale, 1e-300)
	var vtv mat.Dense
	vtv.Mul(v.T(), v)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(vtv.At(i, j)-want) > 1e-10 {
				t.Fatalf("eigenvectors not orthonormal: v_%dᵀv_%d = %v", i, j, vtv.At(i, j))
			}
		}
	}
	for j := 0; j < k; j++ {
		lambda := values[j]
		if e == LaplacianBottom {
			lambda = 1 - lambda
		}
		if j > 0 && values[j] != values[j-1] && (values[j] > values[j-1]) == (e == KernelTop) {
			t.Fatalf("values %v out of order", values)
		}
		if ok && math.Abs(lambda-all[n-1-j]) > tol {
			t.Fatalf("eigenvalue %d = %v, the matrix has %v (spectrum %v)", j, lambda, all[n-1-j], all)
		}
		var av mat.VecDense
		col := v.ColView(j)
		av.MulVec(a, col)
		av.AddScaledVec(&av, -lambda, col)
		if res := mat.Norm(&av, 2); res > tol {
			t.Fatalf("eigenpair %d: residual %v for value %v (||A|| %v)", j, res, lambda, scale)
		}
	}
}

// symValues returns the eigenvalues of a in ascending order, or false if
// gonum's EigenSym cannot give them: its Dsterf panics on a split-off
// tridiagonal block of norm below about 1e-123 (entries of an RBF kernel
// matrix can be that small). Entries below 1e-100 of the largest are set
// to zero first, a change of the eigenvalues far below the tolerances,
// which avoids most such blocks.
func symValues(a *mat.SymDense) (vals []float64, ok bool) {
	defer func() {
		if recover() != nil {
			vals, ok = nil, false
		}
	}()
	n := a.SymmetricDim()
	var big float64
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			big = math.Max(big, math.Abs(a.At(i, j)))
		}
	}
	b := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if v := a.At(i, j); math.Abs(v) > 1e-100*big {
				b.SetSym(i, j, v)
			}
		}
	}
	var es mat.EigenSym
	if !es.Factorize(b, false) {
		return nil, false
	}
	return es.Values(nil), true
}

// checkNormalize checks NormalizeKernel on a copy of g against its
// documented result.
func checkNormalize(t *testing.T, g *mat.SymDense) {
	t.Helper()
	if err := robust.Call(t, "NormalizeKernel(nil)", func() error { return NormalizeKernel(nil) }); err == nil {
		t.Fatal("NormalizeKernel(nil) succeeded")
	}
	n := g.SymmetricDim()
	a := mat.NewSymDense(n, nil)
	a.CopySym(g)
	d := make([]float64, n)
	ok := true
	for i := range d {
		for j := 0; j < n; j++ {
			d[i] += g.At(i, j)
		}
		ok = ok && d[i] > 0
	}
	err := NormalizeKernel(a)
	if err != nil {
		inVocabulary(t, "NormalizeKernel", err)
		if ok {
			t.Fatalf("NormalizeKernel: %v, with degrees %v", err, d)
		}
		if !mat.Equal(a, g) {
			t.Fatal("NormalizeKernel changed the matrix and failed")
		}
		return
	}
	if !ok {
		t.Fatalf("NormalizeKernel accepted degrees %v", d)
	}
	for i := 0; i < n; i++ {
		var s, abs float64
		for j := 0; j < n; j++ {
			want := g.At(i, j) / math.Sqrt(d[i]*d[j])
			if got := a.At(i, j); !isFinite(got) || math.Abs(got-want) > 1e-14*math.Abs(want)+1e-300 {
				t.Fatalf("normalised (%d,%d) = %v, want %v", i, j, got, want)
			}
			s += a.At(i, j) * math.Sqrt(d[j])
			abs += math.Abs(a.At(i, j)) * math.Sqrt(d[j])
		}
		if math.Abs(s-math.Sqrt(d[i])) > 1e-12*abs {
			t.Fatalf("D^-1/2 K D^-1/2 sqrt(d) differs from sqrt(d) in row %d: %v vs %v", i, s, math.Sqrt(d[i]))
		}
	}
}
