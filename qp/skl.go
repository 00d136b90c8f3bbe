package qp

import (
	"context"
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// ErrTargetOrthogonal is returned (with Status Infeasible) by SKL.Solve when the
// target is orthogonal to every eigenvector, i.e. all a_i = ‖Yᵀv_i‖² are zero, so
// that vec(T)ᵀDμ = aᵀμ = 1 cannot hold.
var ErrTargetOrthogonal = errors.New("qp: SKL infeasible: the target is orthogonal to every eigenvector (a = 0), so vec(T)ᵀDμ = 1 has no solution")

// ErrDecayRange is returned when C^(d−1) is too large for the reparametrised
// problem to be represented in float64 (its Hessian entries overflow).
var ErrDecayRange = errors.New("qp: SKL decay factor out of range: C^(2(d-1)) overflows float64; lower C or d")

// SKL is an instance of the spectral kernel learning QP of Hoi, Lyu and Chang
// (KDD 2006, section 4.2):
//
//	minimize μᵀDᵀDμ  subject to  vec(T)ᵀDμ = 1,  μ_i >= 0,  μ_i >= C·μ_{i+1} (i < d),
//
// where column i of D is vec(v_i v_iᵀ) for the top-d eigenvectors restricted to the
// labeled rows (the columns v_i of Vl) and T = YYᵀ is the target. D is never
// formed: DᵀD = H with H_ij = (v_iᵀv_j)², an O(l·d²) Hadamard square of the Gram
// matrix VlᵀVl, and Dᵀvec(T) = a with a_i = ‖Yᵀv_i‖².
//
// Feasibility and large C. Since a >= 0 and μ = e_1/a_1 (or the first i with
// a_i > 0 together with μ_1..μ_{i-1} = C^(i-j)·μ_i) is feasible for every C >= 1,
// the problem is feasible if and only if a ≠ 0; a large C never makes it
// infeasible in exact arithmetic. What fails is the numerical range: the decay
// constraints force μ_{i} <= μ_1/C^(i-1), so eigenvectors beyond
// 1 + log(1/ε)/log C (≈ 54 for C = 2) carry coefficients below rounding of μ_1 and
// are ignored, and the reparametrisation below has Hessian entries of order
// C^(2(d-1)), which overflow float64 when C^(2(d-1)) exceeds about 1e300
// (ErrDecayRange). When the target is orthogonal to the leading eigenvectors
// (a_1 = ... = a_{j-1} = 0) the optimum value grows like C^(2(j-1)).
//
// Specialised formulation. With ν_i = μ_i − C·μ_{i+1} (ν_d = μ_d), μ = Mν with
// M_ij = C^(j−i) (j >= i), the problem becomes
//
//	minimize 1/2 νᵀ(2MᵀHM)ν  subject to  (Mᵀa)ᵀν = 1,  ν >= 0,
//
// which Bounded solves. MᵀHM and Mᵀa are built in O(d²) by the recurrences
// (HM)_{:,j} = H_{:,j} + C·(HM)_{:,j−1} and (Mᵀa)_j = a_j + C·(Mᵀa)_{j−1}, and ν is
// scaled by the square roots of the diagonal of 2MᵀHM so that the entries of the
// scaled Hessian are at most 1. Results are mapped back to μ and checked in the
// original formulation.
//
// Truncation. Columns j and j+1 of the scaled M agree to within C^(1−j), so
// once C^(j−1) exceeds 1/ε the trailing ν columns are equal to rounding and the
// ν-space solve cannot tell them apart (for ionosphere at d = 200, C = 2 it used
// to take 31 iterations and then hand over to ActiveSet, 4-6 ms in all). Since
// μ_i <= μ_1/C^(i−1), coefficients past K = 1 + ⌈60·ln2/ln C⌉ (61 for C = 2) are
// below 2^-8 ulp of μ_1: the ν-problem is solved on the leading K coordinates
// only (a view of the leading block, no copy), μ_i = 0 beyond, and the answer is
// accepted only if the μ-space KKT residuals of the full problem, measured by
// Residuals' code, are at most 1e-10. The μ-space multipliers come from the
// backward recurrence of certify; past the last positive ν every decay row and
// bound is active and the multipliers are chosen greedily. Where that leaves a
// wrong sign, the last positive ν is moved to a later index (retail): the ν
// columns from there on are equal to rounding, so μ does not change, but the
// μ-space certificate does. If anything fails the old path remains: the full
// ν-problem, then the decay-extended point, then ActiveSet on the μ problem.
// The alternative, a block active-set method in μ-space (active chain rows
// merging coordinates into blocks with basis (1, 1/C, 1/C², ...)), would handle
// the tail without this case analysis, but needs its own factorisation updates
// and tests; with truncation plus the O(d) certificate repair the fast path
// costs O(K³ + d²) and stays at 2 iterations for d up to 200 on ionosphere,
// so the simpler route was taken.
//
// An SKL is re-used across values of C and labeled sets without reallocating as
// long as d stays the same. It is not safe for concurrent use.
type SKL struct {
	d     int
	c     float64
	h     *mat.SymDense // H = DᵀD
	a     []float64
	tnorm float64 // ‖T‖_F

	// μ-space problem (for general solvers)
	h2   *mat.SymDense // 2H
	muP  Problem
	aeq  *mat.Dense
	ain  *mat.Dense
	zero []float64
	one  []float64

	// ν-space problem
	hm    []float64 // d×d scratch
	hnu   *mat.SymDense
	anu   *mat.Dense
	scale []float64
	nuP   Problem
	hnuT  mat.SymDense // leading K×K view of hnu (see truncation)
	anuT  mat.Dense    // leading 1×K view of anu
	nuPT  Problem      // the ν-problem on the leading K coordinates
	bnd   *Bounded
	nuRes Result
	nuSt  Start
	nuX   []float64
	free  []bool
	hBak  []float64 // H and a before a SetData, restored if it fails
	aBak  []float64
	r     []float64 // μ-space gradient residual 2Hμ − a·y
	muAlt []float64
	as    *ActiveSet
	asSt  Start
	asRes Result
}

// NewSKL builds the SKL instance from Vl (l×d, the top-d eigenvectors restricted to
// the labeled rows), a target factor Y (l×r, T = YYᵀ; for binary labels r = 1 and
// Y = y ∈ {±1}ˡ) and the decay factor C >= 1.
func NewSKL(vl, target *mat.Dense, c float64) (*SKL, error) {
	if vl == nil || target == nil {
		return nil, invalidf("SKL: nil Vl or target")
	}
	if vl.IsEmpty() {
		return nil, invalidf("SKL: empty Vl")
	}
	_, d := vl.Dims()
	s := &SKL{d: d}
	s.h = mat.NewSymDense(d, nil)
	s.h2 = mat.NewSymDense(d, nil)
	s.a = make([]float64, d)
	s.hm = make([]float64, d*d)
	s.hnu = mat.NewSymDense(d, nil)
	s.anu = mat.NewDense(1, d, nil)
	s.aeq = mat.NewDense(1, d, nil)
	if d > 1 {
		s.ain = mat.NewDense(d-1, d, nil)
	}
	s.scale = make([]float64, d)
	s.zero = make([]float64, d)
	s.one = []float64{1}
	s.nuX = make([]float64, d)
	s.free = make([]bool, d)
	s.hBak = make([]float64, d*d)
	s.aBak = make([]float64, d)
	s.r = make([]float64, d)
	s.muAlt = make([]float64, d)
	s.bnd = NewBounded(&Settings{SkipPSDCheck: true})
	s.bnd.noKKT = true
	s.bnd.trusted = true // the ν-problem is built from validated, finite data
	s.c = 1
	if err := s.SetData(vl, target); err != nil {
		return nil, err
	}
	if err := s.SetC(c); err != nil {
		return nil, err
	}
	return s, nil
}

// ready reports an SKL that was not made by NewSKL (nil or the zero value).
func (s *SKL) ready() error {
	if s == nil || s.h == nil {
		return invalidf("SKL: not built by NewSKL")
	}
	return nil
}

// D returns the number of spectral coefficients (0 for a nil SKL).
func (s *SKL) D() int {
	if s == nil {
		return 0
	}
	return s.d
}

// C returns the decay factor (0 for a nil SKL).
func (s *SKL) C() float64 {
	if s == nil {
		return 0
	}
	return s.c
}

// H returns H = DᵀD (owned by s; do not modify; nil for an SKL not built
// by NewSKL).
func (s *SKL) H() *mat.SymDense {
	if s == nil {
		return nil
	}
	return s.h
}

// A returns a = Dᵀvec(T) (owned by s; do not modify).
func (s *SKL) A() []float64 {
	if s == nil {
		return nil
	}
	return s.a
}

// SetData replaces the labeled eigenvector block and the target; Vl must keep d
// columns (the number of labeled rows l may change). It does not allocate. If
// it fails, s keeps its previous data.
func (s *SKL) SetData(vl, target *mat.Dense) error {
	if err := s.ready(); err != nil {
		return err
	}
	if vl == nil || target == nil || vl.IsEmpty() || target.IsEmpty() {
		return invalidf("SKL: nil or empty Vl or target")
	}
	l, d := vl.Dims()
	if d != s.d {
		return invalidf("SKL: Vl has %d columns, want %d", d, s.d)
	}
	lt, r := target.Dims()
	if lt != l {
		return invalidf("SKL: target factor has %d rows, Vl has %d", lt, l)
	}
	for i := 0; i < l; i++ {
		for j := 0; j < d; j++ {
			if !finite(vl.At(i, j)) {
				return invalidf("SKL: Vl[%d,%d] is not finite", i, j)
			}
		}
		for j := 0; j < r; j++ {
			if !finite(target.At(i, j)) {
				return invalidf("SKL: target[%d,%d] is not finite", i, j)
			}
		}
	}
	// Keep the old data: a failure below (overflow) must leave s as it was.
	hraw := s.h.RawSymmetric()
	for i := 0; i < d; i++ {
		copy(s.hBak[i*d+i:i*d+d], hraw.Data[i*hraw.Stride+i:i*hraw.Stride+d])
	}
	copy(s.aBak, s.a)
	tnOld := s.tnorm
	if err := s.setData(vl, target, l, d, r); err != nil {
		for i := 0; i < d; i++ {
			copy(hraw.Data[i*hraw.Stride+i:i*hraw.Stride+d], s.hBak[i*d+i:i*d+d])
			for j := i; j < d; j++ {
				s.h2.SetSym(i, j, 2*s.hBak[i*d+j])
			}
			s.a[i] = s.aBak[i]
			s.aeq.Set(0, i, s.aBak[i])
		}
		s.tnorm = tnOld
		if err2 := s.rebuildNu(); err2 != nil {
			return errors.Join(err, err2)
		}
		return err
	}
	return nil
}

// setData is SetData on validated input of l rows, d columns and an r-column
// target factor.
func (s *SKL) setData(vl, target *mat.Dense, l, d, r int) error {
	// Gram G = VlᵀVl into h, then square entrywise.
	rv := vl.RawMatrix()
	blas64.Syrk(blas.Trans, 1, blas64.General{Rows: l, Cols: d, Stride: rv.Stride, Data: rv.Data}, 0, s.h.RawSymmetric())
	raw := s.h.RawSymmetric()
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			v := raw.Data[i*raw.Stride+j]
			raw.Data[i*raw.Stride+j] = v * v
			s.h2.SetSym(i, j, 2*v*v)
		}
	}
	// a_i = ‖Yᵀ v_i‖²
	rt := target.RawMatrix()
	for i := 0; i < d; i++ {
		ai := 0.0
		for k := 0; k < r; k++ {
			t := 0.0
			for row := 0; row < l; row++ {
				t += rt.Data[row*rt.Stride+k] * rv.Data[row*rv.Stride+i]
			}
			ai += t * t
		}
		s.a[i] = ai
		s.aeq.Set(0, i, ai)
	}
	// ‖T‖_F² = ‖YᵀY‖_F²
	tn := 0.0
	for k1 := 0; k1 < r; k1++ {
		for k2 := 0; k2 < r; k2++ {
			t := 0.0
			for row := 0; row < l; row++ {
				t += rt.Data[row*rt.Stride+k1] * rt.Data[row*rt.Stride+k2]
			}
			tn += t * t
		}
	}
	s.tnorm = math.Sqrt(tn)
	if !finite(s.tnorm) {
		return invalidf("SKL: target entries too large (‖T‖_F overflows)")
	}
	for i := 0; i < d; i++ {
		if !finite(s.a[i]) {
			return invalidf("SKL: Vl or target entries too large (a[%d] overflows)", i)
		}
		for j := i; j < d; j++ {
			if !finite(raw.Data[i*raw.Stride+j]) {
				return invalidf("SKL: Vl entries too large (H[%d,%d] = (v_iᵀv_j)² overflows)", i, j)
			}
		}
	}
	return s.rebuildNu()
}

