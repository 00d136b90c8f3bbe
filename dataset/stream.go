package dataset

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"ukm/linalg"
)

// src names an input in error messages: the operation that reads it and,
// when known, the file.
type src struct {
	op   string // "dataset.ReadTable"
	name string // the path, or "" for a reader
}

// errf returns an *linalg.Error of the given kind whose message starts with
// the file name and the position (line and column from 1; 0 leaves them
// out).
func (s src) errf(kind error, line, col int, format string, args ...any) error {
	var pre string
	if s.name != "" {
		pre = s.name + ": "
	}
	switch {
	case line > 0 && col > 0:
		pre += fmt.Sprintf("line %d, column %d: ", line, col)
	case line > 0:
		pre += fmt.Sprintf("line %d: ", line)
	}
	return linalg.Errorf(kind, s.op, "%s"+format, append([]any{pre}, args...)...)
}

// streamErr reports an error of the input stream met at line (0: none). A
// corrupt or truncated gzip stream, or bytes after it, is a format error;
// anything else is an error of the reader, wrapped as it is (not an input
// error).
func (s src) streamErr(err error, line int) error {
	if isFormatErr(err) {
		return s.errf(ErrFormat, line, 0, "truncated or corrupt compressed stream: %v", err)
	}
	where := s.op + ": "
	if s.name != "" {
		where += s.name + ": "
	}
	return fmt.Errorf("%sreading: %w", where, err)
}

// isFormatErr reports whether a read error is the data's fault: a gzip
// stream that is corrupt, truncated or followed by other bytes.
func isFormatErr(err error) bool {
	var corrupt flate.CorruptInputError
	return errors.Is(err, errGzipTrailing) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &corrupt)
}

// checkReader rejects a nil reader (linalg.ErrEmpty).
func checkReader(op string, r io.Reader) error {
	if r == nil {
		return linalg.Errorf(linalg.ErrEmpty, op, "reader is nil")
	}
	return nil
}

// openFile opens path; a missing file is reported as ErrNotFound (and
// fs.ErrNotExist), other failures as they are.
func openFile(op, path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w: %w", op, ErrNotFound, err)
		}
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return f, nil
}

// gzipMagic starts every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// errGzipTrailing reports bytes after the last member of a gzip stream.
var errGzipTrailing = errors.New("trailing bytes after the gzip stream")

// decompress returns the content of r: r itself, buffered, or, when r
// starts with the gzip magic bytes, its decompressed stream (concatenated
// members are one stream, as gzip -d has it, and bytes after the last member
// that do not start another one are an error). The returned function
// releases the decompressor.
func decompress(r io.Reader) (io.Reader, func(), error) {
	br := bufio.NewReader(r)
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, nil, err
	}
	if !bytes.Equal(magic, gzipMagic) {
		return br, func() {}, nil
	}
	gz, err := gzip.NewReader(br)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, nil, fmt.Errorf("gzip header: %w", err)
	}
	gz.Multistream(false)
	return &gzipMembers{br, gz}, func() { gz.Close() }, nil
}

// gzipMembers reads a gzip stream member by member.
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
	case bytes.Equal(m, gzipMagic):
		if err := g.gz.Reset(g.br); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return n, err
		}
		g.gz.Multistream(false)
		return n, nil
	}
	return n, errGzipTrailing
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// textBuf is the size of the buffer of a text input, and so the window in
// which FormatAuto looks at the first line.
const textBuf = 64 << 10

// text is a decompressed text input with its byte-order mark removed.
type text struct {
	*bufio.Reader
	count *counter // bytes of text read so far
	close func()
}

// openText prepares r for a text reader: gzip is recognised by its magic
// bytes and decompressed, and a UTF-8 byte-order mark at the start is
// dropped.
func openText(r io.Reader) (*text, error) {
	plain, closer, err := decompress(r)
	if err != nil {
		return nil, err
	}
	c := &counter{r: plain}
	br := bufio.NewReaderSize(c, textBuf)
	if bom, err := br.Peek(3); err != nil && err != io.EOF {
		closer()
		return nil, err
	} else if bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	return &text{br, c, closer}, nil
}
