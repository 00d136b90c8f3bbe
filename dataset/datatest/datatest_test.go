package datatest

import (
	"os"
	"testing"
)

// TestLoad loads a data set that ships with the project and checks its
// shape; a name that does not exist must skip (or, under CI, fail, which is
// why that half runs only outside CI).
func TestLoad(t *testing.T) {
	t.Run("missing", func(t *testing.T) {
		if os.Getenv("CI") != "" {
			t.Skip("under CI a missing data set fails the test by design")
		}
		ran := false
		t.Run("inner", func(t *testing.T) {
			defer func() { ran = true }()
			Load(t, "no-such-data-set")
			t.Error("Load returned for a missing data set")
		})
		if !ran {
			t.Error("inner test did not run")
		}
	})
	t.Run("ionosphere", func(t *testing.T) {
		s := Load(t, "ionosphere")
		if n, _ := s.X.Dims(); n != len(s.Y) || n == 0 {
			t.Errorf("ionosphere: %d rows, %d labels", n, len(s.Y))
		}
	})
}
