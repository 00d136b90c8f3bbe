package spectral_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/robust"
	"ukm/linalg"
	"ukm/models/spectral"
	"ukm/qp"
)

// FuzzDesigns calls every design of the package (each exported type at its
// zero value, and Diffusion, GaussianField, Spreading, SKL and Order at
// settings from the bytes) on a small problem from the bytes: n <= 12
// points, d <= n orthonormal eigenvectors (the Q of a grid matrix with
// eigenvalues from the bytes — zero, tiny, negative, repeated, near-equal
// or huge, in any order —, the top eigenpairs of a grid kernel XXᵀ or the
// bottom ones of a grid graph's Laplacian), distinct labeled points, one
// class (T = 11ᵀ) or two to four (spectral.Target), possibly one point per
// class. It checks independently that
//
//   - nothing panics, and the inputs are not modified;
//   - an error is one the documentation allows for that design and input:
//     for a setting out of range (linalg.ErrSettings), a spectrum without a
//     positive weight (linalg.ErrDegenerate), for SKL a decay factor whose
//     powers overflow (qp.ErrDecayRange), and for SKL and Order an outcome
//     error (linalg.IsOutcome), ErrInfeasible only when a = Dᵀvec(T) is zero;
//   - mu has length d, is finite and non-negative and sums to n;
//   - Cluster, Truncated, Diffusion, GaussianField and Spreading give their
//     documented transforms of the eigenvalues, normalised;
//   - SKL meets mu_i >= Decay·mu_{i+1}, Order mu_i >= mu_{i+1} and
//     Imp-Order that chain over the eigenvalues above ZeroTol·max(1, |λ|max)
//     (recomputed here); each has aᵀmu > 0 and an alignment objective
//     muᵀHmu/(aᵀmu)² (H_ij = (v_iᵀv_j)², a_i = ‖Yᵀv_i‖² on the labeled rows,
//     formed here) not above that of simple feasible points built here
//     (geometric prefixes of the chain), and the optima are ordered as
//     their feasible sets are nested: Imp-Order <= Order = SKL(1) <= SKL(δ);
//   - a second call on the same input, with a dst with room, gives the
//     same mu bit for bit (the stateless designs) or, for SKL, which
//     warm-starts from its last answer, a mu that passes the checks above
//     with the same objective; an SKL used before on another decay factor
//     gives the optimum of a fresh one.
func FuzzDesigns(f *testing.F) {
	f.Add([]byte{10, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{8, 8, 4, 5, 5, 0, 1, 2, 200, 30, 77, 1, 0, 9})
	f.Add([]byte{12, 5, 1, 64, 64, 64, 3, 17, 90})
	f.Add([]byte{9, 4, 2, 129, 127, 130, 126, 1, 40, 41})
	f.Add([]byte{6, 6, 8, 255, 7, 3, 4, 9, 8})
	f.Add([]byte{5, 2, 3, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) { designsContract(t, data) })
}

// fuzzProblem is one input of FuzzDesigns with the QP data formed here.
type fuzzProblem struct {
	b       *spectral.Basis
	labeled []int
	target  *mat.Dense
	a       []float64 // a_i = ‖Yᵀv_i‖² on the labeled rows
	// The problem in exact arithmetic, as far as it can be told: H_ij =
	// (v_iᵀv_j)² and a with the columns of Vl that are zero but for
	// rounding (norm below 1e-8; V is orthonormal) left out, and entries of
	// a at rounding level (below aNoise) taken for zero. Such columns can
	// look as good as real ones to a solver (a_i²/H_ii is a ratio of two
	// rounding errors), so objectives are compared on this problem.
	h      *mat.Dense
	ac     []float64
	aNoise float64
}

// designsContract is FuzzDesigns' check of one input.
func designsContract(t *testing.T, data []byte) {
	if len(data) < 4 {
		return
	}
	n := 2 + int(data[0])%11
	d := 1 + int(data[1])%n
	mode := data[2]
	bs := robust.NewBytes(data[3:])
	next := bs.Next
	p := fuzzBasis(bs, n, d, mode)
	l := 1 + int(next())%n
	p.labeled = bs.Perm(n)[:l]
	classes := min(1+int(next())%4, l)
	if classes == 1 {
		p.target = mat.NewDense(l, 1, nil)
		for i := 0; i < l; i++ {
			p.target.Set(i, 0, 1)
		}
	} else {
		y := make([]int, l)
		for i := range y {
			y[i] = i // every class occurs
			if i >= classes {
				y[i] = int(next()) % classes
			}
		}
		var err error
		if p.target, err = spectral.Target(y, classes); err != nil {
			t.Fatalf("Target(%v, %d): %v", y, classes, err)
		}
	}
	p.form()

	decays := []float64{1, 1.5, 2, 4, 16, 1e3, 1e30}
	decay := decays[int(next())%len(decays)]
	sigma2 := []float64{1e-3, 1, 10, 1e6}[int(next())%4]
	eps := []float64{1e-6, 0.1, 1, 1e3}[int(next())%4]
	alpha := []float64{0.5, 0.9, 0.999999, 1e-3}[int(next())%4]
	zeroTol := []float64{1e-3, 0.5, 1e-12}[int(next())%3]
	designs := []spectral.Design{
		spectral.Cluster{},
		spectral.Truncated{},
		spectral.Diffusion{},
		spectral.Diffusion{Sigma2: sigma2},
		spectral.GaussianField{},
		spectral.GaussianField{Eps: eps},
		spectral.Spreading{},
		spectral.Spreading{Alpha: alpha},
		spectral.NewSKL(0),
		spectral.NewSKL(1),
		spectral.NewSKL(decay),
		spectral.Order{},
		spectral.Order{Improved: true},
		spectral.Order{Improved: true, ZeroTol: zeroTol},
	}
	// objective of the QP designs by name, for the nesting of the optima
	objs := map[string]float64{}
	for _, des := range designs {
		name := designName(des)
		mu, err := p.call(t, name, des, nil)
		if !p.checkError(t, name, des, err) {
			continue
		}
		p.checkMu(t, name, mu)
		obj, ok := p.checkDesign(t, name, des, mu)
		if ok {
			objs[name] = obj
		}
		// a second call and a call with a dst with room
		dst := make([]float64, d+2, 2*d+3)
		again, err := p.call(t, name+"/again", des, dst)
		if err != nil {
			t.Fatalf("%s: second call: %v (first gave %v)", name, err, mu)
		}
		if &again[0] != &dst[0] {
			t.Errorf("%s: dst of capacity %d not reused", name, cap(dst))
		}
		if _, stateful := des.(*spectral.SKL); stateful {
			// Warm-started from the first answer, SKL may polish it within
			// the solver's tolerance (where the objective is flat, mu moves
			// by more than the objective): the same optimum, checked anew.
			p.checkMu(t, name+"/again", again)
			if obj2, ok2 := p.checkDesign(t, name+"/again", des, again); ok && ok2 && !closeObj(obj, obj2) {
				t.Fatalf("%s: second call gives objective %v (mu = %v), first %v (mu = %v)", name, obj2, again, obj, mu)
			}
			continue
		}
		if !slices.Equal(again, mu) {
			t.Fatalf("%s: second call gives %v, first %v", name, again, mu)
		}
	}
	// One SKL used first on another decay factor, then on this one: the
	// optimum of a fresh SKL (the optimal mu need not be unique).
	s := spectral.NewSKL(decays[(slices.Index(decays, decay)+1)%len(decays)])
	if _, err := p.call(t, "SKL/reused/first", s, nil); err == nil || linalg.IsOutcome(err) || errors.Is(err, qp.ErrDecayRange) {
		s.Decay = decay
		name := "reused " + designName(s)
		mu, err := p.call(t, name, s, nil)
		if p.checkError(t, name, s, err) {
			p.checkMu(t, name, mu)
			obj, ok := p.checkDesign(t, name, s, mu)
			fresh, fok := objs[designName(spectral.NewSKL(decay))]
			if ok && fok && !closeObj(obj, fresh) {
				t.Errorf("%s: objective %v, a fresh SKL %v", name, obj, fresh)
			}
		}
	}
	// Nested feasible sets: Imp-Order's contains Order's, which is SKL(1)'s,
	// which contains SKL(δ)'s.
	ord, ok1 := objs[designName(spectral.Order{})]
	skl1, ok2 := objs[designName(spectral.NewSKL(1))]
	if ok1 && ok2 && !closeObj(ord, skl1) {
		t.Errorf("Order objective %v, SKL(1) %v: the same problem", ord, skl1)
	}
	for name, o := range objs {
		switch {
		case ok1 && name[:3] == "Imp" && !below(o, ord):
			t.Errorf("%s objective %v above Order's %v", name, o, ord)
		case ok2 && name[:3] == "SKL" && !below(skl1, o):
			t.Errorf("%s objective %v below SKL(1)'s %v", name, o, skl1)
		}
	}
}

// designName names a design with its settings.
func designName(des spectral.Design) string {
	if s, ok := des.(*spectral.SKL); ok {
		return fmt.Sprintf("SKL{Decay:%v}", s.Decay)
	}
	return fmt.Sprintf("%s%+v", des.Name(), des)
}

// fuzzBasis builds the basis of an input (mode&3 chooses the kind, see
// FuzzDesigns).
func fuzzBasis(bs *robust.Bytes, n, d int, mode byte) *fuzzProblem {
	next := bs.Next
	b := &spectral.Basis{Values: make([]float64, d), V: mat.NewDense(n, d, nil)}
	switch mode % 4 {
	case 0, 3: // orthonormalised grid, eigenvalues from the bytes
		var qr mat.QR
		qr.Factorize(bs.Grid(n, d))
		var q mat.Dense
		qr.QTo(&q)
		b.V.Copy(q.Slice(0, n, 0, d))
		prev := 1.0
		for i := range b.Values {
			c := next()
			v := 0.0
			switch {
			case c == 255:
				v = 1e308
			case c%10 == 1:
				v = 1e-300
			case c%10 == 2:
				v = 1e-12
			case c%10 == 3:
				v = -1e-15
			case c%10 == 4:
				v = prev
			case c%10 == 5:
				v = 1
			case c%10 == 6:
				v = float64(c%17) / 4
			case c%10 == 7:
				v = -float64(1+c%4) / 4
			case c%10 == 8:
				v = 1e6
			case c%10 == 9:
				v = math.Nextafter(prev, math.Inf(1))
			}
			b.Values[i], prev = v, v
		}
		switch mode >> 2 % 4 {
		case 1:
			sortPairs(b, true)
		case 2:
			sortPairs(b, false)
		}
	case 1, 2: // top eigenpairs of a grid kernel, bottom ones of a grid graph's Laplacian
		x := bs.Grid(n, 1+int(next())%3)
		k := mat.NewSymDense(n, nil)
		if mode%4 == 1 {
			k.SymOuterK(1, x)
		} else {
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					var dist float64
					for c := 0; c < x.RawMatrix().Cols; c++ {
						dist += math.Abs(x.At(i, c) - x.At(j, c))
					}
					if dist <= 0.5 {
						k.SetSym(i, j, -1)
						k.SetSym(i, i, k.At(i, i)+1)
						k.SetSym(j, j, k.At(j, j)+1)
					}
				}
			}
		}
		var es mat.EigenSym
		if !es.Factorize(k, true) {
			panic("FuzzDesigns: eigendecomposition failed")
		}
		vals := es.Values(nil) // ascending
		var vecs mat.Dense
		es.VectorsTo(&vecs)
		for c := 0; c < d; c++ {
			src := c // Laplacian: the smallest, ascending
			if mode%4 == 1 {
				src = n - 1 - c // kernel: the largest, descending
			}
			b.Values[c] = vals[src]
			for r := 0; r < n; r++ {
				b.V.Set(r, c, vecs.At(r, src))
			}
		}
	}
	return &fuzzProblem{b: b}
}

