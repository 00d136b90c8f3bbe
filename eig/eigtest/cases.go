package eigtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/linalg"
)

// testCase is one case of the suite: run solves with s and returns the
// failed checks.
type testCase struct {
	name string
	run  func(s eig.Solver) []string
}

// spectrum is a test matrix with its known eigenvalues.
type spectrum struct {
	name   string
	a      *mat.SymDense
	values []float64 // ascending
	ds     []int     // the numbers of pairs asked for
	large  bool      // dense operator only in short mode
	// top says that only the largest eigenvalues are asked for: the bottom
	// of a geometric spectrum is a cluster of tiny values, a problem no
	// Krylov method solves to these tolerances in reasonable time.
	top bool
}

// operatorKind builds the operator a case solves from the matrix of its
// spectrum, and says by how much the operator's spectrum is shifted from
// the matrix's (sigma: the operator is A - sigma I).
type operatorKind struct {
	name  string
	build func(sp *spectrum) (op eig.Operator, sigma float64, err error)
}

var operatorKinds = []operatorKind{
	{"dense", func(sp *spectrum) (eig.Operator, float64, error) {
		op, err := eig.NewDense(sp.a)
		return op, 0, err
	}},
	{"csr", func(sp *spectrum) (eig.Operator, float64, error) {
		op, err := csrOf(sp.a)
		return op, 0, err
	}},
	{"vector-only", func(sp *spectrum) (eig.Operator, float64, error) {
		op, err := eig.NewDense(sp.a)
		if err != nil {
			return nil, 0, err
		}
		return vectorOnly{op}, 0, nil
	}},
	{"shifted", func(sp *spectrum) (eig.Operator, float64, error) {
		op, err := eig.NewDense(sp.a)
		if err != nil {
			return nil, 0, err
		}
		// A shift of half the spread beyond the largest magnitude moves
		// every spectrum: a positive one further from zero, a negative one
		// across it.
		sigma := -0.5 * (1 + normOf(sp.values))
		return eig.Shift(op, sigma), sigma, nil
	}},
}

// vectorOnly hides the block product of an operator: the solver must do
// with MulVecTo.
type vectorOnly struct{ op eig.Operator }

func (v vectorOnly) Dims() (r, c int)          { return v.op.Dims() }
func (v vectorOnly) MulVecTo(dst, x []float64) { v.op.MulVecTo(dst, x) }

// csrOf returns the nonzero entries of a as a *linalg.CSR.
func csrOf(a *mat.SymDense) (*linalg.CSR, error) {
	n := a.SymmetricDim()
	var ts []linalg.Triplet
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if v := a.At(i, j); v != 0 {
				ts = append(ts, linalg.Triplet{I: i, J: j, V: v})
			}
		}
	}
	return linalg.CSRFromTriplets(n, n, ts)
}