// SetC changes the decay factor (C >= 1). It does not allocate. If it fails
// (ErrDecayRange), s keeps its previous C.
func (s *SKL) SetC(c float64) error {
	if err := s.ready(); err != nil {
		return err
	}
	if math.IsNaN(c) || math.IsInf(c, 0) || c < 1 {
		return invalidf("SKL: decay factor C = %v, want a finite C >= 1", c)
	}
	old := s.c
	if err := s.setC(c); err != nil {
		if err2 := s.setC(old); err2 != nil {
			return errors.Join(err, err2)
		}
		return err
	}
	return nil
}

func (s *SKL) setC(c float64) error {
	s.c = c
	if s.ain != nil {
		for i := 0; i < s.d-1; i++ {
			s.ain.Set(i, i, 1)
			s.ain.Set(i, i+1, -c)
		}
	}
	return s.rebuildNu()
}

func (s *SKL) rebuildNu() error {
	d, c := s.d, s.c
	raw := s.h.RawSymmetric()
	hij := func(i, j int) float64 {
		if i > j {
			i, j = j, i
		}
		return raw.Data[i*raw.Stride+j]
	}
	// X = HM (row-major d×d in hm)
	x := s.hm
	for i := 0; i < d; i++ {
		x[i*d] = hij(i, 0)
		for j := 1; j < d; j++ {
			x[i*d+j] = hij(i, j) + c*x[i*d+j-1]
		}
	}
	// MᵀX in place, row by row: row j += C·row j−1
	for j := 1; j < d; j++ {
		for k := 0; k < d; k++ {
			x[j*d+k] += c * x[(j-1)*d+k]
		}
	}
	// M^T a
	anu := s.anu.RawRowView(0)
	prev := 0.0
	for j := 0; j < d; j++ {
		prev = s.a[j] + c*prev
		anu[j] = prev
	}
	for j := 0; j < d; j++ {
		dj := 2 * x[j*d+j]
		if !finite(dj) || !finite(anu[j]) {
			return ErrDecayRange
		}
		if dj > 0 {
			s.scale[j] = math.Sqrt(dj)
		} else {
			s.scale[j] = 1
		}
	}
	hr := s.hnu.RawSymmetric()
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			// symmetrise the two computed triangles
			v := (x[i*d+j] + x[j*d+i]) / (s.scale[i] * s.scale[j])
			if !finite(v) {
				return ErrDecayRange
			}
			hr.Data[i*hr.Stride+j] = v
		}
		anu[i] /= s.scale[i]
	}
	s.nuP = Problem{H: s.hnu, C: s.zero, Aeq: s.anu, Beq: s.one, Lower: s.zero}
	s.muP = Problem{H: s.h2, C: s.zero, Aeq: s.aeq, Beq: s.one, Lower: s.zero}
	if s.ain != nil {
		s.muP.Ain, s.muP.Bin = s.ain, s.zero[:d-1]
	}
	return nil
}

