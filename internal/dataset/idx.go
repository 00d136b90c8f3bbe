package dataset

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ErrFormat is wrapped by every error that reports a malformed file: a wrong
// magic number, an unsupported element type, a bad or oversized shape, a
// truncated or corrupt body, trailing bytes, or files of a pair whose shapes
// do not agree. Test for it with errors.Is.
var ErrFormat = errors.New("dataset: malformed file")

// DefaultIDXMaxBytes is the default bound on the body of an IDX file (the
// product of its dimensions times the element size): 2 GiB.
const DefaultIDXMaxBytes = 1 << 31

// EnvFashionMNIST names the environment variable that overrides the
// directory returned by FashionMNISTDir.
const EnvFashionMNIST = "UKM_FASHION_MNIST"

// FashionMNISTDebianDir is where Debian's dataset-fashion-mnist package
// installs the four gzip-compressed IDX files.
const FashionMNISTDebianDir = "/usr/share/datasets/fashion-mnist"

// IDX is the content of an IDX file (the format of LeCun's MNIST files) whose
// elements are unsigned bytes: Data holds the product of Dims bytes in
// row-major order, the last dimension varying fastest.
type IDX struct {
	Dims []int
	Data []byte
}

// IDXOptions configures ReadIDXWith. The zero value gives the defaults.
type IDXOptions struct {
	// MaxBytes bounds the body size the header may declare; 0 means
	// DefaultIDXMaxBytes. A larger declaration is rejected before anything
	// is allocated for the body.
	MaxBytes int64
}

// idxTypes names the element types of the IDX format; only 0x08 is read.
var idxTypes = map[byte]string{
	0x08: "unsigned byte", 0x09: "signed byte", 0x0b: "int16",
	0x0c: "int32", 0x0d: "float32", 0x0e: "float64",
}

// idxChunk is the first allocation for a body; the buffer then doubles (up
// to the declared size) as data actually arrives, so a header that declares
// more than the input holds costs memory in proportion to the input only.
const idxChunk = 1 << 20

// ReadIDX reads an IDX file of unsigned bytes with the default options; see
// ReadIDXWith.
func ReadIDX(r io.Reader) (*IDX, error) {
	return ReadIDXWith(r, IDXOptions{})
}

// ReadIDXWith reads an IDX file: the magic number (two zero bytes, the
// element type, the number of dimensions), one big-endian uint32 per
// dimension, then the data, and nothing after it (r is read to its end).
// A gzip stream (magic 0x1f 0x8b, possibly several concatenated members) is
// decompressed transparently. Only element type 0x08 (unsigned byte) is
// supported.
//
// Errors wrap ErrFormat for a wrong magic, an unsupported type, no
// dimensions or a zero dimension, a declared size above opt.MaxBytes (or
// one that overflows), a truncated body, trailing bytes and a corrupt gzip
// stream; errors of r itself are wrapped as they are. Cost: one pass over
// the input; memory is the body plus at most as much again while the buffer
// grows, and never more than twice the bytes actually present.
func ReadIDXWith(r io.Reader, opt IDXOptions) (*IDX, error) {
	limit := opt.MaxBytes
	if limit == 0 {
		limit = DefaultIDXMaxBytes
	}
	if limit < 0 {
		return nil, fmt.Errorf("dataset: negative IDX size limit %d", limit)
	}
	limit = min(limit, math.MaxInt)
	br := bufio.NewReader(r)
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("dataset: reading idx: %w", err)
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, idxReadErr(err, "gzip header")
		}
		defer gz.Close()
		gz.Multistream(false)
		return readIDX(&gzipMembers{br, gz}, limit)
	}
	return readIDX(br, limit)
}

// errGzipTrailing reports bytes after the last member of a gzip stream.
var errGzipTrailing = fmt.Errorf("%w: idx: trailing bytes after the gzip stream", ErrFormat)

// gzipMembers reads a gzip stream member by member (concatenated members
// are one stream, as gzip -d has it) and reports bytes after the last
// member that do not start another one as errGzipTrailing.
type gzipMembers struct {
	br *bufio.Reader
	gz *gzip.Reader
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	n, err := g.gz.Read(p)
	if err != io.EOF {
		return n, err
	}
	switch m, perr := g.br.Peek(2); {
	case len(m) == 0 && perr == io.EOF:
		return n, io.EOF
	case len(m) == 0:
		return n, perr
	case len(m) == 2 && m[0] == 0x1f && m[1] == 0x8b:
		if err := g.gz.Reset(g.br); err != nil {
			return n, err
		}
		g.gz.Multistream(false)
		return n, nil
	}
	return n, errGzipTrailing
}

