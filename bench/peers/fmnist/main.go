// Command fmnist writes the Fashion-MNIST inputs of the large-n comparison
// for the peer tools (bench/peers/fashion.sh runs it):
//
//   - draws.jsonl: the labeled sets of BenchmarkFashionMNIST in package
//     models, one JSON line each in the format of bench/peers/README.md:
//     trial 0 the fixed rule (dataset/benchdata.FashionRule), trials 1 to
//     benchdata.FashionDraws the random draws of 10 images per class
//     (benchdata.PerClass with the trial as seed); fixed.jsonl holds trial 0
//     alone;
//   - with -hog, hog.npy: the HOG descriptors (linalg.HOG, default
//     settings) of the 70,000 images, pixels divided by 255 as the loader
//     gives them, as a NumPy float64 array (70,000 x 441), bit for bit
//     what Options.GraphFeatures computes.
//
// Usage:
//
//	go run ./bench/peers/fmnist [-out DIR] [-hog]
//
// With no -out a new temporary directory is created; its name is printed on
// the last line of standard output. The images come from Debian's
// dataset-fashion-mnist (or $UKM_FASHION_MNIST).
package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"ukm/bench/peers/inputs"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/dataset/benchdata"
	"ukm/linalg"
)

func main() {
	out := flag.String("out", "", "output directory (default: a new temporary directory)")
	hog := flag.Bool("hog", false, "also write the HOG descriptors of the images (hog.npy)")
	flag.Parse()
	if err := run(*out, *hog); err != nil {
		fmt.Fprintln(os.Stderr, "fmnist:", err)
		os.Exit(1)
	}
}

// draw is one line of draws.jsonl.
type draw struct {
	Dataset  string `json:"dataset"`
	Labeled  int    `json:"labeled"`
	PerClass bool   `json:"per_class"`
	Trial    int    `json:"trial"`
	Seed     int    `json:"seed"`
	Rule     string `json:"rule"`
	Idx      []int  `json:"idx"`
}

func run(out string, hog bool) error {
	dir, err := dataset.FashionMNISTDir()
	if err != nil {
		return err
	}
	s, err := dataset.FashionMNIST(dir)
	if err != nil {
		return err
	}
	if out, err = inputs.OutputDir(out, "ukm-fmnist-"); err != nil {
		return err
	}
	var all, fixed strings.Builder
	for trial := 0; trial <= benchdata.FashionDraws; trial++ {
		d := draw{Dataset: "fashion-mnist", PerClass: true, Trial: trial, Seed: trial, Rule: "random"}
		if trial == 0 {
			d.Idx, _, _ = benchdata.FashionRule(s.Y)
			d.Rule = "fixed"
		} else {
			d.Idx, _, _ = benchdata.PerClass(s.Y, 10, uint64(trial))
		}
		d.Labeled = len(d.Idx)
		b, err := json.Marshal(d)
		if err != nil {
			return err
		}
		all.Write(append(b, '\n'))
		if trial == 0 {
			fixed.Write(append(b, '\n'))
		}
	}
	if err := os.WriteFile(filepath.Join(out, "draws.jsonl"), []byte(all.String()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "fixed.jsonl"), []byte(fixed.String()), 0o644); err != nil {
		return err
	}
	if hog {
		f, err := linalg.HOG{}.Transform(context.Background(), s.X)
		if err != nil {
			return err
		}
		if err := writeNpy(filepath.Join(out, "hog.npy"), f); err != nil {
			return err
		}
	}
	fmt.Println(out)
	return nil
}

// writeNpy writes x as a NumPy .npy file (format 1.0, little-endian
// float64, C order).
func writeNpy(path string, x *mat.Dense) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	r, c := x.Dims()
	header := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }", r, c)
	// magic (6) + version (2) + length (2) + header + '\n', a multiple of 64
	pad := 64 - (10+len(header)+1)%64
	header += strings.Repeat(" ", pad%64) + "\n"
	w := bufio.NewWriter(f)
	w.WriteString("\x93NUMPY\x01\x00")
	binary.Write(w, binary.LittleEndian, uint16(len(header)))
	w.WriteString(header)
	var buf [8]byte
	for i := 0; i < r; i++ {
		for _, v := range x.RawRowView(i) {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
			w.Write(buf[:])
		}
	}
	return w.Flush()
}
