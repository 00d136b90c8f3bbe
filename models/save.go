package models

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"time"

	"ukm/linalg"
	"ukm/models/klr"
	"ukm/models/spectral"
	"ukm/models/svm"
)

// FormatVersion is the version of the model file format that
// MarshalBinary writes. UnmarshalBinary reads it and every earlier version
// (version 2 added the principal-component projection of the kNN graph,
// Options.GraphDims; version 3 the HOG descriptors of
// Options.GraphFeatures; version 4 the connected components of the kNN
// graph, see PredictRows; version 5 the voters of a committee, see
// VoteSoft); a file of a later version is refused with ErrModelVersion.
const FormatVersion = 5

// Errors of reading a model file. Both are input errors (they wrap
// linalg.ErrInvalid).
var (
	// ErrModelFormat reports data that is not a ukm model file, or one that
	// is truncated or corrupted (its checksum or contents do not hold).
	ErrModelFormat = linalg.NewKind("models: not a valid ukm model file", nil)
	// ErrModelVersion reports a model file of a format version this
	// package does not read.
	ErrModelVersion = linalg.NewKind("models: unsupported model file version", nil)
)

// modelMagic opens every model file.
const modelMagic = "UKMMODEL"

// headerLen is the size of the magic, version and payload length.
const headerLen = len(modelMagic) + 4 + 8

// MarshalBinary encodes the fitted model in the versioned ukm model format
// (encoding.BinaryMarshaler):
//
//	bytes 0-7     "UKMMODEL"
//	bytes 8-11    FormatVersion, uint32 little-endian
//	bytes 12-19   payload length L, uint64 little-endian
//	next L bytes  payload
//	last 4 bytes  CRC-32 (IEEE) of the payload, little-endian
//
// The payload holds, in a fixed order, every value prediction reads: the
// options the model was fitted with, the scaler, the scaled training
// points (the Nyström extension and the graph placement of new points
// evaluate the kernel against them), the kernel, the basis and its
// coefficients, the graph's degrees and local scales, and the classifier
// (see save.go for the order). Integers and floats take 8 bytes
// little-endian (floats as their IEEE 754 bits, so predictions after a round
// trip are bit-identical), booleans one byte, and every slice, string and
// matrix is preceded by its length. The file therefore grows as n·p + n·d
// floats. A committee (see VoteSoft) writes its chosen member's payload,
// then the number of voters and each voter's payload, in which a byte says
// whether the voter shares the chosen member's scaled points (they are then
// not written again). Not saved: the selection report
// (Selection), the cross-validation result (CV) and a Custom design (only
// its name is kept: a loaded model predicts, it does not refit). An
// unfitted model returns ErrNotFitted.
func (m *Model) MarshalBinary() ([]byte, error) {
	if err := m.ready(); err != nil {
		return nil, err
	}
	n := m.payloadLen()
	e := encoder{b: appendHeader(make([]byte, 0, headerLen+n+4), n)}
	m.encode(&e)
	return binary.LittleEndian.AppendUint32(e.b, crc32.ChecksumIEEE(e.b[headerLen:])), nil
}

// payloadLen returns the length of the encoded payload, counted without
// keeping it.
func (m *Model) payloadLen() int {
	n := 0
	e := encoder{b: make([]byte, 0, encoderChunk+64), sink: func(p []byte) { n += len(p) }}
	m.encode(&e)
	e.flush()
	return n
}

// appendHeader appends the magic, version and payload length n to b.
func appendHeader(b []byte, n int) []byte {
	b = append(b, modelMagic...)
	b = binary.LittleEndian.AppendUint32(b, FormatVersion)
	return binary.LittleEndian.AppendUint64(b, uint64(n))
}

