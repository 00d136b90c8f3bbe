package models

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/spectral"
)

// saveCases are fits of every kind of model state: kernel and graph
// designs, the Standard design, the SVM and Spread classifiers, the kNN
// basis, several classes and the large-n path.
func saveCases() []struct {
	name string
	opt  Options
} {
	return []struct {
		name string
		opt  Options
	}{
		{"SKL/KLR", Options{Lambda: 0.1}},
		{"SKL/KLR/bias", Options{Lambda: 0.1, Bias: true}},
		{"Linear/Cluster", Options{Kernel: KernelSpec{Kind: Linear}, Design: Cluster}},
		{"Quadratic/Truncated", Options{Kernel: KernelSpec{Kind: Quadratic}, Design: Truncated, D: 5}},
		{"Standard/KLR", Options{Design: Standard, Lambda: 0.1}},
		{"Standard/SVM", Options{Design: Standard, Classifier: SVM}},
		{"SKL/SVM", Options{Classifier: SVM, C: 10}},
		{"Order", Options{Design: Order, GraphK: 5}},
		{"kNN/LabelSpreading", Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 10, GraphK: 5}},
		{"kNN/local/SKL", Options{Kernel: KernelSpec{Kind: KNN, LocalScale: true}, D: 10, GraphK: 5}},
		{"kNN/projected", Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 10, GraphK: 5, GraphDims: 1}},
		{"Spread", Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Classifier: Spread, GraphK: 5}},
		{"MinMax/MM", Options{Scale: MinMax, Design: MM, D: 8}},
		{"Custom", Options{Design: Custom, Custom: spectral.Cluster{}}},
		{"Large", Options{Large: LargeOn, Landmarks: 30, D: 8}},
		{"Auto", Options{Design: Auto}},
	}
}

// A saved and loaded model predicts bit-identically, on new points and on
// the training rows, and keeps its class names and accessors.
func TestSaveRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, classes := range []int{2, 3} {
		x, y := blobsForSave(classes)
		lab := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
		ys := make([]int, len(lab))
		for a, i := range lab {
			ys[a] = y[i]
		}
		xnew := mat.NewDense(5, 2, []float64{0.1, 0.2, 3, 3.1, -2, 4, 5, 0, 0.5, 0.4})
		rows := []int{9, 10, 11, 12, 20, 30}
		for _, tc := range saveCases() {
			m, err := Fit(ctx, x, lab, ys, &tc.opt)
			if err != nil {
				t.Fatalf("%d classes, %s: %v", classes, tc.name, err)
			}
			var buf bytes.Buffer
			if _, err := m.WriteTo(&buf); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			got, err := ReadModel(&buf)
			if err != nil {
				t.Fatalf("%d classes, %s: ReadModel: %v", classes, tc.name, err)
			}
			p1, e1 := m.Predict(nil, xnew)
			p2, e2 := got.Predict(nil, xnew)
			if !slices.Equal(p1, p2) || (e1 == nil) != (e2 == nil) {
				t.Errorf("%d classes, %s: Predict %v (%v) after the round trip, %v (%v) before", classes, tc.name, p2, e2, p1, e1)
			}
			r1, _ := m.PredictRows(nil, rows)
			r2, _ := got.PredictRows(nil, rows)
			if !slices.Equal(r1, r2) {
				t.Errorf("%d classes, %s: PredictRows differ", classes, tc.name)
			}
			q1, e1 := m.Proba(nil, xnew)
			q2, _ := got.Proba(nil, xnew)
			if e1 == nil && !mat.Equal(q1, q2) {
				t.Errorf("%d classes, %s: Proba differs after the round trip", classes, tc.name)
			}
			if !slices.Equal(m.ClassNames(), got.ClassNames()) || m.Design() != got.Design() || m.Status() != got.Status() ||
				len(m.Voters()) != len(got.Voters()) || (tc.opt.Design == Auto) != (len(m.Voters()) > 0) {
				t.Errorf("%d classes, %s: accessors differ", classes, tc.name)
			}
			o1, o2 := m.Options(), got.Options()
			o1.Custom = nil // only its name is saved
			if !reflect.DeepEqual(o1, o2) {
				t.Errorf("%d classes, %s: Options %+v after the round trip, %+v before", classes, tc.name, o2, o1)
			}
			b1, _ := m.MarshalBinary()
			b2, _ := got.MarshalBinary()
			if !bytes.Equal(b1, b2) {
				t.Errorf("%d classes, %s: re-encoding differs", classes, tc.name)
			}
		}
	}
}

// blobsForSave is a small set of classes blobs in the plane, the class of
// point i being i mod classes.
func blobsForSave(classes int) (*mat.Dense, []int) {
	const n = 60
	x := mat.NewDense(n, 2, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % classes
		y[i] = c
		x.Set(i, 0, float64(3*c)+0.3*float64((i*7)%5))
		x.Set(i, 1, float64((c*5)%7)+0.2*float64((i*3)%7))
	}
	return x, y
}

func TestSaveErrors(t *testing.T) {
	x, y := blobsForSave(2)
	m, err := Fit(context.Background(), x, []int{0, 1, 2, 3}, y[:4], &Options{Lambda: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	good, _ := m.MarshalBinary()
	version := bytes.Clone(good)
	version[8] = 99
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 1
	for _, tc := range []struct {
		name string
		data []byte
		kind error
	}{
		{"empty", nil, ErrModelFormat},
		{"not a model", []byte("label,x\n1,2\n"), ErrModelFormat},
		{"truncated", good[:len(good)-10], ErrModelFormat},
		{"bit flip", flipped, ErrModelFormat},
		{"version", version, ErrModelVersion},
	} {
		var got Model
		err := got.UnmarshalBinary(tc.data)
		if !errors.Is(err, tc.kind) || !errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.kind)
		}
	}
	var unfitted *Model
	if _, err := unfitted.MarshalBinary(); !errors.Is(err, ErrNotFitted) {
		t.Errorf("unfitted MarshalBinary: %v", err)
	}
}

