package designtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/spectral"
)

// The size of the suite's inputs: n points, d eigenpairs, l labeled points.
const (
	n = 40
	d = 8
	l = 12
)

// TestDesign runs the suite (see the package documentation) on d and reports
// every failure with t.Error. d is used for all the calls in turn, as a
// caller reusing one design would.
func TestDesign(t *testing.T, d spectral.Design) {
	t.Helper()
	for _, f := range Check(d) {
		t.Error(f)
	}
}

// Check runs the suite on des and returns its failures, one line each,
// starting with the name of the check; none means des passes. A panic inside
// des is caught and reported as a failure.
func Check(des spectral.Design) []string {
	r := &run{des: des}
	if des == nil {
		return []string{"Design: nil"}
	}
	if des.Name() == "" {
		r.failf("Name", "empty name")
	}
	in := newInputs()
	want, ok := r.valid("Coefficients", in, in.two)
	r.valid("Coefficients/three-classes", in, in.three)
	if !ok {
		r.canceled(in)
		r.invalid(in, nil)
		return r.fails
	}
	if again, ok := r.valid("Coefficients/repeated", in, in.two); ok && !agree(again, want) {
		r.failf("Coefficients/repeated", "second call gives %v, first %v", again, want)
	}
	r.dst(in, want)
	r.canceled(in)
	r.invalid(in, want)
	if after, ok := r.valid("Coefficients/after-errors", in, in.two); ok && !agree(after, want) {
		r.failf("Coefficients/after-errors", "call after rejected ones gives %v, first %v", after, want)
	}
	return r.fails
}

// inputs are the suite's basis, labeled points and targets.
type inputs struct {
	basis      *spectral.Basis
	labeled    []int
	two, three *mat.Dense
}

// newInputs builds the top d eigenpairs (descending) of an RBF kernel on n
// points from two Gaussian clusters in the plane, and the first l points as
// the labeled set with two- and three-class targets.
func newInputs() inputs {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([][2]float64, n)
	for i := range x {
		c := float64(2*(i%2) - 1)
		x[i] = [2]float64{1.5*c + rng.NormFloat64(), rng.NormFloat64()}
	}
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dx, dy := x[i][0]-x[j][0], x[i][1]-x[j][1]
			k.SetSym(i, j, math.Exp(-(dx*dx+dy*dy)/2))
		}
	}
	var es linalg.EigenSym
	if !es.Factorize(k, true) {
		panic("designtest: eigendecomposition of the suite's kernel failed")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return vals[idx[a]] > vals[idx[b]] })
	b := &spectral.Basis{Values: make([]float64, d), V: mat.NewDense(n, d, nil)}
	for c := 0; c < d; c++ {
		b.Values[c] = vals[idx[c]]
		for r := 0; r < n; r++ {
			b.V.Set(r, c, vecs.At(r, idx[c]))
		}
	}
	in := inputs{basis: b, labeled: make([]int, l)}
	two, three := make([]int, l), make([]int, l)
	for i := range in.labeled {
		in.labeled[i] = 3 * i // points 0, 3, 6, ...: both clusters
		two[i] = in.labeled[i] % 2
		three[i] = i % 3
	}
	var err error
	if in.two, err = spectral.Target(two, 2); err != nil {
		panic(err)
	}
	if in.three, err = spectral.Target(three, 3); err != nil {
		panic(err)
	}
	return in
}

// run holds the state of one Check.
type run struct {
	des   spectral.Design
	fails []string
}

func (r *run) failf(name, format string, args ...any) {
	r.fails = append(r.fails, name+": "+fmt.Sprintf(format, args...))
}

// call calls Coefficients, turning a panic into a failure (ok = false).
func (r *run) call(name string, ctx context.Context, dst []float64, b *spectral.Basis, labeled []int, target *mat.Dense) (mu []float64, err error, ok bool) {
	defer func() {
		if v := recover(); v != nil {
			r.failf(name, "Coefficients panicked: %v", v)
			ok = false
		}
	}()
	mu, err = r.des.Coefficients(ctx, dst, b, labeled, target)
	return mu, err, true
}

// valid calls des on the suite's inputs and checks the coefficients and that
// the inputs are unchanged.
func (r *run) valid(name string, in inputs, target *mat.Dense) ([]float64, bool) {
	vals, v := slices.Clone(in.basis.Values), mat.DenseCopyOf(in.basis.V)
	lab, tgt := slices.Clone(in.labeled), mat.DenseCopyOf(target)
	mu, err, ok := r.call(name, context.Background(), nil, in.basis, in.labeled, target)
	if !ok {
		return nil, false
	}
	if !slices.Equal(vals, in.basis.Values) || !mat.Equal(v, in.basis.V) || !slices.Equal(lab, in.labeled) || !mat.Equal(tgt, target) {
		r.failf(name, "Coefficients modified its input")
	}
	if err != nil {
		r.failf(name, "unexpected error: %v", err)
		return nil, false
	}
	return mu, r.coefficients(name, mu)
}

