package dataset

import (
	"errors"

	"ukm/linalg"
)

// The package's own sentinels. Everything else it reports with linalg's
// kinds: linalg.ErrSettings for options out of range (and for a dense matrix
// above the size limit), linalg.ErrEmpty for a file without data rows or
// features, linalg.ErrNonFinite for a NaN or infinite value written in a
// file, linalg.ErrLabels for labels that do not fit (a reference set with an
// unlabeled row, a label outside the classes). See the package doc.
var (
	// ErrFormat is wrapped by every error that reports a malformed file: a
	// field that is not a number or is out of range, a ragged row, bad CSV
	// quoting, a bad LIBSVM token or feature index, a wrong IDX magic,
	// element type or shape, a declared size above a limit, a truncated
	// file, trailing bytes, or a corrupt gzip stream. It wraps
	// linalg.ErrInvalid.
	ErrFormat = linalg.NewKind("dataset: malformed file", nil)

	// ErrNotFound is returned when a data directory or file does not exist
	// (Dir, Load, FashionMNISTDir, FashionMNIST, and the readers of a path
	// that is missing). It is not an input error: it does not wrap
	// linalg.ErrInvalid.
	ErrNotFound = errors.New("dataset: not found")
)
