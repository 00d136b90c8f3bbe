// Command gen writes the inputs of the eigensolver and SKL benchmarks to
// files, so that peer tools (SciPy, CVXOPT, Octave) can be timed on exactly
// the numbers our solvers are timed on.
//
// Usage:
//
//	go run ./bench/peers/gen [-out DIR] [-n 500,1000,2000,4000] [-d 10,20,50,100,200]
//
// With no -out a new temporary directory is created; its name is printed on
// the last line of standard output. For every n it writes rbf_nN.bin (the n×n
// kernel, row-major little-endian float64) and rbf_nN.json (n, p, seed, gamma,
// file). For every d it writes skl_dD.json: the μ-space SKL QP
//
//	minimize ½ μᵀPμ + qᵀμ  subject to  aᵀμ = b,  μ >= 0,  μ_i − C·μ_{i+1} >= 0,
//
// with P = 2H, q = 0, b = 1, together with our solver's answer as a reference
// ("ref": objective, μ, status and KKT residuals). Writing -n "" or -d ""
// skips that family.
//
// With -pairs (a list of k) it also writes, for every n and k, the top-k
// eigenpairs our default solver (eig.TopD, default settings) returns for
// the kernel: rbf_nN_ukm_kK.bin, k values then the n×k vectors (row-major),
// little-endian float64, for accuracy.py to compare with ARPACK's in
// extended precision.
package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"ukm/bench/peers/inputs"
	"ukm/eig"
	"ukm/qp"
)

func main() {
	out := flag.String("out", "", "output directory (default: a new temporary directory)")
	ns := flag.String("n", "500,1000,2000,4000", "comma-separated kernel sizes")
	ds := flag.String("d", "10,20,50,100,200", "comma-separated SKL sizes d")
	ps := flag.String("pairs", "", "comma-separated k: also write our top-k eigenpairs of each kernel")
	flag.Parse()
	if err := run(*out, *ns, *ds, *ps); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, nlist, dlist, plist string) error {
	ns, err := inputs.ParseSizes(nlist)
	if err != nil {
		return err
	}
	ks, err := inputs.ParseSizes(plist)
	if err != nil {
		return err
	}
	ds, err := inputs.ParseSizes(dlist)
	if err != nil {
		return err
	}
	if out, err = inputs.OutputDir(out, "ukm-peers-"); err != nil {
		return err
	}
	for _, n := range ns {
		k, err := writeRBF(out, n)
		if err != nil {
			return err
		}
		for _, kk := range ks {
			if err := writePairs(out, k, kk); err != nil {
				return err
			}
		}
	}
	if len(ds) > 0 {
		sp, err := inputs.Ionosphere()
		if err != nil {
			return err
		}
		for _, d := range ds {
			if err := writeSKL(out, sp, d); err != nil {
				return err
			}
		}
	}
	fmt.Println(out)
	return nil
}

type rbfHeader struct {
	N         int     `json:"n"`
	P         int     `json:"p"`
	Seed      uint64  `json:"seed"`
	Gamma     float64 `json:"gamma"`
	File      string  `json:"file"`
	Layout    string  `json:"layout"`
	Generator string  `json:"generator"`
}

func writeRBF(dir string, n int) (*mat.SymDense, error) {
	x, err := inputs.RBFPoints(n, inputs.RBFDim, inputs.RBFSeed)
	if err != nil {
		return nil, err
	}
	k, gamma, err := inputs.RBFKernel(x)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("rbf_n%d.bin", n)
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var buf [8]byte
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(k.At(i, j)))
			if _, err := w.Write(buf[:]); err != nil {
				f.Close()
				return nil, err
			}
		}
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		return nil, err
	}
	h := rbfHeader{
		N: n, P: inputs.RBFDim, Seed: inputs.RBFSeed, Gamma: gamma, File: name,
		Layout:    "n*n little-endian float64, row-major, full symmetric",
		Generator: "inputs.RBFPoints (PCG(seed, 11), NormFloat64 row by row) + inputs.RBFKernel",
	}
	fmt.Printf("rbf n=%d gamma=%.17g\n", n, gamma)
	return k, writeJSON(filepath.Join(dir, fmt.Sprintf("rbf_n%d.json", n)), h)
}

// writePairs writes the top-kk eigenpairs of k found by eig.TopD with its
// defaults: kk values, then the n×kk vectors row by row.
func writePairs(dir string, k *mat.SymDense, kk int) error {
	n := k.SymmetricDim()
	op, err := eig.NewDense(k)
	if err != nil {
		return err
	}
	res, err := eig.TopD(context.Background(), op, kk, nil)
	if err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("rbf_n%d_ukm_k%d.bin", n, kk)))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	put := func(v float64) error {
		var buf [8]byte
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
		_, err := w.Write(buf[:])
		return err
	}
	for _, v := range res.Values {
		if err := put(v); err != nil {
			f.Close()
			return err
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < kk; j++ {
			if err := put(res.Vectors.At(i, j)); err != nil {
				f.Close()
				return err
			}
		}
	}
	fmt.Printf("pairs n=%d k=%d products=%d\n", n, kk, res.MatVecs)
	return errors.Join(w.Flush(), f.Close())
}

type kktJSON struct {
	Stationarity    float64 `json:"stationarity"`
	PrimalFeas      float64 `json:"primal_feas"`
	DualFeas        float64 `json:"dual_feas"`
	Complementarity float64 `json:"complementarity"`
}

type sklRef struct {
	Solver string    `json:"solver"`
	Status string    `json:"status"`
	Obj    float64   `json:"obj"`
	X      []float64 `json:"x"`
	KKT    kktJSON   `json:"kkt"`
}

type sklFile struct {
	D       int       `json:"d"`
	C       float64   `json:"C"`
	P       []float64 `json:"P"` // d×d row-major, P = 2H
	Q       []float64 `json:"q"`
	A       []float64 `json:"a"` // equality row aᵀμ = b
	B       float64   `json:"b"`
	Gamma   float64   `json:"gamma"`
	Labeled []int     `json:"labeled"`
	Ref     sklRef    `json:"ref"`
	Form    string    `json:"form"`
}

func writeSKL(dir string, sp *inputs.Spectrum, d int) error {
	s, err := sp.SKL(d, inputs.SKLC)
	if err != nil {
		return err
	}
	p := s.Problem()
	f := sklFile{
		D: d, C: inputs.SKLC, P: make([]float64, 0, d*d), Q: make([]float64, d),
		A: append([]float64(nil), s.A()...), B: 1, Gamma: sp.Gamma,
		Labeled: sp.Labeled,
		Form:    "minimize 1/2 x'Px + q'x s.t. a'x = b, x >= 0, x_i - C x_{i+1} >= 0 (i < d)",
	}
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			f.P = append(f.P, p.H.At(i, j))
		}
	}
	var res qp.Result
	if err := s.Solve(context.Background(), nil, nil, &res); err != nil {
		return fmt.Errorf("reference solve d=%d: %w", d, err)
	}
	f.Ref = sklRef{
		Solver: "ukm qp.SKL.Solve (Bounded)", Status: fmt.Sprint(res.Status), Obj: res.Obj,
		X: res.X, KKT: kktJSON{res.KKT.Stationarity, res.KKT.PrimalFeas, res.KKT.DualFeas, res.KKT.Complementarity},
	}
	fmt.Printf("skl d=%d ref obj=%.17g kkt=%.2g\n", d, res.Obj, res.KKT.Max())
	return writeJSON(filepath.Join(dir, fmt.Sprintf("skl_d%d.json", d)), f)
}

func writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
