package labelaware

import (
	"context"
	"math"
	"testing"

	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"

	"ukm/models/spectral"
)

// FuzzAlignf runs Alignf and BlockAlignment on base vectors from the bytes
// (points on a grid of 1/4, so constant, zero and duplicate columns are
// common, each column scaled by a power of two from 2^-20 to 2^20, and now
// and then by 2^±600; the target as spectral.Target, the raw class
// indicator or a ±1 column; now and then a NaN or Inf) and checks
// independently: bad input, a constant target and all-constant base
// vectors are errors of the vocabulary and never panics; otherwise the
// weights are finite, non-negative and of unit 2-norm, proportional to V;
// Alignment is the centred alignment of sum_i w_i b_i b_iᵀ with YYᵀ
// recomputed from dense matrices (so within [-1, 1]), as BlockAlignment
// also reports it; no single non-constant base kernel, not the uniform mix
// and not byte-drawn non-negative weights give a clearly higher alignment
// (the documented optimality); and the QP data A and M are
// <HK_iH, YYᵀ> and <HK_iH, HK_jH> recomputed. BlockAlignment with
// byte-drawn weights of either sign must lie in [-1, 1] and agree with the
// dense reference, to rounding, whenever the centred kernel is clearly
// non-zero.
func FuzzAlignf(f *testing.F) {
	f.Add([]byte{10, 3, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{18, 6, 1, 1, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{3, 1, 0, 2, 64, 64, 64, 20, 20})
	f.Add([]byte{14, 4, 2, 0, 129, 127, 130, 126, 1, 255, 33})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		l := 2 + int(data[0])%20
		r := 1 + int(data[1])%7
		classes := 2 + int(data[2])%3
		mode := data[3]
		bs := robust.NewBytes(data[4:])
		next := bs.Next
		base := bs.Grid(l, r)
		extreme := false
		for j := 0; j < r; j++ {
			e := int(next())%41 - 20
			switch next() {
			case 255:
				e, extreme = 600, true
			case 254:
				e, extreme = -600, true
			}
			for i := 0; i < l; i++ {
				base.Set(i, j, math.Ldexp(base.At(i, j), e))
			}
		}
		y := make([]int, l)
		for i := range y {
			y[i] = int(next()) % classes
		}
		var target *mat.Dense
		switch mode % 3 {
		case 0:
			var err error
			if target, err = spectral.Target(y, classes); err != nil {
				target = indicator(y, classes)
			}
		case 1:
			target = indicator(y, classes)
		default:
			target = mat.NewDense(l, 1, nil)
			for i, c := range y {
				target.Set(i, 0, float64(2*min(c, 1)-1))
			}
		}
		finiteIn := true
		switch next() {
		case 255:
			base.Set(int(next())%l, int(next())%r, math.NaN())
			finiteIn = false
		case 254:
			base.Set(int(next())%l, int(next())%r, math.Inf(-1))
			finiteIn = false
		case 253:
			target.Set(int(next())%l, 0, math.NaN())
			finiteIn = false
		}
		ctx := context.Background()
		res, err := Alignf(ctx, base, target)
		if err != nil {
			inVocabulary(t, "Alignf", err)
		} else {
			if !finiteIn {
				t.Fatal("Alignf accepted a NaN or Inf")
			}
			if constantRows(target) {
				t.Fatal("Alignf accepted a constant target")
			}
			checkAlignf(t, res, base, target, extreme, next)
		}
		if !finiteIn {
			return
		}
		w := make([]float64, r)
		neg := next()%4 == 0
		for i := range w {
			w[i] = float64(next() % 5)
			if neg && next()%2 == 0 {
				w[i] = -w[i]
			}
		}
		a, err := BlockAlignment(base, target, w)
		if err != nil {
			inVocabulary(t, "BlockAlignment", err)
			return
		}
		if !isFinite(a) || math.Abs(a) > 1+1e-9 {
			ref, kcn, tr := refAlignment(base, w, target)
			t.Fatalf("BlockAlignment %v with weights %v (dense %v, kcn %v, scale %v)", a, w, ref, kcn, tr)
		}
		if extreme {
			return
		}
		ref, kcn, tr := refAlignment(base, w, target)
		if kcn > 1e6*fuzzEps*float64(l)*tr {
			tol := 1e-10 + 1e3*fuzzEps*float64(l)*tr/kcn
			if neg {
				// ||HKH||² is summed from r² products of base-kernel
				// inner products, each up to tr²: with weights of both
				// signs they cancel, and its relative rounding grows as
				// eps r² (tr/||HKH||)², the square of the dense one.
				q := tr / kcn
				tol += 1e2 * fuzzEps * float64(r*r) * q * q
			}
			if math.Abs(a-ref) > tol {
				t.Fatalf("BlockAlignment %v with weights %v, dense reference %v (tolerance %.3g)", a, w, ref, tol)
			}
		}
	})
}

