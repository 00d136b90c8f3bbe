package klr

import "ukm/models/internal/ova"

// Defaults used when the corresponding Settings field is zero.
const (
	// DefaultLambda is the regularisation weight lambda of eq. 17.
	DefaultLambda = 1e-2
	// DefaultMaxIter bounds the Newton iterations.
	DefaultMaxIter = 100
	// DefaultTol is the relative gradient tolerance of the stopping test.
	DefaultTol = 1e-8
)

// Settings configures a fit. The zero value means the documented defaults.
type Settings struct {
	// Lambda is the regularisation weight lambda > 0 of eq. 17.
	// Zero means DefaultLambda (1e-2); negative or non-finite is an error.
	Lambda float64
	// Bias adds an unpenalised constant term b to f. The zero value (false)
	// follows the paper, which omits it.
	Bias bool
	// MaxIter bounds the Newton iterations. Zero means DefaultMaxIter (100).
	MaxIter int
	// Tol is the relative gradient tolerance: Newton stops when
	// ||grad J||_inf <= Tol * ||grad J at the zero model||_inf.
	// Zero means DefaultTol (1e-8).
	Tol float64
}

// resolve returns s (nil means the defaults) checked, with the defaults
// filled in; errors are of kind linalg.ErrSettings and name op.
func (s *Settings) resolve(op string) (Settings, error) {
	return ova.Resolve(op, s, Settings{Lambda: DefaultLambda, MaxIter: DefaultMaxIter, Tol: DefaultTol})
}
