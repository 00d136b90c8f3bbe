package dataset

import (
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"ukm/linalg"
)

// DefaultIDXMaxBytes is the default bound on the body of an IDX file (the
// product of its dimensions times the element size): 2 GiB.
const DefaultIDXMaxBytes = 1 << 31

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
	return readIDXFrom(r, IDXOptions{}, src{op: "dataset.ReadIDX"})
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
// stream, and linalg.ErrSettings for a negative opt.MaxBytes; errors of r
// itself are wrapped as they are. Cost: one pass over the input; memory is
// the body plus at most as much again while the buffer grows, and never
// more than twice the bytes actually present.
func ReadIDXWith(r io.Reader, opt IDXOptions) (*IDX, error) {
	return readIDXFrom(r, opt, src{op: "dataset.ReadIDXWith"})
}

// ReadIDXFile reads the IDX file at path with the default options (gzip is
// recognised by its magic bytes, whatever the name). Errors are those of
// ReadIDXWith and name the file; a missing file is an error wrapping
// ErrNotFound.
func ReadIDXFile(path string) (*IDX, error) {
	const op = "dataset.ReadIDXFile"
	f, err := openFile(op, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readIDXFrom(f, IDXOptions{}, src{op, path})
}

func readIDXFrom(r io.Reader, opt IDXOptions, at src) (*IDX, error) {
	if err := checkReader(at.op, r); err != nil {
		return nil, err
	}
	limit := opt.MaxBytes
	if limit == 0 {
		limit = DefaultIDXMaxBytes
	}
	if limit < 0 {
		return nil, linalg.Errorf(linalg.ErrSettings, at.op, "IDXOptions.MaxBytes = %d is negative, want >= 0 (0 = default)", limit)
	}
	limit = min(limit, math.MaxInt)
	plain, closer, err := decompress(r)
	if err != nil {
		return nil, idxReadErr(at, err, "gzip header")
	}
	defer closer()
	return readIDX(plain, limit, at)
}

func readIDX(r io.Reader, limit int64, at src) (*IDX, error) {
	bad := func(format string, args ...any) error {
		return at.errf(ErrFormat, 0, 0, "idx: "+format, args...)
	}
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, idxReadErr(at, err, "magic number")
	}
	if head[0] != 0 || head[1] != 0 {
		return nil, bad("wrong magic % x (want 00 00, the element type and the number of dimensions)", head)
	}
	if head[2] != 0x08 {
		name, ok := idxTypes[head[2]]
		if !ok {
			return nil, bad("unknown element type 0x%02x", head[2])
		}
		return nil, bad("unsupported element type 0x%02x (%s); only 0x08 (unsigned byte) is read", head[2], name)
	}
	nd := int(head[3])
	if nd == 0 {
		return nil, bad("zero dimensions")
	}
	raw := make([]byte, 4*nd)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, idxReadErr(at, err, "dimensions")
	}
	dims32 := make([]uint32, nd)
	var size uint64 = 1
	overflow := false
	for i := range dims32 {
		d := binary.BigEndian.Uint32(raw[4*i:])
		if d == 0 {
			return nil, bad("dimension %d of %d is zero", i+1, nd)
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
		return nil, bad("dimensions %v declare %s bytes, above the limit of %d (IDXOptions.MaxBytes)", dims32, decl, limit)
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
			return nil, idxReadErr(at, err, fmt.Sprintf("data (got %d of %d bytes)", len(data), n))
		}
	}
	var extra [1]byte
	switch k, err := io.ReadFull(r, extra[:]); {
	case k > 0:
		return nil, bad("trailing bytes after the %d declared data bytes", n)
	case err != io.EOF:
		return nil, idxReadErr(at, err, "end of file")
	}
	return &IDX{Dims: dims, Data: data}, nil
}

// idxReadErr classifies a read error: a short read or a corrupt gzip stream
// is a format error, anything else an error of the reader.
func idxReadErr(at src, err error, what string) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, errGzipTrailing):
		return at.errf(ErrFormat, 0, 0, "idx: %v", err)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return at.errf(ErrFormat, 0, 0, "idx: truncated %s", what)
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum), errors.As(err, &corrupt):
		return at.errf(ErrFormat, 0, 0, "idx: corrupt gzip stream at %s: %v", what, err)
	}
	return at.streamErr(err, 0)
}
