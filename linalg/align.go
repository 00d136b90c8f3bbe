package linalg

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// FrobeniusInner returns <A, B>_F = sum_ij A_ij B_ij of two symmetric
// matrices of equal size. Two *LowRank arguments are handled in O(n d1 d2)
// without forming either matrix. The inner product is computed correctly
// for entries of any finite magnitude (again on the inputs scaled by exact
// powers of two when it overflows or falls below 2^-1000); if it exceeds
// the float64 range, FrobeniusInner fails with ErrDegenerate.
func FrobeniusInner(a, b mat.Symmetric) (float64, error) {
	const op = "FrobeniusInner"
	if la, ok := a.(*LowRank); ok {
		if lb, ok := b.(*LowRank); ok {
			return lowRankInner(op, la, lb)
		}
	}
	va, err := checkSym(op, "A", a)
	if err != nil {
		return 0, err
	}
	vb, err := checkSym(op, "B", b)
	if err != nil {
		return 0, err
	}
	if va.n != vb.n {
		return 0, newErr(ErrShape, op, "A is %dx%d but B is %dx%d", va.n, va.n, vb.n, vb.n)
	}
	if f := frob(va, vb); isFinite(f) && math.Abs(f) >= 0x1p-1000 {
		return f, nil
	}
	sa, ea := va.unitScaled()
	sb, eb := vb.unitScaled()
	return innerOutcome(op, frob(sa, sb), ea+eb)
}

func frob(a, b symView) float64 {
	var diag, off float64
	for i := 0; i < a.n; i++ {
		diag += a.at(i, i) * b.at(i, i)
		for j := i + 1; j < a.n; j++ {
			off += a.at(i, j) * b.at(i, j)
		}
	}
	return diag + 2*off
}

// Alignment returns the empirical kernel alignment
// A(K1, K2) = <K1,K2>_F / sqrt(<K1,K1>_F <K2,K2>_F) (eq. 5 of Hoi et al.).
// Two *LowRank arguments are handled without forming n x n matrices.
// The alignments of this package are computed correctly for entries of any
// finite magnitude: when an inner product overflows or underflows they are
// computed again on copies of the inputs scaled by exact powers of two (an
// alignment does not change). They fail with ErrDegenerate only when a
// matrix (centred, for the centred alignments) is zero or negligible
// against its own largest entry.
func Alignment(k1, k2 mat.Symmetric) (float64, error) {
	const op = "Alignment"
	if la, ok := k1.(*LowRank); ok {
		if lb, ok := k2.(*LowRank); ok {
			return lowRankAlignment(op, la, lb)
		}
	}
	va, vb, err := checkPair(op, k1, k2)
	if err != nil {
		return 0, err
	}
	if a, f := alignRatio(frob(va, vb), frob(va, va), frob(vb, vb)); f == alignOK {
		return a, nil
	}
	va, _ = va.unitScaled()
	vb, _ = vb.unitScaled()
	a, f := alignRatio(frob(va, vb), frob(va, va), frob(vb, vb))
	return alignOutcome(op, a, f)
}

// checkPair validates the two kernels of an alignment: each symmetric and
// finite, both of the same order.
func checkPair(op string, k1, k2 mat.Symmetric) (va, vb symView, err error) {
	va, err = checkSym(op, "K1", k1)
	if err != nil {
		return va, vb, err
	}
	vb, err = checkSym(op, "K2", k2)
	if err != nil {
		return va, vb, err
	}
	if va.n != vb.n {
		return va, vb, newErr(ErrShape, op, "K1 is %dx%d but K2 is %dx%d", va.n, va.n, vb.n, vb.n)
	}
	return va, vb, nil
}

// checkVec validates a target vector of length n.
func checkVec(op string, y []float64, n int) error {
	if len(y) != n {
		return newErr(ErrShape, op, "target has length %d, want %d", len(y), n)
	}
	for i, v := range y {
		if !isFinite(v) {
			return newErr(ErrNonFinite, op, "target entry %d = %v is not finite", i, v)
		}
	}
	return nil
}

// checkFactor validates a target factor Y (n x c).
func checkFactor(op string, y *mat.Dense, n int) error {
	if y == nil || y.IsEmpty() {
		return newErr(ErrEmpty, op, "target factor is empty")
	}
	if r, _ := y.Dims(); r != n {
		return newErr(ErrShape, op, "target factor has %d rows, want %d", r, n)
	}
	if _, _, err := checkData(op, y); err != nil {
		return err
	}
	return nil
}