// coefficients checks the Design contract of mu: d finite, non-negative
// entries summing to n.
func (r *run) coefficients(name string, mu []float64) bool {
	if len(mu) != d {
		r.failf(name, "%d coefficients, want %d (one per eigenpair)", len(mu), d)
		return false
	}
	sum := 0.0
	for i, v := range mu {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			r.failf(name, "coefficient %d is %v, want finite and >= 0 (mu = %v)", i, v, mu)
			return false
		}
		sum += v
	}
	// 1e-9 relative: the normalisation is one scaling, exact to rounding
	if math.Abs(sum-n) > 1e-9*n {
		r.failf(name, "coefficients sum to %v, want n = %d (mu = %v)", sum, n, mu)
		return false
	}
	return true
}

// dst checks that a destination with room is reused and that one without is
// not needed.
func (r *run) dst(in inputs, want []float64) {
	name := "Coefficients/dst"
	dst := make([]float64, d+3, 2*d)
	for i := range dst {
		dst[i] = math.NaN()
	}
	mu, err, ok := r.call(name, context.Background(), dst, in.basis, in.labeled, in.two)
	if !ok {
		return
	}
	switch {
	case err != nil:
		r.failf(name, "unexpected error with a dst: %v", err)
	case len(mu) != d:
		r.failf(name, "%d coefficients with a dst of length %d, want %d", len(mu), len(dst), d)
	case &mu[0] != &dst[0]:
		r.failf(name, "dst of capacity %d not reused for %d coefficients", cap(dst), d)
	case !agree(mu, want):
		r.failf(name, "coefficients %v with a dst, %v without", mu, want)
	}
	name = "Coefficients/small-dst"
	small := make([]float64, 1, 1)
	mu, err, ok = r.call(name, context.Background(), small, in.basis, in.labeled, in.two)
	if ok && (err != nil || !agree(mu, want)) {
		r.failf(name, "with a dst of capacity 1: mu = %v, err = %v; want %v", mu, err, want)
	}
}

// canceled checks that a cancelled context is honoured.
func (r *run) canceled(in inputs) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	name := "Canceled"
	if _, err, ok := r.call(name, ctx, nil, in.basis, in.labeled, in.two); ok && !errors.Is(err, context.Canceled) {
		r.failf(name, "err = %v, want an error wrapping context.Canceled", err)
	}
}

// invalid checks the bad-input cases. Cases a design may ignore (labels, a
// target, V) must then give the coefficients want of the valid input; with
// want nil (the valid input already failed) they must be errors.
func (r *run) invalid(in inputs, want []float64) {
	bg := context.Background()
	b := in.basis
	nanV := mat.DenseCopyOf(b.V)
	nanV.Set(3, 1, math.NaN())
	nanT := mat.DenseCopyOf(in.two)
	nanT.Set(1, 0, math.NaN())
	outside := slices.Clone(in.labeled)
	outside[2] = n
	negative := slices.Clone(in.labeled)
	negative[0] = -1
	repeated := slices.Clone(in.labeled)
	repeated[3] = repeated[1]
	for _, tc := range []struct {
		name      string
		ctx       context.Context
		b         *spectral.Basis
		labeled   []int
		target    *mat.Dense
		ignorable bool
	}{
		{"nil context", nil, b, in.labeled, in.two, false},
		{"nil basis", bg, nil, in.labeled, in.two, false},
		{"empty basis", bg, &spectral.Basis{}, in.labeled, in.two, false},
		{"fewer values than vectors", bg, &spectral.Basis{Values: b.Values[:d-1], V: b.V}, in.labeled, in.two, false},
		{"NaN eigenvalue", bg, &spectral.Basis{Values: append(slices.Clone(b.Values[:d-1]), math.NaN()), V: b.V}, in.labeled, in.two, false},
		{"NaN in V", bg, &spectral.Basis{Values: b.Values, V: nanV}, in.labeled, in.two, true},
		{"labeled index out of range", bg, b, outside, in.two, true},
		{"negative labeled index", bg, b, negative, in.two, true},
		{"repeated labeled index", bg, b, repeated, in.two, true},
		{"target rows do not match", bg, b, in.labeled[:l-1], in.two, true},
		{"nil target", bg, b, in.labeled, nil, true},
		{"NaN in the target", bg, b, in.labeled, nanT, true},
	} {
		name := "Invalid/" + tc.name
		mu, err, ok := r.call(name, tc.ctx, nil, tc.b, tc.labeled, tc.target)
		switch {
		case !ok:
		case err != nil && !errors.Is(err, linalg.ErrInvalid):
			r.failf(name, "err = %v, want an error wrapping linalg.ErrInvalid", err)
		case err == nil && (!tc.ignorable || want == nil):
			r.failf(name, "no error (mu = %v), want an error wrapping linalg.ErrInvalid", mu)
		case err == nil && !agree(mu, want):
			r.failf(name, "no error and mu = %v: a design may ignore this input, but then its coefficients must be those of the valid input %v", mu, want)
		}
	}
}

// agree reports whether a and b agree to 1e-9 relative (a design may
// warm-start from its previous answer).
func agree(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !(math.Abs(a[i]-b[i]) <= 1e-9*(1+math.Abs(b[i]))) {
			return false
		}
	}
	return true
}