// Problem returns the μ-space problem in general form: H = 2DᵀD, c = 0, one
// equality aᵀμ = 1, the d−1 decay rows μ_i − Cμ_{i+1} >= 0 as Ain and μ >= 0 as
// Lower. It is owned by s and changes with SetC and SetData.
func (s *SKL) Problem() *Problem {
	if s == nil {
		return nil
	}
	return &s.muP
}

// Solve solves the SKL problem and writes the μ-space result to res: X = μ,
// Eq[0] the multiplier of aᵀμ = 1, Ineq the d−1 decay multipliers, Lower the
// multipliers of μ >= 0, KKT measured on Problem(). With solver nil or a
// *Bounded the reparametrised ν-space problem is solved (the fast path; nil uses
// a Bounded owned by s); any other solver is applied to Problem(). start.X, if
// given, is a μ-space hot start (for example the previous solution).
//
// If a = 0 the status is Infeasible and the error is ErrTargetOrthogonal.
func (s *SKL) Solve(ctx context.Context, solver Solver, start *Start, res *Result) error {
	if ctx == nil {
		return invalidf("nil context")
	}
	if err := s.ready(); err != nil {
		return err
	}
	if res == nil {
		return invalidf("nil result")
	}
	d := s.d
	amax := 0.0
	for _, v := range s.a {
		amax = math.Max(amax, v)
	}
	if amax == 0 {
		res.Status = Infeasible
		res.X = grow(res.X, d)
		fill(res.X, math.NaN())
		return ErrTargetOrthogonal
	}
	if start != nil && start.X != nil && len(start.X) != d {
		return invalidf("SKL: len(start.X) = %d, want %d", len(start.X), d)
	}
	bnd, isB := solver.(*Bounded)
	if solver == nil || (isB && bnd == nil) {
		bnd, isB = s.bnd, true // a nil *Bounded is the default fast path too
	}
	if !isB {
		return solver.Solve(ctx, &s.muP, start, res)
	}
	k := s.truncation()
	nuP := &s.nuP
	if k < d {
		nuP = s.truncated(k)
	}
	st, err := s.solveNu(ctx, bnd, nuP, k, start)
	if err != nil {
		return err
	}
	if k < d && st != Optimal {
		// the leading block alone is not solvable (e.g. a_1..a_K = 0): full problem
		k = d
		if st, err = s.solveNu(ctx, bnd, &s.nuP, d, start); err != nil {
			return err
		}
	}
	nr := &s.nuRes
	res.Status = nr.Status
	res.Iter, res.Phase1Iter = nr.Iter, nr.Phase1Iter
	res.X = grow(res.X, d)
	res.Eq = grow(res.Eq, 1)
	res.Ineq = grow(res.Ineq, d-1)
	res.Lower, res.Upper = grow(res.Lower, d), grow(res.Upper, d)
	res.Ray = res.Ray[:0]
	fill(res.Lower, 0)
	fill(res.Upper, 0)
	fill(res.Ineq, 0)
	res.Eq[0] = nr.Eq[0]
	// μ = M S⁻¹ t (backward recurrence); μ_i = 0 past the truncation
	prev := 0.0
	for i := d - 1; i >= 0; i-- {
		if i < k {
			prev = nr.X[i]/s.scale[i] + s.c*prev
		}
		res.X[i] = prev
	}
	free := s.free
	for i := 0; i < d; i++ {
		free[i] = i < k && nr.X[i] > 0
	}
	s.certify(res, free)
	if res.Status == Optimal && res.KKT.Max() > sklKKTTol {
		// The ν-space solve cannot tell apart the trailing ν_j whose columns
		// agree to rounding once C^(j-1) exceeds 1/ε; it may stop the geometric
		// decay early (μ = 0 after the last positive ν). Continue the decay to
		// μ_d instead, rescale to aᵀμ = 1, and certify again.
		last := -1
		for i := range free {
			if free[i] {
				last = i
			}
		}
		if last >= 0 && last < d-1 {
			copy(s.muAlt, res.X)
			yOld := res.Eq[0]
			for i := last + 1; i < d; i++ {
				res.X[i] = res.X[i-1] / s.c
			}
			sa := 0.0
			for i, v := range res.X {
				sa += s.a[i] * v
			}
			for i := range res.X {
				res.X[i] /= sa
			}
			res.Eq[0] /= sa
			free[last], free[d-1] = false, true
			s.certify(res, free)
			if res.KKT.Max() > sklKKTTol {
				copy(res.X, s.muAlt)
				res.Eq[0] = yOld
				free[last], free[d-1] = true, false
			}
		}
	}
	res.Working = res.Working[:0]
	for i := 0; i < d; i++ {
		if !free[i] {
			if i < d-1 {
				res.Working = append(res.Working, 1+i)
			} else {
				res.Working = append(res.Working, 1+(d-1)+i)
			}
		}
	}
	if res.Status == Optimal && res.KKT.Max() > sklKKTTol {
		return s.finish(ctx, res)
	}
	return nil
}