// quad returns y^T K y.
func quad(v symView, y []float64) float64 {
	var diag, off float64
	for i := 0; i < v.n; i++ {
		diag += y[i] * y[i] * v.at(i, i)
		var s float64
		for j := i + 1; j < v.n; j++ {
			s += v.at(i, j) * y[j]
		}
		off += y[i] * s
	}
	return diag + 2*off
}

// TargetAlignment returns A(K, y y^T) = y^T K y / (||K||_F ||y||^2)
// (eq. 7 of Hoi et al.) without forming y y^T. For a *LowRank K it takes
// O(n d).
func TargetAlignment(k mat.Symmetric, y []float64) (float64, error) {
	return vectorAlignment("TargetAlignment", k, y, false)
}

// vectorAlignment is TargetAlignment, or CenteredTargetAlignment when
// centred is set, reported as op.
func vectorAlignment(op string, k mat.Symmetric, y []float64, centred bool) (float64, error) {
	if l, ok := k.(*LowRank); ok {
		return l.targetAlignment(op, y, centred)
	}
	v, err := checkSym(op, "K", k)
	if err != nil {
		return 0, err
	}
	if err := checkVec(op, y, v.n); err != nil {
		return 0, err
	}
	if a, f := vectorRatio(v, y, centred); f == alignOK {
		return a, nil
	}
	v, _ = v.unitScaled()
	a, f := vectorRatio(v, unitScaledVec(y), centred)
	return alignOutcome(op, a, f)
}

func vectorRatio(v symView, y []float64, centred bool) (float64, alignFault) {
	if !centred {
		yy := dot(y, y)
		return alignRatio(quad(v, y), frob(v, v), yy*yy)
	}
	yc := centredVec(y)
	c := centre(v)
	yy := dot(yc, yc)
	return alignRatio(quad(v, yc), centredFrob(c, c), yy*yy)
}

// TargetAlignmentFactor returns A(K, T) for the target T = Y Y^T given by
// its n x c factor Y (for example the one-hot class indicator matrix, see
// OneHot): <K, T>_F = trace(Y^T K Y) and ||T||_F = ||Y^T Y||_F, so T is
// never formed.
func TargetAlignmentFactor(k mat.Symmetric, y *mat.Dense) (float64, error) {
	return factorAlignment("TargetAlignmentFactor", k, y, false)
}

// factorAlignment is TargetAlignmentFactor, or CenteredTargetAlignmentFactor
// when centred is set, reported as op.
func factorAlignment(op string, k mat.Symmetric, y *mat.Dense, centred bool) (float64, error) {
	if l, ok := k.(*LowRank); ok {
		return l.targetAlignmentFactor(op, y, centred)
	}
	v, err := checkSym(op, "K", k)
	if err != nil {
		return 0, err
	}
	if err := checkFactor(op, y, v.n); err != nil {
		return 0, err
	}
	if a, f := factorRatio(v, y, centred); f == alignOK {
		return a, nil
	}
	v, _ = v.unitScaled()
	a, f := factorRatio(v, unitScaledDense(y), centred)
	return alignOutcome(op, a, f)
}

func factorRatio(v symView, y *mat.Dense, centred bool) (float64, alignFault) {
	if centred {
		y = centredColumns(y)
	}
	// trace(Yᵀ K Y), one column at a time
	_, nc := y.Dims()
	var num float64
	col := make([]float64, v.n)
	for a := 0; a < nc; a++ {
		mat.Col(col, a, y)
		num += quad(v, col)
	}
	if !centred {
		return alignRatio(num, frob(v, v), gramFrob2(y))
	}
	c := centre(v)
	return alignRatio(num, centredFrob(c, c), gramFrob2(y))
}

// gramFrob2 returns ||Y^T Y||_F^2.
func gramFrob2(y *mat.Dense) float64 {
	var g mat.SymDense
	g.SymOuterK(1, y.T())
	gv := viewOf(&g)
	return frob(gv, gv)
}

// centredSym is a view of H K H computed on the fly from K and its row
// means.
type centredSym struct {
	v symView
	r []float64
	t float64
}

func centre(v symView) centredSym {
	n := v.n
	r := make([]float64, n)
	for i := 0; i < n; i++ {
		r[i] += v.at(i, i)
		for j := i + 1; j < n; j++ {
			x := v.at(i, j)
			r[i] += x
			r[j] += x
		}
	}
	var t float64
	for i := range r {
		r[i] /= float64(n)
		t += r[i]
	}
	return centredSym{v: v, r: r, t: t / float64(n)}
}

