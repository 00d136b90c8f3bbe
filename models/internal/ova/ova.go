// Package ova holds what the binary and one-versus-all classifiers of
// models/klr and models/svm (and the max-margin learner of models/mm, which
// trains SVMs) have in common: the resolution of their Settings, the label
// checks, the shape check of a training kernel block, the one-versus-all
// fitting loop and the class prediction from decision values.
//
// Every check that can fail takes the caller's operation name (for example
// "klr.Fitter.FitKernel") and returns a *linalg.Error of one of linalg's
// kinds, so errors keep naming the exported function the caller called.
package ova

import (
	"reflect"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Resolve returns *s (the zero value when s is nil) with its numeric fields
// checked and the zero ones replaced by the same fields of defaults, the rule
// of every Settings type of these packages: a zero field means its
// documented default. S must be a struct type. Every exported float64 field
// must be finite and >= 0 (linalg.CheckTol) and every exported int field
// >= 0 (linalg.CheckCount); an error of kind linalg.ErrSettings names op and
// the field. Other fields are kept as they are; further range checks (an
// upper bound, a value that must be positive) are the caller's.
func Resolve[S any](op string, s *S, defaults S) (S, error) {
	var r S
	if s != nil {
		r = *s
	}
	v, d := reflect.ValueOf(&r).Elem(), reflect.ValueOf(&defaults).Elem()
	// The field's name is looked up only to report an error: building the
	// reflect.StructField costs more than the checks themselves.
	name := func(i int) string { return v.Type().Field(i).Name }
	for i := range v.NumField() {
		f := v.Field(i)
		if !f.CanSet() {
			continue
		}
		switch f.Kind() {
		case reflect.Float64:
			if x := f.Float(); linalg.CheckTol(op, "", x) != nil {
				return r, linalg.CheckTol(op, name(i), x)
			} else if x == 0 {
				f.SetFloat(d.Field(i).Float())
			}
		case reflect.Int:
			if x := int(f.Int()); linalg.CheckCount(op, "", x) != nil {
				return r, linalg.CheckCount(op, name(i), x)
			} else if x == 0 {
				f.SetInt(d.Field(i).Int())
			}
		}
	}
	return r, nil
}

// CheckBinary checks that y is not empty, that every entry is −1 or +1 and
// that both occur; a failure is of kind linalg.ErrLabels (linalg.ErrEmpty
// for no labels).
func CheckBinary(op string, y []float64) error {
	if len(y) == 0 {
		return linalg.Errorf(linalg.ErrEmpty, op, "no labels")
	}
	var pos, neg int
	for i, v := range y {
		switch v {
		case 1:
			pos++
		case -1:
			neg++
		default:
			return linalg.Errorf(linalg.ErrLabels, op, "label %d is %v, want -1 or +1", i, v)
		}
	}
	if pos == 0 || neg == 0 {
		return linalg.Errorf(linalg.ErrLabels, op, "both classes -1 and +1 are needed (got %d positive, %d negative)", pos, neg)
	}
	return nil
}

// CheckLabels checks multi-class labels: classes >= 2, every label in
// 0..classes-1 and every class present; a failure is of kind
// linalg.ErrLabels. It does not allocate for up to 16 classes.
func CheckLabels(op string, labels []int, classes int) error {
	if classes < 2 {
		return linalg.Errorf(linalg.ErrLabels, op, "need at least 2 classes, got %d", classes)
	}
	if classes > len(labels) {
		// Checked before the counts are allocated: a huge class count is an
		// error, not an out-of-memory crash.
		return linalg.Errorf(linalg.ErrLabels, op, "%d classes but only %d labels (every class needs one)", classes, len(labels))
	}
	var buf [16]int
	var count []int
	if classes <= len(buf) {
		count = buf[:classes]
	} else {
		count = make([]int, classes)
	}
	for i, c := range labels {
		if c < 0 || c >= classes {
			return linalg.Errorf(linalg.ErrLabels, op, "label %d is %d, want 0..%d", i, c, classes-1)
		}
		count[c]++
	}
	for c, n := range count {
		if n == 0 {
			return linalg.Errorf(linalg.ErrLabels, op, "class %d has no labeled example", c)
		}
	}
	return nil
}

// CheckKernel checks that the training kernel block k is a non-nil,
// non-empty (linalg.ErrEmpty) square matrix with one row per label, l labels
// (linalg.ErrShape). Its entries are the caller's to check.
func CheckKernel(op string, k mat.Matrix, l int) error {
	if IsNil(k) {
		return linalg.Errorf(linalg.ErrEmpty, op, "nil kernel block")
	}
	r, c := k.Dims()
	if r == 0 || c == 0 {
		return linalg.Errorf(linalg.ErrEmpty, op, "empty kernel block")
	}
	if r != c {
		return linalg.Errorf(linalg.ErrShape, op, "kernel block is %d x %d, want square", r, c)
	}
	if r != l {
		return linalg.Errorf(linalg.ErrShape, op, "kernel block is %d x %d but there are %d labels", r, c, l)
	}
	return nil
}

// IsNil reports whether m is nil or an interface holding a nil pointer (a
// nil *mat.Dense, say), whose Dims method would panic (linalg.IsNil).
func IsNil(m mat.Matrix) bool { return linalg.IsNil(m) }

// CheckModels checks that a one-versus-all model of the given number of
// classes holds the Problems(classes) binary models it needs (a Multi built
// by hand, or one whose Classes was changed, may not). A model without any
// binary model is of kind linalg.ErrEmpty (not trained), a mismatch of kind
// linalg.ErrShape.
func CheckModels(op string, classes, models int) error {
	if models == 0 {
		return linalg.Errorf(linalg.ErrEmpty, op, "model is not trained")
	}
	if classes < 2 || models != Problems(classes) {
		return linalg.Errorf(linalg.ErrShape, op, "model has %d binary models for %d classes, want %d", models, classes, Problems(max(classes, 2)))
	}
	return nil
}

// CheckPredict checks a prediction call of a one-versus-all model holding
// the given number of binary models for its classes (see CheckModels; a nil
// model holds none) on the rows of x, and returns the number of rows of x.
// A nil x or one without rows is of kind linalg.ErrEmpty.
func CheckPredict(op string, classes, models int, x mat.Matrix) (int, error) {
	if err := CheckModels(op, classes, models); err != nil {
		return 0, err
	}
	if IsNil(x) {
		return 0, linalg.Errorf(linalg.ErrEmpty, op, "nil input matrix")
	}
	r, _ := x.Dims()
	if r == 0 {
		return 0, linalg.Errorf(linalg.ErrEmpty, op, "input has no rows")
	}
	return r, nil
}

// Dst returns dst, or a new r x c matrix when dst is nil; a dst of another
// shape is an error of kind linalg.ErrShape.
func Dst(op string, dst *mat.Dense, r, c int) (*mat.Dense, error) {
	if dst == nil {
		return mat.NewDense(r, c, nil), nil
	}
	if dr, dc := dst.Dims(); dr != r || dc != c {
		return dst, linalg.Errorf(linalg.ErrShape, op, "dst is %d x %d, want %d x %d", dr, dc, r, c)
	}
	return dst, nil
}

// Decision returns the rows x len(models) matrix whose column c holds the
// decision values decide(&models[c], col, x) of the rows of x, written into
// dst when it has that shape (see Dst), for a one-versus-all model of the
// given classes (see CheckPredict). decide is the binary model's Decision
// method; its errors are returned as they are.
func Decision[M any](op string, dst *mat.Dense, classes int, models []M, x mat.Matrix, decide func(m *M, dst []float64, x mat.Matrix) ([]float64, error)) (*mat.Dense, error) {
	r, err := CheckPredict(op, classes, len(models), x)
	if err != nil {
		return dst, err
	}
	if dst, err = Dst(op, dst, r, len(models)); err != nil {
		return dst, err
	}
	col := make([]float64, r)
	raw := dst.RawMatrix()
	for c := range models {
		if col, err = decide(&models[c], col, x); err != nil {
			return dst, err
		}
		blas64.Copy(blas64.Vector{N: r, Inc: 1, Data: col}, blas64.Vector{N: r, Inc: raw.Stride, Data: raw.Data[c:]})
	}
	return dst, nil
}

// Problems returns the number of binary problems of a one-versus-all model of
// the given number of classes: one (class 1 against class 0) for two classes,
// otherwise one per class.
func Problems(classes int) int {
	if classes == 2 {
		return 1
	}
	return classes
}

// Fit fits the binary problems of a one-versus-all model on labels in
// 0..classes-1 (checked by CheckLabels). *models is resized, reusing its
// storage, to Problems(classes) entries; problem c separates its positive
// class (c, or 1 for two classes) from the rest, with the ±1 targets written
// into y (len(y) == len(labels)) before fit(&(*models)[c], y) is called.
//
// The first error (invalid input found while fitting, or a cancelled
// context) stops the loop and is returned as it is: the binary problems
// share their input, so the class adds nothing to it. A binary fit that stops
// early without an error (its status says so) does not stop the others.
func Fit[M any](models *[]M, labels []int, classes int, y []float64, fit func(m *M, y []float64) error) error {
	nm := Problems(classes)
	if cap(*models) < nm {
		*models = make([]M, nm)
	}
	*models = (*models)[:nm]
	for c := range nm {
		pos := c
		if classes == 2 {
			pos = 1
		}
		for i, lab := range labels {
			y[i] = -1
			if lab == pos {
				y[i] = 1
			}
		}
		if err := fit(&(*models)[c], y); err != nil {
			return err
		}
	}
	return nil
}

// Classify writes into dst (grown if too short) the class of each row of the
// decision values dec and returns it. With binary set (a two-class model,
// one column) the class is 1 where positive(f) holds and 0 elsewhere;
// otherwise it is the column of the largest value, ties going to the lower
// index.
func Classify(dst []int, dec *mat.Dense, binary bool, positive func(f float64) bool) []int {
	r, _ := dec.Dims()
	if cap(dst) < r {
		dst = make([]int, r)
	}
	dst = dst[:r]
	for i := 0; i < r; i++ {
		row := dec.RawRowView(i)
		if binary {
			dst[i] = 0
			if positive(row[0]) {
				dst[i] = 1
			}
			continue
		}
		best := 0
		for c, v := range row {
			if v > row[best] {
				best = c
			}
		}
		dst[i] = best
	}
	return dst
}
