package dataset

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"ukm/linalg"
)

// DefaultMissing lists the label values that mark an unlabeled row when
// TableOptions.Missing is nil. An empty label field always marks one.
var DefaultMissing = []string{"?", "NA", "N/A", "NaN", "nan"}

// labeler turns label fields into labels: it trims them, maps the missing
// markers to "", writes numbers in one canonical form (unless raw), and
// interns the results, so that a million rows of two classes hold two
// strings.
type labeler struct {
	missing map[string]bool
	raw     bool
	seen    map[string]string // field as written -> label
}

func newLabeler(opt *TableOptions) *labeler {
	markers := opt.Missing
	if markers == nil {
		markers = DefaultMissing
	}
	l := &labeler{missing: map[string]bool{"": true}, raw: opt.RawLabels, seen: map[string]string{}}
	for _, m := range markers {
		l.missing[m] = true
	}
	return l
}

// label returns the label of a field and whether the row is labeled.
func (l *labeler) label(field string) (string, bool) {
	if s, ok := l.seen[field]; ok {
		return s, s != ""
	}
	s := strings.TrimSpace(field)
	switch {
	case l.missing[s]:
		s = ""
	case !l.raw:
		s = canonLabel(s)
	}
	s = strings.Clone(s)
	if len(l.seen) < 1<<16 { // labels that are all distinct are not kept twice
		l.seen[strings.Clone(field)] = s
	}
	return s, s != ""
}

// canonLabel writes a finite number in one form, so that "+1", "1", "1.0"
// and "1e0" are one class "1": integers below 2^53 in magnitude in decimal
// without sign or point, other numbers in the shortest form that reads back
// to the same float64 ('g' format). Other text is returned as it is.
func canonLabel(s string) string {
	if plainInt(s) {
		return s
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return s
	}
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// plainInt reports whether s is already a canonical integer: "0", or an
// optional minus and at most 15 digits without a leading zero.
func plainInt(s string) bool {
	t := strings.TrimPrefix(s, "-")
	if t == "" || len(t) > 15 || (t[0] == '0' && (len(t) > 1 || s != t)) {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// number parses a finite label; ok is false for text, NaN and infinities.
func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// Index maps raw labels to class indices: classes holds every distinct
// label once, and y[i] is the index in classes of labels[i]. Classes are
// sorted numerically when every label is a finite number (ties, such as
// "1" and "1.0", by their text), lexicographically otherwise. The empty
// string is a label like any other here; Table.Index leaves unlabeled rows
// out. The readers write numeric labels in one canonical form, so "+1" and
// "1" from a file are one class. Cost: O(n log c) for n labels of c classes.
func Index(labels []string) (classes []string, y []int) {
	pos := map[string]int{}
	for _, l := range labels {
		if _, ok := pos[l]; !ok {
			pos[l] = 0
			classes = append(classes, l)
		}
	}
	numeric := true
	vals := make(map[string]float64, len(classes))
	for _, c := range classes {
		v, ok := number(c)
		if !ok {
			numeric = false
			break
		}
		vals[c] = v
	}
	slices.SortFunc(classes, func(a, b string) int {
		if numeric {
			if c := cmp.Compare(vals[a], vals[b]); c != 0 {
				return c
			}
		}
		return strings.Compare(a, b)
	})
	for i, c := range classes {
		pos[c] = i
	}
	y = make([]int, len(labels))
	for i, l := range labels {
		y[i] = pos[l]
	}
	return classes, y
}

// Encode maps labels to their indices in classes (as returned by Index):
// y[i] is the position of labels[i] in classes, or -1 for an empty label
// (an unlabeled row). A label that is not one of the classes is an error
// wrapping linalg.ErrLabels. Use it to encode new data with the classes of
// the training data. Cost: O(n + c).
func Encode(classes, labels []string) ([]int, error) {
	pos := make(map[string]int, len(classes))
	for i, c := range classes {
		pos[c] = i
	}
	y := make([]int, len(labels))
	for i, l := range labels {
		if l == "" {
			y[i] = -1
			continue
		}
		k, ok := pos[l]
		if !ok {
			return nil, linalg.Errorf(linalg.ErrLabels, "dataset.Encode", "label %q of row %d is not one of the %d classes", l, i, len(classes))
		}
		y[i] = k
	}
	return y, nil
}

// Decode maps class indices back to class names: labels[i] is
// classes[y[i]], or "" when y[i] is -1. An index outside -1..len(classes)-1
// is an error wrapping linalg.ErrLabels. Cost: O(n).
func Decode(classes []string, y []int) ([]string, error) {
	labels := make([]string, len(y))
	for i, c := range y {
		switch {
		case c == -1:
		case c < 0 || c >= len(classes):
			return nil, linalg.Errorf(linalg.ErrLabels, "dataset.Decode", "class index %d of row %d is outside 0..%d", c, i, len(classes)-1)
		default:
			labels[i] = classes[c]
		}
	}
	return labels, nil
}
