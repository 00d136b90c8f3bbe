package repro

import "testing"

func TestPublished(t *testing.T) {
	for _, tc := range []struct {
		table, dataset, method string
		l                      int
		mean, se               float64
	}{
		{"kdd06-table2", "ionosphere", "SKL(RBF)", 10, 83.36, 1.31},
		{"kdd06-table2", "wine", "Quadratic", 40, 88.80, 0.93},
		{"kdd06-table3", "sonar", "UKLR/RBF", 40, 73.16, 0.88},
		{"mm-table4", "banana_train1", "MM(RBF)", 30, 74.87, 1.33},
	} {
		p, ok := PublishedCell(tc.table, tc.dataset, tc.method, tc.l)
		if !ok || p.Mean != tc.mean || p.StdErr != tc.se {
			t.Errorf("%v: got %v %v", tc, p, ok)
		}
	}
	// 4 datasets x 8 methods x 4 sizes, 4 x 8 x 4, 4 x 7 x 3.
	counts := map[string]int{}
	for k := range published {
		counts[k.Table]++
	}
	if counts["kdd06-table2"] != 128 || counts["kdd06-table3"] != 128 || counts["mm-table4"] != 84 {
		t.Errorf("cell counts %v", counts)
	}
	if _, ok := PublishedCell("kdd06-table2", "wine", "SKL(RBF)", 50); ok {
		t.Error("unknown size found")
	}
}
