package svm

import "ukm/models/internal/ova"

// Defaults used when the corresponding Settings field is zero.
const (
	// DefaultC is the box bound C, the setting of the max-margin spectral
	// kernel paper (Xu et al.); package mm and the models use it too.
	DefaultC = 100.0
	// DefaultTol is the bound on the maximal KKT violation at exit
	// (LIBSVM's default).
	DefaultTol = 1e-3
	// DefaultMaxIterPerPoint and DefaultMaxIterMin give the default
	// iteration limit, max(DefaultMaxIterMin, DefaultMaxIterPerPoint * l).
	DefaultMaxIterPerPoint = 1000
	DefaultMaxIterMin      = 1_000_000
)

// Settings configures training. The zero value means the defaults.
type Settings struct {
	// C is the box bound (soft-margin penalty), C > 0. Zero means
	// DefaultC (100); negative or non-finite is an error.
	C float64
	// Tol bounds the maximal KKT violation m(alpha) - M(alpha) at exit.
	// Zero means DefaultTol (1e-3).
	Tol float64
	// MaxIter bounds the SMO iterations. Zero means
	// max(DefaultMaxIterMin, DefaultMaxIterPerPoint * l).
	MaxIter int
}

// resolve returns s (nil means the defaults) checked, with the defaults
// for l training points filled in; errors are of kind linalg.ErrSettings and
// name op.
func (s *Settings) resolve(op string, l int) (Settings, error) {
	return ova.Resolve(op, s, Settings{C: DefaultC, Tol: DefaultTol, MaxIter: max(DefaultMaxIterMin, DefaultMaxIterPerPoint*l)})
}
