package repro

import (
	"bytes"
	_ "embed"
	"fmt"

	"ukm/dataset"
	"ukm/linalg"
	"ukm/models"

	"gonum.org/v1/gonum/mat"
)

// The data of the distance-metric table (thesis Table 5.1): three generated
// sets, Iris from the embedded test data, and Sonar and Wine from the
// reference collection. The generated sets are fixed (seed 1): the trials
// vary the constraints and the k-means starts, as the thesis draws its
// 100 points once.

//go:embed testdata/iris.csv
var irisCSV []byte

// generatedData maps a table to its data sets that are not files in the
// data directory.
var generatedData = map[string]map[string]func() (*dataset.Set, error){
	metricTableName: {
		"norm":          func() (*dataset.Set, error) { return dataset.Norm(50, 10, 1) },
		"chessboard":    func() (*dataset.Set, error) { return dataset.Chessboard(50, 4, 1) },
		"double-spiral": func() (*dataset.Set, error) { return dataset.DoubleSpiral(50, 0.05, 1) },
		"iris": func() (*dataset.Set, error) {
			s, err := dataset.Read(bytes.NewReader(irisCSV))
			if s != nil {
				s.Name = "iris"
			}
			return s, err
		},
	},
}

// load reads one data set of the table: a generated one, or a file of the
// reference collection in dir.
func (t *Table) load(dir, name string) (*Data, error) {
	if gen, ok := generatedData[t.Name][name]; ok {
		s, err := gen()
		if err != nil {
			return nil, fmt.Errorf("repro: generating %s: %w", name, err)
		}
		return &Data{Name: name, X: s.X, Y: s.Y, Classes: len(s.Classes)}, nil
	}
	return LoadData(dir, name)
}

// scaleData applies the scaling of the models options to x, fitted on all
// its rows (as models.Fit does), for the tables that build their kernels
// outside models.
func scaleData(x *mat.Dense, s models.Scaling) (*mat.Dense, error) {
	if s == models.NoScaling {
		return x, nil
	}
	method := linalg.ZScore
	if s == models.MinMax {
		method = linalg.MinMax
	}
	xs, _, err := linalg.FitTransform(x, method)
	return xs, err
}