// UnmarshalBinary decodes a model written by MarshalBinary into m
// (encoding.BinaryUnmarshaler). Data that is not a model file, is truncated
// or fails its checksum is an error wrapping ErrModelFormat; a file of
// another format version wraps ErrModelVersion. m is left unchanged on error.
func (m *Model) UnmarshalBinary(data []byte) error {
	const op = "models.Model.UnmarshalBinary"
	if m == nil {
		return linalg.Errorf(linalg.ErrSettings, op, "nil Model")
	}
	if len(data) < headerLen+4 || string(data[:len(modelMagic)]) != modelMagic {
		return linalg.Errorf(ErrModelFormat, op, "no ukm model header")
	}
	version := binary.LittleEndian.Uint32(data[8:12])
	if version < 1 || version > FormatVersion {
		return linalg.Errorf(ErrModelVersion, op, "the file has format version %d; this build reads versions 1 to %d", version, FormatVersion)
	}
	n := binary.LittleEndian.Uint64(data[12:20])
	if n != uint64(len(data)-headerLen-4) {
		return linalg.Errorf(ErrModelFormat, op, "payload length %d, but the file holds %d bytes after the header (truncated or corrupted)", n, len(data)-headerLen-4)
	}
	payload := data[headerLen : len(data)-4]
	if got, want := crc32.ChecksumIEEE(payload), binary.LittleEndian.Uint32(data[len(data)-4:]); got != want {
		return linalg.Errorf(ErrModelFormat, op, "checksum %08x, want %08x (corrupted)", got, want)
	}
	d := &decoder{b: payload}
	out, err := decodeModel(d, version)
	if err != nil {
		return err
	}
	*m = *out
	return nil
}

// WriteTo writes the model file (see MarshalBinary) to w, encoding it
// twice (once to count its length for the header, once to write it) rather
// than holding it in memory: a model of 70,000 images is 496 MB.
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	if err := m.ready(); err != nil {
		return 0, err
	}
	n := m.payloadLen()
	var written int64
	var werr error
	write := func(p []byte) {
		if werr == nil {
			k, err := w.Write(p)
			written += int64(k)
			werr = err
		}
	}
	write(appendHeader(nil, n))
	crc := crc32.NewIEEE()
	e := encoder{b: make([]byte, 0, encoderChunk+64), sink: func(p []byte) {
		crc.Write(p)
		write(p)
	}}
	m.encode(&e)
	e.flush()
	write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	return written, werr
}

// ReadModel reads a model file written by Model.WriteTo or MarshalBinary.
// It reads r to its end. From a file (an *os.File) whose size agrees with
// the length in its header, it reads into one buffer of exactly that size.
func ReadModel(r io.Reader) (*Model, error) {
	const op = "models.ReadModel"
	var data []byte
	if f, ok := r.(*os.File); ok {
		data = readExact(f)
	}
	if data == nil {
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(r); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		data = buf.Bytes()
	}
	m := &Model{}
	if err := m.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return m, nil
}

