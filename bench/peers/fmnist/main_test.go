package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestWriteNpy checks the .npy layout NumPy reads: the magic and version,
// a header padded so that the data start at a multiple of 64 bytes, the
// shape, and the values in row order.
func TestWriteNpy(t *testing.T) {
	x := mat.NewDense(2, 3, []float64{1, -2, 3.5, math.Pi, 0, 1e-300})
	path := filepath.Join(t.TempDir(), "x.npy")
	if err := writeNpy(path, x); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\x93NUMPY\x01\x00")) {
		t.Fatalf("magic %q", b[:8])
	}
	hl := int(binary.LittleEndian.Uint16(b[8:10]))
	start := 10 + hl
	header := string(b[10:start])
	if start%64 != 0 || header[len(header)-1] != '\n' || !bytes.Contains(b[10:start], []byte("'shape': (2, 3)")) {
		t.Fatalf("header %q (data at byte %d)", header, start)
	}
	if len(b)-start != 6*8 {
		t.Fatalf("%d data bytes, want 48", len(b)-start)
	}
	for i, want := range x.RawMatrix().Data {
		got := math.Float64frombits(binary.LittleEndian.Uint64(b[start+8*i:]))
		if got != want {
			t.Errorf("value %d: %v, want %v", i, got, want)
		}
	}
}
