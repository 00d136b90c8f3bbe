package qptest

// Family is a named Spec (see DegenerateFamilies).
type Family struct {
	Name string
	Spec Spec
}

// DegenerateFamilies returns one Spec per class of degeneracy that defeats
// naive active-set phase 1s, for n variables, about rows general rows and
// the given seed. Every family is LP-like (H nonzero on n/10 variables, at
// least one; 3/5 of the rows are base rows, a third of them equalities),
// and the classes add, with k = rows/10:
//
//   - "redundant": k rows combining two others; "duplicate": k copies of
//     rows, some scaled; "empty": k/2 zero rows; "ranged": k ranged pairs
//     (a third with l = u); "scaled": row and column scales over 8 decades;
//     "fixed-free": n/10 fixed and n/10 free variables; "lp": H nil;
//   - "mixed": all of these at once, and "mixed-strictly-convex" the same
//     with H positive definite (for the dual method);
//   - "infeasible-mixed" and "infeasible-mixed-strictly-convex": the mixed
//     families with a contradicting row added.
//
// The first eight are feasible with a planted optimum. n must be at least 2
// and rows at least 10.
func DegenerateFamilies(n, rows int, seed uint64) []Family {
	k := rows / 10
	base := Spec{N: n, Rows: rows * 3 / 5, EqFrac: 1.0 / 3, Curved: max(1, n/10), Seed: seed}
	with := func(f func(*Spec)) Spec {
		s := base
		f(&s)
		return s
	}
	mixed := func(s *Spec) {
		s.Redundant, s.Duplicate, s.Empty, s.Ranged = k, k, k/2, k
		s.Decades, s.Free, s.Fixed = 8, n/10, n/10
	}
	return []Family{
		{"redundant", with(func(s *Spec) { s.Redundant = k })},
		{"duplicate", with(func(s *Spec) { s.Duplicate = k })},
		{"empty", with(func(s *Spec) { s.Empty = k / 2 })},
		{"ranged", with(func(s *Spec) { s.Ranged = k })},
		{"scaled", with(func(s *Spec) { s.Decades = 8 })},
		{"fixed-free", with(func(s *Spec) { s.Free, s.Fixed = n/10, n/10 })},
		{"lp", with(func(s *Spec) { s.Curved = 0 })},
		{"mixed", with(mixed)},
		{"mixed-strictly-convex", with(func(s *Spec) { mixed(s); s.Curved = n })},
		{"infeasible-mixed", with(func(s *Spec) { mixed(s); s.Infeasible = true })},
		{"infeasible-mixed-strictly-convex", with(func(s *Spec) { mixed(s); s.Curved = n; s.Infeasible = true })},
	}
}
