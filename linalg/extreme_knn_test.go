package linalg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// extremeExps are the powers of two by which the extreme-magnitude tests
// multiply standard-normal data: the coordinates then reach about the
// magnitude in the name. 2^515 and 2^-515 are where squared distances
// leave the normal float64 range; 2^-1060 makes every entry subnormal.
var extremeExps = []struct {
	name string
	c    int
}{
	{"1", 0},
	{"1e150", 499},
	{"1e155", 515},
	{"1e200", 664},
	{"1e300", 997},
	{"1e-150", -499},
	{"1e-155", -515},
	{"1e-200", -664},
	{"1e-300", -997},
	{"subnormal", -1060},
}

// pow2Scaled returns x with every entry multiplied by 2^c (one rounding,
// so exact unless the result is subnormal).
func pow2Scaled(x *mat.Dense, c int) *mat.Dense {
	n, p := x.Dims()
	y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			y.Set(i, j, math.Ldexp(x.At(i, j), c))
		}
	}
	return y
}

// knnExtremeSets are the data of the neighbour tests: low dimension with
// duplicates (k-d tree), high dimension (brute force), and enough rows for
// ApproxNearestNeighbors to run NN-descent (n > ApproxExactMaxN).
func knnExtremeSets() []struct {
	name    string
	x       *mat.Dense
	k       int
	methods []KNNMethod
} {
	return []struct {
		name    string
		x       *mat.Dense
		k       int
		methods []KNNMethod
	}{
		{"n=300/p=3/dups", withDuplicates(randNormal(11, 300, 3), 3, 20), 5, []KNNMethod{KNNTree, KNNBrute, KNNAuto}},
		{"n=200/p=20", randNormal(12, 200, 20), 4, []KNNMethod{KNNTree, KNNBrute}},
		{"n=2500/p=4/approx", randNormal(13, 2500, 4), 3, []KNNMethod{KNNApprox}},
	}
}

