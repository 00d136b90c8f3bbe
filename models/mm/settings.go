package mm

import (
	"ukm/linalg"
	"ukm/models/internal/ova"
	"ukm/models/spectral"
	"ukm/models/svm"
)

// Defaults used when the corresponding Settings field is zero. The SVM box
// bound defaults to svm.DefaultC (100, the max-margin paper's setting).
const (
	// DefaultDecay is the decay factor w of the cone, the default decay of
	// the SKL design.
	DefaultDecay = spectral.DefaultDecay
	// DefaultTol is the relative duality gap at which Learn stops.
	DefaultTol = 1e-4
	// DefaultMaxIter bounds the outer (spectral projected gradient)
	// iterations.
	DefaultMaxIter = 1000
	// DefaultInnerTol is the SMO tolerance of the inner SVM solves (maximal
	// KKT violation, in the units of the SVM dual gradient).
	DefaultInnerTol = 1e-9
)

// Settings configures Learn. The zero value means the defaults.
type Settings struct {
	// Decay is the decay factor w >= 1 of the cone mu_i >= w mu_{i+1}. Zero
	// means DefaultDecay (2); Decay = 1 is the order constraint.
	Decay float64
	// Trace is delta = trace(Kbar) = sum_i mu_i ||phi_i||². Zero means n,
	// so that sum(mu) = n for an orthonormal basis, like every design of
	// package spectral.
	Trace float64
	// C is the SVM box bound. Zero means svm.DefaultC (100).
	C float64
	// Tol is the relative duality gap (Upper - Lower) / Upper at which the
	// method stops. Zero means DefaultTol (1e-4). It should stay well above
	// the error of the inner solves (about 2 C l InnerTol relative to J).
	Tol float64
	// MaxIter bounds the outer iterations. Zero means DefaultMaxIter (1000).
	MaxIter int
	// InnerTol is the SMO tolerance of the inner SVM solves. Zero means
	// DefaultInnerTol (1e-9).
	InnerTol float64
	// InnerMaxIter bounds the SMO iterations of one inner solve. Zero means
	// the svm package default.
	InnerMaxIter int
}

// resolve returns s (nil means the defaults) checked, with the defaults
// for a basis of n rows filled in; errors are of kind linalg.ErrSettings and
// name op.
func (s *Settings) resolve(op string, n int) (Settings, error) {
	r, err := ova.Resolve(op, s, Settings{
		Decay: DefaultDecay, Trace: float64(n), C: svm.DefaultC,
		Tol: DefaultTol, MaxIter: DefaultMaxIter, InnerTol: DefaultInnerTol,
	})
	if err == nil && r.Decay < 1 {
		err = linalg.Errorf(linalg.ErrSettings, op, "Decay = %v, want w >= 1 (0 = default %v)", r.Decay, DefaultDecay)
	}
	return r, err
}