// sortPairs sorts the eigenpairs of b by value, descending or ascending.
func sortPairs(b *spectral.Basis, desc bool) {
	n, d := b.Dims()
	idx := make([]int, d)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		if desc {
			return b.Values[idx[i]] > b.Values[idx[j]]
		}
		return b.Values[idx[i]] < b.Values[idx[j]]
	})
	vals, v := slices.Clone(b.Values), mat.DenseCopyOf(b.V)
	for c, src := range idx {
		b.Values[c] = vals[src]
		for r := 0; r < n; r++ {
			b.V.Set(r, c, v.At(r, src))
		}
	}
}

// form computes a, H and the exact-arithmetic a of the QP from the basis,
// labels and target.
func (p *fuzzProblem) form() {
	_, d := p.b.Dims()
	l, r := p.target.Dims()
	p.h = mat.NewDense(d, d, nil)
	p.a = make([]float64, d)
	p.ac = make([]float64, d)
	// Yᵀv_i is computed to about l·ε·‖Y‖_F (‖v_i‖ <= 1), a_i to its square.
	p.aNoise = 1e-20 * mat.Norm(p.target, 2) * mat.Norm(p.target, 2)
	noise := make([]bool, d)
	for i := 0; i < d; i++ {
		var nrm float64
		for k := 0; k < l; k++ {
			v := p.b.V.At(p.labeled[k], i)
			nrm += v * v
		}
		noise[i] = math.Sqrt(nrm) < 1e-8
	}
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			var g float64
			for k := 0; k < l; k++ {
				g += p.b.V.At(p.labeled[k], i) * p.b.V.At(p.labeled[k], j)
			}
			if !noise[i] && !noise[j] {
				p.h.Set(i, j, g*g)
			}
		}
		for c := 0; c < r; c++ {
			var s float64
			for k := 0; k < l; k++ {
				s += p.target.At(k, c) * p.b.V.At(p.labeled[k], i)
			}
			p.a[i] += s * s
		}
		if !noise[i] && p.a[i] > p.aNoise {
			p.ac[i] = p.a[i]
		}
	}
}