// truncation returns the number K <= d of leading ν coordinates the fast path
// solves for. The decay rows give μ_i <= μ_1/C^(i−1), so once C^(i−1) exceeds
// 2^52·2^8 (the 52 bits of μ_1's mantissa plus a margin of 8 halvings) μ_i is
// below 2^-8 ulp of μ_1 and cannot change any computed quantity at the level of
// rounding: K = 1 + ⌈60·ln2/ln C⌉. For C = 2 that is 61; for C <= 1.2 it is
// about 230 and no truncation happens in the benchmark range.
func (s *SKL) truncation() int {
	if s.c <= 1 {
		return s.d
	}
	k := 1 + math.Ceil(60*math.Ln2/math.Log(s.c))
	if k >= float64(s.d) {
		return s.d
	}
	return int(k)
}

// truncated returns the ν-problem restricted to the leading k coordinates. As M
// is upper triangular, ν_i = 0 for i >= k gives μ_i = 0 for i >= k, and the
// restricted problem is the leading k×k block of the (scaled) full one: views
// into hnu and anu, no copies.
func (s *SKL) truncated(k int) *Problem {
	hr := s.hnu.RawSymmetric()
	s.hnuT.SetRawSymmetric(blas64.Symmetric{N: k, Stride: hr.Stride, Data: hr.Data, Uplo: blas.Upper})
	ar := s.anu.RawMatrix()
	s.anuT.SetRawMatrix(blas64.General{Rows: 1, Cols: k, Stride: ar.Stride, Data: ar.Data[:k]})
	s.nuPT = Problem{H: &s.hnuT, C: s.zero[:k], Aeq: &s.anuT, Beq: s.one, Lower: s.zero[:k]}
	return &s.nuPT
}

