package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// LowRank is the n x n symmetric kernel matrix K = V diag(Mu) V^T given by
// an n x d factor V and d weights Mu (for example d eigenvectors and learned
// spectral coefficients). It implements mat.Symmetric (At costs O(d)), and
// the alignment functions of this package recognise it and work in
// O(n d^2) time and O(d^2) extra memory, never forming K.
//
// The fields are exported so that callers can build it without copies;
// NewLowRank checks them. A LowRank must not be modified while in use.
type LowRank struct {
	V  *mat.Dense
	Mu []float64
}

var _ mat.Symmetric = (*LowRank)(nil)

// NewLowRank wraps V (n x d) and Mu (length d) after checking shapes and
// finiteness; nothing is copied.
func NewLowRank(v *mat.Dense, mu []float64) (*LowRank, error) {
	l := &LowRank{V: v, Mu: mu}
	if err := l.validate("NewLowRank"); err != nil {
		return nil, err
	}
	return l, nil
}

// Validate checks the fields of l.
func (l *LowRank) Validate() error { return l.validate("LowRank.Validate") }

func (l *LowRank) validate(op string) error {
	if l == nil || l.V == nil || l.V.IsEmpty() {
		return newErr(ErrEmpty, op, "low-rank factor V is empty")
	}
	if _, d := l.V.Dims(); d != len(l.Mu) {
		return newErr(ErrShape, op, "V has %d columns but Mu has %d weights", d, len(l.Mu))
	}
	if _, _, err := checkData(op, l.V); err != nil {
		return err
	}
	for a, m := range l.Mu {
		if !isFinite(m) {
			return newErr(ErrNonFinite, op, "weight Mu[%d] = %v is not finite", a, m)
		}
	}
	return nil
}

// Dims returns (n, n); (0, 0) if l or V is nil.
func (l *LowRank) Dims() (r, c int) {
	n := l.SymmetricDim()
	return n, n
}

// SymmetricDim returns n, the number of rows of V; 0 if l or V is nil.
func (l *LowRank) SymmetricDim() int {
	if l == nil || l.V == nil || l.V.IsEmpty() {
		return 0
	}
	n, _ := l.V.Dims()
	return n
}

// Rank returns d, the number of columns of V.
func (l *LowRank) Rank() int { return len(l.Mu) }

// T returns l (K is symmetric).
func (l *LowRank) T() mat.Matrix { return l }

// At returns K_ij = sum_a V_ia Mu_a V_ja. It panics on an out-of-range
// index, as mat.Matrix implementations do, and on a LowRank whose fields
// are inconsistent (see Validate).
func (l *LowRank) At(i, j int) float64 {
	vi, vj := l.V.RawRowView(i), l.V.RawRowView(j)
	var s float64
	for a, m := range l.Mu {
		s += vi[a] * m * vj[a]
	}
	return s
}

// weighted returns V diag(w) as a new matrix.
func weighted(v *mat.Dense, w []float64) *mat.Dense {
	out := mat.DenseCopyOf(v)
	raw := out.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for a := range row {
			row[a] *= w[a]
		}
	}
	return out
}

// Dense forms the n x n matrix K (both triangles filled, exactly
// symmetric). It costs O(n^2 d) time and O(n^2) memory; use it only for
// small n or tests. If l is not valid (see Validate) it returns an empty
// matrix.
func (l *LowRank) Dense() *mat.SymDense {
	if l.validate("LowRank.Dense") != nil {
		return &mat.SymDense{}
	}
	n := l.SymmetricDim()
	out := mat.NewSymDense(n, nil)
	raw := out.RawSymmetric()
	vw := weighted(l.V, l.Mu).RawMatrix()
	v := l.V.RawMatrix()
	c := blas64.General{Rows: n, Cols: n, Stride: raw.Stride, Data: raw.Data}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, vw, v, 0, c)
	mirrorLower(raw.Data, raw.Stride, n)
	return out
}

