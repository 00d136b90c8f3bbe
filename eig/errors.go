package eig

import "ukm/linalg"

// The sentinels of this package, for conditions linalg's kinds do not name.
// Both are input errors: they wrap linalg.ErrInvalid. Every other input error
// of the package wraps one of linalg's kinds (ErrEmpty, ErrNonFinite,
// ErrShape, ErrSettings); see the package documentation.
var (
	// ErrNotSymmetric is returned when a matrix or operator is not
	// symmetric: by NewDenseShared, NewDenseFull and NewCSR, by Reference
	// when the matrix it forms from the products is not, and by the Krylov
	// methods when the coefficients of their recurrence disagree (the
	// Result's Status is then linalg.NumericalFailure).
	ErrNotSymmetric = linalg.NewKind("eig: operator is not symmetric", nil)
	// ErrRank is returned by Nystrom when the landmark kernel has fewer than
	// k eigenvalues above the cut-off (see NystromSettings.RCond), or a
	// point's approximate degree is not positive with
	// NystromSettings.Normalized, so that k eigenpairs of the approximation
	// do not exist. It also wraps linalg.ErrDegenerate.
	ErrRank = linalg.NewKind("eig: Nystrom landmark kernel rank below k", linalg.ErrDegenerate)
)
