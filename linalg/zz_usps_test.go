package linalg

import (
	"context"
	"testing"
	"time"

	"ukm/internal/dataset"
)

func TestUSPSTime(t *testing.T) {
	set, err := dataset.Load("usps")
	if err != nil {
		t.Skip(err)
	}
	t0 := time.Now()
	_, err = KNNGraph(context.Background(), set.X, 10, nil)
	t.Logf("usps %v: %v", time.Since(t0), err)
}
