package mm

import (
	"testing"

	"ukm/models/spectral/designtest"
)

// TestDesignConformance runs the spectral.Design suite on the MM design,
// with its defaults and with the order constraint (Decay = 1).
func TestDesignConformance(t *testing.T) {
	designtest.TestDesign(t, NewDesign(Settings{}))
	designtest.TestDesign(t, NewDesign(Settings{Decay: 1}))
}
