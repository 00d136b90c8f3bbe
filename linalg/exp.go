package linalg

import "math"

// expScaled sets dst[i] = exp(s src[i]) for every i < len(src) (dst at
// least as long; dst may be src). With useAsm (only when hasExpAVX2) the
// AVX2 kernel evaluates four at a time, within 2 units in the last place
// of math.Exp; arguments outside [-708, 709] (where the result is
// subnormal, zero or infinite), NaN and the last len(src) mod 4 entries go
// to math.Exp.
func expScaled(dst, src []float64, s float64, useAsm bool) {
	n := len(src)
	dst = dst[:n]
	j := 0
	if useAsm {
		n4 := n &^ 3
		for j < n4 {
			j += expScaledAVX2(&dst[j], &src[j], n4-j, s)
			if j < n4 {
				for e := j + 4; j < e; j++ {
					dst[j] = math.Exp(s * src[j])
				}
			}
		}
	}
	for ; j < n; j++ {
		dst[j] = math.Exp(s * src[j])
	}
}
