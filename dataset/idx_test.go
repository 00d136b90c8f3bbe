package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"ukm/linalg"
)

// encodeIDX writes an unsigned-byte IDX file.
func encodeIDX(dims []uint32, data []byte) []byte {
	b := []byte{0, 0, 0x08, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return append(b, data...)
}

func idxGzip(t testing.TB, b []byte) []byte { return gzipBytes(t, b) }

func idxRandom(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.UintN(256))
	}
	return b
}

func TestReadIDXRoundTrip(t *testing.T) {
	data := idxRandom(3*5*4, 1)
	plain := encodeIDX([]uint32{3, 5, 4}, data)
	big := idxRandom(3<<20+17, 2) // several buffer doublings
	for name, in := range map[string][]byte{
		"plain":      plain,
		"gzip":       idxGzip(t, plain),
		"2 members":  append(idxGzip(t, plain[:10]), idxGzip(t, plain[10:])...),
		"1-dim":      encodeIDX([]uint32{7}, data[:7]),
		"large":      encodeIDX([]uint32{3<<20 + 17}, big),
		"large gzip": idxGzip(t, encodeIDX([]uint32{3<<20 + 17}, big)),
	} {
		x, err := ReadIDX(bytes.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := data
		switch name {
		case "1-dim":
			want = data[:7]
		case "large", "large gzip":
			want = big
		}
		if !bytes.Equal(x.Data, want) {
			t.Errorf("%s: data differs", name)
		}
		if p := idxProd(x.Dims); p != len(x.Data) {
			t.Errorf("%s: dims %v for %d bytes", name, x.Dims, len(x.Data))
		}
	}

	dir := t.TempDir()
	// Gzip is recognised by content, not by name.
	path := filepath.Join(dir, "noext")
	if err := os.WriteFile(path, idxGzip(t, plain), 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := ReadIDXFile(path)
	if err != nil || !slices.Equal(x.Dims, []int{3, 5, 4}) || !bytes.Equal(x.Data, data) {
		t.Fatalf("ReadIDXFile: %v %v", x, err)
	}
	if _, err := ReadIDXFile(filepath.Join(dir, "missing")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing file: %v", err)
	}
}

func idxProd(d []int) int {
	p := 1
	for _, v := range d {
		p *= v
	}
	return p
}

func TestReadIDXMalformed(t *testing.T) {
	good := encodeIDX([]uint32{2, 3}, []byte{1, 2, 3, 4, 5, 6})
	gz := idxGzip(t, good)
	corrupt := slices.Clone(gz)
	corrupt[len(corrupt)-5] ^= 0xff // the CRC-32 and length trailer
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "truncated magic"},
		{"short magic", []byte{0, 0, 8}, "truncated magic"},
		{"wrong magic", []byte{1, 0, 8, 1, 0, 0, 0, 1, 9}, "wrong magic"},
		{"float32", []byte{0, 0, 0x0d, 1, 0, 0, 0, 1, 0, 0, 0, 0}, "unsupported element type 0x0d (float32)"},
		{"unknown type", []byte{0, 0, 0x42, 1, 0, 0, 0, 1, 0}, "unknown element type 0x42"},
		{"no dims", []byte{0, 0, 8, 0}, "zero dimensions"},
		{"zero dim", encodeIDX([]uint32{2, 0}, nil), "dimension 2 of 2 is zero"},
		{"short dims", good[:9], "truncated dimensions"},
		{"truncated", good[:len(good)-1], "truncated data (got 5 of 6 bytes)"},
		{"trailing", append(slices.Clone(good), 0), "trailing bytes"},
		{"too large", encodeIDX([]uint32{1 << 16, 1 << 16}, nil), "declare 4294967296 bytes, above the limit"},
		{"overflow", encodeIDX([]uint32{1 << 31, 1 << 31, 1 << 31}, nil), "more than 2^64"},
		{"gzip truncated", gz[:len(gz)-10], "truncated"},
		{"gzip corrupt", corrupt, "corrupt gzip"},
		{"gzip trailing", append(idxGzip(t, good), 0, 0), "trailing bytes"},
		{"gzip garbage after", append(slices.Clone(gz), "junk junk junk"...), "trailing bytes after the gzip stream"},
		{"gzip two members", append(slices.Clone(gz), idxGzip(t, []byte{7})...), "trailing bytes after the 6"},
		{"gzip bad header", []byte{0x1f, 0x8b, 0, 0, 0, 0, 0, 0, 0, 0}, "gzip"},
	} {
		_, err := ReadIDX(bytes.NewReader(tc.in))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !errors.Is(err, ErrFormat) || !errors.Is(err, linalg.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q, want ErrFormat containing %q", tc.name, err, tc.want)
		}
	}
}

