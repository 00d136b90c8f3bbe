package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ErrFormat reports benchmark text that cannot be read: a line that starts
// like a benchmark result but has no iteration count, or a value without a
// unit. Parse wraps it with the line number.
var ErrFormat = errors.New("bench: malformed benchmark output")

// ErrData reports data a fit or a table cannot use: too few points,
// non-positive or non-finite values for a logarithm, a benchmark that is
// missing from the summaries.
var ErrData = errors.New("bench: unusable data")

// Param is one key=value element of a benchmark name.
type Param struct {
	Key, Value string
}

// Result is one result line of `go test -bench` output, for example
//
//	BenchmarkScaling/stage=eig/n=500/d=20-2   100   1234567 ns/op   12 B/op   3 allocs/op
type Result struct {
	// Name is the benchmark name without the -GOMAXPROCS suffix.
	Name string
	// Procs is the GOMAXPROCS suffix of the name (0 when absent).
	Procs int
	// Iterations is b.N of the run.
	Iterations int
	// Values maps a unit ("ns/op", "B/op", "allocs/op" or a custom metric
	// such as "matvecs/op") to its value.
	Values map[string]float64
}

// Report is the content of one or more concatenated `go test -bench` outputs.
type Report struct {
	// Config holds the configuration lines ("goos", "goarch", "pkg",
	// "cpu", ...); a key seen more than once keeps its last value.
	Config map[string]string
	// Results lists the result lines in input order; a benchmark run with
	// -count k appears k times.
	Results []Result
}

