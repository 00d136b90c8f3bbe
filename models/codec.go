package models

import (
	"encoding/binary"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// encoder appends the values of a model file's payload: integers and
// floats as 8 bytes little-endian, booleans as one byte, and every slice,
// string and matrix preceded by its length (see MarshalBinary). With a
// sink, the bytes are handed to it in chunks of about encoderChunk instead
// of kept (see flush): a model file is written, or its length counted,
// without holding the payload.
type encoder struct {
	b    []byte
	sink func([]byte)
}

// encoderChunk is the size of the chunks an encoder hands to its sink.
const encoderChunk = 1 << 16

func (e *encoder) u64(v uint64)  { e.b = binary.LittleEndian.AppendUint64(e.b, v); e.spill() }
func (e *encoder) int(v int)     { e.u64(uint64(int64(v))) }
func (e *encoder) f64(v float64) { e.u64(math.Float64bits(v)) }
func (e *encoder) str(s string)  { e.int(len(s)); e.b = append(e.b, s...); e.spill() }
func (e *encoder) bool(v bool) {
	var c byte
	if v {
		c = 1
	}
	e.b = append(e.b, c)
	e.spill()
}

// spill hands the bytes to the sink once a chunk is full.
func (e *encoder) spill() {
	if e.sink != nil && len(e.b) >= encoderChunk {
		e.flush()
	}
}

// flush hands what is left to the sink.
func (e *encoder) flush() {
	if e.sink != nil && len(e.b) > 0 {
		e.sink(e.b)
		e.b = e.b[:0]
	}
}
func (e *encoder) present(ok bool) { e.bool(ok) }
func (e *encoder) ints(v []int) {
	e.int(len(v))
	for _, x := range v {
		e.int(x)
	}
}
func (e *encoder) f64s(v []float64) {
	e.int(len(v))
	for _, x := range v {
		e.f64(x)
	}
}

func (e *encoder) strs(v []string) {
	e.int(len(v))
	for _, s := range v {
		e.str(s)
	}
}

// dense writes a matrix (nil allowed) as its presence, dimensions and
// row-major entries.
func (e *encoder) dense(a *mat.Dense) {
	e.present(a != nil)
	if a == nil {
		return
	}
	r, c := a.Dims()
	e.int(r)
	e.int(c)
	for i := 0; i < r; i++ {
		for _, v := range a.RawRowView(i)[:c] {
			e.f64(v)
		}
	}
}

// decoder reads what encoder wrote. The first error sticks: every later read
// returns a zero value, so a caller checks err once at the end. Every length
// is checked against the bytes left before anything is allocated, so a
// corrupted or hostile file can make it allocate no more than its own size.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = linalg.Errorf(ErrModelFormat, "models.ReadModel", format, args...)
	}
}

func (d *decoder) u64() uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail("payload ends early")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

func (d *decoder) int() int {
	v := int64(d.u64())
	if v != int64(int(v)) {
		d.fail("integer %d out of range", v)
		return 0
	}
	return int(v)
}

func (d *decoder) f64() float64 { return math.Float64frombits(d.u64()) }

func (d *decoder) bool() bool {
	if d.err != nil {
		return false
	}
	if len(d.b) < 1 {
		d.fail("payload ends early")
		return false
	}
	v := d.b[0]
	d.b = d.b[1:]
	if v > 1 {
		d.fail("boolean byte %d", v)
	}
	return v == 1
}

// count reads a length whose items take at least size bytes each and checks
// it against the bytes left.
func (d *decoder) count(size int) int {
	n := d.int()
	if d.err == nil && (n < 0 || n > len(d.b)/size) {
		d.fail("length %d exceeds the %d bytes left", n, len(d.b))
		return 0
	}
	return n
}

func (d *decoder) str() string {
	n := d.count(1)
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) strs() []string {
	n := d.count(8)
	if d.err != nil || n == 0 {
		return nil
	}
	v := make([]string, n)
	for i := range v {
		v[i] = d.str()
	}
	return v
}

func (d *decoder) ints() []int {
	n := d.count(8)
	if d.err != nil || n == 0 {
		return nil
	}
	v := make([]int, n)
	for i := range v {
		v[i] = d.int()
	}
	return v
}

func (d *decoder) f64s() []float64 {
	n := d.count(8)
	if d.err != nil || n == 0 {
		return nil
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = d.f64()
	}
	return v
}

func (d *decoder) dense() *mat.Dense {
	if !d.bool() || d.err != nil {
		return nil
	}
	r, c := d.int(), d.int()
	if d.err != nil {
		return nil
	}
	if r <= 0 || c <= 0 || r > len(d.b)/8/c {
		d.fail("matrix of %d x %d does not fit in the %d bytes left", r, c, len(d.b))
		return nil
	}
	a := mat.NewDense(r, c, nil)
	raw := a.RawMatrix().Data
	for i := range raw {
		raw[i] = d.f64()
	}
	return a
}
