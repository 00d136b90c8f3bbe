package metric

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// featureSpace holds points with coordinates (rows of x).
type featureSpace struct {
	x       *mat.Dense
	centres *mat.Dense
}

func newFeatureSpace(x *mat.Dense) *featureSpace { return &featureSpace{x: x} }

func (f *featureSpace) size() int { n, _ := f.x.Dims(); return n }

func (f *featureSpace) dist(i, j int) float64 {
	a, b := f.x.RawRowView(i), f.x.RawRowView(j)
	var s float64
	for l, v := range a {
		d := v - b[l]
		s += d * d
	}
	return s
}

func (f *featureSpace) reset(k int) {
	_, p := f.x.Dims()
	f.centres = mat.NewDense(k, p, nil)
}

func (f *featureSpace) setPoint(c, i int) { copy(f.centres.RawRowView(c), f.x.RawRowView(i)) }

func (f *featureSpace) update(labels []int) {
	k, p := f.centres.Dims()
	sum := mat.NewDense(k, p, nil)
	count := make([]int, k)
	for i, c := range labels {
		count[c]++
		row := sum.RawRowView(c)
		for l, v := range f.x.RawRowView(i) {
			row[l] += v
		}
	}
	for c, m := range count {
		if m == 0 {
			continue
		}
		dst, src := f.centres.RawRowView(c), sum.RawRowView(c)
		for l := range dst {
			dst[l] = src[l] / float64(m)
		}
	}
}

func (f *featureSpace) costs(dst []float64) {
	n, _ := f.x.Dims()
	k, _ := f.centres.Dims()
	for i := 0; i < n; i++ {
		a := f.x.RawRowView(i)
		for c := 0; c < k; c++ {
			b := f.centres.RawRowView(c)
			var s float64
			for l, v := range a {
				d := v - b[l]
				s += d * d
			}
			dst[i*k+c] = s
		}
	}
}

// kernelSpace holds a kernel matrix; a centre is a weight vector w_c over
// the points, and ||φ(x_i) - Φ w_c||² = K_ii - 2 (K w_c)_i + w_cᵀ K w_c.
type kernelSpace struct {
	k    *mat.Dense
	diag []float64
	w    *mat.Dense // n x k
}

func newKernelSpace(op string, a mat.Symmetric) (*kernelSpace, error) {
	n := a.SymmetricDim()
	k := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		row := k.RawRowView(i)
		for j := range row {
			v := a.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, linalg.Errorf(linalg.ErrNonFinite, op, "k[%d][%d] = %v", i, j, v)
			}
			row[j] = v
		}
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = k.At(i, i)
	}
	return &kernelSpace{k: k, diag: d}, nil
}

func (s *kernelSpace) size() int { return len(s.diag) }

func (s *kernelSpace) dist(i, j int) float64 {
	return math.Max(s.diag[i]+s.diag[j]-2*s.k.At(i, j), 0)
}

func (s *kernelSpace) reset(k int) { s.w = mat.NewDense(len(s.diag), k, nil) }

func (s *kernelSpace) setPoint(c, i int) {
	for r := range s.diag {
		s.w.Set(r, c, 0)
	}
	s.w.Set(i, c, 1)
}

func (s *kernelSpace) update(labels []int) {
	_, k := s.w.Dims()
	count := make([]int, k)
	for _, c := range labels {
		count[c]++
	}
	for c, m := range count {
		if m == 0 {
			continue
		}
		for r := range s.diag {
			s.w.Set(r, c, 0)
		}
		for i, l := range labels {
			if l == c {
				s.w.Set(i, c, 1/float64(m))
			}
		}
	}
}

func (s *kernelSpace) costs(dst []float64) {
	n := len(s.diag)
	_, k := s.w.Dims()
	var kw mat.Dense
	kw.Mul(s.k, s.w)
	self := make([]float64, k)
	for c := 0; c < k; c++ {
		for i := 0; i < n; i++ {
			self[c] += s.w.At(i, c) * kw.At(i, c)
		}
	}
	for i := 0; i < n; i++ {
		row := kw.RawRowView(i)
		for c := 0; c < k; c++ {
			dst[i*k+c] = math.Max(s.diag[i]-2*row[c]+self[c], 0)
		}
	}
}
