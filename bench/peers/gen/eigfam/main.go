// Command eigfam writes the matrices of the eigensolver comparisons with
// SciPy's eigsh (bench/peers/eigsh_families.py), built by the generators
// of package eig/eigtest, which the Go benchmarks (BenchmarkVsEigsh in
// package eig) call too, so both sides solve the very same numbers.
//
// Usage:
//
//	go run ./bench/peers/gen/eigfam [-out DIR] [-n 200,500,1000,2000,4000] [-d 5,20,50]
//
// It writes DIR/cases.json, one object per case (name, file, format
// "dense" or "csr", n, k, which: "LA" or "SA", sigma or null, family),
// and the matrices: dense ones as n*n little-endian float64, row-major;
// sparse ones as int64 n and nnz, then n+1 int64 row pointers, nnz int64
// column indices and nnz float64 values, little-endian. With no -out a
// temporary directory is created; its name is printed last.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"

	"ukm/bench/peers/inputs"
	"ukm/eig/eigtest"
	"ukm/linalg"
)

// Case is one line of cases.json.
type Case struct {
	Name   string   `json:"name"`
	Family string   `json:"family"`
	File   string   `json:"file"`
	Format string   `json:"format"`
	N      int      `json:"n"`
	K      int      `json:"k"`
	Which  string   `json:"which"`
	Sigma  *float64 `json:"sigma"`
}

func main() {
	out := flag.String("out", "", "output directory (default: a new temporary directory)")
	ns := flag.String("n", "200,500,1000,2000,4000", "sizes of the dense and sparse timing families")
	ds := flag.String("d", "5,20,50", "numbers of pairs of the timing families")
	flag.Parse()
	if err := run(*out, *ns, *ds); err != nil {
		fmt.Fprintln(os.Stderr, "eigfam:", err)
		os.Exit(1)
	}
}

func run(out, nlist, dlist string) error {
	ns, err := inputs.ParseSizes(nlist)
	if err != nil {
		return err
	}
	ds, err := inputs.ParseSizes(dlist)
	if err != nil {
		return err
	}
	if out, err = inputs.OutputDir(out, "ukm-eigfam-"); err != nil {
		return err
	}
	var cases []Case
	zero := 0.0
	for _, n := range ns {
		k, err := eigtest.KernelRBF(n, 1)
		if err != nil {
			return err
		}
		file := fmt.Sprintf("rbf_n%d.bin", n)
		if err := writeDense(filepath.Join(out, file), k); err != nil {
			return err
		}
		for _, d := range ds {
			cases = append(cases, Case{fmt.Sprintf("family=rbf/n=%d/d=%d", n, d), "rbf", file, "dense", n, d, "LA", nil})
		}
		p, err := eigtest.KNNLaplacian(n, 10, 1)
		if err != nil {
			return err
		}
		file = fmt.Sprintf("knn_n%d.bin", n)
		if err := writeCSR(filepath.Join(out, file), p.A); err != nil {
			return err
		}
		for _, d := range ds {
			cases = append(cases, Case{fmt.Sprintf("family=knn/n=%d/d=%d", n, d), "knn", file, "csr", n, d, "LA", nil})
		}
	}
	// The failure families: an eigenvalue of multiplicity d at the
	// bottom, and positive definite matrices of condition 1e10.
	for _, p := range []eigtest.Problem{eigtest.RepeatedDiagonal(420, 20), eigtest.RepeatedBlocks(1000, 10, 1)} {
		file := strings.NewReplacer("/", "_", "=", "").Replace(p.Name) + ".bin"
		if err := writeCSR(filepath.Join(out, file), p.A); err != nil {
			return err
		}
		cases = append(cases, Case{fmt.Sprintf("family=%s/d=%d", p.Name, p.Mult), "multiplicity", file, "csr", p.A.Rows, p.Mult, "SA", nil})
	}
	gs, err := eigtest.GridStiffness(50, 100, 1e4, 1e10, 1)
	if err != nil {
		return err
	}
	cl, err := eigtest.ClusteredLaplacian(5000, 10, 1e-4, 1e10, 1)
	if err != nil {
		return err
	}
	for _, p := range []eigtest.Problem{gs, cl} {
		file := strings.NewReplacer("/", "_", "=", "", "+", "").Replace(p.Name) + ".bin"
		if err := writeCSR(filepath.Join(out, file), p.A); err != nil {
			return err
		}
		for _, d := range []int{6, 10, 20} {
			cases = append(cases, Case{fmt.Sprintf("family=%s/d=%d/solver=shift-invert", p.Name, d), "ill-conditioned", file, "csr", p.A.Rows, d, "SA", &zero})
		}
	}
	b, err := json.MarshalIndent(cases, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "cases.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Println(out)
	return nil
}

type writer struct {
	w   *bufio.Writer
	err error
}

func (w *writer) u64(v uint64) {
	if w.err == nil {
		w.err = binary.Write(w.w, binary.LittleEndian, v)
	}
}

func (w *writer) f64(v float64) { w.u64(math.Float64bits(v)) }

func create(path string, body func(w *writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := &writer{w: bufio.NewWriterSize(f, 1<<20)}
	body(w)
	return errors.Join(w.err, w.w.Flush(), f.Close())
}

func writeDense(path string, a *mat.SymDense) error {
	n := a.SymmetricDim()
	return create(path, func(w *writer) {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				w.f64(a.At(i, j))
			}
		}
	})
}

func writeCSR(path string, a *linalg.CSR) error {
	return create(path, func(w *writer) {
		w.u64(uint64(a.Rows))
		w.u64(uint64(len(a.Val)))
		for _, p := range a.RowPtr {
			w.u64(uint64(p))
		}
		for _, c := range a.ColIdx {
			w.u64(uint64(c))
		}
		for _, v := range a.Val {
			w.f64(v)
		}
	})
}
