package eig

import (
	"context"
	"math"
	"testing"

	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// FuzzSparseGraph builds the normalised affinity D^-1/2 W D^-1/2 or the
// Laplacian D − W of a small weighted graph from the bytes (n <= 60, a
// few components, so that eigenvalues repeat as they do on the kNN graphs
// of data sets), and runs TopD and every Krylov solver on it as a CSR at
// either end: a Converged result must hold the d wanted eigenvalues, each
// with as many copies as the spectrum has, and pass the residual and
// orthogonality checks of the conformance suite; any other status must
// report true residuals.
func FuzzSparseGraph(f *testing.F) {
	f.Add([]byte{40, 6, 0, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{60, 20, 1, 5, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{12, 4, 2, 2, 64, 64, 64})
	f.Add([]byte{33, 11, 3, 7, 129, 127, 130, 126, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		n := 4 + int(data[0])%57
		d := 1 + int(data[1])%min(n-1, 24)
		which := Which(data[2] % 2)
		laplacian := data[2]/2%2 == 1
		comps := 1 + int(data[3])%5
		next := robust.NewBytes(data[4:]).Next
		// Edges within components: a ring through each (so no point is
		// isolated) plus chords from the bytes, weights 1/8 … 2.
		var ts []linalg.Triplet
		add := func(i, j int, w float64) {
			ts = append(ts, linalg.Triplet{I: i, J: j, V: w}, linalg.Triplet{I: j, J: i, V: w})
		}
		comp := func(i int) int { return i % comps }
		for c := 0; c < comps; c++ {
			var members []int
			for i := c; i < n; i += comps {
				members = append(members, i)
			}
			for a := 0; a+1 < len(members); a++ {
				add(members[a], members[a+1], 1)
			}
			if len(members) > 2 {
				add(members[len(members)-1], members[0], 1)
			}
		}
		for e := 0; e < n; e++ {
			i, j := int(next())%n, int(next())%n
			if i == j || comp(i) != comp(j) {
				continue
			}
			add(i, j, float64(1+int(next())%16)/8)
		}
		w, err := linalg.CSRFromTriplets(n, n, ts)
		if err != nil {
			t.Fatal(err)
		}
		var a *linalg.CSR
		if laplacian {
			a, err = linalg.Laplacian(w, linalg.Combinatorial)
		} else {
			a, _, err = linalg.NormalizedAffinity(w)
		}
		if err != nil {
			t.Fatal(err)
		}
		dense := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				dense.SetSym(i, j, (a.At(i, j)+a.At(j, i))/2)
			}
		}
		op, err := NewCSR(a)
		if err != nil {
			t.Skip(err) // not exactly symmetric after the sums: not this test's subject
		}
		run := func(name string, solve func() (*Result, error)) {
			res, err := solve()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if res.Status != linalg.Converged {
				t.Logf("%s: %v with %d of %d converged", name, res.Status, res.Converged, d)
				checkReported(t, dense, res)
				return
			}
			bound := math.Max(60, 2*math.Sqrt(float64(d))*acceptTol(DefaultTol, n)/(float64(n)*eps))
			t.Logf("%s: n = %d, d = %d, %v, %d components", name, n, d, which, comps)
			checkPairs(t, dense, res, d, which, bound)
		}
		set := &Settings{Which: which, Seed: uint64(len(data))}
		run("TopD", func() (*Result, error) { return TopD(context.Background(), op, d, set) })
		for _, s := range []Solver{ThickRestart{}, Block{}, Chebyshev{}} {
			run(s.Name(), func() (*Result, error) { return s.Solve(context.Background(), op, d, set) })
		}
	})
}
