//go:build !unix

package bench

// peakRSSMiB is unavailable on this platform.
func peakRSSMiB() (float64, bool) { return 0, false }
