// Package dataset reads data for the kernel learning library: users' tables
// in CSV and LIBSVM form, the reference data sets of the tests and
// reproductions, IDX image files (MNIST, Fashion-MNIST), and synthetic sets
// generated from a seed.
//
// # Users' tables
//
// ReadTable (a path) and ReadTableFrom (an io.Reader) read a CSV or LIBSVM
// table into a Table: a dense feature matrix X and one label per row, ""
// for an unlabeled row. ReadLIBSVM and ReadLIBSVMFile read a LIBSVM file
// into a SparseTable whose X is a linalg.CSR; SparseTable.Dense makes it
// dense within a size limit. TableOptions configures them all; its zero
// value gives the defaults. Every reader recognises gzip by its magic bytes
// (whatever the file is called; concatenated members are one stream) and
// drops a UTF-8 byte-order mark at the start of a text file.
//
// # CSV
//
// One example per line, fields separated by TableOptions.Comma (',' by
// default, a tab for .tsv files), quoted as RFC 4180 has it (encoding/csv),
// so a quoted field may hold the delimiter (or a line break). Spaces around
// a field, and before its opening quote, are ignored and blank lines are
// skipped; every line must have as many fields
// as the first. The label column is the first by default; LabelColumn
// selects another by number (LabelLast for the last, LabelNone for none)
// and LabelName by its name in the header. Every other field must be a
// finite number: missing feature values are not supported.
//
// The header rule. With Header set to HeaderYes or HeaderNo (or LabelName
// set, which implies a header), the first line is or is not a header as
// told. With HeaderAuto, the default, the first line that is not blank is a
// header when
//
//  1. one of its feature fields (the label field does not count) is not a
//     number; or
//  2. it has at least three fields and they are exactly 0, 1, ..., c-1 or
//     1, 2, ..., c: the column numbers that pandas writes for a
//     DataFrame made from an array; or
//  3. its feature fields are exactly 0, 1, ..., p-1 or 1, 2, ..., p and
//     its label field is not a number, while the labels of the later rows
//     are all numbers (missing labels aside, and one at least), as in
//     "label,0,1,2" over rows labeled -1 and 1.
//
// Anything else is data: so a header of column numbers over text labels
// ("label,0,1" over classes "cat" and "dog") is not recognised, and needs
// HeaderYes or LabelName. Rule 3 cannot be settled before the end of the
// file; the line is kept as a data row until then. The names of the feature
// columns of a header are in Table.Header.
//
// # LIBSVM
//
// One example per line, "label index:value index:value ...", indices from 1
// (from 0 with ZeroBased) strictly increasing within a line; a '#' starts a
// comment and blank lines are skipped; a "qid:n" token is ignored. A line
// whose first token is an index:value pair, or a missing-label marker, is
// unlabeled. The number of features is TableOptions.Features, or else the
// highest index seen. Memory is proportional to the entries actually
// written, never to the highest index.
//
// # Labels
//
// A label field that is empty, or equal (after trimming spaces) to one of
// the markers in TableOptions.Missing (DefaultMissing when nil: "?", "NA",
// "N/A", "NaN", "nan"), marks an unlabeled row. Numeric labels are written
// in one canonical form, so that "+1", "1", "1.0" and "1e0" are one class
// "1" (RawLabels keeps them as written). Index maps labels to class indices,
// sorting the classes numerically when all are numbers and
// lexicographically otherwise; Table.Index does so for the labeled rows,
// Encode maps new labels to given classes and Decode maps class indices
// back to names.
//
// # Limits
//
// A text file's memory is proportional to its (decompressed) size. The
// dense matrix made from a LIBSVM file may take at most
// TableOptions.MaxDenseBytes, or by default the larger of
// DefaultMaxDenseBytes and DefaultDenseBytesPerByte bytes per byte of
// text; the size is checked before anything is allocated, and the error
// names it and the option that raises the limit. An IDX header may declare
// at most IDXOptions.MaxBytes (DefaultIDXMaxBytes) of data, and the body is
// read in chunks that grow with the data actually present.
//
// # Reference and synthetic sets
//
// Load reads a reference set by name from Dir (the UKM_DATASETS directory
// or a shared/datasets directory above the working directory) into a Set,
// in which every row is labeled; Read and ReadFile read such CSV files.
// FashionMNIST and LoadIDXPair read IDX files. TwoCircles, TwoMoons,
// Relevance and Blobs, and the metric-learning sets of Hoi's thesis (Norm,
// Chessboard, DoubleSpiral), generate sets from an explicit seed: the same
// arguments always give the same set.
//
// # Errors and statuses
//
// The package speaks linalg's vocabulary (see the linalg package doc):
// every error caused by the input or the options wraps linalg.ErrInvalid,
// through one of these:
//
//   - ErrFormat, this package's kind, for a malformed file: a field that is
//     not a number or overflows float64 ("1e400" is out of range), a ragged
//     row, bad quoting, a bad LIBSVM token or index, a bad IDX header or a
//     declared size above its limit, a truncated file, bytes after the end,
//     or a corrupt gzip stream;
//   - linalg.ErrNonFinite for NaN or Inf written as a feature value;
//   - linalg.ErrEmpty for a file without data rows or without features;
//   - linalg.ErrSettings for options out of range, a LabelName or
//     LabelColumn that the file does not have, and a dense matrix above the
//     size limit;
//   - linalg.ErrLabels for an unlabeled row in a reference set (Read,
//     ReadFile, Load) and labels that Encode, Decode or Set.Binary cannot
//     map.
//
// Messages are "op: file: line L, column C: what is wrong". Columns count
// fields from 1 (in LIBSVM, whitespace-separated tokens), except in CSV
// quoting errors, where they count bytes as encoding/csv does. A missing
// file or directory is an error wrapping ErrNotFound, which is not an input
// error; failures of the reader itself are returned wrapped as they are.
// Nothing in this package has a Status.
//
// All functions are safe for concurrent use, and every call returns new
// values (SparseTable.Dense shares the labels of its table).
package dataset
