package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// EnvFashionMNIST names the environment variable that overrides the
// directory returned by FashionMNISTDir.
const EnvFashionMNIST = "UKM_FASHION_MNIST"

// FashionMNISTDebianDir is where Debian's dataset-fashion-mnist package
// installs the four gzip-compressed IDX files.
const FashionMNISTDebianDir = "/usr/share/datasets/fashion-mnist"

// LoadIDXPair reads an image file (n x rows x cols unsigned bytes; any
// n x d1 x ... shape with at least two dimensions is flattened to
// n x (d1·...)) and a label file (n unsigned bytes) into a Set: X holds the
// pixels divided by 255 (so in [0, 1]), Labels the labels in decimal, and
// Classes the labels present, sorted numerically ("0".."9" for MNIST).
// Name is the image file's base name without ".gz". A count mismatch or a
// label file that is not one-dimensional is an error wrapping ErrFormat;
// a missing file one wrapping ErrNotFound. Cost: the bytes of both files
// plus 8 bytes per pixel for X.
func LoadIDXPair(images, labels string) (*Set, error) {
	img, err := ReadIDXFile(images)
	if err != nil {
		return nil, err
	}
	lab, err := ReadIDXFile(labels)
	if err != nil {
		return nil, err
	}
	s, err := idxSet("dataset.LoadIDXPair", []*IDX{img}, []*IDX{lab}, []string{images}, []string{labels})
	if err != nil {
		return nil, err
	}
	s.Name = strings.TrimSuffix(filepath.Base(images), ".gz")
	return s, nil
}

// fashionFiles are the image and label files of Fashion-MNIST (and MNIST):
// the training part first, then the test part.
var fashionFiles = [][2]string{
	{"train-images-idx3-ubyte", "train-labels-idx1-ubyte"},
	{"t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"},
}

// FashionMNIST reads Zalando's Fashion-MNIST from dir: the files
// train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz,
// t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz (each also
// accepted without ".gz"). It returns the 70,000 28x28 images as one Set
// named "fashion-mnist", the 60,000 training images first (rows 0..59999)
// and the 10,000 test images after them, with pixels scaled to [0, 1] and
// classes "0".."9" (T-shirt/top, Trouser, Pullover, Dress, Coat, Sandal,
// Shirt, Sneaker, Bag, Ankle boot). A missing file is an error wrapping
// ErrNotFound; a malformed one wraps ErrFormat. Cost: 8 bytes per pixel
// for X (70,000 x 784 of them) plus the decompressed files while reading.
func FashionMNIST(dir string) (*Set, error) {
	var imgs, labs []*IDX
	var imgNames, labNames []string
	for _, pair := range fashionFiles {
		for k, base := range pair {
			path, err := findIDX(dir, base)
			if err != nil {
				return nil, err
			}
			x, err := ReadIDXFile(path)
			if err != nil {
				return nil, err
			}
			if k == 0 {
				imgs, imgNames = append(imgs, x), append(imgNames, path)
			} else {
				labs, labNames = append(labs, x), append(labNames, path)
			}
		}
	}
	s, err := idxSet("dataset.FashionMNIST", imgs, labs, imgNames, labNames)
	if err != nil {
		return nil, err
	}
	s.Name = "fashion-mnist"
	return s, nil
}

// findIDX returns dir/base.gz or else dir/base.
func findIDX(dir, base string) (string, error) {
	for _, fn := range []string{base + ".gz", base} {
		p := filepath.Join(dir, fn)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("dataset.FashionMNIST: %w: no %s.gz or %s in %s", ErrNotFound, base, base, dir)
}

// FashionMNISTDir returns the directory holding Fashion-MNIST: the value of
// the UKM_FASHION_MNIST environment variable if set (it must name a
// directory), otherwise FashionMNISTDebianDir if the Debian package
// dataset-fashion-mnist is installed. Otherwise it returns an error
// wrapping ErrNotFound.
func FashionMNISTDir() (string, error) {
	if d := os.Getenv(EnvFashionMNIST); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
		return "", fmt.Errorf("dataset.FashionMNISTDir: %w: %s=%q is not a directory", ErrNotFound, EnvFashionMNIST, d)
	}
	if _, err := findIDX(FashionMNISTDebianDir, fashionFiles[0][0]); err == nil {
		return FashionMNISTDebianDir, nil
	}
	return "", fmt.Errorf("dataset.FashionMNISTDir: %w: no Fashion-MNIST in %s (apt-get install dataset-fashion-mnist) and %s is unset", ErrNotFound, FashionMNISTDebianDir, EnvFashionMNIST)
}

// idxSet concatenates image/label pairs into a Set.
func idxSet(op string, imgs, labs []*IDX, imgNames, labNames []string) (*Set, error) {
	at := src{op: op}
	n, p := 0, 0
	for i, img := range imgs {
		if len(img.Dims) < 2 {
			return nil, at.errf(ErrFormat, 0, 0, "%s: images have shape %v, want n x rows x cols", imgNames[i], img.Dims)
		}
		if len(labs[i].Dims) != 1 {
			return nil, at.errf(ErrFormat, 0, 0, "%s: labels have shape %v, want one dimension", labNames[i], labs[i].Dims)
		}
		if img.Dims[0] != labs[i].Dims[0] {
			return nil, at.errf(ErrFormat, 0, 0, "%s has %d images but %s has %d labels", imgNames[i], img.Dims[0], labNames[i], labs[i].Dims[0])
		}
		q := len(img.Data) / img.Dims[0]
		if i > 0 && q != p {
			return nil, at.errf(ErrFormat, 0, 0, "%s has %d pixels per image, %s has %d", imgNames[i], q, imgNames[0], p)
		}
		n, p = n+img.Dims[0], q
	}
	var scale [256]float64
	for i := range scale {
		scale[i] = float64(i) / 255
	}
	data := make([]float64, n*p)
	y := make([]int, 0, n)
	var present [256]bool
	off := 0
	for i, img := range imgs {
		dst := data[off : off+len(img.Data)]
		for j, b := range img.Data {
			dst[j] = scale[b]
		}
		off += len(img.Data)
		for _, l := range labs[i].Data {
			present[l] = true
			y = append(y, int(l))
		}
	}
	var classes []string
	var index [256]int
	for l, ok := range present {
		if ok {
			index[l] = len(classes)
			classes = append(classes, strconv.Itoa(l))
		}
	}
	labels := make([]string, n)
	for i, l := range y {
		labels[i] = classes[index[l]]
		y[i] = index[l]
	}
	return &Set{X: mat.NewDense(n, p, data), Labels: labels, Y: y, Classes: classes}, nil
}
