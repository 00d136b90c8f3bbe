package cpu

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestAgainstKernel compares the detected features with the flags the
// Linux kernel reports in /proc/cpuinfo (skipped elsewhere). The kernel
// lists avx2 only when the OS saves the YMM state, as our detection
// requires.
func TestAgainstKernel(t *testing.T) {
	if FMA && !AVX2 || POPCNT && !AVX2 || AVX512 && !AVX2 {
		t.Fatalf("FMA, POPCNT or AVX512 reported without AVX2: %v %v %v %v", AVX2, FMA, POPCNT, AVX512)
	}
	if runtime.GOARCH != "amd64" {
		if AVX2 || FMA || POPCNT || AVX512 {
			t.Fatalf("features reported on %s", runtime.GOARCH)
		}
		return
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo")
	}
	var flags map[string]bool
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			flags = map[string]bool{}
			for _, f := range strings.Fields(v) {
				flags[f] = true
			}
			break
		}
	}
	if flags == nil {
		t.Skip("no flags line in /proc/cpuinfo")
	}
	if !AVX2 && !FMA && !POPCNT && !AVX512 && purego {
		return
	}
	for _, c := range []struct {
		name string
		got  bool
	}{{"avx2", AVX2}, {"fma", FMA}, {"popcnt", POPCNT}} {
		want := flags[c.name] && (c.name == "avx2" || flags["avx2"])
		if c.got != want {
			t.Errorf("%s: detected %v, /proc/cpuinfo says %v", c.name, c.got, want)
		}
	}
	// The kernel lists avx512f and avx512vl only when the OS saves the ZMM
	// state.
	if want := flags["avx2"] && flags["avx512f"] && flags["avx512vl"]; AVX512 != want {
		t.Errorf("avx512: detected %v, /proc/cpuinfo says %v", AVX512, want)
	}
}
