package eig

import (
	"math"

	"ukm/linalg"
)

// CumulativeEnergy returns the running sums of values divided by total:
// out[i] = (values[0] + ... + values[i]) / total. For a kernel matrix K,
// total = trace(K) makes out[i] the fraction of the kernel's energy carried
// by the first i+1 eigenpairs. It returns nil if total is zero or not finite.
func CumulativeEnergy(values []float64, total float64) []float64 {
	if total == 0 || math.IsNaN(total) || math.IsInf(total, 0) {
		return nil
	}
	out := make([]float64, len(values))
	var s float64
	for i, v := range values {
		s += v
		out[i] = s / total
	}
	return out
}

// DForEnergy returns the smallest d such that the first d values carry at
// least the fraction frac of total (the rule of thumb for choosing the number
// of eigenvectors in spectral kernel learning). If the values never reach
// frac it returns len(values). It returns an error wrapping
// linalg.ErrSettings if frac is outside (0, 1] or total is not positive, and
// linalg.ErrNonFinite if total is NaN or infinite.
func DForEnergy(values []float64, total, frac float64) (int, error) {
	const op = "eig.DForEnergy"
	if !(frac > 0 && frac <= 1) {
		return 0, linalg.Errorf(linalg.ErrSettings, op, "energy fraction %v, want a value in (0, 1]", frac)
	}
	if math.IsNaN(total) || math.IsInf(total, 0) {
		return 0, linalg.Errorf(linalg.ErrNonFinite, op, "total energy %v is not finite", total)
	}
	if !(total > 0) {
		return 0, linalg.Errorf(linalg.ErrSettings, op, "total energy %v, want a positive value", total)
	}
	ce := CumulativeEnergy(values, total)
	for i, e := range ce {
		if e >= frac {
			return i + 1, nil
		}
	}
	return len(values), nil
}