func (c centredSym) at(i, j int) float64 { return c.v.at(i, j) - c.r[i] - c.r[j] + c.t }

// centredFrob returns <HAH, HBH>_F, computed entry by entry (not by the
// expanded formula, which cancels badly when the means dominate).
func centredFrob(a, b centredSym) float64 {
	var diag, off float64
	for i := 0; i < a.v.n; i++ {
		diag += a.at(i, i) * b.at(i, i)
		for j := i + 1; j < a.v.n; j++ {
			off += a.at(i, j) * b.at(i, j)
		}
	}
	return diag + 2*off
}

// CenteredAlignment returns the centred alignment of Cortes, Mohri and
// Rostamizadeh, A(H K1 H, H K2 H) with H = I - 11^T/n, in O(n^2) time
// without forming the centred matrices. It fails with ErrDegenerate if a
// centred matrix is zero (for example a constant kernel). Two *LowRank
// arguments are handled in O(n d1 d2).
func CenteredAlignment(k1, k2 mat.Symmetric) (float64, error) {
	const op = "CenteredAlignment"
	if la, ok := k1.(*LowRank); ok {
		if lb, ok := k2.(*LowRank); ok {
			if err := la.validate(op); err != nil {
				return 0, err
			}
			if err := lb.validate(op); err != nil {
				return 0, err
			}
			return lowRankAlignment(op, la.Centered(), lb.Centered())
		}
	}
	va, vb, err := checkPair(op, k1, k2)
	if err != nil {
		return 0, err
	}
	if a, f := centredRatio(va, vb); f == alignOK {
		return a, nil
	}
	va, _ = va.unitScaled()
	vb, _ = vb.unitScaled()
	a, f := centredRatio(va, vb)
	return alignOutcome(op, a, f)
}

func centredRatio(va, vb symView) (float64, alignFault) {
	ca, cb := centre(va), centre(vb)
	return alignRatio(centredFrob(ca, cb), centredFrob(ca, ca), centredFrob(cb, cb))
}

func centredVec(y []float64) []float64 {
	m := meanOf(len(y), func(i int) float64 { return y[i] })
	c := make([]float64, len(y))
	for i, v := range y {
		c[i] = v - m
	}
	return c
}

// CenteredTargetAlignment returns A(H K H, H y y^T H) =
// (Hy)^T K (Hy) / (||HKH||_F ||Hy||^2). It fails with ErrDegenerate if y is
// constant or HKH is zero.
func CenteredTargetAlignment(k mat.Symmetric, y []float64) (float64, error) {
	return vectorAlignment("CenteredTargetAlignment", k, y, true)
}

// CenteredTargetAlignmentFactor is CenteredTargetAlignment for the target
// Y Y^T given by its factor Y (n x c).
func CenteredTargetAlignmentFactor(k mat.Symmetric, y *mat.Dense) (float64, error) {
	return factorAlignment("CenteredTargetAlignmentFactor", k, y, true)
}

// centredColumns returns a copy of y with column means removed (H Y).
func centredColumns(y *mat.Dense) *mat.Dense {
	r, c := y.Dims()
	out := mat.DenseCopyOf(y)
	raw := out.RawMatrix()
	for a := 0; a < c; a++ {
		m := meanOf(r, func(i int) float64 { return raw.Data[i*raw.Stride+a] })
		for i := 0; i < r; i++ {
			raw.Data[i*raw.Stride+a] -= m
		}
	}
	return out
}

// OneHot returns the n x c class indicator matrix Y with Y_ij = 1 if
// y[i] == j; Y Y^T is the ideal kernel (1 for equal classes, 0 otherwise).
// Labels must lie in [0, c).
func OneHot(y []int, c int) (*mat.Dense, error) {
	const op = "OneHot"
	if len(y) == 0 {
		return nil, newErr(ErrEmpty, op, "no labels")
	}
	if c < 1 {
		return nil, newErr(ErrSettings, op, "number of classes %d must be at least 1", c)
	}
	if c > math.MaxInt/8/len(y) {
		// The n x c matrix could not be allocated (make would panic).
		return nil, newErr(ErrSettings, op, "number of classes %d is too large for %d labels", c, len(y))
	}
	out := mat.NewDense(len(y), c, nil)
	for i, l := range y {
		if l < 0 || l >= c {
			return nil, newErr(ErrSettings, op, "label y[%d] = %d outside [0,%d)", i, l, c)
		}
		out.Set(i, l, 1)
	}
	return out, nil
}
