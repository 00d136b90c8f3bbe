package mm

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/spectral"
)

// Design is the max-margin spectral kernel as a spectral.Design (Name "MM"),
// so that it can be used wherever SKL is. The labels of problem p are the
// signs of column p of the target: with two classes (spectral.Target gives
// one column) this is the binary MM of the paper; with c > 2 classes
// spectral.Target's column p is positive exactly for class p, so the c
// columns are the one-versus-all problems, and the Design learns one mu
// minimising the sum of their SVM dual optima (LearnSum).
//
// A Design keeps its Learner workspace between calls, so it is not safe for
// concurrent use (make one per goroutine).
type Design struct {
	// Settings of the underlying Learner. Trace is irrelevant to the
	// returned coefficients, which are rescaled to sum n, but not to the
	// learned kernel: with C fixed, scaling the kernel changes the SVM.
	Settings Settings

	lr  Learner
	res Result
	y   []float64   // P x l labels
	ys  [][]float64 // views into y
}

// NewDesign returns a Design with the given settings.
func NewDesign(s Settings) *Design { return &Design{Settings: s} }

// Name implements spectral.Design.
func (*Design) Name() string { return "MM" }

// Result returns the outcome of the last Coefficients call.
func (d *Design) Result() *Result { return &d.res }

// Coefficients implements spectral.Design: it runs LearnSum on the labeled
// rows with the labels sign(target[:, p]) and returns mu rescaled to sum n.
//
// A nil or empty target is an error of kind linalg.ErrEmpty, one without a
// row per labeled point of kind linalg.ErrShape, a zero or non-finite target
// entry or a column with one sign only of kind linalg.ErrLabels; the other
// errors are those of Learner.LearnSum. A run that stops early is not an
// error: the coefficients are those of its best point, and Result().Status
// says how it ended.
func (d *Design) Coefficients(ctx context.Context, dst []float64, b *spectral.Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	const op = "mm.Design.Coefficients"
	if d == nil {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "nil MM design")
	}
	if target == nil || target.IsEmpty() {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "nil or empty target")
	}
	r, c := target.Dims()
	if r != len(labeled) {
		return nil, linalg.Errorf(linalg.ErrShape, op, "target has %d rows for %d labeled points", r, len(labeled))
	}
	d.y = grow(d.y, r*c)
	d.ys = d.ys[:0]
	for p := 0; p < c; p++ {
		y := d.y[p*r : (p+1)*r]
		for i := range y {
			v := target.At(i, p)
			switch {
			case v > 0 && !math.IsInf(v, 0):
				y[i] = 1
			case v < 0 && !math.IsInf(v, 0):
				y[i] = -1
			default:
				return nil, linalg.Errorf(linalg.ErrLabels, op, "target entry (%d,%d) is %v, want a finite non-zero value", i, p, v)
			}
		}
		d.ys = append(d.ys, y)
	}
	d.lr.Settings = d.Settings
	if err := d.lr.learnSum(op, ctx, &d.res, b, labeled, d.ys); err != nil {
		return nil, err
	}
	n, _ := b.Dims()
	var sum float64
	for _, v := range d.res.Mu {
		sum += v
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "coefficients sum to %v", sum)
	}
	dst = grow(dst, len(d.res.Mu))
	f := float64(n) / sum
	for i, v := range d.res.Mu {
		dst[i] = v * f
	}
	return dst, nil
}

var _ spectral.Design = (*Design)(nil)
