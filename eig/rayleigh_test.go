package eig

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestValuesAreRayleighQuotients checks that every solver reports, for each
// returned unit vector v, the value v'Av (the value that minimises the
// residual of v), in the wanted order.
func TestValuesAreRayleighQuotients(t *testing.T) {
	const n = 300
	rng := rand.New(rand.NewPCG(5, 5))
	x := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < 3; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var s float64
			for c := 0; c < 3; c++ {
				d := x.At(i, c) - x.At(j, c)
				s += d * d
			}
			a.SetSym(i, j, math.Exp(-s/4))
		}
	}
	// For the smallest end use 2I - A, whose small end mirrors A's
	// well-separated large end (A's own small end is a cluster near 0).
	b := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := -a.At(i, j)
			if i == j {
				v += 2
			}
			b.SetSym(i, j, v)
		}
	}
	for _, s := range []Solver{Lanczos{}, ThickRestart{}, Block{}} {
		for _, which := range []Which{Largest, Smallest} {
			m := a
			if which == Smallest {
				m = b
			}
			op, err := NewDense(m)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Solve(context.Background(), op, 12, &Settings{Which: which, Seed: 3})
			if err != nil {
				t.Fatalf("%s %v: %v", s.Name(), which, err)
			}
			av := mat.NewVecDense(n, nil)
			for c := range res.Values {
				v := res.Vectors.ColView(c)
				av.MulVec(m, v)
				q := mat.Dot(v, av) / mat.Dot(v, v)
				// The value and the quotient are two roundings of the same
				// number: a few ulps of ||A|| apart at most.
				if diff := math.Abs(q - res.Values[c]); diff > 64*eps*res.NormEstimate {
					t.Errorf("%s %v pair %d: value %v, Rayleigh quotient %v", s.Name(), which, c, res.Values[c], q)
				}
				if c > 0 {
					prev, cur := res.Values[c-1], res.Values[c]
					if (which == Largest && cur > prev) || (which == Smallest && cur < prev) {
						t.Errorf("%s %v: values out of order at %d: %v then %v", s.Name(), which, c, prev, cur)
					}
				}
			}
		}
	}
}

// TestForecast checks the spacing of the convergence checks: none skipped
// without two falling observations or near convergence, at most three
// steps far from it.
func TestForecast(t *testing.T) {
	cases := []struct {
		name string
		obs  [][2]float64 // (step, worst ratio)
		next int
	}{
		{"first check", [][2]float64{{5, 1e12}}, 0},
		{"far, falling 10x per step", [][2]float64{{5, 1e12}, {6, 1e11}}, 9},
		{"far, slowly falling", [][2]float64{{5, 1e12}, {8, 9e11}}, 11},
		{"two steps left", [][2]float64{{5, 1e4}, {6, 1e2}}, 0},
		{"seven steps left", [][2]float64{{5, 1e8}, {6, 1e7}}, 8},
		{"rising", [][2]float64{{5, 1e6}, {6, 2e6}}, 0},
		{"converged", [][2]float64{{5, 1e6}, {6, 0.5}}, 0},
		{"infinite estimate", [][2]float64{{5, math.Inf(1)}, {6, 1e6}}, 0},
		{"NaN", [][2]float64{{5, 1e6}, {6, math.NaN()}}, 0},
	}
	for _, c := range cases {
		var f forecast
		for _, o := range c.obs {
			f.observe(int(o[0]), o[1])
		}
		if f.next != c.next {
			t.Errorf("%s: next check at step %d, want %d", c.name, f.next, c.next)
		}
	}
}