// call calls des, failing on a panic or a modified input.
func (p *fuzzProblem) call(t *testing.T, name string, des spectral.Design, dst []float64) (mu []float64, err error) {
	t.Helper()
	vals, v := slices.Clone(p.b.Values), mat.DenseCopyOf(p.b.V)
	lab, tgt := slices.Clone(p.labeled), mat.DenseCopyOf(p.target)
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s: Coefficients panicked: %v", name, r)
			}
		}()
		mu, err = des.Coefficients(context.Background(), dst, p.b, p.labeled, p.target)
	}()
	if !slices.Equal(vals, p.b.Values) || !mat.Equal(v, p.b.V) || !slices.Equal(lab, p.labeled) || !mat.Equal(tgt, p.target) {
		t.Fatalf("%s: Coefficients modified its input", name)
	}
	return mu, err
}

// checkError checks err against what the documentation allows for des on
// this input; it reports whether there is a mu to check.
func (p *fuzzProblem) checkError(t *testing.T, name string, des spectral.Design, err error) bool {
	t.Helper()
	if err != nil && !errors.Is(err, linalg.ErrInvalid) && !linalg.IsOutcome(err) {
		t.Fatalf("%s: an error of no kind of the vocabulary: %v", name, err)
	}
	_, d := p.b.Dims()
	want := error(nil) // the one input error allowed, if any
	switch des := des.(type) {
	case spectral.Diffusion:
		if des.Sigma2 == 0 {
			want = linalg.ErrSettings
		}
	case spectral.GaussianField:
		if des.Eps == 0 {
			want = linalg.ErrSettings
		}
	case spectral.Truncated, spectral.Spreading:
		if slices.Max(p.b.Values) <= 0 {
			want = linalg.ErrDegenerate
		}
	case *spectral.SKL:
		δ := des.Decay
		if δ == 0 {
			δ = spectral.DefaultDecay
		}
		if math.Pow(δ, float64(2*(d-1))) > 1e250 {
			want = qp.ErrDecayRange
		}
	}
	_, isQP := des.(*spectral.SKL)
	if _, ok := des.(spectral.Order); ok {
		isQP = true
	}
	switch {
	case err == nil:
		if want == linalg.ErrSettings || want == linalg.ErrDegenerate {
			t.Fatalf("%s: no error, want one wrapping %v", name, want)
		}
		return true
	case want != nil && errors.Is(err, want):
	case isQP && errors.Is(err, linalg.ErrInfeasible):
		if amax := slices.Max(p.a); amax > p.aNoise {
			t.Fatalf("%s: %v, but a has the entry %v > 0 (a feasible point exists)", name, err, amax)
		}
	case isQP && linalg.IsOutcome(err):
		t.Logf("%s: %v", name, err) // an honest failure
	default:
		t.Fatalf("%s: unexpected error: %v", name, err)
	}
	return false
}