// readExact reads the rest of f into one buffer when f's remaining size is
// what the model header at its current offset says; otherwise it reads
// nothing and returns nil, and ReadModel reads f as any reader (and
// UnmarshalBinary names the fault).
func readExact(f *os.File) []byte {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	head := make([]byte, headerLen)
	if _, err := f.ReadAt(head, at); err != nil || string(head[:len(modelMagic)]) != modelMagic {
		return nil
	}
	size := st.Size() - at
	if n := binary.LittleEndian.Uint64(head[12:20]); n > uint64(size) || int64(n)+int64(headerLen)+4 != size {
		return nil
	}
	data := make([]byte, size)
	if _, err := f.ReadAt(data, at); err != nil {
		return nil
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil { // read to its end, as ReadModel says
		return nil
	}
	return data
}

// encode writes the payload. The order is the format: decodeModel reads
// the same fields in the same order.
func (m *Model) encode(e *encoder) { m.encodeMember(e, nil) }

// encodeMember writes one member's payload: the whole model (chosen nil),
// or a voter of the committee chosen leads, which says whether it shares
// chosen's scaled data instead of writing it again, and has no voters.
func (m *Model) encodeMember(e *encoder, chosen *Model) {
	pr := m.pr
	o := &pr.opt
	// Options.
	e.int(int(o.Kernel.Kind))
	e.f64(o.Kernel.Gamma)
	e.f64(o.Kernel.PolyScale)
	e.f64(o.Kernel.WidthScale)
	e.bool(o.Kernel.LocalScale)
	e.bool(o.Kernel.Raw)
	e.int(int(o.Scale))
	e.int(int(o.Design))
	customName := m.custom
	if o.Custom != nil {
		customName = o.Custom.Name()
	}
	e.str(customName)
	for _, v := range []int{o.D, o.d, o.dcap, int(o.Classifier), o.Folds, o.GraphK, int(o.Large), o.Landmarks, o.GraphDims} {
		e.int(v)
	}
	for _, v := range []float64{o.EnergyFraction, o.Decay, o.Lambda, o.C, o.Sigma2, o.Eps, o.Alpha, o.EigTol} {
		e.f64(v)
	}
	e.bool(o.Bias)
	e.u64(o.Seed)
	e.u64(uint64(o.MaxMemory))
	// The prepared data.
	e.int(pr.n)
	e.int(pr.classes)
	e.present(pr.scaler != nil)
	if pr.scaler != nil {
		e.int(int(pr.scaler.Method))
		e.f64s(pr.scaler.Shift)
		e.f64s(pr.scaler.Factor)
	}
	if chosen != nil {
		same := pr.xs == chosen.pr.xs
		e.bool(same)
		if !same {
			e.dense(pr.xs)
		}
	} else {
		e.dense(pr.xs)
	}
	encodeKernel(e, pr.kern)
	e.f64(pr.gamma)
	e.bool(pr.norm)
	e.f64s(pr.diag)
	e.present(pr.basis != nil)
	if pr.basis != nil {
		e.f64s(pr.basis.Values)
		e.dense(pr.basis.V)
	}
	e.present(pr.graph != nil)
	if g := pr.graph; g != nil {
		e.int(g.k)
		e.int(int(g.weight))
		e.f64s(g.deg)
		e.f64s(g.sigma)
	}
	e.present(pr.proj != nil)
	if pc := pr.proj; pc != nil {
		e.f64s(pc.Mean)
		e.dense(pc.Components)
		e.f64s(pc.Variances)
	}
	e.present(o.GraphFeatures != nil)
	if h := o.GraphFeatures; h != nil {
		for _, v := range []int{h.Width, h.Height, h.Cell, h.Bins} {
			e.int(v)
		}
	}
	// The model.
	e.int(m.classes)
	e.strs(m.names)
	e.ints(m.labeled)
	e.ints(m.labels)
	e.f64s(m.mu)
	e.dense(m.kxl)
	e.dense(m.spread)
	e.f64(m.lambda)
	e.int(int(m.lambdaSource))
	e.f64(m.alignment)
	for _, t := range []time.Duration{m.times.Kernel, m.times.Eig, m.times.Design, m.times.Fit, m.times.Select} {
		e.int(int(t))
	}
	e.present(m.klr != nil)
	if m.klr != nil {
		e.int(m.klr.Classes)
		e.int(len(m.klr.Models))
		for _, c := range m.klr.Models {
			e.int(int(c.Form))
			e.f64s(c.Coef)
			e.f64(c.Bias)
			e.f64(c.Lambda)
			e.int(int(c.Stats.Status))
			e.int(c.Stats.Iterations)
		}
	}
	e.present(m.svm != nil)
	if m.svm != nil {
		e.int(m.svm.Classes)
		e.int(len(m.svm.Models))
		for _, c := range m.svm.Models {
			e.f64s(c.Alpha)
			e.f64s(c.Y)
			e.f64(c.Bias)
			e.f64(c.C)
			e.f64(c.Dual)
			e.int(int(c.Stats.Status))
			e.int(c.Stats.Iterations)
		}
	}
	e.present(pr.comp != nil)
	if pr.comp != nil {
		e.ints(pr.comp)
	}
	if chosen == nil {
		e.int(len(m.voters))
		for _, v := range m.voters {
			v.encodeMember(e, m)
		}
	}
}

// Kernel tags of the model file.
const (
	kernNone = iota
	kernLinear
	kernPolynomial
	kernRBF
)

func encodeKernel(e *encoder, k linalg.Kernel) {
	switch k := k.(type) {
	case linalg.Linear:
		e.int(kernLinear)
	case linalg.Polynomial:
		e.int(kernPolynomial)
		e.int(k.Degree)
		e.f64(k.Scale)
		e.f64(k.Offset)
	case linalg.RBF:
		e.int(kernRBF)
		e.f64(k.Gamma)
	default:
		e.int(kernNone)
	}
}

func decodeKernel(d *decoder) linalg.Kernel {
	switch tag := d.int(); tag {
	case kernNone:
		return nil
	case kernLinear:
		return linalg.Linear{}
	case kernPolynomial:
		return linalg.Polynomial{Degree: d.int(), Scale: d.f64(), Offset: d.f64()}
	case kernRBF:
		return linalg.RBF{Gamma: d.f64()}
	default:
		d.fail("unknown kernel tag %d", tag)
		return nil
	}
}

// decodeModel reads the payload written by encode and checks that the
// pieces fit together, so that a loaded model cannot panic in Predict.
func decodeModel(d *decoder, version uint32) (*Model, error) {
	m, err := decodeMember(d, version, nil)
	if err == nil && len(d.b) != 0 {
		d.fail("%d bytes left after the model", len(d.b))
		err = d.err
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// decodeMember reads one member's payload (see encodeMember): the whole
// model (chosen nil) or a voter of chosen's committee.
func decodeMember(d *decoder, version uint32, chosen *Model) (*Model, error) {
	pr := &prep{}
	o := &pr.opt
	o.Kernel.Kind = KernelKind(d.int())
	o.Kernel.Gamma, o.Kernel.PolyScale, o.Kernel.WidthScale = d.f64(), d.f64(), d.f64()
	o.Kernel.LocalScale, o.Kernel.Raw = d.bool(), d.bool()
	o.Scale, o.Design = Scaling(d.int()), DesignKind(d.int())
	custom := d.str() // the name of a Custom design, for information only
	o.D, o.d, o.dcap = d.int(), d.int(), d.int()
	o.Classifier, o.Folds, o.GraphK = ClassifierKind(d.int()), d.int(), d.int()
	o.Large, o.Landmarks = LargeMode(d.int()), d.int()
	if version >= 2 {
		o.GraphDims = d.int()
	}
	o.EnergyFraction, o.Decay, o.Lambda, o.C = d.f64(), d.f64(), d.f64(), d.f64()
	o.Sigma2, o.Eps, o.Alpha, o.EigTol = d.f64(), d.f64(), d.f64(), d.f64()
	o.Bias = d.bool()
	o.Seed = d.u64()
	o.MaxMemory = int64(d.u64())
	pr.n, pr.classes = d.int(), d.int()
	if d.bool() {
		pr.scaler = &linalg.Scaler{Method: linalg.ScaleMethod(d.int()), Shift: d.f64s(), Factor: d.f64s()}
	}
	if chosen != nil && d.bool() {
		pr.xs = chosen.pr.xs
	} else {
		pr.xs = d.dense()
	}
	pr.kern = decodeKernel(d)
	pr.gamma, pr.norm, pr.diag = d.f64(), d.bool(), d.f64s()
	if d.bool() {
		pr.basis = &spectral.Basis{Values: d.f64s(), V: d.dense()}
	}
	if d.bool() {
		pr.graph = &graphBasis{k: d.int(), weight: linalg.GraphWeight(d.int()), deg: d.f64s(), sigma: d.f64s()}
	}
	if version >= 2 && d.bool() {
		pr.proj = &linalg.PCA{Mean: d.f64s(), Components: d.dense(), Variances: d.f64s()}
	}
	if version >= 3 && d.bool() {
		o.GraphFeatures = &linalg.HOG{Width: d.int(), Height: d.int(), Cell: d.int(), Bins: d.int()}
	}
	m := &Model{pr: pr, custom: custom}
	m.classes, m.names = d.int(), d.strs()
	m.labeled, m.labels, m.mu = d.ints(), d.ints(), d.f64s()
	m.kxl, m.spread = d.dense(), d.dense()
	m.lambda, m.lambdaSource, m.alignment = d.f64(), LambdaSource(d.int()), d.f64()
	ts := []*time.Duration{&m.times.Kernel, &m.times.Eig, &m.times.Design, &m.times.Fit, &m.times.Select}
	for _, t := range ts {
		*t = time.Duration(d.int())
	}
	if d.bool() {
		mm := &klr.Multi{Classes: d.int()}
		mm.Models = make([]klr.Model, d.count(8))
		for i := range mm.Models {
			c := &mm.Models[i]
			c.Form, c.Coef, c.Bias, c.Lambda = klr.Form(d.int()), d.f64s(), d.f64(), d.f64()
			c.Stats.Status, c.Stats.Iterations = linalg.Status(d.int()), d.int()
		}
		m.klr = mm
	}
	if d.bool() {
		mm := &svm.Multi{Classes: d.int()}
		mm.Models = make([]svm.Model, d.count(8))
		for i := range mm.Models {
			c := &mm.Models[i]
			c.Alpha, c.Y, c.Bias, c.C, c.Dual = d.f64s(), d.f64s(), d.f64(), d.f64(), d.f64()
			c.Stats.Status, c.Stats.Iterations = linalg.Status(d.int()), d.int()
		}
		m.svm = mm
	}
	if version >= 4 && d.bool() {
		pr.comp = d.ints()
	}
	voters := 0
	if version >= 5 && chosen == nil {
		// A voter's payload is far longer than 8 bytes; the bound only
		// keeps a corrupted count from allocating.
		voters = d.count(8)
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := m.checkLoaded(); err != nil {
		return nil, linalg.Errorf(ErrModelFormat, "models.ReadModel", "inconsistent model: %v", err)
	}
	if pr.basis != nil && m.kxl == nil && m.spread == nil {
		m.setFeatures()
	}
	for range voters {
		v, err := decodeMember(d, version, m)
		if err != nil {
			return nil, err
		}
		m.voters = append(m.voters, v)
	}
	if err := m.checkVoters(); err != nil {
		return nil, linalg.Errorf(ErrModelFormat, "models.ReadModel", "inconsistent committee: %v", err)
	}
	return m, nil
}

// checkLoaded checks that the decoded pieces fit together: every shape that
// Predict, Proba and their Rows forms index by, every enum in range, so that
// a file that passed its checksum but was written by something else cannot
// make a loaded model panic.
func (m *Model) checkLoaded() error {
	pr := m.pr
	o := &pr.opt
	switch {
	case o.Kernel.Kind < RBF || o.Kernel.Kind > KNN, o.Scale < ZScore || o.Scale > NoScaling,
		o.Design < SKL || o.Design > Custom, o.Classifier < KLR || o.Classifier > Spread:
		return fmt.Errorf("option out of range")
	case m.classes < 2 || pr.classes != m.classes:
		return fmt.Errorf("%d classes", m.classes)
	case m.names != nil && len(m.names) != m.classes:
		return fmt.Errorf("%d class names for %d classes", len(m.names), m.classes)
	case pr.xs == nil:
		return fmt.Errorf("no training points")
	}
	n, p := pr.xs.Dims()
	if pr.n != n {
		return fmt.Errorf("%d training points, %d rows", pr.n, n)
	}
	if s := pr.scaler; s != nil && (len(s.Shift) != p || len(s.Factor) != p || s.Method < linalg.ZScore || s.Method > linalg.MinMax) {
		return fmt.Errorf("scaler does not fit %d features", p)
	}
	if pr.norm && len(pr.diag) != n {
		return fmt.Errorf("%d diagonal entries for %d points", len(pr.diag), n)
	}
	if len(m.labeled) == 0 || len(m.labels) != len(m.labeled) {
		return fmt.Errorf("%d labels for %d labeled points", len(m.labels), len(m.labeled))
	}
	for a, i := range m.labeled {
		if i < 0 || i >= n || m.labels[a] < 0 || m.labels[a] >= m.classes {
			return fmt.Errorf("labeled point %d out of range", a)
		}
	}
	d := 0
	if b := pr.basis; b != nil {
		if b.V == nil {
			return fmt.Errorf("basis without vectors")
		}
		var r int
		r, d = b.V.Dims()
		if r != n || len(b.Values) != d || len(m.mu) != d || d == 0 {
			return fmt.Errorf("basis of %d x %d with %d values, %d coefficients", r, d, len(b.Values), len(m.mu))
		}
	}
	if g := pr.graph; g != nil {
		if g.k < 1 || g.k > n || len(g.deg) != n || (g.weight == linalg.LocalHeat && len(g.sigma) != n) {
			return fmt.Errorf("graph does not fit %d points", n)
		}
	}
	if pr.comp != nil {
		if len(pr.comp) != n {
			return fmt.Errorf("%d component labels for %d points", len(pr.comp), n)
		}
		for _, c := range pr.comp {
			if c < 0 || c >= n {
				return fmt.Errorf("component label %d out of range", c)
			}
		}
	}
	gp := p // the width of the space the graph is searched in
	if h := pr.opt.GraphFeatures; h != nil {
		r, err := h.Resolve(p)
		if err != nil || r != *h {
			return fmt.Errorf("HOG settings %+v do not fit %d features", *h, p)
		}
		gp, _ = h.Len(p)
	}
	if pc := pr.proj; pc != nil {
		if pc.Components == nil || len(pc.Mean) != gp {
			return fmt.Errorf("projection does not fit %d features", gp)
		}
		if r, q := pc.Components.Dims(); r != gp || len(pc.Variances) != q {
			return fmt.Errorf("projection of %d x %d with %d variances", r, q, len(pc.Variances))
		}
	}
	trained := 0
	width := d // the classifier's input width
	switch {
	case m.spread != nil:
		trained++
		if r, c := m.spread.Dims(); r != n || c != m.classes || pr.graph == nil {
			return fmt.Errorf("spread scores of %d x %d", r, c)
		}
	case m.kxl != nil:
		if r, c := m.kxl.Dims(); r != n || c != len(m.labeled) || pr.kern == nil {
			return fmt.Errorf("kernel block of %d x %d", r, c)
		}
		width = len(m.labeled)
	case pr.basis == nil:
		return fmt.Errorf("neither a basis nor a kernel block")
	default:
		if pr.graph == nil && !o.Design.graph() && pr.kern == nil {
			return fmt.Errorf("no kernel for the extension")
		}
	}
	if m.klr != nil {
		trained++
		if m.klr.Classes != m.classes || len(m.klr.Models) != max(m.classes, 2)-boolInt(m.classes == 2) {
			return fmt.Errorf("%d KLR machines for %d classes", len(m.klr.Models), m.classes)
		}
		for _, c := range m.klr.Models {
			if len(c.Coef) != width || (c.Form != klr.KernelForm && c.Form != klr.FeatureForm) {
				return fmt.Errorf("KLR machine of %d coefficients for inputs of %d", len(c.Coef), width)
			}
		}
	}
	if m.svm != nil {
		trained++
		if m.svm.Classes != m.classes || len(m.svm.Models) != max(m.classes, 2)-boolInt(m.classes == 2) {
			return fmt.Errorf("%d SVMs for %d classes", len(m.svm.Models), m.classes)
		}
		for _, c := range m.svm.Models {
			if len(c.Alpha) != len(m.labeled) || len(c.Y) != len(m.labeled) {
				return fmt.Errorf("SVM of %d dual variables for %d labeled points", len(c.Alpha), len(m.labeled))
			}
		}
	}
	if trained != 1 {
		return fmt.Errorf("%d classifiers", trained)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