// solveNu solves the ν-problem nuP (the leading k coordinates) with bnd into
// s.nuRes, hot-started from the μ-space start if given.
func (s *SKL) solveNu(ctx context.Context, bnd *Bounded, nuP *Problem, k int, start *Start) (Status, error) {
	var st *Start
	if start != nil && start.X != nil {
		// ν = Gμ, scaled; tiny values (rounding of an active decay row) become 0
		mu := start.X
		for i := 0; i < k; i++ {
			v := mu[i]
			if i+1 < k {
				v -= s.c * mu[i+1]
			}
			if v <= 1e-13*math.Abs(mu[i]) {
				v = 0
			}
			s.nuX[i] = v * s.scale[i]
		}
		s.nuSt.X = s.nuX[:k]
		st = &s.nuSt
	}
	if err := bnd.Solve(ctx, nuP, st, &s.nuRes); err != nil {
		return NotSolved, err
	}
	return s.nuRes.Status, nil
}

// certify computes the μ-space multipliers of res.X given which ν are positive
// and stores them with the objective and the KKT residuals in res. If the
// multipliers have a wrong sign and the last positive ν can be moved to a later
// index that fixes them (retail), free is changed accordingly.
//
// With G the bidiagonal matrix of the rows (decay rows i < d, and μ_d >= 0 as
// row d), stationarity reads λ_i − C·λ_{i−1} + L_i = r_i := (2Hμ − a·y)_i, L the
// multipliers of μ >= 0. Mapping z_ν = S·z_t back, or a forward recurrence,
// multiplies rounding errors by C at every step; instead λ = 0 on rows whose ν
// is positive (complementarity) and the recurrence is run backwards from them,
// λ_{i−1} = (λ_i − r_i)/C, which damps errors. After the last positive ν,
// μ = 0 and the choice between λ and L is made greedily (see multipliers).
func (s *SKL) certify(res *Result, free []bool) {
	d := s.d
	r := s.r
	blas64.Symv(1, s.h2.RawSymmetric(), blas64.Vector{N: d, Data: res.X, Inc: 1}, 0, blas64.Vector{N: d, Data: r, Inc: 1})
	y := res.Eq[0]
	quad := 0.0 // μᵀ(2H)μ
	for i := 0; i < d; i++ {
		quad += res.X[i] * r[i]
		r[i] -= s.a[i] * y
	}
	if !s.multipliers(res, free) {
		if f := s.lastFree(); s.retail(free) && !s.multipliers(res, free) {
			// no better: restore the pattern
			for i := f + 1; i < d; i++ {
				free[i] = false
			}
			free[f] = true
			s.multipliers(res, free)
		}
	}
	res.Obj = quad / 2 // c = 0
	res.KKT, _ = residuals(&s.muP, d, 1, d-1, res.X, res.Eq, res.Ineq, res.Lower, res.Upper, s.nuX, s.hm[:d])
}

