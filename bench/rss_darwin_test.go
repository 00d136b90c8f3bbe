//go:build darwin

package bench

// maxrssUnit is the unit of ru_maxrss: bytes on macOS.
const maxrssUnit = 1
