// Command qpgen writes the generated degenerate QP families of BenchmarkDegenerate
// (package qp) to a file, so that CVXOPT can be timed on exactly the problems
// our solvers are timed on.
//
// Usage:
//
//	go run ./bench/peers/qpgen [-out DIR] [-sizes 50x100,100x200,200x300,400x500] [-seeds 3]
//
// With no -out a new temporary directory is created; its name is printed on the
// last line of standard output. It writes qp_degenerate.jsonl: one problem per
// line, for every size NxR (N variables, about R rows), every seed 1..seeds and
// every family of qptest.DegenerateFamilies, with the fields
//
//	name      the benchmark's sub-benchmark name: family=F/n=N/rows=R/seed=S
//	family, n, rows, seed, want ("Optimal" or "Infeasible"), obj (the planted
//	          optimal value; null when infeasible)
//	H         upper-triangle nonzeros [[i, j, v], ...] (empty for an LP)
//	g         the linear term
//	meq, min  numbers of equality and inequality rows
//	Aeq, Ain  nonzeros [[i, j, v], ...]; beq, bin the right-hand sides
//	lower, upper  bounds, null for an infinite one
//
// for the problem minimize ½xᵀHx + gᵀx subject to Aeq x = beq, Ain x >= bin,
// lower <= x <= upper. Numbers are written in the shortest form that reads
// back to the same float64.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"ukm/bench/peers/inputs"

	"gonum.org/v1/gonum/mat"

	"ukm/qp/qptest"
)

func main() {
	out := flag.String("out", "", "output directory (default: a new temporary directory)")
	sizes := flag.String("sizes", "50x100,100x200,200x300,400x500", "comma-separated NxR: N variables, about R rows")
	seeds := flag.Int("seeds", 3, "seeds 1..seeds of every family and size")
	flag.Parse()
	if err := run(*out, *sizes, *seeds); err != nil {
		fmt.Fprintln(os.Stderr, "qpgen:", err)
		os.Exit(1)
	}
}

// size is one NxR entry of -sizes.
type size struct{ n, rows int }

func parseSizes(s string) ([]size, error) {
	var v []size
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		a, b, ok := strings.Cut(f, "x")
		n, err1 := strconv.Atoi(a)
		r, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || n < 2 || r < 10 {
			return nil, fmt.Errorf("bad size %q (want NxR, N >= 2, R >= 10)", f)
		}
		v = append(v, size{n, r})
	}
	if len(v) == 0 {
		return nil, errors.New("no sizes")
	}
	return v, nil
}

// problem is one line of the output.
type problem struct {
	Name   string     `json:"name"`
	Family string     `json:"family"`
	N      int        `json:"n"`
	Rows   int        `json:"rows"`
	Seed   uint64     `json:"seed"`
	Want   string     `json:"want"`
	Obj    *float64   `json:"obj"`
	H      [][3]any   `json:"H"`
	G      []float64  `json:"g"`
	Meq    int        `json:"meq"`
	Min    int        `json:"min"`
	Aeq    [][3]any   `json:"Aeq"`
	Beq    []float64  `json:"beq"`
	Ain    [][3]any   `json:"Ain"`
	Bin    []float64  `json:"bin"`
	Lower  []*float64 `json:"lower"`
	Upper  []*float64 `json:"upper"`
}

func run(out, sizeList string, seeds int) error {
	sz, err := parseSizes(sizeList)
	if err != nil {
		return err
	}
	if seeds < 1 {
		return fmt.Errorf("-seeds %d: want at least 1", seeds)
	}
	if out, err = inputs.OutputDir(out, "ukm-qpgen-"); err != nil {
		return err
	}
	path := filepath.Join(out, "qp_degenerate.jsonl")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	count := 0
	for _, s := range sz {
		for seed := 1; seed <= seeds; seed++ {
			for _, fam := range qptest.DegenerateFamilies(s.n, s.rows, uint64(seed)) {
				if err := enc.Encode(encode(fam, s, uint64(seed))); err != nil {
					f.Close()
					return err
				}
				count++
			}
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Printf("%d problems\n%s\n", count, out)
	return nil
}

// encode turns a family at one size and seed into its output line.
func encode(fam qptest.Family, s size, seed uint64) problem {
	g := qptest.Generate(fam.Spec)
	p := g.Problem
	n := len(p.G)
	pr := problem{
		Name:   fmt.Sprintf("family=%s/n=%d/rows=%d/seed=%d", fam.Name, s.n, s.rows, seed),
		Family: fam.Name, N: s.n, Rows: s.rows, Seed: seed, Want: g.Want.String(),
		H: [][3]any{}, G: p.G, Aeq: [][3]any{}, Ain: [][3]any{}, Beq: []float64{}, Bin: []float64{},
	}
	if g.X != nil {
		obj := g.Obj
		pr.Obj = &obj
	}
	if p.H != nil {
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				if v := p.H.At(i, j); v != 0 {
					pr.H = append(pr.H, [3]any{i, j, v})
				}
			}
		}
	}
	triplets := func(a *mat.Dense) ([][3]any, int) {
		t := [][3]any{}
		if a == nil {
			return t, 0
		}
		r, _ := a.Dims()
		for i := 0; i < r; i++ {
			for j, v := range a.RawRowView(i) {
				if v != 0 {
					t = append(t, [3]any{i, j, v})
				}
			}
		}
		return t, r
	}
	pr.Aeq, pr.Meq = triplets(p.Aeq)
	pr.Ain, pr.Min = triplets(p.Ain)
	if p.Beq != nil {
		pr.Beq = p.Beq
	}
	if p.Bin != nil {
		pr.Bin = p.Bin
	}
	bound := func(v []float64) []*float64 {
		b := make([]*float64, n)
		for j := range b {
			if v != nil && !math.IsInf(v[j], 0) {
				x := v[j]
				b[j] = &x
			}
		}
		return b
	}
	pr.Lower, pr.Upper = bound(p.Lower), bound(p.Upper)
	return pr
}