func readIDX(r io.Reader, limit int64) (*IDX, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, idxReadErr(err, "magic number")
	}
	if head[0] != 0 || head[1] != 0 {
		return nil, fmt.Errorf("%w: idx: wrong magic % x (want 00 00, the element type and the number of dimensions)", ErrFormat, head)
	}
	if head[2] != 0x08 {
		name, ok := idxTypes[head[2]]
		if !ok {
			return nil, fmt.Errorf("%w: idx: unknown element type 0x%02x", ErrFormat, head[2])
		}
		return nil, fmt.Errorf("%w: idx: unsupported element type 0x%02x (%s); only 0x08 (unsigned byte) is read", ErrFormat, head[2], name)
	}
	nd := int(head[3])
	if nd == 0 {
		return nil, fmt.Errorf("%w: idx: zero dimensions", ErrFormat)
	}
	raw := make([]byte, 4*nd)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, idxReadErr(err, "dimensions")
	}
	dims32 := make([]uint32, nd)
	var size uint64 = 1
	overflow := false
	for i := range dims32 {
		d := binary.BigEndian.Uint32(raw[4*i:])
		if d == 0 {
			return nil, fmt.Errorf("%w: idx: dimension %d of %d is zero", ErrFormat, i+1, nd)
		}
		dims32[i] = d
		hi, lo := bits.Mul64(size, uint64(d))
		overflow = overflow || hi != 0
		size = lo
	}
	if overflow || size > uint64(limit) {
		decl := "more than 2^64"
		if !overflow {
			decl = strconv.FormatUint(size, 10)
		}
		return nil, fmt.Errorf("%w: idx: dimensions %v declare %s bytes, above the limit of %d (IDXOptions.MaxBytes)", ErrFormat, dims32, decl, limit)
	}
	dims := make([]int, nd)
	for i, d := range dims32 {
		dims[i] = int(d) // fits: every dimension is at most size ≤ limit ≤ MaxInt
	}
	n := int(size)
	data := make([]byte, 0, min(n, idxChunk))
	for len(data) < n {
		if len(data) == cap(data) {
			data = slices.Grow(data, min(cap(data), n-len(data)))
		}
		k, err := io.ReadFull(r, data[len(data):min(cap(data), n)])
		data = data[:len(data)+k]
		if err != nil {
			return nil, idxReadErr(err, fmt.Sprintf("data (got %d of %d bytes)", len(data), n))
		}
	}
	var extra [1]byte
	switch k, err := io.ReadFull(r, extra[:]); {
	case k > 0:
		return nil, fmt.Errorf("%w: idx: trailing bytes after the %d declared data bytes", ErrFormat, n)
	case err != io.EOF:
		return nil, idxReadErr(err, "end of file")
	}
	return &IDX{Dims: dims, Data: data}, nil
}

// idxReadErr classifies a read error: a short read or a corrupt gzip stream
// is a format error, anything else an I/O error.
func idxReadErr(err error, what string) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, errGzipTrailing):
		return err
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: idx: truncated %s", ErrFormat, what)
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum), errors.As(err, &corrupt):
		return fmt.Errorf("%w: idx: corrupt gzip stream at %s: %v", ErrFormat, what, err)
	}
	return fmt.Errorf("dataset: reading idx %s: %w", what, err)
}

// ReadIDXFile reads the IDX file at path with the default options (gzip is
// recognised by its magic bytes, whatever the name). Errors are those of
// ReadIDXWith, prefixed with the path.
func ReadIDXFile(path string) (*IDX, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %v", err)
	}
	defer f.Close()
	x, err := ReadIDX(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return x, nil
}

// LoadIDXPair reads an image file (n x rows x cols unsigned bytes; any
// n x d1 x ... shape with at least two dimensions is flattened to
// n x (d1·...)) and a label file (n unsigned bytes) into a Set: X holds the
// pixels divided by 255 (so in [0, 1]), Labels the labels in decimal, and
// Classes the labels present, sorted numerically ("0".."9" for MNIST).
// Name is the image file's base name without ".gz". A count mismatch or a
// label file that is not one-dimensional is an error wrapping ErrFormat.
// Cost: the bytes of both files plus 8 bytes per pixel for X.
func LoadIDXPair(images, labels string) (*Set, error) {
	img, err := ReadIDXFile(images)
	if err != nil {
		return nil, err
	}
	lab, err := ReadIDXFile(labels)
	if err != nil {
		return nil, err
	}
	s, err := idxSet([]*IDX{img}, []*IDX{lab}, []string{images}, []string{labels})
	if err != nil {
		return nil, err
	}
	s.Name = strings.TrimSuffix(filepath.Base(images), ".gz")
	return s, nil
}

// fashionFiles are the image and label files of Fashion-MNIST (and MNIST):
// the training part first, then the test part.
var fashionFiles = [][2]string{
	{"train-images-idx3-ubyte", "train-labels-idx1-ubyte"},
	{"t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"},
}

