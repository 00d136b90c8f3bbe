package dataset

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ukm/linalg"
)

// TestBadInputKinds walks the exported functions with bad input and checks
// that every error wraps linalg.ErrInvalid and the kind that names it.
func TestBadInputKinds(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	writeTo(t, bad, "y,a\nx,zz\n")
	lab := filepath.Join(dir, "lab")
	writeTo(t, lab, string(encodeIDX([]uint32{2}, []byte{1, 2})))
	img := filepath.Join(dir, "img")
	writeTo(t, img, string(encodeIDX([]uint32{3, 1, 1}, []byte{1, 2, 3})))
	badCSR := &SparseTable{X: &linalg.CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 1}, ColIdx: []int{3}, Val: []float64{1}}, Labels: []string{""}}
	nanCSR := &SparseTable{X: &linalg.CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 1}, ColIdx: []int{0}, Val: []float64{math.NaN()}}, Labels: []string{""}}
	short := &SparseTable{X: &linalg.CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 0}}}
	for _, tc := range []struct {
		name string
		kind error
		call func() error
	}{
		{"ReadTable options", linalg.ErrSettings, func() error { _, err := ReadTable(bad, TableOptions{Comma: '\n'}); return err }},
		{"ReadTable data", ErrFormat, func() error { _, err := ReadTable(bad, TableOptions{}); return err }},
		{"ReadTableFrom nil", linalg.ErrEmpty, func() error { _, err := ReadTableFrom(nil, TableOptions{}); return err }},
		{"ReadTableFrom empty", linalg.ErrEmpty, func() error { _, err := ReadTableFrom(strings.NewReader(" \n"), TableOptions{}); return err }},
		{"ReadTableFrom NaN", linalg.ErrNonFinite, func() error { _, err := ReadTableFrom(strings.NewReader("1,nan\n"), TableOptions{}); return err }},
		{"ReadTableFrom dense limit", linalg.ErrSettings, func() error { _, err := ReadTableFrom(strings.NewReader(hugeIndex), TableOptions{}); return err }},
		{"ReadLIBSVM nil", linalg.ErrEmpty, func() error { _, err := ReadLIBSVM(nil, TableOptions{}); return err }},
		{"ReadLIBSVM options", linalg.ErrSettings, func() error {
			_, err := ReadLIBSVM(strings.NewReader("1 1:1"), TableOptions{MaxDenseBytes: -1})
			return err
		}},
		{"ReadLIBSVM data", ErrFormat, func() error { _, err := ReadLIBSVM(strings.NewReader("1 1:1 1:2"), TableOptions{}); return err }},
		{"ReadLIBSVMFile data", linalg.ErrEmpty, func() error { _, err := ReadLIBSVMFile(bad, TableOptions{}); return err }},
		{"Dense nil", linalg.ErrEmpty, func() error { _, err := (*SparseTable)(nil).Dense(0); return err }},
		{"Dense empty", linalg.ErrEmpty, func() error { _, err := (&SparseTable{X: &linalg.CSR{RowPtr: []int{0}}}).Dense(0); return err }},
		{"Dense negative", linalg.ErrSettings, func() error { _, err := (&SparseTable{X: &linalg.CSR{RowPtr: []int{0}}}).Dense(-1); return err }},
		{"Dense bad CSR", linalg.ErrShape, func() error { _, err := badCSR.Dense(0); return err }},
		{"Dense NaN", linalg.ErrNonFinite, func() error { _, err := nanCSR.Dense(0); return err }},
		{"Dense labels", linalg.ErrShape, func() error { _, err := short.Dense(0); return err }},
		{"Read nil", linalg.ErrEmpty, func() error { _, err := Read(nil); return err }},
		{"Read unlabeled", linalg.ErrLabels, func() error { _, err := Read(strings.NewReader("?,1\n")); return err }},
		{"ReadFile data", ErrFormat, func() error { _, err := ReadFile(bad); return err }},
		{"ReadIDX nil", linalg.ErrEmpty, func() error { _, err := ReadIDX(nil); return err }},
		{"ReadIDX data", ErrFormat, func() error { _, err := ReadIDX(bytes.NewReader([]byte{1})); return err }},
		{"ReadIDXWith options", linalg.ErrSettings, func() error { _, err := ReadIDXWith(bytes.NewReader(nil), IDXOptions{MaxBytes: -1}); return err }},
		{"ReadIDXFile data", ErrFormat, func() error { _, err := ReadIDXFile(bad); return err }},
		{"LoadIDXPair counts", ErrFormat, func() error { _, err := LoadIDXPair(img, lab); return err }},
		{"Encode", linalg.ErrLabels, func() error { _, err := Encode([]string{"a"}, []string{"b"}); return err }},
		{"Decode", linalg.ErrLabels, func() error { _, err := Decode([]string{"a"}, []int{1}); return err }},
		{"Binary", linalg.ErrLabels, func() error { _, err := (&Set{}).Binary(); return err }},
		{"TwoCircles", linalg.ErrSettings, func() error { _, err := TwoCircles(0, 0, 1); return err }},
		{"TwoMoons", linalg.ErrSettings, func() error { _, err := TwoMoons(1, -1, 1); return err }},
		{"Relevance", linalg.ErrSettings, func() error { _, err := Relevance(1, math.Inf(1), 1); return err }},
		{"Blobs", linalg.ErrSettings, func() error { _, err := Blobs(1, 2, 2, 1); return err }},
		{"BlobsWith", linalg.ErrSettings, func() error { _, err := BlobsWith(10, 2, 2, 1, BlobsOptions{Noise: -1}); return err }},
	} {
		err := tc.call()
		if !errors.Is(err, linalg.ErrInvalid) || !errors.Is(err, tc.kind) {
			t.Errorf("%s: %v, want an error wrapping %v and linalg.ErrInvalid", tc.name, err, tc.kind)
			continue
		}
		var le *linalg.Error
		if !errors.As(err, &le) || !strings.HasPrefix(le.Op, "dataset.") {
			t.Errorf("%s: %v is not a *linalg.Error of this package", tc.name, err)
		}
	}
	if !errors.Is(ErrFormat, linalg.ErrInvalid) || errors.Is(ErrNotFound, linalg.ErrInvalid) {
		t.Error("ErrFormat must wrap linalg.ErrInvalid and ErrNotFound must not")
	}
}

func writeTo(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
