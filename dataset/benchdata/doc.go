// Package benchdata builds the inputs of the project's benchmarks, in one
// place, so that the benchmarks of package eig and package qp and the peer
// timings of bench/peers all use the very same numbers:
//
//   - the RBF kernels of BenchmarkTopD (package eig): n seeded standard-normal
//     points in RBFDim dimensions (RBFPoints) and their RBF kernel with
//     γ = 1/median pairwise squared distance (RBFKernel);
//   - the spectrum behind the SKL QPs of BenchmarkSKL (package qp): the full
//     eigendecomposition of the RBF kernel of the z-scored ionosphere data,
//     SKLLabeled labeled rows drawn with SKLSeed and their ±1 targets
//     (Ionosphere, NewSpectrum, Spectrum.LabeledVectors); the QP itself is
//     qp.NewSKL(s.LabeledVectors(d), s.Y, SKLC);
//   - the labeled sets of BenchmarkFashionMNIST (package models) and of its
//     peers (bench/peers/fmnist): the fixed rule (FashionRule) and
//     FashionDraws random draws of 10 images per class (PerClass).
//
// Every builder fixes its random generator and stream, its draw order and its
// summation order, and its tests pin the resulting bits: a change here that
// moves a single bit of a benchmark input fails them. The package depends on
// neither eig nor qp, so their internal tests can import it.
package benchdata