// FashionMNIST reads Zalando's Fashion-MNIST from dir: the files
// train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz,
// t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz (each also
// accepted without ".gz"). It returns the 70,000 28x28 images as one Set
// named "fashion-mnist", the 60,000 training images first (rows 0..59999)
// and the 10,000 test images after them, with pixels scaled to [0, 1] and
// classes "0".."9" (T-shirt/top, Trouser, Pullover, Dress, Coat, Sandal,
// Shirt, Sneaker, Bag, Ankle boot). A missing file is an error wrapping
// ErrNotFound; a malformed one wraps ErrFormat. Cost: about 440 MB for X
// plus the 55 MB of decompressed files while reading.
func FashionMNIST(dir string) (*Set, error) {
	var imgs, labs []*IDX
	var imgNames, labNames []string
	for _, pair := range fashionFiles {
		for k, base := range pair {
			path, err := findIDX(dir, base)
			if err != nil {
				return nil, err
			}
			x, err := ReadIDXFile(path)
			if err != nil {
				return nil, err
			}
			if k == 0 {
				imgs, imgNames = append(imgs, x), append(imgNames, path)
			} else {
				labs, labNames = append(labs, x), append(labNames, path)
			}
		}
	}
	s, err := idxSet(imgs, labs, imgNames, labNames)
	if err != nil {
		return nil, err
	}
	s.Name = "fashion-mnist"
	return s, nil
}

// findIDX returns dir/base.gz or else dir/base.
func findIDX(dir, base string) (string, error) {
	for _, fn := range []string{base + ".gz", base} {
		p := filepath.Join(dir, fn)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: no %s.gz or %s in %s", ErrNotFound, base, base, dir)
}

// FashionMNISTDir returns the directory holding Fashion-MNIST: the value of
// the UKM_FASHION_MNIST environment variable if set (it must name a
// directory), otherwise FashionMNISTDebianDir if the Debian package
// dataset-fashion-mnist is installed. Otherwise it returns an error
// wrapping ErrNotFound.
func FashionMNISTDir() (string, error) {
	if d := os.Getenv(EnvFashionMNIST); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
		return "", fmt.Errorf("%w: %s=%q is not a directory", ErrNotFound, EnvFashionMNIST, d)
	}
	if _, err := findIDX(FashionMNISTDebianDir, fashionFiles[0][0]); err == nil {
		return FashionMNISTDebianDir, nil
	}
	return "", fmt.Errorf("%w: no Fashion-MNIST in %s (apt-get install dataset-fashion-mnist) and %s is unset", ErrNotFound, FashionMNISTDebianDir, EnvFashionMNIST)
}

// idxSet concatenates image/label pairs into a Set.
func idxSet(imgs, labs []*IDX, imgNames, labNames []string) (*Set, error) {
	n, p := 0, 0
	for i, img := range imgs {
		if len(img.Dims) < 2 {
			return nil, fmt.Errorf("%w: %s: images have shape %v, want n x rows x cols", ErrFormat, imgNames[i], img.Dims)
		}
		if len(labs[i].Dims) != 1 {
			return nil, fmt.Errorf("%w: %s: labels have shape %v, want one dimension", ErrFormat, labNames[i], labs[i].Dims)
		}
		if img.Dims[0] != labs[i].Dims[0] {
			return nil, fmt.Errorf("%w: %s has %d images but %s has %d labels", ErrFormat, imgNames[i], img.Dims[0], labNames[i], labs[i].Dims[0])
		}
		q := len(img.Data) / img.Dims[0]
		if i > 0 && q != p {
			return nil, fmt.Errorf("%w: %s has %d pixels per image, %s has %d", ErrFormat, imgNames[i], q, imgNames[0], p)
		}
		n, p = n+img.Dims[0], q
	}
	var scale [256]float64
	for i := range scale {
		scale[i] = float64(i) / 255
	}
	data := make([]float64, n*p)
	y := make([]int, 0, n)
	var present [256]bool
	off := 0
	for i, img := range imgs {
		dst := data[off : off+len(img.Data)]
		for j, b := range img.Data {
			dst[j] = scale[b]
		}
		off += len(img.Data)
		for _, l := range labs[i].Data {
			present[l] = true
			y = append(y, int(l))
		}
	}
	var classes []string
	var index [256]int
	for l, ok := range present {
		if ok {
			index[l] = len(classes)
			classes = append(classes, strconv.Itoa(l))
		}
	}
	labels := make([]string, n)
	for i, l := range y {
		labels[i] = classes[index[l]]
		y[i] = index[l]
	}
	return &Set{X: mat.NewDense(n, p, data), Labels: labels, Y: y, Classes: classes}, nil
}