func TestReadIDXIOError(t *testing.T) {
	boom := errors.New("boom")
	good := encodeIDX([]uint32{2}, []byte{1, 2})
	for _, r := range []io.Reader{iotest.ErrReader(boom), io.MultiReader(bytes.NewReader(good[:7]), iotest.ErrReader(boom))} {
		if _, err := ReadIDX(r); !errors.Is(err, boom) || errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("error %v, want boom and not ErrFormat", err)
		}
	}
}

func TestReadIDXLimit(t *testing.T) {
	in := encodeIDX([]uint32{10}, make([]byte, 10))
	if _, err := ReadIDXWith(bytes.NewReader(in), IDXOptions{MaxBytes: 10}); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	_, err := ReadIDXWith(bytes.NewReader(in), IDXOptions{MaxBytes: 9})
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "above the limit of 9") {
		t.Fatalf("above the limit: %v", err)
	}
	if _, err := ReadIDXWith(bytes.NewReader(in), IDXOptions{MaxBytes: -1}); !errors.Is(err, linalg.ErrSettings) {
		t.Fatalf("negative limit: %v", err)
	}
}

func TestReadIDXHugeHeaderNoAlloc(t *testing.T) {
	// 20 bytes declaring 1000·1000·1000·4 = 4e9 bytes: rejected up front.
	huge := encodeIDX([]uint32{1000, 1000, 1000, 4}, nil)
	if len(huge) != 20 {
		t.Fatalf("header is %d bytes", len(huge))
	}
	var err error
	if a := allocated(func() { _, err = ReadIDX(bytes.NewReader(huge)) }); a >= 1<<20 {
		t.Errorf("idxAllocated %d bytes for a rejected header", a)
	}
	if !errors.Is(err, ErrFormat) {
		t.Fatalf("error %v, want ErrFormat", err)
	}
	// 1e9 bytes (under the limit) declared, 100 present: memory follows the
	// input, not the declaration.
	lying := encodeIDX([]uint32{1000, 1000, 1000}, make([]byte, 100))
	if a := allocated(func() { _, err = ReadIDX(bytes.NewReader(lying)) }); a >= 2<<20 {
		t.Errorf("idxAllocated %d bytes for a 112-byte truncated file", a)
	}
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "truncated data") {
		t.Fatalf("error %v, want truncated", err)
	}
}

func idxWrite(t *testing.T, path string, b []byte) string {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadIDXPair(t *testing.T) {
	dir := t.TempDir()
	pix := []byte{0, 255, 51, 102, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	img := idxWrite(t, filepath.Join(dir, "img.gz"), idxGzip(t, encodeIDX([]uint32{4, 2, 2}, pix)))
	lab := idxWrite(t, filepath.Join(dir, "lab"), encodeIDX([]uint32{4}, []byte{7, 2, 7, 0}))
	s, err := LoadIDXPair(img, lab)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := s.X.Dims(); r != 4 || c != 4 {
		t.Fatalf("X is %d x %d", r, c)
	}
	if s.X.At(0, 0) != 0 || s.X.At(0, 1) != 1 || s.X.At(0, 2) != 0.2 || s.X.At(0, 3) != 0.4 || s.X.At(3, 3) != 12.0/255 {
		t.Errorf("pixels not scaled by 1/255: %v", s.X.RawRowView(0))
	}
	if !slices.Equal(s.Classes, []string{"0", "2", "7"}) || !slices.Equal(s.Y, []int{2, 1, 2, 0}) ||
		!slices.Equal(s.Labels, []string{"7", "2", "7", "0"}) || s.Name != "img" {
		t.Errorf("classes %v y %v labels %v name %q", s.Classes, s.Y, s.Labels, s.Name)
	}

	short := idxWrite(t, filepath.Join(dir, "short"), encodeIDX([]uint32{3}, []byte{1, 2, 3}))
	_, err = LoadIDXPair(img, short)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "has 4 images but") || !strings.Contains(err.Error(), "has 3 labels") {
		t.Errorf("count mismatch: %v", err)
	}
	flat := idxWrite(t, filepath.Join(dir, "flat"), encodeIDX([]uint32{16}, pix))
	if _, err = LoadIDXPair(flat, lab); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "want n x rows x cols") {
		t.Errorf("1-dim images: %v", err)
	}
	if _, err = LoadIDXPair(img, img); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "want one dimension") {
		t.Errorf("3-dim labels: %v", err)
	}
}

