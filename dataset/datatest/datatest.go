// Package datatest loads the project's reference data sets (package
// ukm/dataset) inside tests and benchmarks. When a data set cannot
// be loaded the test is skipped, except when the environment variable CI is
// set: there the data must be present and the test fails.
package datatest

import (
	"os"
	"testing"

	"ukm/dataset"
)

// Load returns the named data set, skipping tb when it cannot be loaded
// (failing it instead when CI is set).
func Load(tb testing.TB, name string) *dataset.Set {
	tb.Helper()
	s, err := dataset.Load(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("loading data set %s: %v", name, err)
		}
		tb.Skipf("data set %s not available: %v", name, err)
	}
	return s
}