// Block returns the sub-matrix K[rows, cols] (len(rows) x len(cols)) in
// O(len(rows) len(cols) d) time, for example the labelled-by-labelled block
// or the cross block between labelled and unlabelled points.
func (l *LowRank) Block(rows, cols []int) (*mat.Dense, error) {
	const op = "LowRank.Block"
	if err := l.validate(op); err != nil {
		return nil, err
	}
	if len(rows) == 0 || len(cols) == 0 {
		return nil, newErr(ErrEmpty, op, "empty row or column index set")
	}
	n, d := l.V.Dims()
	for _, set := range [][]int{rows, cols} {
		for _, i := range set {
			if i < 0 || i >= n {
				return nil, newErr(ErrSettings, op, "index %d outside [0,%d)", i, n)
			}
		}
	}
	a := mat.NewDense(len(rows), d, nil)
	for r, i := range rows {
		src := l.V.RawRowView(i)
		dst := a.RawRowView(r)
		for k, m := range l.Mu {
			dst[k] = src[k] * m
		}
	}
	b := mat.NewDense(len(cols), d, nil)
	for r, j := range cols {
		copy(b.RawRowView(r), l.V.RawRowView(j))
	}
	out := mat.NewDense(len(rows), len(cols), nil)
	out.Mul(a, b.T())
	return out, nil
}

// Features returns the feature map Phi = V diag(sqrt(Mu)), so that
// K = Phi Phi^T. It fails with ErrSettings if some weight is negative.
func (l *LowRank) Features() (*mat.Dense, error) {
	const op = "LowRank.Features"
	if err := l.validate(op); err != nil {
		return nil, err
	}
	s := make([]float64, len(l.Mu))
	for a, m := range l.Mu {
		if m < 0 {
			return nil, newErr(ErrSettings, op, "weight Mu[%d] = %v is negative; K is not positive semi-definite", a, m)
		}
		s[a] = math.Sqrt(m)
	}
	return weighted(l.V, s), nil
}

// Centered returns the centred kernel H K H = (HV) diag(Mu) (HV)^T, that is
// a LowRank with the column means of V removed. Mu is shared, not copied.
// If l or V is nil or empty it returns a LowRank with the same (empty) V,
// which Validate rejects.
func (l *LowRank) Centered() *LowRank {
	if l == nil {
		return &LowRank{}
	}
	if l.V == nil || l.V.IsEmpty() {
		return &LowRank{V: l.V, Mu: l.Mu}
	}
	return &LowRank{V: centredColumns(l.V), Mu: l.Mu}
}

// checkLowRankPair validates two LowRank kernels of the same size.
func checkLowRankPair(op string, a, b *LowRank) error {
	if err := a.validate(op); err != nil {
		return err
	}
	if err := b.validate(op); err != nil {
		return err
	}
	if a.SymmetricDim() != b.SymmetricDim() {
		return newErr(ErrShape, op, "kernels have sizes %d and %d", a.SymmetricDim(), b.SymmetricDim())
	}
	return nil
}

// lowRankInner returns <K1, K2>_F = sum_ab Mu1_a Mu2_b (v1_a . v2_b)^2.
func lowRankInner(op string, a, b *LowRank) (float64, error) {
	if err := checkLowRankPair(op, a, b); err != nil {
		return 0, err
	}
	if f := lowRankInnerRaw(a, b); isFinite(f) && math.Abs(f) >= 0x1p-1000 {
		return f, nil
	}
	sa, ea := a.unitScaled()
	sb, eb := b.unitScaled()
	return innerOutcome(op, lowRankInnerRaw(sa, sb), ea+eb)
}

func lowRankInnerRaw(a, b *LowRank) float64 {
	var c mat.Dense
	c.Mul(a.V.T(), b.V)
	raw := c.RawMatrix()
	var s float64
	for i, ma := range a.Mu {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		var t float64
		for j, g := range row {
			t += b.Mu[j] * g * g
		}
		s += ma * t
	}
	return s
}

// FrobeniusNorm returns ||K||_F = sqrt(Mu^T ((V^T V) .* (V^T V)) Mu), or
// NaN if l is not valid (see Validate). It is computed on V and Mu scaled
// by exact powers of two when the squared norm overflows or falls below
// 2^-1000, so it is correct for entries of any finite magnitude; a norm
// beyond the float64 range is +Inf.
func (l *LowRank) FrobeniusNorm() float64 {
	if l.validate("LowRank.FrobeniusNorm") != nil {
		return math.NaN()
	}
	s := lowRankInnerRaw(l, l)
	if s >= 0x1p-1000 && s <= math.MaxFloat64 {
		return math.Sqrt(s)
	}
	sl, e := l.unitScaled() // K = K' 2^e
	return math.Ldexp(math.Sqrt(max(0, lowRankInnerRaw(sl, sl))), e)
}

func lowRankAlignment(op string, a, b *LowRank) (float64, error) {
	if err := checkLowRankPair(op, a, b); err != nil {
		return 0, err
	}
	if r, f := lowRankRatio(a, b); f == alignOK {
		return r, nil
	}
	a, _ = a.unitScaled()
	b, _ = b.unitScaled()
	r, f := lowRankRatio(a, b)
	return alignOutcome(op, r, f)
}

