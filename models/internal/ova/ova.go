// Package ova holds what the binary and one-versus-all classifiers of
// models/klr and models/svm have in common: the label checks, the shape check
// of a training kernel block, the one-versus-all fitting loop and the class
// prediction from decision values.
//
// Every function that can fail takes the caller's sentinel errors and wraps
// them, so the errors keep wrapping klr's or svm's own values (errors.Is works
// as before) and keep their package prefix.
package ova

import (
	"fmt"
	"reflect"

	"gonum.org/v1/gonum/mat"
)

// CheckBinary checks that every entry of y is −1 or +1 and that both occur;
// a failure wraps errLabels.
func CheckBinary(y []float64, errLabels error) error {
	var pos, neg int
	for i, v := range y {
		switch v {
		case 1:
			pos++
		case -1:
			neg++
		default:
			return fmt.Errorf("%w: label %d is %v, want -1 or +1", errLabels, i, v)
		}
	}
	if pos == 0 || neg == 0 {
		return fmt.Errorf("%w: both classes -1 and +1 are needed (got %d positive, %d negative)", errLabels, pos, neg)
	}
	return nil
}

// CheckLabels checks multi-class labels: classes >= 2, every label in
// 0..classes-1 and every class present; a failure wraps errLabels. It does
// not allocate for up to 16 classes.
func CheckLabels(labels []int, classes int, errLabels error) error {
	if classes < 2 {
		return fmt.Errorf("%w: need at least 2 classes, got %d", errLabels, classes)
	}
	if classes > len(labels) {
		// Checked before the counts are allocated: a huge class count is an
		// error, not an out-of-memory crash.
		return fmt.Errorf("%w: %d classes but only %d labels (every class needs one)", errLabels, classes, len(labels))
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
			return fmt.Errorf("%w: label %d is %d, want 0..%d", errLabels, i, c, classes-1)
		}
		count[c]++
	}
	for c, n := range count {
		if n == 0 {
			return fmt.Errorf("%w: class %d has no labeled example", errLabels, c)
		}
	}
	return nil
}

// CheckKernel checks that the training kernel block k is a non-nil,
// non-empty square matrix with one row per label (l labels); a failure wraps
// errShape. Its entries are the caller's to check.
func CheckKernel(k mat.Matrix, l int, errShape error) error {
	if IsNil(k) {
		return fmt.Errorf("%w: nil kernel block", errShape)
	}
	r, c := k.Dims()
	if r != c {
		return fmt.Errorf("%w: kernel block is %d x %d, want square", errShape, r, c)
	}
	if r == 0 {
		return fmt.Errorf("%w: empty kernel block", errShape)
	}
	if r != l {
		return fmt.Errorf("%w: kernel block is %d x %d but there are %d labels", errShape, r, c, l)
	}
	return nil
}

// IsNil reports whether m is nil or an interface holding a nil pointer (a
// nil *mat.Dense, say), whose Dims method would panic.
func IsNil(m mat.Matrix) bool {
	if m == nil {
		return true
	}
	v := reflect.ValueOf(m)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// CheckModels checks that a one-versus-all model of the given number of
// classes holds the Problems(classes) binary models it needs (a Multi built
// by hand, or one whose Classes was changed, may not); a failure wraps
// errShape.
func CheckModels(classes, models int, errShape error) error {
	if models == 0 {
		return fmt.Errorf("%w: model is not trained", errShape)
	}
	if classes < 2 || models != Problems(classes) {
		return fmt.Errorf("%w: model has %d binary models for %d classes, want %d", errShape, models, classes, Problems(max(classes, 2)))
	}
	return nil
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
// An error for which soft reports true (an iteration limit, say: the model
// is usable) does not stop the loop, and the first one is returned once all
// problems are fitted; any other error is returned at once. Errors are
// wrapped as "<pkg>: class <pos> versus rest: <err>".
func Fit[M any](pkg string, models *[]M, labels []int, classes int, y []float64, fit func(m *M, y []float64) error, soft func(error) bool) error {
	nm := Problems(classes)
	if cap(*models) < nm {
		*models = make([]M, nm)
	}
	*models = (*models)[:nm]
	var first error
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
			err = fmt.Errorf("%s: class %d versus rest: %w", pkg, pos, err)
			if !soft(err) {
				return err
			}
			if first == nil {
				first = err
			}
		}
	}
	return first
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
