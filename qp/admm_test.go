package qp

import (
	"math/rand/v2"
	"testing"
)

func TestADMMNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	checkNoAllocs(t, NewADMM(nil), randProblem(rng, 15, 2, 10, 15), 5)
}