// lastFree returns the largest i with free[i] set (−1 if none) and
// max |r_i| over i < len(free).
func lastFree(free []bool, r []float64) (last int, rmax float64) {
	last = -1
	for i, fr := range free {
		if fr {
			last = i
		}
		rmax = fmax(rmax, math.Abs(r[i]))
	}
	return last, rmax
}

// multipliers sets res.Ineq and res.Lower from s.r for the given pattern and
// reports whether all of them are nonnegative.
func (s *SKL) multipliers(res *Result, free []bool) bool {
	d, r := s.d, s.r
	last, rmax := lastFree(free[:d], r)
	lam := s.hm[:d]
	fill(res.Lower, 0)
	ok := true
	for i := d - 1; i >= 0; i-- {
		switch {
		case free[i]:
			lam[i] = 0
		case i < last:
			lam[i] = (lam[i+1] - r[i+1]) / s.c
			ok = ok && lam[i] >= 0
		}
	}
	// Past the last positive ν every μ_i is 0 and both its decay row and its
	// bound are active: stationarity λ_i − C·λ_{i−1} + L_i = r_i leaves a choice.
	// Put as much as possible into λ_i (it helps the next coordinates), up to
	// rmax/(C−1): from there λ stays >= rmax/(C−1) whatever the signs of r.
	capL := math.Inf(1)
	if s.c > 1 {
		capL = rmax / (s.c - 1)
	}
	prev := 0.0
	for i := last + 1; i < d; i++ {
		t := r[i] + s.c*prev
		if i == d-1 || t < 0 {
			lam[i], res.Lower[i] = 0, t
			ok = ok && t >= 0
		} else {
			lam[i] = math.Min(t, capL)
			res.Lower[i] = t - lam[i]
		}
		prev = lam[i]
	}
	for i := 0; i < d-1; i++ {
		res.Ineq[i] = lam[i]
	}
	return ok
}

