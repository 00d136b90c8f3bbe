// Package inputs rebuilds, outside the test files, the exact inputs of the
// benchmarks that the peer tools (SciPy, CVXOPT, Octave) are timed on:
//
//   - the RBF kernels of the eigensolver benchmark BenchmarkTopD in package eig:
//     n seeded standard-normal points in 10 dimensions (RBFPoints) and the RBF
//     kernel with γ = 1/median pairwise squared distance (RBFKernel);
//   - the spectral kernel learning QPs of BenchmarkSKL in package qp: the top-d
//     eigenvectors of the RBF kernel of the z-scored ionosphere data restricted
//     to 20 seeded labeled rows, decay factor C = 2 (Ionosphere, SKLInstance).
//
// The builders follow the benchmarks' own construction step by step (same
// random generator and stream, same summation order), so that the numbers
// written for the peers are bit for bit the ones our solvers are timed on.
// The command in bench/peers/gen writes them to files.
package inputs
