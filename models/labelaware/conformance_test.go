package labelaware_test

import (
	"testing"

	"ukm/models/labelaware"
	"ukm/models/spectral/designtest"
)

// Every weighting is a spectral.Design that passes the design contract.
func TestDesignConformance(t *testing.T) {
	for _, w := range []labelaware.Weighting{labelaware.WeightAlignf, labelaware.WeightUniform, labelaware.WeightIndependent} {
		t.Run(w.String(), func(t *testing.T) { designtest.TestDesign(t, labelaware.Design{Weighting: w}) })
	}
}
