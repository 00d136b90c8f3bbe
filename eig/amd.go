package eig

import (
	"math"
	"slices"

	"ukm/linalg"
)

// The fill-reducing ordering of the sparse Cholesky factorization
// (cholesky.go): approximate minimum degree on the quotient graph, after
// Amestoy, Davis and Duff (SIAM J. Matrix Anal. Appl. 17(4), 1996).
//
// Eliminating a variable p turns it into an element whose variable list
// L_p is the union of p's variable neighbours and of the lists of the
// elements p touched, which p absorbs. A variable's degree is bounded from
// above, without forming the union, by
//
//	min(n - eliminated, d_i + |L_p \ i|, |A_i \ i| + |L_p \ i| + sum over e of |L_e \ L_p|),
//
// where A_i are i's variable neighbours and e runs over its other
// elements. Indistinguishable variables (same elements, same neighbours)
// are merged into one supervariable and eliminated together; an element
// whose list falls inside L_p is absorbed at once (aggressive absorption).
// Rows with more than max(16, 10 sqrt(n)) entries are ordered last.

// amdState is the quotient graph of the ordering.
type amdState struct {
	n     int
	adjV  [][]int32 // variable neighbours not yet covered by an element
	adjE  [][]int32 // adjacent elements
	elem  [][]int32 // variable list of an element
	esize []int     // sum of the weights of an element's variables
	nv    []int     // supervariable weight; 0 once merged or set aside
	state []uint8
	deg   []int

	head, next, prev []int32 // degree buckets
	mindeg           int

	mark  []int // stamps for L_p membership and set comparisons
	stamp int
	w     []int // |L_e \ L_p| of the elements met in one step
	wtag  []int

	mnext, mlast []int32 // members of a supervariable (linked list)
}

const (
	amdVariable uint8 = iota
	amdElement
	amdDead // absorbed element, merged variable or dense row
)

// amdOrder returns a fill-reducing elimination order of the symmetric
// pattern of a (the diagonal ignored; a must be square with a symmetric
// pattern): perm[k] is the row eliminated k-th. Time about O(nnz(L))
// in practice; memory O(nnz(a)) words beyond the output.
func amdOrder(a *linalg.CSR) []int {
	n := a.Rows
	s := &amdState{n: n}
	s.adjV = make([][]int32, n)
	s.adjE = make([][]int32, n)
	s.elem = make([][]int32, n)
	s.esize = make([]int, n)
	s.nv = make([]int, n)
	s.state = make([]uint8, n)
	s.deg = make([]int, n)
	s.head = make([]int32, n+1)
	s.next = make([]int32, n)
	s.prev = make([]int32, n)
	s.mark = make([]int, n)
	s.w = make([]int, n)
	s.wtag = make([]int, n)
	s.mnext = make([]int32, n)
	s.mlast = make([]int32, n)
	for i := range s.head {
		s.head[i] = -1
	}
	dense := max(16, int(10*math.Sqrt(float64(n))))
	var last []int // dense rows, ordered at the end
	for i := 0; i < n; i++ {
		s.nv[i] = 1
		s.mnext[i], s.mlast[i] = -1, int32(i)
		cnt := 0
		for _, j := range a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]] {
			if j != i {
				cnt++
			}
		}
		if cnt > dense {
			s.state[i] = amdDead
			s.nv[i] = 0
			last = append(last, i)
		}
	}
	for i := 0; i < n; i++ {
		if s.state[i] != amdVariable {
			continue
		}
		var adj []int32
		for _, j := range a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]] {
			if j != i && s.state[j] == amdVariable {
				adj = append(adj, int32(j))
			}
		}
		s.adjV[i] = adj
		s.deg[i] = len(adj)
		s.insert(i)
	}
	perm := make([]int, 0, n)
	nelim := len(last)
	for nelim < n {
		p := s.pick()
		for m := int32(p); m >= 0; m = s.mnext[m] {
			perm = append(perm, int(m))
		}
		nelim += s.nv[p]
		s.eliminate(p, nelim)
	}
	return append(perm, last...)
}

// insert puts variable i in the bucket of its degree.
func (s *amdState) insert(i int) {
	d := s.deg[i]
	s.prev[i] = -1
	s.next[i] = s.head[d]
	if h := s.head[d]; h >= 0 {
		s.prev[h] = int32(i)
	}
	s.head[d] = int32(i)
	s.mindeg = min(s.mindeg, d)
}

// remove takes variable i out of its bucket.
func (s *amdState) remove(i int) {
	if p := s.prev[i]; p >= 0 {
		s.next[p] = s.next[i]
	} else {
		s.head[s.deg[i]] = s.next[i]
	}
	if nx := s.next[i]; nx >= 0 {
		s.prev[nx] = s.prev[i]
	}
}

