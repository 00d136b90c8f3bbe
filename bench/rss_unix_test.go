//go:build unix

package bench

import "syscall"

// peakRSSMiB returns the peak resident set size of the whole test process
// so far (getrusage RUSAGE_SELF ru_maxrss), in MiB; ok is false where it is
// unavailable. The value never decreases during a process: it measures the
// largest benchmark run so far, not the current one.
func peakRSSMiB() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return float64(ru.Maxrss) * maxrssUnit / (1 << 20), true
}
