//go:build unix && !darwin

package bench

// maxrssUnit is the unit of ru_maxrss: KiB on Linux and the BSDs.
const maxrssUnit = 1024