// pick removes and returns a variable of least degree.
func (s *amdState) pick() int {
	for s.head[s.mindeg] < 0 {
		s.mindeg++
	}
	p := int(s.head[s.mindeg])
	s.remove(p)
	return p
}

// eliminate turns the variable p into an element and updates the degrees
// of the variables of its list; nelim counts the rows eliminated so far,
// p's included.
func (s *amdState) eliminate(p, nelim int) {
	s.stamp++
	lpStamp := s.stamp
	s.mark[p] = lpStamp
	var lp []int32
	add := func(i int32) {
		if s.state[i] == amdVariable && s.nv[i] > 0 && s.mark[i] != lpStamp {
			s.mark[i] = lpStamp
			lp = append(lp, i)
		}
	}
	for _, e := range s.adjE[p] {
		if s.state[e] != amdElement {
			continue
		}
		for _, i := range s.elem[e] {
			add(i)
		}
		s.state[e] = amdDead // absorbed into p
		s.elem[e] = nil
	}
	for _, i := range s.adjV[p] {
		add(i)
	}
	s.state[p] = amdElement
	s.adjV[p], s.adjE[p] = nil, nil
	size := 0
	for _, i := range lp {
		size += s.nv[i]
		s.remove(int(i))
	}
	s.esize[p] = size

	// |L_e \ L_p| for every element met from L_p.
	for _, i := range lp {
		for _, e := range s.adjE[i] {
			if s.state[e] != amdElement {
				continue
			}
			if s.wtag[e] != lpStamp {
				s.wtag[e] = lpStamp
				s.w[e] = s.esize[e]
			}
			s.w[e] -= s.nv[i]
		}
	}

	// Prune the lists, bound the degrees, hash for supervariables.
	type hashed struct {
		h uint64
		i int32
	}
	hs := make([]hashed, 0, len(lp))
	for _, i := range lp {
		var h uint64
		ne := s.adjE[i][:0]
		ext := 0
		for _, e := range s.adjE[i] {
			if s.state[e] != amdElement {
				continue
			}
			if s.w[e] == 0 {
				s.state[e] = amdDead // L_e inside L_p: absorbed
				s.elem[e] = nil
				continue
			}
			ext += s.w[e]
			ne = append(ne, e)
			h += uint64(e)
		}
		ne = append(ne, int32(p))
		h += uint64(p)
		s.adjE[i] = ne
		nvv := s.adjV[i][:0]
		for _, j := range s.adjV[i] {
			if s.state[j] != amdVariable || s.nv[j] == 0 || s.mark[j] == lpStamp {
				continue
			}
			ext += s.nv[j]
			nvv = append(nvv, j)
			h += uint64(j)
		}
		s.adjV[i] = nvv
		out := size - s.nv[i]
		s.deg[i] = max(0, min(s.deg[i]+out, ext+out, s.n-nelim-s.nv[i]))
		hs = append(hs, hashed{h*0x9e3779b97f4a7c15 + uint64(len(ne))<<32 + uint64(len(nvv)), i})
	}

	// Merge indistinguishable variables.
	slices.SortFunc(hs, func(x, y hashed) int {
		switch {
		case x.h < y.h:
			return -1
		case x.h > y.h:
			return 1
		}
		return int(x.i - y.i)
	})
	for a := 0; a < len(hs); a++ {
		i := hs[a].i
		if s.nv[i] == 0 {
			continue
		}
		for b := a + 1; b < len(hs) && hs[b].h == hs[a].h; b++ {
			j := hs[b].i
			if s.nv[j] == 0 || !s.sameLists(int(i), int(j)) {
				continue
			}
			s.nv[i] += s.nv[j]
			s.deg[i] = max(0, s.deg[i]-s.nv[j])
			s.nv[j] = 0
			s.state[j] = amdDead
			s.adjV[j], s.adjE[j] = nil, nil
			s.mnext[s.mlast[i]] = j
			s.mlast[i] = s.mlast[j]
		}
	}
	live := lp[:0]
	for _, i := range lp {
		if s.nv[i] > 0 {
			live = append(live, i)
			s.insert(int(i))
		}
	}
	s.elem[p] = live
}

// sameLists reports whether variables i and j have the same elements and
// the same variable neighbours (lists without repeats).
func (s *amdState) sameLists(i, j int) bool {
	if len(s.adjE[i]) != len(s.adjE[j]) || len(s.adjV[i]) != len(s.adjV[j]) {
		return false
	}
	s.stamp++
	for _, e := range s.adjE[i] {
		s.mark[e] = s.stamp
	}
	for _, v := range s.adjV[i] {
		s.mark[v] = s.stamp
	}
	for _, e := range s.adjE[j] {
		if s.mark[e] != s.stamp {
			return false
		}
	}
	for _, v := range s.adjV[j] {
		if s.mark[v] != s.stamp {
			return false
		}
	}
	return true
}
