package labelaware

import "ukm/linalg"

// inputf returns an error of the given kind (one of linalg's kinds, each of
// which wraps linalg.ErrInvalid) from this package.
func inputf(kind error, format string, args ...any) error {
	return linalg.Errorf(kind, "labelaware", format, args...)
}