// checkMu checks the contract of every design: d finite non-negative
// coefficients summing to n.
func (p *fuzzProblem) checkMu(t *testing.T, name string, mu []float64) {
	t.Helper()
	n, d := p.b.Dims()
	if len(mu) != d {
		t.Fatalf("%s: %d coefficients, want %d", name, len(mu), d)
	}
	var sum float64
	for i, v := range mu {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("%s: coefficient %d is %v (mu = %v, values %v)", name, i, v, mu, p.b.Values)
		}
		sum += v
	}
	// one scaling and a sum of d <= 12 terms: exact to rounding
	if math.Abs(sum-float64(n)) > 1e-12*float64(n) {
		t.Fatalf("%s: coefficients sum to %v, want %d (mu = %v, values %v)", name, sum, n, mu, p.b.Values)
	}
}

// checkDesign checks mu against what des promises beyond the common
// contract. For the QP designs it returns the alignment objective.
func (p *fuzzProblem) checkDesign(t *testing.T, name string, des spectral.Design, mu []float64) (float64, bool) {
	t.Helper()
	vals := p.b.Values
	w := make([]float64, len(vals)) // the unnormalised transform
	// the rounding of the library's transform relative to this one's, in
	// ulps of mu: 1/(1 - q) has condition number q/(1 - q) in q
	cond := 1.0
	switch des := des.(type) {
	case spectral.Cluster:
		for i := range w {
			w[i] = 1
		}
	case spectral.Truncated:
		for i, v := range vals {
			w[i] = math.Max(v, 0)
		}
	case spectral.Diffusion:
		lmin := slices.Min(vals)
		for i, v := range vals {
			w[i] = math.Exp(-des.Sigma2 * (v - lmin) / 2)
		}
	case spectral.GaussianField:
		for i, v := range vals {
			w[i] = 1 / (math.Max(v, 0) + des.Eps)
		}
	case spectral.Spreading:
		a := des.Alpha
		if a == 0 {
			a = spectral.DefaultAlpha
		}
		top := slices.Max(vals)
		cond = 1 / (1 - a)
		for i, v := range vals {
			if v > 0 {
				w[i] = 1 / (1 - a*(v/top)) // v/top first: a·v may underflow
			}
		}
	case *spectral.SKL:
		δ := des.Decay
		if δ == 0 {
			δ = spectral.DefaultDecay
		}
		return p.checkQP(t, name, mu, chainAll(len(vals)), δ)
	case spectral.Order:
		chain := chainAll(len(vals))
		if des.Improved {
			tol := des.ZeroTol
			if tol == 0 {
				tol = spectral.DefaultZeroTol
			}
			scale := 1.0
			for _, v := range vals {
				scale = math.Max(scale, math.Abs(v))
			}
			chain = chain[:0]
			for i, v := range vals {
				if math.Abs(v) > tol*scale {
					chain = append(chain, i)
				}
			}
		}
		return p.checkQP(t, name, mu, chain, 1)
	default:
		t.Fatalf("%s: no check for this design", name)
	}
	// Normalise w here, scaling by its largest entry first so that the sum
	// cannot overflow.
	n, _ := p.b.Dims()
	wmax := slices.Max(w)
	var s float64
	for i := range w {
		w[i] /= wmax
		s += w[i]
	}
	for i := range w {
		want := w[i] * float64(n) / s
		if math.Abs(mu[i]-want) > 1e-12*cond*(float64(n)+want) {
			t.Fatalf("%s: mu = %v, want %v (values %v)", name, mu, want, vals)
		}
	}
	return 0, false
}

