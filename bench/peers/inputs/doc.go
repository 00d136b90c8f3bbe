// Package inputs gives the peer tools (SciPy, CVXOPT, Octave) the exact
// inputs of the benchmarks they are timed against:
//
//   - the RBF kernels of the eigensolver benchmark BenchmarkTopD in package eig:
//     n seeded standard-normal points in 10 dimensions (RBFPoints) and the RBF
//     kernel with γ = 1/median pairwise squared distance (RBFKernel);
//   - the spectral kernel learning QPs of BenchmarkSKL in package qp: the top-d
//     eigenvectors of the RBF kernel of the z-scored ionosphere data restricted
//     to 20 seeded labeled rows, decay factor C = 2 (Ionosphere, SKLInstance).
//
// The numbers come from the builders the benchmarks themselves use (package
// ukm/internal/benchdata, whose tests pin their bits), so what is written for
// the peers is bit for bit what our solvers are timed on. The command in
// bench/peers/gen writes them to files.
package inputs
