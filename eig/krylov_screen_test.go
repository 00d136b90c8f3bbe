package eig

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// screenSetup returns a Krylov workspace on diag(vals) whose first rows
// hold the unit vectors e_j of locked (perturbed), with a random unit vector orthogonal
// to them after, as restartKeep leaves them for the multiplicity check.
func screenSetup(t *testing.T, vals []float64, locked []int) (*krylov, []float64) {
	t.Helper()
	n := len(vals)
	a := mat.NewSymDense(n, nil)
	for i, v := range vals {
		a.SetSym(i, i, v)
	}
	op, err := NewDense(a)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := validate(context.Background(), "test", op, len(locked), &Settings{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	k := newKrylov(op, cfg, 1, 2*len(locked)+20, true)
	ref := make([]float64, len(locked))
	for r, j := range locked {
		// Converged, not exact: a residual of about 1e-7 ||A||, which
		// the check must keep out of its vectors.
		row := k.v.RawRowView(r)
		k.randomRow(row)
		for i := range row {
			row[i] *= 1e-7
		}
		row[j] = 1
		ref[r] = vals[j]
		k.normA = math.Max(k.normA, math.Abs(vals[j]))
	}
	gramSchmidtRows(k.v, len(locked))
	k.randomUnit(k.v.RawRowView(len(locked)), len(locked))
	return k, ref
}

// TestScreenCopies: the recurrence of the multiplicity check finds a copy
// of a wanted value that the locked vectors miss (and hands over to the
// check in the basis), passes when nothing is missing, whether the next
// value is a further copy of the last wanted one or below it, at both
// ends, and stops when the context ends.
func TestScreenCopies(t *testing.T) {
	const n = 300
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(i) / n // 0 .. 1, simple
	}
	vals[n-1], vals[n-2], vals[n-3] = 2, 2, 1.5 // the top: 2 twice, then 1.5
	vals[0], vals[1] = -1, -1                   // the bottom: -1 twice
	cases := []struct {
		name   string
		which  Which
		locked []int
		want   bool
	}{
		{"largest/missed copy", Largest, []int{n - 1, n - 3}, false},
		{"largest/complete", Largest, []int{n - 1, n - 2, n - 3}, true},
		{"largest/copy of the last", Largest, []int{n - 1}, true},
		{"smallest/missed copy", Smallest, []int{0, 2}, false},
		{"smallest/complete", Smallest, []int{0, 1, 2}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, ref := screenSetup(t, vals, tc.locked)
			if tc.which == Smallest {
				k.sign = -1
			}
			d := len(tc.locked)
			ok, err := k.screenCopies(context.Background(), d, ref, 10, 3)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.want {
				t.Errorf("passed = %v after %d steps, want %v", ok, k.screened, tc.want)
			}
			if k.screened == 0 || k.screened != k.iters || k.matvecs != k.iters {
				t.Errorf("steps %d, iterations %d, products %d", k.screened, k.iters, k.matvecs)
			}
			if ok && k.screened < 10 {
				t.Errorf("passed after %d steps, before the first look", k.screened)
			}
		})
	}
	t.Run("canceled", func(t *testing.T) {
		k, ref := screenSetup(t, vals, []int{n - 1, n - 3})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := k.screenCopies(ctx, 2, ref, 10, 3); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

// TestScreenDecides: on a simple spectrum the check ends in the
// recurrence (no cycle in the basis follows), and the pairs are those of
// a solve without the check.
func TestScreenDecides(t *testing.T) {
	ctx := context.Background()
	a := withSpectrum(linspace(400, -1, 1), 7)
	op, err := NewDense(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []int{1, 5, 20} {
		cfg, _, err := validate(ctx, "test", op, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		k := newKrylov(op, cfg, 1, max(2*d, d+20), true)
		_, status, err := k.run(ctx)
		if err != nil || status != linalg.Converged {
			t.Fatalf("d = %d: %v %v", d, status, err)
		}
		if k.screened == 0 {
			t.Errorf("d = %d: the check did not run in the recurrence", d)
		}
		k.release()
		with, err := ThickRestart{}.Solve(ctx, op, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		without, err := ThickRestart{}.Solve(ctx, op, d, &Settings{NoMultiplicityCheck: true})
		if err != nil {
			t.Fatal(err)
		}
		for j := range with.Values {
			if math.Abs(with.Values[j]-without.Values[j]) > 1e-10 {
				t.Errorf("d = %d: value %d = %v with the check, %v without", d, j, with.Values[j], without.Values[j])
			}
		}
		if extra := with.MatVecs - without.MatVecs; extra <= 0 {
			t.Errorf("d = %d: the check took %d products", d, extra)
		}
	}
}