// checkAlignf checks a successful Alignf result (see FuzzAlignf).
func checkAlignf(t *testing.T, res *AlignfResult, base, target *mat.Dense, extreme bool, next func() byte) {
	t.Helper()
	l, r := base.Dims()
	if len(res.Weights) != r || len(res.V) != r || len(res.A) != r {
		t.Fatalf("%d weights, %d V, %d A for %d base vectors", len(res.Weights), len(res.V), len(res.A), r)
	}
	var wn, vn float64
	for i, w := range res.Weights {
		if !isFinite(w) || w < 0 || !isFinite(res.V[i]) || res.V[i] < 0 {
			t.Fatalf("weight %d = %v, V_%d = %v", i, w, i, res.V[i])
		}
		wn += w * w
		vn += res.V[i] * res.V[i]
	}
	if math.Abs(math.Sqrt(wn)-1) > 1e-12 {
		t.Fatalf("weights %v have 2-norm %v, want 1", res.Weights, math.Sqrt(wn))
	}
	if vn = math.Sqrt(vn); isFinite(vn) && vn > 0 {
		for i, v := range res.V {
			if math.Abs(v/vn-res.Weights[i]) > 1e-12 {
				t.Fatalf("weights %v are not V/||V|| for V = %v", res.Weights, res.V)
			}
		}
	}
	if !isFinite(res.Alignment) || math.Abs(res.Alignment) > 1+1e-12 {
		t.Fatalf("alignment %v", res.Alignment)
	}
	if extreme {
		return // beyond the range of the dense reference
	}
	ref, kcn, tr := refAlignment(base, res.Weights, target)
	if kcn <= 1e3*fuzzEps*float64(l)*tr {
		return // the centred kernel is below the dense reference's rounding
	}
	tol := 1e-10 + 1e3*fuzzEps*float64(l)*tr/kcn
	if math.Abs(ref-res.Alignment) > tol {
		t.Fatalf("alignment %v reported, %v measured (tolerance %.3g)", res.Alignment, ref, tol)
	}
	ba, err := BlockAlignment(base, target, res.Weights)
	if err != nil || math.Abs(ba-ref) > tol {
		t.Fatalf("BlockAlignment of the alignf weights %v (%v), measured %v", ba, err, ref)
	}
	// Optimality against cheap feasible weights.
	cand := [][]float64{}
	uni := make([]float64, r)
	for j := 0; j < r; j++ {
		col := mat.Col(nil, j, base)
		if cent, raw := centredNorm(col); cent > 1e-8*raw {
			e := make([]float64, r)
			e[j] = 1 / raw / raw
			cand = append(cand, e)
			uni[j] = e[j]
		}
	}
	cand = append(cand, uni)
	for range 3 {
		w := make([]float64, r)
		for j := range w {
			w[j] = uni[j] * float64(next()%4)
		}
		cand = append(cand, w)
	}
	for _, w := range cand {
		a, kcn, tr := refAlignment(base, w, target)
		if kcn == 0 {
			continue
		}
		if a > ref+1e-7+1e3*fuzzEps*float64(l)*tr/kcn+tol {
			t.Fatalf("weights %v reach alignment %v, above alignf's %v (weights %v)", w, a, ref, res.Weights)
		}
	}
	// QP data.
	cols := make([][]float64, r)
	raws := make([]float64, r)
	for j := range cols {
		cols[j] = mat.Col(nil, j, base)
		_, raws[j] = centredNorm(cols[j])
		centre(cols[j])
	}
	yn := mat.Norm(target, 2)
	_, tcols := target.Dims()
	for i := 0; i < r; i++ {
		var a float64
		for c := 0; c < tcols; c++ {
			var s float64
			for q := 0; q < l; q++ {
				s += target.At(q, c) * cols[i][q]
			}
			a += s * s
		}
		if d := math.Abs(res.A[i] - a); d > 1e-9*yn*yn*raws[i]*raws[i] {
			t.Fatalf("A_%d = %v, measured %v", i, res.A[i], a)
		}
		for j := 0; j < r; j++ {
			var s float64
			for q := 0; q < l; q++ {
				s += cols[i][q] * cols[j][q]
			}
			if d := math.Abs(res.M.At(i, j) - s*s); d > 1e-9*raws[i]*raws[i]*raws[j]*raws[j] {
				t.Fatalf("M_%d%d = %v, measured %v", i, j, res.M.At(i, j), s*s)
			}
		}
	}
}
