package qp

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// SKL is an instance of the spectral kernel learning QP of Hoi, Lyu and Chang
// (KDD 2006, section 4.2), with δ the decay factor (Decay; the paper's C):
//
//	minimize μᵀDᵀDμ  subject to  vec(T)ᵀDμ = 1,  μ_i >= 0,  μ_i >= δ·μ_{i+1} (i < d),
//
// where column i of D is vec(v_i v_iᵀ) for the top-d eigenvectors restricted to the
// labeled rows (the columns v_i of Vl) and T = YYᵀ is the target. D is never
// formed: DᵀD = H with H_ij = (v_iᵀv_j)², an O(l·d²) Hadamard square of the Gram
// matrix VlᵀVl, and Dᵀvec(T) = a with a_i = ‖Yᵀv_i‖².
//
// Feasibility and a large decay factor. Since a >= 0 and μ = e_1/a_1 (or the
// first i with a_i > 0 together with μ_1..μ_{i-1} = δ^(i-j)·μ_i) is feasible
// for every δ >= 1, the problem is feasible if and only if a ≠ 0; a large δ
// never makes it infeasible in exact arithmetic. If a = 0 (the target is
// orthogonal to every eigenvector on the labeled rows) Solve reports the
// outcome Infeasible with a nil error, as for any infeasible QP: the data are
// valid, the problem they pose has no feasible point. What a large δ breaks
// is the numerical range: the decay constraints force μ_i <= μ_1/δ^(i-1), so
// eigenvectors beyond 1 + log(1/ε)/log δ (≈ 54 for δ = 2) carry coefficients
// below rounding of μ_1 and are ignored, and the reparametrisation below has
// Hessian entries of order δ^(2(d-1)), which overflow float64 when
// δ^(2(d-1)) exceeds about 1e300 (ErrDecayRange). When the target is
// orthogonal to the leading eigenvectors (a_1 = ... = a_{j-1} = 0) the optimum
// value grows like δ^(2(j-1)).
//
// Specialised formulation. With ν_i = μ_i − δ·μ_{i+1} (ν_d = μ_d), μ = Mν with
// M_ij = δ^(j−i) (j >= i), the problem becomes
//
//	minimize 1/2 νᵀ(2MᵀHM)ν  subject to  (Mᵀa)ᵀν = 1,  ν >= 0,
//
// which Bounded solves. MᵀHM and Mᵀa are built in O(d²) by the recurrences
// (HM)_{:,j} = H_{:,j} + δ·(HM)_{:,j−1} and (Mᵀa)_j = a_j + δ·(Mᵀa)_{j−1}, and ν is
// scaled by the square roots of the diagonal of 2MᵀHM so that the entries of the
// scaled Hessian are at most 1. Results are mapped back to μ and checked in the
// original formulation.
//
// Truncation. Columns j and j+1 of the scaled M agree to within δ^(1−j), so
// once δ^(j−1) exceeds 1/ε the trailing ν columns are equal to rounding and the
// ν-space solve cannot tell them apart (it used to take many iterations and
// then hand over to ActiveSet). Since μ_i <= μ_1/δ^(i−1), coefficients past
// K = 1 + ⌈60·ln2/ln δ⌉ (61 for δ = 2) are below 2^-8 ulp of μ_1: the ν-problem
// is solved on the leading K coordinates only (a view of the leading block, no
// copy), μ_i = 0 beyond, and the answer is accepted only if the μ-space KKT
// residuals of the full problem, measured by Residuals' code, are at most
// 1e-10. The μ-space multipliers come from the backward recurrence of certify;
// past the last positive ν every decay row and bound is active and the
// multipliers are chosen greedily. Where that leaves a wrong sign, the last
// positive ν is moved to a later index (retail): the ν columns from there on
// are equal to rounding, so μ does not change, but the μ-space certificate
// does. If anything fails the old path remains: the full ν-problem, then the
// decay-extended point, then ActiveSet on the μ problem. The alternative, a
// block active-set method in μ-space (active chain rows merging coordinates
// into blocks with basis (1, 1/δ, 1/δ², ...)), would handle the tail without
// this case analysis, but needs its own factorisation updates and tests; with
// truncation plus the O(d) certificate repair the fast path costs O(K³ + d²)
// and takes a few iterations (BENCHMARKS.md), so the simpler route was taken.
//
// An SKL is re-used across decay factors and labeled sets without
// reallocating as long as d stays the same. It is not safe for concurrent
// use.
type SKL struct {
	d     int
	decay float64
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

// NewSKL builds the SKL instance from Vl (l×d, the top-d eigenvectors
// restricted to the labeled rows), a target factor Y (l×r, T = YYᵀ; for binary
// labels r = 1 and Y = y ∈ {±1}ˡ) and the decay factor δ >= 1 (zero means
// DefaultDecay). It costs O(l·d·(d + r) + d²).
//
// Invalid input (nil or empty matrices, row counts that differ, NaN/Inf
// entries or entries whose squares overflow, a decay factor below 1 or not
// finite) is an error wrapping linalg.ErrInvalid; a decay factor whose powers
// overflow the reparametrisation is ErrDecayRange.
func NewSKL(vl, target *mat.Dense, decay float64) (*SKL, error) {
	if vl == nil || target == nil {
		return nil, linalg.Errorf(linalg.ErrEmpty, opNewSKL, "nil Vl or target")
	}
	if vl.IsEmpty() {
		return nil, linalg.Errorf(linalg.ErrEmpty, opNewSKL, "empty Vl")
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
	s.decay = 1
	if err := s.replaceData(opNewSKL, vl, target); err != nil {
		return nil, err
	}
	if err := s.changeDecay(opNewSKL, decay); err != nil {
		return nil, err
	}
	return s, nil
}

// ready reports an SKL that was not made by NewSKL (nil or the zero value).
func (s *SKL) ready(op string) error {
	if s == nil || s.h == nil {
		return linalg.Errorf(linalg.ErrSettings, op, "SKL not built by NewSKL")
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

// Decay returns the decay factor δ (0 for a nil SKL).
func (s *SKL) Decay() float64 {
	if s == nil {
		return 0
	}
	return s.decay
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
// it fails (an error wrapping linalg.ErrInvalid, as for NewSKL), s keeps its
// previous data.
func (s *SKL) SetData(vl, target *mat.Dense) error {
	const op = "qp.SKL.SetData"
	if err := s.ready(op); err != nil {
		return err
	}
	return s.replaceData(op, vl, target)
}

// replaceData is SetData for the operation op.
func (s *SKL) replaceData(op string, vl, target *mat.Dense) error {
	if vl == nil || target == nil || vl.IsEmpty() || target.IsEmpty() {
		return linalg.Errorf(linalg.ErrEmpty, op, "nil or empty Vl or target")
	}
	l, d := vl.Dims()
	if d != s.d {
		return linalg.Errorf(linalg.ErrShape, op, "Vl has %d columns, want %d", d, s.d)
	}
	lt, r := target.Dims()
	if lt != l {
		return linalg.Errorf(linalg.ErrShape, op, "target factor has %d rows, Vl has %d", lt, l)
	}
	for i := 0; i < l; i++ {
		for j := 0; j < d; j++ {
			if !finite(vl.At(i, j)) {
				return linalg.Errorf(linalg.ErrNonFinite, op, "Vl[%d,%d] is not finite", i, j)
			}
		}
		for j := 0; j < r; j++ {
			if !finite(target.At(i, j)) {
				return linalg.Errorf(linalg.ErrNonFinite, op, "target[%d,%d] is not finite", i, j)
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
	if err := s.setData(op, vl, target, l, d, r); err != nil {
		for i := 0; i < d; i++ {
			copy(hraw.Data[i*hraw.Stride+i:i*hraw.Stride+d], s.hBak[i*d+i:i*d+d])
			for j := i; j < d; j++ {
				s.h2.SetSym(i, j, 2*s.hBak[i*d+j])
			}
			s.a[i] = s.aBak[i]
			s.aeq.Set(0, i, s.aBak[i])
		}
		s.tnorm = tnOld
		if err2 := s.rebuildNu(op); err2 != nil {
			return errors.Join(err, err2)
		}
		return err
	}
	return nil
}

// setData is SetData on validated input of l rows, d columns and an r-column
// target factor.
func (s *SKL) setData(op string, vl, target *mat.Dense, l, d, r int) error {
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
		return linalg.Errorf(linalg.ErrNonFinite, op, "target entries too large (‖T‖_F overflows)")
	}
	for i := 0; i < d; i++ {
		if !finite(s.a[i]) {
			return linalg.Errorf(linalg.ErrNonFinite, op, "Vl or target entries too large (a[%d] overflows)", i)
		}
		for j := i; j < d; j++ {
			if !finite(raw.Data[i*raw.Stride+j]) {
				return linalg.Errorf(linalg.ErrNonFinite, op, "Vl entries too large (H[%d,%d] = (v_iᵀv_j)² overflows)", i, j)
			}
		}
	}
	return s.rebuildNu(op)
}

// SetDecay changes the decay factor δ >= 1 (zero means DefaultDecay). It does
// not allocate. A δ below 1 or not finite is an error wrapping
// linalg.ErrSettings; one whose powers overflow the reparametrisation is
// ErrDecayRange. If it fails, s keeps its previous decay factor.
func (s *SKL) SetDecay(decay float64) error {
	const op = "qp.SKL.SetDecay"
	if err := s.ready(op); err != nil {
		return err
	}
	return s.changeDecay(op, decay)
}

// changeDecay is SetDecay for the operation op.
func (s *SKL) changeDecay(op string, decay float64) error {
	if decay == 0 {
		decay = DefaultDecay
	}
	if err := linalg.CheckIn(op, "decay factor", decay, 1, math.Inf(1)); err != nil {
		return err
	}
	old := s.decay
	if err := s.setDecay(op, decay); err != nil {
		if err2 := s.setDecay(op, old); err2 != nil {
			return errors.Join(err, err2)
		}
		return err
	}
	return nil
}

func (s *SKL) setDecay(op string, decay float64) error {
	s.decay = decay
	if s.ain != nil {
		for i := 0; i < s.d-1; i++ {
			s.ain.Set(i, i, 1)
			s.ain.Set(i, i+1, -decay)
		}
	}
	return s.rebuildNu(op)
}

// rebuildNu forms the ν-space problem and the μ-space one from H, a and the
// decay factor; it fails with ErrDecayRange when the ν-space Hessian or
// constraint row overflows.
func (s *SKL) rebuildNu(op string) error {
	d, c := s.d, s.decay
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
	// MᵀX in place, row by row: row j += δ·row j−1
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
			return linalg.Errorf(ErrDecayRange, op, "decay factor %v with d = %d: Decay^(2(d-1)) overflows float64", c, d)
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
				return linalg.Errorf(ErrDecayRange, op, "decay factor %v with d = %d: Decay^(2(d-1)) overflows float64", c, d)
			}
			hr.Data[i*hr.Stride+j] = v
		}
		anu[i] /= s.scale[i]
	}
	s.nuP = Problem{H: s.hnu, G: s.zero, Aeq: s.anu, Beq: s.one, Lower: s.zero}
	s.muP = Problem{H: s.h2, G: s.zero, Aeq: s.aeq, Beq: s.one, Lower: s.zero}
	if s.ain != nil {
		s.muP.Ain, s.muP.Bin = s.ain, s.zero[:d-1]
	}
	return nil
}

// Problem returns the μ-space problem in general form: H = 2DᵀD, g = 0, one
// equality aᵀμ = 1, the d−1 decay rows μ_i − δμ_{i+1} >= 0 as Ain and μ >= 0 as
// Lower. It is owned by s and changes with SetDecay and SetData.
func (s *SKL) Problem() *Problem {
	if s == nil {
		return nil
	}
	return &s.muP
}

// Alignment returns the kernel-target alignment ⟨K̄_tr, T⟩_F / (‖K̄_tr‖_F ‖T‖_F) of
// K̄ = Σ μ_i v_i v_iᵀ, computed in O(d²) as aᵀμ / (sqrt(μᵀHμ)·‖T‖_F). It
// returns NaN for an SKL not built by NewSKL or a μ of the wrong length, and 0
// when μᵀHμ <= 0 or T = 0.
func (s *SKL) Alignment(mu []float64) float64 {
	if s.ready("") != nil || len(mu) != s.d {
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