// Parse reads `go test -bench` text output. Result lines are those whose
// first field starts with "Benchmark" followed by an upper-case letter, a
// digit, '_' or '/', and that have more than one field; lines of the form
// "key: value" before or between them are configuration; everything else
// (PASS, ok, test logs) is ignored. A result line whose second field is not
// an iteration count, or whose values and units do not pair up, is an error
// wrapping ErrFormat.
func Parse(r io.Reader) (*Report, error) {
	rep := &Report{Config: map[string]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if isBenchName(fields[0]) && len(fields) > 1 {
			res, err := parseResult(fields)
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %v", ErrFormat, line, err)
			}
			rep.Results = append(rep.Results, res)
			continue
		}
		if k, v, ok := strings.Cut(text, ":"); ok && isConfigKey(k) {
			rep.Config[k] = strings.TrimSpace(v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bench: reading benchmark output: %w", err)
	}
	return rep, nil
}

// isBenchName reports whether s looks like the name of a benchmark result
// (not, say, "BenchmarkFoo" mentioned inside a log sentence, which has no
// iteration count and is rejected later, nor "Benchmarks:").
func isBenchName(s string) bool {
	rest, ok := strings.CutPrefix(s, "Benchmark")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	c := rest[0]
	return c == '_' || c == '/' || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// isConfigKey reports whether k is a configuration key: lower-case letters,
// digits and '-', no spaces (the form the benchmark format specifies).
func isConfigKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func parseResult(fields []string) (Result, error) {
	name, procs := splitProcs(fields[0])
	n, err := strconv.Atoi(fields[1])
	if err != nil || n < 0 {
		return Result{}, fmt.Errorf("%s: iteration count %q is not a non-negative integer", fields[0], fields[1])
	}
	rest := fields[2:]
	if len(rest)%2 != 0 {
		return Result{}, fmt.Errorf("%s: %d value/unit fields do not pair up", fields[0], len(rest))
	}
	res := Result{Name: name, Procs: procs, Iterations: n, Values: make(map[string]float64, len(rest)/2)}
	for i := 0; i < len(rest); i += 2 {
		v, err := strconv.ParseFloat(rest[i], 64)
		if err != nil {
			return Result{}, fmt.Errorf("%s: value %q of unit %q is not a number", fields[0], rest[i], rest[i+1])
		}
		res.Values[rest[i+1]] = v
	}
	return res, nil
}

// splitProcs removes a trailing -N (GOMAXPROCS) from a benchmark name.
func splitProcs(s string) (string, int) {
	i := strings.LastIndexByte(s, '-')
	if i < 0 || i == len(s)-1 {
		return s, 0
	}
	// The suffix must follow the last element's key=value, if any: in
	// "n=-1" the "-1" is the value, not a procs suffix.
	if j := strings.LastIndexByte(s, '='); j > i || j == i-1 {
		return s, 0
	}
	p, err := strconv.Atoi(s[i+1:])
	if err != nil || p <= 0 {
		return s, 0
	}
	return s[:i], p
}

// Params returns the key=value elements of a benchmark name in order: for
// "BenchmarkScaling/stage=eig/n=500" they are stage=eig and n=500. Elements
// without '=' (the top-level name) are skipped.
func Params(name string) []Param {
	var ps []Param
	for _, el := range strings.Split(name, "/") {
		if k, v, ok := strings.Cut(el, "="); ok {
			ps = append(ps, Param{Key: k, Value: v})
		}
	}
	return ps
}

// Base returns the part of a benchmark name before the first '/'.
func Base(name string) string {
	b, _, _ := strings.Cut(name, "/")
	return b
}

// Summary is the median over the runs of one benchmark.
type Summary struct {
	// Name is the benchmark name without the -GOMAXPROCS suffix.
	Name string
	// Params are the key=value elements of Name.
	Params []Param
	// Runs is the number of result lines summarised.
	Runs int
	// Median maps each unit to the median of its values over the runs that
	// report it.
	Median map[string]float64
}

// Get returns the value of key in the summary's name.
func (s *Summary) Get(key string) (string, bool) {
	for _, p := range s.Params {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// Float returns the value of key parsed as a number.
func (s *Summary) Float(key string) (float64, bool) {
	v, ok := s.Get(key)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

// Summarize groups results by name (ignoring the GOMAXPROCS suffix) and
// returns the median of every unit, in order of first appearance.
func Summarize(results []Result) []Summary {
	idx := map[string]int{}
	var names []string
	vals := map[string]map[string][]float64{}
	runs := map[string]int{}
	for _, r := range results {
		if _, ok := idx[r.Name]; !ok {
			idx[r.Name] = len(names)
			names = append(names, r.Name)
			vals[r.Name] = map[string][]float64{}
		}
		runs[r.Name]++
		for u, v := range r.Values {
			vals[r.Name][u] = append(vals[r.Name][u], v)
		}
	}
	out := make([]Summary, len(names))
	for i, name := range names {
		med := make(map[string]float64, len(vals[name]))
		for u, vs := range vals[name] {
			med[u] = Median(vs)
		}
		out[i] = Summary{Name: name, Params: Params(name), Runs: runs[name], Median: med}
	}
	return out
}

// Median returns the median of xs (the mean of the two middle values for
// an even count) without modifying xs, or NaN for an empty slice.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sortFloats(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return 0.5 * (s[m-1] + s[m])
}

// sortFloats sorts by insertion: benchmark groups hold a handful of runs.
func sortFloats(s []float64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Match reports whether the summary has every key of want with the given
// value. A want value "*" only requires the key to be present; an empty
// want value requires it to be absent.
func (s *Summary) Match(want map[string]string) bool {
	for k, w := range want {
		v, ok := s.Get(k)
		switch {
		case w == "" && ok:
			return false
		case w == "":
		case !ok:
			return false
		case w != "*" && v != w:
			return false
		}
	}
	return true
}

// Filter returns the summaries of benchmark base (for example
// "BenchmarkScaling"; empty means any) that match want (see Summary.Match).
func Filter(sums []Summary, base string, want map[string]string) []Summary {
	var out []Summary
	for _, s := range sums {
		if base != "" && Base(s.Name) != base {
			continue
		}
		if s.Match(want) {
			out = append(out, s)
		}
	}
	return out
}

// Series returns the points (x, y) of the summaries in sums whose parameter
// xkey is numeric and which report unit, sorted by x. Summaries without the
// key or the unit are skipped; two summaries with the same x are an error
// wrapping ErrData (the filter was not specific enough).
func Series(sums []Summary, xkey, unit string) (x, y []float64, err error) {
	for _, s := range sums {
		xv, ok := s.Float(xkey)
		if !ok {
			continue
		}
		yv, ok := s.Median[unit]
		if !ok {
			continue
		}
		x = append(x, xv)
		y = append(y, yv)
	}
	// insertion sort of the pairs by x
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
			y[j], y[j-1] = y[j-1], y[j]
		}
	}
	for i := 1; i < len(x); i++ {
		if x[i] == x[i-1] {
			return nil, nil, fmt.Errorf("%w: two benchmarks with %s = %v", ErrData, xkey, x[i])
		}
	}
	return x, y, nil
}
