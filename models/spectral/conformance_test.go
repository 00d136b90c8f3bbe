package spectral_test

import (
	"testing"

	"ukm/models/spectral"
	"ukm/models/spectral/designtest"
)

// TestDesignConformance runs the conformance suite on every design of the
// package.
func TestDesignConformance(t *testing.T) {
	for _, d := range []spectral.Design{
		spectral.Cluster{},
		spectral.Truncated{},
		spectral.Diffusion{Sigma2: 1},
		spectral.GaussianField{Eps: 0.1},
		spectral.NewSKL(0), // DefaultDecay
		spectral.NewSKL(1),
		spectral.Order{},
		spectral.Order{Improved: true},
		spectral.Spreading{},
	} {
		t.Run(d.Name(), func(t *testing.T) { designtest.TestDesign(t, d) })
	}
}
