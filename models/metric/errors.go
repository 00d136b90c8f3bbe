package metric

import "ukm/linalg"

// ErrContradictory is returned when the constraints contradict each other:
// a cannot-link pair whose two points the must-link pairs join into one
// chunklet (directly or through a chain of must-links), or a cannot-link
// between a point and itself. It wraps linalg.ErrLabels, and so
// linalg.ErrInvalid.
var ErrContradictory = linalg.NewKind("metric: contradictory constraints", linalg.ErrLabels)