func TestFashionMNISTSmall(t *testing.T) {
	dir := t.TempDir()
	// Training part gzip-compressed, test part plain: both names accepted.
	idxWrite(t, filepath.Join(dir, "train-images-idx3-ubyte.gz"), idxGzip(t, encodeIDX([]uint32{2, 1, 2}, []byte{0, 255, 255, 0})))
	idxWrite(t, filepath.Join(dir, "train-labels-idx1-ubyte.gz"), idxGzip(t, encodeIDX([]uint32{2}, []byte{3, 1})))
	idxWrite(t, filepath.Join(dir, "t10k-images-idx3-ubyte"), encodeIDX([]uint32{1, 2, 1}, []byte{51, 51}))
	if _, err := FashionMNIST(dir); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing labels: %v", err)
	}
	idxWrite(t, filepath.Join(dir, "t10k-labels-idx1-ubyte"), encodeIDX([]uint32{1}, []byte{9}))
	s, err := FashionMNIST(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := s.X.Dims(); r != 3 || c != 2 || s.X.At(0, 1) != 1 || s.X.At(2, 0) != 0.2 {
		t.Fatalf("X = %v", s.X)
	}
	if !slices.Equal(s.Labels, []string{"3", "1", "9"}) || !slices.Equal(s.Classes, []string{"1", "3", "9"}) || s.Name != "fashion-mnist" {
		t.Fatalf("labels %v classes %v name %q", s.Labels, s.Classes, s.Name)
	}
	// Test images of another size do not concatenate.
	idxWrite(t, filepath.Join(dir, "t10k-images-idx3-ubyte.gz"), idxGzip(t, encodeIDX([]uint32{1, 3, 1}, []byte{1, 2, 3})))
	if _, err := FashionMNIST(dir); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "pixels per image") {
		t.Fatalf("size mismatch: %v", err)
	}

	t.Setenv(EnvFashionMNIST, dir)
	if d, err := FashionMNISTDir(); err != nil || d != dir {
		t.Fatalf("FashionMNISTDir = %q, %v", d, err)
	}
	t.Setenv(EnvFashionMNIST, filepath.Join(dir, "nope"))
	if _, err := FashionMNISTDir(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bad %s: %v", EnvFashionMNIST, err)
	}
}

// fashionDirOrSkip returns the Fashion-MNIST directory or skips the test, unless
// CI is set: then a missing data set fails it.
func fashionDirOrSkip(tb testing.TB) string {
	dir, err := FashionMNISTDir()
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatal(err)
		}
		tb.Skip(err)
	}
	return dir
}

func TestFashionMNISTReal(t *testing.T) {
	s, err := FashionMNIST(fashionDirOrSkip(t))
	if err != nil {
		t.Fatal(err)
	}
	if r, c := s.X.Dims(); r != 70000 || c != 784 {
		t.Fatalf("X is %d x %d, want 70000 x 784", r, c)
	}
	if !slices.Equal(s.Classes, strings.Fields("0 1 2 3 4 5 6 7 8 9")) {
		t.Fatalf("classes %v", s.Classes)
	}
	count := make([]int, 10)
	for _, c := range s.Y[:60000] {
		count[c]++
	}
	for c, k := range count {
		if k != 6000 {
			t.Errorf("class %d has %d training images, want 6000", c, k)
		}
	}
	// The first training and the first test image are both ankle boots.
	if s.Labels[0] != "9" || s.Labels[60000] != "9" {
		t.Errorf("labels[0] = %s, labels[60000] = %s; want 9, 9", s.Labels[0], s.Labels[60000])
	}
	lo, hi := 1.0, 0.0
	for _, v := range s.X.RawMatrix().Data {
		lo, hi = min(lo, v), max(hi, v)
	}
	if lo != 0 || hi != 1 {
		t.Errorf("pixel range [%v, %v], want [0, 1]", lo, hi)
	}
}

func BenchmarkFashionMNIST(b *testing.B) {
	dir := fashionDirOrSkip(b)
	b.SetBytes(70000 * (784 + 1))
	for b.Loop() {
		if _, err := FashionMNIST(dir); err != nil {
			b.Fatal(err)
		}
	}
}