func chainAll(d int) []int {
	c := make([]int, d)
	for i := range c {
		c[i] = i
	}
	return c
}

// checkQP checks the decay constraints mu_c[k] >= δ·mu_c[k+1] along chain
// and that the objective of mu is not above that of the feasible points
// e_{c0}δ^0 + e_{c1}δ^-1 + ... truncated after k chain entries, with or
// without weight 1 on the coordinates off the chain, and of e_i for each i
// off the chain.
func (p *fuzzProblem) checkQP(t *testing.T, name string, mu []float64, chain []int, δ float64) (float64, bool) {
	t.Helper()
	mmax := slices.Max(mu)
	for k := 0; k+1 < len(chain); k++ {
		i, j := chain[k], chain[k+1]
		if mu[i] < δ*mu[j]-1e-9*mmax {
			t.Fatalf("%s: mu_%d = %v < %v·mu_%d = %v (mu = %v)", name, i, mu[i], δ, j, δ*mu[j], mu)
		}
	}
	// Without a column of a real a the problem has no feasible point in
	// exact arithmetic; with mu (almost) all on columns of rounding errors
	// the solver has taken a column of noise for the best one, which in
	// floating point is as right as not: nothing to compare.
	amax := slices.Max(p.ac)
	if amax == 0 {
		return 0, false
	}
	var am, sum float64
	for i, v := range mu {
		am += p.ac[i] * v
		sum += v
	}
	if am <= 1e-8*amax*sum {
		return 0, false
	}
	obj, _ := p.objective(mu)
	d := len(mu)
	on := make([]bool, d)
	for _, i := range chain {
		on[i] = true
	}
	var cands [][]float64
	for k := 1; k <= len(chain); k++ {
		for _, off := range []float64{0, 1} {
			c := make([]float64, d)
			for i := range c {
				if !on[i] {
					c[i] = off
				}
			}
			for m := 0; m < k; m++ {
				c[chain[m]] = math.Pow(δ, -float64(m))
			}
			cands = append(cands, c)
		}
	}
	for i := range d {
		if !on[i] {
			c := make([]float64, d)
			c[i] = 1
			cands = append(cands, c)
		}
	}
	for _, c := range cands {
		if o, ok := p.objective(c); ok && !below(obj, o) {
			t.Errorf("%s: objective %v of mu = %v above %v of the feasible %v", name, obj, mu, o, c)
		}
	}
	return obj, true
}

// objective returns muᵀHmu/(aᵀmu)², the SKL objective at the feasible point
// mu/aᵀmu of the exact-arithmetic problem, and false when aᵀmu = 0.
func (p *fuzzProblem) objective(mu []float64) (float64, bool) {
	var am float64
	for i, v := range mu {
		am += p.ac[i] * v
	}
	if !(am > 0) {
		return 0, false
	}
	var q float64
	for i := range mu {
		for j := range mu {
			q += mu[i] * p.h.At(i, j) * mu[j]
		}
	}
	return q / (am * am), true
}

// below reports x <= y but for a relative 1e-6: the QP is solved to KKT
// residuals of about 1e-10, and the objective is flat at the optimum.
func below(x, y float64) bool { return x <= y+1e-6*math.Abs(y) }

func closeObj(x, y float64) bool { return below(x, y) && below(y, x) }
