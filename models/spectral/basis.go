package spectral

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Basis holds d eigenpairs over all n points: Values[i] belongs to column i
// of V. For an initial kernel the pairs are the largest, in descending order;
// for a graph Laplacian the smallest, in ascending order (smoothest first).
// Either way column 0 is the one a decay constraint favours most.
type Basis struct {
	Values []float64
	V      *mat.Dense // n x d, orthonormal columns
}

// Dims returns n and d (0, 0 for a nil Basis or one without V).
func (b *Basis) Dims() (n, d int) {
	if b == nil || b.V == nil {
		return 0, 0
	}
	return b.V.Dims()
}

// Validate reports a malformed basis, as every design of the package does
// first: an empty basis (linalg.ErrEmpty), a number of values other than the
// number of vectors (linalg.ErrShape) or a non-finite value
// (linalg.ErrNonFinite). A design of one's own calls it too, so that it
// rejects what the built-in designs reject (designtest checks that).
func (b *Basis) Validate() error { return b.check("spectral.Basis.Validate") }

// check validates the basis for the operation op: not empty, one value per
// vector, finite values.
func (b *Basis) check(op string) error {
	if b == nil || b.V == nil || b.V.IsEmpty() {
		return linalg.Errorf(linalg.ErrEmpty, op, "empty basis")
	}
	_, d := b.V.Dims()
	if len(b.Values) != d {
		return linalg.Errorf(linalg.ErrShape, op, "basis has %d values for %d vectors", len(b.Values), d)
	}
	for i, v := range b.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return linalg.Errorf(linalg.ErrNonFinite, op, "eigenvalue %d is %v", i, v)
		}
	}
	return nil
}

// Rows copies the rows idx of V into dst (resized as needed) and returns it:
// the eigenvectors restricted to those points. It costs O(len(idx)·d).
//
// An empty basis (linalg.ErrEmpty), an index outside [0, n) or repeated
// (linalg.ErrLabels), no index (linalg.ErrEmpty) and a dst that is V itself
// (linalg.ErrSettings: the copy would overwrite rows still to be read) are
// errors.
func (b *Basis) Rows(dst *mat.Dense, idx []int) (*mat.Dense, error) {
	const op = "spectral.Basis.Rows"
	if b == nil || b.V == nil || b.V.IsEmpty() {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "empty basis")
	}
	n, _ := b.V.Dims()
	if dst == b.V {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "dst is the basis V itself")
	}
	if len(idx) == 0 {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "no labeled points")
	}
	return b.rows(op, dst, idx, make([]bool, n))
}

// rows is Rows with a caller-owned scratch seen (len n, all false; it is
// left all false), so that repeated calls need not allocate.
func (b *Basis) rows(op string, dst *mat.Dense, idx []int, seen []bool) (*mat.Dense, error) {
	n, d := b.V.Dims()
	if dst == nil {
		dst = mat.NewDense(len(idx), d, nil)
	} else {
		reshape(dst, len(idx), d)
	}
	for i, j := range idx {
		if j < 0 || j >= n {
			clearSeen(seen, idx[:i])
			return nil, linalg.Errorf(linalg.ErrLabels, op, "labeled index %d outside [0,%d)", j, n)
		}
		if seen[j] {
			clearSeen(seen, idx[:i])
			return nil, linalg.Errorf(linalg.ErrLabels, op, "labeled index %d repeated", j)
		}
		seen[j] = true
		dst.SetRow(i, b.V.RawRowView(j))
	}
	clearSeen(seen, idx)
	return dst, nil
}

func clearSeen(seen []bool, idx []int) {
	for _, j := range idx {
		seen[j] = false
	}
}

// reshape makes dst r x c, reusing its storage when it is large enough (the
// labeled block grows by a few rows every active-learning round).
func reshape(dst *mat.Dense, r, c int) {
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return
	}
	if rr, cc := dst.Dims(); rr == r && cc == c {
		return
	}
	data := dst.RawMatrix().Data
	if cap(data) >= r*c {
		dst.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: c, Data: data[:r*c]})
		return
	}
	dst.Reset()
	dst.ReuseAs(r, c)
}

// Target returns the factor Y (l x r) of the target kernel T = YYᵀ for class
// labels y in 0..classes-1. With two classes Y is the column y in {-1,+1}
// (class 0 -> -1). With c > 2 classes, Y = sqrt(c/(c-1)) Z (I - 11ᵀ/c) for the
// l x c indicator matrix Z, so that T_ij = 1 for equal classes and -1/(c-1)
// otherwise. Every class must occur at least once; fewer than two classes, a
// label out of range or a class without a label is an error wrapping
// linalg.ErrLabels, no labels linalg.ErrEmpty.
func Target(y []int, classes int) (*mat.Dense, error) {
	const op = "spectral.Target"
	if classes < 2 {
		return nil, linalg.Errorf(linalg.ErrLabels, op, "%d classes, want at least 2", classes)
	}
	if len(y) == 0 {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "no labels")
	}
	if classes > len(y) {
		// checked before allocating the counts: every class needs a label
		return nil, linalg.Errorf(linalg.ErrLabels, op, "%d classes but only %d labels (every class needs one)", classes, len(y))
	}
	count := make([]int, classes)
	for i, c := range y {
		if c < 0 || c >= classes {
			return nil, linalg.Errorf(linalg.ErrLabels, op, "label %d of point %d outside [0,%d)", c, i, classes)
		}
		count[c]++
	}
	for c, k := range count {
		if k == 0 {
			return nil, linalg.Errorf(linalg.ErrLabels, op, "class %d has no labeled point", c)
		}
	}
	if classes == 2 {
		t := mat.NewDense(len(y), 1, nil)
		for i, c := range y {
			t.Set(i, 0, float64(2*c-1))
		}
		return t, nil
	}
	cf := float64(classes)
	s := math.Sqrt(cf / (cf - 1))
	t := mat.NewDense(len(y), classes, nil)
	for i, c := range y {
		for j := 0; j < classes; j++ {
			v := -1 / cf
			if j == c {
				v += 1
			}
			t.Set(i, j, s*v)
		}
	}
	return t, nil
}
