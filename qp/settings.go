package qp

import "ukm/linalg"

// The documented defaults. A zero setting selects its default.
const (
	// DefaultTol is the relative feasibility tolerance used when
	// Settings.Tol is zero.
	DefaultTol = 1e-9
	// DefaultPSDTol is the relative tolerance of the semidefiniteness check
	// used when Settings.PSDTol is zero: twice the relative rounding error
	// of data given to 6 significant digits (see Settings.PSDTol).
	DefaultPSDTol = 1e-5
	// DefaultADMMMaxIter is ADMM's iteration limit when Settings.MaxIter is
	// zero (the other solvers use DefaultMaxIter).
	DefaultADMMMaxIter = 20000
	// DefaultADMMRho is ADMM's initial step size when ADMM.Rho is zero.
	DefaultADMMRho = 0.1
	// DefaultADMMSigma is ADMM's proximal regularisation when ADMM.Sigma is
	// zero.
	DefaultADMMSigma = 1e-6
	// DefaultADMMAlpha is ADMM's relaxation parameter when ADMM.Alpha is
	// zero.
	DefaultADMMAlpha = 1.6
	// DefaultADMMEps is ADMM's relative stopping tolerance when ADMM.Eps is
	// zero.
	DefaultADMMEps = 1e-7
	// DefaultDecay is the SKL decay factor selected by a zero decay in
	// NewSKL and SKL.SetDecay.
	DefaultDecay = 2
)

// DefaultMaxIter returns the iteration limit of ActiveSet, GoldfarbIdnani and
// Bounded when Settings.MaxIter is zero, for a problem of n variables and
// rows general constraint rows (equalities plus inequalities): ten per
// variable, per possible bound and per row, plus 100, that is
// 10·(3n + rows) + 100.
func DefaultMaxIter(n, rows int) int { return 10*(3*n+rows) + 100 }

// Settings configures a solver. The zero value selects every default; a
// negative, NaN or infinite value is invalid input (Solve returns an error
// wrapping linalg.ErrSettings).
type Settings struct {
	// MaxIter bounds the number of iterations (phase 1 and phase 2 together).
	// Zero means DefaultMaxIter(n, rows) (DefaultADMMMaxIter for ADMM).
	MaxIter int
	// Tol is the relative feasibility tolerance used to accept a start point
	// and to decide infeasibility: Infeasible is reported only with a Farkas
	// certificate whose Residual is at most Tol and whose Gap exceeds it
	// (see Farkas). Zero means DefaultTol.
	Tol float64
	// PSDTol is the relative tolerance of the semidefiniteness check: H is
	// accepted when H + PSDTol·‖H‖_F·I has a Cholesky factorization, i.e.
	// when no eigenvalue is below about −PSDTol·‖H‖_F; otherwise Solve
	// returns an error wrapping linalg.ErrNotPSD. Zero means DefaultPSDTol.
	//
	// What it means: entries given to d significant digits carry relative
	// errors up to 5·10^−d, and the eigenvalues of the exact matrix lie
	// within 5·10^−d·‖H‖_F of the computed ones (Weyl), so an H within
	// PSDTol = 2·5·10^−d of semidefinite is convex up to the rounding of its
	// data; the default takes d = 6. Such an H whose smallest eigenvalue is
	// below −1e-10·‖H‖_F is replaced by its nearest semidefinite matrix H₊
	// (negative eigenvalues clipped to 0, an O(n³) eigendecomposition that
	// allocates) and the problem with H₊ is solved: Result.HShift reports
	// ‖H₊ − H‖₂, and Result.Obj and Result.KKT are those of that problem.
	// GoldfarbIdnani needs a positive definite H and does not use PSDTol.
	PSDTol float64
	// SkipPSDCheck skips the O(n³) semidefiniteness check (use it only when H
	// is semidefinite by construction, e.g. a Gram matrix).
	SkipPSDCheck bool
}

// check reports a setting out of range: negative, NaN or infinite. (An
// infinite Tol, say, would accept any start point as feasible.)
func (s *Settings) check(op string) error {
	if s == nil {
		return nil
	}
	if err := linalg.CheckCount(op, "Settings.MaxIter", s.MaxIter); err != nil {
		return err
	}
	if err := linalg.CheckTol(op, "Settings.Tol", s.Tol); err != nil {
		return err
	}
	return linalg.CheckTol(op, "Settings.PSDTol", s.PSDTol)
}

// resolve returns the settings with every zero replaced by its default, for
// n variables and rows general constraint rows.
func (s *Settings) resolve(n, rows int) Settings {
	var r Settings
	if s != nil {
		r = *s
	}
	if r.MaxIter <= 0 {
		r.MaxIter = DefaultMaxIter(n, rows)
	}
	if !(r.Tol > 0) {
		r.Tol = DefaultTol
	}
	if !(r.PSDTol > 0) {
		r.PSDTol = DefaultPSDTol
	}
	return r
}
