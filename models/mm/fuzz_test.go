package mm

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/robust"
	"ukm/linalg"
	"ukm/models/spectral"
	"ukm/models/svm"
)

// FuzzLearn runs Learn (one problem) or LearnSum (the one-versus-all
// problems of 3 or 4 classes) on small bases built from the bytes: a raw
// grid matrix (not orthonormal, sometimes with a zero column), an
// orthonormalised grid matrix, or the top eigenvectors of a rank-deficient
// PSD grid Gram matrix (repeated and zero eigenvalues); decay from 1 to
// 1e100, trace from 1e-3 to 1e300, C from 1e-3 to 1e3, short iteration
// limits, and now and then one bad argument (NaN in the basis, a bad
// eigenvalue, a bad index, a zero label, Decay < 1, a negative trace).
//
// Checked independently of the code under test:
//   - OneVsAll gives the documented vectors, or an error of kind
//     linalg.ErrLabels when a class is missing;
//   - input judged bad from the definitions gets an error wrapping
//     linalg.ErrInvalid and no Result; good input gets no error;
//   - a Result has the documented shapes, finite entries, alpha in the box
//     and on the plane yᵀalpha = 0, theta on the simplex, mu equal to the
//     theta-combination of the extreme rays (computed from their
//     definition) and hence in the cone with the given trace, and a history
//     that is strictly decreasing and ends at Objective;
//   - Objective and Upper equal the SVM dual and primal values recomputed
//     from Mu, Alpha and Bias with a kernel block formed here;
//   - Lower is at least the bound 2 sum(alpha) - max_k a_k(alpha) at the
//     returned alpha, and (weak duality) at most the SVM primal value of an
//     independent svm.Train solve at the returned mu, at every extreme ray
//     and at the barycentre of the rays; Objective is at most that primal
//     value at the returned mu;
//   - Gap is (Upper - Lower)/Upper, and a Converged status means that the
//     gap recomputed from the Upper measured here is within Tol;
//   - a Learner gives the same result, Objective gives a finite value and
//     a non-positive gradient at the returned mu (and rejects a negative
//     or NaN coefficient), Decision values are finite and match the
//     kernel expansion, and the Design returns mu rescaled to sum n.
func FuzzLearn(f *testing.F) {
	f.Add([]byte{10, 3, 1, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{12, 5, 2, 17, 9, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{4, 2, 0, 64, 64, 64, 7, 8})
	f.Add([]byte{9, 6, 1, 200, 40, 129, 127, 130, 126, 1, 3})
	f.Add([]byte{13, 4, 2, 45, 3, 11, 250, 14, 91, 33, 2, 5, 77})
	f.Fuzz(func(t *testing.T, data []byte) { learnContract(t, data) })
}

// Settings tables: the index comes from the bytes. Decay 0.5 and Trace -1
// are invalid.
var (
	fuzzDecay = []float64{0, 1, 1.5, 2, 10, 1e3, 1e100, 0.5}
	fuzzTrace = []float64{0, 0, 1e-3, 1, 1e3, 1e150, 1e300, -1}
	fuzzIter  = []int{0, 1, 3, 20}
	fuzzTol   = []float64{0, 1e-2, 1e-7}
)

// learnContract is FuzzLearn's check of one input.
func learnContract(t *testing.T, data []byte) {
	if len(data) < 6 {
		return
	}
	n := 2 + int(data[0])%12
	q := 1 + int(data[1])%6
	mode := int(data[2]) % 3
	sa, sb := int(data[3]), int(data[4])
	bs := robust.NewBytes(data[5:])
	next := bs.Next

	s := &Settings{
		Decay:   fuzzDecay[sa%8],
		C:       math.Pow(10, float64(sa/8%7)-3),
		Trace:   fuzzTrace[sb%8],
		MaxIter: fuzzIter[sb/8%4],
		Tol:     fuzzTol[int(next())%3],
	}
	// A bounded inner solve keeps badly scaled problems fast; 3 provokes
	// NumericalFailure.
	s.InnerMaxIter = 20000
	if next()%8 == 0 {
		s.InnerMaxIter = 3
	}
	var bad []error // the kinds a bad argument may be reported as
	if s.Decay < 1 && s.Decay != 0 || s.Trace < 0 {
		bad = append(bad, linalg.ErrSettings)
	}

	b := fuzzBasis(bs, n, &q, mode)
	perm := bs.Perm(n)
	labeled := perm[:1+int(next())%n]
	l := len(labeled)

	// Class labels and their one-versus-all vectors from the definition.
	classes := 2 + max(0, int(next()%4)-1)
	cls := make([]int, l)
	present := make([]bool, classes)
	for j := range cls {
		cls[j] = int(next()) % classes
		present[cls[j]] = true
	}
	first := 0
	if classes == 2 {
		first = 1
	}
	var ys [][]float64
	for c := first; c < classes; c++ {
		y := make([]float64, l)
		for j := range y {
			y[j] = -1
			if cls[j] == c {
				y[j] = 1
			}
		}
		ys = append(ys, y)
	}
	allPresent := true
	for _, p := range present {
		allPresent = allPresent && p
	}
	vecs, err := OneVsAll(cls, classes)
	switch {
	case !allPresent:
		if err == nil || !errors.Is(err, linalg.ErrLabels) {
			t.Fatalf("OneVsAll with a missing class: %v", err)
		}
		bad = append(bad, linalg.ErrLabels) // an all -1 vector
	case err != nil:
		t.Fatalf("OneVsAll: %v", err)
	default:
		if len(vecs) != len(ys) {
			t.Fatalf("OneVsAll gave %d vectors, want %d", len(vecs), len(ys))
		}
		for p := range ys {
			for j := range ys[p] {
				if vecs[p][j] != ys[p][j] {
					t.Fatalf("OneVsAll vector %d = %v, want %v", p, vecs[p], ys[p])
				}
			}
		}
	}

	// Now and then one bad argument.
	switch next() % 16 {
	case 0:
		b.V.Set(int(next())%n, int(next())%q, math.NaN())
	case 1:
		b.Values[int(next())%q] = math.Inf(1)
	case 2:
		b.Values = b.Values[:q-1]
	case 3:
		labeled[0] = n
	case 4:
		labeled = append(labeled, labeled[0])
		for p := range ys {
			ys[p] = append(ys[p], ys[p][0])
		}
	case 5:
		ys[0][0] = 0
	}
	bad = append(bad, judge(b, labeled, ys)...)

	ctx := context.Background()
	var res *Result
	if len(ys) == 1 {
		res, err = Learn(ctx, b, labeled, ys[0], s)
	} else {
		res, err = LearnSum(ctx, b, labeled, ys, s)
	}
	if len(bad) > 0 {
		if err == nil || !errors.Is(err, linalg.ErrInvalid) || res != nil {
			t.Fatalf("bad input (%v): error %v, result %v", bad, err, res != nil)
		}
		if !isAny(err, bad) {
			t.Fatalf("bad input (%v): error of another kind: %v", bad, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("good input: %v", err)
	}
	if res == nil {
		t.Fatal("no result and no error")
	}
	checkLearn(t, res, b, labeled, ys, s)

	// A Learner gives the same result; so does the Design, rescaled.
	var lr Learner
	lr.Settings = *s
	var again Result
	if err := lr.LearnSum(ctx, &again, b, labeled, ys); err != nil {
		t.Fatalf("Learner.LearnSum: %v", err)
	}
	if again.Objective != res.Objective || again.Status != res.Status || again.Iterations != res.Iterations {
		t.Fatalf("Learner: objective %v status %v after %d iterations, Learn: %v %v after %d",
			again.Objective, again.Status, again.Iterations, res.Objective, res.Status, res.Iterations)
	}
	tgt := mat.NewDense(l, len(ys), nil)
	for p, y := range ys {
		tgt.SetCol(p, y)
	}
	coef, err := NewDesign(*s).Coefficients(ctx, nil, b, labeled, tgt)
	var sum float64
	for _, v := range res.Mu {
		sum += v
	}
	if err != nil {
		if !(sum > 0) || math.IsInf(sum, 0) {
			return // mu underflowed to zero: ErrDegenerate is documented
		}
		t.Fatalf("Design: %v", err)
	}
	for i, v := range coef {
		if want := res.Mu[i] * float64(n) / sum; math.Abs(v-want) > 1e-12*math.Max(math.Abs(want), 1e-300) {
			t.Fatalf("Design coefficient %d = %v, want %v", i, v, want)
		}
	}
}

// fuzzBasis builds an n x q basis (q may shrink to n) in one of three
// modes: a raw grid matrix, the Q factor of one, or the top eigenvectors of
// a grid Gram matrix.
func fuzzBasis(bs *robust.Bytes, n int, q *int, mode int) *spectral.Basis {
	next := bs.Next
	vals := func(d int) []float64 {
		v := make([]float64, d)
		for i := range v {
			v[i] = float64(next() % 4) // repeated and zero values
		}
		return v
	}
	switch mode {
	case 0:
		return &spectral.Basis{Values: vals(*q), V: bs.Grid(n, *q)}
	case 1:
		*q = min(*q, n)
		var qr mat.QR
		qr.Factorize(bs.Grid(n, *q))
		var qm mat.Dense
		qr.QTo(&qm)
		return &spectral.Basis{Values: vals(*q), V: mat.DenseCopyOf(qm.Slice(0, n, 0, *q))}
	default:
		*q = min(*q, n)
		x := bs.Grid(n, 1+int(next())%4)
		var g mat.SymDense
		g.SymOuterK(1, x)
		var es mat.EigenSym
		if !es.Factorize(&g, true) {
			return &spectral.Basis{Values: vals(*q), V: bs.Grid(n, *q)}
		}
		ev := es.Values(nil)
		var vec mat.Dense
		es.VectorsTo(&vec)
		// gonum sorts ascending: take the last q, largest first.
		v := mat.NewDense(n, *q, nil)
		w := make([]float64, *q)
		for i := 0; i < *q; i++ {
			w[i] = ev[n-1-i]
			for r := 0; r < n; r++ {
				v.Set(r, i, vec.At(r, n-1-i))
			}
		}
		return &spectral.Basis{Values: w, V: v}
	}
}

// judge returns the error kinds that the documented validation rules give
// for the basis, indices and labels (nil when they are all good).
func judge(b *spectral.Basis, labeled []int, ys [][]float64) []error {
	var bad []error
	n, q := b.Dims()
	if len(b.Values) != q {
		bad = append(bad, linalg.ErrShape)
	}
	for _, v := range b.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			bad = append(bad, linalg.ErrNonFinite)
		}
	}
	for i := 0; i < q; i++ {
		var t float64
		for r := 0; r < n; r++ {
			v := b.V.At(r, i)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				bad = append(bad, linalg.ErrNonFinite)
			}
			t += v * v
		}
		if t == 0 {
			bad = append(bad, linalg.ErrDegenerate)
		}
	}
	seen := map[int]bool{}
	for _, j := range labeled {
		if j < 0 || j >= n || seen[j] {
			bad = append(bad, linalg.ErrLabels)
		}
		seen[j] = true
	}
	for _, y := range ys {
		pos, neg := false, false
		for _, v := range y {
			pos, neg = pos || v == 1, neg || v == -1
			if v != 1 && v != -1 {
				bad = append(bad, linalg.ErrLabels)
			}
		}
		if !pos || !neg {
			bad = append(bad, linalg.ErrLabels)
		}
	}
	return bad
}

func isAny(err error, kinds []error) bool {
	for _, k := range kinds {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// fuzzRays returns the extreme rays of the cone with trace delta from their
// definition: ray k has mu_i = delta w^{k-i} / sum_{m<=k} w^{k-m} t_m =
// delta / sum_{m<=k} w^{i-m} t_m for i <= k (an overflowing power gives the
// limit 0).
func fuzzRays(t []float64, w, delta float64) [][]float64 {
	q := len(t)
	c := make([][]float64, q)
	for k := range c {
		c[k] = make([]float64, q)
		for i := 0; i <= k; i++ {
			var s float64
			for m := 0; m <= k; m++ {
				s += math.Pow(w, float64(i-m)) * t[m]
			}
			c[k][i] = delta / s
		}
	}
	return c
}

// svmTerms holds the SVM values of one alpha and bias on a kernel block,
// summed over the problems: the dual 2 sum(alpha) - betaᵀK beta, the primal
// betaᵀK beta + 2C sum xi, the ray terms a_k = sum_i c_{k,i} z_i², z =
// Vlᵀ beta, and a magnitude bounding the terms summed (for rounding) with
// the slack 2 |b| |yᵀalpha| that an inexact plane constraint allows.
type svmTerms struct {
	dual, primal, twoSum, mag, slack float64
	a                                []float64
}

// add adds problem y's terms at alpha and bias on the block of mu.
func (st *svmTerms) add(vl *mat.Dense, mu []float64, rays [][]float64, y, alpha []float64, bias, c float64) {
	l, q := vl.Dims()
	if st.a == nil {
		st.a = make([]float64, q)
	}
	z := make([]float64, q)
	var sumA, ya float64
	for j, a := range alpha {
		sumA += a
		ya += y[j] * a
		for i := 0; i < q; i++ {
			z[i] += a * y[j] * vl.At(j, i)
		}
	}
	var quad, quadAbs, xi float64
	for j := 0; j < l; j++ {
		f, fAbs := bias, math.Abs(bias)
		for k := 0; k < l; k++ {
			var kjk, kAbs float64
			for i := 0; i < q; i++ {
				kjk += vl.At(j, i) * mu[i] * vl.At(k, i)
				kAbs += math.Abs(vl.At(j, i) * mu[i] * vl.At(k, i))
			}
			f += kjk * alpha[k] * y[k]
			fAbs += kAbs * alpha[k]
			quad += alpha[j] * y[j] * kjk * alpha[k] * y[k]
			quadAbs += alpha[j] * kAbs * alpha[k]
		}
		xi += math.Max(0, 1-y[j]*f)
		st.mag += 2 * c * fAbs
	}
	for k, row := range rays {
		for i, ck := range row {
			st.a[k] += ck * z[i] * z[i]
		}
	}
	st.dual += 2*sumA - quad
	st.primal += quad + 2*c*xi
	st.twoSum += 2 * sumA
	st.mag += 2*sumA + quadAbs + 2*c*float64(l)
	st.slack += 2 * math.Abs(bias*ya)
}

// refPrimal is the SVM primal value, summed over the problems, of an
// independent svm.Train solve on the labeled block of mu (an upper bound on
// J(mu)), with its rounding magnitude; ok is false when the solve fails.
func refPrimal(vl *mat.Dense, mu []float64, ys [][]float64, c float64) (st svmTerms, ok bool) {
	l, q := vl.Dims()
	k := mat.NewSymDense(l, nil)
	for j := 0; j < l; j++ {
		for r := j; r < l; r++ {
			var s float64
			for i := 0; i < q; i++ {
				s += vl.At(j, i) * mu[i] * vl.At(r, i)
			}
			k.SetSym(j, r, s)
		}
	}
	for _, y := range ys {
		m, err := svm.Train(context.Background(), k, y, &svm.Settings{C: c, MaxIter: 20000})
		if err != nil {
			return st, false
		}
		st.add(vl, mu, nil, y, m.Alpha, m.Bias, c)
	}
	return st, true
}

// checkLearn checks a Result returned without error; see FuzzLearn.
func checkLearn(t *testing.T, res *Result, b *spectral.Basis, labeled []int, ys [][]float64, s *Settings) {
	t.Helper()
	n, q := b.Dims()
	l, np := len(labeled), len(ys)
	w, delta, c, tol, maxIter := s.Decay, s.Trace, s.C, s.Tol, s.MaxIter
	if w == 0 {
		w = DefaultDecay
	}
	if delta == 0 {
		delta = float64(n)
	}
	if tol == 0 {
		tol = DefaultTol
	}
	if maxIter == 0 {
		maxIter = DefaultMaxIter
	}
	switch res.Status {
	case linalg.Converged, linalg.IterationLimit, linalg.Stalled, linalg.NumericalFailure:
	default:
		t.Fatalf("status %v", res.Status)
	}
	if res.Problems != np || len(res.Mu) != q || len(res.Theta) != q || len(res.Alpha) != np*l ||
		len(res.Bias) != np || len(res.Coef) != np*q {
		t.Fatalf("shapes: P %d, mu %d, theta %d, alpha %d, bias %d, coef %d for P %d, q %d, l %d",
			res.Problems, len(res.Mu), len(res.Theta), len(res.Alpha), len(res.Bias), len(res.Coef), np, q, l)
	}
	for _, v := range [][]float64{res.Mu, res.Theta, res.Alpha, res.Bias, res.Coef, res.History,
		{res.Objective, res.Upper, res.Lower, res.Gap}} {
		for _, x := range v {
			if !finite(x) {
				t.Fatalf("non-finite value in a result without error (status %v): mu %v alpha %v bias %v objective %v upper %v lower %v gap %v",
					res.Status, res.Mu, res.Alpha, res.Bias, res.Objective, res.Upper, res.Lower, res.Gap)
			}
		}
	}
	if res.Iterations > maxIter || (res.Status == linalg.IterationLimit && res.Iterations != maxIter) {
		t.Fatalf("%d iterations with MaxIter %d, status %v", res.Iterations, maxIter, res.Status)
	}
	if len(res.History) != res.Iterations+1 || res.History[len(res.History)-1] != res.Objective {
		t.Fatalf("history %v for %d iterations, objective %v", res.History, res.Iterations, res.Objective)
	}
	for i := 1; i < len(res.History); i++ {
		if !(res.History[i] < res.History[i-1]) {
			t.Fatalf("history not decreasing at %d: %v", i, res.History)
		}
	}

	// theta on the simplex; mu from the rays by definition.
	tn := make([]float64, q)
	for i := range tn {
		for r := 0; r < n; r++ {
			tn[i] += b.V.At(r, i) * b.V.At(r, i)
		}
	}
	rays := fuzzRays(tn, w, delta)
	var thSum float64
	for k, th := range res.Theta {
		if th < 0 {
			t.Fatalf("theta[%d] = %v < 0", k, th)
		}
		thSum += th
	}
	// Every accepted step moves theta towards a projection P(v) onto the
	// simplex, whose sum is off 1 by the rounding of sums of q entries of v
	// (of size up to about 1e3 here, lambda times the ray terms): 1e-12 q
	// per iteration.
	simplexRound := 1e-12 * float64(q) * float64(res.Iterations+1)
	if math.Abs(thSum-1) > simplexRound {
		t.Fatalf("theta %v sums to %v", res.Theta, thSum)
	}
	var trace, muMax float64
	for i := range res.Mu {
		var want float64
		for k := range rays {
			want += res.Theta[k] * rays[k][i]
		}
		// The rays are computed by a different recursion: relative rounding.
		if math.Abs(res.Mu[i]-want) > 1e-12*float64(q)*math.Max(want, math.Abs(res.Mu[i])) {
			t.Fatalf("mu[%d] = %v, theta-combination of the rays %v (theta %v)", i, res.Mu[i], want, res.Theta)
		}
		if res.Mu[i] < 0 {
			t.Fatalf("mu[%d] = %v < 0", i, res.Mu[i])
		}
		trace += res.Mu[i] * tn[i]
		muMax = math.Max(muMax, res.Mu[i])
	}
	if math.Abs(trace-delta) > (1e-12*float64(q)+simplexRound)*delta {
		t.Fatalf("trace of mu %v = %v, want %v", res.Mu, trace, delta)
	}
	for i := 0; i+1 < q; i++ {
		if res.Mu[i] < w*res.Mu[i+1]*(1-1e-12*float64(q)) {
			t.Fatalf("mu[%d] = %v < w mu[%d] = %v", i, res.Mu[i], i+1, w*res.Mu[i+1])
		}
	}

	// alpha in the box and on the plane; the SVM values recomputed.
	vl := mat.NewDense(l, q, nil)
	for r, j := range labeled {
		vl.SetRow(r, b.V.RawRowView(j))
	}
	var got svmTerms
	for p, y := range ys {
		alpha := res.Alpha[p*l : (p+1)*l]
		var ya float64
		for j, a := range alpha {
			if a < 0 || a > c {
				t.Fatalf("problem %d: alpha[%d] = %v outside [0, %v]", p, j, a, c)
			}
			ya += a * y[j]
		}
		// 1e-9: rounding of the SMO updates, of size <= C (as svm's fuzz).
		if math.Abs(ya) > 1e-9*c*float64(l) {
			t.Fatalf("problem %d: yᵀalpha = %v", p, ya)
		}
		got.add(vl, res.Mu, rays, y, alpha, res.Bias[p], c)
	}
	round := 1e3 * 2.2e-16 * float64(l+q) * got.mag
	if math.Abs(res.Objective-got.dual) > round {
		t.Fatalf("objective %v reported, %v measured (rounding %v)", res.Objective, got.dual, round)
	}
	if math.Abs(res.Upper-got.primal) > round {
		t.Fatalf("upper %v reported, %v measured (rounding %v)", res.Upper, got.primal, round)
	}
	amax := math.Inf(-1)
	for _, a := range got.a {
		amax = math.Max(amax, a)
	}
	if lb := got.twoSum - amax; res.Lower < lb-round-1e3*2.2e-16*float64(q)*amax {
		t.Fatalf("lower %v below the bound %v at the returned alpha", res.Lower, lb)
	}
	if g := (res.Upper - res.Lower) / res.Upper; math.Abs(g-res.Gap) > 1e-12*math.Max(1, math.Abs(g)) {
		t.Fatalf("gap %v reported, (upper - lower)/upper = %v", res.Gap, g)
	}
	if res.Status == linalg.Converged {
		if g := (got.primal - res.Lower) / got.primal; g > tol+(round+got.slack)/got.primal {
			t.Fatalf("Converged with a gap of %v measured (reported %v, Tol %v)", g, res.Gap, tol)
		}
	}

	// Weak duality against independent solves: the returned mu, every
	// extreme ray and the barycentre.
	samples := [][]float64{res.Mu}
	bary := make([]float64, q)
	for _, r := range rays {
		samples = append(samples, r)
		for i, v := range r {
			bary[i] += v / float64(q)
		}
	}
	samples = append(samples, bary)
	for si, mu := range samples {
		ref, ok := refPrimal(vl, mu, ys, c)
		if !ok {
			continue
		}
		slack := 1e3*2.2e-16*float64(l+q)*(got.mag+ref.mag) + got.slack + ref.slack
		if res.Lower > ref.primal+slack {
			t.Fatalf("lower %v above the SVM primal value %v at sample %d (mu %v)", res.Lower, ref.primal, si, mu)
		}
		if si == 0 && res.Objective > ref.primal+slack {
			t.Fatalf("objective %v above the SVM primal value %v at the returned mu", res.Objective, ref.primal)
		}
	}

	// Objective at the returned mu, and its bad-coefficient errors.
	ctx := context.Background()
	var jsum float64
	for p, y := range ys {
		j, grad, err := Objective(ctx, b, labeled, y, res.Mu, s, nil)
		if err != nil && !linalg.IsOutcome(err) {
			t.Fatalf("Objective problem %d: %v", p, err)
		}
		if !finite(j) || len(grad) != q {
			t.Fatalf("Objective problem %d: %v, gradient %v", p, j, grad)
		}
		for i, g := range grad {
			if !(g <= 0) || !finite(g) {
				t.Fatalf("Objective problem %d: gradient[%d] = %v", p, i, g)
			}
		}
		jsum += j
	}
	if slack := round + got.slack; jsum > got.primal+slack {
		t.Fatalf("Objective sums to %v, above the primal value %v at the returned point", jsum, got.primal)
	}
	neg := append([]float64(nil), res.Mu...)
	neg[q-1] = -1
	if _, _, err := Objective(ctx, b, labeled, ys[0], neg, s, nil); !errors.Is(err, linalg.ErrSettings) {
		t.Fatalf("Objective with a negative coefficient: %v", err)
	}
	neg[q-1] = math.NaN()
	if _, _, err := Objective(ctx, b, labeled, ys[0], neg, s, nil); !errors.Is(err, linalg.ErrNonFinite) {
		t.Fatalf("Objective with a NaN coefficient: %v", err)
	}

	// Decision values against the kernel expansion at a few rows.
	dec, err := res.Decision(nil, b)
	if err != nil {
		t.Fatalf("Decision: %v", err)
	}
	if len(dec) != n*np {
		t.Fatalf("Decision gave %d values, want %d", len(dec), n*np)
	}
	for _, r := range []int{0, n - 1} {
		for p, y := range ys {
			f, fAbs := res.Bias[p], math.Abs(res.Bias[p])
			for j, jr := range labeled {
				var k float64
				for i := 0; i < q; i++ {
					k += b.V.At(jr, i) * res.Mu[i] * b.V.At(r, i)
					fAbs += math.Abs(b.V.At(jr, i)*res.Mu[i]*b.V.At(r, i)) * res.Alpha[p*l+j]
				}
				f += y[j] * res.Alpha[p*l+j] * k
			}
			if v := dec[r*np+p]; !finite(v) || math.Abs(v-f) > 1e3*2.2e-16*float64(l+q)*fAbs {
				t.Fatalf("decision value of row %d, problem %d: %v, kernel expansion %v", r, p, v, f)
			}
		}
	}
}