func lowRankRatio(a, b *LowRank) (float64, alignFault) {
	return alignRatio(lowRankInnerRaw(a, b), lowRankInnerRaw(a, a), lowRankInnerRaw(b, b))
}

// targetAlignment computes A(K, yy^T) (or its centred version) as
// sum_a Mu_a (v_a . y)^2 / (||K||_F ||y||^2).
func (l *LowRank) targetAlignment(op string, y []float64, centred bool) (float64, error) {
	if err := l.validate(op); err != nil {
		return 0, err
	}
	if err := checkVec(op, y, l.SymmetricDim()); err != nil {
		return 0, err
	}
	if r, f := l.vectorRatio(y, centred); f == alignOK {
		return r, nil
	}
	sl, _ := l.unitScaled()
	r, f := sl.vectorRatio(unitScaledVec(y), centred)
	return alignOutcome(op, r, f)
}

func (l *LowRank) vectorRatio(y []float64, centred bool) (float64, alignFault) {
	k := l
	if centred {
		y = centredVec(y)
		k = l.Centered()
	}
	p := make([]float64, k.Rank())
	pv := mat.NewVecDense(len(p), p)
	pv.MulVec(k.V.T(), mat.NewVecDense(len(y), y))
	var num float64
	for a, m := range k.Mu {
		num += m * p[a] * p[a]
	}
	yy := dot(y, y)
	return alignRatio(num, lowRankInnerRaw(k, k), yy*yy)
}

// targetAlignmentFactor computes A(K, YY^T) (or its centred version) with
// <K, YY^T> = sum_a Mu_a ||Y^T v_a||^2.
func (l *LowRank) targetAlignmentFactor(op string, y *mat.Dense, centred bool) (float64, error) {
	if err := l.validate(op); err != nil {
		return 0, err
	}
	if err := checkFactor(op, y, l.SymmetricDim()); err != nil {
		return 0, err
	}
	if r, f := l.factorRatio(y, centred); f == alignOK {
		return r, nil
	}
	sl, _ := l.unitScaled()
	r, f := sl.factorRatio(unitScaledDense(y), centred)
	return alignOutcome(op, r, f)
}

func (l *LowRank) factorRatio(y *mat.Dense, centred bool) (float64, alignFault) {
	k := l
	if centred {
		y = centredColumns(y)
		k = l.Centered()
	}
	var p mat.Dense
	p.Mul(k.V.T(), y) // d x c
	raw := p.RawMatrix()
	var num float64
	for a, m := range k.Mu {
		row := raw.Data[a*raw.Stride : a*raw.Stride+raw.Cols]
		num += m * dot(row, row)
	}
	return alignRatio(num, lowRankInnerRaw(k, k), gramFrob2(y))
}

// Alignment returns A(l, o) without forming either matrix.
func (l *LowRank) Alignment(o *LowRank) (float64, error) {
	return lowRankAlignment("LowRank.Alignment", l, o)
}

// TargetAlignment returns A(K, yy^T) in O(n d).
func (l *LowRank) TargetAlignment(y []float64) (float64, error) {
	return l.targetAlignment("LowRank.TargetAlignment", y, false)
}

// CenteredTargetAlignment returns A(HKH, Hyy^TH) in O(n d^2).
func (l *LowRank) CenteredTargetAlignment(y []float64) (float64, error) {
	return l.targetAlignment("LowRank.CenteredTargetAlignment", y, true)
}

// MulVecTo sets dst = K x = V (Mu .* (V^T x)), overwriting dst, in O(n d)
// time; it allocates nothing for d <= 64. It panics if len(x) or len(dst)
// is not n or if l is not valid (see Validate): programmer errors. dst may
// be x itself (x is read completely before dst is written).
func (l *LowRank) MulVecTo(dst, x []float64) {
	n, d := l.V.Dims()
	if len(x) != n || len(dst) != n {
		panic("linalg: LowRank.MulVecTo: length mismatch")
	}
	var buf [64]float64
	var w []float64
	if d <= len(buf) {
		w = buf[:d]
	} else {
		w = make([]float64, d)
	}
	raw := l.V.RawMatrix()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+d]
		xi := x[i]
		for a, v := range row {
			w[a] += v * xi
		}
	}
	for a := range w {
		w[a] *= l.Mu[a]
	}
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+d]
		var s float64
		for a, v := range row {
			s += v * w[a]
		}
		dst[i] = s
	}
}
