package eigtest_test

import (
	"context"
	"math"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/eig/eigtest"
)

// A suite that cannot fail is worthless: these tests run it on solvers that
// are wrong in one way each and check that it fails them where it should,
// and only there.

// perturbed returns the pairs of a correct solver with every eigenvalue
// moved by one part in a million.
type perturbed struct{ eig.Solver }

func (p perturbed) Solve(ctx context.Context, a eig.Operator, d int, s *eig.Settings) (*eig.Result, error) {
	res, err := p.Solver.Solve(ctx, a, d, s)
	if err == nil {
		for j := range res.Values {
			res.Values[j] *= 1 + 1e-6
		}
	}
	return res, err
}

// unnormalized returns the vectors of a correct solver scaled by 1 + 1e-6:
// residuals stay small, orthonormality is lost.
type unnormalized struct{ eig.Solver }

func (u unnormalized) Solve(ctx context.Context, a eig.Operator, d int, s *eig.Settings) (*eig.Result, error) {
	res, err := u.Solver.Solve(ctx, a, d, s)
	if err == nil {
		res.Vectors.Scale(1+1e-6, res.Vectors)
	}
	return res, err
}

// largestOnly ignores Settings.Which and always returns the largest end.
type largestOnly struct{ eig.Solver }

func (l largestOnly) Solve(ctx context.Context, a eig.Operator, d int, s *eig.Settings) (*eig.Result, error) {
	var set eig.Settings
	if s != nil {
		set = *s
	}
	set.Which = eig.Largest
	return l.Solver.Solve(ctx, a, d, &set)
}

// failedCases returns the cases with a failure whose message contains
// want, and every failed case.
func failedCases(fs []eigtest.Failure, want string) (matching, all map[string]bool) {
	matching, all = map[string]bool{}, map[string]bool{}
	for _, f := range fs {
		all[f.Case] = true
		if strings.Contains(f.Msg, want) {
			matching[f.Case] = true
		}
	}
	return matching, all
}

// caseNames returns the names of the suite's cases, from a run on a correct
// solver that records every check (by failing them all).
func caseNames(t *testing.T) []string {
	t.Helper()
	var names []string
	seen := map[string]bool{}
	// A solver that never answers fails every case but the input ones.
	for _, f := range eigtest.Check(broken{}, nil) {
		if !seen[f.Case] {
			seen[f.Case] = true
			names = append(names, f.Case)
		}
	}
	if len(names) < 50 {
		t.Fatalf("only %d cases", len(names))
	}
	return names
}

// broken rejects every call without an error kind the contract names.
type broken struct{}

func (broken) Name() string { return "broken" }
func (broken) Solve(context.Context, eig.Operator, int, *eig.Settings) (*eig.Result, error) {
	return nil, context.DeadlineExceeded
}

func TestCorrectSolverPasses(t *testing.T) {
	if fs := eigtest.Check(eig.Block{}, &eigtest.Options{Short: true}); len(fs) != 0 {
		t.Errorf("%d failures of a correct solver, the first %v", len(fs), fs[0])
	}
}

func TestWrongSolversFail(t *testing.T) {
	names := caseNames(t)
	// Zero eigenvalues stay zero when perturbed by a relative amount.
	zeroValues := regexp.MustCompile(`^zero/.*/op=(dense|csr|vector-only)$`)
	for _, tc := range []struct {
		name string
		s    eig.Solver
		msg  string              // every failing case has a failure saying this
		must func(c string) bool // the cases that must fail
	}{
		{"values*(1+1e-6)", perturbed{eig.Block{}}, "", func(c string) bool {
			return !strings.HasPrefix(c, "input/") && !zeroValues.MatchString(c)
		}},
		{"vectors*(1+1e-6)", unnormalized{eig.Block{}}, "orthogonality", func(c string) bool {
			return !strings.HasPrefix(c, "input/")
		}},
		{"ignores Which", largestOnly{eig.ThickRestart{}}, "eigenvalue", func(c string) bool {
			// Both ends are the same for the identity, the zero matrix and
			// n = 1; elsewhere they differ, if only in order.
			same := regexp.MustCompile(`^(identity|zero|scalar)/`)
			return strings.Contains(c, "/smallest/") && !same.MatchString(c)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			matching, all := failedCases(eigtest.Check(tc.s, nil), tc.msg)
			for _, c := range names {
				switch {
				case tc.must(c) && !matching[c]:
					t.Errorf("case %s passed (or failed without %q)", c, tc.msg)
				case !tc.must(c) && all[c]:
					t.Errorf("case %s failed, but the solver is right there", c)
				}
			}
		})
	}
}

// TestBrokenSolver: a solver that returns nothing fails every case,
// including those of the error contract (which want errors of given kinds
// and a Result).
func TestBrokenSolver(t *testing.T) {
	_, all := failedCases(eigtest.Check(broken{}, nil), "")
	for _, c := range []string{"input/d=0", "input/non-square", "input/cancelled", "scalar/n=1/d=1/largest/op=dense"} {
		if !all[c] {
			t.Errorf("case %s passed", c)
		}
	}
}

// TestShort: the reduced set is a subset of the full one.
func TestShort(t *testing.T) {
	_, short := failedCases(eigtest.Check(broken{}, &eigtest.Options{Short: true}), "")
	_, full := failedCases(eigtest.Check(broken{}, nil), "")
	if len(short) >= len(full) {
		t.Errorf("short set has %d cases, full %d", len(short), len(full))
	}
	for c := range short {
		if !full[c] {
			t.Errorf("short case %s not in the full set", c)
		}
	}
}

func TestTestSolver(t *testing.T) {
	eigtest.TestSolver(t, eig.Reference{})
}

// TestRepeatedFamilies: the repeated families are symmetric and their
// Values are the spectrum (against a dense eigensolver), ascending, with
// exactly Mult zeros at the bottom.
func TestRepeatedFamilies(t *testing.T) {
	for _, p := range []eigtest.Problem{
		eigtest.RepeatedDiagonal(60, 4),
		eigtest.RepeatedGap(60, 3, 1e-3),
		eigtest.RepeatedBlocks(80, 5, 2),
	} {
		t.Run(p.Name, func(t *testing.T) {
			a := p.A.ToDense()
			n, _ := a.Dims()
			if !p.A.IsSymmetric() || len(p.Values) != n {
				t.Fatalf("symmetric %v, %d values for n = %d", p.A.IsSymmetric(), len(p.Values), n)
			}
			var es mat.EigenSym
			if !es.Factorize(mat.NewSymDense(n, a.RawMatrix().Data), false) {
				t.Fatal("dense reference failed")
			}
			ref := es.Values(nil)
			for i, v := range p.Values {
				if math.Abs(v-ref[i]) > 1e-12 {
					t.Errorf("value %d = %v, dense %v", i, v, ref[i])
				}
				if i > 0 && v < p.Values[i-1] {
					t.Errorf("values not ascending at %d", i)
				}
			}
			zeros := 0
			for _, v := range p.Values {
				if v == 0 {
					zeros++
				}
			}
			if zeros != p.Mult || p.Values[p.Mult] <= 0 {
				t.Errorf("%d zeros, next %v; want Mult = %d", zeros, p.Values[p.Mult], p.Mult)
			}
		})
	}
}
