package metric

import (
	"context"
	"errors"
	"math"
	"testing"

	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// FuzzMetric learns DCA, RCA and Kernel DCA (RBF kernel, and the Gram
// matrix given) from small data and constraints built from the bytes:
// duplicate points, constant columns, pairs from a hidden labeling with a
// self-pair, a contradiction or an index out of range now and then, a
// ridge or none. An error must be of the
// vocabulary; a metric must be finite, its Mahalanobis matrix positive
// semidefinite, its distances finite and non-negative, symmetric and zero
// from a point to itself, and its transform of the data finite.
func FuzzMetric(f *testing.F) {
	f.Add([]byte{20, 3, 6, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{30, 5, 10, 10, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{8, 1, 2, 1, 64, 64, 64})
	f.Add([]byte{25, 2, 0, 6, 129, 127, 130, 126, 1})
	f.Fuzz(func(t *testing.T, data []byte) { metricContract(t, data) })
}

// metricContract is FuzzMetric's check of one input.
func metricContract(t *testing.T, data []byte) {
	if len(data) < 5 {
		return
	}
	n := 2 + int(data[0])%30
	p := 1 + int(data[1])%6
	ns := 1 + int(data[2])%12
	nd := 1 + int(data[3])%12
	if data[2] >= 240 {
		ns = 0 // no similar pairs, now and then
	}
	bs := robust.NewBytes(data[4:])
	next := bs.Next
	x := bs.Grid(n, p)
	// Pairs from a hidden labeling, so that most constraint sets are
	// consistent; a self-pair, a contradiction or an index out of range
	// now and then.
	cls := make([]int, n)
	for i := range cls {
		cls[i] = int(next()) % 3
	}
	pair := func(same bool) Pair {
		i, j := int(next())%n, int(next())%n
		for step := 0; step < n && (i == j || (cls[i] == cls[j]) != same); step++ {
			j = (j + 1) % n
		}
		switch next() {
		case 254:
			j = i
		case 255:
			j = n
		}
		return Pair{i, j}
	}
	var c Constraints
	for range ns {
		c.Similar = append(c.Similar, pair(next()%32 != 0))
	}
	for range nd {
		c.Dissimilar = append(c.Dissimilar, pair(next()%32 == 0))
	}
	set := &Settings{}
	if next()%2 == 1 {
		set.Ridge = float64(1+next()%4) / 1000
	}
	ctx := context.Background()
	vocabulary := func(what string, err error) {
		if !errors.Is(err, linalg.ErrInvalid) && !linalg.IsOutcome(err) {
			t.Fatalf("%s: an error of no kind of the vocabulary: %v", what, err)
		}
	}
	for name, learn := range map[string]func() (*Metric, error){
		"DCA": func() (*Metric, error) { return DCA(ctx, x, c, set) },
		"RCA": func() (*Metric, error) { return RCA(ctx, x, c, set) },
	} {
		m, err := learn()
		if err != nil {
			vocabulary(name, err)
			continue
		}
		checkMetric(t, name, m, x)
	}
	var g mat.SymDense
	g.SymOuterK(1, x)
	for name, learn := range map[string]func() (*KernelMetric, error){
		"KernelDCA": func() (*KernelMetric, error) {
			return KernelDCA(ctx, linalg.RBF{Gamma: 0.5}, x, c, set)
		},
		"KernelDCAMatrix": func() (*KernelMetric, error) { return KernelDCAMatrix(ctx, &g, c, set) },
	} {
		m, err := learn()
		if err != nil {
			vocabulary(name, err)
			continue
		}
		if name == "KernelDCA" {
			z, err := m.Transform(ctx, x)
			if err != nil {
				t.Fatalf("%s: Transform of the training points: %v", name, err)
			}
			if !finiteDense(z) {
				t.Fatalf("%s: Transform gave a non-finite entry", name)
			}
		}
	}
}

func finiteDense(a *mat.Dense) bool {
	r, c := a.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}

func checkMetric(t *testing.T, name string, m *Metric, x *mat.Dense) {
	t.Helper()
	mh := m.Mahalanobis()
	var es mat.EigenSym
	if !es.Factorize(mh, false) {
		t.Fatalf("%s: Mahalanobis matrix not decomposable", name)
	}
	vals := es.Values(nil)
	top := math.Max(math.Abs(vals[0]), math.Abs(vals[len(vals)-1]))
	if math.IsNaN(top) || math.IsInf(top, 0) || vals[0] < -1e-10*math.Max(1, top) {
		t.Fatalf("%s: Mahalanobis eigenvalues %v", name, vals)
	}
	z, err := m.Transform(x)
	if err != nil {
		t.Fatalf("%s: Transform: %v", name, err)
	}
	if !finiteDense(z) {
		t.Fatalf("%s: Transform gave a non-finite entry", name)
	}
	n, _ := x.Dims()
	for i := 0; i < min(n, 5); i++ {
		a := x.RawRowView(i)
		b := x.RawRowView(n - 1 - i)
		dab, err1 := m.Distance(a, b)
		dba, err2 := m.Distance(b, a)
		daa, err3 := m.Distance(a, a)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("%s: Distance: %v %v %v", name, err1, err2, err3)
		}
		if !(dab >= 0) || math.IsInf(dab, 0) || math.Abs(dab-dba) > 1e-12*math.Max(1, dab) || daa != 0 {
			t.Fatalf("%s: d(a,b) = %v, d(b,a) = %v, d(a,a) = %v", name, dab, dba, daa)
		}
	}
}
