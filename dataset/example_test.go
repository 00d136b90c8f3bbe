package dataset_test

import (
	"fmt"
	"log"
	"strings"

	"ukm/dataset"
)

// A CSV table from a reader: the header is detected, "?" marks an
// unlabeled row, "+1" and "1" are one class, and a quoted field may hold
// the delimiter.
func ExampleReadTableFrom() {
	const data = `label,height,"weight, kg"
+1,1.80,"75"
-1,1.62,58
?,1.75,70
1,1.90,88
`
	tab, err := dataset.ReadTableFrom(strings.NewReader(data), dataset.TableOptions{})
	if err != nil {
		log.Fatal(err)
	}
	n, p := tab.X.Dims()
	fmt.Println(n, "rows,", p, "features:", strings.Join(tab.Header, " | "))
	classes, labeled, y := tab.Index()
	fmt.Println("classes", classes, "labeled rows", labeled, "classes of them", y)
	// Output:
	// 4 rows, 2 features: height | weight, kg
	// classes [-1 1] labeled rows [0 1 3] classes of them [1 0 1]
}

// A LIBSVM file read into a sparse matrix, then made dense.
func ExampleReadLIBSVM() {
	const data = `# label index:value ...
+1 1:0.5 4:2
-1 2:1.5
2:3 3:1
`
	s, err := dataset.ReadLIBSVM(strings.NewReader(data), dataset.TableOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d x %d, %d stored entries, labels %q\n", s.X.Rows, s.X.Cols, s.X.NNZ(), s.Labels)
	tab, err := s.Dense(0)
	if err != nil {
		log.Fatal(err)
	}
	for i := range s.X.Rows {
		fmt.Println(tab.X.RawRowView(i))
	}
	// Output:
	// 3 x 4, 5 stored entries, labels ["1" "-1" ""]
	// [0.5 0 0 2]
	// [0 1.5 0 0]
	// [0 3 1 0]
}

// Class names to indices and back.
func ExampleIndex() {
	classes, y := dataset.Index([]string{"10", "9", "10", "-1"})
	fmt.Println(classes, y)
	labels, _ := dataset.Decode(classes, []int{2, 0})
	fmt.Println(labels)
	// Output:
	// [-1 9 10] [2 1 2 0]
	// [10 -1]
}