// normOf returns the largest magnitude of the values.
func normOf(values []float64) float64 {
	var m float64
	for _, v := range values {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

var spectra = sync.OnceValue(buildSpectra)

// buildSpectra returns the test matrices. Every random choice is seeded,
// so the suite is the same in every run.
func buildSpectra() []spectrum {
	geometric := make([]float64, 120)
	for i := range geometric {
		geometric[i] = math.Pow(0.8, float64(i)) // decays like a kernel's spectrum
	}
	// A cluster of width 5e-6 at each end, with the uniform rest between.
	clustered := linspace(100, -1, 1)
	for i := 0; i < 6; i++ {
		clustered[99-i] = 2 + 1e-6*float64(i)
		clustered[i] = -2 - 1e-6*float64(i)
	}
	// Multiplicity 5 at each end: more than a default block holds, so a
	// Krylov method must find the missed copies.
	repeated := linspace(80, 0, 1)
	for i := 0; i < 5; i++ {
		repeated[79-i] = 3
		repeated[i] = -2
	}
	// Multiplicity exactly d at each end: asked for d pairs, a solver
	// that misses one copy returns the next value instead.
	exact := linspace(90, 0, 1)
	for i := 0; i < 6; i++ {
		exact[89-i] = 2
		exact[i] = -1
	}
	sp := []spectrum{
		{name: "geometric", values: geometric, ds: []int{10}, large: true, top: true},
		{name: "uniform", values: linspace(120, 0, 1), ds: []int{5}, large: true},
		{name: "clustered", values: clustered, ds: []int{6, 8}, large: true},
		{name: "repeated", values: repeated, ds: []int{7}},
		{name: "exact-multiplicity", values: exact, ds: []int{6}},
		{name: "negative", values: linspace(60, -10, -1), ds: []int{4}},
		{name: "identity", values: constant(30, 1), ds: []int{3}},
		{name: "zero", values: constant(20, 0), ds: []int{2}},
		{name: "scalar", values: []float64{-2.5}, ds: []int{1}},
		{name: "full", values: linspace(40, 0, 1), ds: []int{39, 40}},
	}
	for i := range sp {
		sp[i].a = withSpectrum(sp[i].values, uint64(i+1))
		slices.Sort(sp[i].values)
	}
	// A 2 x 2 matrix given by its entries: eigenvalues -sqrt(5), sqrt(5).
	sp = append(sp, spectrum{
		name:   "two",
		a:      mat.NewSymDense(2, []float64{1, 2, 2, -1}),
		values: []float64{-math.Sqrt(5), math.Sqrt(5)},
		ds:     []int{1, 2},
	})
	return sp
}

// spectrumNamed returns the test matrix of that name.
func spectrumNamed(name string) *spectrum {
	for i, sp := range spectra() {
		if sp.name == name {
			return &spectra()[i]
		}
	}
	panic("eigtest: no test matrix " + name)
}

// cases returns the cases of the suite, the reduced set if short.
func cases(short bool) []testCase {
	var out []testCase
	for i := range spectra() {
		sp := &spectra()[i]
		n := sp.a.SymmetricDim()
		for _, d := range sp.ds {
			for _, which := range []eig.Which{eig.Largest, eig.Smallest} {
				if sp.top && which != eig.Largest {
					continue
				}
				for _, ok := range operatorKinds {
					if short && sp.large && ok.name != "dense" {
						continue
					}
					name := fmt.Sprintf("%s/n=%d/d=%d/%v/op=%s", sp.name, n, d, which, ok.name)
					out = append(out, testCase{name: name, run: func(s eig.Solver) []string {
						return checkPairs(s, sp, d, which, ok)
					}})
				}
			}
		}
	}
	return append(out, inputCases()...)
}

// inputCases checks the error contract of eig.Solver.
func inputCases() []testCase {
	type input struct {
		name   string
		cancel bool
		op     func() (eig.Operator, error)
		d      int
		want   error
		status linalg.Status
	}
	dense := func() (eig.Operator, error) { return eig.NewDense(spectrumNamed("identity").a) } // n = 30
	inputs := []input{
		{"d=0", false, dense, 0, linalg.ErrInvalid, linalg.NotRun},
		{"d=n+1", false, dense, 31, linalg.ErrInvalid, linalg.NotRun},
		{"nil operator", false, func() (eig.Operator, error) { return nil, nil }, 1, linalg.ErrInvalid, linalg.NotRun},
		{"non-square", false, func() (eig.Operator, error) {
			return linalg.CSRFromTriplets(3, 4, []linalg.Triplet{{I: 0, J: 3, V: 1}})
		}, 1, linalg.ErrShape, linalg.NotRun},
		{"cancelled", true, dense, 2, context.Canceled, linalg.Canceled},
	}
	var out []testCase
	for _, in := range inputs {
		out = append(out, testCase{name: "input/" + in.name, run: func(s eig.Solver) []string {
			op, err := in.op()
			if err != nil {
				return []string{fmt.Sprintf("building the operator: %v", err)}
			}
			ctx, cancel := context.WithCancel(context.Background())
			if in.cancel {
				cancel()
			}
			defer cancel()
			res, err := s.Solve(ctx, op, in.d, &eig.Settings{Seed: 1})
			var msgs []string
			if !errors.Is(err, in.want) {
				msgs = append(msgs, fmt.Sprintf("error %v, want one wrapping %q", err, in.want))
			}
			switch {
			case res == nil:
				msgs = append(msgs, "nil Result, want a Result on every call")
			case res.Status != in.status:
				msgs = append(msgs, fmt.Sprintf("status %v, want %v", res.Status, in.status))
			}
			return msgs
		}})
	}
	return out
}

// withSpectrum returns Q diag(values) Qᵀ for a random orthogonal Q drawn
// with the seed.
func withSpectrum(values []float64, seed uint64) *mat.SymDense {
	n := len(values)
	q := randOrtho(n, seed)
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += q.At(i, k) * values[k] * q.At(j, k)
			}
			a.SetSym(i, j, s)
		}
	}
	return a
}

// randOrtho returns a random n x n orthogonal matrix: the Q of the QR
// factorization of a Gaussian matrix drawn with the seed.
func randOrtho(n int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	return &q
}

// linspace returns n values evenly spaced from lo to hi.
func linspace(n int, lo, hi float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		if n == 1 {
			out[i] = lo
			continue
		}
		out[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return out
}

// constant returns n copies of v.
func constant(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}
