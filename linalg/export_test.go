package linalg

// RefKNN exposes the brute-force reference of the neighbour tests to the
// external tests (realdata_test.go), which read data sets through package
// dataset and so cannot be in package linalg.
var RefKNN = refKNN
