package linalg

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var (
	sinkCSR   *CSR
	sinkFloat float64
	sinkVec   []float64
)

func BenchmarkKNNGraph(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		for _, m := range []struct {
			name   string
			method KNNMethod
		}{{"auto", KNNAuto}, {"brute", KNNBrute}} {
			if m.method == KNNBrute && n > 10000 {
				continue // O(n^2): minutes at n = 100000
			}
			b.Run(fmt.Sprintf("n=%d/k=10/method=%s", n, m.name), func(b *testing.B) {
				x := randNormal(1, n, 10)
				opt := &GraphOptions{Method: m.method}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					w, err := KNNGraph(context.Background(), x, 10, opt)
					if err != nil {
						b.Fatal(err)
					}
					sinkCSR = w
				}
			})
		}
	}
}

func BenchmarkCSRMulVec(b *testing.B) {
	// A random 10-regular directed relation symmetrised like a kNN graph:
	// the same size and density as KNNGraph(n, 10) without its set-up cost,
	// but with random (cache-unfriendly) column indices.
	n, k := 100000, 10
	rng := rand.New(rand.NewPCG(1, 2))
	idx := make([]int, n*k)
	d2 := make([]float64, n*k)
	for i := 0; i < n; i++ {
		for a := 0; a < k; a++ {
			j := rng.IntN(n - 1)
			if j >= i {
				j++
			}
			idx[i*k+a], d2[i*k+a] = j, rng.Float64()
		}
	}
	w := assembleGraph(n, fixedPtr(n, k), idx, d2, weightRule{kind: Heat, t: 1}, false)
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i%7) - 3
	}
	dst := make([]float64, n)
	b.Run(fmt.Sprintf("n=%d/k=10", n), func(b *testing.B) {
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			w.MulVecTo(dst, v)
		}
		sinkVec = dst
	})
}

var sinkSym *mat.SymDense

func BenchmarkGram(b *testing.B) {
	kernels := []struct {
		name string
		k    Kernel
	}{{"linear", Linear{}}, {"rbf", RBF{Gamma: 0.1}}}
	for _, kk := range kernels {
		for _, n := range []int{500, 1000, 2000, 4000} {
			b.Run(fmt.Sprintf("kernel=%s/n=%d", kk.name, n), func(b *testing.B) {
				x := randNormal(1, n, 10)
				dst := mat.NewSymDense(n, nil)
				ctx := context.Background()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := GramTo(ctx, dst, kk.k, x); err != nil {
						b.Fatal(err)
					}
				}
				sinkSym = dst
			})
		}
	}
}