// retail moves the last positive ν (index f) to a later index f' whose μ-space
// certificate has multipliers of the right sign, using the residual s.r of the
// last certify; it reports whether it found one. This is the remedy for a
// ν-space answer whose last positive ν_f has μ_f below rounding of μ_1: the ν
// columns from f on agree to rounding, so the ν-space solve cannot tell which of
// them should carry the tail, but the μ-space multipliers can (μ is unchanged to
// rounding: the decay row of f becomes active at slack μ_f ≈ 0). The backward
// recurrence from f' down to f and the greedy forward pass after f' (as in
// certify) must stay nonnegative; the caller certifies the result.
func (s *SKL) retail(free []bool) bool {
	d, c, r := s.d, s.c, s.r
	f, rmax := lastFree(free[:d], r)
	if f < 0 {
		return false
	}
	capL := math.Inf(1)
	if c > 1 {
		capL = rmax / (c - 1)
	}
next:
	for fp := f + 1; fp < d; fp++ {
		lam := 0.0
		for i := fp; i > f; i-- {
			if lam = (lam - r[i]) / c; lam < 0 {
				continue next
			}
		}
		lam = 0
		for i := fp + 1; i < d && lam < capL; i++ {
			t := r[i] + c*lam
			if t < 0 {
				continue next
			}
			lam = t
		}
		free[f], free[fp] = false, true
		return true
	}
	return false
}