// FuzzReadModel: no input makes the decoder panic or return a model that
// panics; a model it accepts predicts without error on a point of the
// right width.
func FuzzReadModel(f *testing.F) {
	x, y := blobsForSave(3)
	cases := saveCases()
	for _, tc := range append(cases[:8:8], cases[len(cases)-1]) { // the last: a committee
		m, err := Fit(context.Background(), x, []int{0, 1, 2, 3, 4, 5}, y[:6], &tc.opt)
		if err != nil {
			f.Fatal(err)
		}
		if tc.opt.Design == Auto && len(m.Voters()) == 0 {
			f.Fatal("the Auto case is not a committee")
		}
		b, _ := m.MarshalBinary()
		f.Add(b)
	}
	f.Add([]byte(modelMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadModel(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, linalg.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		_, p := m.pr.xs.Dims()
		m.Predict(nil, mat.NewDense(1, p, nil))
		m.PredictRows(nil, []int{0})
		m.Proba(nil, mat.NewDense(1, p, nil))
	})
}

// TestReadOldVersions reads model files written by the earlier formats
// (testdata/v1_*.ukm, v2_*.ukm and v4_*.ukm: the 3-class blobsForSave with labels
// 0..8, the options below) and checks that they predict what a fresh fit
// with the same options predicts.
func TestReadOldVersions(t *testing.T) {
	x, y := blobsForSave(3)
	lab := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	ys := make([]int, len(lab))
	for a, i := range lab {
		ys[a] = y[i]
	}
	xnew := mat.NewDense(5, 2, []float64{0.1, 0.2, 3, 3.1, -2, 4, 5, 0, 0.5, 0.4})
	for _, tc := range []struct {
		file string
		opt  Options
	}{
		{"v1_skl.ukm", Options{Lambda: 0.1}},
		{"v1_knn.ukm", Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 10, GraphK: 5}},
		{"v2_knn_projected.ukm", Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 10, GraphK: 5, GraphDims: 1}},
		{"v4_spread.ukm", Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Classifier: Spread, GraphK: 5}},
	} {
		f, err := os.Open(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		old, err := ReadModel(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		m, err := Fit(context.Background(), x, lab, ys, &tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		p1, _ := m.Predict(nil, xnew)
		p2, err := old.Predict(nil, xnew)
		if err != nil || !slices.Equal(p1, p2) {
			t.Errorf("%s: Predict %v (%v), a fresh fit %v", tc.file, p2, err, p1)
		}
	}
}

// failWriter fails after accepting limit bytes.
type failWriter struct{ limit int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		n := w.limit
		w.limit = 0
		return n, errors.New("disk full")
	}
	w.limit -= len(p)
	return len(p), nil
}

// TestSaveStreams checks that WriteTo, which streams the file, writes the
// bytes MarshalBinary returns and reports a failing writer; and that
// ReadModel reads files whole, from an offset, and refuses a truncated file
// or one with bytes after the model.
func TestSaveStreams(t *testing.T) {
	// 3,000 points: a payload of several encoder chunks.
	const n = 3000
	x := mat.NewDense(n, 3, nil)
	y := make([]int, n)
	for i := range y {
		y[i] = i % 3
		for j := 0; j < 3; j++ {
			x.Set(i, j, float64(4*y[i]*(j+1))+math.Sin(float64(7*i+j)))
		}
	}
	m, err := Fit(context.Background(), x, []int{0, 1, 2, 3, 4, 5}, y[:6], &Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 10, GraphK: 5})
	if err != nil {
		t.Fatal(err)
	}
	good, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(good) < 4*encoderChunk {
		t.Fatalf("a model of %d bytes does not test the chunks", len(good))
	}
	var buf bytes.Buffer
	if n, err := m.WriteTo(&buf); err != nil || n != int64(len(good)) || !bytes.Equal(buf.Bytes(), good) {
		t.Fatalf("WriteTo: %d bytes, %v; equal to MarshalBinary: %v", n, err, bytes.Equal(buf.Bytes(), good))
	}
	if _, err := m.WriteTo(&failWriter{limit: 100}); err == nil {
		t.Error("WriteTo to a failing writer: no error")
	}
	dir := t.TempDir()
	file := func(name string, data []byte) *os.File {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	want, _ := m.Predict(nil, x)
	for _, c := range []struct {
		name string
		data []byte
		skip int64
		ok   bool
	}{
		{"whole", good, 0, true},
		{"after a prefix", append([]byte("prefix"), good...), 6, true},
		{"truncated", good[:len(good)-3], 0, false},
		{"trailing bytes", append(bytes.Clone(good), 1, 2, 3), 0, false},
	} {
		f := file(c.name, c.data)
		if _, err := f.Seek(c.skip, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got, err := ReadModel(f)
		if c.ok != (err == nil) {
			t.Errorf("%s: error %v", c.name, err)
			continue
		}
		if err != nil {
			if !errors.Is(err, ErrModelFormat) {
				t.Errorf("%s: error %v, want ErrModelFormat", c.name, err)
			}
			continue
		}
		if p, _ := got.Predict(nil, x); !slices.Equal(p, want) {
			t.Errorf("%s: predictions differ", c.name)
		}
		if at, _ := f.Seek(0, io.SeekCurrent); at != int64(len(c.data)) {
			t.Errorf("%s: read to offset %d of %d", c.name, at, len(c.data))
		}
	}
}