// TestNeighborsExtremeMagnitudes: the neighbours of data multiplied by a
// power of two are those of the data (the search is exact on the scaled
// values, whose distances keep their order and ties), and dist2 holds the
// squared distances times the square of that power, rounded once; when
// those overflow float64 the search fails with ErrDegenerate. Previously
// coordinates near 1e155 gave +Inf distances and neighbours in index order,
// and coordinates near 1e-200 gave zero distances and index order.
func TestNeighborsExtremeMagnitudes(t *testing.T) {
	ctx := context.Background()
	for _, set := range knnExtremeSets() {
		for _, m := range set.methods {
			for _, sc := range extremeExps {
				t.Run(fmt.Sprintf("%s/method=%d/x=%s", set.name, m, sc.name), func(t *testing.T) {
					x := pow2Scaled(set.x, sc.c)
					// The reference: the same search on the data brought
					// back to the normal range (exactly, from the stored
					// values).
					xs := pow2Scaled(x, -sc.c)
					refIdx, refD, err := NearestNeighbors(ctx, xs, set.k, m)
					if err != nil {
						t.Fatal(err)
					}
					want := make([]float64, len(refD))
					overflow := false
					for a, d := range refD {
						want[a] = math.Ldexp(d, 2*sc.c)
						overflow = overflow || math.IsInf(want[a], 1)
					}
					idx, d2, err := NearestNeighbors(ctx, x, set.k, m)
					if overflow {
						if !errors.Is(err, ErrDegenerate) || idx != nil || d2 != nil ||
							!strings.Contains(err.Error(), "overflows") || !strings.Contains(err.Error(), "scale the data") {
							t.Fatalf("squared distances overflow: got err = %v (%d indices), want ErrDegenerate saying so", err, len(idx))
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(idx, refIdx) {
						t.Fatalf("neighbours differ from those of the unscaled data: first rows %v, want %v", idx[:2*set.k], refIdx[:2*set.k])
					}
					for a := range want {
						if d2[a] != want[a] {
							t.Fatalf("dist2[%d] = %g, want %g (the unscaled %g times 2^%d)", a, d2[a], want[a], refD[a], 2*sc.c)
						}
					}
				})
			}
		}
	}
}

// TestKNNGraphExtremeMagnitudes: KNNGraph of data multiplied by a power of
// two is the graph of the data (Binary, LocalHeat and Heat with the default
// width are invariant; a given width T is compared with the true squared
// distances), whatever the magnitude: its squared distances need not be
// representable. Previously huge data gave NaN heat weights and edges in
// index order.
func TestKNNGraphExtremeMagnitudes(t *testing.T) {
	ctx := context.Background()
	for _, set := range knnExtremeSets()[:2] {
		for _, sc := range extremeExps {
			for _, o := range []struct {
				name string
				opt  GraphOptions
			}{
				{"binary", GraphOptions{}},
				{"mutual", GraphOptions{Mutual: true}},
				{"heat", GraphOptions{Weight: Heat}},
				{"heatT", GraphOptions{Weight: Heat, T: 1}},
				{"local", GraphOptions{Weight: LocalHeat, ScaleNeighbor: 3}},
				{"brute/local", GraphOptions{Weight: LocalHeat, Method: KNNBrute}},
			} {
				t.Run(fmt.Sprintf("%s/x=%s/%s", set.name, sc.name, o.name), func(t *testing.T) {
					x := pow2Scaled(set.x, sc.c)
					xs := pow2Scaled(x, -sc.c)
					opt, ref := o.opt, o.opt
					if o.opt.T != 0 {
						// A width 2^a for x and 2^(a-2c) for xs, both
						// representable (there is none for subnormal x).
						lo, hi := max(-1074, 2*sc.c-1074), min(1023, 2*sc.c+1023)
						if lo > hi {
							t.Skip("no width is representable at both scales")
						}
						a := min(max(2*sc.c, lo), hi)
						opt.T, ref.T = math.Ldexp(1, a), math.Ldexp(1, a-2*sc.c)
					}
					wRef, err := KNNGraph(ctx, xs, set.k, &ref)
					if err != nil {
						t.Fatal(err)
					}
					w, err := KNNGraph(ctx, x, set.k, &opt)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(w.RowPtr, wRef.RowPtr) || !slices.Equal(w.ColIdx, wRef.ColIdx) {
						t.Fatal("the graph's edges differ from those of the unscaled data")
					}
					for a, v := range w.Val {
						// Bitwise for the invariant weights; a given T
						// is applied through an exact power of two.
						if v != wRef.Val[a] && !(o.opt.T != 0 && math.Abs(v-wRef.Val[a]) <= 1e-15) {
							t.Fatalf("weight %d = %v, want %v", a, v, wRef.Val[a])
						}
					}
				})
			}
		}
	}
}

// TestGraphFromNeighborsExtremeDistances: neighbour lists whose squared
// distances are huge (their sum overflows) or subnormal give the weights of
// the same lists at ordinary scale, to the precision of the distances
// given. Previously a default Heat width that overflowed made every weight
// 1.
func TestGraphFromNeighborsExtremeDistances(t *testing.T) {
	ctx := context.Background()
	x := withDuplicates(randNormal(21, 300, 3), 5, 10)
	const n, k = 300, 6
	idx, d2, err := NearestNeighbors(ctx, x, k, KNNAuto)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		e   int     // the distances are multiplied by 2^e
		tol float64 // their relative precision (subnormals keep fewer bits)
	}{{0, 0}, {1015, 0}, {-1015, 1e-12}, {-1040, 1e-6}} {
		for _, wk := range []GraphWeight{Binary, Heat, LocalHeat} {
			t.Run(fmt.Sprintf("e=%d/weight=%d", s.e, wk), func(t *testing.T) {
				ds := make([]float64, len(d2))
				for a, d := range d2 {
					ds[a] = math.Ldexp(d, s.e)
				}
				wRef, err := GraphFromNeighbors(n, k, idx, d2, &GraphOptions{Weight: wk})
				if err != nil {
					t.Fatal(err)
				}
				w, err := GraphFromNeighbors(n, k, idx, ds, &GraphOptions{Weight: wk})
				if err != nil {
					t.Fatal(err)
				}
				for a, v := range w.Val {
					if !(math.Abs(v-wRef.Val[a]) <= s.tol) {
						t.Fatalf("weight %d = %v, want %v", a, v, wRef.Val[a])
					}
				}
			})
		}
	}
}