// lastFree returns the index of the last true entry of s.free, or -1.
func (s *SKL) lastFree() int {
	for i := s.d - 1; i >= 0; i-- {
		if s.free[i] {
			return i
		}
	}
	return -1
}

// sklKKTTol is the relative μ-space KKT residual above which the ν-space answer
// is refined by ActiveSet.
const sklKKTTol = 1e-10

// finish refines a ν-space answer whose μ-space certificate is inaccurate (this
// happens when coefficients fall below rounding relative to μ_1, e.g. d = 100,
// C = 2): ActiveSet on Problem(), hot-started from μ with the decay rows of zero
// ν and the zero μ_i as working set.
func (s *SKL) finish(ctx context.Context, res *Result) error {
	d := s.d
	if s.as == nil {
		s.as = NewActiveSet(&Settings{SkipPSDCheck: true})
		s.asRes.X = make([]float64, 0, d)
		s.asSt.Working = make([]int, 0, 2*d)
	}
	w := s.asSt.Working[:0]
	for i := 0; i < d; i++ {
		if i >= len(s.nuRes.X) || s.nuRes.X[i] == 0 {
			if i < d-1 {
				w = append(w, 1+i)
			} else {
				w = append(w, d+i)
			}
		}
	}
	for i := 0; i < d-1; i++ {
		if res.X[i] == 0 {
			w = append(w, d+i)
		}
	}
	s.asSt.Working = w
	s.asSt.X = res.X
	if err := s.as.Solve(ctx, &s.muP, &s.asSt, &s.asRes); err != nil {
		return err
	}
	s.asSt.X = nil
	a := &s.asRes
	res.Status, res.Obj, res.KKT = a.Status, a.Obj, a.KKT
	res.Polish = a.Iter
	res.Iter += a.Iter
	copy(res.X, a.X)
	copy(res.Eq, a.Eq)
	copy(res.Ineq, a.Ineq)
	copy(res.Lower, a.Lower)
	copy(res.Upper, a.Upper)
	res.Working = append(res.Working[:0], a.Working...)
	return nil
}

// Alignment returns the kernel-target alignment ⟨K̄_tr, T⟩_F / (‖K̄_tr‖_F ‖T‖_F) of
// K̄ = Σ μ_i v_i v_iᵀ, computed in O(d²) as aᵀμ / (sqrt(μᵀHμ)·‖T‖_F).
func (s *SKL) Alignment(mu []float64) float64 {
	if s.ready() != nil || len(mu) != s.d {
		return math.NaN()
	}
	num := 0.0
	for i, v := range mu {
		num += s.a[i] * v
	}
	raw := s.h.RawSymmetric()
	q := 0.0
	for i := 0; i < s.d; i++ {
		q += raw.Data[i*raw.Stride+i] * mu[i] * mu[i]
		for j := i + 1; j < s.d; j++ {
			q += 2 * raw.Data[i*raw.Stride+j] * mu[i] * mu[j]
		}
	}
	if q <= 0 || s.tnorm == 0 {
		return 0
	}
	return num / (math.Sqrt(q) * s.tnorm)
}
